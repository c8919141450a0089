"""The site as data: a loaded bank → {page path: Markdown}, static files and a nav per locale.

Pure: reads only the bank and the templates in ``site_templates/``, writes nothing and never
imports MkDocs, so golden tests and other publishers use it directly. Each question's HTML is
rendered once per locale and reused on every page that shows it.

Page tree per locale (every page that shows questions sits three folders deep, so relative
image paths are the same on all of them)::

    index.md                              picks the reader's language
    <loc>/index.md                        home
    <loc>/<field>/index.md                field page
    <loc>/<field>/<topic>/index.md        topic page (canonical home of its questions)
    <loc>/<field>/<topic>--<n>/index.md   its part n when it has more than a page's
                                          questions (``qbank.site.parts``)
    <loc>/<field>/level-<seniority>/index.md   an index of that level's questions (links to
                                          their topic pages), grouped by topic, in parts
                                          (``qbank.site.parts.level_page_size``)
    <loc>/<field>/topics/<spec>/index.md  a specialization: its topics and their counts
    <loc>/<field>/practice/index.md       practice (the widget's page)
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property, partial
from itertools import groupby
from operator import attrgetter, is_
from typing import Any, Protocol, TypeVar
from urllib.parse import quote, urlencode

import jinja2
import orjson
from markupsafe import escape as _escape

from qbank.bank.catalog import CATALOG_FILE
from qbank.bank.loaded import Bank, Entry
from qbank.bank.markup import plain_text, to_html
from qbank.bank.problems import ContentError, Problem, display_path
from qbank.bank.safety import local_images, url_problem
from qbank.bank.staleness import is_stale, source_locale
from qbank.site import practice
from qbank.site.bankdata import bank_json, question_json
from qbank.site.headings import (
    Heading,
    TopicHeadings,
    first_block,
    topic_headings,
    without_first_paragraph,
)
from qbank.site.match import Terms, match_file, match_path
from qbank.site.parts import (
    DEFAULT_PAGE_SIZE,
    level_page_size,
    part_folder,
    parts_by_id,
    question_folder,
    split,
    topic_folders,
)
from qbank.site.strings import strings_for
from qbank.site.templates import TEMPLATES

RESERVED_PAGES = ("practice",)
MATCH_PAGE = "match"  # <locale>/match/: "match my job description"
SAVED_PAGE = "saved"  # <locale>/saved/: the reader's bookmarks and notes
REVIEW_PAGE = "review"  # <locale>/review/: the review queue (spaced repetition)
PROGRESS_PAGE = "progress"  # <locale>/progress/: the study state to a file or link and back
FLASHCARDS_PAGE = "flashcards"  # <locale>/flashcards/: cards rated into the review queue
LOCALE_PAGES = (
    MATCH_PAGE,
    SAVED_PAGE,
    REVIEW_PAGE,
    FLASHCARDS_PAGE,
    PROGRESS_PAGE,
)  # field keys reserved
LEVEL_PREFIX = "level-"
# A specialization's own page sits one folder below this one (``<field>/topics/<spec>/``):
# no topic page can collide with it, and its menu section never swallows a topic as index.
SPEC_FOLDER = "topics"
IMAGES = "images"
# A URL in a source line: RFC 3986's characters, so "（MIT）" or a space ends it  # noqa: RUF003
SOURCE_URL = re.compile(r"https?://[A-Za-z0-9\-._~:/?#\[\]@!$&()*+,;=%]+", re.IGNORECASE)
_IMAGE = re.compile(r"!\[|<img", re.IGNORECASE)  # a text whose HTML depends on its image prefix
_MD_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_[]{}()#+!|<>~"} | {"&": "&amp;", "\n": " "})


@dataclass(frozen=True)
class RenderOptions:
    """Where the per-question links point. Empty URLs leave the links out."""

    edit_url: str = ""  # prefix of a question's edit page; the file path is appended
    report_url: str = ""  # the repository's "new issue" URL
    report_template: str = "question-problem.yml"
    content_dir: str = "content"  # the bank's folder inside the repository
    locales: tuple[str, ...] = ()  # which locales to render; empty means all
    # Pages hold one placeholder line per run of questions instead of their headings and HTML
    # (``RenderedSite.blocks`` holds them as ``Slot``s): a publisher writes the headings,
    # swaps the HTML in after Markdown (which never parses any of it) and adds the headings
    # to the page's table of contents.
    placeholders: bool = False
    # The practice and JSON API files are left to ``RenderedSite.deferred``: a publisher
    # writes them one at a time (held at once, a large bank's would weigh on the peak).
    defer_files: bool = False
    # At most this many questions on a topic page (0: no limit); more go to numbered parts.
    page_size: int = DEFAULT_PAGE_SIZE
    # ``<locale>/api/bank.json`` (the whole bank as JSON, read by no page: 78 MB a locale at
    # 30,000 questions) is written only when asked for (the plugin's ``bank_json``).
    bank_json: bool = False


@dataclass(frozen=True)
class Slot:
    """One question as a page shows it: its heading (level, anchor id, plain title) and, made
    when asked for, its HTML (a build of 30,000 questions never holds every page's HTML)."""

    level: int
    anchor: str
    title: str  # plain text (the table of contents)
    entry: Entry
    locale: str
    make: Callable[..., str] = field(compare=False, repr=False)
    title_html: str = ""  # the heading's HTML (inline code kept); empty: ``title`` escaped
    markdown: str = ""  # the heading's Markdown (``Heading.markdown``)
    made_of: Callable[..., str] | None = field(default=None, compare=False, repr=False)

    @property
    def inputs(self) -> str:
        """What the question's HTML is made from beyond the settings, interface strings and
        libraries of the build (``_Renderer.question_inputs``): the page cache keys a page
        by it instead of by the HTML, which a page it keeps then never makes."""
        assert self.made_of is not None, "a slot made without its inputs"
        return self.made_of(self.entry, self.locale)

    @property
    def heading(self) -> str:
        """The Markdown heading line a page without placeholders shows (``_Renderer.heading``)."""
        return heading_line(self.level, self.markdown, self.anchor)

    @property
    def html(self) -> str:
        """The question's full HTML (``_Renderer.question_html``)."""
        return self.make(self.entry, self.locale)


@dataclass
class RenderedSite:
    """Generated Markdown pages, static files and the navigation of each locale."""

    pages: dict[str, str] = field(default_factory=dict)
    files: dict[str, bytes] = field(default_factory=dict)
    nav: dict[str, list[Any]] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)  # locale → site title
    blocks: list[tuple[Slot, ...]] = field(default_factory=list)  # runs by placeholder number
    # With placeholders: HTML that Markdown would only pass through (a seniority page's
    # lists), by the digest its ``HTML_BLOCK`` line names.
    html: dict[str, str] = field(default_factory=dict)
    # With ``RenderOptions.defer_files``: per locale, a producer of (path, chunks of bytes)
    # (``_Renderer.data_files``: optional ``fields`` and ``api`` limit what it makes).
    deferred: dict[str, Callable[..., Iterator[tuple[str, Iterable[bytes]]]]] = field(
        default_factory=dict
    )
    page_size: int = DEFAULT_PAGE_SIZE  # at most this many questions on a topic page


