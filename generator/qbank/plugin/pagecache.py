"""qbank's pages not rendered again when nothing they are made from changed: the page cache
(``qbank.live.pagecache``) in MkDocs' page build.

MkDocs 1.6.1 builds a page (``commands/build.py`` ``_build_page``) by choosing its template
from ``page.meta["template"]`` (default ``main.html``), running ``on_page_context``, then
``template.render(context)`` and ``on_post_page``. For each page qbank generated, ``begin``
(from ``on_env``, once every page's source is read) names qbank's one-line template
(``site_templates/overrides/qbank-kept-page.html``: it writes ``context["qbank_page"]``);
``restore`` (first in ``on_page_context``) puts the page's own template name back, so that
every other plugin and the key see the page as it is; ``render`` (last in
``on_page_context``) makes the page's key from its context and either takes its HTML from
the cache (the template then writes nothing and ``finish``, in ``on_post_page``, returns the
kept HTML) or renders the page's own template with the very context MkDocs would have given
it, and ``finish`` keeps the final HTML.

The cache is off, said once at INFO, when the configuration has a plugin that could change
a page's HTML in a way the key does not see (anything but qbank's, MkDocs' and Material's
known ones below), or a value the key cannot read.
https://github.com/mkdocs/mkdocs/blob/1.6.1/mkdocs/commands/build.py#L177-L230
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import jinja2
import mkdocs
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Link, Navigation, Section
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import AnchorLink, TableOfContents

from qbank.live.markupcache import LIBRARIES
from qbank.live.pagecache import (
    KIND,
    Converted,
    ConvertedPages,
    PageCache,
    Reads,
    Unreadable,
    canonical,
    digest,
    folder_digest,
    package_reads,
)
from qbank.live.sitelinks import LastSite
from qbank.live.store import Store, versions_of
from qbank.plugin import report
from qbank.plugin.pages import fill_bodies
from qbank.plugin.pageskip import SkippedPages, page_signature, skippable, whole_signature
from qbank.site import strings
from qbank.site.render import PLACEHOLDER, PLACEHOLDER_NUMBER, RenderedSite, Slot

TEMPLATE = "qbank-kept-page.html"
SLOT = "qbank_page"  # the context key the template writes

# Plugins whose work on a page ends before its template is rendered, or never reaches it:
# what they change is in the page's context (the key reads it) or in other files.
KNOWN_PLUGINS = frozenset(
    {
        "qbank",
        "search",
        "material/search",
        "material/tags",
        "material/meta",
        "material/offline",
        "material/typeset",
        "material/info",
        "material/group",
        "material/optimize",
    }
)
# Plugins that read a page's HTML before qbank's page cache renders it (Material's search
# indexes it from the page's context, ``typeset`` reads its headings): with one of them, a
# page's question HTML is put in before they run instead of only when the page is rendered.
READ_CONTENT = frozenset({"search", "material/search", "material/typeset"})
# The context MkDocs makes (``get_context``), read by the key in its own way.
_STANDARD = frozenset({"nav", "pages", "config", "page", "build_date_utc", SLOT})
# Settings that say where a build reads and writes, not what a page shows.
_WHERE = frozenset(
    {"site_dir", "docs_dir", "config_file_path", "dev_addr", "watch", "strict", "validation"}
)


def _refer(value: Any) -> Any:
    """MkDocs' structure objects by what a page shows of them (they point at each other)."""
    if isinstance(value, Page):
        return ["page", value.url]
    if isinstance(value, File):
        return ["file", value.src_uri, value.url]
    if isinstance(value, Section):
        return ["section", value.title]
    if isinstance(value, Link):
        return ["link", value.title, value.url]
    if isinstance(value, AnchorLink | TableOfContents | Navigation | MkDocsConfig):
        raise Unreadable(type(value).__name__)  # (only where the key reads them itself)
    return NotImplemented


def _toc(links: Any) -> list[Any]:
    return [[a.title, a.id, a.level, _toc(a.children)] for a in links]


def _nav(items: Any, keys: frozenset[str] | None, meta_of: Callable[[Page], Any]) -> list[Any]:
    """The nav as a page's menu can show it: of each page's front matter (``meta_of``)
    whether it has any, and the ``keys`` the templates read (None: all of it)."""
    out: list[Any] = []
    for item in items:
        if isinstance(item, Page):
            meta = meta_of(item)
            if keys is not None:
                meta = {"": bool(meta), **{k: meta[k] for k in keys if k in meta}}
            file = item.file
            out.append(["page", item.title, item.url, file.src_uri, canonical(meta, _refer)])
        elif isinstance(item, Section):
            out.append(["section", item.title, _nav(item.children, keys, meta_of)])
        else:
            out.append(["link", item.title, item.url])
    return out


