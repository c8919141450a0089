"""What ``mkdocs serve`` keeps across rebuilds of the bank: each question file's result,
used again while the file's stamp (modification time in ns, size, inode) is unchanged, and
what the last load computed over all the files together (``BankMemory``).

Paths are plain strings: a rebuild stamps every file of the bank (30,000 at the largest
size measured), and building a ``pathlib.Path`` per file costs more than the ``stat`` itself.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from qbank.bank.stamps import Stamp

if TYPE_CHECKING:
    from qbank.bank.listing import Listing
    from qbank.bank.loaded import Entry
    from qbank.bank.model import Catalog
    from qbank.bank.yamlfile import Document
    from qbank.live.crossfile_update import CrossFileState

T = TypeVar("T")


@dataclass
class BankMemory:
    """What a load computed over the whole bank, for the next load to update."""

    catalog: tuple[Stamp, Document, Catalog | None] | None = None  # read while it had Stamp
    listing: Listing | None = None  # every folder's part of the listing
    order: tuple[list[Entry], list[Entry]] | None = None  # entries as listed, and in order
    cross_file: CrossFileState | None = None  # see ``qbank.live.crossfile_update``


class FileCache(Generic[T]):
    """path → (stamp, result); every result is dropped when the context key changes.

    The context key holds what the per-file results depend on besides the file itself (for
    question files: the catalog's stamp), so a changed catalog re-checks every file.
    ``derived`` is forgotten with the per-file results.
    """

    def __init__(self) -> None:
        self.context: object = None
        self.results: dict[str, tuple[Stamp, T]] = {}
        self.derived = BankMemory()

    def use_context(self, context: object) -> None:
        """Forget every stored result unless ``context`` equals the one they were made in."""
        if context != self.context:
            self.results.clear()
            self.derived = BankMemory()
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