TermsOf = Callable[[str], Terms]
"""A locale's match terms, numbered (``match.Terms``; the persistent cache's keep them)."""

PLACEHOLDER = "qbank:question:{}:end"
"""The line that stands for the run ``RenderedSite.blocks[n]`` (``RenderOptions.placeholders``)."""
HTML_BLOCK = "qbank:html:{}:end"
"""The line that stands for the HTML ``RenderedSite.html[digest]`` (a digest of that HTML, so
that a page's Markdown changes whenever its HTML does)."""
HTML_BLOCK_DIGEST = re.compile(re.escape(HTML_BLOCK).replace(r"\{\}", r"([0-9a-f]{20})"))


def heading_line(level: int, markdown: str, anchor: str) -> str:
    """A question's Markdown heading: its level, its title and its anchor id."""
    return f"{'#' * level} {markdown} {{#{anchor}}}"


def md_escape(text: str) -> str:
    """Plain text made safe to place in Markdown (headings, link text, table cells)."""
    return str(text).translate(_MD_SPECIAL)


@cache
def _environment() -> jinja2.Environment:
    """The page templates' environment, one per process (it reloads a template whose file
    changed; compiling them again for each render would slow every serve rebuild)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(["html.j2"], default_for_string=False),
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["md"] = md_escape
    env.filters["fmt"] = lambda template, **kw: str(template).format(**kw)
    env.globals["question_count"] = question_count
    return env


def compile_templates() -> None:
    """Compile every page template of this process's environment now (before a fork: the
    forked process then renders with them instead of compiling them again)."""
    env = _environment()
    for name in env.list_templates(extensions=["j2"]):
        env.get_template(name)


def question_count(t: Mapping[str, Any], n: int) -> str:
    """ "1 question" / "5 questions" in the page's language (``question_count_one`` for 1)."""
    return str(t["question_count_one" if n == 1 else "question_count"]).format(n=n)


def image_prefix(entry: Entry, depth: int = 3) -> str:
    """Where a question's images sit, relative to a file ``depth`` folders deep (every page
    that shows questions is three deep; ``<locale>/api/bank.json`` is two)."""
    return f"{'../' * depth}{IMAGES}/{entry.field}/{entry.topic}/"


def gone_entries(before: Bank | None, after: Bank) -> list[Entry]:
    """The entries of ``before`` that are not (the very same objects) in ``after``: changed,
    moved or removed questions (a loader's file cache hands back the same ``Entry`` while its
    file is unchanged)."""
    if before is None or before is after:
        return []
    kept = {id(entry) for entry in after.entries}
    return [entry for entry in before.entries if id(entry) not in kept]


TopicKey = tuple[str, str, str]  # field, specialization, topic
T = TypeVar("T")

# What a renderer keeps per question and locale besides its body (``_Renderer.remembered``).
REMEMBERED = ("bank",)


class BodyCache:
    """Rendered question bodies kept across renders of one bank (``mkdocs serve`` rebuilds),
    and per topic its headings and match counts (while its entries are the very same).

    A body is reused only for the very same ``Entry`` object (the loader's file cache hands
    back the same object while its file is unchanged), the same options and an equal
    catalog; anything else renders again. What was kept for questions gone from the bank
    since the last render is dropped (found from the two banks' entries: a rebuild after an
    edit never walks every body).

    One writer: the thread that renders (``start``, which serve and the watch loop call from
    the thread that rebuilds). A background writer of data files made from a render (the
    ``bank.json`` files, the match counts) reads the cache and hands what it made over
    (``keep``, ``match_counts``): the next ``start`` takes it in, so no two threads ever
    write the same table.
    """

    def __init__(self, before_count: Callable[[], None] = lambda: None) -> None:
        self.key: tuple[RenderOptions, Any] | None = None
        self.bank: Bank | None = None
        self.bodies: dict[tuple[str, str], tuple[Entry, str]] = {}
        # (locale, topic key) → (the topic's entries, their match counts): ``match_counts``
        self.topics: dict[
            tuple[str, tuple[str, str, str]], tuple[list[Entry], dict[str, float]]
        ] = {}
        # (field, topic, locale) → (the topic page's entries, their headings): ``headings``
        self.headed: dict[tuple[str, str, str], tuple[list[Entry], dict[str, Heading]]] = {}
        # Called before a topic's match terms are counted again: serve sets it to
        # ``background.checkpoint`` so that a background data-file writer counting every
        # topic (a locale first built by the forked process) holds while a rebuild runs.
        self.before_count = before_count
        self.owner = threading.get_ident()  # the thread that renders (``start``)
        # What other threads made, for the owner's next ``start`` (guarded by ``handed``).
        self.handed_bodies: dict[tuple[str, str], tuple[Entry, str]] = {}
        self.handed_topics: dict[
            tuple[str, tuple[str, str, str]], tuple[list[Entry], dict[str, float]]
        ] = {}
        self.handed_headed: dict[tuple[str, str, str], tuple[list[Entry], dict[str, Heading]]] = {}
        self.handed = threading.Lock()

    def keep(self, key: tuple[str, str], entry: Entry, text: str) -> None:
        """Keep ``text`` made for ``entry`` under ``key``: at once in the owner's thread,
        else handed over to its next ``start``."""
        if threading.get_ident() == self.owner:
            self.bodies[key] = (entry, text)
        else:
            with self.handed:
                self.handed_bodies[key] = (entry, text)

    def match_counts(
        self,
        locale: str,
        key: TopicKey,
        here: list[Entry],
        count: Callable[[], dict[str, float]],
    ) -> dict[str, float]:
        """A topic's match term counts (``qbank.site.match.TopicCounts``), counted again only
        when one of its entries is not the very same object as last time."""

        def counted() -> dict[str, float]:
            self.before_count()
            return count()

        return self._of_topic(self.topics, self.handed_topics, (locale, key), here, counted)

    def headings(
        self,
        key: tuple[str, str, str],
        here: list[Entry],
        make: Callable[[], dict[str, Heading]],
    ) -> dict[str, Heading]:
        """A topic page's headings in a locale (``key``: field, topic, locale; ``here``: its
        entries in order), made again only when one of its entries is not the very same
        object as last time: a serve rebuild renders the seniority pages of an edited
        question's field, which list every question of the field by its heading (at 30,000
        questions in 120 topics, a new question's rebuild made the headings of its field's
        10 topics in 3 locales again: 0.6-0.7 s of its 0.8 s render)."""
        return self._of_topic(self.headed, self.handed_headed, key, here, make)

    def _of_topic(
        self,
        table: dict[Any, tuple[list[Entry], T]],
        handed: dict[Any, tuple[list[Entry], T]],
        key: Any,
        here: list[Entry],
        make: Callable[[], T],
    ) -> T:
        """``table[key]``'s value while it was made from the very same ``here``, else
        ``make()``, kept (in ``handed`` for the owner's next ``start`` when made by another
        thread)."""
        kept = table.get(key)
        if kept is not None and len(kept[0]) == len(here) and all(map(is_, kept[0], here)):
            return kept[1]
        made = make()
        if threading.get_ident() == self.owner:
            table[key] = (here, made)
        else:
            with self.handed:
                handed[key] = (here, made)
        return made

    def start(self, bank: Bank, options: RenderOptions) -> dict[tuple[str, str], tuple[Entry, str]]:
        """The bodies still valid for a render of ``bank`` with ``options`` (called by the
        thread that renders: it becomes the cache's one writer)."""
        self.owner = threading.get_ident()
        with self.handed:
            bodies, topics, headed = self.handed_bodies, self.handed_topics, self.handed_headed
            self.handed_bodies, self.handed_topics, self.handed_headed = {}, {}, {}
        key = (options, bank.catalog)
        if key != self.key:
            self.key, self.bodies, self.bank, self.topics, self.headed = key, {}, None, {}, {}
        elif self.bank is not None:  # what a background writer made from the last render
            self.bodies.update(bodies)
            self.topics.update(topics)
            self.headed.update(headed)
        for entry in gone_entries(self.bank, bank):
            for locale in entry.locales:
                self._drop(entry.id, locale)
        if self.bank is not None:  # questions now on another part of their topic: links moved
            for locale in bank.catalog.locales:
                before = parts_by_id(self.bank, locale, options.page_size)
                after = parts_by_id(bank, locale, options.page_size)
                if before != after:
                    for qid in before.keys() | after.keys():
                        if before.get(qid, 1) != after.get(qid, 1):
                            self._drop(qid, locale)
        self.bank = bank
        return self.bodies

    def _drop(self, qid: str, locale: str) -> None:
        for name in (qid, *(f"{kind}:{qid}" for kind in REMEMBERED)):
            self.bodies.pop((name, locale), None)


