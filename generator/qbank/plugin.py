"""The MkDocs adapter (plugin ``qbank``): the only module that imports MkDocs.

It loads the bank, has ``qbank.render`` turn it into pages, and hands them to MkDocs in
memory (``File.generated``), so nothing is written into a watched folder. Each locale is
its own MkDocs build, so Material's interface text follows the page's language: the build
MkDocs starts renders the default locale (and the root page), then runs one derived build
per other locale (same config file, ``theme.language`` and nav of that locale) into a
temporary folder and copies its ``<locale>/`` tree into the site. The bank is loaded and
rendered once and shared with the derived builds.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import hashlib
import html
import json
import logging
import os
import pickle
import re
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from html import escape as html_escape
from pathlib import Path
from typing import Any
from urllib.parse import urljoin
from xml.sax.saxutils import escape

import jinja2
import jinja2.bccache
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import AnchorLink
from mkdocs.utils import CountHandler

from qbank import background, publish
from qbank.bank import Bank, Checked, Entry, load_bank
from qbank.cache import FileCache
from qbank.problems import ContentError, Severity
from qbank.render import (
    PLACEHOLDER,
    PLACEHOLDER_NUMBER,
    BodyCache,
    RenderedSite,
    RenderOptions,
    Slot,
    page_paths,
    render_site,
    strings_for,
    update_site,
)
from qbank.search import (
    INDEX_DIR,
    SearchDoc,
    SearchIndexError,
    index_site_after_build,
    iter_docs,
    question_doc,
    search_settings,
    write_index,
)
from qbank.templates import TEMPLATES

log = logging.getLogger("mkdocs.plugins.qbank")

ASSETS = ("assets/qbank.css", "assets/qbank.js", "assets/search.css", "assets/search.js")
REQUIRED_EXTENSIONS = ("attr_list", "admonition", "toc", "tables")
DEFAULT_FEATURES = (
    "navigation.instant",
    "navigation.tracking",
    "navigation.sections",
    "navigation.prune",
    "navigation.top",
    "navigation.indexes",
    "content.action.edit",
    "toc.follow",
)
DEFAULT_PALETTE = [
    {
        "media": "(prefers-color-scheme: light)",
        "scheme": "default",
        "toggle": {"icon": "material/weather-night", "name": "Switch to dark mode"},
    },
    {
        "media": "(prefers-color-scheme: dark)",
        "scheme": "slate",
        "toggle": {"icon": "material/weather-sunny", "name": "Switch to light mode"},
    },
]
# From this many topics on, the default features leave out ``navigation.sections``: Material
# then renders fields as collapsed items (``navigation.prune`` keeps only the open path)
# instead of expanding every field's specializations on every page (work of pages times nav).
LEAN_NAV_FROM_TOPICS = 60
# Material's language codes where they differ from the bank's locale codes.
MATERIAL_LANGUAGES = {"zh-hant": "zh-Hant", "zh-tw": "zh-TW", "pt-br": "pt-BR"}


class _CrossLocaleLinks(logging.Filter):
    """Drop MkDocs' note on every link to another locale's page (built by its own build)."""

    pattern = re.compile(r"^Doc file '(?:([^/']+)/[^']*|index\.md)' contains a link to '([^/']+)/")

    def __init__(self, locales: frozenset[str]) -> None:
        super().__init__()
        self.locales = locales

    def filter(self, record: logging.LogRecord) -> bool:
        match = self.pattern.match(str(record.msg))
        if not match or "excluded from the built site" not in str(record.msg):
            return True
        return not ({match.group(1) or "", match.group(2)} - {""} <= self.locales)


class QbankConfig(base.Config):  # type: ignore[no-untyped-call]
    """Options of the ``qbank`` plugin in ``mkdocs.yml``."""

    content_dir = c.Type(str, default="content")
    """The bank's folder (catalog.yaml and the question files), relative to mkdocs.yml."""
    branch = c.Type(str, default="main")
    """The branch edit links open when ``edit_uri`` is not set."""
    report_template = c.Type(str, default="question-problem.yml")
    """The issue form that "report a problem" opens."""


@dataclass(frozen=True)
class _Shared:
    """What the default-locale build hands to the derived per-locale builds."""

    bank: Bank
    site: RenderedSite
    locale: str


_handoff: _Shared | None = None
_command = ""  # the command of this process's on_startup (kept across serve's rebuilds)
_HEADING_OR_PLACEHOLDER = re.compile(
    r'<h[1-6] id="(?P<heading_id>[^"]+)"|<p>'
    + re.escape(PLACEHOLDER).replace(r"\{\}", r"(?P<block>\d+)")
    + "</p>"
)


def _flat(links: Any) -> Any:
    """Every anchor of a table of contents, depth first."""
    for link in links:
        yield link
        yield from _flat(link.children)


def _escaped_nav(nav: Any) -> Any:
    """The nav with every title (a catalog name) HTML-escaped; paths unchanged."""
    if isinstance(nav, list):
        return [_escaped_nav(item) for item in nav]
    if isinstance(nav, dict):
        return {html.escape(str(k)): _escaped_nav(v) for k, v in nav.items()}
    return nav


_MISSING = object()
API_DELAY = 2.0  # seconds without a rebuild before serve rewrites the bank.json files
RELOAD_TIME = 1.0  # seconds after a serve rebuild for browsers to reload before background work
_CHANGES = frozenset({"created", "deleted", "modified", "moved", "closed"})  # file events


