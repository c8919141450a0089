"""The cross-file checks under ``mkdocs serve``, one edit at a time.

A rebuild after an edit re-checks the edited file only (``FileCache``), but the cross-file
checks involve every question: on a large bank the near-duplicate join of all prompts,
reading files again for the line of each warning, and even the dictionary passes over all
questions (repeated ids and prompt hashes) would cost more than the rest of the rebuild. So a
load leaves behind a ``CrossFileState``: the questions it saw (``Found``, and each file's
place), a ``Tally`` of ids, topics and prompt hashes, per locale the prompts left out as
identical to an earlier one, the near-duplicate pairs (by file), an index of the compared
prompts' shingles (``TokenIndex``), and the problems it located by reading files.

The next load finds the questions that changed (another ``Found`` where an edit keeps every
file's place, else by file: added and removed ones too) and updates the tally with them.
The rules are the core's (``qbank.bank.crossfile.cross_file_problems``), given the updated
tally, a ``KeptLocator`` and the updated near-duplicate pairs: a prompt is touched when its
question changed or when it started or stopped being left out; pairs of two untouched
prompts stand; each touched prompt is compared with the others holding one of its rarest
shingles, with the similarity and the pair's orientation the join's (``jaccard``, the
second the larger set or the later question).

When in doubt (first load, catalog changed, more than ``INCREMENTAL_UP_TO`` questions
changed, an index worn by many edits, or a bank of look-alikes where the join had to bound
its work, or a touched prompt with more than ``CANDIDATES_PER_PROMPT`` candidates) the
pairs are joined again. ``tests/test_bank_incremental.py`` and ``tests/test_lookalike.py``
compare the result with a load from scratch after each of a random sequence of edits.

One case is not caught: an edit that lengthens a shingle's list just past the join's cap
for prompts other than the edited ones. The update then still finds every pair, where a
join from scratch may leave out some among those look-alikes; the next join (more than
``CANDIDATES_PER_PROMPT`` candidates, a worn index, a restart) agrees again.
"""

from __future__ import annotations

import operator
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from qbank.bank.crossfile import (
    FoundBank,
    Locator,
    Near,
    ProblemMemo,
    Tally,
    compared,
    cross_file_problems,
    join_prompts,
    joined_prompts,
)
from qbank.bank.model import Catalog
from qbank.bank.parallel import SecondProcess
from qbank.bank.problems import Problem
from qbank.bank.rules import Found
from qbank.bank.similarity import (
    CANDIDATES_PER_PROMPT,
    NEAR_DUPLICATE_THRESHOLD,
    PackedTokens,
    jaccard,
)
from qbank.live.token_index import TokenIndex


def update_cross_file(
    previous: CrossFileState | None,
    up_to: int,
    bank: FoundBank,
    helper: SecondProcess,
    kept: KeptPairs | None = None,
    ready: Callable[[], None] = lambda: None,
) -> tuple[list[Problem], CrossFileState]:
    """The problems between files, as ``qbank.bank.crossfile.check_cross_file`` finds them, from
    the state the previous load left (``previous``, which this may update in place), and the
    state for the next load. More than ``up_to`` changed questions: the pairs are joined
    again, or with ``kept`` (the pairs and whether they come of a bounded join, for a first
    load: ``lookalikecache.stored_pairs``) taken from there. ``ready``: makes the comparison
    keys of questions that have none yet (``checkcache.StoredLoading.make_keys``), called
    before the new state's index of prompts is made (``CrossFileState.settle``)."""
    root, catalog, catalog_doc, found = bank
    locales = tuple(catalog.locales)
    if previous is not None and previous.locales != locales:
        previous = None
    if previous is not None:
        previous.settle()
    changes = previous.changes(found) if previous is not None else None
    locator = KeptLocator(root, catalog, previous, changes.renewed if changes else set())
    if previous is not None and changes is not None:
        tally = previous.tally
        before = previous.found
        tally.update(
            [before[previous.at[file]] for file in changes.changed if file in previous.at],
            [found[changes.at[file]] for file in changes.changed if file in changes.at],
        )
    else:
        tally = Tally.of(found, locales)
    states: list[CrossFileState] = []

    def near_pairs(same: dict[str, set[int]]) -> list[Near]:
        if (
            previous is not None
            and changes is not None
            and len(changes.changed) <= up_to
            and previous.can_update()
        ):
            near = previous.update(found, same, changes)
            if near is not None:
                states.append(previous)
                return near
        if kept is not None:
            near, capped = kept(found, locales, same, helper)

            def token_sets() -> dict[str, PackedTokens]:
                ready()
                return joined_prompts(found, locales, same)

            made = CrossFileState.after_join(locales, found, token_sets, same, near, tally, capped)
        else:
            near, joined, capped = join_prompts(found, locales, same, helper)
            made = CrossFileState.after_join(
                locales, found, lambda: joined, same, near, tally, capped
            )
        states.append(made)
        return near

    problems = cross_file_problems(catalog, catalog_doc, found, tally, locator, near_pairs)
    state = states[0]
    state.problems, state.prompts = locator.used_problems, locator.used_prompts
    return problems, state


