"""Site search: qbank's own static index, one per locale, one record per question.

A topic page holds hundreds of questions, so a page-level index would answer with pages; here
every question of a locale is a document built straight from the bank. The parts:

- ``tokenize``: folding, segmentation and stemming (``assets/search.js`` mirrors it);
- ``documents``: the search document of a question (terms with weights, shown texts, filters);
- ``index``: the on-disk index of a locale (terms, documents and filter files) and its writer;
- ``live``: the index under ``mkdocs serve``, updated in place after each rebuild.

This package is part of the core: it never imports MkDocs.
"""

from __future__ import annotations

from typing import Any

from qbank.bank import Bank
from qbank.search.documents import (
    LEVELS,
    SearchDoc,
    bank_docs,
    expected_cost,
    iter_docs,
    question_doc,
)
from qbank.search.index import (
    BUCKET_POSTINGS,
    INDEX_DIR,
    IndexReport,
    LocaleIndex,
    SearchIndexError,
    index_files,
    write_index,
    write_site_index,
)
from qbank.search.live import LiveIndex, index_site_after_build, live_index
from qbank.search.tokenize import fold, is_cjk, terms
from qbank.strings import strings_for

__all__ = [
    "BUCKET_POSTINGS",
    "INDEX_DIR",
    "LEVELS",
    "IndexReport",
    "LiveIndex",
    "LocaleIndex",
    "SearchDoc",
    "SearchIndexError",
    "bank_docs",
    "expected_cost",
    "fold",
    "index_files",
    "index_site_after_build",
    "is_cjk",
    "iter_docs",
    "live_index",
    "question_doc",
    "search_settings",
    "terms",
    "write_index",
    "write_site_index",
]


def search_settings(bank: Bank) -> dict[str, Any]:
    """What the search box needs, for every locale of ``bank``: its interface text and the
    filters' choices (``[key, name]`` pairs in catalog order, names in that locale).

    The page template writes this as JSON into the header, so the box can follow a change of
    locale that happens without a page load.
    """
    catalog = bank.catalog
    text: dict[str, Any] = {}
    for locale in catalog.locales:
        words = strings_for(locale)
        levels = words["difficulty_levels"]
        text[locale] = {
            **words["search"],
            "seniority": words["seniority"],
            "difficulty": words["difficulty"],
            "filters": {
                "field": [[k, bank.name(f.name, locale)] for k, f in catalog.fields.items()],
                "seniority": [[k, bank.name(v, locale)] for k, v in catalog.seniorities.items()],
                "difficulty": [[str(k), str(levels[k])] for k in sorted(levels)],
            },
        }
    return {"locales": list(catalog.locales), "default": catalog.default_locale, "text": text}
