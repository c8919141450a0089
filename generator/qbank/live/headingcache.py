"""Questions' headings (``qbank.site.headings``) taken from the persistent cache
(``qbank.live.store``) where their topic's questions did not change: a heading is made from
the first block of the prompt's HTML and told apart from the topic's other questions, about a
third of what rendering a locale's pages costs once the question texts' HTML is kept.

One entry holds the headings of one topic's questions in one locale, keyed by what they are
made from: the locale and each of the topic's questions' file bytes (the digest), in the
page's order, with qbank's version (``store.key``: the conversion's libraries are part of
the markup entries' keys, and a heading is made from that HTML, so they are named here too).
An entry that has not the headings' shape is not used (as a corrupted one): the headings are
made again, the same as without the cache.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from qbank.bank.loaded import Entry
from qbank.live.markupcache import LIBRARIES
from qbank.live.store import Store, key, versions_of
from qbank.site.headings import Heading, TopicHeadings

KIND = "headings"


def stored_headings(store: Store) -> TopicHeadings | None:
    """A ``TopicHeadings`` that keeps each topic's headings in ``store`` (None without one:
    the renderer makes every topic's)."""
    if not store.enabled:
        return None
    versions = versions_of(*LIBRARIES)

    def headed(
        locale: str, here: list[Entry], make: Callable[[], dict[str, Heading]]
    ) -> dict[str, Heading]:
        name = key(KIND, locale, *versions, *(entry.digest for entry in here))
        kept = _restored(store.get(KIND, name), [entry.id for entry in here])
        if kept is None:
            kept = make()
            store.put(
                KIND,
                name,
                [[h.number, h.text, h.html, h.markdown, h.whole] for h in kept.values()],
            )
        return kept

    return headed


def _restored(kept: Any, ids: list[str]) -> dict[str, Heading] | None:
    """The headings of an entry, by the ids of the topic's questions in order; None when
    it has not their shape."""
    if not isinstance(kept, list) or len(kept) != len(ids):
        return None
    for item in kept:
        if type(item) is not list or len(item) != 5:
            return None
        number, text, html, markdown, whole = item
        if not (
            type(number) is int
            and type(text) is str
            and type(html) is str
            and type(markdown) is str
            and type(whole) is bool
        ):
            return None
    return dict(zip(ids, map(Heading._make, kept), strict=True))
