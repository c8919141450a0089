"""The postings of an index's terms gathered in arrays, a batch of documents at a time, then
cut into one array a term: the same postings, in the same order, as appending each to its
term's list one by one (``LocaleIndex.build``), which at 30,000 questions is millions of
appends in Python. The terms of a spaced script (English, Turkish); ``cjkpostings`` does the
same for CJK characters and pairs, numbered from their code points.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

import numpy as np

BATCH = 1 << 18
"""Terms gathered before they are numbered (the strings of a batch are let go after it)."""

assert array("i").itemsize == 4  # (the codes are 32-bit: ``array("i")`` holds them as such)


class WordPostings:
    """Every term's postings (``number * levels + step``), in the order the documents come."""

    def __init__(self, levels: int) -> None:
        self._levels = levels
        self._ids: dict[str, int] = {}  # term → its number, in order of first occurrence
        self._seen = 0  # terms taken
        self._words: list[str] = []
        self._steps = bytearray()
        self._counts: list[int] = []
        self._numbers: list[int] = []
        self._parts: list[tuple[np.ndarray, np.ndarray]] = []  # (term numbers, codes)

    def add(self, number: int, words: Sequence[str], steps: bytes) -> None:
        """Take the terms of document ``number`` (each once) with their weight steps."""
        self._words += words
        self._steps += steps
        self._counts.append(len(words))
        self._numbers.append(number)
        if len(self._words) >= BATCH:
            self._flush()

    def _flush(self) -> None:
        words = self._words
        if not words:
            return
        # A term's number: the place of its first occurrence among all terms taken (so the
        # numbers grow in the order of ``_ids``), given in one pass in C.
        seen = self._seen
        places = range(seen, seen + len(words))
        terms = np.fromiter(map(self._ids.setdefault, words, places), np.int64, len(words))
        self._seen += len(words)
        numbers = np.repeat(np.asarray(self._numbers, np.int64), self._counts)
        codes = numbers * self._levels + np.frombuffer(bytes(self._steps), np.uint8)
        self._parts.append((terms, codes.astype(np.int32)))
        self._words, self._steps, self._counts, self._numbers = [], bytearray(), [], []

    def done(self) -> dict[str, array[int]]:
        """Each term's postings, terms in order of first occurrence (the gathered ones are
        let go)."""
        self._flush()
        parts, self._parts = self._parts, []
        out: dict[str, array[int]] = {}
        if not parts:
            return out
        terms = np.concatenate([t for t, _ in parts])
        codes = np.concatenate([c for _, c in parts])
        del parts
        raw = memoryview(codes[np.argsort(terms, kind="stable")].tobytes())
        numbers = np.fromiter(self._ids.values(), np.int64, len(self._ids))
        ends = np.cumsum(np.bincount(terms, minlength=self._seen)[numbers]) * 4
        start = 0
        for word, end in zip(self._ids, ends.tolist(), strict=True):
            postings = out[word] = array("i")
            postings.frombytes(raw[start:end])
            start = end
        return out
