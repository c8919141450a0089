"""Site search: qbank's own static index, one per locale, one record per question.

A topic page holds hundreds of questions, so a page-level index would answer with pages; here
every question of a locale is a document built straight from the bank. The parts:

- ``tokenize``: folding, segmentation and stemming (``assets/lib/tokenize.js`` mirrors it);
- ``documents``: the search document of a question (terms with weights, shown texts, filters);
- ``index``: the on-disk index of a locale (terms, documents and filter files) and its writer;
- ``live``: the index under ``mkdocs serve``, updated in place after each rebuild.

This package is part of the core: it never imports MkDocs.
"""

from __future__ import annotations

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
    write_built,
    write_index,
    write_site_index,
)
from qbank.search.tokenize import fold, is_cjk, terms

__all__ = [
    "BUCKET_POSTINGS",
    "INDEX_DIR",
    "LEVELS",
    "IndexReport",
    "LocaleIndex",
    "SearchDoc",
    "SearchIndexError",
    "bank_docs",
    "expected_cost",
    "fold",
    "index_files",
    "is_cjk",
    "iter_docs",
    "question_doc",
    "terms",
    "write_built",
    "write_index",
    "write_site_index",
]