@dataclass
class _ServeState:
    """What ``mkdocs serve`` keeps across rebuilds so that a rebuild writes only what changed.

    The served folder (MkDocs' temporary ``site_dir``) is never cleaned: every build writes
    into a private staging folder, and only a build that succeeded moves its files in.
    """

    served: Path | None = None  # the folder the LiveReloadServer serves
    staging: Path | None = None  # this build's output, moved into ``served`` at its end
    whole: Any = None  # the global signature of the last published build
    shared: _Shared | None = None  # the bank and pages of the last published build
    # Per locale, the bank's entries and each one's search document (None when the question
    # is not in that locale) at the last rebuild (``_serve_docs``).
    docs: dict[str, tuple[tuple[Entry, ...], list[SearchDoc | None]]] = field(default_factory=dict)
    built: dict[str, Any] = field(default_factory=dict)  # source path → what it was built from
    published: set[str] = field(default_factory=set)  # files the builds moved into ``served``
    rendered_with: RenderOptions | None = None  # the options of the published render
    # This build: rebuild everything?, the signatures it saw, the generated files that
    # changed, the files it skipped, the fields whose data files changed (None: all).
    full: bool = True
    next_whole: Any = None
    next_built: dict[str, Any] = field(default_factory=dict)
    changed: set[str] = field(default_factory=set)
    skipped: set[str] = field(default_factory=set)
    fields: frozenset[str] | None = None
    api_generation: int = 0  # the latest background write of the JSON API files
    api_lock: threading.Lock = field(default_factory=threading.Lock)
    data_digests: dict[str, bytes] = field(default_factory=dict)  # served data files' bytes
    next_data: dict[str, bytes] = field(default_factory=dict)  # this build's data files
    api_writer: threading.Thread | None = None  # the background write this build starts

    def discard(self) -> None:
        """Forget the build in progress (it failed): the served folder stays as it was."""
        if self.staging is not None:
            shutil.rmtree(self.staging, ignore_errors=True)
            self.staging = None
        self.next_whole, self.next_built, self.next_data = None, {}, {}


class _SkippedPagesNote(logging.Filter):
    """Drop MkDocs' nav note on every page a serve rebuild skipped because it is unchanged."""

    pattern = re.compile(r"^A reference to '([^']+)' is included in the 'nav' configuration")

    def __init__(self, state: _ServeState) -> None:
        super().__init__()
        self.state = state

    def filter(self, record: logging.LogRecord) -> bool:
        match = self.pattern.match(str(record.msg))
        return not (match and match.group(1).replace(os.sep, "/") in self.state.skipped)


def _front_matter(markdown: str) -> str:
    """The YAML front matter of a generated page (title, tags…), empty when it has none."""
    if not markdown.startswith("---"):
        return ""
    end = markdown.find("\n---", 3)
    return markdown[: end if end >= 0 else 0]


def _tree_stat(folder: Path) -> list[tuple[str, int, int]]:
    """Path, modification time and size of every file under ``folder``."""
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.rglob("*")):
        with contextlib.suppress(OSError):
            stat = path.stat()
            if path.is_file():
                found.append((path.as_posix(), stat.st_mtime_ns, stat.st_size))
    return found


def _same_slot(old: Slot, new: Slot) -> bool:
    """Whether two question slots give the same heading and HTML (the HTML is compared only
    when the question changed: an edit of one locale's text leaves the others' pages as
    they are)."""
    if old is new:
        return True
    if (old.level, old.anchor, old.title, old.locale, old.copy) != (
        new.level,
        new.anchor,
        new.title,
        new.locale,
        new.copy,
    ):
        return False
    return old.entry is new.entry or old.html == new.html


def _same_signature(old: Any, new: Any) -> bool:
    """Whether a generated file is built from the same thing as before: bytes, or a page's
    Markdown and its runs of questions (``QbankPlugin._page_signature``)."""
    if old is _MISSING or type(old) is not type(new):
        return False
    if not isinstance(new, tuple):
        return bool(old == new)
    (old_markdown, old_runs), (markdown, runs) = old, new
    return (
        old_markdown == markdown
        and len(old_runs) == len(runs)
        and all(
            len(a) == len(b) and all(_same_slot(x, y) for x, y in zip(a, b, strict=True))
            for a, b in zip(old_runs, runs, strict=True)
        )
    )


_THEME_LISTINGS: dict[Any, list[str]] = {}  # theme static files by theme folders (serve)


def _keep_theme_listing(theme: Any) -> None:
    """Under ``mkdocs serve``, list the theme's static files once, not on every rebuild: each
    build walks every theme folder (Material ships thousands of icons) and matches every name
    against a dozen patterns to find them (``Files.add_files_from_theme``, a tenth of a
    second or two). The listing is reused while the theme folders outside installed packages
    (custom and qbank's override folders) hold the same files; any other caller of
    ``list_templates`` gets a fresh listing."""
    make_env = theme.get_env

    def get_env() -> jinja2.Environment:
        env: jinja2.Environment = make_env()
        list_templates = env.list_templates

        def listing(extensions: Any = None, filter_func: Any = None) -> list[str]:
            qualified = getattr(filter_func, "__qualname__", "")
            if extensions is not None or qualified != "Files.add_files_from_theme.<locals>.filter":
                return list_templates(extensions, filter_func)
            key = (
                tuple(theme.dirs),
                tuple(sorted(theme.static_templates)),
                tuple(tuple(_tree_stat(Path(d))) for d in theme.dirs if "site-packages" not in d),
            )
            if key not in _THEME_LISTINGS:
                _THEME_LISTINGS.clear()
                _THEME_LISTINGS[key] = list_templates(None, filter_func)
            return list(_THEME_LISTINGS[key])

        env.list_templates = listing  # type: ignore[method-assign]
        return env

    theme.get_env = get_env


class _TemplateCode(jinja2.BytecodeCache):
    """Compiled theme templates kept in memory across builds (``mkdocs serve`` makes a new
    Jinja environment for every build, and for every locale: each compiled Material's
    templates again). Jinja checks each template's source checksum before reusing its code."""

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


