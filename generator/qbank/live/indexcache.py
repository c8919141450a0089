"""A locale's search index gathered from the persistent cache (``qbank.live.store``): the
postings, shown texts and filters of the last build (``search.index.Gathered``), kept as one
entry a locale, with the topics they were made from; a build makes the documents of the
topics that changed and renumbers the rest.

Making a question's search document (each word of it stemmed, its terms weighed) and filing
its postings is most of what indexing costs: at 30,000 questions a Chinese index took 10.6 s
to make its documents and 2.6 s to file them. A pull request changes a few topics; here the
postings of every other topic are taken over in arrays (their questions renumbered where
topics before them grew or shrank) and the changed topics' postings merged in, a sorted
insert. The index is then assembled as a cold build assembles it (``LocaleIndex.assemble``),
so its files are the same bytes (``tests/test_build_cache.py`` compares whole sites).

A topic is known by a key made from everything its documents are made from: the locale,
the topic's name in it, and for each question its file's bytes (the digest), where the file
sits, its seniorities and the URL of its part of the topic page, with qbank's version
(``store.key``). A removed or moved question changes its old topic's key too. Within a
topic that changed, a question whose own document is made from what it was (``_doc_key``:
its file's bytes, field, seniorities, topic name and URL) keeps its postings too: a pull
request edits a question or two of a topic of hundreds. An entry that
does not have the shape of an index (``_State.restored``: sizes, order and range of every
array) is reported at INFO and not used: the index is made whole, as without the cache.
"""

from __future__ import annotations

import hashlib
import itertools
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from itertools import groupby
from typing import Any

import numpy as np
import numpy.typing as npt
import orjson

from qbank.bank.loaded import Bank, Entry
from qbank.live.store import Store, dumps, key
from qbank.search.cjkpostings import CjkPostings
from qbank.search.documents import LEVELS, SearchDoc, iter_docs, question_doc
from qbank.search.index import PEEK, Gathered, LocaleIndex, _mostly_cjk, postings_arrays

KIND = "index"
_SEP = "\x1f"  # (between the seniorities of a key part: no catalog key holds it)
_TERMS = " "  # between the word terms in an entry (a term is word characters)


@dataclass
class _Topic:
    """One topic's questions in the locale, with the key of their documents and each one's
    (``_doc_key``)."""

    key: str
    entries: list[Entry]
    urls: list[str]
    docs: list[str]


def _topics(bank: Bank, locale: str, topic_url: Callable[[str, Entry], str]) -> list[_Topic]:
    """The locale's questions topic by topic, in bank order (``iter_docs``'s order)."""
    fields = bank.catalog.fields
    here = (entry for entry in bank.entries if locale in entry.locales)
    found = []
    for (field_key, spec_key, topic_key), group in groupby(
        here, key=lambda e: (e.field, e.specialization, e.topic)
    ):
        members = list(group)
        urls = [topic_url(locale, entry) for entry in members]
        topic = fields[field_key].specializations[spec_key].topics[topic_key]
        name = bank.name(topic.name, locale)
        parts = [locale, field_key, spec_key, topic_key, name]
        for entry, url in zip(members, urls, strict=True):
            parts += (entry.digest, entry.file, entry.slug, _SEP.join(entry.seniorities), url)
        docs = [
            _doc_key(locale, name, entry, url) for entry, url in zip(members, urls, strict=True)
        ]
        found.append(_Topic(key(KIND, *parts), members, urls, docs))
    return found


def _doc_key(locale: str, topic_name: str, entry: Entry, url: str) -> str:
    """What one question's search document is made from (``question_doc``): its file's bytes,
    its field and seniorities, its topic's name and its URL, in ``locale`` (the state's
    entry holds qbank's version)."""
    seniorities = _SEP.join(entry.seniorities)
    text = _SEP.join((locale, topic_name, entry.digest, entry.field, seniorities, url))
    return hashlib.blake2b(text.encode(), digest_size=10).hexdigest()


