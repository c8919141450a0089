"""A site session: what one process that builds the same site again and again keeps from one
build to the next, for either adapter (``mkdocs serve``: ``qbank.plugin.serve``; ``qbank build
--watch``: ``qbank.tree``).

It answers, for each rebuild, "what changed": the bank re-read from the question files whose
stamp changed (``BankCache``), the pages rendered again only where they show changed
questions (``update_site`` over the last published render, the unchanged questions' bodies
kept in ``BodyCache``), the fields whose practice files may differ, and each locale's search
documents (an unchanged question keeps its very document object, so the live index compares
by identity). A site template or an interface string edited since the last rebuild makes
the next one render every page again with the strings read again.

Lifetimes: a session lives as long as its process; ``begin`` starts a rebuild, ``published``
records the render that was written. Everything here is written by the thread that rebuilds
(MkDocs' main thread, the watch loop); the body cache takes what a background writer made
through its hand-over (``BodyCache``). Never imports MkDocs.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from qbank.bank.load import load_bank
from qbank.bank.loaded import Bank, Entry
from qbank.bank.model import TEXT_FIELDS, Catalog
from qbank.bank.progress import Report, no_progress
from qbank.bank.staleness import is_stale
from qbank.live import background
from qbank.live.headingcache import stored_headings
from qbank.live.index import Docs, LaterDocs
from qbank.live.markupcache import stored_markup
from qbank.live.matchcache import stored_terms
from qbank.live.reload import BankCache
from qbank.live.store import Store
from qbank.search import SearchDoc, question_doc
from qbank.site.render import (
    BodyCache,
    RenderedSite,
    RenderOptions,
    gone_entries,
    render_site,
    update_site,
)
from qbank.site.strings import forget_strings
from qbank.site.templates import TEMPLATES, folder_stamp

TopicUrl = Callable[[str, Entry], str]


@dataclass(frozen=True)
class Rendered:
    """A rebuild's pages: the site, and the fields whose pages and practice files may have
    changed since the last published render (None: the whole site was rendered)."""

    site: RenderedSite
    fields: frozenset[str] | None
    # the locales whose data files (practice, JSON API) may have changed (None: all)
    locales: frozenset[str] | None = None


class SearchDocs:
    """Each locale's search documents kept across builds: a question whose file did not
    change (the loader hands back the very same ``Entry``) and whose topic page part is the
    same keeps its document, so that an edit makes one document, not the whole bank's."""

    def __init__(self) -> None:
        self.kept: dict[str, dict[str, tuple[Entry, str, SearchDoc]]] = {}
        # the locales handed over as ``LaterDocs`` whose documents ``of`` has not made since
        self.owed: set[str] = set()

    def of(self, bank: Bank, locale: str, topic_url: TopicUrl) -> list[SearchDoc]:
        """``iter_docs(bank, locale, topic_url)`` as a list, from the kept documents where
        they still hold."""
        before, now = self.kept.get(locale, {}), {}
        for entry in background.paced(bank.entries, 256):  # (the worker's: gives way)
            if locale in entry.locales:
                url = f"{topic_url(locale, entry)}#q-{entry.id}"
                hit = before.get(entry.id)
                if hit is None or hit[0] is not entry:
                    hit = (entry, url, question_doc(bank, entry, locale, topic_url(locale, entry)))
                elif hit[1] != url:  # the question is on another part of its topic now
                    hit = (entry, url, _moved(hit[2], url))
                now[entry.id] = hit
        self.kept[locale] = now
        self.owed.discard(locale)
        return [doc for _, _, doc in now.values()]


def _moved(doc: SearchDoc, url: str) -> SearchDoc:
    import dataclasses

    return dataclasses.replace(doc, url=url)


SETTLE_AFTER = 1.0
"""Seconds between a first build's publishing and the background making of the comparison
state it left waiting: the server's start and the browser's first requests come first (it
holds Python's one running thread for 2-4 s at 30,000 questions x 3 locales; started at
once, the first pages were served 3.4 s later, against 0.6 s). An edit saved in the
seconds it takes waits for it (at 30,000 x 3 one 2 s after the first page was served took
6.2 s to show, the next ones 1.3-2.1 s)."""


