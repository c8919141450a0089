"""The generated pages in MkDocs: the files a locale's build adds (``File.generated``, never
written into a watched folder), and the runs of questions put into a page's HTML where their
placeholders are (Markdown never parses question HTML or headings)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from html import escape
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files, InclusionLevel, file_sort_key
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import AnchorLink
from mkdocs.utils import nest_paths

from qbank.plugin import internals
from qbank.plugin.config import Shared
from qbank.plugin.logfilters import filter_pages_built_elsewhere
from qbank.site.minify import asset_bytes
from qbank.site.parts import is_part_page
from qbank.site.render import HTML_BLOCK_DIGEST, PLACEHOLDER, Slot, page_paths
from qbank.site.strings import strings_for
from qbank.site.theme import ASSETS, LAZY_ASSETS

_HEADING_OR_PLACEHOLDER = re.compile(
    r'<h[1-6] id="(?P<heading_id>[^"]+)"|<p>'
    + re.escape(PLACEHOLDER).replace(r"\{\}", r"(?P<block>\d+)")
    + "</p>"
)


def _add(files: Files, file: File) -> None:
    existing = files.get_file_from_path(file.src_uri)
    if existing is not None:
        files.remove(existing)
    files.append(file)


def add_pages(
    files: Files, config: MkDocsConfig, shared: Shared, page_size: int, *, root: bool
) -> None:
    """Add ``shared.locale``'s pages (and with ``root`` the site's root page), its data files
    and the assets; other locales' pages only as link targets (built by their own builds)."""
    locale, site, bank = shared.locale, shared.site, shared.bank
    keep_hand_written(files, config, shared, root=root)
    for path, markdown in site.pages.items():
        if is_part_page(path) and path.startswith(f"{locale}/"):
            inclusion = InclusionLevel.NOT_IN_NAV  # a topic's later part: reached by its pager
        elif path == "index.md" and root:
            inclusion = InclusionLevel.NOT_IN_NAV  # the language choice: the site's root only
        elif path.startswith(f"{locale}/"):
            inclusion = InclusionLevel.UNDEFINED
        else:
            inclusion = InclusionLevel.EXCLUDED
        _add(files, File.generated(config, path, content=markdown, inclusion=inclusion))
    excluded = InclusionLevel.EXCLUDED
    for other in bank.catalog.locales:
        for path in page_paths(bank, other, page_size) if other not in site.nav else ():
            _add(files, File.generated(config, path, content="", inclusion=excluded))
    for path, data in site.files.items():
        if path.split("/")[0] not in site.nav or path.startswith(f"{locale}/"):
            _add(files, File.generated(config, path, content=data))
    for asset in (*ASSETS, *LAZY_ASSETS):
        _add(files, File.generated(config, asset, content=asset_bytes(asset)))
    if config.plugins.get("material/tags") is not None:
        # The tags index of this locale: Material lists every tag with its topic pages.
        title = strings_for(locale)["tags"]
        index = f"---\ntitle: {title}\n---\n# {title}\n\n<!-- material/tags -->\n"
        tags = File.generated(
            config, f"{locale}/tags.md", content=index, inclusion=InclusionLevel.NOT_IN_NAV
        )
        _add(files, tags)


def keep_hand_written(files: Files, config: MkDocsConfig, shared: Shared, *, root: bool) -> None:
    """The maintainer's own pages in ``docs_dir``: in the menu after qbank's pages (MkDocs'
    order, unless the maintainer's own ``nav`` lists them), built once, by the build MkDocs
    started (``root``); another locale's build links to them."""
    own = [
        f
        for f in sorted(files.documentation_pages(), key=file_sort_key)
        if f.generated_by is None
        and f.src_uri not in shared.site.pages  # (qbank's page of that name replaces it)
        and f.inclusion.is_included()  # type: ignore[no-untyped-call]
    ]
    if internals.user_value(config, "nav") is None:
        listed = [f.src_uri for f in own if f.inclusion.is_in_nav()]  # type: ignore[no-untyped-call]
        config.nav = [*(config.nav or []), *nest_paths(listed)]  # type: ignore[no-untyped-call]
    if not root:
        for file in own:
            file.inclusion = InclusionLevel.EXCLUDED
    filter_pages_built_elsewhere(frozenset() if root else frozenset(f.src_uri for f in own))


def title_pages_built_elsewhere(nav: Navigation, config: MkDocsConfig) -> None:
    """A hand-written page in another locale's build is not read there (the default
    locale's build makes it): read its source for the menu's title (front matter or first
    heading), which MkDocs takes from the text it has not read."""
    for page in nav.pages:
        file = page.file
        if file.generated_by is None and file.inclusion.is_excluded() and page.markdown is None:  # type: ignore[no-untyped-call]
            page.read_source(config)


def _flat(links: Any) -> Iterator[Any]:
    """Every anchor of a table of contents, depth first."""
    for link in links:
        yield link
        yield from _flat(link.children)


_HTML_PARAGRAPH = re.compile(f"<p>{HTML_BLOCK_DIGEST.pattern}</p>")


def insert_html(html: str, kept: Mapping[str, str]) -> str:
    """Put each HTML block (``RenderedSite.html``) where the paragraph naming it is (text
    that only looks like one, in a catalog name, stays as it is)."""
    return _HTML_PARAGRAPH.sub(lambda m: kept.get(m.group(1), m.group(0)), html)


BODY = "<!--qbank:body-->"
"""Where a question's HTML goes once the page is rendered (``insert_questions``'s
``deferred``); qbank's pages hold no other comment of this text (a catalog name is
escaped)."""


def fill_bodies(html: str, slots: Sequence[Slot]) -> str:
    """``html`` with the question HTML of ``slots`` in its ``BODY`` marks, in order."""
    parts = html.split(BODY)
    if len(parts) != len(slots) + 1:
        raise AssertionError(f"{len(parts) - 1} question marks for {len(slots)} questions")
    out = [parts[0]]
    for slot, after in zip(slots, parts[1:], strict=True):
        out += (slot.html, after)
    return "".join(out)


def insert_questions(
    html: str,
    page: Page,
    config: MkDocsConfig,
    blocks: Sequence[tuple[Slot, ...]],
    deferred: list[Slot] | None = None,
) -> str:
    """Put each run of questions where its placeholder is: headings written as the toc
    extension would (permalink included), and added to ``page.toc`` under the heading that
    precedes the run. With ``deferred``, each question's HTML is a ``BODY`` mark and its
    slot goes to ``deferred`` (``fill_bodies`` puts the HTML in)."""
    toc_config = config.mdx_configs.get("toc", {})
    permalink = toc_config.get("permalink", False)
    symbol = "&para;" if permalink is True else str(permalink) if permalink else ""
    link_title = escape(str(toc_config.get("permalink_title", "Permanent link")))
    link_class = escape(str(toc_config.get("permalink_class", "headerlink")))
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
            title = slot.title_html or escape(slot.title)  # inline code kept as code
            link = (
                f'<a class="{link_class}" href="#{slot.anchor}" title="{link_title}">{symbol}</a>'
                if symbol
                else ""
            )
            if deferred is not None:
                deferred.append(slot)
            body = BODY if deferred is not None else slot.html
            out.append(f'<h{slot.level} id="{slot.anchor}">{title}{link}</h{slot.level}>\n{body}\n')
            item = AnchorLink(escape(slot.title), slot.anchor, slot.level)
            (parent.children if parent is not None else page.toc.items).append(item)
    out.append(html[at:])
    return "".join(out)
