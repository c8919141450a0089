"""The build script's output: a publisher-neutral docs tree of the bank (``qbank build``).

Any publisher that reads ``mkdocs.yml`` and runs no qbank plugin (MkDocs 1.6 with Material,
ProperDocs, Zensical) publishes it. The folder ``out`` holds::

    mkdocs.yml     the user's config (read, not imported) with the nav, the theme settings,
                   the assets and qbank's settings; no qbank plugin, no built-in search
    docs/          every locale's pages (each question's Markdown heading, then its HTML:
                   ``render_site``'s placeholders filled in as each page is written), the
                   images, the practice and JSON API
                   files, each locale's search index and sitemap, and the assets
    overrides/     the theme overrides (``site_templates/overrides``) and a language partial
                   that gives each page its locale's language (one build holds every locale)
    site/          where the publisher writes the site (``site_dir``; Zensical requires it
                   inside the config's folder)

Never imports MkDocs. Writing is deterministic and rewrites only the files whose bytes
changed; files of ``docs/`` and ``overrides/`` that the bank no longer makes are removed.
A one-off build renders, writes and lets go one locale after the other (``qbank.site.memory``:
holding every locale's pages at once would multiply the peak by the locales); ``--watch``
keeps the whole site for the next edit, in the site session ``mkdocs serve`` keeps too
(``qbank.live.session``: what changed, which pages and data files to write, the search
documents).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

import yaml

from qbank.bank.load import gc_paused, load_bank
from qbank.bank.loaded import Bank
from qbank.bank.problems import ContentError, Problem, display_path
from qbank.bank.progress import Report, no_progress
from qbank.live.checkcache import StoredChecks
from qbank.live.headingcache import stored_headings
from qbank.live.index import LiveIndex
from qbank.live.indexcache import stored_index
from qbank.live.markupcache import stored_markup
from qbank.live.matchcache import stored_terms
from qbank.live.pagecache import SERVED
from qbank.live.session import SiteSession
from qbank.live.store import DEFAULT_DIR, Store
from qbank.search import INDEX_DIR
from qbank.site.memory import releasing
from qbank.site.minify import asset_bytes
from qbank.site.offline import (
    MANIFEST_DIR,
    PAGE_SCRIPT,
    WORKER,
    is_offline_file,
    write_site_offline,
)
from qbank.site.output import replace_file
from qbank.site.parts import DEFAULT_PAGE_SIZE, SEPARATOR, question_url
from qbank.site.render import (
    RenderedSite,
    RenderOptions,
    render_site,
    without_placeholders,
)
from qbank.site.sitemaps import locale_sitemap
from qbank.site.strings import strings_asset, strings_for
from qbank.site.templates import TEMPLATES
from qbank.site.theme import (
    ASSETS,
    LAZY_ASSETS,
    branch_of,
    escaped_nav,
    link_options,
    material_language,
    site_settings,
)

CONFIG = "mkdocs.yml"
DOCS = "docs"
OVERRIDES = "overrides"
SITE = "site"
DEFAULT_OUT = Path("build/publish")
# Plugins the tree leaves out of the config: qbank itself (the tree is its output), the
# built-in search (qbank writes its own index) and tags (one build holds every locale, so a
# tags index would mix them).
_DROPPED_PLUGINS = {"qbank", "search", "material/search", "tags", "material/tags"}
# Page actions pointing into the repository at the page's file: a tree page has none there
# (Zensical makes an edit link even from an empty edit_uri; the features hide it).
_EDIT_FEATURES = {"content.action.edit", "content.action.view"}
NOT_IN_NAV = f"**/*{SEPARATOR}*/index.md"  # every part of a topic after the first
_TITLE = re.compile(r'\A(---\ntitle: ")([^"\n]*)(")', re.MULTILINE)

LANGUAGE_PARTIAL = """\
{#- Written by `qbank build`: the language of the page's locale (the first segment of its
    URL), so that one build of every locale speaks each page's language; other pages
    keep theme.language. A key the theme's language file lacks (Zensical's newer ones) is
    read from qbank's strings (widget.material) before English. -#}
{% set url = page.url if page is defined and page and page.url else "" %}
{% set ns = namespace(language=config.theme.language | d("en", true)) %}
{% for locale, code in (config.extra.qbank_languages or {}) | items %}
  {% if url[:locale | length + 1] == locale ~ "/" %}{% set ns.language = code %}{% endif %}
{% endfor %}
{% import "partials/languages/" ~ ns.language ~ ".html" as lang %}
{% import "partials/languages/en.html" as fallback %}
{% import "partials/qbank-text.html" as qbank with context %}
{% set own = qbank.text.material or {} %}
{% macro t(key) %}{{ lang.t(key) or own[key] or fallback.t(key) or key }}{% endmacro %}
"""


class Tagged:
    """A YAML value under a tag the tree keeps as written (``!ENV``, ``!!python/name:``)."""

    def __init__(self, tag: str, node: yaml.Node) -> None:
        self.tag, self.node = tag, node


class _Reader(yaml.SafeLoader):
    """Reads the user's mkdocs.yml without running any of its tags."""


