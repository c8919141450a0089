"""``qbank build --watch``: the docs tree kept up to date on every edit of the bank (or of
the site templates, or of the user's mkdocs.yml), so a publisher's own live server
(``zensical serve``, ``properdocs serve``, ``mkdocs serve``) previews it.

File events (watchdog) wake one loop that writes the tree again through the same
``TreeBuilder``: it reloads only changed question files and renders again only the pages
that show changed questions; only files whose bytes changed are rewritten, so the
publisher's server rebuilds just those. A bank with errors leaves the tree as it was.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from qbank.bank.problems import ContentError
from qbank.site.templates import TEMPLATES
from qbank.tree.build import TreeBuilder

_CHANGES = frozenset({"created", "deleted", "modified", "moved", "closed"})
SETTLE = 0.05  # seconds to let an editor's burst of events (write, rename) arrive


def watch_tree(
    builder: TreeBuilder, echo: Callable[[str], None], stop: threading.Event | None = None
) -> None:
    """Write the tree again after each change until ``stop`` is set (or Ctrl-C)."""
    changed = threading.Event()
    stop = stop or threading.Event()

    class Handler(FileSystemEventHandler):
        def __init__(self, *flags: threading.Event, only: str = "") -> None:
            self.flags, self.only = flags, only  # ``only``: the one file of the folder

        def on_any_event(self, event: FileSystemEvent) -> None:
            if event.event_type not in _CHANGES or (
                event.is_directory and event.event_type == "modified"
            ):
                return
            paths = {str(event.src_path), str(getattr(event, "dest_path", "") or "")}
            if self.only and self.only not in paths:
                return
            for flag in self.flags:
                flag.set()

    observer = Observer()
    observer.schedule(Handler(changed), str(builder.content), recursive=True)
    # (a template changed: the builder's session renders every page again)
    observer.schedule(Handler(changed), str(TEMPLATES), recursive=True)
    config = builder.config_file.resolve()
    if config.is_file():  # its folder, for the editors that replace the file
        observer.schedule(Handler(changed, only=str(config)), str(config.parent), recursive=False)
    observer.start()
    echo(f"watching {builder.content} (Ctrl-C stops)")
    try:
        while not stop.is_set():
            if not changed.wait(0.2):
                continue
            time.sleep(SETTLE)
            changed.clear()
            started = time.monotonic()
            try:
                report = builder.build()
            except ContentError as error:
                echo(error.format_text() + "\nthe bank has errors; the tree is unchanged")
                continue
            echo(
                f"{len(report.written)} file(s) written, {len(report.removed)} removed "
                f"in {time.monotonic() - started:.2f} s"
            )
    except KeyboardInterrupt:
        pass
    finally:
        observer.stop()
        observer.join()
