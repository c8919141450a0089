"""The HTML of a locale's question texts (``qbank.bank.markup.to_html``) taken from the
persistent cache (``qbank.live.store``) where their questions did not change: converting the
Markdown of every prompt, option, explanation and hint (code highlighted, math as MathML,
the result sanitized) is the largest part of what rendering a page of questions costs.

One entry holds the HTML of one topic's questions' texts in one locale, addressed by the
locale, the topic and the versions of the libraries the conversion runs (with qbank's,
``store.key``); each question's part is used only under the question file's bytes (the
digest), so a pull request that changes one question of a topic converts that question's
texts, not the topic's (at 30,000 x 3, about 2,800 questions' texts less, 1.4 s of CPU).
The texts are taken in a fixed order from each question (``texts``), so a question's part
is ``[digest, [HTML, …]]``. Texts are converted without an image prefix: a text with an
image, whose HTML depends on the page that shows it, is converted by the renderer as before.
A question's part that has not the expected shape is not used (as a corrupted one): its
texts are converted again, the same as without the cache (``tests/test_build_cache.py``
compares warm and cold sites file by file).

The renderer takes the result as ``render_site``'s ``known`` (``StoredMarkup``): before it
makes a question it asks for the question's topic (``prepare``), whose entry is read then,
its missing texts converted once and kept; the entries of topics whose pages the page
cache keeps are never read, only touched.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
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


def stored_markup(store: Store, bank: Bank, *locales: str) -> StoredMarkup | None:
    """The texts of ``locales``' questions with their HTML from ``store``, a topic's when a
    question of it is first made (``StoredMarkup``); None without a store (the renderer
    converts as it goes)."""
    if not store.enabled:
        return None
    return StoredMarkup(store, bank, locales)


class StoredMarkup:
    """Every text of some locales' questions with its HTML, read topic by topic from
    ``store`` when the renderer first makes a question of the topic (``prepare``) and
    converted and kept there where the entry does not hold a question's: a page the page
    cache keeps never makes its questions, so the entries of its topics are never read
    (about 0.7 s a locale at 30,000 x 3); they are touched, so that the build keeps them.
    ``prepare`` may be called from two threads (serve's data-file writer): one reads."""

    def __init__(self, store: Store, bank: Bank, locales: Iterable[str]) -> None:
        self.store = store
        self.versions = versions_of(*LIBRARIES)
        self.known: dict[str, str] = {}
        self.waiting: dict[tuple[str, str, str, str], list[Entry]] = {}
        self.lock = threading.Lock()
        for locale in locales:
            here = (entry for entry in bank.entries if locale in entry.locales)
            for topic, group in groupby(here, key=lambda e: (e.field, e.specialization, e.topic)):
                self.waiting[(locale, *topic)] = list(group)
                store.touch(KIND, self._name(locale, topic))

    def _name(self, locale: str, topic: tuple[str, str, str]) -> str:
        return key(KIND, locale, *self.versions, *topic)

    def get(self, text: str) -> str | None:
        """The HTML of ``text`` (None: not known, or its question not prepared)."""
        return self.known.get(text)

    def prepare(self, entry: Entry, locale: str) -> None:
        """Have the texts of ``entry``'s topic in ``locale`` at hand (read on the first call)."""
        topic = (locale, entry.field, entry.specialization, entry.topic)
        if topic not in self.waiting:
            return
        with self.lock:
            group = self.waiting.pop(topic, None)
            if group is not None:
                self._read(locale, (entry.field, entry.specialization, entry.topic), group)

    def _read(self, locale: str, topic: tuple[str, str, str], group: list[Entry]) -> None:
        store, known = self.store, self.known
        name = self._name(locale, topic)
        kept = _restored(store.get(KIND, name))
        made: list[list[Any]] = []
        changed = False
        for entry in group:
            wanted = list(texts(entry, locale))
            html = kept.get(entry.digest)
            if html is None or len(html) != len(wanted):
                html = [known.get(text) or to_html(text) for text in wanted]
                changed = True
            made.append([entry.digest, html])
            known.update(zip(wanted, html, strict=True))
        if changed or len(made) != len(kept) or any(d not in kept for d, _ in made):
            store.put(KIND, name, made)


def _restored(kept: Any) -> dict[str, list[str]]:
    """The HTML of each question's texts in an entry, by the question's digest: those of
    the shape ``[digest, [HTML, …]]`` (a question whose part has another shape is converted
    again)."""
    found: dict[str, list[str]] = {}
    if not isinstance(kept, list):
        return found
    for item in kept:
        if (
            isinstance(item, list)
            and len(item) == 2
            and isinstance(item[0], str)
            and isinstance(item[1], list)
            and set(map(type, item[1])) <= {str}
        ):
            found[item[0]] = item[1]
    return found