class QbankPlugin(BasePlugin[QbankConfig]):  # type: ignore[no-untyped-call]
    """Generates the study site's pages from the question bank."""

    def __init__(self) -> None:
        self.shared: _Shared | None = None
        self.content_root = Path("content")
        self.repo_path = "content"
        self.folder_url = ""
        self.derived = False
        self.locale_builds: dict[str, tuple[int, Path]] = {}  # locale → (pid, its folder)
        self.command = _command  # the mkdocs command (build, serve, gh-deploy) when known
        self.staging: Path | None = None  # where a build writes before it is published
        self.site_dir: Path | None = None  # the site the staging folder replaces
        self.warnings: CountHandler | None = None
        # Kept across serve's rebuilds (MkDocs reuses this instance): checked question files.
        self.checked: FileCache[Checked] = FileCache()
        self.bodies = BodyCache()  # rendered questions, reused while their file is unchanged
        self.options = RenderOptions()
        self.topic_url: Any = None  # Entry → site-root URL of its topic page
        self.indexed_here: list[str] = []  # locales whose search index this process writes
        self.exits: dict[int, int] = {}  # exit codes of the locale process(es), by pid
        self.serve = _ServeState()  # mkdocs serve: what the served pages were built from
        self.template_code = _TemplateCode()  # mkdocs serve: compiled templates, all builds

    # -- configuration -----------------------------------------------------------------------

    @event_priority(100)  # before Material's tags plugin reads tags_allowed
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        """Load and render the bank; set nav, language, assets and theme defaults."""
        config_dir = Path(config.config_file_path or ".").resolve().parent
        self.content_root = (config_dir / self.config.content_dir).resolve()
        relative = os.path.relpath(self.content_root, config_dir).replace(os.sep, "/")
        self.repo_path = self.content_root.name if relative.startswith("..") else relative
        global _handoff
        if self.command == "serve" and _handoff is None:
            background.pause()  # (resumed once this rebuild is published, or has failed)
        # MkDocs keeps one instance of this plugin (it has on_startup) for every config it
        # loads: serve's rebuilds and the derived locale builds all reach this same object.
        if _handoff is not None:
            self.shared, self.derived = _handoff, True
        elif (bank := self._load()) is None:  # serve, after a bad edit: the last good site
            self.shared, self.derived = self.serve.shared, False
            self.serve.fields = frozenset()  # (no data file changed either)
        else:
            self.derived = False
            self.options = self._render_options(config)
            self.topic_url = _topic_url(config)
            self.shared = _Shared(bank, RenderedSite(), bank.catalog.default_locale)
            if self.command != "serve":
                # Every other locale renders, builds and indexes in its own process, while
                # this one does the default locale (``_start_locales``).
                self._start_locales(config)
            if self.command == "serve":
                site = self._serve_render(bank)
            else:
                options = dataclasses.replace(
                    self.options, locales=(bank.catalog.default_locale,), defer_files=True
                )
                site = render_site(bank, options, None)
            self.shared = _Shared(bank, site, bank.catalog.default_locale)
        shared = self.shared
        assert shared is not None
        locale = shared.locale
        pages_log = logging.getLogger("mkdocs.structure.pages")
        for old in [f for f in pages_log.filters if isinstance(f, _CrossLocaleLinks)]:
            pages_log.removeFilter(old)
        pages_log.addFilter(_CrossLocaleLinks(frozenset(shared.bank.catalog.locales)))
        # Material writes nav titles and the site name into HTML unescaped: escape them.
        config.nav = _escaped_nav(shared.site.nav[locale])
        config.site_name = html.escape(shared.site.titles[locale])
        config.theme["language"] = MATERIAL_LANGUAGES.get(locale.lower(), locale)
        config.extra["qbank_locale"] = locale
        # qbank's own index (qbank.search, written after the build) replaces Material's search.
        config.extra["qbank_search"] = search_settings(shared.bank)
        material_search = config.plugins.get("material/search")
        if material_search is not None:
            material_search.config["enabled"] = False
        _allow_bank_tags(config, shared.bank)
        # Material fetches <link>/sitemap.xml per alternate (qbank writes them) and sends any
        # click on a link under "<link>/" to that locale's home: naming the locale's
        # index.html (no link lies under it) keeps the switcher on the same page.
        config.extra["alternate"] = [
            {"name": strings_for(loc)["language_name"], "link": f"{loc}/index.html", "lang": loc}
            for loc in shared.bank.catalog.locales
        ]
        overrides = str(TEMPLATES / "overrides")
        if overrides not in config.theme.dirs:
            config.theme.dirs.insert(0, overrides)
        # No Google Fonts: the site makes no third-party request.
        config.theme["font"] = False
        if not config.theme.get("palette"):
            config.theme["palette"] = DEFAULT_PALETTE
        if not config.theme.get("features"):
            features = list(DEFAULT_FEATURES)
            if sum(1 for _ in shared.bank.topics()) >= LEAN_NAV_FROM_TOPICS:
                features.remove("navigation.sections")
            config.theme["features"] = features
        for extension in REQUIRED_EXTENSIONS:
            if extension not in config.markdown_extensions:
                config.markdown_extensions.append(extension)
        config.mdx_configs.setdefault("toc", {}).setdefault("permalink", True)
        for asset in ASSETS:
            target = config.extra_css if asset.endswith(".css") else config.extra_javascript
            if asset not in [str(item) for item in target]:
                target.append(asset)
        if self.command == "serve":
            _keep_theme_listing(config.theme)
        if config.repo_url:
            self.folder_url = urljoin(
                config.repo_url.rstrip("/") + "/", f"tree/{self._branch(config)}/{self.repo_path}/"
            )
        return config

    def _load(self) -> Bank | None:
        """The bank; ``None`` when it has errors under ``mkdocs serve`` after a published
        build (its pages stay served: a failed build would stall every request)."""
        try:
            bank = self._load_bank()
        except ContentError as error:
            for problem in error.problems:  # a warning among the errors stays a warning
                warning = problem.severity is Severity.WARNING
                (log.warning if warning else log.error)(problem.format_text())
            if self.command == "serve" and self.serve.shared is not None:
                log.error("qbank: %s; the last good pages stay served until it is fixed", error)
                return None
            raise PluginError(f"qbank: {error}; nothing was built") from None
        for problem in bank.warnings:
            log.info(problem.format_text())
        return bank

    def _load_bank(self) -> Bank:
        """``load_bank``; outside ``mkdocs serve`` in a forked process that sends the bank back
        pickled: checking a bank leaves its memory fragmented (a third more at 30,000
        questions), and every process of the build holds the bank, so it arrives compact.
        Under serve the file cache of checked questions must live in this process."""
        started = time.monotonic()
        if self.command == "serve" or not hasattr(os, "fork"):
            return load_bank(self.content_root, self.checked)
        read, write = os.pipe()
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        pid = os.fork()
        if pid == 0:  # the child: load, send the bank or its problems, never return
            status = 1
            try:
                os.close(read)
                try:
                    result: tuple[str, Any] = ("bank", load_bank(self.content_root))
                except ContentError as error:
                    result = ("problems", error.problems)
                with os.fdopen(write, "wb") as out:
                    pickle.dump(result, out, protocol=pickle.HIGHEST_PROTOCOL)
                status = 0
            finally:
                os._exit(status)
        os.close(write)
        with os.fdopen(read, "rb") as incoming:
            data = incoming.read()
        _, status = os.waitpid(pid, 0)
        if os.waitstatus_to_exitcode(status) != 0 or not data:
            raise PluginError("qbank: loading the bank failed (see the messages above)")
        kind, value = pickle.loads(data)
        del data
        log.debug("qbank: bank loaded in %.1f s", time.monotonic() - started)
        if kind == "problems":
            raise ContentError(value)
        assert isinstance(value, Bank)
        return value

    def _branch(self, config: MkDocsConfig) -> str:
        """The branch from a user-set ``edit_uri`` such as ``edit/main/docs/``, else the option."""
        written = any("edit_uri" in user for user in config.user_configs)
        parts = (config.edit_uri or "").strip("/").split("/")
        if written and len(parts) >= 2 and parts[0] in ("edit", "blob", "tree"):
            return parts[1]
        return str(self.config.branch)

    def _render_options(self, config: MkDocsConfig) -> RenderOptions:
        if not config.repo_url:
            return RenderOptions(content_dir=self.repo_path, placeholders=True)
        repo = config.repo_url.rstrip("/") + "/"
        written = any("edit_uri" in user for user in config.user_configs)
        edit_root = f"edit/{self._branch(config)}/"
        if written and config.edit_uri:
            # edit_uri points at the docs folder (edit/main/docs/); questions sit beside it.
            parts = config.edit_uri.strip("/").split("/")
            if parts and parts[-1] == Path(config.docs_dir).name and len(parts) > 2:
                parts = parts[:-1]
            edit_root = "/".join(parts) + "/"
        return RenderOptions(
            edit_url=urljoin(repo, edit_root + self.repo_path + "/"),
            report_url=urljoin(repo, "issues/new"),
            report_template=str(self.config.report_template),
            content_dir=self.repo_path,
            placeholders=True,
        )

    # -- files and pages ---------------------------------------------------------------------

    def on_files(self, files: Files, config: MkDocsConfig) -> Files | None:
        """Add this locale's pages; other locales' pages only as link targets (not built)."""
        assert self.shared is not None
        locale, site = self.shared.locale, self.shared.site
        for path, markdown in site.pages.items():
            if path.startswith(f"{locale}/") or (path == "index.md" and not self.derived):
                inclusion = InclusionLevel.UNDEFINED
            else:
                inclusion = InclusionLevel.EXCLUDED
            self._add(files, File.generated(config, path, content=markdown, inclusion=inclusion))
        # Other locales' pages (built by their own builds) only as link targets.
        excluded = InclusionLevel.EXCLUDED
        for other in self.shared.bank.catalog.locales:
            for path in page_paths(self.shared.bank, other) if other not in site.nav else ():
                self._add(files, File.generated(config, path, content="", inclusion=excluded))
        for path, data in site.files.items():
            if path.split("/")[0] not in site.nav or path.startswith(f"{locale}/"):
                self._add(files, File.generated(config, path, content=data))
        for asset in ASSETS:
            self._add(files, File.generated(config, asset, abs_src_path=str(TEMPLATES / asset)))
        if config.plugins.get("material/tags") is not None:
            # The tags index of this locale: Material lists every tag with its topic pages.
            title = strings_for(locale)["tags"]
            index = f"---\ntitle: {title}\n---\n# {title}\n\n<!-- material/tags -->\n"
            self._add(files, File.generated(config, f"{locale}/tags.md", content=index))
        if self.command == "serve":
            self._skip_unchanged(files, config)
        return files

    @event_priority(-100)  # after every other plugin has seen the page
    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str | None:
        """Let a written page's HTML go (MkDocs keeps it to the end of the build: all of a
        big bank's pages would stay in memory)."""
        if self.command != "serve":
            page.content = None
        return output

    @event_priority(100)  # before any other plugin reads the page's HTML
    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        """Put each run of questions where its placeholder is (Markdown never parses them):
        headings written here as the toc extension would, and added to the page's TOC."""
        if self.shared is None or "qbank:question:" not in html:
            return html
        blocks = self.shared.site.blocks
        toc_config = config.mdx_configs.get("toc", {})
        permalink = toc_config.get("permalink", False)
        symbol = "&para;" if permalink is True else str(permalink) if permalink else ""
        link_title = html_escape(str(toc_config.get("permalink_title", "Permanent link")))
        link_class = html_escape(str(toc_config.get("permalink_class", "headerlink")))
        anchors = {link.id: link for link in _flat(page.toc)}
        parent: AnchorLink | None = None
        out: list[str] = []
        at = 0
        for match in _HEADING_OR_PLACEHOLDER.finditer(html):
            if match.group("heading_id") is not None:
                parent = anchors.get(match.group("heading_id"), parent)
                continue
            out.append(html[at : match.start()])
            at = match.end()
            for slot in blocks[int(match.group("block"))]:
                title = slot.title_html or html_escape(slot.title)
                link = (
                    f'<a class="{link_class}" href="#{slot.anchor}" title="{link_title}">'
                    f"{symbol}</a>"
                    if symbol
                    else ""
                )
                out.append(
                    f'<h{slot.level} id="{slot.anchor}">{title}{link}</h{slot.level}>\n'
                    f"{slot.html}\n"
                )
                item = AnchorLink(html_escape(slot.title), slot.anchor, slot.level)
                (parent.children if parent is not None else page.toc.items).append(item)
        out.append(html[at:])
        return "".join(out)

    @staticmethod
    def _add(files: Files, file: File) -> None:
        existing = files.get_file_from_path(file.src_uri)
        if existing is not None:
            files.remove(existing)
        files.append(file)

    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        """Point Material's page edit button at the topic's folder, or hide it."""
        folder = page.meta.get("qbank_folder")
        title = page.meta.get("title")
        if isinstance(title, str) and self.shared and page.file.src_uri in self.shared.site.pages:
            page.meta["title"] = html.escape(title)  # a catalog name; Material does not escape
        page.edit_url = f"{self.folder_url}{folder}/" if folder and self.folder_url else None
        return markdown

    # -- the other locales ---------------------------------------------------------------------

    def _index(self, locale: str, site_dir: Path) -> None:
        """Write ``locale``'s search index into its tree of ``site_dir``."""
        assert self.shared is not None
        started = time.monotonic()
        docs = iter_docs(self.shared.bank, locale, self.topic_url)
        try:
            write_index(docs, site_dir / locale / INDEX_DIR)
        except SearchIndexError as error:
            raise PluginError(f"qbank: {error}") from None
        log.debug("qbank: %s search index written in %.1f s", locale, time.monotonic() - started)

    def _derived_build(
        self, locale: str, config: MkDocsConfig, folder: Path, *, index: bool = True
    ) -> None:
        """Build one other locale's pages into ``folder`` (its ``<locale>/`` tree); outside
        ``mkdocs serve`` also render its pages first, then write its practice and JSON API
        files and (``index``) its search index."""
        from mkdocs.commands.build import build
        from mkdocs.config import load_config

        assert self.shared is not None
        global _handoff
        derived = load_config(
            config_file=config.config_file_path,
            site_dir=str(folder),
            site_url=config.site_url,
            use_directory_urls=config.use_directory_urls,
            strict=config.strict,
        )
        site, rendered = self.shared.site, False
        if locale not in site.nav:
            started = time.monotonic()
            options = dataclasses.replace(self.options, locales=(locale,), defer_files=True)
            site = render_site(self.shared.bank, options, None)
            rendered = True
            log.debug("qbank: %s rendered in %.1f s", locale, time.monotonic() - started)
        _handoff = _Shared(self.shared.bank, site, locale)
        own = (self.shared, self.derived)  # the derived build runs on this same instance
        try:
            build(derived)
            if rendered:
                _write_deferred(site, locale, folder)
                if index:
                    self._index(locale, folder)
        finally:
            _handoff = None
            self.shared, self.derived = own

    def _start_locales(self, config: MkDocsConfig) -> None:
        """Fork one process that renders, builds and indexes the other locales, one after the
        other, while this one does the default locale.

        Two processes for two cores, and the memory of two: each holds the bank (fork shares
        it copy-on-write, but reading objects writes their reference counts). The work is
        balanced by indexing the last locale here (``indexed_here``) while the other process
        builds its pages. The child writes into folders beside the site; ``_build_locales``
        waits for it and renames each ``<locale>/`` into place (no copy).
        """
        assert self.shared is not None
        parent = Path(config.site_dir).resolve().parent
        parent.mkdir(parents=True, exist_ok=True)
        if not hasattr(os, "fork") or (os.cpu_count() or 1) < 2:
            return
        locales = self.shared.bank.catalog.locales
        self.indexed_here = [locales[0], *(locales[-1:] if len(locales) >= 3 else [])]
        folders = {
            locale: Path(tempfile.mkdtemp(prefix=f".qbank-{locale}-", dir=parent))
            for locale in locales[1:]
        }
        if not folders:
            return
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        gc.freeze()  # the garbage collector of the child then leaves the bank's pages shared
        pid = os.fork()
        if pid == 0:  # the child: build, report by exit status, never return into MkDocs
            status = 1
            try:
                for locale, folder in folders.items():
                    index = locale not in self.indexed_here
                    self._derived_build(locale, config, folder, index=index)
                status = 0
            except BaseException as error:  # reported through the exit status
                log.error("qbank: the build of another locale failed: %s", error)
            finally:
                for stream in (sys.stdout, sys.stderr):
                    stream.flush()
                os._exit(status)
        gc.unfreeze()
        self.locale_builds = {locale: (pid, folder) for locale, folder in folders.items()}

    def _stop_locales(self) -> None:
        """End the locale builds this process started (after a failure) and drop their output."""
        for pid, folder in self.locale_builds.values():
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGTERM)
                os.waitpid(pid, 0)
            shutil.rmtree(folder, ignore_errors=True)
        self.locale_builds = {}
        self.exits = {}

    def _build_locales(self, *, config: MkDocsConfig) -> None:
        """From the default locale's build, build every other locale into the same site."""
        if self.derived or self.shared is None:
            return
        site_dir = Path(config.site_dir)
        extra: dict[str, Path] = {}  # indexes written here for locales the child builds
        if self.command != "serve":  # this locale's files and index, while the child works
            _write_deferred(self.shared.site, self.shared.locale, site_dir)
            self._index(self.shared.locale, site_dir)
        scratch = Path(tempfile.mkdtemp(prefix=".qbank-index-", dir=site_dir.parent))
        try:
            if self.locale_builds and self.command != "serve":
                for locale in self.indexed_here[1:]:
                    self._index(locale, scratch)
                    extra[locale] = scratch / locale / INDEX_DIR
            failed = self._collect_locales(config, site_dir, extra)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        self.exits = {}
        if failed:
            self._stop_locales()
            raise PluginError(f"qbank: the build of locale(s) {', '.join(failed)} failed")
        if self.command == "serve":  # (after the locale trees are in place)
            self._serve_data_files(site_dir)
        _write_locale_sitemaps(self.shared.bank, config)
        # Under serve the index lives in the served folder (serve rebuilds write elsewhere).
        self._search(self.serve.served or site_dir)

    def _collect_locales(
        self, config: MkDocsConfig, site_dir: Path, extra: dict[str, Path]
    ) -> list[str]:
        """Wait for (or, without a locale process, run) every other locale's build, rename
        its tree into ``site_dir`` with the index written here (``extra``); the failed ones."""
        assert self.shared is not None
        failed = []
        for locale in self.shared.bank.catalog.locales[1:]:
            started = self.locale_builds.pop(locale, None)
            if started is None and self._unchanged_locale(locale):
                continue
            if started is None:  # serve, or no fork: build here, one locale after the other
                folder = Path(tempfile.mkdtemp(prefix=f".qbank-{locale}-"))
                self._derived_build(locale, config, folder)
            else:
                pid, folder = started
                if pid not in self.exits:
                    _, status = os.waitpid(pid, 0)
                    self.exits[pid] = os.waitstatus_to_exitcode(status)
                if self.exits[pid] != 0:
                    failed.append(locale)
                    shutil.rmtree(folder, ignore_errors=True)
                    continue
            target = site_dir / locale
            if target.exists():
                shutil.rmtree(target)
            if (folder / locale).is_dir():  # (a serve rebuild may have skipped all its pages)
                try:
                    (folder / locale).replace(target)  # same file system: a rename
                except OSError:
                    shutil.copytree(folder / locale, target)
            if locale in extra:
                shutil.move(extra[locale], target / INDEX_DIR)
            shutil.rmtree(folder, ignore_errors=True)
        return failed

    def _search(self, site_dir: Path) -> None:
        """The search index: under ``mkdocs build`` the builds have written it (report it);
        under ``mkdocs serve`` the last index at once and a fresh one in the background."""
        assert self.shared is not None
        bank = self.shared.bank
        if self.command != "serve":  # written by each build (``_build_locales``)
            languages = Counter(loc.lower() for e in bank.entries for loc in e.locales)
            per = ", ".join(f"{lang} {n}" for lang, n in sorted(languages.items()))
            log.info("qbank: search index: %d questions (%s)", sum(languages.values()), per)
            return
        docs = {locale: self._serve_docs(bank, locale) for locale in bank.catalog.locales}
        try:
            report = index_site_after_build(site_dir, docs)
        except SearchIndexError as error:
            raise PluginError(f"qbank: {error}") from None
        if report is not None:
            log.info("qbank: %s", report.summary())

    # -- mkdocs serve: rebuild only what changed ----------------------------------------------

    def on_env(
        self, env: jinja2.Environment, /, *, config: MkDocsConfig, files: Files
    ) -> jinja2.Environment | None:
        """Under ``mkdocs serve``, reuse the templates compiled by the previous builds."""
        if self.command == "serve":
            env.bytecode_cache = self.template_code
        return env

    def _stage_serve(self, config: MkDocsConfig) -> None:
        """Under ``mkdocs serve``, build into a private folder (MkDocs cleans ``site_dir``
        first): ``_publish_served`` moves what this build wrote into the served folder."""
        state = self.serve
        if state.served is None:
            state.served = Path(config.site_dir).resolve()
            nav_log = logging.getLogger("mkdocs.structure.nav")
            nav_log.addFilter(_SkippedPagesNote(state))
        state.discard()
        state.served.mkdir(parents=True, exist_ok=True)
        state.staging = Path(tempfile.mkdtemp(prefix=".qbank-serve-", dir=state.served.parent))
        config.site_dir = str(state.staging)

    def _whole_signature(self, config: MkDocsConfig) -> Any:
        """What every page depends on: when any of it changes, every page is rebuilt."""
        assert self.shared is not None
        site = self.shared.site
        config_file = Path(config.config_file_path) if config.config_file_path else None
        return (
            sorted(site.pages),
            sorted(site.files),
            [_front_matter(markdown) for _, markdown in sorted(site.pages.items())],
            site.nav,
            site.titles,
            self.shared.bank.catalog,
            self.options,
            json.dumps(config.extra, sort_keys=True, default=str),
            config_file.read_bytes() if config_file and config_file.is_file() else b"",
            _tree_stat(TEMPLATES),
            _tree_stat(Path(config.docs_dir)),
        )

    def _page_signature(self, markdown: str) -> tuple[str, tuple[Any, ...]]:
        """What a generated page is built from: its Markdown and its runs of questions (the
        placeholders' numbers left out: they shift when another page changes)."""
        assert self.shared is not None
        blocks = self.shared.site.blocks
        runs = tuple(blocks[int(n)] for n in PLACEHOLDER_NUMBER.findall(markdown))
        return PLACEHOLDER_NUMBER.sub("", markdown), runs

    def _serve_options(self) -> RenderOptions:
        """The render options under ``mkdocs serve``: every locale, data files deferred."""
        return dataclasses.replace(self.options, locales=(), defer_files=True)

    def _serve_render(self, bank: Bank) -> RenderedSite:
        """Under ``mkdocs serve``, every locale's pages: after an edit only the pages that show
        changed questions are rendered again (``update_site``), else all of them."""
        state = self.serve
        options = self._serve_options()
        last = state.shared
        update = None
        if last is not None and state.rendered_with == options:
            update = update_site(last.bank, last.site, bank, options, self.bodies)
        if update is None:
            state.fields = None
            return render_site(bank, options, self.bodies)
        state.fields = update.fields
        return update.site

    def _skip_unchanged(self, files: Files, config: MkDocsConfig) -> None:
        """Under ``mkdocs serve``, leave out (``EXCLUDED``: not read, not rendered, still in
        the nav) every file built from exactly what the served one was built from."""
        assert self.shared is not None
        state, site = self.serve, self.shared.site
        if not self.derived:  # the default locale's build runs first: decide for all
            state.next_whole = self._whole_signature(config)
            state.full = state.next_whole != state.whole
            state.skipped = set()
            state.next_built = {path: self._page_signature(md) for path, md in site.pages.items()}
            state.next_built.update(site.files)  # generated data, compared by bytes
            state.changed = {
                path
                for path, signature in state.next_built.items()
                if state.full or not _same_signature(state.built.get(path, _MISSING), signature)
            }
        for file in files:
            if file.inclusion.value <= InclusionLevel.DRAFT.value:  # another locale's page
                continue
            path = file.src_uri
            generated = path in state.next_built  # else a theme or docs file (global)
            if state.full or (path in state.changed if generated else False):
                continue
            file.inclusion = InclusionLevel.EXCLUDED
            state.skipped.add(path)

    def _serve_data_files(self, staging: Path) -> None:
        """Under ``mkdocs serve``, the practice and JSON API files: after an edit the practice
        files of the changed fields whose bytes changed, and each ``bank.json`` whose bytes
        changed (100 MB a locale at 30,000 questions, read by no page) in the background,
        straight into the served folder, once edits pause; after a full rebuild all of them,
        in this build."""
        assert self.shared is not None
        state, site = self.serve, self.shared.site
        fields = None if state.full else state.fields
        with state.api_lock:
            state.api_generation += 1  # a background writer still running stops
            generation = state.api_generation
            if fields is None:
                state.data_digests = {}
        for locale in self.shared.bank.catalog.locales:
            _write_deferred(
                site,
                locale,
                staging,
                fields=fields,
                api=fields is None,
                known=state.data_digests,
                written=state.next_data,
            )
        if fields is None or state.served is None:
            return
        served, locales = state.served, self.shared.bank.catalog.locales

        def swap(temporary: Path, target: Path) -> bool:
            with state.api_lock:  # a newer build's files are never replaced by older ones
                return state.api_generation == generation and _replace(temporary, target)

        def paced(chunks: Iterable[bytes]) -> Iterator[bytes]:
            for chunk in background.paced(chunks):
                if state.api_generation != generation:
                    raise _Superseded
                yield chunk

        def write_api() -> None:
            time.sleep(API_DELAY)  # edits often come in runs: wait for a pause
            with contextlib.suppress(OSError, _Superseded):
                for locale in locales:
                    if state.api_generation != generation:
                        return
                    written: dict[str, bytes] = {}
                    _write_deferred(
                        site,
                        locale,
                        served,
                        swap,
                        fields=(),
                        api=True,
                        known=state.data_digests,
                        written=written,
                        pace=paced,
                    )
                    with state.api_lock:
                        if state.api_generation == generation:
                            state.data_digests.update(written)

        # Started once this build is published (``_publish_served``): it would slow it down.
        state.api_writer = threading.Thread(target=write_api, name="qbank-api", daemon=True)

    def _unchanged_locale(self, locale: str) -> bool:
        """Under ``mkdocs serve``, whether this rebuild leaves every page of ``locale`` as it
        is served (its build is then skipped)."""
        state = self.serve
        return (
            self.command == "serve"
            and not state.full
            and not any(path.startswith(f"{locale}/") for path in state.changed)
        )

    def _serve_docs(self, bank: Bank, locale: str) -> list[SearchDoc]:
        """``bank_docs`` under ``mkdocs serve``: a question whose file did not change (the
        loader hands back the very same ``Entry``) keeps its document from the last rebuild
        (found at its place in the bank, else by the entry); a full rebuild (catalog,
        config…) makes them all again."""
        state = self.serve
        last = None if state.full else state.docs.get(locale)
        old_entries, old_docs = last if last is not None else ((), [])
        by_entry: dict[int, tuple[Entry, SearchDoc | None]] | None = None
        aligned: list[SearchDoc | None] = []
        in_place = len(old_entries) == len(bank.entries)  # an edit moved no question
        for n, entry in enumerate(bank.entries):
            if in_place and old_entries[n] is entry:
                aligned.append(old_docs[n])
                continue
            kept = None
            if not (in_place and old_entries[n].file == entry.file):  # not edited in place
                if by_entry is None:
                    pairs = zip(old_entries, old_docs, strict=True)
                    by_entry = {id(e): (e, d) for e, d in pairs}
                kept = by_entry.get(id(entry))
            if kept is not None and kept[0] is entry:
                aligned.append(kept[1])
            elif locale in entry.locales:
                aligned.append(question_doc(bank, entry, locale, self.topic_url(locale, entry)))
            else:
                aligned.append(None)
        state.docs[locale] = (bank.entries, aligned)
        return [doc for doc in aligned if doc is not None]

    @event_priority(-100)  # after ``_build_locales`` wrote every locale into the staging folder
    def _publish_served(self, *, config: MkDocsConfig) -> None:
        """Move the files this serve rebuild wrote into the served folder (one rename each: a
        request never sees half a file); after a full rebuild also delete what it no longer
        makes. Files the build skipped stay as they are."""
        state = self.serve
        if _handoff is not None or state.staging is None or state.served is None:
            return
        staging, served = state.staging, state.served
        written: set[str] = set()
        for folder, _, names in os.walk(staging):
            for name in names:
                source = Path(folder) / name
                relative = source.relative_to(staging).as_posix()
                target = served / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                source.replace(target)
                written.add(relative)
        if state.full:
            for relative in state.published - written:
                with contextlib.suppress(OSError):
                    (served / relative).unlink()
            state.published = written
        else:
            state.published |= written
        state.whole, state.built, state.shared = state.next_whole, state.next_built, self.shared
        with state.api_lock:
            state.data_digests.update(state.next_data)
        state.rendered_with = self._serve_options()
        log.info(
            "qbank: %s: %d files written, %d skipped as unchanged",
            "full rebuild" if state.full else "rebuilt what changed",
            len(written),
            len(state.skipped),
        )
        state.discard()
        config.site_dir = str(served)
        if state.api_writer is not None:
            state.api_writer.start()
            state.api_writer = None
        background.resume(after=RELOAD_TIME)

    # -- atomic output (qbank.publish) ----------------------------------------------------------

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Remember the command: ``mkdocs serve`` writes to its own temporary folder."""
        self.command = command
        global _command
        _command = command  # kept for any instance made after startup

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        """Build into a staging folder beside ``site_dir``; a failed build never touches it."""
        # MkDocs reuses this instance for the derived per-locale builds: they write elsewhere.
        if _handoff is not None:
            return
        if self.command == "serve":
            self._stage_serve(config)
            return
        self.site_dir = Path(config.site_dir)
        self.staging = publish.stage(self.site_dir)
        config.site_dir = str(self.staging)
        if config.strict:  # MkDocs counts strict-mode warnings only after post_build
            self.warnings = CountHandler()
            self.warnings.setLevel(logging.WARNING)
            logging.getLogger("mkdocs").addHandler(self.warnings)

    @event_priority(-100)  # after every other plugin's post_build (search indexing included)
    def _publish(self, *, config: MkDocsConfig) -> None:
        """Swap the finished staging folder in as the site, in one step."""
        if _handoff is not None or self.staging is None or self.site_dir is None:
            return
        if self.warnings is not None:
            logging.getLogger("mkdocs").removeHandler(self.warnings)
            counts = self.warnings.get_counts()
            self.warnings = None
            if counts:
                found = ", ".join(f"{n} {level.lower()}s" for level, n in counts)
                raise PluginError(f"qbank: {found} in strict mode; the site was not replaced")
        publish.publish(self.staging, self.site_dir)
        config.site_dir = str(self.site_dir)
        self.staging = None

    on_post_build = CombinedEvent(_build_locales, _publish, _publish_served)

    def on_build_error(self, *, error: Exception) -> None:
        """Drop the staging folder: the previous site stays exactly as it was."""
        self._stop_locales()
        if self.warnings is not None:
            logging.getLogger("mkdocs").removeHandler(self.warnings)
            self.warnings = None
        if self.staging is not None:
            publish.discard(self.staging)
            self.staging = None
        self.serve.discard()
        self.serve.api_writer = None
        background.resume()

    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Any
    ) -> LiveReloadServer | None:
        """Rebuild when a question file, the catalog or a site template changes.

        MkDocs polls every watched folder (a walk of all its files every half second: at
        30,000 question files that walk takes a core and delays every rebuild by seconds),
        so the bank is watched through the system's file events (inotify) when watchdog
        offers them, telling MkDocs' build loop the way its own watcher does."""
        if not self._watch_bank(server):
            server.watch(str(self.content_root))
        server.watch(str(TEMPLATES))
        return server

    def _watch_bank(self, server: LiveReloadServer) -> bool:
        """Watch the content folder with file events; False where that is not possible."""
        try:
            from watchdog.events import FileSystemEvent, FileSystemEventHandler
            from watchdog.observers import Observer
            from watchdog.observers.polling import PollingObserver
        except ImportError:  # pragma: no cover - MkDocs depends on watchdog
            return False
        condition: threading.Condition | None = getattr(server, "_rebuild_cond", None)
        if Observer is PollingObserver or not hasattr(server, "_want_rebuild"):
            return False
        if not isinstance(condition, threading.Condition):
            return False
        rebuild = condition

        class Changed(FileSystemEventHandler):
            def on_any_event(self, event: FileSystemEvent) -> None:
                # Reads of the bank ("opened", "closed_no_write") are not changes.
                if event.event_type not in _CHANGES or (
                    event.is_directory and event.event_type == "modified"
                ):
                    return
                background.pause()  # the rebuild comes first
                with rebuild:
                    server._want_rebuild = True  # what MkDocs' own watcher sets
                    rebuild.notify_all()

        observer = Observer()
        try:
            observer.schedule(Changed(), str(self.content_root), recursive=True)
            observer.start()
        except OSError as error:  # e.g. the inotify watch limit: poll like MkDocs does
            log.info("qbank: watching %s by polling (%s)", self.content_root, error)
            return False
        log.info("Watching %s for changes (file events)", self.content_root)
        return True


