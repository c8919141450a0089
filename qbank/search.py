# ruff: noqa: RUF001  (Turkish and Chinese interface text)
"""Site search: a Pagefind index of the built site, one record per question, one index per locale.

Pagefind would index whole pages; a topic page holds hundreds of questions, so a result would
be a page and its fragment (what the browser downloads per result) would be the whole page.
Instead every question of a locale becomes its own small HTML document, built straight from
the bank (``question_record``: plain text, no markup to parse, so Pagefind's time stays low),
with the URL of the question's anchor on its topic page (``/en/backend/indexing/#q-{id}``),
its ``data-pagefind-filter`` values (field, seniority, difficulty) and ``data-pagefind-meta``
(title, topic, prompt). Each language is indexed by its own Pagefind process (the extended
binary segments Chinese; Turkish and English are stemmed), all at once and while MkDocs
builds the pages; ``merge_indexes`` then puts the one-language bundles side by side.

Snippets: the answer block's explanation is indexed (a reader finds a question by words of
its explanation), but the "Answer: b" line is not, and the search box shows the prompt
(``meta.prompt``) as the snippet, never Pagefind's excerpt, so a result never shows which
option is right.

Under ``mkdocs serve`` a site folder is built again and again by one process:
``index_site_after_build`` indexes the first build at once, and on every rebuild puts the last
index back immediately and refreshes it in a background thread (see ``LiveIndex``).

This module is part of the core: it never imports MkDocs.
"""

from __future__ import annotations

import atexit
import html
import json
import logging
import os
import re
import shutil
import subprocess
import tempfile
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from qbank.bank import Bank, Entry
from qbank.markup import plain_text, to_html
from qbank.render import question_texts, strings_for

log = logging.getLogger(__name__)

OUTPUT = "pagefind"
"""The folder of the site that holds the index and pagefind.js."""
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


# -- records -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SearchRecord:
    """One searchable question: its URL (with anchor), language and HTML document."""

    url: str
    language: str
    html: str


_TAG = re.compile(r"<[^>]+>")


def _plain(fragment: str) -> str:
    """The text of an HTML fragment, whitespace collapsed (code keeps its words)."""
    return " ".join(html.unescape(_TAG.sub(" ", fragment)).split())


def question_record(bank: Bank, entry: Entry, locale: str, url: str) -> SearchRecord:
    """The search document of one question in one locale, straight from the bank.

    Lean on purpose (Pagefind's time grows with the bytes it parses): the texts as plain
    paragraphs, no highlighting spans, no badges, no answer line. It carries what the search
    box shows (meta ``title``, ``topic`` and ``prompt``) and filters (field, seniority,
    difficulty). Words of the options, the explanation and the model answer find the
    question, but only the prompt is ever shown.
    """
    q = entry.question
    topic = (
        bank.catalog.fields[entry.field].specializations[entry.specialization].topics[entry.topic]
    )
    title = plain_text(q.prompt[locale]) or entry.slug
    filters = [f"field:{entry.field}", *(f"seniority:{s}" for s in entry.seniorities)]
    if q.difficulty:
        filters.append(f"difficulty:{q.difficulty}")
    texts = [text[locale] for text in question_texts(entry) if locale in text]
    body = "".join(f"<p>{html.escape(_plain(to_html(text)))}</p>" for text in texts[1:])
    document = (
        f'<!DOCTYPE html><html lang="{html.escape(locale.lower())}"><head><meta charset="utf-8">'
        f'</head><body><div data-pagefind-body><div data-pagefind-meta="title[data-title], '
        f'topic[data-topic], url[data-url]" data-title="{html.escape(title)}" '
        f'data-topic="{html.escape(bank.name(topic.name, locale))}" '
        f'data-url="{html.escape(url)}#q-{entry.id}"></div>'
        + "".join(f'<span data-pagefind-filter="{html.escape(f)}"></span>' for f in filters)
        + f'<p data-pagefind-meta="prompt">{html.escape(_plain(to_html(texts[0])))}</p>'
        f"{body}</div></body></html>"
    )
    return SearchRecord(f"{url}#q-{entry.id}", locale.lower(), document)


