"""Per-file results kept across rebuilds (``mkdocs serve``): a file is read again only when
its stamp (modification time in ns, size, inode) changed since the result was stored.

Paths are plain strings: a rebuild stamps every file of the bank (30,000 at the largest
size measured), and building a ``pathlib.Path`` per file costs more than the ``stat`` itself.
"""

from __future__ import annotations

import os
from typing import Generic, TypeVar

T = TypeVar("T")
Stamp = tuple[int, int, int]


def stamp(path: str | os.PathLike[str]) -> Stamp | None:
    """The file's (mtime_ns, size, inode), or None when it cannot be read."""
    try:
        st = os.stat(path)  # noqa: PTH116 (a Path per file costs more than the stat)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


class FileCache(Generic[T]):
    """path → (stamp, result); every result is dropped when the context key changes.

    The context key holds what the per-file results depend on besides the file itself (for
    question files: the catalog's stamp), so a changed catalog re-checks every file.

    ``derived`` holds what a load computed over all the files together (for the bank: the
    cross-file checks' state, see ``qbank.bank``), for the next load to update instead of
    computing it again; it is forgotten with the per-file results.
    """

    def __init__(self) -> None:
        self.context: object = None
        self.results: dict[str, tuple[Stamp, T]] = {}
        self.derived: dict[str, object] = {}

    def use_context(self, context: object) -> None:
        """Forget every stored result unless ``context`` equals the one they were made in."""
        if context != self.context:
            self.results.clear()
            self.derived.clear()
            self.context = context

    def get(self, path: str, current: Stamp | None) -> T | None:
        """The stored result for ``path`` if the file still has stamp ``current``."""
        stored = self.results.get(path)
        if stored is None or current is None or stored[0] != current:
            return None
        return stored[1]

    def lookup(self, paths: list[str]) -> tuple[list[Stamp | None], list[T | None]]:
        """Every path's current stamp and, where it still holds, its stored result: ``stamp``
        and ``get`` in one loop (a rebuild runs it over every file of the bank)."""
        results = self.results
        stamps: list[Stamp | None] = []
        kept: list[T | None] = []
        for path in paths:
            try:
                st = os.stat(path)  # noqa: PTH116
            except OSError:
                stamps.append(None)
                kept.append(None)
                continue
            current = (st.st_mtime_ns, st.st_size, st.st_ino)
            stamps.append(current)
            stored = results.get(path)
            kept.append(stored[1] if stored is not None and stored[0] == current else None)
        return stamps, kept

    def put(self, path: str, current: Stamp | None, result: T) -> None:
        """Store ``result`` for ``path`` read while it had stamp ``current`` (taken before)."""
        if current is not None:
            self.results[path] = (current, result)

    def keep_only(self, paths: set[str]) -> None:
        """Drop the results of files no longer in the bank."""
        for path in [p for p in self.results if p not in paths]:
            del self.results[path]