def _topic_url(config: MkDocsConfig) -> Any:
    """Entry → the site-root URL of its topic page, as MkDocs writes it."""
    suffix = "" if config.use_directory_urls else "index.html"

    def url(locale: str, entry: Entry) -> str:
        return f"/{locale}/{entry.field}/{entry.topic}/{suffix}"

    return url


def _replace(temporary: Path, target: Path) -> bool:
    temporary.replace(target)
    return True


def _write_deferred(
    site: RenderedSite,
    locale: str,
    site_dir: Path,
    swap: Callable[[Path, Path], bool] = _replace,
    known: dict[str, bytes] | None = None,
    written: dict[str, bytes] | None = None,
    pace: Callable[[Iterable[bytes]], Iterable[bytes]] = lambda chunks: chunks,
    **limits: Any,
) -> None:
    """Write a locale's practice and JSON API files (``RenderOptions.defer_files``) into
    ``site_dir``, one at a time, each under a temporary name first (a reader never sees half
    a file). ``limits`` (fields, api) go to the producer (``_Renderer.data_files``);
    ``swap(temporary, target)`` puts a file in place, or refuses (False: stop writing).
    With ``known`` (path → digest of the bytes served), a file whose bytes are the same is
    not written (made twice, hashed first, when it comes in many chunks); ``written``
    receives the digest of each file written; ``pace`` wraps every file's chunks (a
    background writer's checkpoints)."""
    produce = site.deferred.get(locale)
    if produce is None:
        return
    for path, chunks in produce(**limits):
        if known is not None and path in known:
            if isinstance(chunks, tuple):
                same = _digest(chunks) == known[path]
            else:  # bank.json, streamed: hash a first run (not kept), write a second
                same = _digest(pace(dict(produce(fields=(), api=True))[path])) == known[path]
            if same:
                continue
            if not isinstance(chunks, tuple):
                chunks = dict(produce(fields=(), api=True))[path]
        target = site_dir / path
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(f".{target.name}.{threading.get_ident()}.part")
        digest = hashlib.blake2b(digest_size=16) if written is not None else None
        try:
            with temporary.open("wb") as stream:
                for chunk in pace(chunks):
                    stream.write(chunk)
                    if digest is not None:
                        digest.update(chunk)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
        if not swap(temporary, target):
            temporary.unlink()
            return
        if written is not None and digest is not None:
            written[path] = digest.digest()


