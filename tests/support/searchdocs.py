"""Search documents made in tests from ``(term, weight step)`` pairs."""

from __future__ import annotations

from collections.abc import Iterable

from qbank.search.documents import SearchDoc


def weighed(
    url: str,
    topic: str,
    prompt: str,
    more: str,
    filters: tuple[tuple[str, str], ...],
    terms: Iterable[tuple[str, int]],
) -> SearchDoc:
    """A document from its ``(term, weight step)`` pairs."""
    pairs = tuple(terms)
    words, steps = tuple(t for t, _ in pairs), bytes(s for _, s in pairs)
    return SearchDoc(url, topic, prompt, more, filters, words, steps)
