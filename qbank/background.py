"""Background work under ``mkdocs serve`` gives way to rebuilds.

A serve process refreshes some files in background threads once a rebuild is published (the
search index after questions are added, removed or moved; the ``bank.json`` files). Python
runs one thread at a time, and a busy thread slows every system call of the next rebuild (a
thread waits up to the switch interval to run again after each call: a rebuild stats every
question file). So the plugin pauses background work as soon as a file changes and resumes
it once the rebuild is published; background loops pass through ``paced``, which waits
while paused.

This module is part of the core: it never imports MkDocs.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")

_free = threading.Event()
_free.set()


def pause() -> None:
    """Hold background work at its next checkpoint (a rebuild is about to start)."""
    _free.clear()


def resume() -> None:
    """Let background work go on (the rebuild is over)."""
    _free.set()


def paused() -> bool:
    """Whether background work is held."""
    return not _free.is_set()


def paced(items: Iterable[T], every: int = 64) -> Iterator[T]:
    """``items``, waiting before every ``every``-th one while background work is held."""
    for n, item in enumerate(items):
        if n % every == 0:
            _free.wait()
        yield item