class KnownMarkup(Protocol):
    """Question texts with their ``to_html`` made before (the persistent cache's,
    ``qbank.live.markupcache.StoredMarkup``): ``get`` a text's HTML (None: not known) once
    its question is ``prepare``d (its topic's texts in its locale read then)."""

    def get(self, text: str) -> str | None: ...

    def prepare(self, entry: Entry, locale: str) -> None: ...


class _NoMarkup:
    """No text known: each is converted by the renderer."""

    def get(self, text: str) -> str | None:
        return None

    def prepare(self, entry: Entry, locale: str) -> None:
        return None


_NO_MARKUP = _NoMarkup()


class _Renderer:
    def __init__(
        self,
        bank: Bank,
        options: RenderOptions,
        cache: BodyCache | None = None,
        numbered: TermsOf | None = None,
        known: KnownMarkup | None = None,
        headed: TopicHeadings | None = None,
    ) -> None:
        self.bank = bank
        self.options = options
        self.env = _environment()
        self.catalog = bank.catalog
        self.locales = tuple(
            loc for loc in self.catalog.locales if not options.locales or loc in options.locales
        )
        # Bodies are kept only for a caller that keeps them (``mkdocs serve``); a build
        # makes each when its page is written and lets it go.
        self._cache = cache
        self._bodies = cache.start(bank, options) if cache is not None else {}
        self._match_counts = cache.match_counts if cache is not None else None
        self._numbered = numbered
        # Memos of this render (``_match``: each locale's match file, made once a render;
        # ``_html``, ``_headings``). Their writer is the thread that uses this render: the
        # rendering thread while it builds, then serve's background data-file writer. Both
        # can only meet on a last good site a bad edit keeps served, and every value is a
        # pure function of its key (a second writer stores an equal value).
        self._match: dict[str, bytes] = {}
        self._html: dict[tuple[str, str], str] = {}
        # ``to_html(text)`` of texts converted before (the persistent cache's,
        # ``qbank.live.markupcache``), a question's prepared before its texts are looked up
        self._known: KnownMarkup = known or _NO_MARKUP
        self._headings: dict[tuple[str, str, str], dict[str, Heading]] = {}
        self._headed = headed  # (the persistent cache's, ``qbank.live.headingcache``)
        self._check_reserved()

    def _check_reserved(self) -> None:
        problems = [
            Problem(
                display_path(self.bank.root / CATALOG_FILE),
                1,
                1,
                f"fields.{f}.specializations.{s}.topics.{t}",
                f"topic key {t!r} is a page name the site reserves",
                f"a topic key other than {', '.join(RESERVED_PAGES)} or {LEVEL_PREFIX}…",
            )
            for f, s, t in self.bank.topics()
            if t in RESERVED_PAGES or t.startswith(LEVEL_PREFIX)
        ]
        problems += [
            Problem(
                display_path(self.bank.root / CATALOG_FILE),
                1,
                1,
                f"fields.{f}",
                f"field key {f!r} is a page name the site reserves",
                f"a field key other than {', '.join(LOCALE_PAGES)}",
            )
            for f in self.catalog.fields
            if f in LOCALE_PAGES
        ]
        if problems:
            raise ContentError(problems)

    # -- one question ------------------------------------------------------------------------

    def links(self, entry: Entry, locale: str) -> dict[str, str]:
        """The edit and report URLs of a question (empty when the site has no repository)."""
        path = f"{self.options.content_dir.strip('/')}/{entry.file}".lstrip("/")
        edit = self.options.edit_url + quote(entry.file) if self.options.edit_url else ""
        report = ""
        if self.options.report_url:
            title = plain_text(entry.question.prompt[locale], 60)
            query = urlencode(
                {
                    "template": self.options.report_template,
                    "title": f"[{locale}] {title}",
                    "question_id": entry.id,
                    "locale": locale,
                    "file": path,
                }
            )
            report = f"{self.options.report_url}?{query}"
        return {"edit": edit, "report": report}

    def body(self, entry: Entry, locale: str) -> str:
        """The inside of a question's wrapper, rendered once per (question, locale)."""
        key = (entry.id, locale)
        cached = self._bodies.get(key)
        if cached is not None and cached[0] is entry:
            return cached[1]
        q = entry.question
        prefix = image_prefix(entry)
        self._known.prepare(entry, locale)

        def markup(texts: Mapping[str, str] | None) -> str:
            return self.html(texts[locale], prefix) if texts and locale in texts else ""

        prompt = markup(q.prompt)
        whole = self.heading_of(entry, locale).whole
        if whole:  # the heading holds the first paragraph
            prompt = without_first_paragraph(prompt)
        result = question_body(
            entry,
            strings_for(locale),
            {k: self.bank.name(self.catalog.seniorities[k], locale) for k in entry.seniorities},
            {
                "prompt": prompt,
                "explanation": markup(q.explanation),
                "assesses": markup(q.assesses),
                "model_answer": markup(q.model_answer),
                "hint": markup(q.hint),
            },
            [(k, markup(v)) for k, v in (q.options or {}).items()],
            self.links(entry, locale),
            self.stale_note(entry, locale),
            after_title=whole,
        )
        if self._cache is not None:
            self._cache.keep(key, entry, result)
        return result

    def stale_note(self, entry: Entry, locale: str) -> dict[str, str] | None:
        """Where the source of a possibly out-of-date translation is (None when current)."""
        if not is_stale(entry, locale, self.catalog):
            return None
        origin = source_locale(entry.question, self.catalog.locales) or locale
        return {
            "locale": origin,
            "name": strings_for(origin)["language_name"],
            "url": f"../../../{origin}/{entry.field}/{self.folder(entry, origin)}/#q-{entry.id}",
        }

    def folder(self, entry: Entry, locale: str) -> str:
        """The folder of the topic page (part) that shows ``entry`` in ``locale``."""
        return question_folder(self.bank, entry, locale, self.options.page_size)

    def question_html(self, entry: Entry, locale: str) -> str:
        """A question's full HTML per DESIGN.md (on its topic page, the one page showing it)."""
        q = entry.question
        kind = "choice" if q.is_choice else "open"
        attributes = [
            'class="qb-q"',
            f'id="q-{entry.id}"',
            f'data-qid="{entry.id}"',
            f'data-kind="{kind}"',
        ]
        if q.answer:
            attributes.append(f'data-answer="{" ".join(q.answer)}"')
        attributes += [
            f'data-level="{" ".join(entry.seniorities)}"',
            f'data-difficulty="{q.difficulty or ""}"',
            f'data-topic="{entry.field}/{entry.topic}"',
        ]
        return f"<div {' '.join(attributes)}>\n{self.body(entry, locale)}</div>"

    def question_inputs(self, entry: Entry, locale: str) -> str:
        """Everything ``question_html`` makes a question's HTML of, but the interface strings,
        the conversion's libraries and qbank's code (the page cache's build key holds those):
        the file's bytes and place, the locale, the options, the level names, the note of an
        out-of-date translation and whether the heading holds the first paragraph. (Its
        texts' HTML is a function of the file's bytes and the libraries; the persistent
        cache's, ``live.markupcache``, is trusted as the page cache's own HTML is.)"""
        o = self.options
        levels = [self.bank.name(self.catalog.seniorities[k], locale) for k in entry.seniorities]
        return orjson.dumps(
            [
                entry.digest,
                entry.file,
                entry.id,
                [entry.field, entry.specialization, entry.topic, entry.slug],
                locale,
                [o.edit_url, o.report_url, o.report_template, o.content_dir, o.page_size],
                entry.seniorities,
                levels,
                self.stale_note(entry, locale),
                self.heading_of(entry, locale).whole,
            ]
        ).decode()

    def questions(
        self, site: RenderedSite, entries: list[Entry], locale: str, level: int
    ) -> list[tuple[str, str]]:
        """A run of questions for a page template: (Markdown heading, HTML) pairs, or with
        placeholders one pair holding the placeholder of the whole run."""
        if not self.options.placeholders:
            return [
                (self.heading(e, locale, level), self.question_html(e, locale)) for e in entries
            ]
        if not entries:
            return []
        headings = [self.heading_of(e, locale) for e in entries]
        site.blocks.append(
            tuple(
                Slot(
                    level,
                    f"h-{e.id}",
                    h.text,
                    e,
                    locale,
                    self.question_html,
                    h.html,
                    h.markdown,
                    self.question_inputs,
                )
                for e, h in zip(entries, headings, strict=True)
            )
        )
        return [("", PLACEHOLDER.format(len(site.blocks) - 1))]

    def heading_of(self, entry: Entry, locale: str) -> Heading:
        """A question's number and title (``qbank.site.headings``), made per topic and locale."""
        key = (entry.field, entry.topic, locale)
        found = self._headings.get(key)
        if found is None:
            here = [e for e in self.bank.by_topic[entry.field, entry.topic] if locale in e.locales]

            def make() -> dict[str, Heading]:  # (the headings cache's miss: the texts read)
                self._known.prepare(entry, locale)
                return topic_headings(
                    here, locale, lambda md: first_block(self.html(md, "")), md_escape
                )

            def kept() -> dict[str, Heading]:  # (the persistent cache's, else made)
                return self._headed(locale, here, make) if self._headed else make()

            found = self._cache.headings(key, here, kept) if self._cache is not None else kept()
            self._headings[key] = found
        return found[entry.id]

    def heading(self, entry: Entry, locale: str, level: int = 2) -> str:
        """The Markdown heading that puts a question in the table of contents."""
        return heading_line(level, self.heading_of(entry, locale).markdown, f"h-{entry.id}")

    # -- pages -------------------------------------------------------------------------------

    def render(self) -> RenderedSite:
        site = RenderedSite(page_size=self.options.page_size)
        for locale in self.locales:
            self.locale_pages(site, locale)
        site.pages["index.md"] = self.env.get_template("root.md.j2").render(
            title=self.bank.name(self.catalog.title, self.catalog.default_locale),
            choices=[(loc, strings_for(loc)["language_name"]) for loc in self.catalog.locales],
            default=self.catalog.default_locale,
            t=strings_for(self.catalog.default_locale),
        )
        if self.catalog.default_locale in self.locales:
            # (the site's images, outside every locale's folder: the default locale's build
            # writes them; a build of other locales alone, the plugin's locale process, has
            # no use for them: scanning every text for them took 0.3-0.7 s a locale)
            for entry in self.bank.entries:
                self.images(site, entry)
        self.practice_files(site)
        if self._cache is None:
            self._html.clear()  # question runs convert their texts again when written
        return site

    def update(
        self, previous: RenderedSite, topics: Collection[tuple[str, str]], changed: list[Entry]
    ) -> RenderedSite:
        """``previous`` (rendered from an earlier state of the same catalog) with the pages
        that show ``topics``' questions and every home page rendered again, and the images
        of the ``changed`` entries; blocks no page refers to any more are dropped."""
        site = RenderedSite(
            dict(previous.pages),
            dict(previous.files),
            previous.nav,
            dict(previous.titles),
            list(previous.blocks),
            html=dict(previous.html),
            page_size=self.options.page_size,
        )
        for locale in self.locales:
            self.locale_pages(site, locale, topics)
        for entry in changed:
            self.images(site, entry)
        self.practice_files(site)
        _drop_unused_blocks(site)
        return site

    def images(self, site: RenderedSite, entry: Entry) -> None:
        for texts in question_texts(entry):
            for text in texts.values():
                for image in local_images(text):  # (most texts have none: no path made)
                    source = (self.bank.root / entry.file).parent / image
                    if source.is_file():
                        target = f"{IMAGES}/{entry.field}/{entry.topic}/{image}"
                        site.files[target] = source.read_bytes()

    def practice_files(self, site: RenderedSite) -> None:
        """The mock interview's JSON, the match data and, with ``bank_json``, the bank's JSON
        API (``<locale>/api/bank.json``)."""
        for locale in self.locales:
            if self.options.defer_files:
                site.deferred[locale] = partial(self.data_files, locale)
            else:
                for path, chunks in self.data_files(locale):
                    site.files[path] = b"".join(chunks)

    def data_files(
        self, locale: str, fields: Collection[str] | None = None, *, api: bool = True
    ) -> Iterator[tuple[str, Iterable[bytes]]]:
        """A locale's practice files and ``bank.json``, one at a time, the latter in chunks;
        ``fields`` limits the practice files to those fields, ``api=False`` leaves
        ``bank.json`` out (``mkdocs serve`` writes only what an edit changed)."""
        for path, data in practice.iter_practice_files(
            self.bank, self.folder, locales=(locale,), fields=fields
        ):
            yield path, (data,)
        if api:
            yield match_path(locale), (self.match_data(locale),)
            if self.options.bank_json:
                head = bank_json(self.bank, locale, questions=False)
                yield f"{locale}/api/bank.json", self._bank_json_chunks(head, locale)

    def match_data(self, locale: str) -> bytes:
        """``match_file`` of ``locale``, made once per render (a serve writer asks twice),
        with the topics' counts kept across serve renders."""
        data = self._match.get(locale)
        if data is None:
            numbered = self._numbered(locale) if self._numbered is not None else None
            if self._match_counts is None:
                data = match_file(self.bank, locale, numbered=numbered)
            else:
                data = match_file(self.bank, locale, self._match_counts, numbered)
            self._match[locale] = data
        return data

    def _bank_json_chunks(self, head: dict[str, Any], locale: str) -> Iterator[bytes]:
        """``bank.json`` as ``json.dumps`` of the whole document would write it, a question
        at a time ("questions" is its last key)."""

        def html(md: str, e: Entry) -> str:
            self._known.prepare(e, locale)
            return self.html(md, image_prefix(e, depth=2))

        yield json.dumps(head, ensure_ascii=False, separators=(",", ":"))[:-1].encode()
        yield b',"questions":['
        first = True
        for entry in self.bank.entries:
            if locale in entry.locales:

                def make(entry: Entry = entry) -> str:
                    data = question_json(entry, locale, html)
                    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

                text = self.remembered("bank", entry, locale, make)
                yield (text if first else "," + text).encode()
                first = False
        yield b"]}"

    def remembered(self, kind: str, entry: Entry, locale: str, make: Callable[[], str]) -> str:
        """``make()``, kept with the bodies for a caller that keeps them (``mkdocs serve``)
        while the entry is the same object: a question's JSON text in the data files."""
        key = (f"{kind}:{entry.id}", locale)
        hit = self._bodies.get(key)
        if hit is not None and hit[0] is entry:
            return hit[1]
        text = make()
        if self._cache is not None:
            self._cache.keep(key, entry, text)
        return text

    def html(self, text: str, prefix: str) -> str:
        """``to_html`` of a question text, converted once per render for every page and file
        that shows it (the topic page and the JSON API)."""
        key = (text, prefix if _IMAGE.search(text) else "")
        if not key[1]:
            found = self._known.get(text)
            if found is not None:
                return found
        done = self._html.get(key)
        if done is None:
            done = self._html[key] = to_html(text, prefix)
        return done

    def locale_pages(
        self, site: RenderedSite, locale: str, topics: Collection[tuple[str, str]] | None = None
    ) -> None:
        """A locale's home, field, topic, seniority and practice pages and its nav; with
        ``topics`` (``update``), only the home page and the pages that show those topics'
        questions (the nav depends on the catalog only and is kept)."""
        bank, t = self.bank, strings_for(locale)
        name = bank.name
        levels = [(k, name(v, locale)) for k, v in self.catalog.seniorities.items()]
        site.titles[locale] = name(self.catalog.title, locale)
        nav: list[Any] = [{t["home"]: f"{locale}/index.md"}]
        fields = []
        touched = None if topics is None else {f for f, _ in topics}
        counts = self.counts
        for field_key, field_ in self.catalog.fields.items():
            fields.append(
                {
                    "key": field_key,
                    "name": name(field_.name, locale),
                    "count": counts[field_key, locale],
                    "total": counts[field_key, ""],
                }
            )
            if touched is None or field_key in touched:
                field_nav = self.field_pages(site, locale, field_key, topics)
                nav.append({name(field_.name, locale): field_nav})
        totals = {loc: counts["", loc] for loc in self.catalog.locales}
        coverage = [
            {
                "locale": loc,
                "name": strings_for(loc)["language_name"],
                "count": totals[loc],
                "percent": round(100 * totals[loc] / len(bank.entries)) if bank.entries else 0,
                "link": f"../{loc}/index.md",
            }
            for loc in self.catalog.locales
        ]
        site.pages[f"{locale}/index.md"] = self.env.get_template("home.md.j2").render(
            title=site.titles[locale],
            t=t,
            locale=locale,
            fields=fields,
            coverage=coverage,
            total=len(bank.entries),
            levels=levels,
        )
        topic_names: dict[str, dict[str, str]] = {}  # the review page's scope choices
        for f_key, s_key, t_key in bank.topics():
            topic = self.catalog.fields[f_key].specializations[s_key].topics[t_key]
            topic_names.setdefault(f_key, {})[t_key] = name(topic.name, locale)
        for page in LOCALE_PAGES:
            site.pages[f"{locale}/{page}/index.md"] = self.env.get_template(f"{page}.md.j2").render(
                t=t,
                locale=locale,
                locales=self.catalog.locales,
                fields=fields,
                levels=levels,
                topic_names=topic_names,
            )
            nav.append({t[page]: f"{locale}/{page}/index.md"})
        if topics is None:
            site.nav[locale] = nav

    @cached_property
    def counts(self) -> Counter[tuple[str, str]]:
        """Questions by (field, locale); ``(field, "")`` in all locales, ``("", locale)`` in
        all fields (the home pages' figures)."""
        entries = self.bank.entries
        placed = Counter(map(attrgetter("field", "locales"), entries))
        counts: Counter[tuple[str, str]] = Counter()
        for (field_key, locales), n in placed.items():
            counts[field_key, ""] += n
            for locale in locales:
                counts[field_key, locale] += n
                counts["", locale] += n
        return counts

    def field_pages(
        self,
        site: RenderedSite,
        locale: str,
        field_key: str,
        only: Collection[tuple[str, str]] | None = None,
    ) -> list[Any]:
        """A field's index, topic, seniority and practice pages and its nav (with ``only``,
        of its topic pages only those)."""
        bank, t, name = self.bank, strings_for(locale), self.bank.name
        field_ = self.catalog.fields[field_key]
        base = f"{locale}/{field_key}"
        levels = [(k, name(v, locale)) for k, v in self.catalog.seniorities.items()]
        nav: list[Any] = [f"{base}/index.md"]
        specs = []
        practice_topics: list[tuple[str, str]] = []  # the practice page's topic choices
        for spec_key, spec in field_.specializations.items():
            topics = []
            spec_page = f"{base}/{SPEC_FOLDER}/{spec_key}/index.md"
            spec_nav: list[Any] = [spec_page]
            for topic_key, topic in spec.topics.items():
                entries = bank.by_topic[field_key, topic_key]
                here = [e for e in entries if locale in e.locales]
                topic_name = name(topic.name, locale)
                topics.append(
                    {
                        "key": topic_key,
                        "progress_key": f"{field_key}/{topic_key}",
                        "name": topic_name,
                        "count": len(here),
                        "missing": len(entries) - len(here),
                        "levels": Counter(s for e in here for s in e.seniorities),
                        "difficulty": Counter(e.question.difficulty for e in here),
                    }
                )
                spec_nav.append({topic_name: f"{base}/{topic_key}/index.md"})
                if here:
                    practice_topics.append((topic_key, topic_name))
                if only is None or (field_key, topic_key) in only:
                    self.topic_pages(site, locale, field_key, topic_key, topic_name, entries)
            if topics:
                spec_ = {"key": spec_key, "name": name(spec.name, locale), "topics": topics}
                specs.append(spec_)
                nav.append({spec_["name"]: spec_nav})
                site.pages[spec_page] = self.env.get_template("specialization.md.j2").render(
                    t=t, spec=spec_, field_name=name(field_.name, locale), levels=levels
                )
        here = [e for e in bank.field_entries(field_key) if locale in e.locales]
        level_counts = Counter(s for e in here for s in e.seniorities)
        # The seniority pages are entries of the field's own section: a section of their own
        # would make the first of them its index page, without an entry of its name.
        for level_key, level_name in levels:
            self.seniority_page(site, locale, field_key, level_key, level_name, here)
            title = t["study_level"].format(level=level_name)
            nav.append({title: f"{base}/{LEVEL_PREFIX}{level_key}/index.md"})
        nav.append({t["practice"]: f"{base}/practice/index.md"})
        field_name = name(field_.name, locale)
        site.pages[f"{base}/index.md"] = self.env.get_template("field.md.j2").render(
            t=t,
            locale=locale,
            field=field_key,
            field_name=field_name,
            specs=specs,
            levels=levels,
            level_counts=level_counts,
            count=len(here),
        )
        site.pages[f"{base}/practice/index.md"] = self.env.get_template("practice.md.j2").render(
            field=field_key,
            field_name=field_name,
            locale=locale,
            seniorities=levels,
            topics=practice_topics,
            t=t,
        )
        return nav

    def topic_pages(
        self,
        site: RenderedSite,
        locale: str,
        field_key: str,
        topic_key: str,
        topic_name: str,
        entries: Iterable[Entry],
    ) -> None:
        """A topic's page, or its numbered parts when it has more than ``page_size``
        questions in ``locale`` (``qbank.site.parts``): each part's pager links every part."""
        entries = list(entries)
        here = [e for e in entries if locale in e.locales]
        elsewhere = Counter(loc for e in entries if locale not in e.locales for loc in e.locales)
        missing = [
            {
                "name": strings_for(loc)["language_name"],
                "count": elsewhere[loc],
                "link": f"../../../{loc}/{field_key}/{topic_key}/index.md",
            }
            for loc in self.catalog.locales
            if elsewhere[loc]
        ]
        t = strings_for(locale)
        parts = split(here, self.options.page_size)
        folders = topic_folders(topic_key, len(here), self.options.page_size)
        base = f"{locale}/{field_key}"
        for number, (folder, chosen) in enumerate(zip(folders, parts, strict=True), 1):
            site.pages[f"{base}/{folder}/index.md"] = self.env.get_template("topic.md.j2").render(
                t=t,
                title=topic_name,
                part=number,
                pager=_pager(folders, number),
                page_label=t["page_of"].format(n=number, total=len(folders)),
                field=field_key,
                topic=topic_key,
                folder=f"{field_key}/{topic_key}",
                level_names=self._level_names_json(locale),
                questions=self.questions(site, list(chosen), locale, 2),
                count=len(here),
                missing=missing if number == 1 else [],
                missing_count=len(entries) - len(here) if number == 1 else 0,
                tags=sorted({tag for e in here for tag in e.question.tags}) if number == 1 else [],
            )
        gone = len(folders) + 1  # parts an update left behind (the topic lost questions)
        while site.pages.pop(f"{base}/{part_folder(topic_key, gone)}/index.md", None) is not None:
            gone += 1

    def seniority_page(
        self,
        site: RenderedSite,
        locale: str,
        field_key: str,
        level_key: str,
        level_name: str,
        entries: Iterable[Entry],
    ) -> None:
        """A seniority page: an index of the level's questions, grouped by topic in catalog
        order, each a link to its home on its topic page (part) with its title and
        difficulty, never a copy of it; numbered parts when the level has more than
        ``level_page_size`` of them (``qbank.site.parts``), a group that goes on over a
        part's end going on under its heading on the next part."""
        by_topic: dict[str, list[Entry]] = {}
        for entry in entries:
            if level_key in entry.seniorities:
                by_topic.setdefault(entry.topic, []).append(entry)
        chosen = [
            (spec_key, entry)
            for f, spec_key, topic_key in self.bank.topics()
            if f == field_key
            for entry in by_topic.get(topic_key, ())
        ]
        size = level_page_size(self.options.page_size)
        level_folder = f"{LEVEL_PREFIX}{level_key}"
        folders = topic_folders(level_folder, len(chosen), size)
        field_name = self.bank.name(self.catalog.fields[field_key].name, locale)
        t = strings_for(locale)
        base = f"{locale}/{field_key}"
        for number, (folder, part) in enumerate(zip(folders, split(chosen, size), strict=True), 1):
            groups = []
            for (spec_key, topic_key), members in groupby(part, key=_spec_topic):
                topic = self.catalog.fields[field_key].specializations[spec_key].topics[topic_key]
                groups.append(
                    {
                        "name": self.bank.name(topic.name, locale),
                        "key": topic_key,
                        "list": self.raw_html(
                            site, self.level_list([e for _spec, e in members], locale, t)
                        ),
                    }
                )
            site.pages[f"{base}/{folder}/index.md"] = self.env.get_template(
                "seniority.md.j2"
            ).render(
                t=t,
                level=level_key,
                level_name=level_name,
                field_name=field_name,
                count=len(chosen),
                groups=groups,
                part=number,
                pager=_pager(folders, number),
                page_label=t["page_of"].format(n=number, total=len(folders)),
                first_part=f"{field_key}/{level_folder}/",
            )
        gone = len(folders) + 1  # parts an update left behind (the level lost questions)
        while site.pages.pop(f"{base}/{part_folder(level_folder, gone)}/index.md", None):
            gone += 1

    def raw_html(self, site: RenderedSite, html: str) -> str:
        """``html`` for a page template: as it is, or with placeholders the line that stands
        for it (Markdown parses every tag of a raw HTML block only to pass it through)."""
        if not self.options.placeholders:
            return html
        digest = hashlib.blake2b(html.encode(), digest_size=10).hexdigest()
        site.html[digest] = html
        return HTML_BLOCK.format(digest)

    def level_list(self, entries: list[Entry], locale: str, t: Mapping[str, Any]) -> str:
        """A seniority page's list of one topic's questions: each a link to the question's
        anchor on the topic page (part) that shows it (the URL its permalink and search
        result name), its heading's title there and its difficulty; assets/level.js adds
        the reader's standing on each. Built as a string (a level of a big bank lists tens
        of thousands), written as HTML that Markdown leaves as it is."""
        e = escape
        out = ['<ul class="qb-level-list">']
        for entry in entries:
            difficulty = entry.question.difficulty
            badge = (
                f' <span class="qb-badge qb-difficulty" data-difficulty="{difficulty}">'
                f"{e(t['difficulty_levels'][difficulty])}</span>"
                if difficulty
                else ""
            )
            out.append(
                f'<li><a href="../{e(self.folder(entry, locale))}/#q-{entry.id}">'
                f"{self.heading_of(entry, locale).html}</a>{badge}</li>"
            )
        out.append("</ul>")
        return "\n".join(out)

    def _level_names_json(self, locale: str) -> str:
        return json.dumps(
            {k: self.bank.name(v, locale) for k, v in self.catalog.seniorities.items()},
            ensure_ascii=False,
        )


