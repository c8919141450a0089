"""The job-description match's topic counts (``qbank.site.match``) taken from the persistent
cache (``qbank.live.store``) where the topic's questions did not change: counting a topic's
terms (every word of its questions stemmed) is most of what the match file costs.

One entry holds one topic's weighted term counts in one locale, keyed by what they are
counted from: the locale, the topic's place and its and its specialization's names in that
locale, and each of its questions' file bytes (the digest) and place, with qbank's version
(``store.key``). An entry that has not the counts' shape is not used (as a corrupted one):
the counts are made again, the same as without the cache.
"""

from __future__ import annotations

from collections.abc import Callable

from qbank.bank.loaded import Bank, Entry
from qbank.live.store import Store, key
from qbank.site.match import TopicCounts

KIND = "match"


def stored_counts(store: Store, bank: Bank) -> TopicCounts | None:
    """A ``TopicCounts`` that keeps each topic's counts in ``store`` (None without one: the
    match counts every topic)."""
    if not store.enabled:
        return None
    catalog = bank.catalog

    def counted(
        locale: str,
        topic: tuple[str, str, str],
        here: list[Entry],
        count: Callable[[], dict[str, float]],
    ) -> dict[str, float]:
        if not here:  # (a topic with no question in this locale: nothing to count)
            return count()
        field_key, spec_key, topic_key = topic
        spec = catalog.fields[field_key].specializations[spec_key]
        parts = [locale, field_key, spec_key, topic_key]
        parts += (bank.name(spec.topics[topic_key].name, locale), bank.name(spec.name, locale))
        for entry in here:
            parts += (entry.digest, entry.file)
        name = key(KIND, *parts)
        kept = _restored(store.get(KIND, name))
        if kept is None:
            kept = count()
            store.put(KIND, name, [list(kept), list(kept.values())])
        return kept

    return counted


def _restored(kept: object) -> dict[str, float] | None:
    """The counts of an entry; None when it has not their shape."""
    if not isinstance(kept, list) or len(kept) != 2:
        return None
    terms, counts = kept
    if not isinstance(terms, list) or not isinstance(counts, list) or len(terms) != len(counts):
        return None
    if not set(map(type, terms)) <= {str} or not set(map(type, counts)) <= {int, float}:
        return None
    return {term: float(n) for term, n in zip(terms, counts, strict=True)}
