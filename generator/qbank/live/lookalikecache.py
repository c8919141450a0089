"""The near-duplicate pairs of the last build, kept in the persistent cache
(``qbank.live.store``) and brought up to date for the next one, instead of joined again.

The join compares every prompt with every other one (a third of a warm build's load at
30,000 questions x 3 locales, 4.9 s of CPU). A pull request changes a few files, and the
pairs of two unchanged prompts stand; so one entry keeps, per locale, the pairs by file and
the files left out as having an earlier one's prompt, with the key of every file the
pairs were found from (``checkcache``'s: its bytes, place, the catalog's part and qbank's
version) and whether the join had to bound its work. The next build takes the files whose
key is not the one kept (added, removed and changed ones) as changed and updates the pairs
as ``mkdocs serve`` does after an edit (``crossfile_update.update_pairs``: each touched
prompt compared with the unchanged ones holding one of its rarest shingles).

The pairs are joined again, as without the cache, when the entry is missing or has not its
shape, the locales differ, the last join bounded its work (a bank of look-alikes), more
than ``INCREMENTAL_UP_TO`` files changed, or a touched prompt has too many candidates; the
one case an update may differ from a join is ``crossfile_update``'s (a list lengthened just
past the join's cap, where the update finds every pair). Only warnings come of the pairs:
nothing built depends on them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from qbank.bank.crossfile import Join, Near, compared, join_prompts
from qbank.bank.load import INCREMENTAL_UP_TO
from qbank.bank.parallel import SecondProcess
from qbank.bank.rules import Found
from qbank.bank.similarity import NEAR_DUPLICATE_THRESHOLD
from qbank.live.crossfile_update import Changes, KeptPairs, NearPair, update_pairs
from qbank.live.store import Store, key
from qbank.live.token_index import TokenIndex

KIND = "lookalikes"


class _Kept:
    """The pairs of the last build (``crossfile_update.Pairs``), the index of the current
    unchanged prompts beside them."""

    def __init__(
        self,
        locales: tuple[str, ...],
        same: dict[str, set[str]],
        pairs: dict[str, list[NearPair]],
        indexes: dict[str, TokenIndex],
    ) -> None:
        self.locales = locales
        self.same = same
        self.pairs = pairs
        self.indexes = indexes


def stored_pairs(
    store: Store, keys: Mapping[str, str], ready: Callable[[], None] = lambda: None
) -> KeptPairs:
    """The near-duplicate pairs, updated from those ``store`` kept from the last build where
    it can (else joined), kept for the next one; and whether a join bounded its work (its
    pairs are then joined again by the next load). ``keys``: each question file's key (a
    file without one counts as changed). ``ready`` makes the comparison keys of questions
    that have none yet (``checkcache.StoredLoading.make_keys``), before any is compared:
    when no prompt changed since the last build, none is."""

    def pairs_of(
        found: list[Found],
        locales: tuple[str, ...],
        same: dict[str, set[int]],
        helper: SecondProcess,
    ) -> tuple[list[Near], bool]:
        name = key(KIND, *locales)
        near = _updated(store.get(KIND, name), found, locales, same, keys, ready)
        capped = False
        if near is None:
            ready()
            near, _tokens, capped = join_prompts(found, locales, same, helper)
        pairs: dict[str, list[list[Any]]] = {locale: [] for locale in locales}
        for locale, (a, b, score) in near:
            pairs[locale].append([found[a].file, found[b].file, score])
        store.put(
            KIND,
            name,
            {
                "capped": capped,
                "files": {item.file: keys.get(item.file, "") for item in found},
                "same": {loc: sorted(found[n].file for n in same[loc]) for loc in locales},
                "pairs": pairs,
            },
        )
        return near, capped

    return pairs_of


def stored_join(
    store: Store, keys: Mapping[str, str], ready: Callable[[], None] = lambda: None
) -> Join:
    """``stored_pairs`` as a ``Join`` (the pairs alone)."""
    pairs_of = stored_pairs(store, keys, ready)
    return lambda found, locales, same, helper: pairs_of(found, locales, same, helper)[0]


def _updated(
    kept: Any,
    found: list[Found],
    locales: tuple[str, ...],
    same: dict[str, set[int]],
    keys: Mapping[str, str],
    ready: Callable[[], None],
) -> list[Near] | None:
    """The pairs of ``found``, updated from the entry ``kept``; None when they must be joined
    again. The prompts' comparison keys are read (``ready`` first) only where one changed."""
    state = _restored(kept, locales)
    if state is None:
        return None
    files, same_before, pairs_before = state
    at = {item.file: n for n, item in enumerate(found)}
    changed = {file for file in at if not keys.get(file) or files.get(file) != keys[file]}
    changed.update(file for file in files if file not in at)
    if len(changed) > INCREMENTAL_UP_TO:
        return None
    indexes = {}
    for locale in locales:
        same_now = {found[n].file for n in same[locale]}
        touched = changed | same_now.symmetric_difference(same_before[locale])
        if not touched:  # (nothing to compare: the kept pairs stand)
            indexes[locale] = TokenIndex.for_lookups([], [], NEAR_DUPLICATE_THRESHOLD)
            continue
        ready()
        sought = [
            found[at[file]].prompts[locale][1]
            for file in touched
            if file in at and file not in same_now and compared(found[at[file]], locale)
        ]
        unchanged = [
            (item.file, item.prompts[locale][1])
            for n, item in enumerate(found)
            if item.file not in changed and n not in same[locale] and compared(item, locale)
        ]
        indexes[locale] = TokenIndex.for_lookups(unchanged, sought, NEAR_DUPLICATE_THRESHOLD)
    pairs = _Kept(locales, same_before, pairs_before, indexes)
    return update_pairs(pairs, found, same, Changes(set(), changed, at))


def _restored(
    kept: Any, locales: tuple[str, ...]
) -> tuple[dict[str, str], dict[str, set[str]], dict[str, list[NearPair]]] | None:
    """The files' keys, the files left out and the pairs of an entry (per locale); None when
    it has not that shape, is of other locales or the join behind it bounded its work."""
    try:
        if kept["capped"] is not False:
            return None
        files, same, pairs = kept["files"], kept["same"], kept["pairs"]
        if not isinstance(files, dict) or set(same) != set(locales) or set(pairs) != set(locales):
            return None
        same_files = {locale: set(map(str, same[locale])) for locale in locales}
        near = {
            locale: [NearPair(str(a), str(b), float(s)) for a, b, s in pairs[locale]]
            for locale in locales
        }
    except (KeyError, TypeError, ValueError):
        return None
    return files, same_files, near