def _package_dirs() -> tuple[Path, ...]:
    """Where installed themes live: their templates change only with their versions."""
    import material

    return tuple(Path(m.__file__ or ".").resolve().parent for m in (mkdocs, material))


def build_digest(config: MkDocsConfig) -> tuple[str, Reads]:
    """The digest of what every page of this build depends on besides its nav and itself
    (``Unreadable``: a setting the key cannot read), and what its templates read beyond the
    page they render (``Reads``)."""
    settings = []
    for name in sorted(config):
        if name in _WHERE or name in ("plugins", "theme", "nav"):
            continue
        settings.append([name, canonical(config[name], _refer)])
    plugins = [
        [name, type(plugin).__qualname__, canonical(plugin.config, _refer)]
        for name, plugin in config.plugins.items()
    ]
    theme = config.theme
    dirs = [Path(d).resolve() for d in theme.dirs]
    packages = _package_dirs()
    own = [d for d in dirs if not any(d.is_relative_to(p) for p in packages)]
    reads = Reads()
    for folder in dirs:
        if folder not in own:
            reads = _merged(reads, package_reads(folder))
    templates, reads = folder_digest(own, reads)
    strings_digest, _ = folder_digest([strings.STRINGS_DIR], Reads())
    versions = [
        mkdocs.__version__,
        *versions_of("mkdocs-material"),
        jinja2.__version__,
        *versions_of(*LIBRARIES),  # (a question's HTML: pages may be keyed by its inputs)
    ]
    inputs = [
        settings,
        plugins,
        [theme.name, [str(d) for d in dirs], canonical(dict(theme.items()), _refer)],
        templates,
        strings_digest,
        versions,
    ]
    return digest(inputs), reads


def _merged(first: Reads, second: Reads) -> Reads:
    keys = (
        None
        if first.nav_meta is None or second.nav_meta is None
        else first.nav_meta | second.nav_meta
    )
    return Reads(keys, first.pages or second.pages, first.dated or second.dated)


