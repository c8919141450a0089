# ruff: noqa: RUF001  (Turkish and Chinese interface text)
"""Site search: a Pagefind index of the built site, one record per question, one index per locale.

Pagefind would index whole pages; a topic page holds hundreds of questions, so a result would
be a page and its fragment (what the browser downloads per result) would be the whole page.
Instead every element marked ``data-pagefind-body`` (the wrapper of a question on its topic
page; copies on seniority pages carry ``data-pagefind-ignore="all"``) becomes its own small
HTML document, handed to the Pagefind service with the page's ``<html lang>`` and the URL of
the question's anchor (``/en/backend/indexing/#q-{id}``). Pagefind itself reads the
``data-pagefind-filter`` (field, seniority, difficulty), ``data-pagefind-meta`` (the prompt)
and ``data-pagefind-ignore`` attributes the question template writes, and builds one index per
language (the extended binary segments Chinese; Turkish and English are stemmed).

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
import base64
import html
import io
import json
import logging
import os
import shutil
import subprocess
import tempfile
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from selectolax.lexbor import LexborHTMLParser, LexborNode

from qbank.bank import Bank
from qbank.render import strings_for

log = logging.getLogger(__name__)

OUTPUT = "pagefind"
"""The folder of the site that holds the index and pagefind.js."""
EXCLUDE = (".qb-links",)
"""Parts of a question never indexed besides those marked ``data-pagefind-ignore`` in the
template: the permalink / edit / report links would make every question match "edit"."""

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


def page_url(site_dir: Path, page: Path) -> str:
    """The site-root URL of a built page: ``en/a/index.html`` → ``/en/a/``."""
    relative = page.relative_to(site_dir).as_posix()
    if relative == "index.html" or relative.endswith("/index.html"):
        relative = relative[: -len("index.html")]
    return "/" + relative


def _text(node: LexborNode | None) -> str:
    """A node's text without the heading's permalink mark."""
    if node is None:
        return ""
    for link in node.css("a.headerlink"):
        link.decompose()
    return " ".join(node.text(separator=" ").split())


def page_records(site_dir: Path, page: Path) -> Iterator[SearchRecord]:
    """The records of one built page: one per ``[data-pagefind-body][id]`` element."""
    parser = LexborHTMLParser(page.read_text(encoding="utf-8"))
    bodies = parser.css("[data-pagefind-body][id]")
    if not bodies:
        return
    root = parser.css_first("html")
    language = ((root.attributes.get("lang") if root else None) or "unknown").lower()
    url = page_url(site_dir, page)
    topic = _text(parser.css_first("article h1") or parser.css_first("h1"))
    for body in bodies:
        anchor = body.attributes.get("id") or ""
        qid = body.attributes.get("data-qid") or ""
        heading = parser.css_first(f'[id="h-{qid}"]') if qid else None
        title = _text(heading) or topic
        document = (
            f'<!DOCTYPE html><html lang="{html.escape(language)}"><head><meta charset="utf-8">'
            f"</head><body>"
            f'<div data-pagefind-meta="title[data-title], topic[data-topic]" '
            f'data-title="{html.escape(title)}" data-topic="{html.escape(topic)}"></div>'
            f"{body.html}</body></html>"
        )
        yield SearchRecord(f"{url}#{anchor}", language, document)


def site_records(site_dir: Path) -> Iterator[SearchRecord]:
    """Every record of a built site (pages in a stable order; the index folder skipped)."""
    for page in sorted(site_dir.rglob("*.html")):
        if page.relative_to(site_dir).parts[0] == OUTPUT:
            continue
        yield from page_records(site_dir, page)


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


class _Service:
    """A small client of ``pagefind --service``, the binary of the ``pagefind`` package (the
    extended build when ``pagefind[extended]`` is installed).

    It speaks the protocol of the package's own asyncio wrapper (base64 JSON messages, each
    ending with a comma) but streams: the wrapper polls one response per 0.1 s, so 90,000
    questions would take hours; here a thread writes the requests while the responses are
    read as they come.
    """

    def __init__(self) -> None:
        from pagefind.service import get_executable

        binary = get_executable()
        if binary is None:
            raise SearchIndexError(
                "the Pagefind binary was not found; install qbank's dependency 'pagefind[extended]'"
            )
        self.errors = tempfile.TemporaryFile()  # noqa: SIM115  (closed by close())
        self.process = subprocess.Popen(
            [str(binary), "--service"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.errors,
        )
        self.sent = 0
        self.buffer = b""

    def _send(self, payload: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.sent += 1
        message = json.dumps({"message_id": self.sent, "payload": payload}).encode("utf-8")
        self.process.stdin.write(base64.b64encode(message) + b",")

    def _receive(self) -> dict[str, Any]:
        stdout = self.process.stdout
        assert isinstance(stdout, io.BufferedReader)
        while b"," not in self.buffer:
            chunk = stdout.read1(1 << 16)
            if not chunk:
                self.errors.seek(0)
                output = self.errors.read().decode("utf-8", "replace").strip()
                raise SearchIndexError(f"Pagefind stopped unexpectedly: {output or 'no output'}")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b",", 1)
        payload: dict[str, Any] = json.loads(base64.b64decode(message))["payload"]
        if payload.get("type") == "Error":
            raise SearchIndexError(f"Pagefind: {payload.get('message')}")
        return payload

    def call(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Send one request and wait for its response."""
        assert self.process.stdin is not None
        self._send(payload)
        self.process.stdin.flush()
        return self._receive()

    def add_files(self, index_id: int, records: list[SearchRecord]) -> None:
        """Add every record's document to the index, streaming."""

        def write() -> None:
            assert self.process.stdin is not None
            try:
                for record in records:
                    self._send(
                        {
                            "type": "AddFile",
                            "index_id": index_id,
                            "file_path": None,
                            "url": record.url,
                            "file_contents": record.html,
                        }
                    )
                self.process.stdin.flush()
            except OSError:  # the binary died; the reader reports why
                pass

        writer = threading.Thread(target=write, name="qbank-pagefind-writer", daemon=True)
        writer.start()
        try:
            for _ in records:
                self._receive()
        finally:
            writer.join()

    def close(self) -> None:
        """End the service."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.errors.close()


def _write(records: list[SearchRecord], output: Path) -> None:
    service = _Service()
    try:
        config = {"exclude_selectors": list(EXCLUDE)}
        index_id = service.call({"type": "NewIndex", "config": config})["index_id"]
        service.add_files(index_id, records)
        service.call({"type": "WriteFiles", "index_id": index_id, "output_path": str(output)})
    finally:
        service.close()


def write_index(site_dir: Path, output: Path | None = None) -> IndexReport:
    """Index the built site in ``site_dir`` with Pagefind into ``output``
    (default ``site_dir/pagefind``), replacing what was there; pagefind.js and its files
    are written beside the index, so the site needs no CDN."""
    output = output or site_dir / OUTPUT
    records = list(site_records(site_dir))
    report = IndexReport(output, Counter(record.language for record in records))
    if output.exists():
        shutil.rmtree(output)
    try:
        _write(records, output)
    except OSError as error:
        raise SearchIndexError(f"Pagefind could not index {site_dir}: {error}") from None
    return report


# -- rebuilds (mkdocs serve) -------------------------------------------------------------------


def _link_or_copy(source: str, target: str) -> None:
    """Hard-link a file (instant, no space; the site and the cache share it), else copy it."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


