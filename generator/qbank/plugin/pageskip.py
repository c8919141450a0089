"""Pages a warm ``mkdocs build`` leaves out of MkDocs' page build whole (``SkippedPages``).

The page cache (``pagecache.py``) keys a page by its context, so MkDocs must still read,
convert and render every page up to ``on_page_context`` before the cache links it from the
last site: at 30,000 questions x 3 locales 2-2.7 s a locale for the 1,360 of 1,400 pages
a pull request leaves as they were. Each page qbank generated has a signature instead,
made before MkDocs reads any page (``on_nav``), of everything its HTML is made of:

- the build's digest (``pagecache.build_digest``: settings, plugins, theme and its
  templates, interface strings, versions);
- what its menu, links and neighbours can show of the other pages: the nav's titles and
  addresses with the front-matter keys the templates read of other pages, the source and
  site path of every file qbank does not generate (its pages are linked only from its
  pages, whose Markdown names them), every hand-written page's Markdown;
- its own Markdown and questions (``Slot``: heading and inputs, as the page cache reads
  them).

Where the last build made the page from the same signature and the published site still
holds the file it wrote (``live.sitelinks.LastSite``), the page's file is a hard link to it
and MkDocs never reads or renders it: it is ``EXCLUDED`` once the nav is made, so it stays
in the menu. Its source is read (its front matter) for the other pages' menus, and the
static templates (``sitemap.xml``) list it as a build that renders it does.

Off (every page goes through MkDocs) when a plugin other than qbank's is on (Material's
search counts as none: qbank turns it off), or the templates read the list of pages or
the build's date, or under ``mkdocs serve`` (its rebuilds skip pages their own way).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation, Section
from mkdocs.structure.pages import Page
from mkdocs.utils.meta import get_data

from qbank.live.pagecache import Reads, canonical, digest
from qbank.site.render import RenderedSite, page_runs

# Plugins that do nothing to a page MkDocs does not read (Material's search is turned off)
ALLOWED_PLUGINS = frozenset({"qbank", "search", "material/search"})


def skippable(config: MkDocsConfig, reads: Reads) -> bool:
    """Whether this build may leave pages out whole."""
    return set(config.plugins) <= ALLOWED_PLUGINS and not reads.pages and not reads.dated


def whole_signature(build: str, nav: Navigation, files: Files, reads: Reads) -> str:
    """What every page's HTML may show of the others (``build``: the build's digest): the
    nav, and every file but those qbank generates (every locale's pages, data files and
    assets: a page of qbank's is linked only from pages of qbank's, whose Markdown then
    names it, so a topic's new part changes its topic's pages, not every page's signature;
    where it sits follows from its path) with every hand-written page's Markdown. (The
    build allows no plugin but qbank's: a generated file is qbank's.)"""
    listed = [[f.src_uri, f.dest_uri, f.url, f.inclusion.value] for f in files if not _made(f)]
    own = [
        [f.src_uri, f.content_string]
        for f in files.documentation_pages(inclusion=lambda _: True)
        if not _made(f)
    ]
    homepage = nav.homepage.url if nav.homepage else None
    return digest([build, homepage, _menu(nav.items, reads.nav_meta), listed, own])


def _made(file: File) -> bool:
    """Whether a plugin made ``file`` (``File.generated_by``)."""
    return file.generated_by is not None


def _menu(items: Iterable[Any], keys: frozenset[str] | None) -> list[Any]:
    """The nav before any page is read: each page's title (where the nav gives none, the
    one its front matter gives, else its Markdown: its heading names it) and the front
    matter ``keys`` the templates read of other pages (None: all of it)."""
    out: list[Any] = []
    for item in items:
        if isinstance(item, Page):
            source = item.file.content_string
            _, front = get_data(source)
            title = item.title  # (None: the page names itself, by its front matter first)
            named = "" if title is not None else front.get("title", source)
            if keys is not None:
                front = {"": bool(front), **{k: front[k] for k in keys if k in front}}
            out.append(["page", title, item.url, item.file.src_uri, canonical(front), named])
        elif isinstance(item, Section):
            out.append(["section", item.title, _menu(item.children, keys)])
        else:
            out.append(["link", item.title, item.url])
    return out


def page_signature(whole: str, file: File, site: RenderedSite) -> str | None:
    """The signature of the generated page ``file`` (None: a question of it has no inputs
    to read, and the page is never skipped)."""
    markdown, runs = page_runs(site, site.pages[file.src_uri])
    questions = []
    for run in runs:
        for slot in run:
            if slot.made_of is None:
                return None
            heading = [slot.level, slot.anchor, slot.title, slot.title_html, slot.markdown]
            questions.append([*heading, slot.locale, slot.inputs])
    return digest([whole, file.src_uri, file.dest_uri, file.url, markdown, questions])


class SkippedPages:
    """The pages the build running now leaves out of MkDocs' page build, by source path
    (one build at a time: a nested locale build begins after its parent's pages are
    written)."""

    def __init__(self, files: Files | None = None) -> None:
        self.files = files  # (the build's)
        self.paths: set[str] = set()
        self.was: dict[str, InclusionLevel] = {}  # source path → its inclusion before

    def leave_out(self, files: Iterable[File], config: MkDocsConfig) -> list[Page]:
        """Take ``files`` out of MkDocs' page build (they stay in the nav); their pages, each
        read as MkDocs reads a page's source (the menu of the other pages shows their front
        matter), for the caller to give what the rest of the build reads of them."""
        pages = []
        for file in files:
            page = file.page if file.page is not None else Page(None, file, config)
            self.was[file.src_uri] = file.inclusion
            file.inclusion = InclusionLevel.EXCLUDED
            page.read_source(config)
            self.paths.add(file.src_uri)
            pages.append(page)
        return pages

    def inclusion(self, file: File) -> InclusionLevel:
        """``file``'s inclusion as a build that renders every page has it (what a page's
        converted Markdown notes of the files its links found, and must find again)."""
        return self.was.get(file.src_uri, file.inclusion)

    def listed(self) -> list[File]:
        """Every page the build writes, those left out included, as MkDocs lists them to the
        static templates (``get_context``'s ``pages``: ``sitemap.xml`` names them)."""
        paths = self.paths
        return [
            f
            for f in self.files or ()
            if f.is_documentation_page() and (f.inclusion.is_included() or f.src_uri in paths)  # type: ignore[no-untyped-call]
        ]