def stored_index(
    store: Store,
    bank: Bank,
    locale: str,
    topic_url: Callable[[str, Entry], str],
    told: Callable[[list[str]], None] | None = None,
) -> LocaleIndex:
    """``LocaleIndex.build(iter_docs(bank, locale, topic_url), locale)``, the postings of
    unchanged topics from ``store`` where its entry holds (and the new state kept there).
    ``told`` is given each question's ``_doc_key`` in the index's order (not without a
    store): what its postings are made from, qbank's version aside."""
    if not store.enabled:
        return LocaleIndex.build(iter_docs(bank, locale, topic_url), locale)
    topics = _topics(bank, locale, topic_url)
    docs = [doc for topic in topics for doc in topic.docs]
    if told is not None:
        told(docs)
    name = key(KIND, locale)
    payload = store.get_bytes(KIND, name)
    old = _State.restored(payload) if payload is not None else None
    if payload is not None and old is None:
        store.note(f"qbank: cache entry {KIND}/{name} is not a search index's; made again")
    gathered = None if old is None else _updated(old, topics, bank, locale)
    # (every topic as the entry holds it: the entry stands, read and so kept by this build)
    standing = gathered is not None and old is not None and old.topics == [t.key for t in topics]
    if gathered is None:
        gathered = Gathered.of_docs(
            question_doc(bank, entry, locale, url)
            for topic in topics
            for entry, url in zip(topic.entries, topic.urls, strict=True)
        )
    if not standing:
        state = _State.of(gathered, [(topic.key, len(topic.entries)) for topic in topics], docs)
        if state is not None:
            store.put_bytes(KIND, name, state.dumps(), packed=False)
    return LocaleIndex.assemble(locale, gathered)


def _updated(old: _State, topics: list[_Topic], bank: Bank, locale: str) -> Gathered | None:
    """The postings of ``topics``: the kept topics' renumbered from ``old``, and in the
    others the unchanged questions' (``_doc_key``), the rest made; None when the index
    would file CJK terms otherwise than ``old`` (``_mostly_cjk`` of its first documents) or
    no question was kept."""
    starts = dict(zip(old.topics, itertools.accumulate(old.counts, initial=0), strict=False))
    remap = np.full(old.docs, -1, np.int64)
    shown: list[tuple[str, str, str, str]] = []
    filters: list[tuple[tuple[str, str], ...]] = []
    made: list[tuple[int, SearchDoc]] = []
    kept = 0
    last = -1  # the last of ``old``'s questions taken (their order is kept: numbers grow)
    was: dict[str, int] | None = None  # ``old``'s question numbers by their keys
    for topic in topics:
        number = len(shown)
        start = starts.pop(topic.key, None)
        if start is not None and start > last:  # (the key holds every question: the same count)
            count = len(topic.entries)
            remap[start : start + count] = np.arange(number, number + count)
            shown += old.shown[start : start + count]
            filters += old.filters[start : start + count]
            kept += count
            last = start + count - 1
            continue
        if was is None:
            was = {doc: n for n, doc in enumerate(old.doc_keys)}
        for entry, url, doc_key in zip(topic.entries, topic.urls, topic.docs, strict=True):
            n = was.get(doc_key, -1)
            if n > last:  # (a question unchanged in a topic that changed)
                remap[n] = len(shown)
                shown.append(old.shown[n])
                filters.append(old.filters[n])
                kept += 1
                last = n
                continue
            doc = question_doc(bank, entry, locale, url)
            made.append((len(shown), doc))
            shown.append((doc.url, doc.topic, doc.prompt, doc.more))
            filters.append(doc.filters)
    if not kept or _mostly_cjk(_first_docs(topics, made, bank, locale)) != old.packed:
        return None
    moved = remap[remap >= 0]
    if bool(np.any(moved[1:] <= moved[:-1])):
        return None  # (topics in another order: their postings would need sorting again)
    fresh = Gathered.of(made, old.packed)
    gathered = Gathered(shown, filters, _merged_words(old, remap, fresh.postings))
    if old.packed:
        gathered.packed = _merged_packed(old, remap, fresh.packed)
    return gathered


def _first_docs(
    topics: list[_Topic], made: list[tuple[int, SearchDoc]], bank: Bank, locale: str
) -> list[SearchDoc]:
    """The first ``PEEK`` documents of the index (what ``LocaleIndex.build`` looks at to
    choose how CJK terms are filed): made ones as they are, kept ones made again."""
    ready = dict(made[:PEEK])
    pairs = (pair for topic in topics for pair in zip(topic.entries, topic.urls, strict=True))
    return [
        ready.get(number) or question_doc(bank, entry, locale, url)
        for number, (entry, url) in enumerate(itertools.islice(pairs, PEEK))
    ]


