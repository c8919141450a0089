"""Background work under ``mkdocs serve`` gives way to rebuilds.

A serve process refreshes some files in background threads once a rebuild is published (the
search index after questions are added, removed or moved; the ``bank.json`` files). Python
runs one thread at a time, and a busy thread slows every system call of the next rebuild (a
thread waits up to the switch interval to run again after each call: a rebuild stats every
question file). So the plugin pauses background work as soon as a file changes and resumes
it once the rebuild is published; background loops pass through ``paced``, which waits
while paused (never in the main thread, where MkDocs builds).

This module is part of the core: it never imports MkDocs.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")

_free = threading.Event()
_free.set()
_pauses = 0  # how many times work was paused (a later resume only ends the latest pause)
_lock = threading.Lock()


def pause() -> None:
    """Hold background work at its next checkpoint (a rebuild is about to start)."""
    global _pauses
    with _lock:
        _pauses += 1
        _free.clear()


def resume(after: float = 0.0) -> None:
    """Let background work go on (the rebuild is over), ``after`` seconds from now (the
    browsers reloading the rebuilt page come first), unless it is paused again meanwhile."""
    if after <= 0:
        _free.set()
        return
    with _lock:
        pauses = _pauses

    def go_on() -> None:
        with _lock:
            if pauses == _pauses:
                _free.set()

    timer = threading.Timer(after, go_on)
    timer.daemon = True
    timer.start()


def paused() -> bool:
    """Whether background work is held."""
    return not _free.is_set()


def checkpoint() -> None:
    """Wait here while background work is held; in the main thread, never."""
    if threading.current_thread() is not threading.main_thread():
        _free.wait()


def paced(items: Iterable[T], every: int = 64) -> Iterator[T]:
    """``items``, waiting before every ``every``-th one while background work is held; in
    the main thread (where MkDocs builds, also the first index) it never waits."""
    if threading.current_thread() is threading.main_thread():
        yield from items
        return
    for n, item in enumerate(items):
        if n % every == 0:
            _free.wait()
        yield item