def _spec_topic(item: tuple[str, Entry]) -> tuple[str, str]:
    return item[0], item[1].topic


def _pager(folders: list[str], number: int) -> list[dict[str, Any]]:
    """The pager of part ``number`` among the parts in ``folders`` (none for one part)."""
    if len(folders) <= 1:
        return []
    return [
        {"number": n, "link": f"../{other}/index.md", "current": n == number}
        for n, other in enumerate(folders, 1)
    ]


def escape(value: Any) -> str:
    """HTML-escaped text, exactly as the Jinja2 templates escape it (``&#34;`` for quotes)."""
    return str(_escape(value))


def question_body(
    entry: Entry,
    t: Mapping[str, Any],
    level_names: Mapping[str, str],
    html_of: Mapping[str, str],
    options: list[tuple[str, str]],
    links: Mapping[str, str],
    stale: Mapping[str, str] | None,
    after_title: bool = False,
) -> str:
    """The inside of a question's wrapper (DESIGN.md "The HTML of one question").

    ``html_of`` holds the sanitized HTML of the prompt, explanation, assesses, model
    answer and hint (the last optional), ``options`` that of each option; every other value
    is escaped here. ``after_title``: the heading holds the prompt's first paragraph,
    ``html_of`` the rest of it (its box is marked ``qb-rest``, so a reader of the page, such
    as a practice session, puts the two together).

    Written as plain string building: it runs once per question and locale (90,000 times
    for a bank of 30,000 questions in three languages), where a template costs more per
    call.
    """
    q, e = entry.question, escape
    out = ['<div class="qb-meta">']
    if q.difficulty:
        out.append(
            f'<span class="qb-badge qb-difficulty" data-difficulty="{q.difficulty}">'
            f"{e(t['difficulty'])}{e(t['colon'])}"
            f"{e(t['difficulty_levels'][q.difficulty])}</span>"
        )
    # the levels' keys are the wrapper's data-level (the widget's filter reads them there)
    out += [f' <span class="qb-badge qb-level">{e(name)}</span>' for name in level_names.values()]
    out += [f' <span class="qb-tag">{e(tag)}</span>' for tag in q.tags]
    out.append("</div>\n")
    if stale:
        out.append(
            f'<p class="qb-stale">{e(t["stale_translation"])} '
            f'<a href="{e(stale["url"])}" hreflang="{e(stale["locale"])}" '
            f'lang="{e(stale["locale"])}">{e(stale["name"])}</a></p>\n'
        )
    if html_of["prompt"]:  # empty when the heading holds the whole prompt
        box = "qb-prompt qb-rest" if after_title else "qb-prompt"
        out.append(f'<div class="{box}">\n{html_of["prompt"]}\n</div>\n')
    if html_of.get("hint"):
        out.append(
            f'<details class="qb-hint"><summary>{e(t["hint"])}</summary>\n'
            f'<div class="qb-hint-text">\n{html_of["hint"]}\n</div>\n</details>\n'
        )
    if q.is_choice:
        out.append(f'<ol class="qb-options" data-multi="{1 if q.is_multi else 0}">\n')
        out += [
            f'<li class="qb-option" data-key="{e(key)}"><span class="qb-key">{e(key)}</span>'
            f'<div class="qb-option-text">{text}</div></li>\n'
            for key, text in options
        ]
        out.append("</ol>\n")
    if html_of["assesses"]:
        out.append(
            f'<details class="qb-assesses"><summary>'
            f"{e(t['what_it_assesses'])}</summary>\n{html_of['assesses']}\n</details>\n"
        )
    out.append(f'<details class="qb-answer"><summary>{e(t["show_answer"])}</summary>\n')
    if q.is_choice:
        keys = ", ".join(f"<strong>{e(key)}</strong>" for key in q.answer or ())
        out.append(f'<p class="qb-correct">{e(t["answer"])}{e(t["colon"])}{keys}</p>\n')
        if html_of["explanation"]:
            out.append(f'<div class="qb-explanation">\n{html_of["explanation"]}\n</div>\n')
        else:  # a warning, not an error: the page asks for one as for a model answer
            out.append(_invitation("qb-no-explanation", t["no_explanation"], t, links))
    elif html_of["model_answer"]:
        out.append(f'<div class="qb-model-answer">\n{html_of["model_answer"]}\n</div>\n')
    else:
        out.append(_invitation("qb-no-model-answer", t["no_model_answer"], t, links))
    out.append("</details>\n")
    # The links row (no permalink: the heading's own anchor is the question's link).
    row = []
    if links["edit"]:
        row.append(
            f'<a class="qb-edit" href="{e(links["edit"])}" rel="noopener">{e(t["edit"])}</a>'
        )
    if links["report"]:
        row.append(
            f'<a class="qb-report" href="{e(links["report"])}" rel="noopener">{e(t["report"])}</a>'
        )
    if q.source:
        shown = source_html(q.source)
        row.append(f'<span class="qb-source">{e(t["source"])}{e(t["colon"])}{shown}</span>')
    if row:
        out.append(f"{LINKS_ROW}{' '.join(row)}</div>\n")
    body = "".join(out)
    if body.count("<pre>") > 1:
        # Material's copy button finds its code block by the id of the block's nearest
        # element that has one: the question's wrapper, the same for every block of it (each
        # button copied the first). Each block of such a question gets its own.
        first, *rest = body.split("<pre>")
        body = first + "".join(
            f'<pre id="q-{e(entry.id)}-code-{n}">{part}' for n, part in enumerate(rest, 1)
        )
    return body