KeptPairs = Callable[
    [list[Found], tuple[str, ...], dict[str, set[int]], SecondProcess], tuple[list[Near], bool]
]
"""The near-duplicate pairs from elsewhere, and whether they come of a join that bounded its
work (``lookalikecache.stored_pairs``)."""


class KeptLocator(Locator):
    """A ``Locator`` that takes a problem's line and a prompt's text from the previous load
    while the file was not read again since (the same ``Found`` object: a file's ``Found``
    is made again whenever the file is checked again)."""

    def __init__(
        self,
        root: Path,
        catalog: Catalog,
        previous: CrossFileState | None,
        renewed: set[str],
    ) -> None:
        super().__init__(root, catalog)
        self.kept_problems: ProblemMemo = previous.problems if previous is not None else {}
        self.kept_prompts = previous.prompts if previous is not None else {}
        self.renewed = renewed

    def kept_problem(self, file: str, asked: tuple[Any, ...]) -> Problem | None:
        """The problem located by the previous load, while the file is unchanged."""
        if file in self.renewed:
            return None
        return self.kept_problems.get(file, {}).get(asked)

    def kept_prompt(self, key: tuple[str, str]) -> str | None:
        """The prompt read by the previous load, while the file is unchanged."""
        return None if key[0] in self.renewed else self.kept_prompts.get(key)


class NearPair(NamedTuple):
    """A near-duplicate pair of prompts in one locale, by file."""

    first: str
    second: str  # the larger shingle set, or the later question of two the same size
    score: float


class Changes(NamedTuple):
    """How the questions differ from the previous load's."""

    renewed: set[str]  # files checked again since (a new ``Found``)
    changed: set[str]  # files whose ``Found`` differs, added and removed ones
    at: dict[str, int]  # file -> index in the current ``found``


@dataclass
class CrossFileState:
    """What one load's cross-file checks leave for the next (see the module's notes)."""

    locales: tuple[str, ...]
    found: list[Found]
    at: dict[str, int]  # file -> index in ``found``
    same: dict[str, set[str]]  # per locale: files left out as having an earlier one's prompt
    pairs: dict[str, list[NearPair]]  # per locale
    indexes: dict[str, TokenIndex]  # per locale, the prompts of the join
    tally: Tally
    capped: bool  # the join bounded its work (a bank of look-alikes): join again next time
    problems: ProblemMemo = field(default_factory=dict)
    prompts: dict[tuple[str, str], str] = field(default_factory=dict)
    # the indexes, made when first needed (``settle``): after a join, only the next load
    # reads them, so a first load under ``mkdocs serve`` leaves them to the background
    later: Callable[[], dict[str, TokenIndex]] | None = None
    settling: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def after_join(
        cls,
        locales: tuple[str, ...],
        found: list[Found],
        token_sets: Callable[[], dict[str, PackedTokens]],
        same: dict[str, set[int]],
        near: list[Near],
        tally: Tally,
        capped: bool,
    ) -> CrossFileState:
        """The state after a join (``near``: its pairs, as indexes into ``found``); its
        indexes made of the prompts ``token_sets`` gives when first needed."""
        pairs: dict[str, list[NearPair]] = {locale: [] for locale in locales}
        for locale, (a, b, score) in near:
            pairs[locale].append(NearPair(found[a].file, found[b].file, score))

        def indexes() -> dict[str, TokenIndex]:
            sets = token_sets()
            return {
                loc: TokenIndex([(found[n].file, tokens) for n, tokens in sets[loc]])
                for loc in locales
            }

        return cls(
            locales,
            found,
            {item.file: n for n, item in enumerate(found)},
            {loc: {found[n].file for n in same[loc]} for loc in locales},
            pairs,
            {},
            tally,
            capped,
            later=indexes,
        )

    def settle(self) -> None:
        """Make the indexes now if they wait (``later``): in the background once a first
        build is published (``SiteSession.published``), or by the next load, whichever
        comes first (the other waits for it)."""
        with self.settling:
            if self.later is not None:
                self.indexes = self.later()
                self.later = None

    def changes(self, found: list[Found]) -> Changes:
        """How ``found`` differs from the previous load's. An edit keeps every question's
        place: then only the places holding another object are looked at."""
        before = self.found
        if len(before) == len(found):
            differ = [n for n, same in enumerate(map(operator.is_, before, found)) if not same]
            if all(before[n].file == found[n].file for n in differ):
                return Changes(
                    {found[n].file for n in differ},
                    {found[n].file for n in differ if before[n] != found[n]},
                    self.at,
                )
        at = {item.file: n for n, item in enumerate(found)}
        renewed: set[str] = set()
        changed = {file for file in self.at if file not in at}
        for item in found:
            n = self.at.get(item.file)
            old = None if n is None else before[n]
            if old is not item:
                renewed.add(item.file)
                if old != item:
                    changed.add(item.file)
        return Changes(renewed, changed, at)

    def can_update(self) -> bool:
        """Whether the pairs may be updated: the last join did not bound its work, and no
        index holds too many shingles of prompts since changed."""
        self.settle()
        return not self.capped and not any(index.worn() for index in self.indexes.values())

    def update(
        self, found: list[Found], same: dict[str, set[int]], changes: Changes
    ) -> list[Near] | None:
        """The near-duplicate pairs of the current ``found`` (``update_pairs``), with this
        state brought up to date; None when they must be joined again."""
        self.settle()
        near = update_pairs(self, found, same, changes)
        if near is not None:
            self.found, self.at = found, changes.at
        return near


