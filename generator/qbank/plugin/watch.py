"""Watching the bank under ``mkdocs serve`` through the system's file events.

MkDocs polls every watched folder (a walk of all its files every half second: on a large
bank that walk keeps a core busy and delays every rebuild), so the content
folder is watched with watchdog's event observer (inotify), which wakes MkDocs' build loop
the way its own watcher does. Reads of the bank ("opened", "closed_no_write") are not changes.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.livereload import LiveReloadServer

from qbank.live import background
from qbank.plugin import internals
from qbank.plugin.report import log

_CHANGES = frozenset({"created", "deleted", "modified", "moved", "closed"})  # file events


def watch_bank(server: LiveReloadServer, content_root: Path) -> bool:
    """Watch ``content_root`` with file events; False where that is not possible (then
    MkDocs' own polling watcher must do)."""
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
            background.pause()  # the rebuild comes first
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
