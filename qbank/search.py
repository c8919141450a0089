# ruff: noqa: RUF001  (Turkish and Chinese interface text)
"""Site search: qbank's own static index, one per locale, one record per question.

A topic page holds hundreds of questions, so a page-level index would answer with pages; here
every question of a locale is a document built straight from the bank (``question_doc``):
the words of its prompt, options, explanation and model answer, its filters (field,
seniority, difficulty) and what the result list shows (URL of the question's anchor on its
topic page, topic name, prompt). The answer line is never indexed, and a result shows the
prompt only, so a result never gives away which option is right.

The index of a locale is a folder of small static files (``index_files``): terms files that
map the words starting with the same three letters (or a bucket of Chinese, Japanese and
Korean character pairs) to their questions, documents files of 32 questions, and one bitmap
per filter value. ``assets/search.js`` downloads only what a query needs: the manifest, one
terms file per query word and the documents of the results it shows. It matches words by
prefix (Turkish by their first five letters, English after a plain suffix is cut) and CJK
text by character pairs, so no segmenter or stemmer is needed at build time. Writing an index
is plain Python over the bank, in each locale's build process; its bytes depend only on the
bank.

Under ``mkdocs serve`` a site folder is built again and again by one process:
``index_site_after_build`` indexes the first build at once, and on every rebuild puts the last
index back immediately and refreshes it in a background thread (see ``LiveIndex``).

This module is part of the core: it never imports MkDocs.
"""

from __future__ import annotations

import atexit
import base64
import html
import itertools
import json
import logging
import os
import re
import shutil
import tempfile
import threading
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from qbank.bank import Bank, Entry
from qbank.markup import prose_html, to_html
from qbank.render import question_texts, strings_for

log = logging.getLogger(__name__)

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


# -- documents -----------------------------------------------------------------------------------

INDEX_DIR = "api/search"
"""Where a locale's index sits, under ``<locale>/`` (``<locale>/api/`` is reserved)."""
FORMAT = 1
CHUNK = 32
"""Questions per documents file (a result list loads the chunks of the questions shown)."""
SNIPPET = 240
"""Characters of the prompt kept for the result list."""
PREFIX = 3
"""Words are filed by their first three characters, so a query word finds its one terms file
at once: three characters or more match every word they start, shorter ones a whole word."""
BUCKET_POSTINGS = 8000
"""About how many postings of character pairs share a terms file (CJK pairs are filed by a
hash: they are only ever looked up whole)."""

_TAG = re.compile(r"<[^>]+>")
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_CJK_RUNS = re.compile(f"([{_CJK}]+)")
# A run of CJK characters, or of other word characters: the pieces of a ``\w+`` word.
_PIECES = re.compile(f"[{_CJK}]+|[^\\W{_CJK}]+")
_ANY_CJK = re.compile(f"[{_CJK}][{_CJK}]")


def _plain(fragment: str) -> str:
    """The text of an HTML fragment, whitespace collapsed (code keeps its words)."""
    return " ".join(html.unescape(_TAG.sub(" ", fragment)).split())


def _text(markdown: str) -> str:
    """The plain text of a question text (plain prose is its own text)."""
    if prose_html(markdown) is not None:
        return " ".join(markdown.split())
    return _plain(to_html(markdown))


def fold(text: str, locale: str) -> str:
    """Lower case as the search box folds a query (Turkish dotted and dotless i kept apart)."""
    if locale.lower().startswith(("tr", "az")):
        text = text.replace("I", "ı").replace("İ", "i")
    return text.lower()


def terms(text: str, locale: str) -> set[str]:
    """The index terms of a text: its words, folded; Chinese, Japanese and Korean runs (no
    spaces between words) as their character pairs (a lone character as itself), so a query
    word is found inside an unsegmented sentence. ``search.js`` cuts queries the same way."""
    pieces = _PIECES.findall(fold(text, locale))
    if not _ANY_CJK.search(text):  # no pair to cut: every piece is a term
        return set(pieces)
    found: set[str] = set()
    for piece in pieces:
        if len(piece) > 1 and _CJK_RUNS.match(piece):
            found.update(piece[i : i + 2] for i in range(len(piece) - 1))
        else:
            found.add(piece)
    return found


