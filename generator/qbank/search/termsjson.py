"""The JSON text of terms files made from arrays: ``{term: [posting, ...], ...}`` objects, the
postings' digits written by orjson in one call and the text around them put in place by numpy,
with no Python string made per term or per posting.

A locale's terms files hold millions of postings (a Chinese index of 30,000 questions about
12 million, and the offline copy's shares of them as many again); made one f-string a term
and ``str`` a posting, they were most of the CPU of writing them. The bytes are those of
``json.dumps(…, ensure_ascii=False, separators=(",", ":"))`` (``tests/test_search_cjk.py``
and the offline tests compare them).
"""

from __future__ import annotations

import itertools
from json.encoder import encode_basestring  # (json.dumps's own)
from typing import Any

import numpy as np
import numpy.typing as npt
import orjson

_COMMA = ord(",")


def number_bytes(values: npt.NDArray[np.integer[Any]]) -> tuple[npt.NDArray[np.uint8], Any]:
    """``values`` (non-negative integers) as ASCII, each followed by a comma (``b"3,14,"``),
    and where each one's comma ends (``[2, 5]``, int64). orjson writes the digits of the
    whole array in one call (``[3,14]``) and numpy finds the separators: at 12 million
    postings 0.26 s, against 2.0 s for the digits put in place by numpy two at a time."""
    if not len(values):
        return np.empty(0, np.uint8), np.empty(0, np.int64)
    if values.max() < 2**32:
        values = values.astype(np.uint32)
    text = orjson.dumps(np.ascontiguousarray(values), option=orjson.OPT_SERIALIZE_NUMPY)
    out = np.frombuffer(text, np.uint8)[1:].copy()  # (without the opening bracket)
    out[-1] = _COMMA  # (the closing bracket a comma too)
    ends = np.flatnonzero(out == _COMMA) + 1
    return out, ends


def compact(data: Any) -> bytes:
    """``data`` (strings, integers, lists, tuples, dicts with string keys) as the bytes of
    ``json.dumps(data, ensure_ascii=False, separators=(",", ":"))``, written by orjson: the
    documents files of a 30,000-question index, the practice lists and the match profiles
    took 2-3 s of a warm build's CPU through ``json``, about a tenth of that through orjson."""
    return orjson.dumps(data)


def json_string(text: str) -> bytes:
    """``text`` as a JSON string (``json.dumps``'s escapes, non-ASCII kept)."""
    return encode_basestring(text).encode("utf-8")


_APART = "\uffff"
"""Between the names escaped in one call (``_escaped``): a noncharacter JSON never escapes."""


def _escaped(names: list[str]) -> tuple[bytes, npt.NDArray[np.int64]]:
    """``names`` as the insides of JSON strings, one after the other in UTF-8, and each one's
    length in bytes: escaped in one call when no name holds ``_APART``."""
    joined = _APART.join(names)
    if joined.count(_APART) == len(names) - 1:
        parts = encode_basestring(joined)[1:-1].encode("utf-8").split(_APART.encode("utf-8"))
    else:
        parts = [encode_basestring(name)[1:-1].encode("utf-8") for name in names]
    return b"".join(parts), np.fromiter(map(len, parts), np.int64, len(parts))


def objects(
    names: list[str],
    name_of: npt.NDArray[np.integer[Any]],
    lengths: npt.NDArray[np.integer[Any]],
    values: npt.NDArray[np.integer[Any]],
    bounds: list[int],
) -> list[bytes]:
    """JSON objects of lists of numbers: entry ``g`` is named ``names[name_of[g]]`` and holds
    the next ``lengths[g]`` of ``values`` (non-negative; entry after entry, each at least
    one); object ``k`` holds entries ``bounds[k]`` to ``bounds[k + 1]`` (none: ``b"{}"``)."""
    count = len(lengths)
    if not count:
        return [b"{}"] * (len(bounds) - 1)
    numbers, ends = number_bytes(values)
    lasts = np.cumsum(lengths) - 1
    numbers[ends[lasts] - 1] = ord("]")  # (a list's last comma closes it)
    number_ends = ends[lasts]
    number_starts = np.concatenate([[0], number_ends[:-1]])
    escaped, name_lengths = _escaped(names)
    name_starts = np.cumsum(name_lengths) - name_lengths
    firsts = np.zeros(count, bool)
    firsts[[b for b in bounds[:-1] if b < count]] = True
    # Each entry's text is its head, four runs of one buffer (its comma, none for an
    # object's first; a quote; its name; a quote, colon and bracket), then its numbers: the
    # heads are gathered byte by byte, the numbers (nearly all of the text) put around them
    # in one masked copy.
    marks = len(escaped)
    source = np.frombuffer(escaped + b',"":[', np.uint8)
    starts = np.empty((count, 4), np.int64)
    sizes = np.empty((count, 4), np.int64)
    starts[:, 0], sizes[:, 0] = marks, ~firsts
    starts[:, 1], sizes[:, 1] = marks + 1, 1
    starts[:, 2], sizes[:, 2] = name_starts[name_of], name_lengths[name_of]
    starts[:, 3], sizes[:, 3] = marks + 2, 3
    flat_starts, flat_sizes = starts.ravel(), sizes.ravel()
    placed = np.cumsum(flat_sizes) - flat_sizes
    head_bytes = int(flat_sizes.sum())
    heads = source[np.repeat(flat_starts - placed, flat_sizes) + np.arange(head_bytes)]
    head_sizes = sizes.sum(axis=1)
    begins = placed[0::4] + number_starts  # where each entry's text begins
    at_heads = np.repeat(begins - placed[0::4], head_sizes) + np.arange(head_bytes)
    placing = np.empty(head_bytes + len(numbers), np.uint8)
    in_head = np.zeros(len(placing), bool)
    in_head[at_heads] = True
    placing[at_heads] = heads
    placing[~in_head] = numbers
    at = [*begins.tolist(), len(placing)]
    text = placing.tobytes()
    return [b"{" + text[at[low] : at[high]] + b"}" for low, high in itertools.pairwise(bounds)]


def postings_object(
    names: list[str], lengths: npt.NDArray[np.int64], codes: npt.NDArray[np.int32]
) -> bytes:
    """A terms file: ``{name: postings}``, each name's ``lengths`` of ``codes`` (sorted, one
    name's after the other) delta-coded."""
    deltas = codes.astype(np.int64)
    deltas[1:] -= codes[:-1]
    firsts = np.cumsum(lengths) - lengths
    deltas[firsts] = codes[firsts]
    return objects(names, np.arange(len(names)), lengths, deltas, [0, len(names)])[0]