class KeptPages:
    """The page cache of the build running now (one at a time: a nested locale build
    begins after the build it runs in has written its pages)."""

    def __init__(self) -> None:
        self.cache: PageCache | None = None
        self.env: jinja2.Environment | None = None
        self.templates: dict[str, Any] = {}  # src_uri → the page's own template setting
        self.reads = Reads()
        self.said_off = False
        self.summary = ""  # the last build's ``end``
        # (the nav, its digest) and (the list of pages, its digest) of the build running:
        # the objects themselves, not their ids (a later build's nav may get a freed id)
        self._nav: tuple[Any, str] = (None, "")
        self._pages: tuple[Any, str] = (None, "")
        # the page being built, its kept HTML ("": linked from the last site) and key
        self._kept: tuple[Page, str, str] | None = None
        self._pending: tuple[Page, str] | None = None  # the page being built, its key
        # Pages whose question HTML waits for the page to be rendered (``defer``): their
        # slots in order, by source path (``pages.insert_questions``'s ``deferred``).
        self.defer = False
        self.bodies: dict[str, list[Slot]] = {}
        # the pages of the published site this build links instead of writing (``sitelinks``;
        # not under serve), and the source paths of those it linked (MkDocs logs a note)
        self.links: LastSite | None = None
        self.linked: set[str] = set()
        # the pages this build leaves out of MkDocs' page build (``skip``), and what ``skip``
        # made for ``begin``: the build's digest and what its templates read, the last site
        self.skipped = SkippedPages()
        self._early: tuple[str, Reads, LastSite] | None = None

    def prepare(self, store: Store, config: MkDocsConfig) -> None:
        """Before this build's pages are read (``on_nav``): whether their question HTML may
        wait until each page is rendered, as the page cache can then key the page by its
        questions' inputs (``Slot.inputs``) and a kept page never makes it (nor holds it in
        memory while every other page is read)."""
        self.bodies = {}
        self.skipped, self._early = SkippedPages(), None
        self.defer = (
            store.enabled and self.allowed(config) and not (READ_CONTENT & set(config.plugins))
        )

    def skip(
        self,
        store: Store,
        config: MkDocsConfig,
        files: Files,
        nav: Navigation,
        site: tuple[Path, str],
        rendered: RenderedSite,
    ) -> list[Page]:
        """Leave out of MkDocs' page build (``pageskip``; ``on_nav``, before any page is read)
        every page qbank generated (in ``rendered``) that the last build made from the same
        signature and the published site ``site`` (its folder, this build's locale) still
        holds as it wrote it: its file is then a hard link to that one. The pages left out,
        read as MkDocs reads a page's source."""
        self.skipped = SkippedPages(files)
        if not store.enabled or not self.allowed(config):
            return []
        try:
            build, reads = build_digest(config)
        except Unreadable:
            return []
        links = LastSite(store, *site)
        self._early = (build, reads, links)
        if not skippable(config, reads):
            return []
        pages = rendered.pages
        whole = whole_signature(build, nav, files, reads)
        out: list[File] = []
        # (this locale's pages: the others' are excluded; the first is always built, as
        # MkDocs dates sitemap.xml.gz by the pages it builds, and by the clock when none)
        for file in files.documentation_pages()[1:]:
            if file.src_uri not in pages:
                continue
            signature = page_signature(whole, file, rendered)
            name = None if signature is None else links.skip(file.dest_uri, signature)
            if (
                name is not None
                and store.touch(KIND, name)  # (its entry kept for a build without the site)
                and links.link(file.dest_uri, name, file.abs_dest_path or "")
            ):
                out.append(file)
        return self.skipped.leave_out(out, config)

    def begin(
        self,
        store: Store,
        config: MkDocsConfig,
        files: Files,
        env: jinja2.Environment,
        generated: Callable[[File], bool],
        kind: str = KIND,
        site: tuple[Path, str] | None = None,
    ) -> None:
        """Start this build's page cache over ``store`` for the pages ``generated`` (by
        qbank) says, unless something the key cannot see could change their HTML; its
        entries of ``kind`` (``SERVED``: ``mkdocs serve``'s pages). ``site``: the published
        site and this build's locale, whose pages the last build wrote there are linked
        where they are the same (``sitelinks``)."""
        self.cache, self.env, self.templates = None, env, {}
        self._kept = self._pending = None
        self._nav = self._pages = (None, "")
        self.links, self.linked = None, set()
        early, self._early = self._early, None
        if not store.enabled:
            return
        if not self.allowed(config):
            return
        try:
            build, self.reads = early[:2] if early is not None else build_digest(config)
        except Unreadable as error:
            self._off(f"a setting holds a value it cannot compare ({error})")
            return
        self.cache = PageCache(store, build, kind)
        if site is not None:
            self.links = early[2] if early is not None else LastSite(store, *site)
        for file in files.documentation_pages():
            page = file.page
            if page is None or not generated(file) or file.inclusion.is_excluded():  # type: ignore[no-untyped-call]
                continue
            self.templates[file.src_uri] = page.meta.get("template")
            page.meta["template"] = TEMPLATE

    def allowed(self, config: MkDocsConfig) -> bool:
        """Whether no plugin of ``config`` could change a page's HTML unseen by the key (else
        said at INFO, once a process: called before the locale process forks, too)."""
        unknown = sorted(name for name in config.plugins if name not in KNOWN_PLUGINS)
        if unknown:
            self._off(f"the plugin(s) {', '.join(unknown)} may change a page's HTML")
        return not unknown

    def _off(self, why: str) -> None:
        if not self.said_off:
            report.log.info(f"qbank: the page cache is off: {why}")
            self.said_off = True

    def restore(self, page: Page) -> None:
        """Give the page its own template setting back (before any plugin sees its context)."""
        if page.file.src_uri not in self.templates:
            return
        own = self.templates[page.file.src_uri]
        if own is None:
            page.meta.pop("template", None)
        else:
            page.meta["template"] = own

    def render(self, context: dict[str, Any], page: Page) -> None:
        """Fill ``context[SLOT]``: nothing when the page's HTML is kept (``finish`` writes
        it), else the page's own template rendered with ``context`` (its question HTML put
        in first, where it waited)."""
        self._kept = self._pending = None
        slots = self.bodies.pop(page.file.src_uri, None)
        if page.file.src_uri not in self.templates:
            if slots is not None:
                page.content = fill_bodies(page.content or "", slots)
            return
        assert self.env is not None
        own = self.templates[page.file.src_uri] or "main.html"
        name = self._key(context, page, own, slots or [])
        if name is not None and self.cache is not None:
            file = page.file
            if (
                self.links is not None
                and self.cache.holds(name)  # (a page made again where its entry is gone)
                and self.links.link(file.dest_uri, name, file.abs_dest_path or "")
            ):
                self.cache.kept += 1
                self.linked.add(file.src_uri)
                self._kept = (page, "", name)  # (no output: MkDocs writes no file)
                context[SLOT] = ""
                return
            html = self.cache.get(name, page.url)
            if html is not None:
                self._kept = (page, html, name)
                context[SLOT] = ""
                return
            self._pending = (page, name)
        if slots is not None:
            page.content = fill_bodies(page.content or "", slots)
        context[SLOT] = self.env.get_template(own).render(context)

    def _key(
        self, context: dict[str, Any], page: Page, template: str, slots: list[Slot]
    ) -> str | None:
        """The page's key, or None when its context holds a value the key cannot read. Its
        HTML is read as it is (its questions' HTML in it, or their marks with ``slots``,
        whose inputs are read instead)."""
        assert self.cache is not None
        try:
            own = [
                [slot.inputs for slot in slots],
                template,
                self._nav_digest(context["nav"]),
                self._pages_digest(context["pages"]) if self.reads.pages else "",
                page.file.src_uri,
                page.file.dest_uri,
                page.title,
                page.edit_url,
                page.canonical_url,
                _toc(page.toc),
                canonical(page.meta, _refer),
                sorted([k, canonical(v, _refer)] for k, v in context.items() if k not in _STANDARD),
                str(context["build_date_utc"]) if self.reads.dated else "",
            ]
        except Unreadable:
            return None
        return self.cache.page_key(page.url, own, page.content or "")

    def _nav_digest(self, nav: Navigation) -> str:
        if self._nav[0] is not nav:
            homepage = nav.homepage.url if nav.homepage else None
            menu = _nav(nav.items, self.reads.nav_meta, self._own_meta)
            self._nav = (nav, digest([homepage, menu]))
        return self._nav[1]

    def _own_meta(self, page: Page) -> Any:
        """``page``'s front matter as its own: with its own template setting, where ``begin``
        named qbank's for the page's build (until the page is built, or for good when the
        build leaves it out), so that a page's key is the same whatever was built first."""
        meta = page.meta
        if meta.get("template") != TEMPLATE or page.file.src_uri not in self.templates:
            return meta
        own = self.templates[page.file.src_uri]
        meta = {k: v for k, v in meta.items() if k != "template"}
        return meta if own is None else {**meta, "template": own}

    def _pages_digest(self, pages: Any) -> str:
        if self._pages[0] is not pages:
            self._pages = (pages, digest([[f.src_uri, f.url] for f in pages]))
        return self._pages[1]

    def finish(self, output: str, page: Page, final: Callable[[str], str]) -> str:
        """The page's final HTML: the kept one, or ``final(output)`` (then kept)."""
        kept, pending = self._kept, self._pending
        self._kept = self._pending = None
        if kept is not None and kept[0] is page:
            if kept[1] and self.links is not None:
                self.links.wrote(page.file.dest_uri, kept[2], page.file.abs_dest_path or "")
            return kept[1]
        html = final(output)
        if pending is not None and pending[0] is page and self.cache is not None:
            self.cache.put(pending[1], page.url, html)
            if self.links is not None:
                self.links.wrote(page.file.dest_uri, pending[1], page.file.abs_dest_path or "")
        return html

    def end(self) -> str:
        """How many of this build's pages the cache gave (for its "pages built" line)."""
        cache, self.cache = self.cache, None
        links, self.links = self.links, None
        self._nav = self._pages = (None, "")  # (the build's nav is not held after it)
        if cache is None:
            return ""
        count = links.end() if links is not None else 0
        unread = len(self.skipped.paths)  # (left out whole: linked, never read by MkDocs)
        unread_note = f", {unread} unread" if unread else ""
        linked = f" ({count} linked from the last site{unread_note})" if count else ""
        kept = cache.kept + unread
        self.skipped = SkippedPages()
        return f", {kept} of {kept + cache.rendered} from the page cache{linked}"