Ints = npt.NDArray[np.int64]
Codes = npt.NDArray[np.int32]


def _renumbered(counts: Ints, codes: Codes, remap: Ints) -> tuple[Ints, Codes]:
    """Groups of postings (``counts`` of them each, ``codes`` one group's after the other)
    with each question's new number (``remap``, growing; -1: gone, its postings dropped).
    In place where it can: at 30,000 Chinese questions the codes are 45 MB, and every new
    array of that size costs more than the arithmetic on it."""
    numbers = codes // LEVELS
    renumbered = remap.astype(np.int32)[numbers]
    numbers *= -LEVELS
    numbers += codes  # (each posting's step)
    keep = renumbered >= 0
    renumbered *= LEVELS
    renumbered += numbers
    if bool(keep.all()):
        return counts, renumbered
    firsts = np.cumsum(counts) - counts
    return np.add.reduceat(keep, firsts, dtype=np.int64), renumbered[keep]


def _merged(
    counts: Ints, codes: Codes, slots: Ints, fresh_counts: Ints, fresh_codes: Codes, at: Ints
) -> tuple[Ints, Codes]:
    """Two lists of groups of postings as one: the kept groups go to places ``slots``, the
    fresh ones to places ``at`` (both growing) of the merged list; a group at both places
    holds both's postings, by question. Each group's count in the merged list, its codes."""
    total = int(max(slots[-1] if len(slots) else -1, at[-1] if len(at) else -1)) + 1
    merged = np.zeros(total, np.int64)
    merged[slots] = counts
    merged[at] += fresh_counts
    if not len(fresh_codes):
        return merged, codes
    starts = np.concatenate([[0], np.cumsum(counts)])
    before = np.searchsorted(slots, at)  # the kept groups before each fresh one's place
    shared = before < len(slots)
    shared[shared] = slots[before[shared]] == at[shared]
    # A fresh group alone goes before the next kept group; one shared with a kept group
    # goes among its postings, each where its question sorts: found for every shared
    # posting in one search, each code offset by its group's rank among the shared ones (a
    # search per group took 1 s of a Chinese index's 5.5 at 30,000 x 3: most of its terms
    # are shared).
    places = np.repeat(starts[before], fresh_counts)
    groups = before[shared]  # the kept groups shared, growing
    if len(groups):
        sizes = counts[groups]
        span = int(max(codes.max(), fresh_codes.max())) + 1
        firsts, lower = starts[groups], np.cumsum(sizes) - sizes  # in codes, in ``kept``
        kept = codes[np.repeat(firsts - lower, sizes) + np.arange(int(sizes.sum()))]
        kept = kept + np.repeat(np.arange(len(groups), dtype=np.int64) * span, sizes)
        mine = np.repeat(shared, fresh_counts)  # the fresh postings of shared groups
        rank = np.repeat(np.arange(len(groups), dtype=np.int64), fresh_counts[shared])
        found = np.searchsorted(kept, fresh_codes[mine] + rank * span)
        places[mine] = found - lower[rank] + firsts[rank]
    return merged, np.insert(codes, places, fresh_codes)


def _merged_words(old: _State, remap: Ints, fresh: dict[str, array[int]]) -> dict[str, array[int]]:
    """Every word term's postings: ``old``'s renumbered, ``fresh`` ones merged in."""
    terms = list(old.terms)
    numbers = {term: n for n, term in enumerate(terms)}
    at = np.fromiter((numbers.setdefault(term, len(numbers)) for term in fresh), np.int64)
    terms += list(numbers)[len(terms) :]
    counts, codes = _renumbered(old.lengths, old.codes, remap)
    order = np.argsort(at, kind="stable")  # (kept terms by their number, new ones after)
    fresh_lengths, fresh_codes = postings_arrays(list(fresh.values()))
    fresh_starts = np.cumsum(fresh_lengths) - fresh_lengths
    within = np.repeat(fresh_starts[order], fresh_lengths[order]) + _offsets(fresh_lengths[order])
    counts, codes = _merged(
        counts,
        codes,
        np.arange(len(counts), dtype=np.int64),
        fresh_lengths[order],
        fresh_codes[within],
        at[order],
    )
    raw = memoryview(codes.tobytes())
    found: dict[str, array[int]] = {}
    start = 0
    for term, end in zip(terms, (np.cumsum(counts) * 4).tolist(), strict=True):
        if end > start:
            codes_of = found[term] = array("i")
            codes_of.frombytes(raw[start:end])
        start = end
    return found