def is_cjk(term: str) -> bool:
    """Whether a term is a CJK character pair or character (filed by hash)."""
    return _CJK_RUNS.match(term) is not None


def bucket(term: str, buckets: int) -> int:
    """The terms file of a CJK term: a 32-bit polynomial hash of its code points (the same
    arithmetic as ``search.js``), modulo the number of buckets."""
    h = 0
    for char in term:
        h = (h * 31 + ord(char)) & 0xFFFFFFFF
    return h % buckets


def shard_key(term: str, buckets: int) -> str:
    """Which terms file holds ``term``: ``~<n>`` for CJK, else its first characters."""
    return f"~{bucket(term, buckets)}" if term[0] >= "\u3040" and is_cjk(term) else term[:PREFIX]


def shard_name(key: str) -> str:
    """The file name of a terms file (code points in hex: any script, any file system)."""
    return "-".join(f"{ord(c):x}" for c in key)


@dataclass(frozen=True)
class SearchDoc:
    """One searchable question in one locale."""

    url: str  # site-root URL of the question's anchor on its topic page
    topic: str
    prompt: str  # the snippet shown in the result list (plain text)
    filters: tuple[tuple[str, str], ...]  # (filter, value): field, seniority, difficulty
    prompt_terms: frozenset[str]
    other_terms: frozenset[str]  # options, explanation, assesses, model answer


def question_doc(bank: Bank, entry: Entry, locale: str, url: str) -> SearchDoc:
    """The search document of one question in one locale, straight from the bank: words of
    the prompt, the options, the explanation and the model answer find it; only the prompt
    is ever shown (the answer line is not indexed at all)."""
    q = entry.question
    catalog = bank.catalog
    topic = catalog.fields[entry.field].specializations[entry.specialization].topics[entry.topic]
    filters = [("field", entry.field), *(("seniority", s) for s in entry.seniorities)]
    if q.difficulty:
        filters.append(("difficulty", str(q.difficulty)))
    texts = [_text(text[locale]) for text in question_texts(entry) if locale in text]
    prompt_terms = terms(texts[0], locale)
    other = terms(" ".join(texts[1:]), locale)
    snippet = texts[0] if len(texts[0]) <= SNIPPET else texts[0][:SNIPPET].rstrip() + "…"
    return SearchDoc(
        f"{url}#q-{entry.id}",
        bank.name(topic.name, locale),
        snippet,
        tuple(filters),
        frozenset(prompt_terms),
        frozenset(other - prompt_terms),
    )


def iter_docs(
    bank: Bank, locale: str, topic_url: Callable[[str, Entry], str]
) -> Iterator[SearchDoc]:
    """One document per question of ``bank`` in ``locale``, in bank order, made as they are
    consumed (an index of 30,000 questions never holds all their term sets at once);
    ``topic_url(locale, entry)`` is the site-root URL of the entry's topic page
    (``/en/backend/indexing/``)."""
    for entry in bank.entries:
        if locale in entry.locales:
            yield question_doc(bank, entry, locale, topic_url(locale, entry))


def bank_docs(bank: Bank, locale: str, topic_url: Callable[[str, Entry], str]) -> list[SearchDoc]:
    """``iter_docs`` as a list."""
    return list(iter_docs(bank, locale, topic_url))


# -- the index -----------------------------------------------------------------------------------


@dataclass
class IndexReport:
    """What an indexing run wrote: documents per locale."""

    languages: Counter[str] = field(default_factory=Counter)

    @property
    def records(self) -> int:
        """How many questions were indexed in all."""
        return sum(self.languages.values())

    def summary(self) -> str:
        """One line for the build log."""
        per = ", ".join(f"{lang} {n}" for lang, n in sorted(self.languages.items()))
        return f"search index: {self.records} questions ({per or 'none'})"