# Markdown extensions whose HTML is a function of the page's Markdown and settings alone
# (not ``pymdownx.snippets`` or ``pymdownx.b64``: they read other files).
PURE_EXTENSIONS = frozenset(
    {
        *(
            f"{prefix}{name}"
            for prefix in ("", "markdown.extensions.")
            for name in (
                "abbr",
                "admonition",
                "attr_list",
                "codehilite",
                "def_list",
                "extra",
                "fenced_code",
                "footnotes",
                "legacy_attrs",
                "legacy_em",
                "md_in_html",
                "meta",
                "nl2br",
                "sane_lists",
                "smarty",
                "tables",
                "toc",
                "wikilinks",
            )
        ),
        *(
            f"pymdownx.{name}"
            for name in (
                "arithmatex",
                "betterem",
                "caret",
                "critic",
                "details",
                "emoji",
                "escapeall",
                "extra",
                "fancylists",
                "highlight",
                "inlinehilite",
                "keys",
                "magiclink",
                "mark",
                "progressbar",
                "saneheaders",
                "smartsymbols",
                "superfences",
                "tabbed",
                "tasklist",
                "tilde",
                "blocks.admonition",
                "blocks.details",
                "blocks.tab",
                "blocks.html",
                "blocks.definition",
            )
        ),
    }
)


