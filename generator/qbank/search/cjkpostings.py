"""The postings of a locale's CJK terms, numbered from their code points in numpy.

A Chinese index holds millions of postings of a few hundred thousand terms, nearly all of them
one CJK character or a pair (``tokenize.terms``). Filed one by one, each posting costs a
dictionary lookup by a string made for it and an append (millions of them, most of the
index's time). Here each CJK term is a number made from its code points (a
character ``c``: ``o(c) << 16``; a pair ``c d``: ``o(c) << 16 | o(d)``, where ``o`` counts
from the first CJK code point, so numbers sort as the terms do), a posting a 64-bit ``term
<< 32 | code``, and one sort groups every term's postings in question order. A terms file of
CJK terms (a bucket, ``index.bucket``) is then written straight from the arrays, its bytes
those ``json.dumps`` makes of ``{term: delta-coded postings}``.

This is speed machinery only: which terms there are and where they are filed are decided in
``tokenize`` and ``index``; ``tests/test_search_index.py`` compares the files both ways.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from qbank.search.termsjson import objects

_FIRST = 0x3040
"""The first CJK code point (``tokenize.CJK``); every CJK code point minus it plus one fits in
16 bits, 0 standing for "no second character"."""
_RANGES = ((0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0xAC00, 0xD7AF))
"""``tokenize.CJK`` as code point ranges (a test checks they agree)."""
BATCH = 1 << 16
"""Postings converted at a time (the term strings of a batch are let go after it)."""
FILES_AT_ONCE = 64
"""Terms files whose text is made in one pass (bounds the arrays made at once)."""

BucketWatch = Callable[[int, list[str], npt.NDArray[np.int64], npt.NDArray[np.int32]], None]
"""Told of each bucket's postings as its file is made (``CjkPostings.files``): its number,
its terms, each term's number of postings and their codes one term's after the other."""


def is_cjk_point(points: npt.NDArray[np.uint32]) -> npt.NDArray[np.bool_]:
    """Which of ``points`` (code points) are CJK characters."""
    found = np.zeros(points.shape, dtype=bool)
    for low, high in _RANGES:
        found |= (points >= low) & (points <= high)
    return found


def code_points(text: str) -> npt.NDArray[np.uint32]:
    """The code points of ``text`` (a lone surrogate as its own)."""
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)


class CjkPostings:
    """The CJK postings of one index, gathered document by document (``add``) and then
    grouped (``done``): ``keys`` (the terms' numbers, sorted), ``starts`` (where each term's
    postings begin in ``codes``, one more at the end) and ``codes`` (``LEVELS * n + step``)."""

    def __init__(self, levels: int) -> None:
        self._levels = levels
        self._terms: list[str] = []
        self._steps: list[int] = []
        self._counts: list[int] = []
        self._numbers: list[int] = []
        self._parts: list[npt.NDArray[np.uint64]] = []
        self.keys: npt.NDArray[np.uint32] = np.zeros(0, np.uint32)
        self.starts: npt.NDArray[np.int64] = np.zeros(1, np.int64)
        self.codes: npt.NDArray[np.int32] = np.zeros(0, np.int32)

    def add(self, number: int, terms: Sequence[str], steps: Sequence[int]) -> list[tuple[str, int]]:
        """Take the terms of question ``number`` with their weight steps; hand back the
        ``(term, code)`` postings that are not CJK (filed by the caller), in order, once a
        batch is full (else an empty list)."""
        self._terms += terms
        self._steps += steps
        self._counts.append(len(terms))
        self._numbers.append(number)
        if len(self._terms) < BATCH:
            return []
        return self.flush()

    def flush(self) -> list[tuple[str, int]]:
        """Number the gathered terms; hand back the postings that are not CJK, in order."""
        terms = self._terms
        if not terms:
            return []
        numbers = np.repeat(np.asarray(self._numbers, np.int64), self._counts)
        codes = numbers * self._levels + np.asarray(self._steps, np.int64)
        self._terms, self._steps, self._counts, self._numbers = [], [], [], []
        lengths = np.fromiter(map(len, terms), np.int64, len(terms))
        points = code_points("".join(terms))
        first = np.cumsum(lengths) - lengths
        second = np.minimum(first + 1, len(points) - 1)
        one, two = points[first], np.where(lengths == 2, points[second], 0)
        cjk = is_cjk_point(one) & ((lengths == 1) | ((lengths == 2) & is_cjk_point(two)))
        key = (one.astype(np.int64) - (_FIRST - 1)) << 16
        key |= np.where(lengths == 2, two.astype(np.int64) - (_FIRST - 1), 0)
        self._parts.append((key[cjk].astype(np.uint64) << 32) | codes[cjk].astype(np.uint64))
        other = np.flatnonzero(~cjk).tolist()
        return list(zip([terms[i] for i in other], codes[other].tolist(), strict=True))

    def done(self) -> None:
        """Group the postings by term (question order within a term: the codes grow)."""
        parts, self._parts = self._parts, []
        postings = np.empty(sum(map(len, parts)), np.uint64)
        at = 0
        while parts:  # (each part let go once copied: the memory of the postings once more)
            part = parts.pop(0)
            postings[at : at + len(part)] = part
            at += len(part)
        postings.sort()
        # (each posting's two 32-bit words read in place: ``postings & 0xFFFFFFFF`` and
        # ``postings >> 32`` made a temporary as large as the postings, 92 MB at 30,000
        # Chinese questions, at the build's peak)
        words = postings.view(np.uint32).reshape(-1, 2)
        low, high = (0, 1) if sys.byteorder == "little" else (1, 0)
        self.codes = words[:, low].astype(np.int32)
        keys = words[:, high].copy()
        del postings, words
        starts = np.flatnonzero(keys[1:] != keys[:-1]) + 1
        firsts = np.concatenate([[0], starts]).astype(np.int64) if len(keys) else starts
        self.keys = keys[firsts]
        self.starts = np.concatenate([firsts, [len(keys)]]).astype(np.int64)

    def __len__(self) -> int:
        """How many postings."""
        return len(self.codes)

    def terms(self) -> list[str]:
        """Each term, in the order of ``keys``."""
        one = (self.keys >> 16).astype(np.int64) + (_FIRST - 1)
        two = (self.keys & 0xFFFF).astype(np.int64)
        two = np.where(two > 0, two + (_FIRST - 1), 0)
        return [
            chr(a) + chr(b) if b else chr(a)
            for a, b in zip(one.tolist(), two.tolist(), strict=True)
        ]

    def buckets(self, count: int) -> npt.NDArray[np.int64]:
        """Each term's bucket among ``count`` (``index.bucket``'s hash, in numpy)."""
        one = (self.keys >> 16).astype(np.int64) + (_FIRST - 1)
        two = (self.keys & 0xFFFF).astype(np.int64)
        pair = np.where(two > 0, one * 31 + two + (_FIRST - 1), one)
        return np.asarray(pair % count, np.int64)

    def unpacked(
        self, pace: Callable[[Iterable[Any], int], Iterable[Any]] | None = None
    ) -> dict[str, array[int]]:
        """Every term's postings as ``index.LocaleIndex.postings`` holds them (``pace``: as
        ``index.LocaleIndex.build``'s)."""
        data = self.codes.tobytes()
        found: dict[str, array[int]] = {}
        starts = (self.starts * 4).tolist()
        terms = zip(self.terms(), starts, starts[1:], strict=False)
        for term, start, end in pace(terms, 4096) if pace else terms:
            codes = found[term] = array("i")
            codes.frombytes(data[start:end])
        return found

    def files(self, count: int, told: BucketWatch | None = None) -> Iterator[tuple[int, bytes]]:
        """Every bucket's terms file among ``count`` buckets, in bucket order: the bytes of
        ``json.dumps({term: [first, deltas...]}, ensure_ascii=False, separators=(",", ":"))``
        with the terms sorted (a CJK term needs no escape in JSON); each bucket's postings
        told to ``told`` before its file is handed over."""
        terms = self.terms()
        buckets = self.buckets(count)
        order = np.argsort(buckets, kind="stable")  # by bucket, then by term (keys sorted)
        bounds = np.searchsorted(buckets[order], np.arange(count + 1)).tolist()
        deltas = self.codes.copy()
        deltas[1:] -= self.codes[:-1]
        deltas[self.starts[:-1]] = self.codes[self.starts[:-1]]
        for low in range(0, count, FILES_AT_ONCE):
            high = min(count, low + FILES_AT_ONCE)
            members = order[bounds[low] : bounds[high]]
            first, last = self.starts[members], self.starts[members + 1]
            sizes = last - first
            at = np.repeat(first - np.cumsum(sizes) + sizes, sizes) + np.arange(sizes.sum())
            names = [terms[i] for i in members.tolist()]
            entries = [bound - bounds[low] for bound in bounds[low : high + 1]]  # (per bucket)
            made = objects(names, np.arange(len(names)), sizes, deltas[at], entries)
            if told is not None:
                codes = self.codes[at]
                offsets = np.concatenate([[0], np.cumsum(sizes)]).tolist()
            for bucket, data in zip(range(low, high), made, strict=True):
                if told is not None:
                    start, end = entries[bucket - low], entries[bucket - low + 1]
                    told(
                        bucket,
                        names[start:end],
                        sizes[start:end],
                        codes[offsets[start] : offsets[end]],
                    )
                yield bucket, data