class LiveIndex:
    """The index of one site folder that one process builds again and again (``mkdocs serve``).

    The first build is indexed at once. A rebuild (which has wiped the folder) gets the last
    index back at once — search keeps working, with results at most one edit old — and a
    background thread indexes the new pages into a folder outside the site, then puts it in
    place unless a newer rebuild has started meanwhile. The edit→preview loop never waits for
    Pagefind.
    """

    def __init__(self, site_dir: Path) -> None:
        self.site_dir = site_dir
        self.cache = Path(tempfile.mkdtemp(prefix="qbank-search-"))
        atexit.register(shutil.rmtree, self.cache, True)
        self.generation = 0
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None

    def first(self) -> IndexReport:
        """Index the first build synchronously and keep a copy for the rebuilds."""
        report = write_index(self.site_dir)
        shutil.copytree(report.output, self.cache / OUTPUT, copy_function=_link_or_copy)
        return report

    def rebuilt(self) -> threading.Thread:
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
            target=self._refresh, args=(generation,), name="qbank-search", daemon=True
        )
        thread.start()
        self.thread = thread
        return thread

    def _refresh(self, generation: int) -> None:
        fresh = Path(tempfile.mkdtemp(prefix="qbank-search-"))
        try:
            report = write_index(self.site_dir, fresh / OUTPUT)
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


def index_site_after_build(site_dir: Path) -> IndexReport | None:
    """Index a just-built site. The first build of a folder in this process is indexed at
    once (returns the report); a rebuild of the same folder (``mkdocs serve``) gets the last
    index back at once and a fresh one in the background (returns None)."""
    key = site_dir.resolve()
    live = _live.get(key)
    if live is None:
        live = _live[key] = LiveIndex(key)
        return live.first()
    live.rebuilt()
    return None


def live_index(site_dir: Path) -> LiveIndex | None:
    """The rebuild state of a site folder indexed by this process, if any."""
    return _live.get(site_dir.resolve())