class KeptMarkdown:
    """The converted Markdown of the build running now (``ConvertedPages``): for each page
    qbank generated, ``convert`` (last in ``on_page_markdown``) gives the page a ``render``
    of its own that either sets what MkDocs' ``Page.render`` sets from the cache or runs it
    and keeps the result (unless it logged anything: a kept conversion says nothing, so
    only one that had nothing to say is kept)."""

    def __init__(self) -> None:
        self.cache: ConvertedPages | None = None
        self.said_off = False
        self.skipped = SkippedPages()  # the build's pages left out whole (``KeptPages.skip``)

    def begin(self, store: Store, config: MkDocsConfig, files: Files, allowed: bool) -> None:
        """Start this build's cache of converted Markdown over ``store`` (``allowed``: no
        plugin the page cache does not know), unless an extension could read more than
        the page."""
        self.cache, self.skipped = None, SkippedPages()
        if not store.enabled or not allowed:
            return
        names = [str(e) for e in config.markdown_extensions]
        unknown = sorted(n for n in names if n not in PURE_EXTENSIONS)
        if unknown:
            if not self.said_off:
                report.log.info(
                    f"qbank: converted Markdown is not kept: the extension(s) "
                    f"{', '.join(unknown)} may read more than the page"
                )
                self.said_off = True
            return
        try:
            settings = canonical(
                [
                    names,
                    config.mdx_configs,
                    config.validation,
                    config.use_directory_urls,
                    logging.getLogger("mkdocs").getEffectiveLevel() > logging.DEBUG,
                    [mkdocs.__version__],
                    versions_of("markdown", "pymdown-extensions", "pygments", "mkdocs-material"),
                ],
                _refer,
            )
        except Unreadable:
            return
        self.cache = ConvertedPages(store, digest(settings))

    def convert(self, page: Page) -> None:
        """Give ``page`` (one of qbank's, its Markdown final) its own ``render``."""
        cache, skipped = self.cache, self.skipped
        if cache is None or page.markdown is None:
            return
        # A page's placeholders are numbered across the locale's pages (one question added
        # renumbers every later page's): kept as numbered in the page, in order, from 0.
        markdown, numbers = _runs_from_zero(page.markdown)
        name = cache.key([page.file.src_uri, page.file.dest_uri, page.url], markdown)
        kept = cache.get(name)

        def render(config: MkDocsConfig, files: Files) -> None:
            del page.render  # (the instance's own: the class's again)
            content = None if kept is None else _renumbered(kept.content, numbers)
            if (
                kept is not None
                and content is not None
                and all(
                    _identity(files.get_file_from_path(path), skipped) == found
                    for path, found in kept.lookups
                )
            ):
                cache.kept += 1
                _restore(page, replace(kept, content=content), files)
                return
            heard = _Heard()
            logger = logging.getLogger("mkdocs")
            logger.addHandler(heard)
            looked = _Looked(files, skipped)
            try:
                page.render(config, looked)  # type: ignore[arg-type]
            finally:
                logger.removeHandler(heard)
            content, shown = _runs_from_zero(page.content or "")
            if shown != numbers:
                return  # (not every placeholder a paragraph of its own, as in the page)
            if not heard.records and looked.only_paths:
                cache.put(name, replace(_converted(page, looked.found), content=content))

        page.render = render  # type: ignore[method-assign]

    def keep(self, page: Page) -> None:
        """Count the conversion of ``page``, left out of the build whole (``pageskip``), as
        kept, and keep its entry (for a later build that cannot link the page)."""
        cache = self.cache
        if cache is None or page.markdown is None:
            return
        markdown, _ = _runs_from_zero(page.markdown)
        name = cache.key([page.file.src_uri, page.file.dest_uri, page.url], markdown)
        cache.holds(name)

    def end(self) -> str:
        """How many pages' Markdown came from the cache (for the "pages built" line)."""
        cache, self.cache = self.cache, None
        return "" if cache is None or not cache.kept else f", Markdown of {cache.kept} kept"