LINKS_ROW = '<div class="qb-links">\n'


def source_html(source: str) -> str:
    """A question's ``source`` as HTML: each http(s) URL in it a link to that URL alone, the
    rest ("(MIT)", "after …") text."""
    out: list[str] = []
    last = 0
    for match in SOURCE_URL.finditer(source):
        url = match.group(0).rstrip(".,;:!?")
        if url.count("(") < url.count(")"):  # "(https://x.org/y)": the bracket is the text's
            url = url[: url.rindex(")")]
        end = match.start() + len(url)
        out.append(escape(source[last : match.start()]))
        if url_problem(url, image=False) or url.rstrip("/") in ("https:/", "http:/"):
            out.append(escape(url))
        else:
            out.append(f'<a href="{escape(url)}" rel="noopener noreferrer">{escape(url)}</a>')
        last = end
    out.append(escape(source[last:]))
    return "".join(out)


def _invitation(
    css_class: str, missing: str, t: Mapping[str, Any], links: Mapping[str, str]
) -> str:
    """The line saying a text is missing ("No … yet.") and, when the bank has an edit
    link, the link to write it."""
    e = escape
    contribute = (
        f' <a href="{e(links["edit"])}">{e(t["contribute_answer"])}</a>' if links["edit"] else ""
    )
    return f'<p class="{css_class}">{e(missing)}{contribute}</p>\n'


