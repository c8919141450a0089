# ruff: noqa: RUF001  (Turkish and Chinese interface text)
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
from qbank.render import strings_for
from qbank.search.documents import LEVELS, SearchDoc, bank_docs, iter_docs, question_doc
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

__all__ = [
    "BUCKET_POSTINGS",
    "INDEX_DIR",
    "LEVELS",
    "UI_STRINGS",
    "IndexReport",
    "LiveIndex",
    "LocaleIndex",
    "SearchDoc",
    "SearchIndexError",
    "bank_docs",
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

# The search box's own interface text; locales missing here fall back to English.
UI_STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "search": "Search questions",
        "close": "Close search",
        "all": "All",
        "field": "Field",
        "results_one": "1 question",
        "results_other": "{n} questions",
        "none": "No question matches",
        "more": "Show more",
        "loading": "Loading the search index…",
        "unavailable": "Search is not available: the index has not been built yet.",
    },
    "tr": {
        "search": "Soru ara",
        "close": "Aramayı kapat",
        "all": "Tümü",
        "field": "Alan",
        "results_one": "1 soru",
        "results_other": "{n} soru",
        "none": "Eşleşen soru yok",
        "more": "Daha fazla göster",
        "loading": "Arama dizini yükleniyor…",
        "unavailable": "Arama kullanılamıyor: dizin henüz oluşturulmadı.",
    },
    "zh": {
        "search": "搜索题目",
        "close": "关闭搜索",
        "all": "全部",
        "field": "领域",
        "results_one": "1 道题",
        "results_other": "{n} 道题",
        "none": "没有匹配的题目",
        "more": "显示更多",
        "loading": "正在加载搜索索引…",
        "unavailable": "搜索不可用：索引尚未生成。",
    },
}


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
            **UI_STRINGS["en"],
            **UI_STRINGS.get(locale, {}),
            "seniority": words["seniority"],
            "difficulty": words["difficulty"],
            "filters": {
                "field": [[k, bank.name(f.name, locale)] for k, f in catalog.fields.items()],
                "seniority": [[k, bank.name(v, locale)] for k, v in catalog.seniorities.items()],
                "difficulty": [[str(k), str(levels[k])] for k in sorted(levels)],
            },
        }
    return {"locales": list(catalog.locales), "default": catalog.default_locale, "text": text}
