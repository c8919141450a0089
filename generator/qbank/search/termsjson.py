"""The JSON text of terms files made from arrays: ``{term: [posting, ...], ...}`` objects, the
postings' digits and the text around them put in place by numpy, with no Python string made
per term or per posting.

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

_PAIRS = np.frombuffer("".join(f"{n:02d}" for n in range(100)).encode(), np.uint8).reshape(100, 2)
"""The two digits of each number below 100 (``"00"`` to ``"99"``)."""


def number_bytes(values: npt.NDArray[np.integer[Any]]) -> tuple[npt.NDArray[np.uint8], Any]:
    """``values`` (non-negative integers) as ASCII, each followed by a comma (``b"3,14,"``),
    and where each one's comma ends (``[2, 5]``, int64). Written two digits a pass from the
    right, each pass over the values that have digits left (most postings have one or two:
    a pass over a table as wide as the longest value cost 2.5 times as much), in 32 bits
    where the values fit."""
    if len(values) and values.max() < 2**32:
        values = values.astype(np.uint32)
    digits = np.ones(len(values), np.int64)
    for power in range(1, 19):
        longer = values >= 10**power
        if not longer.any():
            break
        digits += longer
    ends = np.cumsum(digits + 1)
    out = np.empty(int(ends[-1]) if len(values) else 0, np.uint8)
    out[ends - 1] = ord(",")
    at, rest, left = ends - 2, values, digits  # (each value's last digit not yet written)
    while len(rest):
        low = rest % 100
        out[at] = _PAIRS[low, 1]
        two = left >= 2
        out[at[two] - 1] = _PAIRS[low[two], 0]
        rest, left = rest // 100, left - 2
        more = left > 0
        at, rest, left = at[more] - 2, rest[more], left[more]
    return out, ends


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
    # Each entry's text is five runs of one buffer: its comma (none for an object's first),
    # a quote, its name, a quote, colon and bracket, its numbers.
    marks = len(escaped)
    source = np.frombuffer(b"".join([escaped, b',"":[', numbers.tobytes()]), np.uint8)
    starts = np.empty((count, 5), np.int64)
    sizes = np.empty((count, 5), np.int64)
    starts[:, 0], sizes[:, 0] = marks, ~firsts
    starts[:, 1], sizes[:, 1] = marks + 1, 1
    starts[:, 2], sizes[:, 2] = name_starts[name_of], name_lengths[name_of]
    starts[:, 3], sizes[:, 3] = marks + 2, 3
    starts[:, 4], sizes[:, 4] = marks + 5 + number_starts, number_ends - number_starts
    flat_starts, flat_sizes = starts.ravel(), sizes.ravel()
    placed = np.cumsum(flat_sizes) - flat_sizes
    picked = np.repeat(flat_starts - placed, flat_sizes) + np.arange(int(flat_sizes.sum()))
    text = source[picked].tobytes()
    at = [*placed[0::5].tolist(), len(text)]  # where each entry's text begins
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
