"""A locale's search documents (``qbank.search.documents``) taken from the persistent cache
(``qbank.live.store``) where their questions did not change: making a document (each word of
the question stemmed, its terms weighed) is most of what indexing a question costs.

One entry holds the documents of one topic's questions in one locale, keyed by what they are
made from: the locale, the topic's name in it, and for each question its file's bytes (the
digest), where the file sits, its seniorities and the URL of its part of the topic page, with
qbank's version (``store.key``). A pull request that changes a few questions makes the
documents of their topics again; a removed or moved question changes its old topic's key
too. An entry that does not have the documents' shape is not used (as a corrupted one): the
documents are made again, the same as without the cache (``tests/test_build_cache.py``
compares the sites file by file).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import groupby
from typing import Any

from qbank.bank.loaded import Bank, Entry
from qbank.live.store import Store, key
from qbank.search.documents import SearchDoc, iter_docs, question_doc

KIND = "docs"
_SEP = "\x1f"  # (between the seniorities of a key part: no catalog key holds it)
_TERMS = " "  # between a document's terms in an entry (a term is word characters: ``_kept``)


def stored_docs(
    store: Store, bank: Bank, locale: str, topic_url: Callable[[str, Entry], str]
) -> Iterator[SearchDoc]:
    """``iter_docs(bank, locale, topic_url)``, topic by topic from ``store`` where the
    entry holds (and kept there where it did not)."""
    if not store.enabled:
        yield from iter_docs(bank, locale, topic_url)
        return
    fields = bank.catalog.fields
    here = (entry for entry in bank.entries if locale in entry.locales)
    for (field_key, spec_key, topic_key), group in groupby(
        here, key=lambda e: (e.field, e.specialization, e.topic)
    ):
        members = list(group)
        urls = [topic_url(locale, entry) for entry in members]
        topic = fields[field_key].specializations[spec_key].topics[topic_key]
        parts = [locale, field_key, spec_key, topic_key, bank.name(topic.name, locale)]
        for entry, url in zip(members, urls, strict=True):
            parts += (entry.digest, entry.file, entry.slug, _SEP.join(entry.seniorities), url)
        name = key(KIND, *parts)
        docs = _restored(store.get(KIND, name), len(members))
        if docs is None:
            docs = [
                question_doc(bank, entry, locale, url)
                for entry, url in zip(members, urls, strict=True)
            ]
            kept = [_kept(doc) for doc in docs]
            if all(doc is not None for doc in kept):
                store.put(KIND, name, kept)
        yield from docs


def _kept(doc: SearchDoc) -> list[Any] | None:
    """A document as the cache keeps it: its terms as one text (joined by ``_TERMS``) and
    their steps as one text of digits (a Chinese document has thousands of terms: one
    string each would cost more to read than the rest of the entry); None when a term
    holds the separator or a step is not one digit (then the topic is not kept)."""
    terms = _TERMS.join(doc.words)
    if terms.count(_TERMS) != max(len(doc.words) - 1, 0) or max(doc.steps, default=0) > 9:
        return None
    steps = doc.steps.translate(_TEXT).decode("ascii")
    return [doc.url, doc.topic, doc.prompt, doc.more, [list(f) for f in doc.filters], terms, steps]


_DIGITS = bytes.maketrans(b"0123456789", bytes(range(10)))
_TEXT = bytes.maketrans(bytes(range(10)), b"0123456789")


def _restored(kept: Any, count: int) -> list[SearchDoc] | None:
    """The ``count`` documents of an entry; None when it has not their shape."""
    if not isinstance(kept, list) or len(kept) != count:
        return None
    docs = []
    try:
        for url, topic, prompt, more, filters, terms, steps in kept:
            texts = (url, topic, prompt, more, terms, steps)
            if not all(isinstance(text, str) for text in texts):
                return None
            pairs = tuple((a, b) for a, b in filters)
            if not all(isinstance(a, str) and isinstance(b, str) for a, b in pairs):
                return None
            words = tuple(terms.split(_TERMS)) if terms else ()
            if len(words) != len(steps) or (steps and not (steps.isascii() and steps.isdigit())):
                return None
            weights = steps.encode("ascii").translate(_DIGITS)
            docs.append(SearchDoc(url, topic, prompt, more, pairs, words, weights))
    except (TypeError, ValueError):  # (a wrong count of items)
        return None
    return docs
