"""The CJK terms files written from packed arrays (``search.cjkpostings``) are byte for byte
the files of the same terms filed one by one (``LocaleIndex.unpack``, then ``files``): for
characters at the edges of every CJK range, mixed with Latin terms, any number of buckets."""

from __future__ import annotations

import itertools
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.examples import examples
from support.searchdocs import weighed

from qbank.search import SearchDoc, index
from qbank.search.cjkpostings import _RANGES
from qbank.search.index import LocaleIndex
from qbank.search.tokenize import CJK, is_cjk

EDGES = [chr(point) for low, high in _RANGES for point in (low, low + 1, high - 1, high)]
PLAIN = ["a", "ab", "x1", "42", "zz", "ζ", "é", "\u303f", "\u3100", "\ud7b0", "\ufb00"]


def test_the_ranges_are_the_tokenizers_cjk() -> None:
    spelled = "".join(f"{chr(low)}-{chr(high)}" for low, high in _RANGES)
    assert spelled == CJK
    for point in range(0x3000, 0xFB10):
        inside = any(low <= point <= high for low, high in _RANGES)
        assert inside == (re.fullmatch(f"[{CJK}]", chr(point)) is not None)


def doc(number: int, terms: list[str], rng: random.Random) -> SearchDoc:
    return weighed(
        f"/zh/f/t/#q-{number}",
        "主题",
        f"问题 {number}",
        "",
        (("field", "f"),),
        tuple((term, rng.randint(1, 7)) for term in dict.fromkeys(terms)),
    )


def both_ways(docs: list[SearchDoc]) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """The files of ``docs`` as built (CJK terms packed when most terms are CJK) and with
    every term filed one by one (``PEEK`` 0: no document says the index is mostly CJK)."""
    packed = LocaleIndex.build(docs, "zh")
    saved = index.PEEK
    index.PEEK = 0
    try:
        one_by_one = LocaleIndex.build(docs, "zh")
    finally:
        index.PEEK = saved
    assert one_by_one.packed is None
    return dict(packed.files()), dict(one_by_one.files())


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 10**6), size=st.integers(0, 40), per=st.sampled_from([1, 3, 9, 2000]))
def test_packed_and_unpacked_terms_files_are_the_same(seed: int, size: int, per: int) -> None:
    rng = random.Random(seed)
    chars = EDGES + [chr(rng.randint(0x4E00, 0x4E40)) for _ in range(12)]
    docs = []
    for number in range(size):
        words = rng.sample(chars, rng.randint(0, 8))
        terms = words + [a + b for a, b in itertools.pairwise(words)]
        terms += rng.sample(PLAIN, rng.randint(0, 3))
        rng.shuffle(terms)
        docs.append(doc(number, terms, rng))
    saved = index.BUCKET_POSTINGS
    index.BUCKET_POSTINGS = per
    try:
        packed, unpacked = both_ways(docs)
    finally:
        index.BUCKET_POSTINGS = saved
    assert packed.keys() == unpacked.keys()
    assert [p for p in packed if packed[p] != unpacked[p]] == []


@pytest.mark.parametrize("count", [0, 1, 300])
def test_plain_terms_stay_out_of_the_cjk_files(count: int) -> None:
    rng = random.Random(count)
    terms = ["数据", "数", "据", "库", "alpha", "\u303f", "\ud7b0x"]
    docs = [doc(n, terms, rng) for n in range(count)]
    built = LocaleIndex.build(docs, "zh")
    assert all(not is_cjk(term) for term in built.postings)
    assert len(built.packed or ()) == 4 * count
    packed, one_by_one = both_ways(docs)
    assert packed == one_by_one


def test_a_longer_cjk_term_is_filed_with_the_rest() -> None:
    rng = random.Random(3)
    docs = [doc(n, ["数据", "数", "数据库", "索引"][: 1 + n % 4], rng) for n in range(500)]
    built = LocaleIndex.build(docs, "zh")
    assert built.packed is None  # (unpacked: every CJK term filed one by one)
    packed, one_by_one = both_ways(docs)
    assert packed == one_by_one


def test_an_index_of_few_cjk_terms_files_them_one_by_one() -> None:
    rng = random.Random(5)
    docs = [doc(n, ["alpha", "beta", "gamma", "数"], rng) for n in range(100)]
    built = LocaleIndex.build(docs, "en")
    assert built.packed is None
    assert built.cjk == 100
