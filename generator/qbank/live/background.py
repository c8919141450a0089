"""Background work under ``mkdocs serve`` gives way to rebuilds.

A serve process refreshes some files in background threads once a rebuild is published (the
search index after questions are added, removed or moved; the ``bank.json`` files). Python
runs one thread at a time, and a busy thread slows every system call of the next rebuild (a
thread waits up to the switch interval to run again after each call: a rebuild stats every
question file). So whoever needs the core takes a ``hold``: a file event (until the rebuild
it asks for has run), a rebuild (until it is published or has failed), the first build's
index work. Background work goes on only while no hold is taken; background loops pass
through ``paced``, which waits while held (never in the main thread, where MkDocs builds).

Holds are counted: each one ends by itself (``release``, or the end of its ``with``
block), whatever the others do, and releasing one twice is harmless.

This module is part of the core: it never imports MkDocs.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")

_free = threading.Event()
_free.set()
_holds = 0  # how many holds are taken and not released
_lock = threading.Lock()  # guards _holds and _free together


class Hold:
    """One hold on background work, from ``hold()`` until ``release``."""

    def __init__(self) -> None:
        global _holds
        self._released = False
        with _lock:
            _holds += 1
            _free.clear()

    def release(self, after: float = 0.0) -> None:
        """End this hold, ``after`` seconds from now (the browsers reloading the rebuilt
        page come first). A second call does nothing."""
        with _lock:
            if self._released:
                return
            self._released = True
        if after <= 0:
            _end()
            return
        timer = threading.Timer(after, _end)
        timer.daemon = True
        timer.start()

    def __enter__(self) -> Hold:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _end() -> None:
    global _holds
    with _lock:
        _holds -= 1
        if _holds == 0:
            _free.set()


def hold() -> Hold:
    """Hold background work at its next checkpoint until the hold is released (a rebuild is
    about to start); ``with hold():`` releases it on every way out of the block."""
    return Hold()


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
