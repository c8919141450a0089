"""How alike two prompts are: the normalized text, its shingles, and the exact near-duplicate
join of many prompts (Jaccard similarity of shingle sets, in numpy arrays).

A prompt is compared through the hashes of its *shingles*: its tokens (words; for Chinese
and Japanese, written without spaces, overlapping character pairs) and each two consecutive
tokens. The pairs follow word order, so templated prompts that share nearly every word
(the same words in another order, or the same text above different code) are told apart;
the single tokens keep a short prompt with one word added or dropped close to the original
(with pairs alone, one word inserted into a 20-word prompt changes 3 of 21 pairs).
"""

from __future__ import annotations

import operator
import re
import unicodedata
from array import array
from collections.abc import Collection, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Any, TypeVar, cast

if TYPE_CHECKING:
    import numpy as np

    IntArray = np.ndarray[Any, np.dtype[np.int64]]

T = TypeVar("T")
NEAR_DUPLICATE_THRESHOLD = 0.9
MIN_SHINGLES = 5  # prompts with fewer shingles are too short to compare
# How many other prompts one prompt's entry in a token's list is paired with at most, in the
# join: it bounds the work on a bank of look-alike prompts (a template filled in thousands
# of times), where every prompt may share its rarest shingles with every other one. A list
# cut short is gone through again in min-hash order, each entry paired with the next
# ``NEAR_ORDER_CAP`` (``_near_pairs``): near-duplicates sit side by side in that order, so a
# small cap with this second pass finds more of them, in less time and memory, than a larger
# cap in size order alone, where a pair may lie further apart than the cap in every list it
# shares. A cluster of up to 33 mutual look-alikes is found whole; an ordinary bank's lists
# stay under the cap.
CANDIDATES_PER_PROMPT = 32
NEAR_ORDER_CAP = 8
# How many tokens of their prefixes two similar sets share at least (fewer for a small set
# that needs less overlap), in the join: the prefix is that much longer than the classic one
# less one. Five rather than two: in templated prompts the rarest shingles come in groups
# (a number in the code, its word and the pairs around it: "58", "x 58", "58 y"), and sets
# sharing only such a group were most of the candidates compared exactly; five cuts them
# out on a templated bank and changes next to nothing on an ordinary one.
SHARED_IN_PREFIX = 5
# locale -> (index of the question in the list of found ones, its prompt's shingle hashes)
PackedTokens = list[tuple[int, "array[int]"]]

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_RUN = re.compile(f"[{_CJK}]+")
_TOKEN = re.compile(f"[{_CJK}]+|[^\\W_{_CJK}]+")  # runs of Chinese or Japanese, other words
_WORD = re.compile(r"[^\W_]+")  # letters and digits
_ASCII_GAPS = {c: " " for c in range(128) if not chr(c).isalnum()}  # what _WORD skips, in ASCII
# The same for ASCII text as bytes: bytes.translate takes a table, faster than the dict.
_ASCII_GAP_BYTES = bytes(32 if c in _ASCII_GAPS else c for c in range(256))
# An odd 64-bit constant (the golden ratio's fraction, as a signed number) that mixes the
# hashes of a pair's two tokens into the pair's hash, the first one multiplied by it.
_PAIR_MIX = 0x9E3779B97F4A7C15 - (1 << 64)