def _keep_tag(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Tagged:
    return Tagged(node.tag, node)


_Reader.add_multi_constructor("!", _keep_tag)
_Reader.add_multi_constructor("tag:yaml.org,2002:python/", _keep_tag)


class _Writer(yaml.SafeDumper):
    """Writes the tree's config, tagged values back as they were read."""


_Writer.add_representer(Tagged, lambda dumper, value: value.node)


def read_user_config(path: Path) -> dict[str, Any]:
    """The user's mkdocs.yml as data (its tags kept, not run); {} when there is none."""
    if not path.is_file():
        return {}
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_Reader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = Problem(display_path(path), line, col, "", str(error.problem), "valid YAML")
        raise ContentError([problem]) from None
    if data is not None and not isinstance(data, dict):
        problem = Problem(display_path(path), 1, 1, "", "not a mapping", "mkdocs.yml settings")
        raise ContentError([problem])
    return data or {}


def _name(item: Any) -> str:
    """A plugin's or Markdown extension's name in a config list (a string or a 1-key map)."""
    return str(next(iter(item))) if isinstance(item, dict) and item else str(item)


def _qbank_settings(user: dict[str, Any]) -> dict[str, Any]:
    """The qbank plugin's settings in the user's mkdocs.yml (empty when it has none)."""
    plugins = user.get("plugins") or []
    items = [{k: v} for k, v in plugins.items()] if isinstance(plugins, dict) else plugins
    found = next((item for item in items if _name(item) == "qbank"), None)
    settings = found.get("qbank") if isinstance(found, dict) else None
    return settings if isinstance(settings, dict) else {}


def offline_of(user: dict[str, Any]) -> bool:
    """Whether the tree ships the service worker (the qbank plugin's ``offline``)."""
    return _qbank_settings(user).get("offline", True) is not False


def _offline_file(path: str) -> bool:
    """A tree path ``_offline`` writes (``sync`` leaves it for that)."""
    return path.startswith(f"{DOCS}/") and is_offline_file(path[len(DOCS) + 1 :])


def bank_json_of(user: dict[str, Any]) -> bool:
    """Whether the tree carries ``<locale>/api/bank.json`` (the qbank plugin's ``bank_json``)."""
    return _qbank_settings(user).get("bank_json", False) is True


def page_size_of(user: dict[str, Any], path: Path) -> int:
    """The ``page_size`` of the qbank plugin's settings in the user's mkdocs.yml (read
    as the plugin reads it: at most that many questions on a topic page, 0 for no limit)."""
    value = _qbank_settings(user).get("page_size", DEFAULT_PAGE_SIZE)
    if value is None:
        return DEFAULT_PAGE_SIZE
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
        rows = enumerate(text.splitlines(), 1)
        line = next((n for n, row in rows if row.strip().startswith("page_size:")), 1)
        problem = Problem(
            display_path(path),
            line,
            1,
            "plugins.qbank.page_size",
            f"{value!r} is not a number of questions",
            "a whole number, 0 or more (0: no limit)",
        )
        raise ContentError([problem])
    return value


def _with_required_extensions(extensions: Any, required: Iterable[str]) -> list[Any]:
    items = list(extensions) if isinstance(extensions, list) else []
    if isinstance(extensions, dict):
        items = [{k: v} if v else k for k, v in extensions.items()]
    names = {_name(item) for item in items}
    items += [name for name in required if name not in names]
    out: list[Any] = []
    for item in items:
        if _name(item) == "toc":
            settings = dict(item["toc"] or {}) if isinstance(item, dict) else {}
            settings.setdefault("permalink", True)
            item = {"toc": settings}
        out.append(item)
    return out


def tree_config(
    user: dict[str, Any], bank: Bank, site: RenderedSite, own_pages: Iterable[str] = ()
) -> dict[str, Any]:
    """The tree's mkdocs.yml: the user's settings, and what the plugin would set. The
    user's own ``nav`` (or else ``own_pages``, the hand-written pages) follows qbank's."""
    catalog = bank.catalog
    default = catalog.default_locale
    # (the publisher's theme bundle is its own: only qbank.js is fetched from the head)
    settings = site_settings(bank, default, ())
    config = {k: v for k, v in user.items() if k not in ("INHERIT", "hooks", "nav")}
    config["site_name"] = escape(site.titles[default])
    config["docs_dir"] = DOCS
    config["site_dir"] = SITE
    # The tree's files are not in the repository: no page edit button (each question keeps
    # its edit link, made from the user's repo_url and edit_uri); see _EDIT_FEATURES.
    config["edit_uri"] = ""
    # One build holds every locale: the nav lists each under its language's name.
    nav: list[Any] = ["index.md"]
    nav += [{strings_for(loc)["language_name"]: site.nav[loc]} for loc in catalog.locales]
    own_nav = user.get("nav")
    config["nav"] = [*escaped_nav(nav), *(own_nav if isinstance(own_nav, list) else own_pages)]
    # A big topic's parts (``qbank.site.parts``) are pages outside the nav: Zensical builds those
    # only when not_in_nav names them.
    own = str(user.get("not_in_nav") or "").strip()
    config["not_in_nav"] = "\n".join(filter(None, (own, NOT_IN_NAV))) + "\n"
    theme = user.get("theme")
    theme = dict(theme) if isinstance(theme, dict) else {"name": theme or "material"}
    if theme.get("custom_dir"):  # the tree's overrides take its place
        theme.pop("custom_dir")
    theme.update(custom_dir=OVERRIDES, language=material_language(default), font=False)
    theme.setdefault("palette", settings.palette)
    features = theme.get("features") or settings.features
    theme["features"] = [f for f in features if f not in _EDIT_FEATURES]
    config["theme"] = theme
    plugins = user.get("plugins") or []
    if isinstance(plugins, dict):
        plugins = [{k: v} if v else k for k, v in plugins.items()]
    config["plugins"] = [p for p in plugins if _name(p) not in _DROPPED_PLUGINS]
    config["markdown_extensions"] = _with_required_extensions(
        user.get("markdown_extensions"), settings.extensions
    )
    kept = [item for item in user.get("extra_css") or [] if str(item) not in ASSETS]
    config["extra_css"] = kept + list(settings.stylesheets)
    # The scripts are modules: a plain <script> of one (a site's own listing) would not run.
    scripts = user.get("extra_javascript") or []
    kept = [
        item
        for item in scripts
        if (item.get("path") if isinstance(item, dict) else item) not in settings.scripts
    ]
    config["extra_javascript"] = [*kept, *({"path": s, "type": "module"} for s in settings.scripts)]
    if offline_of(user):  # (the page side of the service worker, an ES module)
        config["extra_javascript"].append({"path": PAGE_SCRIPT, "type": "module"})
    # The plugin's settings of the default locale's build, and what one build of every
    # locale needs besides: each locale's strings, site name and language.
    shared = settings.extra
    extra = dict(user.get("extra") or {})
    for key in ("qbank_locale", "qbank_strings", "qbank_strings_asset", "qbank_preload"):
        extra[key] = shared[key]
    extra["qbank_locale_strings"] = {loc: strings_for(loc)["widget"] for loc in catalog.locales}
    extra["qbank_strings_assets"] = {loc: strings_asset(loc) for loc in catalog.locales}
    extra["qbank_site_names"] = {loc: escape(site.titles[loc]) for loc in catalog.locales}
    extra["qbank_search"] = shared["qbank_search"]
    extra["qbank_languages"] = {loc: material_language(loc) for loc in catalog.locales}
    extra["alternate"] = shared["alternate"]
    config["extra"] = extra
    return config


def _tree_options(options: RenderOptions) -> RenderOptions:
    return dataclasses.replace(options, placeholders=True, defer_files=True, locales=())


def _escape_title(markdown: str) -> str:
    """A page's front-matter title HTML-escaped (a catalog name: Material does not escape it)."""
    return _TITLE.sub(lambda m: m.group(1) + escape(m.group(2), quote=False) + m.group(3), markdown)


def _search_files(
    bank: Bank, locale: str, page_size: int, store: Store
) -> Iterator[tuple[str, bytes]]:
    """A locale's search index (``search.index_files``), as tree files; the postings of
    unchanged topics from ``store``."""
    with gc_paused():  # (millions of objects made, no cycle among them)
        index = stored_index(store, bank, locale, question_url(bank, page_size))
    for relative, data in index.files():
        yield f"{DOCS}/{locale}/{INDEX_DIR}/{relative}", data


def _data_files(
    bank: Bank,
    site: RenderedSite,
    locale: str,
    fields: Collection[str] | None,
    search: bool,
    store: Store,
) -> Iterator[tuple[str, bytes]]:
    """A locale's practice and JSON API files (``fields``: the practice files of those
    fields only) and (``search``) its search index, as tree files. (A function of its own:
    nothing of the renderer that made them outlives it, so ``releasing`` lets that go.)"""
    produce = site.deferred.get(locale)
    limits = {} if fields is None else {"fields": fields}
    for path, chunks in produce(**limits) if produce else ():
        yield f"{DOCS}/{path}", b"".join(chunks)
    if search:
        yield from _search_files(bank, locale, site.page_size, store)


def tree_files(
    bank: Bank,
    sites: Iterable[RenderedSite],
    user: dict[str, Any],
    fields: Collection[str] | None = None,
    own_docs: Path | None = None,
    locales: Collection[str] | None = None,
    *,
    release: bool = False,
    search: bool = True,
    store: Store | None = None,
) -> Iterator[tuple[str, bytes]]:
    """Every file of the tree but the site: (path relative to ``out``, bytes). ``sites`` are
    the rendered sites, with placeholders (one of every locale, or one per locale: with
    ``release`` each is let go once written, ``qbank.site.memory``, before the next is asked
    for); the config comes last, from all their navs. With ``fields``, of the practice files
    only those of these fields; with ``locales``, the JSON API, practice files and search
    index of those locales only; without ``search``, no search index (``TreeBuilder`` with
    ``keep`` keeps it up to date itself); its documents from ``store`` where they hold. The
    files of ``own_docs`` (the user's docs_dir: hand-written pages) come along where the bank
    makes no file. With ``fields``, the pages of other fields are not made either
    (``untouched_field_page`` keeps them)."""
    made: set[str] = set()
    whole = RenderedSite()  # every locale's nav and title, for the config
    site_url = str(user.get("site_url") or "")
    for site in sites:
        whole.nav.update(site.nav)
        whole.titles.update(site.titles)
        for path in sorted(site.pages.keys() - made):  # (each locale's render makes index.md)
            if fields is not None and _field_page(bank, path) not in (None, *fields):
                continue  # an edit elsewhere: this field's pages are as written (``sync`` keeps)
            page = without_placeholders(site, site.pages[path])
            yield f"{DOCS}/{path}", _escape_title(page).encode()
        for path in sorted(site.files.keys() - made):
            yield f"{DOCS}/{path}", site.files[path]
        made.update(site.pages, site.files)
        with releasing(site) if release else contextlib.nullcontext():
            for locale in (loc for loc in bank.catalog.locales if loc in site.nav):
                sitemap = locale_sitemap(bank, locale, site_url, page_size=site.page_size)
                yield f"{DOCS}/{locale}/sitemap.xml", sitemap.encode()
                if locales is None or locale in locales:
                    yield from _data_files(bank, site, locale, fields, search, store or Store(None))
    made.update(ASSETS, LAZY_ASSETS)
    own: dict[str, Path] = {}  # the hand-written files, by their path in the docs folder
    if own_docs is not None and own_docs.is_dir():
        for found in sorted(own_docs.rglob("*")):
            relative = found.relative_to(own_docs).as_posix()
            if found.is_file() and relative not in made and not relative.startswith("."):
                own[relative] = found
    pages = [relative for relative in own if relative.endswith(".md")]
    yield CONFIG, _config_text(tree_config(user, bank, whole, pages)).encode()
    for relative, found in own.items():
        yield f"{DOCS}/{relative}", found.read_bytes()
    for asset in (*ASSETS, *LAZY_ASSETS):
        yield f"{DOCS}/{asset}", asset_bytes(asset)
    overrides = TEMPLATES / "overrides"
    for found in sorted(overrides.rglob("*")):
        if found.is_file():
            yield f"{OVERRIDES}/{found.relative_to(overrides).as_posix()}", found.read_bytes()
    yield f"{OVERRIDES}/partials/language.html", LANGUAGE_PARTIAL.encode()


def _field_page(bank: Bank, path: str) -> str | None:
    """The field whose folder holds the page at ``path`` (``<locale>/<field>/…``), if any."""
    parts = path.split("/", 2)
    return parts[1] if len(parts) == 3 and parts[1] in bank.catalog.fields else None


def _config_text(config: dict[str, Any]) -> str:
    head = (
        "# Written by `qbank build` from the bank and the mkdocs.yml beside it: do not edit\n"
        "# (edit that file or the bank, then run `qbank build` again).\n"
    )
    body = yaml.dump(config, Dumper=_Writer, allow_unicode=True, sort_keys=False, width=100)
    return head + body


@dataclass
class TreeReport:
    """What a write of the tree did."""

    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    removed: list[str] = field(default_factory=list)


def sync(
    out: Path, files: Iterable[tuple[str, bytes]], keep: Callable[[str], bool] = lambda _: False
) -> TreeReport:
    """Write ``files`` under ``out``, each only when its bytes changed (under a temporary
    name first); remove the files of ``docs/`` and ``overrides/`` neither among them nor
    kept by ``keep(path)``."""
    report = TreeReport()
    seen: set[str] = set()
    for relative, data in files:
        seen.add(relative)
        target = out / relative
        try:
            if target.stat().st_size == len(data) and target.read_bytes() == data:
                report.unchanged += 1
                continue
        except OSError:
            pass
        target.parent.mkdir(parents=True, exist_ok=True)
        replace_file(target, data)
        report.written.append(relative)
    for folder in (DOCS, OVERRIDES):
        for path in sorted((out / folder).rglob("*"), reverse=True):
            relative = path.relative_to(out).as_posix()
            if path.is_file() and relative not in seen and not keep(relative):
                path.unlink()
                report.removed.append(relative)
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()
    return report


@dataclass
class TreeBuilder:
    """Writes the tree of the bank at ``content`` into ``out``; kept across builds (``qbank
    build --watch``), it reloads only changed question files and renders again only the
    pages that show changed questions (``load_bank`` with a ``BankCache``, ``update_site``)."""

    content: Path
    out: Path
    config_file: Path
    report_template: str = "question-problem.yml"
    keep: bool = False  # keep the site and bodies across builds (``--watch``)
    # What the builds keep for the next one, as under ``mkdocs serve`` (``qbank.live.session``)
    session: SiteSession = field(default_factory=SiteSession)
    index: LiveIndex | None = None  # with ``keep``: the search index, updated in place
    # The persistent cache a one-off build loads through (``qbank.live.store``): this
    # folder, else ``cache_dir`` of the qbank settings in ``config_file``, else the default
    # beside it; ``cache=False`` (``--no-cache``, or ``cache: false`` there) uses none.
    cache: bool = True
    cache_dir: Path | None = None

    def options(self, user: dict[str, Any]) -> RenderOptions:
        """Edit and report links as the plugin makes them from the same config."""
        config_dir = self.config_file.resolve().parent
        content_root = self.content.resolve()
        relative = os.path.relpath(content_root, config_dir).replace(os.sep, "/")
        path = content_root.name if relative.startswith("..") else relative
        edit_uri = str(user.get("edit_uri") or "")
        options = link_options(
            str(user.get("repo_url") or ""),
            edit_uri,
            Path(str(user.get("docs_dir") or "docs")).name,
            path,
            branch_of(edit_uri, "main"),
            self.report_template,
        )
        return dataclasses.replace(
            options, page_size=page_size_of(user, self.config_file), bank_json=bank_json_of(user)
        )

    def build(self, progress: Report = no_progress) -> TreeReport:
        """Load, render and write the tree; raises ``ContentError`` (nothing written) when
        the bank has errors. ``progress`` hears of the load's phases and of each locale
        written. Without ``keep``, one locale is rendered, written and let go after the
        other; with it, every locale's site and question bodies are kept for the next build."""
        session = self.session
        session.begin()  # (a site template or string edited: every page rendered again)
        user = read_user_config(self.config_file)
        # the persistent cache: every one-off build, and the first of a session that keeps
        # its work (``--watch``), whose later builds keep what they need in memory
        first = session.bank is None
        store = self.store(user) if first or not self.keep else Store(None)
        if self.keep:
            bank = session.load(self.content, progress, store)
        elif store.enabled:
            bank = load_bank(self.content, StoredChecks(store), progress)
        else:
            bank = session.load(self.content, progress)
        options = _tree_options(self.options(user))
        own = self.config_file.resolve().parent / str(user.get("docs_dir") or "docs")
        self.out.mkdir(parents=True, exist_ok=True)
        offline = offline_of(user)
        if not self.keep:
            report = sync(
                self.out,
                tree_files(
                    bank,
                    _by_locale(bank, options, progress, store),
                    user,
                    own_docs=own,
                    release=True,
                    store=store,
                ),
                _offline_file,
            )
            self._offline(bank, offline)
            store.prune(spare=(SERVED,))  # what this build did not use (serve's pages kept)
            return report
        rendered = session.render(bank, options, store)
        site, fields = rendered.site, rendered.fields
        # After an edit: the data files (JSON API, practice) of the locales the session
        # names, of their practice files those of the fields touched; the others stay; so
        # do the pages of the fields no edit touched.
        locales = rendered.locales

        def untouched(path: str) -> bool:  # docs/<locale>/api/…, …/practice/<field>/<level>
            parts = path.split("/")
            other_field = fields is not None and len(parts) >= 4 and parts[2] not in fields
            if other_field and _field_page(bank, "/".join(parts[1:])) is not None:
                return True  # a field no edit touched: tree_files made none of its pages
            if len(parts) < 4 or parts[2] != "api":
                return False
            if "/".join(parts[2:]).startswith(f"{INDEX_DIR}/"):
                return True  # the search index: self.index keeps it
            if fields is None or locales is None:
                return False  # every data file was written
            practice = len(parts) > 5 and parts[3] == "practice" and parts[4] not in fields
            return parts[1] not in locales or practice

        # the first build of a session writes the index from the persistent cache, as a
        # one-off build does; ``self.index`` keeps it up to date after that
        cached_index = self.index is None and store.enabled
        files = tree_files(
            bank, [site], user, fields, own, locales, search=cached_index, store=store
        )
        report = sync(self.out, files, lambda path: untouched(path) or _offline_file(path))
        session.published(bank, site, options)
        report.written += self._index(bank, options.page_size, written=cached_index)
        self._offline(bank, offline)
        return report

    def store(self, user: dict[str, Any]) -> Store:
        """The persistent cache of a one-off build (see ``cache``)."""
        settings = _qbank_settings(user)
        if not self.cache or settings.get("cache") is False:
            return Store(None)
        folder = self.cache_dir
        if folder is None:
            folder = self.config_file.resolve().parent / str(
                settings.get("cache_dir") or DEFAULT_DIR
            )
        return Store(folder)

    def _offline(self, bank: Bank, offline: bool) -> None:
        """The service worker and field manifests of the tree (``qbank.site.offline``), or none."""
        docs = self.out / DOCS
        if offline:
            write_site_offline(docs, bank, (*ASSETS, *LAZY_ASSETS), tree=True)
            return
        for path in [docs / WORKER, *docs.glob(f"*/{MANIFEST_DIR}/*.json")]:
            path.unlink(missing_ok=True)

    def _index(self, bank: Bank, page_size: int, *, written: bool = False) -> list[str]:
        """Bring the search index up to ``bank``: written whole the first time (``written``:
        it is already, from the persistent cache: its documents and state are made in the
        background), then an edit's few files at once, a locale whose questions were added,
        removed or moved rebuilt in the background (``qbank.search.LiveIndex``, as under
        ``mkdocs serve``). The files written before it returns (relative to the tree)."""
        if self.index is not None and self.session.docs.owed:
            self.index.wait()  # (the first build's documents: made before the edit's)
        locales = bank.catalog.locales if written else ()
        docs = self.session.search_docs(bank, question_url(bank, page_size), later=locales)
        if self.index is None:
            self.index = LiveIndex(self.out / DOCS)
            self.index.first(docs, locales)
        else:
            self.index.rebuilt(docs)
        wrote, self.index.wrote = self.index.wrote, []
        return [f"{DOCS}/{path}" for path in wrote]


def _by_locale(
    bank: Bank, options: RenderOptions, progress: Report, store: Store
) -> Iterator[RenderedSite]:
    """Each locale's site alone, rendered when asked for (``tree_files`` lets the one before
    go first), the match counts, question HTML and headings of unchanged topics from ``store``
    (``qbank.live.markupcache``, made for a locale as it is rendered). No body is kept: a
    question's HTML is made for each page that shows it, its texts' conversions kept by
    ``qbank.bank.markup`` (keeping the bodies would save little CPU for much more memory at
    the peak)."""
    locales = bank.catalog.locales
    numbered, headed = stored_terms(store, bank), stored_headings(store)
    for done, locale in enumerate(locales):
        progress(f"writing {locale}", done, len(locales))
        known = stored_markup(store, bank, locale)
        yield render_site(
            bank, dataclasses.replace(options, locales=(locale,)), None, numbered, known, headed
        )
    progress("writing", len(locales), len(locales))
