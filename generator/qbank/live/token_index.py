"""One locale's prompts by shingle, for finding the prompts like a given one (the
near-duplicate pairs under ``mkdocs serve`` are updated with it, not joined again)."""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from typing import Any

from qbank.bank.similarity import as_int64, flat_int64, index_keys

_TABLE_SIZE = 1 << 20  # ``for_lookups``' table of the sought keys' low bits


class TokenIndex:
    """One locale's prompts by token, for finding the prompts like a given one.

    Every prompt of the join holds a slot; each run (``runs``: sorted keys, the low 32 bits
    of token hashes, and their slots) lists tokens. Keys may collide, which only adds
    candidates: similarity is always computed exactly. A prompt that changes or leaves gets
    its slot marked dead (its tokens stay until the index is built again, see ``worn``); a
    prompt that joins gets a new slot, its tokens merged into the small second run, which is
    merged into the large first one once it holds a 32nd as many keys (copying the large run
    for every edit would cost more than the rest of the update).
    """

    @classmethod
    def for_lookups(
        cls,
        items: Sequence[tuple[str, Collection[int]]],
        sought: Sequence[Collection[int]],
        threshold: float,
    ) -> TokenIndex:
        """An index of ``items`` in which ``candidates`` finds what an index of all of them
        finds for the prompts ``sought`` (added to it before they are looked up): only the
        items holding one of the rarest tokens of a sought prompt, as many as
        ``candidates`` takes, rare as counted over all of them. A prompt that similar holds
        one of any that many of its tokens, so it is among them; the index counts tokens
        over fewer prompts, so it may take other tokens of the sought one, which finds it
        too. One pass over every token against the few sought, where indexing them all
        sorts them all (0.36 s a locale at 30,000 questions)."""
        import numpy as np

        if not sought or not items:
            return cls([])
        mine = [np.unique(index_keys(as_int64(tokens))) for tokens in sought]
        keys = np.unique(np.concatenate(mine))
        tokens = index_keys(flat_int64([tokens for _, tokens in items]))
        # the tokens that may be sought ones (by their low bits, in a table: faster than
        # searching for every token), then those that are
        table = np.zeros(_TABLE_SIZE, dtype=bool)
        table[keys % _TABLE_SIZE] = True
        where = np.flatnonzero(table[tokens % _TABLE_SIZE])
        place = np.minimum(np.searchsorted(keys, tokens[where]), len(keys) - 1)
        hit = keys[place] == tokens[where]
        where, place = where[hit], place[hit]
        held = np.bincount(place, minlength=len(keys))
        for own in mine:
            held[np.searchsorted(keys, own)] += 1
        rare = np.zeros(len(keys), dtype=bool)
        for tokens, own in zip(sought, mine, strict=True):
            at = np.searchsorted(keys, own)
            rare[at[_rarest(held[at], len(tokens), threshold)]] = True
        ends = np.cumsum(np.fromiter((len(tokens) for _, tokens in items), np.int64, len(items)))
        owners = np.searchsorted(ends, where[rare[place]], "right")
        return cls([items[n] for n in np.unique(owners).tolist()])

    def __init__(self, items: Sequence[tuple[str, Collection[int]]]) -> None:
        self.files: list[str] = []
        self.sizes: list[int] = []
        self.alive = bytearray()
        self.slot_of: dict[str, int] = {}
        self.dead = 0
        self.runs: list[tuple[Any, Any]] = []
        self.add(items)

    def add(self, items: Sequence[tuple[str, Collection[int]]]) -> None:
        """New slots for these prompts (file, token hashes)."""
        import numpy as np

        if not items:
            return
        first = len(self.files)
        files = [file for file, _ in items]
        self.slot_of.update(zip(files, range(first, first + len(items)), strict=True))
        self.files += files
        self.sizes += [len(tokens) for _, tokens in items]
        self.alive += b"\x01" * len(items)
        keys = index_keys(flat_int64([tokens for _, tokens in items]))
        owners = np.repeat(np.arange(first, len(self.files), dtype=np.uint64), self.sizes[first:])
        # Keys and slots sorted together, as one 64-bit number each (faster than argsort).
        pairs = (keys.astype(np.uint64) << np.uint64(32)) | owners
        if len(self.runs) == 2:
            small_keys, small_owners = self.runs.pop()
            pairs = np.concatenate(
                [
                    pairs,
                    (small_keys.astype(np.uint64) << np.uint64(32))
                    | small_owners.astype(np.uint64),
                ]
            )
        pairs.sort()
        keys = (pairs >> np.uint64(32)).astype(np.uint32)
        owners = (pairs & np.uint64(0xFFFFFFFF)).astype(np.int32)
        del pairs
        if self.runs and len(keys) * 32 > len(self.runs[0][0]):
            big_keys, big_owners = self.runs.pop()
            where = np.searchsorted(big_keys, keys)
            keys, owners = np.insert(big_keys, where, keys), np.insert(big_owners, where, owners)
        self.runs.append((keys, owners))

    def remove(self, file: str) -> None:
        """The prompt of ``file`` leaves the index."""
        slot = self.slot_of.pop(file)
        self.alive[slot] = 0
        self.dead += self.sizes[slot]

    def worn(self) -> bool:
        """Whether a quarter of the keys belong to prompts no longer in the index."""
        return self.dead * 4 > sum(len(keys) for keys, _ in self.runs)

    def candidates(self, file: str, tokens: Collection[int], threshold: float) -> list[str]:
        """Every other prompt that may have Jaccard similarity ≥ ``threshold`` with
        ``tokens``: those holding one of its rarest tokens, of a size that allows it.

        A prompt that similar shares at least ``ceil(threshold * size)`` of the ``size``
        tokens of this one (whichever is larger), so it holds one of any
        ``size - ceil(threshold * size) + 1`` of them (one more taken, for rounding).
        """
        import numpy as np

        size = len(tokens)
        mine = np.unique(index_keys(as_int64(tokens)))
        ranges = [
            (np.searchsorted(keys, mine, "left"), np.searchsorted(keys, mine, "right"), owners)
            for keys, owners in self.runs
        ]
        held = sum(high - low for low, high, _ in ranges)
        rarest = _rarest(held, size, threshold).tolist()
        slots = np.unique(
            np.concatenate(
                [owners[low[k] : high[k]] for low, high, owners in ranges for k in rarest]
            )
        )
        smallest, largest = int(threshold * size) - 1, int(size / threshold) + 1
        own = self.slot_of[file]
        alive, sizes, files = self.alive, self.sizes, self.files
        return [
            files[slot]
            for slot in slots.tolist()
            if alive[slot] and slot != own and smallest <= sizes[slot] <= largest
        ]


def _rarest(held: Any, size: int, threshold: float) -> Any:
    """Where the rarest of a prompt's ``size`` tokens are among its distinct index keys
    (``held``: how many prompts hold each): any ``size - ceil(threshold * size) + 1`` of
    them (one more taken, for rounding) hold one a prompt that similar shares."""
    import numpy as np

    take = min(len(held), size - math.ceil(threshold * size) + 2)
    return np.argsort(held, kind="stable")[:take]