def question_texts(entry: Entry) -> Iterable[Mapping[str, str]]:
    """Every localized text of a question: the prompt first, then explanation, assesses,
    model answer, hint and the options."""
    q = entry.question
    yield q.prompt
    for texts in (q.explanation, q.assesses, q.model_answer, q.hint):
        if texts:
            yield texts
    yield from (q.options or {}).values()


def page_paths(bank: Bank, locale: str, page_size: int = DEFAULT_PAGE_SIZE) -> list[str]:
    """The Markdown page paths ``render_site`` writes for ``locale``, without rendering them
    (a build of one locale names the other locales' pages as link targets)."""
    paths = [f"{locale}/index.md"]
    counts = Counter((e.field, e.topic) for e in bank.entries if locale in e.locales)
    levels = Counter(
        (e.field, level) for e in bank.entries if locale in e.locales for level in e.seniorities
    )
    for field_key, field_ in bank.catalog.fields.items():
        base = f"{locale}/{field_key}"
        paths.append(f"{base}/index.md")
        paths += [
            f"{base}/{folder}/index.md"
            for spec in field_.specializations.values()
            for topic in spec.topics
            for folder in topic_folders(topic, counts[field_key, topic], page_size)
        ]
        paths += [
            f"{base}/{SPEC_FOLDER}/{spec_key}/index.md"
            for spec_key, spec in field_.specializations.items()
            if spec.topics
        ]
        paths += [
            f"{base}/{folder}/index.md"
            for level in bank.catalog.seniorities
            for folder in topic_folders(
                f"{LEVEL_PREFIX}{level}", levels[field_key, level], level_page_size(page_size)
            )
        ]
        paths.append(f"{base}/practice/index.md")
    paths += [f"{locale}/{page}/index.md" for page in LOCALE_PAGES]
    return paths