def _merged_packed(old: _State, remap: Ints, fresh: CjkPostings | None) -> CjkPostings:
    """The CJK terms' postings: ``old``'s renumbered, ``fresh`` ones merged in."""
    counts, codes = _renumbered(np.diff(old.starts), old.packed_codes, remap)
    keys = old.keys
    packed = CjkPostings(LEVELS)
    if fresh is not None and len(fresh):
        every = np.concatenate([keys, fresh.keys])  # (both sorted, each key once)
        every.sort()
        every = every[np.concatenate([[True], every[1:] != every[:-1]])]
        counts, codes = _merged(
            counts,
            codes,
            np.searchsorted(every, keys),
            np.diff(fresh.starts),
            fresh.codes,
            np.searchsorted(every, fresh.keys),
        )
        keys = every
    held = counts > 0
    packed.keys = np.ascontiguousarray(keys[held])
    packed.starts = np.concatenate([[0], np.cumsum(counts[held])]).astype(np.int64)
    packed.codes = codes
    return packed


def _offsets(lengths: Ints) -> Ints:
    """0, 1, ... within each group of ``lengths``, one group after the other."""
    total = int(lengths.sum())
    return np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(lengths) - lengths, lengths)


@dataclass
class _State:
    """What an index was gathered from, as the cache keeps it: its topics (keys, question
    counts), each question's shown texts and filters, the word terms' postings (``terms``,
    ``lengths``, ``codes``) and, when CJK terms were packed, theirs (``keys``, ``starts``,
    ``packed_codes``, as ``CjkPostings`` holds them)."""

    topics: list[str]
    counts: list[int]
    doc_keys: list[str]  # each question's (``_doc_key``)
    shown: list[tuple[str, str, str, str]]
    filters: list[tuple[tuple[str, str], ...]]
    terms: list[str]
    lengths: npt.NDArray[np.int64]
    codes: npt.NDArray[np.int32]
    packed: bool
    keys: npt.NDArray[np.uint32]
    starts: npt.NDArray[np.int64]
    packed_codes: npt.NDArray[np.int32]

    @property
    def docs(self) -> int:
        return len(self.shown)

    @classmethod
    def of(
        cls, gathered: Gathered, topics: list[tuple[str, int]], docs: list[str]
    ) -> _State | None:
        """The state of ``gathered`` (before it is assembled); None when a term holds the
        separator (then nothing is kept)."""
        terms = list(gathered.postings)
        if any(_TERMS in term or not term for term in terms):
            return None
        lengths, codes = postings_arrays(list(gathered.postings.values()))
        packed = gathered.packed
        return cls(
            [name for name, _ in topics],
            [count for _, count in topics],
            docs,
            gathered.shown,
            gathered.filters,
            terms,
            lengths,
            codes,
            packed is not None,
            packed.keys if packed is not None else np.zeros(0, np.uint32),
            packed.starts if packed is not None else np.zeros(1, np.int64),
            packed.codes if packed is not None else np.zeros(0, np.int32),
        )

    def _arrays(self) -> list[npt.NDArray[Any]]:
        return [self.lengths, self.codes, self.keys, self.starts, self.packed_codes]

    def dumps(self) -> bytes:
        """The entry's bytes: a JSON line (topics, texts, terms, array sizes), then the
        arrays' bytes."""
        head = {
            "topics": self.topics,
            "counts": self.counts,
            "docs": self.doc_keys,
            "shown": self.shown,
            "filters": self.filters,
            "terms": _TERMS.join(self.terms),
            "packed": self.packed,
            "sizes": [len(part) for part in self._arrays()],
        }
        arrays = (np.ascontiguousarray(part).tobytes() for part in self._arrays())
        return b"".join([dumps(head), b"\n", *arrays])

    @classmethod
    def restored(cls, payload: bytes) -> _State | None:
        """The state in ``payload``; None when it has not the shape of one."""
        line, newline, rest = payload.partition(b"\n")
        try:
            head = orjson.loads(line)
            state = cls._of_head(head, rest) if newline and isinstance(head, dict) else None
        except (ValueError, TypeError, KeyError):
            return None
        return state if state is not None and state._sound() else None

    @classmethod
    def _of_head(cls, head: dict[str, Any], rest: bytes) -> _State | None:
        topics, counts, shown, filters = (head[k] for k in ("topics", "counts", "shown", "filters"))
        terms, packed, sizes, docs = head["terms"], head["packed"], head["sizes"], head["docs"]
        lists = (topics, counts, shown, filters, sizes, docs)
        if not all(isinstance(part, list) for part in lists) or len(sizes) != 5:
            return None
        if not isinstance(terms, str) or not isinstance(packed, bool):
            return None
        if not all(isinstance(t, str) for t in topics) or len(topics) != len(counts):
            return None
        if len(set(topics)) != len(topics):
            return None
        if not all(type(c) is int and c > 0 for c in counts) or sum(counts) != len(shown):
            return None
        if len(filters) != len(shown) or not all(type(s) is int and s >= 0 for s in sizes):
            return None
        if len(docs) != len(shown) or not all(type(d) is str for d in docs):
            return None
        # (each check one pass over a flat list: a check a row was 0.2-0.4 s a locale)
        if not _rows(shown, 4) or not _rows(filters, None):
            return None
        pairs = list(itertools.chain.from_iterable(filters))
        if not _rows(pairs, 2):
            return None
        types = (np.int64, np.int32, np.uint32, np.int64, np.int32)
        widths = [size * np.dtype(kind).itemsize for size, kind in zip(sizes, types, strict=True)]
        if sum(widths) != len(rest):
            return None
        ends = list(itertools.accumulate(widths, initial=0))
        parts = [
            np.frombuffer(rest, kind, size, start)
            for kind, size, start in zip(types, sizes, ends[:-1], strict=True)
        ]
        lengths, codes, keys, starts, packed_codes = parts
        return cls(
            topics,
            counts,
            docs,
            list(map(tuple, shown)),
            [tuple(map(tuple, row)) for row in filters],
            terms.split(_TERMS) if terms else [],
            lengths,
            codes,
            packed,
            keys,
            starts,
            packed_codes,
        )

    def _sound(self) -> bool:
        """Whether the arrays fit together: a length a term, each at least one posting;
        every code a question's and within a term growing by question; CJK keys growing,
        with their postings' bounds."""
        if len(self.terms) != len(self.lengths) or len(set(self.terms)) != len(self.terms):
            return False
        if len(self.lengths) and int(self.lengths.min()) < 1:
            return False
        if int(self.lengths.sum()) != len(self.codes):
            return False
        if not _ordered(self.codes, np.cumsum(self.lengths) - self.lengths, self.docs):
            return False
        keys, starts = self.keys, self.starts
        if len(starts) != len(keys) + 1 or int(starts[0]) != 0:
            return False
        if not self.packed:
            return not len(keys) and not len(self.packed_codes)
        if int(starts[-1]) != len(self.packed_codes) or bool(np.any(np.diff(starts) < 1)):
            return False
        if bool(np.any(keys[1:] <= keys[:-1])):
            return False
        return _ordered(self.packed_codes, starts[:-1], self.docs)


def _rows(rows: list[Any], count: int | None) -> bool:
    """Whether every one of ``rows`` is a list (of ``count`` texts; None: of anything)."""
    if set(map(type, rows)) - {list}:
        return False
    if count is None:
        return True
    if set(map(len, rows)) - {count}:
        return False
    return not set(map(type, itertools.chain.from_iterable(rows))) - {str}


def _ordered(codes: npt.NDArray[np.int32], firsts: npt.NDArray[np.int64], docs: int) -> bool:
    """Whether every code is a posting of one of ``docs`` questions and, within each term
    (starting at ``firsts``), the questions grow."""
    if not len(codes):
        return True
    if int(codes.min()) < 0 or int(codes.max()) >= docs * LEVELS:
        return False
    numbers = codes // LEVELS
    growing = np.diff(numbers) > 0
    growing[firsts[firsts > 0] - 1] = True  # (a new term starts anywhere)
    return bool(growing.all())
