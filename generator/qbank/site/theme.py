"""The Material settings a qbank site needs, whoever publishes it: the assets, Markdown
extensions, default features and palette, the language codes, the escaped nav, and the
edit/report links into the repository. Pure data and functions (no MkDocs): the plugin
(``qbank.plugin.config``) and the build script (``qbank.tree.build``) both read them."""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from qbank.bank.loaded import Bank
from qbank.site.render import RenderOptions
from qbank.site.strings import strings_asset, strings_assets, strings_for
from qbank.site.templates import TEMPLATES

ENTRY = "assets/qbank.js"  # the widget's entry module: every page loads it (DESIGN.md)
ASSETS = ("assets/qbank.css", ENTRY, "assets/search.css")
# The widget's other modules, imported by the entry (statically or with ``import()``) or named
# by the pages that use them; every one ships with every site.
# The widget's tables of interface text (``qbank.site.strings.widget_module``) are among them.
LAZY_ASSETS = tuple(
    sorted(
        [
            f"assets/{path.relative_to(TEMPLATES / 'assets').as_posix()}"
            for path in (TEMPLATES / "assets").rglob("*.js")
            if f"assets/{path.relative_to(TEMPLATES / 'assets').as_posix()}" != ENTRY
        ]
        + list(strings_assets())
    )
)
REQUIRED_EXTENSIONS = ("attr_list", "admonition", "toc", "tables")
DEFAULT_FEATURES = (
    "navigation.instant",
    "navigation.tracking",
    "navigation.sections",
    "navigation.prune",
    "navigation.top",
    "navigation.indexes",
    "content.action.edit",
    "content.code.copy",  # Material's copy button on code blocks
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


_BUNDLE = re.compile(r"assets/javascripts/bundle\.[0-9a-f]+\.min\.js")
# A module's static imports and its ``import()`` of a literal path ("./lib/dom.js"): the
# widget's modules name each other only so (no bare names: there is no bundler).
_IMPORT = re.compile(
    r"""(?:^|[;\n}])\s*(?:import|export)\b[^'";()]*?\bfrom\s*(['"])([^'"]+)\1"""
    r"""|(?:^|[;\n}])\s*import\s*(['"])([^'"]+)\3"""
    r"""|\bimport\(\s*(['"])([^'"]+)\5\s*\)"""
)


def module_imports(source: str) -> tuple[list[str], list[str]]:
    """The specifiers a module's text imports: (static, dynamic), in order of appearance."""
    static: list[str] = []
    dynamic: list[str] = []
    for found in _IMPORT.finditer(source):
        if found.group(6):
            dynamic.append(found.group(6))
        else:
            static.append(found.group(2) or found.group(4))
    return static, dynamic


def static_graph(entry: str = ENTRY, root: Path = TEMPLATES) -> list[str]:
    """``entry`` and every module it imports statically, directly or not (paths under
    ``root``, entry first, then in the order found): what the browser must fetch before the
    entry runs."""
    found = [entry]
    for path in found:
        static, _ = module_imports((root / path).read_text("utf-8"))
        for spec in static:
            target = posixpath.normpath(posixpath.join(posixpath.dirname(path), spec))
            if target not in found:
                found.append(target)
    return found


def preloads(theme_dirs: Iterable[str]) -> list[str]:
    """The scripts a page's head asks the browser to fetch at once (site-root paths): the
    theme's bundle (named in its ``base.html``), which runs only after the whole page is
    parsed, then qbank's entry module, which the head runs as soon as it is here
    (``partials/javascripts/base.html``), and the modules it imports (``modulepreload``:
    fetched together instead of one import after another); fetched from the head, a big topic
    page is not parsed first and then waits for them (bench/bench_phone.py)."""
    modules = static_graph()
    for folder in theme_dirs:
        base = Path(folder) / "base.html"
        found = _BUNDLE.search(base.read_text("utf-8")) if base.is_file() else None
        if found:
            return [found.group(0), *modules]
    return modules


def material_language(locale: str) -> str:
    """Material's code for the bank's ``locale``."""
    return MATERIAL_LANGUAGES.get(locale.lower(), locale)


def default_features(bank: Bank) -> list[str]:
    """The theme features a site gets when its config names none."""
    features = list(DEFAULT_FEATURES)
    if sum(1 for _ in bank.topics()) >= LEAN_NAV_FROM_TOPICS:
        features.remove("navigation.sections")
    return features


def escaped_nav(nav: Any) -> Any:
    """The nav with every title (a catalog name) HTML-escaped; paths unchanged (Material
    writes nav titles into HTML unescaped)."""
    if isinstance(nav, list):
        return [escaped_nav(item) for item in nav]
    if isinstance(nav, dict):
        return {html.escape(str(k)): escaped_nav(v) for k, v in nav.items()}
    return nav


def branch_of(edit_uri: str, default: str) -> str:
    """The branch named by an ``edit_uri`` such as ``edit/main/docs/``, else ``default``."""
    parts = edit_uri.strip("/").split("/")
    if len(parts) >= 2 and parts[0] in ("edit", "blob", "tree"):
        return parts[1]
    return default


def edit_folder(edit_uri: str, docs_dir_name: str, content_path: str, branch: str) -> str:
    """The path, under the repository's URL, of the edit page of the bank's folder
    ``content_path`` (``edit/main/content/``), from the user's ``edit_uri`` ("" when none)."""
    content = [part for part in content_path.strip("/").split("/") if part]
    if not edit_uri:
        return "/".join([f"edit/{branch}", *content]) + "/"
    parts = edit_uri.strip("/").split("/")
    if len(parts) > len(content) and parts[len(parts) - len(content) :] == content:
        return "/".join(parts) + "/"  # it names the bank's folder already
    if parts and parts[-1] == docs_dir_name and len(parts) > 2:
        parts = parts[:-1]
    return "/".join([*parts, *content]) + "/"


def link_options(
    repo_url: str,
    edit_uri: str,
    docs_dir_name: str,
    content_path: str,
    branch: str,
    report_template: str,
) -> RenderOptions:
    """The render options: edit and report links into the repository at ``repo_url`` (none
    without it). ``edit_uri`` is the one the user wrote ("" when none): it points at the
    docs folder (``edit/main/docs/``), and the bank's folder ``content_path`` sits beside
    it, or at the bank's folder itself (``edit/main/content/``, as this repository's own
    mkdocs.yml has it), which is then not named twice."""
    if not repo_url:
        return RenderOptions(content_dir=content_path, placeholders=True)
    repo = repo_url.rstrip("/") + "/"
    return RenderOptions(
        edit_url=urljoin(repo, edit_folder(edit_uri, docs_dir_name, content_path, branch)),
        report_url=urljoin(repo, "issues/new"),
        report_template=report_template,
        content_dir=content_path,
        placeholders=True,
    )


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
            **words["search"],
            "seniority": words["seniority"],
            "difficulty": words["difficulty"],
            "filters": {
                "field": [[k, bank.name(f.name, locale)] for k, f in catalog.fields.items()],
                "seniority": [[k, bank.name(v, locale)] for k, v in catalog.seniorities.items()],
                "difficulty": [[str(k), str(levels[k])] for k in sorted(levels)],
            },
        }
    return {"locales": list(catalog.locales), "default": catalog.default_locale, "text": text}


