"""The job-description match's topic counts (``qbank.site.match``) taken from the persistent
cache (``qbank.live.store``) where the topic's questions did not change: counting a topic's
terms (every word of its questions stemmed) is most of what the match file costs, and
numbering every topic's terms again most of the rest.

One entry a locale holds every topic's weighted term counts as ``match.Terms`` numbers
them (a JSON line: the terms, and each topic's key and size; then the numbers and counts as
arrays). A topic's counts are used only under its key, made from what they are counted
from: the locale, the topic's place and its and its specialization's names in that locale,
and each of its questions' file bytes (the digest) and place, with qbank's version
(``store.key``). An entry that has not the shape of one (sizes, numbers within the terms,
counts above 0) is reported at INFO and not used: every topic is counted again, the same as
without the cache.

A topic whose key changed (a pull request edits one of its questions) is counted again from
its questions' terms (``match.question_terms``), kept one entry a topic and locale
(``QUESTIONS``: each question's file digest with its prompt's terms and its other terms, in
order): only its changed questions' words are cut and stemmed again (``_QuestionTerms``).
An entry without that shape is not used (every question's terms made again).
"""

from __future__ import annotations

import itertools
from array import array
from collections.abc import Callable
from typing import Any

import numpy as np
import orjson

from qbank.bank.loaded import Bank, Entry
from qbank.live.store import Store, dumps, key
from qbank.site.match import Numbered, Terms, question_terms

KIND = "match"
QUESTIONS = "match-terms"  # each question's terms, one entry a topic and locale


def stored_terms(store: Store, bank: Bank) -> Callable[[str], Terms] | None:
    """A locale's ``Terms`` that keeps its topics' counts in ``store`` (None without one:
    the match counts every topic)."""
    if not store.enabled:
        return None
    return lambda locale: StoredTerms(store, bank, locale)


class StoredTerms(Terms):
    """``Terms`` numbering the counts of one locale, the unchanged topics' as kept."""

    def __init__(self, store: Store, bank: Bank, locale: str) -> None:
        super().__init__()
        self.store, self.bank, self.locale = store, bank, locale
        self.name = key(KIND, locale)
        self.kept: dict[str, Numbered] = {}
        self.used: list[tuple[str, Numbered]] = []
        self.changed = False
        self._counting: _QuestionTerms | None = None  # (while a topic is counted)
        payload = store.get_bytes(KIND, self.name)
        state = _restored(payload) if payload is not None else None
        if payload is not None and state is None:
            store.note(f"qbank: cache entry {KIND}/{self.name} is not a match's; made again")
        if state is not None:
            names, self.kept = state
            self.adopt(names)

    def of(
        self, topic: tuple[str, str, str], here: list[Entry], count: Callable[[], dict[str, float]]
    ) -> Numbered:
        """The topic's kept counts where its key holds, else counted (its unchanged
        questions' terms as kept) and numbered."""
        name = self._key(topic, here)
        found = self.kept.pop(name, None)
        questions = key(QUESTIONS, self.locale, *topic)
        if found is None:
            try:
                with _QuestionTerms(self.store, questions) as self._counting:
                    found = super().of(topic, here, count)
            finally:
                self._counting = None
            self.changed = True
        else:
            self.store.touch(QUESTIONS, questions)  # (kept for the next change of the topic)
        self.used.append((name, found))
        return found

    def question_terms(self, entry: Entry, locale: str) -> tuple[list[str], list[str]]:
        """The terms of a question of the topic being counted, kept where they hold."""
        if self._counting is None:
            return question_terms(entry, locale)
        return self._counting.terms(entry, locale)

    def _key(self, topic: tuple[str, str, str], here: list[Entry]) -> str:
        field_key, spec_key, topic_key = topic
        spec = self.bank.catalog.fields[field_key].specializations[spec_key]
        parts = [self.locale, field_key, spec_key, topic_key]
        parts += (
            self.bank.name(spec.topics[topic_key].name, self.locale),
            self.bank.name(spec.name, self.locale),
        )
        for entry in here:
            parts += (entry.digest, entry.file)
        return key(KIND, *parts)

    def done(self) -> None:
        """Keep the counts of this build's topics, when one was counted or went away."""
        if self.changed or self.kept:
            self.store.put_bytes(KIND, self.name, _dumps(self.names, self.used))