PLACEHOLDER_NUMBER = re.compile(re.escape(PLACEHOLDER).replace(r"\{\}", r"(\d+)"))
"""Finds the placeholders of a page; group 1 is the number of the run it stands for."""


def page_runs(site: RenderedSite, markdown: str) -> tuple[str, tuple[tuple[Slot, ...], ...]]:
    """What a generated page is made of: its Markdown with its placeholders' numbers left
    out (they shift when another page changes) and its runs of questions, in order."""
    runs = tuple(site.blocks[int(n)] for n in PLACEHOLDER_NUMBER.findall(markdown))
    return PLACEHOLDER_NUMBER.sub("", markdown), runs


# A run's item as the page templates write it (``{{ heading }}``, a blank line, ``{{ html }}``,
# a blank line), the heading empty and the HTML the placeholder.
_RUN_ITEM = re.compile("\n\n" + PLACEHOLDER_NUMBER.pattern + "\n\n")


def without_placeholders(site: RenderedSite, markdown: str) -> str:
    """A page rendered with placeholders as it reads without (each run's questions' headings
    and HTML in its place): its HTML made now, so that a publisher of Markdown pages holds
    one page's questions at a time, not every page's."""

    def run(match: re.Match[str]) -> str:
        return "".join(f"{s.heading}\n\n{s.html}\n\n" for s in site.blocks[int(match.group(1))])

    markdown = _RUN_ITEM.sub(run, markdown)
    return HTML_BLOCK_DIGEST.sub(lambda m: site.html.get(m.group(1), m.group(0)), markdown)