def bank_records(
    bank: Bank, locale: str, topic_url: Callable[[str, Entry], str]
) -> list[SearchRecord]:
    """One record per question of ``bank`` in ``locale``, in bank order; ``topic_url(locale,
    entry)`` is the site-root URL of the entry's topic page (``/en/backend/indexing/``)."""
    return [
        question_record(bank, entry, locale, topic_url(locale, entry))
        for entry in bank.entries
        if locale in entry.locales
    ]


# -- the index -----------------------------------------------------------------------------------


@dataclass
class IndexReport:
    """What an indexing run wrote: records per language and the output folder."""

    output: Path
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
    """Pagefind could not index the site (binary missing or a failed run)."""


def _binary() -> str:
    from pagefind.service import get_executable

    binary = get_executable()
    if binary is None:
        raise SearchIndexError(
            "the Pagefind binary was not found; install qbank's dependency 'pagefind[extended]'"
        )
    return str(binary)


def _write(records: list[SearchRecord], output: Path) -> None:
    """Run the Pagefind binary on ``records`` (written as files beside ``output``) into the
    bundle folder ``output``. The command line indexes the same documents for about half the
    CPU time of ``pagefind --service`` (no base64 JSON messages through a pipe)."""
    source = Path(tempfile.mkdtemp(prefix=".qbank-records-", dir=output.parent))
    try:
        for number, record in enumerate(records):
            (source / f"{number:06d}.html").write_text(record.html, encoding="utf-8")
        done = subprocess.run(
            [_binary(), "--site", str(source), "--output-path", str(output), "--silent"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            check=False,
        )
        if done.returncode != 0:
            message = done.stdout.decode("utf-8", "replace").strip() or f"exit {done.returncode}"
            raise SearchIndexError(f"Pagefind failed: {message}")
    finally:
        shutil.rmtree(source, ignore_errors=True)


ENTRY = "pagefind-entry.json"


def merge_indexes(parts: list[Path], output: Path) -> None:
    """Move Pagefind bundles of one language each into one bundle at ``output``.

    Pagefind names every index, fragment and filter file by its language and content hash,
    and its scripts and WebAssembly files are the same in every bundle, so the files simply
    sit side by side; ``pagefind-entry.json`` gets every language (sorted: the same bytes
    whatever order the parts finished in).
    """
    entry: dict[str, Any] = {}
    languages: dict[str, Any] = {}
    output.mkdir(parents=True, exist_ok=True)
    for part in parts:
        data = json.loads((part / ENTRY).read_text(encoding="utf-8"))
        languages.update(data.get("languages", {}))
        entry = {**data, **entry}
        for source in sorted(part.rglob("*")):
            target = output / source.relative_to(part)
            if source.is_dir():
                target.mkdir(exist_ok=True)
            elif source.name != ENTRY and not target.exists():
                source.replace(target)
    entry["languages"] = dict(sorted(languages.items()))
    (output / ENTRY).write_text(
        json.dumps(entry, ensure_ascii=False, separators=(",", ":")), encoding="utf-8"
    )


def write_records(records: list[SearchRecord], output: Path) -> IndexReport:
    """Index ``records`` into the bundle folder ``output`` (replaced), one Pagefind run per
    language, all running at once (each is its own process), merged at the end."""
    report = IndexReport(output, Counter(record.language for record in records))
    by_language: dict[str, list[SearchRecord]] = {}
    for record in records:
        by_language.setdefault(record.language, []).append(record)
    scratch = Path(tempfile.mkdtemp(prefix=".qbank-pagefind-", dir=output.parent))
    try:
        jobs = [
            IndexJob(part, scratch / language) for language, part in sorted(by_language.items())
        ]
        for job in jobs:
            job.wait()
        if output.exists():
            shutil.rmtree(output)
        merge_indexes([job.output for job in jobs], scratch / OUTPUT)
        (scratch / OUTPUT).replace(output)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return report


class IndexJob:
    """Pagefind indexing ``records`` into ``output`` in a background thread. The binary is its
    own process, so it works while the caller goes on (building pages); ``wait`` returns when
    the bundle is written and raises ``SearchIndexError`` if it failed."""

    def __init__(self, records: list[SearchRecord], output: Path) -> None:
        self.output = output
        self.report = IndexReport(output, Counter(record.language for record in records))
        self.error: SearchIndexError | None = None
        self.thread = threading.Thread(
            target=self._run, args=(records,), name="qbank-pagefind", daemon=True
        )
        self.thread.start()

    def _run(self, records: list[SearchRecord]) -> None:
        try:
            if self.output.exists():
                shutil.rmtree(self.output)
            _write(records, self.output)
        except SearchIndexError as error:
            self.error = error
        except OSError as error:
            self.error = SearchIndexError(f"Pagefind could not write {self.output}: {error}")

    def wait(self) -> IndexReport:
        """Wait for the bundle; its report."""
        self.thread.join()
        if self.error is not None:
            raise self.error
        return self.report


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
    keeps working, with results at most one edit old) and a background thread indexes the
    new records into a folder outside the site, then puts it in place unless a newer rebuild
    has started meanwhile. The edit→preview loop never waits for Pagefind.
    """

    def __init__(self, site_dir: Path) -> None:
        self.site_dir = site_dir
        self.cache = Path(tempfile.mkdtemp(prefix="qbank-search-"))
        atexit.register(shutil.rmtree, self.cache, True)
        self.generation = 0
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None

    def first(self, records: list[SearchRecord]) -> IndexReport:
        """Index the first build synchronously and keep a copy for the rebuilds."""
        report = write_records(records, self.site_dir / OUTPUT)
        shutil.copytree(report.output, self.cache / OUTPUT, copy_function=_link_or_copy)
        return report

    def rebuilt(self, records: list[SearchRecord]) -> threading.Thread:
        """Restore the last index into the rebuilt site and refresh it in the background."""
        with self.lock:
            self.generation += 1
            generation = self.generation
            if (self.cache / OUTPUT).is_dir():
                shutil.copytree(
                    self.cache / OUTPUT,
                    self.site_dir / OUTPUT,
                    dirs_exist_ok=True,
                    copy_function=_link_or_copy,
                )
        thread = threading.Thread(
            target=self._refresh, args=(generation, records), name="qbank-search", daemon=True
        )
        thread.start()
        self.thread = thread
        return thread

    def _refresh(self, generation: int, records: list[SearchRecord]) -> None:
        fresh = Path(tempfile.mkdtemp(prefix="qbank-search-"))
        try:
            report = write_records(records, fresh / OUTPUT)
            with self.lock:
                if generation != self.generation:
                    return
                live = self.site_dir / OUTPUT
                if live.exists():
                    shutil.rmtree(live)
                shutil.copytree(fresh / OUTPUT, live, copy_function=_link_or_copy)
                self.cache, fresh = fresh, self.cache
            log.info("qbank: %s (refreshed)", report.summary())
        except (OSError, SearchIndexError) as error:
            # A newer rebuild wiped the folder under us; that rebuild refreshes again.
            log.debug("qbank: search refresh skipped: %s", error)
        finally:
            shutil.rmtree(fresh, ignore_errors=True)  # the unused run, or the old cache


_live: dict[Path, LiveIndex] = {}


def index_site_after_build(site_dir: Path, records: list[SearchRecord]) -> IndexReport | None:
    """Index a just-built site (``records``: every question of every locale). The first
    build of a folder in this process is indexed at once (returns the report); a rebuild of
    the same folder (``mkdocs serve``) gets the last index back at once and a fresh one in
    the background (returns None)."""
    key = site_dir.resolve()
    live = _live.get(key)
    if live is None:
        live = _live[key] = LiveIndex(key)
        return live.first(records)
    live.rebuilt(records)
    return None


def live_index(site_dir: Path) -> LiveIndex | None:
    """The rebuild state of a site folder indexed by this process, if any."""
    return _live.get(site_dir.resolve())