class _Superseded(Exception):
    """A newer build made a background write pointless."""


def _digest(chunks: Iterable[bytes]) -> bytes:
    found = hashlib.blake2b(digest_size=16)
    for chunk in chunks:
        found.update(chunk)
    return found.digest()


def _allow_bank_tags(config: MkDocsConfig, bank: Bank) -> None:
    """With Material's tags plugin on, allow exactly the bank's tags (``tags_allowed``), so
    a tag that no question carries fails the build instead of silently appearing."""
    tags_plugin = config.plugins.get("material/tags")
    if tags_plugin is None:
        return
    from material.plugins.tags.structure.tag import Tag

    names = sorted({tag for entry in bank.entries for tag in entry.question.tags})
    tags_plugin.config["tags_allowed"] = {Tag(name) for name in names}


def _write_locale_sitemaps(bank: Bank, config: MkDocsConfig) -> None:
    """Write ``<locale>/sitemap.xml``: the locale's generated pages, sorted, without dates."""
    root = config.site_url or "/"
    for locale in bank.catalog.locales:
        urls = []
        for path in sorted(page_paths(bank, locale)):
            folder = path.removesuffix("index.md")
            urls.append(urljoin(root, folder if config.use_directory_urls else path[:-3] + ".html"))
        body = "".join(f"<url><loc>{escape(url)}</loc></url>\n" for url in urls)
        sitemap = Path(config.site_dir) / locale / "sitemap.xml"
        sitemap.parent.mkdir(parents=True, exist_ok=True)
        sitemap.write_text(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            f"{body}</urlset>\n",
            encoding="utf-8",
        )
