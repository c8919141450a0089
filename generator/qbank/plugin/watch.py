"""Watching the bank under ``mkdocs serve`` through the system's file events.

MkDocs polls every watched folder (a walk of all its files every half second: on a large
bank that walk keeps a core busy and delays every rebuild), so the content
folder is watched with watchdog's event observer (inotify), which wakes MkDocs' build loop
the way its own watcher does. Reads of the bank ("opened", "closed_no_write") are not changes.

A change holds background work at once (``EventHold``): the rebuild it asks for comes first.
That hold ends when the build that answers it ends, however it ends (MkDocs may fail to
load mkdocs.yml before any plugin event runs).
"""

from __future__ import annotations

import threading
from pathlib import Path

from mkdocs.livereload import LiveReloadServer

from qbank.live import background
from qbank.plugin import internals
from qbank.plugin.report import log

_CHANGES = frozenset({"created", "deleted", "modified", "moved", "closed"})  # file events


class EventHold:
    """The one hold file events take on background work for the rebuild they ask for
    (taken by the first event, released once the build that answers them has run)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.held: background.Hold | None = None

    def take(self) -> None:
        """An event came: hold background work, if no event did since the last build."""
        with self.lock:
            if self.held is None:
                self.held = background.hold()

    def answered(self) -> background.Hold | None:
        """A build starts: it answers the events so far (the hold to release once it is
        over); later events hold again, for the build after it."""
        with self.lock:
            held, self.held = self.held, None
        return held


def watch_bank(server: LiveReloadServer, content_root: Path, events: EventHold | None) -> bool:
    """Watch ``content_root`` with file events (each holds background work through
    ``events``, when given); False where that is not possible (then MkDocs' own polling
    watcher must do)."""
    try:
        from watchdog.events import FileSystemEvent, FileSystemEventHandler
        from watchdog.observers import Observer
        from watchdog.observers.polling import PollingObserver
    except ImportError:  # pragma: no cover - MkDocs depends on watchdog
        return False
    if Observer is PollingObserver:
        return False
    rebuild = internals.rebuild_trigger(server)
    if rebuild is None:
        return False
    wake = rebuild

    class Changed(FileSystemEventHandler):
        def on_any_event(self, event: FileSystemEvent) -> None:
            if event.event_type not in _CHANGES or (
                event.is_directory and event.event_type == "modified"
            ):
                return
            if events is not None:
                events.take()  # the rebuild comes first
            wake()

    observer = Observer()
    try:
        observer.schedule(Changed(), str(content_root), recursive=True)
        observer.start()
    except OSError as error:  # e.g. the inotify watch limit: poll like MkDocs does
        log.info("qbank: watching %s by polling (%s)", content_root, error)
        return False
    log.info("Watching %s for changes (file events)", content_root)
    return True
