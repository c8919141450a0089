"""The terms files' JSON made from arrays (``search.termsjson``) is byte for byte what
``json.dumps`` makes of the same objects: names that need escapes (quotes, backslashes,
control characters, the character ``objects`` escapes names apart with), any numbers of
digits, empty objects."""

from __future__ import annotations

import itertools
import json

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from support.examples import examples

from qbank.search.termsjson import json_string, number_bytes, objects, postings_object

NAMES = st.text(st.sampled_from('ab"\\\n\x1f\u4e2d\u00e9\uffff/'), min_size=1, max_size=5)
LISTS = st.lists(
    st.sampled_from([0, 1, 9, 10, 99, 100, 12345, 2**31 - 1, 2**32 - 1, 2**32, 10**15]), min_size=1
)
OBJECTS = st.lists(st.dictionaries(NAMES, LISTS, max_size=5), max_size=6)


def dumped(data: object) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


@settings(max_examples=examples(200), deadline=None)
@given(made=OBJECTS, shared=st.booleans())
def test_objects_are_json_dumps_bytes(made: list[dict[str, list[int]]], shared: bool) -> None:
    # (``shared``: the entries name one list of names, as a field's shares of a batch do)
    names: list[str] = []
    name_of: list[int] = []
    lengths: list[int] = []
    values: list[int] = []
    bounds = [0]
    for found in made:
        for name, numbers in found.items():
            if not shared or name not in names:
                names.append(name)
            name_of.append(names.index(name) if shared else len(names) - 1)
            lengths.append(len(numbers))
            values += numbers
        bounds.append(len(name_of))
    got = objects(
        names,
        np.array(name_of, np.int64),
        np.array(lengths, np.int64),
        np.array(values, np.int64),
        bounds,
    )
    assert got == [dumped(found) for found in made]


def test_number_bytes_and_json_string() -> None:
    text, ends = number_bytes(np.array([0, 7, 10, 999, 1000, 2**31 - 1], np.int32))
    assert text.tobytes() == b"0,7,10,999,1000,2147483647,"
    assert ends.tolist() == [2, 4, 7, 11, 16, 27]
    assert number_bytes(np.array([], np.int64))[0].tobytes() == b""
    assert json_string('a"\\\n\u4e2d') == dumped('a"\\\n\u4e2d')


@settings(max_examples=examples(100), deadline=None)
@given(st.dictionaries(NAMES, st.lists(st.integers(0, 2**31 - 1), min_size=1, unique=True)))
def test_a_terms_file_is_its_delta_coded_json(postings: dict[str, list[int]]) -> None:
    names = sorted(postings)
    lists = [sorted(postings[name]) for name in names]
    lengths = np.array([len(codes) for codes in lists], np.int64)
    codes = np.array([code for codes in lists for code in codes], np.int32)
    coded = {
        n: [c[0], *(b - a for a, b in itertools.pairwise(c))]
        for n, c in zip(names, lists, strict=True)
    }
    assert postings_object(names, lengths, codes) == dumped(coded)