@dataclass(frozen=True)
class SiteSettings:
    """What either adapter sets in the publisher's config for a build of ``locale``'s pages
    (``site_settings``): the plugin for each locale's build, the tree for its one build."""

    extra: dict[str, Any]  # config ``extra``: qbank's locale, strings, preloads, search, switcher
    palette: list[dict[str, Any]]  # the theme's palette when the user's config names none
    features: list[str]  # the theme's features when the user's config names none
    extensions: tuple[str, ...]  # Markdown extensions every page needs (toc with permalinks)
    stylesheets: tuple[str, ...]  # qbank's assets the theme loads on every page
    scripts: tuple[str, ...]


def site_settings(bank: Bank, locale: str, theme_dirs: Iterable[str]) -> SiteSettings:
    """The settings of a build of ``bank``'s ``locale`` pages with a theme in ``theme_dirs``
    (none: the publisher's own theme bundle, not read)."""
    extra = {
        "qbank_locale": locale,
        "qbank_strings": strings_for(locale)["widget"],  # (partials/qbank-text.html)
        # the same table as a module the page names (partials/javascripts/base.html)
        "qbank_strings_asset": strings_asset(locale),
        "qbank_preload": preloads(theme_dirs),  # (partials/javascripts/base.html)
        # qbank's own index (qbank.search, written after the build) replaces the theme's.
        "qbank_search": search_settings(bank),
        # Material fetches <link>/sitemap.xml per alternate (qbank writes them) and sends
        # any click on a link under "<link>/" to that locale's home: naming the locale's
        # index.html (no link lies under it) keeps the switcher on the same page.
        "alternate": [
            {"name": strings_for(loc)["language_name"], "link": f"{loc}/index.html", "lang": loc}
            for loc in bank.catalog.locales
        ],
    }
    return SiteSettings(
        extra=extra,
        palette=DEFAULT_PALETTE,
        features=default_features(bank),
        extensions=REQUIRED_EXTENSIONS,
        stylesheets=tuple(a for a in ASSETS if a.endswith(".css")),
        scripts=tuple(a for a in ASSETS if a.endswith(".js")),
    )
