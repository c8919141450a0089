"""The rules between question files: duplicate ids, identical prompts, nearly identical
prompts, and catalog topics without questions.

Each rule is one function here. A load from scratch (``check_cross_file``) and an update
under ``mkdocs serve`` (``qbank.live.crossfile_update``) both call ``cross_file_problems``
and differ only in how they get its inputs: the ``Tally`` (counted, or updated), the
near-duplicate pairs (joined, or updated) and the ``Locator`` (which reads a file again for
a problem's line, or keeps what it read while the file is unchanged).
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from qbank.bank.catalog import catalog_topics
from qbank.bank.listing import display_prefix
from qbank.bank.model import Catalog, Question
from qbank.bank.parallel import SecondProcess, map_largest_apart
from qbank.bank.problems import Problem, Severity
from qbank.bank.rules import Found
from qbank.bank.similarity import (
    CANDIDATES_PER_PROMPT,
    MIN_SHINGLES,
    NEAR_DUPLICATE_THRESHOLD,
    PackedTokens,
    bounded_near_duplicates,
    normalize_text,
)
from qbank.bank.yamlfile import Document, Path_, read_document, validate_model

T = TypeVar("T")
# A near-duplicate pair in one locale: (locale, (first, second, similarity)), the questions
# as indexes into the list of found ones, the second the larger shingle set or the later.
Near = tuple[str, tuple[int, int, float]]
ProblemMemo = dict[str, dict[tuple[Any, ...], Problem]]  # file -> what was asked -> problem
NAMED_LOOKALIKES = 3  # look-alikes named in a near-duplicate warning; the rest are counted


def cross_file_problems(
    catalog: Catalog,
    catalog_doc: Document,
    found: list[Found],
    tally: Tally,
    locator: Locator,
    near_pairs: Callable[[dict[str, set[int]]], list[Near]],
) -> list[Problem]:
    """Every problem between files, in a fixed order. ``near_pairs`` gives the near-duplicate
    pairs of ``found`` given, per locale, the questions left out of the comparison (those
    with the same prompt as an earlier one)."""
    problems = duplicate_id_problems(found, tally, locator)
    same_problems, same = same_prompt_problems(found, catalog.locales, tally, locator)
    problems += same_problems
    problems += near_duplicate_problems(found, catalog.locales, near_pairs(same), locator)
    problems += empty_topic_problems(catalog, catalog_doc, tally)
    return problems


class FoundBank(NamedTuple):
    """What the cross-file rules look at: the bank's root and catalog, and the questions
    that passed their own checks, in listing order."""

    root: Path
    catalog: Catalog
    catalog_doc: Document
    found: list[Found]


# How the near-duplicate pairs are found: given the questions, the locales, per locale the
# questions left out (``same_prompt_problems``) and the helper process; ``join_pairs``, or
# one that updates the pairs a cache kept (``qbank.live.lookalikecache``).
Join = Callable[[list[Found], tuple[str, ...], dict[str, set[int]], SecondProcess], list[Near]]


def check_cross_file(
    bank: FoundBank,
    helper: SecondProcess,
    later: LaterLookalikes | None = None,
    join: Join | None = None,
) -> list[Problem]:
    """The problems between files, computed from scratch (the near-duplicate pairs by
    ``join``, by default ``join_pairs``); with ``later``, all but the near-duplicate
    warnings, which ``later`` computes when asked."""
    root, catalog, catalog_doc, found = bank
    locales = tuple(catalog.locales)
    locator = Locator(root, catalog)
    pairs_of = join or join_pairs

    def near_pairs(same: dict[str, set[int]]) -> list[Near]:
        if later is None:
            return pairs_of(found, locales, same, helper)
        later.hold(
            lambda helper: near_duplicate_problems(
                found, locales, pairs_of(found, locales, same, helper), locator
            )
        )
        return []

    return cross_file_problems(
        catalog, catalog_doc, found, Tally.of(found, locales), locator, near_pairs
    )


class LaterLookalikes:
    """The near-duplicate comparison of a load, put off until ``problems`` is asked for. It
    finds warnings only, and nothing built depends on them: ``mkdocs build`` can send the
    loaded bank on first and compare while the site is being built (``plugin/loading.py``;
    the comparison is a third of a warm build's load at 30,000 questions x 3 locales)."""

    def __init__(self) -> None:
        self._compare: Callable[[SecondProcess], list[Problem]] | None = None
        # an update of pairs kept from an earlier comparison, not a join of every prompt:
        # cheap enough to come after the bank on any machine (set by the load's stages)
        self.light = False

    def hold(self, compare: Callable[[SecondProcess], list[Problem]]) -> None:
        """Keep the comparison ``compare`` (given the helper process it may use) for later."""
        self._compare = compare

    def problems(self, helper: SecondProcess) -> list[Problem]:
        """The comparison's warnings, made with ``helper`` (on the first call; none after)."""
        compare, self._compare = self._compare, None
        return compare(helper) if compare is not None else []


def duplicate_id_problems(found: list[Found], tally: Tally, locator: Locator) -> list[Problem]:
    """An error on every question using the id of an earlier one."""
    problems: list[Problem] = []
    if not tally.dup_ids:  # the loop only when some id is used twice
        return problems
    first_with_id: dict[str, Found] = {}
    for item in found:
        if item.id not in tally.dup_ids:
            continue
        other = first_with_id.setdefault(item.id, item)
        if other is not item:
            problems.append(
                locator.problem(
                    item.file,
                    ("id",),
                    f"duplicate id, also used by {locator.prefix + other.file}",
                    "a fresh id (`qbank new` writes one); ids are never reused",
                )
            )
    return problems


def same_prompt_problems(
    found: list[Found], locales: Iterable[str], tally: Tally, locator: Locator
) -> tuple[list[Problem], dict[str, set[int]]]:
    """An error on every question the same as an earlier one: the same (normalized) prompt
    in a locale, in the same topic, with the same options (as written) or none. The same
    prompt with other options, or in another topic, is a question of its own (a bank asks
    "What is an abstract class?" in its Python and its C# quiz). Per locale, every question
    whose prompt is the same as an earlier one's (indexes into ``found``): they are left
    out of the near-duplicate comparison, which would only find them again."""
    problems: list[Problem] = []
    same: dict[str, set[int]] = {}
    for locale in locales:
        same[locale] = later = set()
        repeated = tally.repeated[locale]
        if not repeated:
            continue
        prompts: dict[int, Found] = {}
        questions: dict[tuple[int, str, str, int | None], Found] = {}
        for n, item in enumerate(found):
            keys = item.prompts.get(locale)
            if keys is None or keys[0] not in repeated:
                continue
            other = prompts.setdefault(keys[0], item)
            if other is not item and locator.prompt(other, locale) == locator.prompt(item, locale):
                later.add(n)
            shape = (keys[0], item.field, item.topic, item.options.get(locale))
            twin = questions.setdefault(shape, item)
            if twin is not item and locator.prompt(twin, locale) == locator.prompt(item, locale):
                problems.append(
                    locator.problem(
                        item.file,
                        ("prompt", locale),
                        f"same prompt as {locator.prefix + twin.file}"
                        + (", with the same options" if item.options else ""),
                        "one file per question; merge or reword them",
                    )
                )
    return problems, same


def compared(item: Found, locale: str) -> bool:
    """Whether a question's prompt in ``locale`` is long enough to be compared with others
    (questions with the same prompt as an earlier one are left out besides)."""
    keys = item.prompts.get(locale)
    return keys is not None and len(keys[1]) >= MIN_SHINGLES


def join_prompts(
    found: list[Found], locales: Iterable[str], same: dict[str, set[int]], helper: SecondProcess
) -> tuple[list[Near], dict[str, PackedTokens], bool]:
    """The near-duplicate pairs of ``found``, per locale in catalog order, by a join of all
    the compared prompts; with the join's input per locale, and whether the join left out
    candidates (see ``bounded_near_duplicates``)."""
    token_sets = joined_prompts(found, locales, same)
    joined = map_largest_apart(token_sets, _weight, _join, helper)
    near = [(locale, pair) for locale in token_sets for pair in joined[locale][0]]
    return near, token_sets, any(capped for _, capped in joined.values())


def joined_prompts(
    found: list[Found], locales: Iterable[str], same: dict[str, set[int]]
) -> dict[str, PackedTokens]:
    """The prompts a join compares, per locale: each compared one not left out, by index."""
    return {
        locale: [
            (n, item.prompts[locale][1])
            for n, item in enumerate(found)
            if compared(item, locale) and n not in same[locale]
        ]
        for locale in locales
    }


def join_pairs(
    found: list[Found], locales: tuple[str, ...], same: dict[str, set[int]], helper: SecondProcess
) -> list[Near]:
    """The near-duplicate pairs of ``found`` (``join_prompts``), as a ``Join``."""
    return join_prompts(found, locales, same, helper)[0]


def _weight(items: PackedTokens) -> int:
    return sum(len(tokens) for _, tokens in items)


def _join(items: PackedTokens) -> tuple[list[tuple[int, int, float]], bool]:
    """Near-duplicates among one locale's prompts (run in either process)."""
    return bounded_near_duplicates(items, NEAR_DUPLICATE_THRESHOLD, CANDIDATES_PER_PROMPT)


def near_duplicate_problems(
    found: list[Found], locales: Iterable[str], near: list[Near], locator: Locator
) -> list[Problem]:
    """One warning per question that has look-alikes (the second of near-duplicate pairs,
    in any locale), in the order of ``found``: its closest look-alikes by name and
    similarity, and how many more there are. Never a line per pair: a bank of templated
    questions can have thousands of pairs."""
    by_second: dict[int, dict[int, tuple[float, int, str]]] = {}
    order = {locale: -n for n, locale in enumerate(locales)}  # the first locale on a tie
    for locale, (a, b, score) in near:
        alike = by_second.setdefault(b, {})
        mine = (score, order[locale], locale)
        if a not in alike or mine[:2] > alike[a][:2]:
            alike[a] = mine
    problems: list[Problem] = []
    for b in sorted(by_second):
        ranked = sorted(by_second[b].items(), key=lambda item: (-item[1][0], item[0]))
        (closest, (score, _, locale)), others = ranked[0], ranked[1:]
        named = [f"{locator.prefix + found[closest].file} (similarity {score:.2f})"]
        named += [f"{locator.prefix + found[a].file} ({s:.2f})" for a, (s, _, _) in others]
        rest = len(named) - NAMED_LOOKALIKES
        if rest > 0:
            listed = ", ".join(named[:NAMED_LOOKALIKES])
            what = f"{listed} and {rest} other question{'s' if rest > 1 else ''}"
        elif len(named) > 1:
            what = ", ".join(named[:-1]) + " and " + named[-1]
        else:
            what = named[0]
        problems.append(
            locator.problem(
                found[b].file,
                ("prompt", locale),
                f"nearly the same prompt as {what}",
                "distinct questions, or one of them removed",
                Severity.WARNING,
            )
        )
    return problems


def empty_topic_problems(catalog: Catalog, catalog_doc: Document, tally: Tally) -> list[Problem]:
    """A warning on every catalog topic without questions."""
    return [
        catalog_doc.problem(
            ("fields", field_key, "specializations", spec_key, "topics", topic_key),
            "topic has no questions",
            f"question files in {field_key}/{topic_key}/",
            severity=Severity.WARNING,
        )
        for field_key, spec_key, topic_key in catalog_topics(catalog)
        if not tally.topics[field_key, topic_key]
    ]


class Locator:
    """What the cross-file rules read files again for: the line of a problem's key, and a
    prompt's normalized text (when two prompts' hashes are equal). Both are rare: a file
    that loaded fine is read again only for a problem between files. What was read is
    kept (``used_problems``, ``used_prompts``) for ``KeptLocator`` under serve."""

    def __init__(self, root: Path, catalog: Catalog) -> None:
        self.root = root
        self.prefix = display_prefix(root)
        self.context = {"default_locale": catalog.default_locale}
        self.used_problems: ProblemMemo = {}
        self.used_prompts: dict[tuple[str, str], str] = {}

    def kept_problem(self, file: str, asked: tuple[Any, ...]) -> Problem | None:
        """A problem located before while the file is unchanged (none here)."""
        return None

    def kept_prompt(self, key: tuple[str, str]) -> str | None:
        """A prompt read before while the file is unchanged (none here)."""
        return None

    def problem(
        self,
        file: str,
        key: Path_,
        message: str,
        hint: str,
        severity: Severity = Severity.ERROR,
    ) -> Problem:
        """A problem at ``key`` of a file under the content root that loaded fine."""
        asked = (self.prefix, key, message, hint, severity)
        problem = self.kept_problem(file, asked)
        if problem is None:
            doc = read_document(self.root / file, self.prefix + file)
            problem = doc.problem(key, message, hint, severity=severity)
        self.used_problems.setdefault(file, {})[asked] = problem
        return problem

    def prompt(self, item: Found, locale: str) -> str:
        """The normalized prompt of a question in ``locale``, read again from its file."""
        key = (item.file, locale)
        text = self.used_prompts.get(key)
        if text is None:
            text = self.kept_prompt(key)
        if text is None:
            doc = read_document(self.root / item.file, self.prefix + item.file)
            question = validate_model(doc, Question, self.context)
            text = normalize_text(question.prompt.get(locale, "") if question else "")
        self.used_prompts[key] = text
        return text


class Tally:
    """How many questions have each id, each (field, topic), and per locale each prompt hash;
    with the ids and hashes counted more than once. Kept across loads under serve and
    updated with the questions that changed, instead of counted again."""

    def __init__(self, locales: Iterable[str]) -> None:
        self.ids: Counter[str] = Counter()
        self.dup_ids: set[str] = set()
        self.topics: Counter[tuple[str, str]] = Counter()
        self.hashes: dict[str, Counter[int]] = {locale: Counter() for locale in locales}
        self.repeated: dict[str, set[int]] = {locale: set() for locale in self.hashes}

    @classmethod
    def of(cls, found: list[Found], locales: Iterable[str]) -> Tally:
        """The tally of ``found``."""
        tally = cls(locales)
        tally.ids.update(map(_ID, found))
        tally.dup_ids = {key for key, count in tally.ids.items() if count > 1}
        tally.topics.update(map(_FIELD_TOPIC, found))
        for locale, hashes in tally.hashes.items():
            hashes.update([k[0] for item in found if (k := item.prompts.get(locale)) is not None])
            tally.repeated[locale] = {key for key, count in hashes.items() if count > 1}
        return tally

    def update(self, removed: list[Found], added: list[Found]) -> None:
        """The questions ``removed`` no longer counted, those ``added`` counted."""
        ids: set[str] = set()
        hashes: dict[str, set[int]] = {locale: set() for locale in self.hashes}
        for sign, items in ((-1, removed), (1, added)):
            for item in items:
                self.ids[item.id] += sign
                ids.add(item.id)
                self.topics[item.field, item.topic] += sign
                for locale, (norm_hash, _tokens) in item.prompts.items():
                    if locale in self.hashes:
                        self.hashes[locale][norm_hash] += sign
                        hashes[locale].add(norm_hash)
        _recount(self.ids, ids, self.dup_ids)
        for locale, keys in hashes.items():
            _recount(self.hashes[locale], keys, self.repeated[locale])


def _recount(counts: Counter[T], keys: set[T], repeated: set[T]) -> None:
    """``repeated`` (the keys counted more than once) brought up to date for ``keys``."""
    for key in keys:
        count = counts[key]
        if count <= 0:
            del counts[key]
        if count > 1:
            repeated.add(key)
        else:
            repeated.discard(key)


_ID = operator.attrgetter("id")
_FIELD_TOPIC = operator.attrgetter("field", "topic")