def _runs_from_zero(text: str) -> tuple[str, list[str]]:
    """``text`` with its placeholders numbered from 0 in order, and the numbers they had."""
    numbers: list[str] = []

    def number(match: re.Match[str]) -> str:
        numbers.append(match.group(1))
        return PLACEHOLDER.format(len(numbers) - 1)

    return PLACEHOLDER_NUMBER.sub(number, text), numbers


def _renumbered(text: str, numbers: list[str]) -> str | None:
    """``text`` with its placeholders numbered ``numbers`` in order; None when it does not
    hold as many placeholders as that."""
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return PLACEHOLDER.format(numbers[count - 1]) if count <= len(numbers) else ""

    renumbered = PLACEHOLDER_NUMBER.sub(number, text)
    return renumbered if count == len(numbers) else None


def _identity(file: File | None, skipped: SkippedPages) -> list[str] | None:
    """What a link found in a file: where it is and what it is published as (as a build
    that leaves no page out has it)."""
    if file is None:
        return None
    return [file.src_uri, file.dest_uri, file.url, skipped.inclusion(file).name]


class _Looked:
    """The site's files as a page's conversion sees them: every file its links look up by
    path is noted (``found``); anything else it reads of them (``only_paths`` False) makes
    its conversion depend on more than that, and it is not kept."""

    def __init__(self, files: Files, skipped: SkippedPages) -> None:
        self._files = files
        self._skipped = skipped
        self.found: dict[str, list[str] | None] = {}
        self.only_paths = True

    def get_file_from_path(self, path: str) -> File | None:
        file = self._files.get_file_from_path(path)
        self.found[path] = _identity(file, self._skipped)
        return file

    def __getattr__(self, name: str) -> Any:
        self.only_paths = False
        return getattr(self._files, name)

    def __iter__(self) -> Any:
        self.only_paths = False
        return iter(self._files)

    def __len__(self) -> int:
        self.only_paths = False
        return len(self._files)

    def __contains__(self, item: Any) -> bool:
        self.only_paths = False
        return item in self._files


class _Heard(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records = 0

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.INFO:
            self.records += 1


def _toc_data(links: Any) -> list[Any]:
    return [
        [a.title, a.id, a.level, bool(getattr(a, "active", False)), _toc_data(a.children)]
        for a in links
    ]


def _anchors(items: list[Any]) -> list[AnchorLink]:
    out = []
    for title, anchor_id, level, active, children in items:
        link = AnchorLink(title, anchor_id, level)
        if active:
            link.active = True  # type: ignore[attr-defined]  # (as MkDocs' get_toc marks it)
        link.children = _anchors(children)
        out.append(link)
    return out


def _converted(page: Page, found: dict[str, list[str] | None]) -> Converted:
    links = page.links_to_anchors
    return Converted(
        page.content or "",
        _toc_data(page.toc),
        page._title_from_render,
        sorted(page.present_anchor_ids or ()),
        None if links is None else {f.src_uri: dict(a) for f, a in links.items()},
        [[path, file] for path, file in sorted(found.items())],
    )


def _restore(page: Page, kept: Converted, files: Files) -> None:
    """Set on ``page`` what ``Page.render`` sets, from ``kept``."""
    page.content = kept.content
    page.toc = TableOfContents(_anchors(kept.toc))
    page._title_from_render = kept.title
    page.present_anchor_ids = set(kept.anchors)
    if kept.links is not None and logging.getLogger("mkdocs").getEffectiveLevel() > logging.DEBUG:
        found = {src: files.get_file_from_path(src) for src in kept.links}
        page.links_to_anchors = {f: kept.links[src] for src, f in found.items() if f is not None}
