"""A load of the bank under ``mkdocs serve``: the stages of ``qbank.bank.load.Loading``, each
reusing what the previous load kept in the ``FileCache``. The result is the same as a load
from scratch, problem for problem and in order (``tests/test_bank_incremental.py``)."""

from __future__ import annotations

import bisect
import operator
import time
from collections.abc import Callable
from itertools import compress, count, repeat
from pathlib import Path
from typing import cast

from qbank.bank.catalog import CATALOG_FILE, default_locale, read_catalog
from qbank.bank.crossfile import FoundBank
from qbank.bank.listing import RECENT_NS, QuestionFile, question_files
from qbank.bank.load import INCREMENTAL_UP_TO, Loading, display_key
from qbank.bank.loaded import Entry
from qbank.bank.model import Catalog
from qbank.bank.parallel import SecondProcess, check_files
from qbank.bank.problems import Problem
from qbank.bank.progress import Report, no_progress
from qbank.bank.rules import Checked, QuestionChecker, self_contained
from qbank.bank.stamps import stamp
from qbank.bank.yamlfile import Document
from qbank.live.checkcache import StoredLoading
from qbank.live.crossfile_update import update_cross_file
from qbank.live.filecache import FileCache
from qbank.live.store import Store

_PATH = operator.itemgetter(0)


class IncrementalLoading(Loading):
    """The stages of a load, with what ``cache`` kept from the previous one."""

    def __init__(self, cache: FileCache[Checked], behind: StoredLoading | None = None) -> None:
        self.cache = cache
        self.behind = behind  # where the files the cache does not hold are checked

    def catalog(self, root: Path) -> tuple[Document, Catalog | None]:
        """``catalog.yaml``, kept while its stamp holds (unless it changed in the last
        seconds, as a change within one clock tick keeps the stamp). Everything the cache
        holds is forgotten when the catalog or the default locale changed."""
        current = stamp(root / CATALOG_FILE)
        kept = self.cache.derived.catalog
        if current is not None and kept is not None and kept[0] == current:
            doc, catalog = kept[1], kept[2]
        else:
            doc, catalog = read_catalog(root)
        self.cache.use_context((current, default_locale(doc, catalog)))
        if current is not None and current[0] < time.time_ns() - RECENT_NS:
            self.cache.derived.catalog = (current, doc, catalog)
        return doc, catalog

    def files(
        self, root: Path, catalog: Catalog | None, problems: list[Problem]
    ) -> list[QuestionFile]:
        """The question files; folders unchanged since the last load are not listed again."""
        memory = self.cache.derived
        kept, memory.listing = memory.listing, None
        files, memory.listing = question_files(root, catalog, problems, kept)
        return files

    def checked(
        self,
        checker: QuestionChecker,
        files: list[QuestionFile],
        helper: SecondProcess,
        progress: Report = no_progress,
    ) -> list[Checked]:
        """Every file's result, the cached one where the file's stamp is unchanged."""
        cache = self.cache
        paths = list(map(_PATH, files))
        cache.keep_only(set(paths))
        stamps, results = cache.lookup(paths)
        missing = list(compress(count(), map(operator.is_, results, repeat(None))))
        wanted = [files[n] for n in missing]
        if self.behind is not None:
            checked_files = self.behind.checked(checker, wanted, helper, progress)
        else:
            checked_files = check_files(checker, wanted, helper, progress)
        for n, checked in zip(missing, checked_files, strict=True):
            if self_contained(checked):
                cache.put(files[n][0], stamps[n], checked)
            results[n] = checked
        return cast(list[Checked], results)  # every None replaced

    def cross_file(self, bank: FoundBank, helper: SecondProcess) -> list[Problem]:
        """The problems between files, updated from the previous load's (a first load: the
        near-duplicate pairs from those the persistent cache kept, where it is given)."""
        memory = self.cache.derived
        previous, memory.cross_file = memory.cross_file, None
        behind = self.behind
        if behind is not None and previous is not None:
            behind.make_keys()  # (the previous state compares them at once)
        kept = behind.pairs() if behind is not None and previous is None else None
        problems, memory.cross_file = update_cross_file(
            previous,
            INCREMENTAL_UP_TO,
            bank,
            helper,
            kept,
            behind.make_keys if behind is not None else lambda: None,
        )
        return problems

    def order(self, catalog: Catalog, entries: list[Entry]) -> list[Entry]:
        """The entries in display order. When the listing has the same length as before,
        the previous load's order is kept, the entries of files checked again (other
        objects at their place in the listing) taken out and the new ones inserted in
        place, which gives what sorting all of them gives."""
        memory = self.cache.derived
        kept, memory.order = memory.order, None
        key = display_key(catalog)
        result = None
        if kept is not None and len(kept[0]) == len(entries):
            result = _reordered(kept[0], kept[1], entries, key)
        if result is None:
            result = super().order(catalog, entries)
        memory.order = (entries, result)
        return result


def _reordered(
    before: list[Entry],
    ordered: list[Entry],
    entries: list[Entry],
    key: Callable[[Entry], tuple[int, int, int, str]],
) -> list[Entry] | None:
    """``entries`` in order, from the previous load's listing (``before``, as long) and its
    order (``ordered``): an edit keeps every file's place in the listing, so only the places
    holding another entry (files checked again) are looked at. None when too many changed."""
    differ = list(compress(count(), map(operator.is_not, before, entries)))
    if len(differ) > INCREMENTAL_UP_TO:
        return None
    result = list(ordered)
    for n in differ:
        at = bisect.bisect_left(result, key(before[n]), key=key)
        if at == len(result) or result[at] is not before[n]:
            return None
        del result[at]
    for n in differ:
        bisect.insort(result, entries[n], key=key)
    return result


class BankCache(FileCache[Checked]):
    """What ``mkdocs serve`` and ``qbank build --watch`` keep of one load of the bank for the
    next: ``load_bank(root, cache)`` goes through ``IncrementalLoading`` with it. With
    ``stored`` (a process's first load), the files it does not hold are taken from the
    persistent cache where they can be (``checkcache.StoredLoading``) before being checked."""

    stored: Store | None = None

    def loading(self) -> IncrementalLoading:
        """The stages of a load of the bank that use this cache (``qbank.bank.load.Loading``)."""
        stored = self.stored
        behind = StoredLoading(stored) if stored is not None and stored.enabled else None
        return IncrementalLoading(self, behind)