class SiteSession:
    """What a process that rebuilds one site keeps between its rebuilds (see the module)."""

    def __init__(self) -> None:
        self.checked = BankCache()  # checked question files, by stamp
        # rendered question bodies; a background counter of match terms gives way to rebuilds
        self.bodies = BodyCache(before_count=background.checkpoint)
        self.docs = SearchDocs()  # each locale's search documents
        self.templates: Any = None  # the stamp of site_templates at the last rebuild
        # the last published render: its bank, pages and options
        self.bank: Bank | None = None
        self.site: RenderedSite | None = None
        self.options: RenderOptions | None = None

    def begin(self) -> None:
        """A rebuild starts: when a site template or string file changed since the last one,
        every page is rendered again and the strings are read again."""
        stamp = folder_stamp(TEMPLATES)
        if self.templates is not None and stamp != self.templates:
            forget_strings()
            self.forget()
        self.templates = stamp

    def forget(self) -> None:
        """Render every page at the next rebuild, every body and document made again."""
        self.bodies = BodyCache(before_count=background.checkpoint)
        self.docs = SearchDocs()
        self.bank = self.site = self.options = None

    def load(
        self, content_root: Path, progress: Report = no_progress, store: Store | None = None
    ) -> Bank:
        """The bank, re-reading only the files that changed since the last load; the files
        this session does not hold from ``store`` where it has them (a first load)."""
        self.checked.stored = store
        try:
            return load_bank(content_root, self.checked, progress)
        finally:
            self.checked.stored = None

    def render(self, bank: Bank, options: RenderOptions, store: Store | None = None) -> Rendered:
        """``bank``'s pages with ``options``: from the last published render, only the pages
        that show changed questions rendered again, else all of them (the question HTML,
        headings and match counts of unchanged topics from ``store``, when given)."""
        before = self.bank
        update = None
        if before is not None and self.site is not None and self.options == options:
            update = update_site(before, self.site, bank, options, self.bodies)
        if update is None or before is None:
            self.docs = SearchDocs()  # (a new catalog renames the topics the documents show)
            known, headed, numbered = None, None, None
            if store is not None and store.enabled:
                headed, numbered = stored_headings(store), stored_terms(store, bank)
                known = stored_markup(store, bank, *(options.locales or bank.catalog.locales))
            site = render_site(bank, options, self.bodies, numbered, known, headed)
            return Rendered(site, None)
        return Rendered(update.site, update.fields, locales_changed(before, bank))

    def published(self, bank: Bank, site: RenderedSite, options: RenderOptions) -> None:
        """The render the next rebuild starts from (it was written); the comparison state
        the next load updates made in the background if it waits (after a first load:
        ``CrossFileState.settle``, ``SETTLE_AFTER`` seconds later; the next load waits for
        it, or makes it, if it comes first)."""
        self.bank, self.site, self.options = bank, site, options
        state = self.checked.derived.cross_file
        if state is not None and state.later is not None:
            settle = threading.Timer(SETTLE_AFTER, state.settle)
            settle.daemon = True
            settle.start()

    def search_docs(
        self, bank: Bank, topic_url: TopicUrl, later: Collection[str] = ()
    ) -> dict[str, Docs]:
        """Each locale's search documents for ``bank``, kept ones where they hold; those of
        ``later``, and of a locale whose documents were never made (the index worker makes
        them), as ``LaterDocs``: made by the search worker when it takes them (until it
        has, a later rebuild hands them over as ``LaterDocs`` too)."""
        docs: dict[str, Docs] = {}
        for locale in bank.catalog.locales:
            if locale in later or locale in self.docs.owed:
                self.docs.owed.add(locale)
                count = sum(1 for entry in bank.entries if locale in entry.locales)
                docs[locale] = LaterDocs(count, partial(self.docs.of, bank, locale, topic_url))
            else:
                docs[locale] = self.docs.of(bank, locale, topic_url)
        return docs


def locales_changed(before: Bank, after: Bank) -> frozenset[str]:
    """The locales whose data files changed questions may change: those a question was
    added to or removed from, and those in which an edited question reads otherwise
    (``_as_seen_in``: an edit of the English prompt leaves the Chinese files as they were)."""
    old = {entry.file: entry for entry in gone_entries(before, after)}
    new = {entry.file: entry for entry in gone_entries(after, before)}
    locales: set[str] = set()
    for path in old.keys() | new.keys():
        a, b = old.get(path), new.get(path)
        if a is None or b is None or a.locales != b.locales:
            locales.update(*(entry.locales for entry in (a, b) if entry is not None))
            continue
        changed = (loc for loc in b.locales if loc not in locales)
        catalog = after.catalog
        locales.update(
            loc for loc in changed if _as_seen_in(a, loc, catalog) != _as_seen_in(b, loc, catalog)
        )
    return frozenset(locales)


def _as_seen_in(entry: Entry, locale: str, catalog: Catalog) -> tuple[Any, ...]:
    """What a question's files in ``locale`` are made from: its texts in that locale,
    everything that is no text, and whether that text is out of date."""
    q = entry.question
    texts = {name: (getattr(q, name) or {}).get(locale) for name in TEXT_FIELDS}
    options = {key: text.get(locale) for key, text in (q.options or {}).items()}
    rest = q.model_dump(exclude={*TEXT_FIELDS, "options"})
    where = (entry.file, entry.field, entry.specialization, entry.topic, entry.slug)
    return (*where, entry.seniorities, texts, options, rest, is_stale(entry, locale, catalog))