class Pairs(Protocol):
    """The near-duplicate pairs of a load, by file, and what ``update_pairs`` needs to bring
    them up to date for the next one."""

    locales: tuple[str, ...]
    same: dict[str, set[str]]  # per locale: files left out as having an earlier one's prompt
    pairs: dict[str, list[NearPair]]  # per locale
    indexes: dict[str, TokenIndex]  # per locale, the prompts of the join


def update_pairs(
    kept: Pairs, found: list[Found], same: dict[str, set[int]], changes: Changes
) -> list[Near] | None:
    """The near-duplicate pairs of ``found`` (those the join finds, per locale in catalog
    order), ``kept``'s pairs, ``same`` and indexes brought up to date; None when a touched
    prompt has too many candidates (the pairs must be joined again; ``kept`` is then
    half updated and must not be used).

    ``same``: per locale, the questions left out as having an earlier one's prompt. A
    prompt is touched when its question changed, or when it was left out and is no
    longer, or the other way round; pairs of two untouched prompts stand.
    """
    at = changes.at
    near: list[Near] = []
    for locale in kept.locales:
        same_now = {found[n].file for n in same[locale]}
        index = kept.indexes[locale]
        touched = changes.changed | same_now.symmetric_difference(kept.same[locale])

        def joins(file: str) -> bool:
            """Whether the file's prompt takes part in the comparison now."""
            n = at.get(file)
            return n is not None and file not in same_now and compared(found[n], locale)  # noqa: B023

        for file in touched:
            if file in index.slot_of:
                index.remove(file)
        fresh = sorted(filter(joins, touched), key=at.__getitem__)
        tokens_of = {file: found[at[file]].prompts[locale][1] for file in fresh}
        index.add(list(tokens_of.items()))
        pairs = {
            (pair.first, pair.second): pair
            for pair in kept.pairs[locale]
            if pair.first not in touched and pair.second not in touched
        }
        for file, mine in tokens_of.items():
            mine_set = set(mine)
            candidates = index.candidates(file, mine, NEAR_DUPLICATE_THRESHOLD)
            if len(candidates) > CANDIDATES_PER_PROMPT:
                return None
            for other in candidates:
                theirs = found[at[other]].prompts[locale][1]
                score = jaccard(mine_set, theirs)
                if score < NEAR_DUPLICATE_THRESHOLD:
                    continue
                if (len(theirs), at[other]) > (len(mine), at[file]):
                    pair = NearPair(file, other, score)
                else:
                    pair = NearPair(other, file, score)
                pairs[pair.first, pair.second] = pair
        kept.same[locale] = same_now
        kept.pairs[locale] = list(pairs.values())
        near += [(locale, (at[p.first], at[p.second], p.score)) for p in pairs.values()]
    return near
