"""Filters for MkDocs' notes about pages another build makes: a link to another locale's
page, a nav entry of a hand-written page (made by the default locale's build) and (under
``mkdocs serve``) a nav entry of a page skipped as unchanged. The message
texts they match are MkDocs internals (``internals.py``)."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Set

from qbank.plugin import internals


class CrossLocaleLinks(logging.Filter):
    """Drop MkDocs' note on every link to another locale's page (built by its own build)."""

    def __init__(self, locales: frozenset[str]) -> None:
        super().__init__()
        self.locales = locales

    def filter(self, record: logging.LogRecord) -> bool:
        match = internals.LINK_TO_EXCLUDED.match(str(record.msg))
        if not match or internals.EXCLUDED_MARK not in str(record.msg):
            return True
        return not ({match.group(1) or "", match.group(2)} - {""} <= self.locales)


def filter_cross_locale_links(locales: frozenset[str]) -> None:
    """Install ``CrossLocaleLinks`` for ``locales`` (replacing an earlier build's filter)."""
    pages_log = logging.getLogger(internals.PAGES_LOGGER)
    for old in [f for f in pages_log.filters if isinstance(f, CrossLocaleLinks)]:
        pages_log.removeFilter(old)
    pages_log.addFilter(CrossLocaleLinks(locales))


class SkippedPagesNote(logging.Filter):
    """Drop MkDocs' nav note on every page a serve rebuild skipped because it is unchanged."""

    def __init__(self, skipped: Callable[[], Set[str]]) -> None:
        super().__init__()
        self.skipped = skipped  # the pages the current rebuild skipped

    def filter(self, record: logging.LogRecord) -> bool:
        match = internals.NAV_TO_EXCLUDED.match(str(record.msg))
        return not (match and match.group(1).replace(os.sep, "/") in self.skipped())


def filter_skipped_pages(skipped: Callable[[], Set[str]]) -> None:
    """Install ``SkippedPagesNote``; ``skipped()`` names the pages the current rebuild skipped."""
    logging.getLogger(internals.NAV_LOGGER).addFilter(SkippedPagesNote(skipped))


class PagesBuiltElsewhere(SkippedPagesNote):
    """Drop MkDocs' nav note on every hand-written page in another locale's build (the build
    MkDocs started makes those pages; the menu of every locale links to them)."""


def filter_pages_built_elsewhere(pages: frozenset[str]) -> None:
    """Install ``PagesBuiltElsewhere`` for ``pages`` (replacing an earlier build's filter)."""
    nav_log = logging.getLogger(internals.NAV_LOGGER)
    for old in [f for f in nav_log.filters if isinstance(f, PagesBuiltElsewhere)]:
        nav_log.removeFilter(old)
    nav_log.addFilter(PagesBuiltElsewhere(lambda: pages))


class LinkedPagesNote(logging.Filter):
    """Drop MkDocs' note on every page the page cache linked from the last site (it gives
    them no HTML: MkDocs then writes no file, and says so)."""

    def __init__(self, linked: Callable[[], Set[str]]) -> None:
        super().__init__()
        self.linked = linked  # the source paths of the pages the build running now linked

    def filter(self, record: logging.LogRecord) -> bool:
        match = internals.EMPTY_PAGE.match(str(record.msg))
        return not (match and match.group(1) in self.linked())


def filter_linked_pages(linked: Callable[[], Set[str]]) -> None:
    """Install ``LinkedPagesNote`` (replacing an earlier one); ``linked()`` names the pages."""
    build_log = logging.getLogger(internals.BUILD_LOGGER)
    for old in [f for f in build_log.filters if isinstance(f, LinkedPagesNote)]:
        build_log.removeFilter(old)
    build_log.addFilter(LinkedPagesNote(linked))