class _QuestionTerms:
    """The terms of one topic's questions in one locale (``match.question_terms``) while the
    topic is counted: those of a question whose file is what it was taken from the entry
    ``name`` (kept by digest), the others made; the entry written again at the end when
    any was made or went away. A topic changed by a pull request is counted again from its
    questions' kept terms: counting again the 12 topics of 250 questions the bench's pull
    request touches took 0.6-0.9 s a locale, most of it stemming words."""

    def __init__(self, store: Store, name: str) -> None:
        self.store, self.name = store, name
        self.kept = _kept_terms(store.get(QUESTIONS, name))
        self.now: list[list[str]] = []  # [digest, prompt terms, other terms], joined
        self.made = False

    def __enter__(self) -> _QuestionTerms:
        return self

    def __exit__(self, failed: object, *exc: object) -> None:
        if failed is None and (self.made or len(self.kept) != len(self.now)):
            self.store.put(QUESTIONS, self.name, self.now)

    def terms(self, entry: Entry, locale: str) -> tuple[list[str], list[str]]:
        found = self.kept.get(entry.digest)
        if found is None:
            found = question_terms(entry, locale)
            self.made = True
        joined = [_TERMS.join(part) for part in found]
        if all(_keeps(part, text) for part, text in zip(found, joined, strict=True)):
            self.now.append([entry.digest, *joined])
        return found


_TERMS = " "  # between the terms of a question's part (a term holds no space)


def _keeps(terms: list[str], joined: str) -> bool:
    """Whether ``joined`` gives ``terms`` back (no term empty or holding the separator)."""
    return "" not in terms and joined.count(_TERMS) == max(0, len(terms) - 1)


def _kept_terms(kept: Any) -> dict[str, tuple[list[str], list[str]]]:
    """The questions' terms of an entry by digest; none when it has not their shape."""
    if not isinstance(kept, list):
        return {}
    found: dict[str, tuple[list[str], list[str]]] = {}
    for item in kept:
        if type(item) is not list or len(item) != 3 or {type(part) for part in item} != {str}:
            return {}
        digest, prompt, rest = item
        found[digest] = (prompt.split(_TERMS) if prompt else [], rest.split(_TERMS) if rest else [])
    return found


def _dumps(names: list[str], used: list[tuple[str, Numbered]]) -> bytes:
    """The entry's bytes, numbered again with only the terms the topics hold."""
    numbers = np.concatenate(
        [np.zeros(0, np.int32), *(np.frombuffer(held, np.int32) for _, (held, _c) in used)]
    )
    counts = np.concatenate(
        [np.zeros(0, np.float64), *(np.frombuffer(c, np.float64) for _, (_h, c) in used)]
    )
    live = np.bincount(numbers, minlength=len(names)) > 0
    terms = names
    if not bool(live.all()):  # (terms of topics gone or changed: numbered without them)
        terms = [names[n] for n in np.flatnonzero(live).tolist()]
        numbers = (np.cumsum(live, dtype=np.int32) - 1)[numbers]
    head = {"terms": terms, "topics": [[name, len(held)] for name, (held, _c) in used]}
    arrays = numbers.tobytes() + counts.tobytes()
    return b"".join([dumps(head), b"\n", arrays])


def _restored(payload: bytes) -> tuple[list[str], dict[str, Numbered]] | None:
    """The terms and the numbered counts of each topic in an entry; None when it has not
    their shape."""
    line, newline, rest = payload.partition(b"\n")
    try:
        head: Any = orjson.loads(line)
        terms, topics = head["terms"], head["topics"]
    except (ValueError, TypeError, KeyError):
        return None
    if not newline or not isinstance(terms, list) or not isinstance(topics, list):
        return None
    if not all(type(t) is str for t in terms) or len(set(terms)) != len(terms):
        return None
    if not all(
        isinstance(t, list) and len(t) == 2 and type(t[0]) is str and type(t[1]) is int
        for t in topics
    ):
        return None
    sizes = [size for _, size in topics]
    total = sum(sizes)
    if (
        min(sizes, default=0) < 0
        or len(rest) != total * 12
        or len({n for n, _ in topics}) != len(topics)
    ):
        return None
    numbers = np.frombuffer(rest, np.int32, total)
    counts = np.frombuffer(rest, np.float64, total, total * 4)
    if total and (int(numbers.min()) < 0 or int(numbers.max()) >= len(terms)):
        return None
    if not bool(np.all(np.isfinite(counts))) or bool(np.any(counts <= 0)):
        return None
    kept: dict[str, Numbered] = {}
    for (name, size), start in zip(topics, itertools.accumulate(sizes, initial=0), strict=False):
        kept[name] = (
            array("i", numbers[start : start + size].tobytes()),
            array("d", counts[start : start + size].tobytes()),
        )
    return terms, kept
