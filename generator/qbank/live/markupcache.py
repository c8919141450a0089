"""The HTML of a locale's question texts (``qbank.bank.markup.to_html``) taken from the
persistent cache (``qbank.live.store``) where their questions did not change: converting the
Markdown of every prompt, option, explanation and hint (code highlighted, math as MathML,
the result sanitized) is the largest part of what rendering a page of questions costs.

One entry holds the HTML of one topic's questions' texts in one locale, keyed by what it is
made from: the locale, each question file's bytes (the digest) and the versions of the
libraries the conversion runs (with qbank's, ``store.key``). The texts are taken in a fixed
order from each question (``texts``), so the entry is the list of their HTML alone. Texts
are converted without an image prefix: a text with an image, whose HTML depends on the page
that shows it, is converted by the renderer as before. An entry that has not the expected
shape is not used (as a corrupted one): the texts are converted again, the same as without
the cache (``tests/test_build_cache.py`` compares warm and cold sites file by file).

The renderer takes the result as a plain mapping of text to HTML (``render_site``'s
``known``): a topic missing from the cache has its texts converted here, once, and kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import groupby
from typing import Any

from qbank.bank.loaded import Bank, Entry
from qbank.bank.markup import to_html
from qbank.live.store import Store, key, versions_of

KIND = "markup"
LIBRARIES = ("markdown", "pymdown-extensions", "pygments", "nh3", "latex2mathml")
"""The libraries that convert a question text (their versions are part of the keys)."""


def texts(entry: Entry, locale: str) -> Iterator[str]:
    """The Markdown texts of ``entry`` in ``locale`` the renderer converts, in a fixed order."""
    q = entry.question
    for localized in (q.prompt, q.explanation, q.assesses, q.model_answer, q.hint):
        if localized and locale in localized:
            yield localized[locale]
    for option in (q.options or {}).values():
        if locale in option:
            yield option[locale]


def stored_markup(store: Store, bank: Bank, locale: str) -> dict[str, str] | None:
    """Every text of ``locale``'s questions with its HTML, topic by topic from ``store``
    where the entry holds (converted and kept there where it did not); None without a
    store (the renderer converts as it goes)."""
    if not store.enabled:
        return None
    versions = versions_of(*LIBRARIES)
    known: dict[str, str] = {}
    here = (entry for entry in bank.entries if locale in entry.locales)
    for _topic, group in groupby(here, key=lambda e: (e.field, e.specialization, e.topic)):
        members = list(group)
        wanted = [text for entry in members for text in texts(entry, locale)]
        name = key(KIND, locale, *versions, *(entry.digest for entry in members))
        html = _restored(store.get(KIND, name), len(wanted))
        if html is None:
            html = [known.get(text) or to_html(text) for text in wanted]
            store.put(KIND, name, html)
        known.update(zip(wanted, html, strict=True))
    return known


def _restored(html: Any, count: int) -> list[str] | None:
    """The ``count`` HTML texts of an entry; None when it has not their shape."""
    if not isinstance(html, list) or len(html) != count or not set(map(type, html)) <= {str}:
        return None
    return html