class SearchIndexError(Exception):
    """The search index could not be written."""


def _json(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _bitmap(ids: list[int], size: int) -> str:
    bits = bytearray((size + 7) // 8)
    for i in ids:
        bits[i >> 3] |= 1 << (i & 7)
    return base64.b64encode(bytes(bits)).decode("ascii")


def index_files(docs: Iterable[SearchDoc]) -> Iterator[tuple[str, bytes]]:
    """A locale's index as files (path relative to its folder, bytes), one at a time.

    - ``index.json``: format, number of questions, chunk size, prefix length, number of CJK
      buckets and the list of terms files;
    - ``t/<key>.json``: ``{term: postings}`` for the terms filed under ``key`` (see
      ``shard_key``); postings are the numbers of the questions holding the term, times two,
      plus one when the prompt holds it, sorted and delta-coded;
    - ``d/<n>.json``: ``[url, topic, prompt]`` of questions ``n*CHUNK`` onwards;
    - ``f.json``: per filter and value, a bitmap (base64) of the questions it keeps.

    A query downloads the manifest, one terms file per query word and the chunks of the
    results it shows; the bytes are the same for the same bank (sorted everywhere).
    """
    # Postings as 32-bit arrays: a 30,000-question locale has ~4 million of them.
    postings: dict[str, array[int]] = {}
    shown: list[list[str]] = []  # url, topic, prompt
    by_filter: dict[str, dict[str, list[int]]] = {}
    for number, doc in enumerate(docs):
        for term in doc.prompt_terms:
            found = postings.get(term)
            if found is None:
                postings[term] = found = array("i")
            found.append(number * 2 + 1)
        for term in doc.other_terms:
            found = postings.get(term)
            if found is None:
                postings[term] = found = array("i")
            found.append(number * 2)
        shown.append([doc.url, doc.topic, doc.prompt])
        for name, value in doc.filters:
            by_filter.setdefault(name, {}).setdefault(value, []).append(number)
    cjk = sum(len(values) for term, values in postings.items() if is_cjk(term))
    buckets = max(1, cjk // BUCKET_POSTINGS)
    shards: dict[str, list[str]] = {}
    for term in postings:
        shards.setdefault(shard_key(term, buckets), []).append(term)
    for key in sorted(shards):
        shard = {}
        for term in sorted(shards[key]):
            values = postings.pop(term)  # ascending: documents were added in order
            shard[term] = (
                [values[0]]
                if len(values) == 1
                else [values[0], *(b - a for a, b in itertools.pairwise(values))]
            )
        yield f"t/{shard_name(key)}.json", _json(shard)
    for start in range(0, len(shown), CHUNK):
        yield f"d/{start // CHUNK}.json", _json(shown[start : start + CHUNK])
    yield (
        "f.json",
        _json(
            {
                name: {value: _bitmap(ids, len(shown)) for value, ids in sorted(values.items())}
                for name, values in sorted(by_filter.items())
            }
        ),
    )
    yield (
        "index.json",
        _json(
            {
                "format": FORMAT,
                "docs": len(shown),
                "chunk": CHUNK,
                "prefix": PREFIX,
                "buckets": buckets,
                "shards": "\n".join(sorted(shards)),
            }
        ),
    )


def write_index(docs: Iterable[SearchDoc], output: Path) -> None:
    """Write a locale's index into the folder ``output`` (replaced)."""
    try:
        if output.exists():
            shutil.rmtree(output)
        for folder in ("t", "d"):
            (output / folder).mkdir(parents=True)
        for path, data in index_files(docs):
            (output / path).write_bytes(data)
    except OSError as error:
        raise SearchIndexError(
            f"the search index could not be written to {output}: {error}"
        ) from None


def write_site_index(site_dir: Path, docs: dict[str, list[SearchDoc]]) -> IndexReport:
    """Write every locale's index into ``site_dir/<locale>/api/search/``."""
    for locale, locale_docs in docs.items():
        write_index(locale_docs, site_dir / locale / INDEX_DIR)
    return IndexReport(Counter({locale.lower(): len(d) for locale, d in docs.items()}))


# -- rebuilds (mkdocs serve) -------------------------------------------------------------------


def _link_or_copy(source: str, target: str) -> None:
    """Hard-link a file (instant, no space; the site and the cache share it), else copy it."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


class LiveIndex:
    """The index of one site folder that one process builds again and again (``mkdocs serve``).

    The first build is indexed at once. A rebuild gets the last index back at once (search
    keeps working, with results at most one edit old) and a background thread writes the
    new one into a folder outside the site, then puts it in place unless a newer rebuild has
    started meanwhile. The edit→preview loop never waits for the index.
    """

    def __init__(self, site_dir: Path) -> None:
        self.site_dir = site_dir
        self.cache = Path(tempfile.mkdtemp(prefix="qbank-search-"))
        atexit.register(shutil.rmtree, self.cache, True)
        self.generation = 0
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None

    def _put(self, source: Path, target: Path, locales: list[str]) -> None:
        for locale in locales:
            if (source / locale).is_dir():
                if (target / locale / INDEX_DIR).exists():
                    shutil.rmtree(target / locale / INDEX_DIR)
                shutil.copytree(
                    source / locale, target / locale / INDEX_DIR, copy_function=_link_or_copy
                )

    def first(self, docs: dict[str, list[SearchDoc]]) -> IndexReport:
        """Index the first build synchronously and keep a copy for the rebuilds."""
        report = write_site_index(self.site_dir, docs)
        for locale in docs:
            shutil.copytree(
                self.site_dir / locale / INDEX_DIR, self.cache / locale, copy_function=_link_or_copy
            )
        return report

    def rebuilt(self, docs: dict[str, list[SearchDoc]]) -> threading.Thread:
        """Restore the last index into the rebuilt site and refresh it in the background."""
        with self.lock:
            self.generation += 1
            generation = self.generation
            self._put(self.cache, self.site_dir, list(docs))
        thread = threading.Thread(
            target=self._refresh, args=(generation, docs), name="qbank-search", daemon=True
        )
        thread.start()
        self.thread = thread
        return thread

    def _refresh(self, generation: int, docs: dict[str, list[SearchDoc]]) -> None:
        fresh = Path(tempfile.mkdtemp(prefix="qbank-search-"))
        try:
            for locale, locale_docs in docs.items():
                write_index(locale_docs, fresh / locale)
            with self.lock:
                if generation != self.generation:
                    return
                self._put(fresh, self.site_dir, list(docs))
                self.cache, fresh = fresh, self.cache
            log.info("qbank: search index refreshed")
        except (OSError, SearchIndexError) as error:
            # A newer rebuild wiped the folder under us; that rebuild refreshes again.
            log.debug("qbank: search refresh skipped: %s", error)
        finally:
            shutil.rmtree(fresh, ignore_errors=True)  # the unused run, or the old cache


_live: dict[Path, LiveIndex] = {}


def index_site_after_build(site_dir: Path, docs: dict[str, list[SearchDoc]]) -> IndexReport | None:
    """Index a just-built site (``docs`` by locale). The first build of a folder in this
    process is indexed at once (returns the report); a rebuild of the same folder (``mkdocs
    serve``) gets the last index back at once and a fresh one in the background (None)."""
    key = site_dir.resolve()
    live = _live.get(key)
    if live is None:
        live = _live[key] = LiveIndex(key)
        return live.first(docs)
    live.rebuilt(docs)
    return None


def live_index(site_dir: Path) -> LiveIndex | None:
    """The rebuild state of a site folder indexed by this process, if any."""
    return _live.get(site_dir.resolve())