def normalize_text(text: str) -> str:
    """Compare texts ignoring case, width and spacing."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    return " ".join(text.casefold().split())


def _ordered_tokens(norm: str) -> list[str]:
    """The tokens of a normalized text in reading order: words, and for Chinese and
    Japanese (written without spaces) overlapping character pairs, which tell texts apart
    far better than single characters."""
    if norm.isascii():
        return norm.translate(_ASCII_GAPS).split()
    if not _CJK_RUN.search(norm):
        return _words(norm)
    tokens: list[str] = []
    for part in _TOKEN.findall(norm):
        if len(part) == 1 or not _CJK_RUN.match(part):
            tokens.append(part)
        else:
            tokens += map(operator.add, part, part[1:])
    return tokens


def _words(norm: str) -> list[str]:
    """The words of a normalized text (``_WORD``): its parts between spaces, the few with
    other characters than letters and digits cut at them (faster than the regular
    expression over the whole text, as most parts need no regular expression)."""
    words: list[str] = []
    for part in norm.split():
        if part.isalnum():
            words.append(part)
        else:
            words += _WORD.findall(part)
    return words


def _hashed_tokens(norm: str) -> list[str] | list[bytes]:
    """``_ordered_tokens`` for hashing: ASCII tokens as bytes, split faster than str, with
    the same hashes (CPython hashes an ASCII str and its bytes alike)."""
    if norm.isascii():
        return norm.encode().translate(_ASCII_GAP_BYTES).split()
    return _ordered_tokens(norm)


def prompt_tokens(norm: str) -> frozenset[str]:
    """The token set of a normalized text (see ``_ordered_tokens``)."""
    return frozenset(_ordered_tokens(norm))


def prompt_shingles(norm: str) -> set[str | tuple[str, str]]:
    """The shingles of a normalized text: its tokens and every two consecutive tokens."""
    tokens = _ordered_tokens(norm)
    shingles: set[str | tuple[str, str]] = set(tokens)
    shingles.update(pairwise(tokens))
    return shingles


def prompt_keys(prompt: str) -> tuple[int, array[int]]:
    """A prompt's comparison keys: the hash of its normalized text and the distinct hashes
    of its shingles (``prompt_shingles``), packed (8 bytes a shingle).

    A token's hash is ``hash(token)``; a pair's is mixed from its two tokens' hashes in
    order (``first * _PAIR_MIX + second``, modulo 2**64), in one array operation for all
    the pairs of the prompt rather than a tuple made and hashed per pair.
    """
    norm = normalize_text(prompt)
    return keys_of(norm, _hashed_tokens(norm))


def compared_text(prompt: str) -> tuple[tuple[int, array[int]], tuple[str, str]]:
    """A prompt's ``prompt_keys`` and what they are hashed from, to keep where the hashes
    cannot be (they change from process to process): its normalized text and its tokens in
    order, joined by spaces (no token holds one; ``keys_of(norm, joined.split(" "))`` gives
    the keys again). Made together, the text is normalized and cut once, by the process
    that checks the file."""
    norm = normalize_text(prompt)
    tokens = _hashed_tokens(norm)
    joined = (
        b" ".join(tokens).decode()  # (ASCII tokens: bytes)
        if tokens and isinstance(tokens[0], bytes)
        else " ".join(tokens)  # type: ignore[arg-type]
    )
    return keys_of(norm, tokens), (norm, joined)


def keys_of(norm: str, tokens: Sequence[str] | Sequence[bytes]) -> tuple[int, array[int]]:
    """``prompt_keys`` of a prompt from its normalized text and tokens (``compared_text``;
    an ASCII token hashes alike as str and as bytes)."""
    import numpy as np  # imported once, on the first prompt

    n = len(tokens)
    if n < 2:
        return hash(norm), array("q", set(map(hash, tokens)))
    hashes = np.empty(2 * n - 1, dtype=np.int64)  # the tokens', then the pairs'
    words, pairs = hashes[:n], hashes[n:]
    words[:] = np.fromiter(map(hash, tokens), np.int64, n)
    np.multiply(words[:-1], _PAIR_MIX, out=pairs)  # wraps around, as intended
    pairs += words[1:]
    hashes.sort()
    distinct = np.empty(len(hashes), dtype=bool)
    distinct[0] = True
    np.not_equal(hashes[1:], hashes[:-1], out=distinct[1:])
    return hash(norm), array("q", hashes[distinct].tobytes())


def jaccard(mine: Collection[int], theirs: Collection[int]) -> float:
    """The Jaccard similarity of two sets of distinct hashes (as the join computes it)."""
    common = len(set(mine).intersection(theirs))
    return common / (len(mine) + len(theirs) - common)


def index_keys(hashes: IntArray) -> Any:
    """The low 32 bits of token hashes (keys for sorted token lists)."""
    import numpy as np

    return (hashes & 0xFFFFFFFF).astype(np.uint32)


def near_duplicates(
    items: Sequence[tuple[T, Collection[int]]], threshold: float
) -> list[tuple[T, T, float]]:
    """Pairs whose token sets have Jaccard similarity ≥ ``threshold``, as (first, second,
    similarity) with the second the larger set (or the later one of two the same size),
    ordered by the second's size, then the second's place, then the first's."""
    return bounded_near_duplicates(items, threshold, None)[0]