# From this many changed question files on, ``update_site`` leaves it to a full render.
UPDATE_LIMIT = 500


@dataclass(frozen=True)
class SiteUpdate:
    """``update_site``'s result: the site, and the fields whose pages and practice files may
    have changed (the fields of every changed, added or removed question, before and after)."""

    site: RenderedSite
    fields: frozenset[str]


def _drop_unused_blocks(site: RenderedSite) -> None:
    """Renumber the runs of questions the pages refer to and drop the others (each update
    renders some pages again, with new runs), and the HTML no page names any more."""
    named = {d for markdown in site.pages.values() for d in HTML_BLOCK_DIGEST.findall(markdown)}
    site.html = {d: html for d, html in site.html.items() if d in named}
    used = sorted(
        {int(n) for markdown in site.pages.values() for n in PLACEHOLDER_NUMBER.findall(markdown)}
    )
    if len(used) == len(site.blocks):
        return
    number = {old: str(new) for new, old in enumerate(used)}
    site.blocks = [site.blocks[n] for n in used]

    def renumber(match: re.Match[str]) -> str:
        return PLACEHOLDER.format(number[int(match.group(1))])

    for path, markdown in site.pages.items():
        if "qbank:question:" in markdown:
            site.pages[path] = PLACEHOLDER_NUMBER.sub(renumber, markdown)


def update_site(
    before: Bank,
    previous: RenderedSite,
    bank: Bank,
    options: RenderOptions,
    cache: BodyCache | None = None,
) -> SiteUpdate | None:
    """``render_site(bank, options, cache)`` from ``previous``, the site rendered with the same
    options for ``before``, rendering again only the pages that show changed questions (a
    changed question is an ``Entry`` that is not the very object it was: the loader's file
    cache hands back the same object while its file is unchanged). None when that does not
    apply (another catalog or content folder, too many changes): render the whole site."""
    if before.root != bank.root or before.catalog != bank.catalog:
        return None
    pairs: list[tuple[Entry, Entry]] | None = None
    if len(before.entries) == len(bank.entries):  # an edit: the same files, mostly in place
        pairs = [(a, b) for a, b in zip(before.entries, bank.entries, strict=True) if a is not b]
    if pairs is not None and all(a.file == b.file for a, b in pairs):
        old = {a.file: a for a, _ in pairs}
        new = {b.file: b for _, b in pairs}
    else:  # files added, removed or moved
        old = {entry.file: entry for entry in before.entries}
        new = {entry.file: entry for entry in bank.entries}
    changed = [path for path in old.keys() | new.keys() if old.get(path) is not new.get(path)]
    if len(changed) > UPDATE_LIMIT:
        return None
    touched = [e for path in changed for e in (old.get(path), new.get(path)) if e is not None]
    topics = {(entry.field, entry.topic) for entry in touched}
    renderer = _Renderer(bank, options, cache)
    site = renderer.update(previous, topics, [new[path] for path in sorted(changed) if path in new])
    return SiteUpdate(site, frozenset(field_key for field_key, _ in topics))


def render_site(
    bank: Bank,
    options: RenderOptions | None = None,
    cache: BodyCache | None = None,
    numbered: TermsOf | None = None,
    known: KnownMarkup | None = None,
    headed: TopicHeadings | None = None,
) -> RenderedSite:
    """Every page and static file of the site for ``bank`` (see the module docstring).

    ``cache`` (kept across ``mkdocs serve`` rebuilds) reuses the HTML of unchanged questions
    and the match counts of unchanged topics. ``numbered`` gives a locale's match terms (the
    persistent cache's, ``qbank.live.matchcache``, with unchanged topics' counts kept).
    ``known``: texts with their ``to_html`` made before (the persistent cache's,
    ``qbank.live.markupcache``); ``headed`` gives each topic's headings (the persistent
    cache's, ``qbank.live.headingcache``).
    """
    return _Renderer(bank, options or RenderOptions(), cache, numbered, known, headed).render()