def bounded_near_duplicates(
    items: Sequence[tuple[T, Collection[int]]], threshold: float, cap: int | None
) -> tuple[list[tuple[T, T, float]], bool]:
    """``near_duplicates``, each entry of a token's list paired with at most ``cap`` others
    (all of them with None); and whether the cap left out any candidate pair. Every pair
    returned is similar (its similarity computed exactly); with the cap, a pair among many
    look-alikes may be missing.

    Tokens are integers (hashes), distinct within each item. A prefix-filter join, in
    array operations: every set is ordered by one global order of tokens (rarest first),
    and two sets this similar must share at least ``SHARED_IN_PREFIX`` tokens of their
    prefixes (the prefix that much longer than the classic one less one: the k-th token two
    sets share sits at most at place ``size - overlap + k`` of either; tokens no other set
    has are left out, since they are never shared). Candidate pairs are the sets sharing a
    prefix token whose sizes allow the threshold; the pairs sharing ``SHARED_IN_PREFIX``
    are compared exactly.
    """
    n = len(items)
    if n < 2:  # nothing to join (and numpy not imported for it)
        return [], False
    import numpy as np  # here, not at the top: most commands never join

    sizes = np.fromiter((len(tokens) for _, tokens in items), dtype=np.int64, count=n)
    if not sizes.any():
        return [], False
    flat = flat_int64([tokens for _, tokens in items])
    rank, span, unique_tokens = _global_order(flat)
    total = len(flat)
    del flat
    owner = np.repeat(np.arange(n, dtype=np.int64), sizes)
    # Each set's tokens in that order (sets are contiguous in ``flat``), then its prefix.
    set_ranks = np.sort(owner * span + rank) % span
    del rank
    set_start = np.cumsum(sizes) - sizes
    prefix = sizes - np.ceil(threshold * sizes).astype(np.int64) + SHARED_IN_PREFIX
    in_prefix = np.arange(total, dtype=np.int64) - set_start[owner] < prefix[owner]
    keep = in_prefix & (set_ranks >= unique_tokens)  # tokens other sets have too
    owner, rank = owner[keep], set_ranks[keep]
    # Each set's min-hash: the least of its kept tokens in a fixed shuffled order (their
    # ranks times an odd constant, modulo 2**64). Two sets share it with a probability about
    # their similarity (over these tokens), so near-duplicates nearly always do.
    near = np.zeros(n, dtype=np.uint64)
    if len(owner):
        first_of_set = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
        shuffled = rank.astype(np.uint64) * np.uint64(_SHUFFLE)  # wraps around, as intended
        near[owner[first_of_set]] = np.minimum.reduceat(shuffled, first_of_set)
    # Pairs of sets sharing a prefix token: entries by token, then by set size and set, so
    # that each pair appears once, smaller set first; the second must not be too large.
    entry_size = sizes[owner]
    by_token = np.lexsort((owner, entry_size, rank))
    owner, rank, entry_size = owner[by_token], rank[by_token], entry_size[by_token]
    top = int(sizes.max())
    # largest[s]: the largest size a set may have to be as similar to a set of size s
    largest = np.searchsorted(threshold * np.arange(top + 1), np.arange(top + 1), "right") - 1
    limit = np.minimum(largest[entry_size], top)
    end = np.searchsorted(rank * (top + 1) + entry_size, rank * (top + 1) + limit, "right")
    width = end - np.arange(len(owner)) - 1
    capped = cap is not None and bool((width > cap).any())
    if capped:
        assert cap is not None
        over, width = width > cap, np.minimum(width, cap)
    left, right = _window_pairs(width)
    first, second = owner[left], owner[right]
    if capped:  # and the lists cut short, seen again in another order
        more = _near_pairs(owner, rank, entry_size, width, over, near, largest)
        first, second = np.concatenate((first, more[0])), np.concatenate((second, more[1]))
    if not len(first):
        return [], capped
    # A pair's code: first * n + second, in 32 bits where it fits (counted faster).
    code_type = np.uint32 if n <= _CODES_IN_32_BITS_UP_TO else np.int64
    codes = first.astype(code_type) * code_type(n) + second.astype(code_type)
    pair_codes, shared = np.unique(codes, return_counts=True)
    pair_codes = pair_codes.astype(np.int64)
    # Two sets this similar share min(SHARED_IN_PREFIX, the overlap the smaller set needs)
    # prefix tokens (a small set may need fewer; the smaller set is the first of a code).
    need = np.minimum(SHARED_IN_PREFIX, np.ceil(threshold * sizes).astype(np.int64))
    candidates = pair_codes[shared >= need[pair_codes // n]]
    if not len(candidates):
        return [], capped
    first, second = np.divmod(candidates, n)
    found_pairs: list[tuple[int, int, int, float]] = []
    for at in range(0, len(first), _PAIRS_AT_ONCE):
        a, b = first[at : at + _PAIRS_AT_ONCE], second[at : at + _PAIRS_AT_ONCE]
        common = _common_counts(set_ranks, set_start, sizes, a, b, span)
        score = common / (sizes[a] + sizes[b] - common)
        similar = score >= threshold
        found_pairs += zip(
            sizes[b][similar].tolist(),
            b[similar].tolist(),
            a[similar].tolist(),
            score[similar].tolist(),
            strict=True,
        )
    found_pairs.sort()
    return [(items[a][0], items[b][0], score) for _, b, a, score in found_pairs], capped


def _window_pairs(width: IntArray) -> tuple[IntArray, IntArray]:
    """Every entry ``i`` of a list with the ``width[i]`` entries after it, as two arrays of
    places."""
    import numpy as np

    left = np.repeat(np.arange(len(width)), width)
    right = left + 1 + np.arange(len(left)) - np.repeat(np.cumsum(width) - width, width)
    return left, right


def _near_pairs(
    owner: IntArray,
    rank: IntArray,
    entry_size: IntArray,
    width: IntArray,
    over: IntArray,
    near: Any,
    largest: IntArray,
) -> tuple[IntArray, IntArray]:
    """More pairs (first set, second set) from the token lists that the cap cut short
    (``over``: an entry would have been paired with more than ``cap`` others): each such
    list ordered by the sets' min-hashes ``near`` (then size and set), every entry paired
    with the next ``NEAR_ORDER_CAP``, leaving out the pairs the size order already made (``width``:
    what each entry was paired with there). In a templated bank thousands of sets share
    every prefix token, and in size order a near-duplicate pair may lie further apart than
    the cap in every list they share; sets with the same min-hash sit side by side.
    Each pair has its smaller set first (the larger set second on a tie) and sizes that
    allow the threshold."""
    import numpy as np

    long_list = np.zeros(int(rank.max()) + 1, dtype=bool)
    long_list[rank[over]] = True
    long = long_list[rank]
    near_key = np.where(long, near[owner], np.uint64(0))
    order = np.lexsort((owner, entry_size, near_key, rank))  # ``rank`` stays as it was
    list_end = np.searchsorted(rank, rank, "right")
    reordered = np.where(
        long[order], np.minimum(list_end - np.arange(len(rank)) - 1, NEAR_ORDER_CAP), 0
    )
    left, right = _window_pairs(reordered)
    here, there = order[left], order[right]  # places in the size order
    low, high = np.minimum(here, there), np.maximum(here, there)
    new = high - low > width[low]
    here, there = here[new], there[new]
    swap = (entry_size[here] > entry_size[there]) | (
        (entry_size[here] == entry_size[there]) & (owner[here] > owner[there])
    )
    here, there = np.where(swap, there, here), np.where(swap, here, there)
    fits = entry_size[there] <= largest[entry_size[here]]
    return owner[here[fits]], owner[there[fits]]


def _global_order(flat: IntArray) -> tuple[IntArray, int, int]:
    """Each token's place in one order of all distinct tokens: by how many sets have the
    token, then by its value; with the number of distinct tokens and of those only one set
    has (they come first)."""
    import numpy as np

    # Equal tokens get one rank, so their order among themselves does not matter: numpy's
    # default sort (vectorized) is faster than a stable one here.
    by_value = np.argsort(flat)
    values = flat[by_value]
    new_value = np.empty(len(values), dtype=bool)
    new_value[0] = True
    np.not_equal(values[1:], values[:-1], out=new_value[1:])
    del values
    distinct_at = np.cumsum(new_value, dtype=np.int64) - 1  # which distinct token, where
    del new_value
    counts = np.bincount(distinct_at)
    dense = np.empty(len(counts), dtype=np.int64)
    # A count is at most the number of sets; in 16 bits numpy sorts stably by radix, faster
    # than its merge sort of 64-bit counts.
    by_count = counts.astype(np.uint16) if counts.max() < 1 << 16 else counts
    dense[np.argsort(by_count, kind="stable")] = np.arange(len(counts))
    rank = np.empty(len(flat), dtype=np.int64)
    rank[by_value] = dense[distinct_at]
    return rank, len(counts), int(np.count_nonzero(counts == 1))


_PAIRS_AT_ONCE = 20_000  # candidate pairs compared in one array operation
_SHUFFLE = 0xD6E8FEB86659FD93  # odd: multiplying by it shuffles ranks, one to one
_CODES_IN_32_BITS_UP_TO = 1 << 16  # sets in a join whose pair codes (n * n) fit in 32 bits


def _common_counts(
    set_ranks: IntArray, set_start: IntArray, sizes: IntArray, a: IntArray, b: IntArray, span: int
) -> IntArray:
    """How many tokens sets ``a[k]`` and ``b[k]`` share, for every k: both sets' tokens
    side by side per pair, sorted, and the tokens that appear twice counted."""
    import numpy as np

    length = sizes[a] + sizes[b]
    pair = np.repeat(np.arange(len(a)), length)
    offset = np.arange(len(pair)) - np.repeat(np.cumsum(length) - length, length)
    in_a = offset < sizes[a][pair]
    where = np.where(
        in_a, set_start[a][pair] + offset, set_start[b][pair] + offset - sizes[a][pair]
    )
    tokens = np.sort(pair * span + set_ranks[where])
    twice = tokens[1:] == tokens[:-1]
    counts: IntArray = np.bincount(tokens[1:][twice] // span, minlength=len(a))
    return counts


def flat_int64(token_sets: list[Collection[int]]) -> IntArray:
    """Every set's tokens one after the other, as one array. Packed sets (8-byte arrays,
    what ``prompt_keys`` makes) are joined as bytes: a numpy view of each set would cost
    more than the rest of this function on a large bank."""
    import numpy as np

    if all(isinstance(tokens, array) and tokens.typecode == "q" for tokens in token_sets):
        return np.frombuffer(b"".join(cast("list[array[int]]", token_sets)), dtype=np.int64)
    return np.concatenate([as_int64(tokens) for tokens in token_sets])


def as_int64(tokens: Collection[int]) -> IntArray:
    import numpy as np

    if isinstance(tokens, array) and tokens.typecode == "q":
        return np.frombuffer(tokens, dtype=np.int64)
    return np.fromiter(tokens, dtype=np.int64, count=len(tokens))
