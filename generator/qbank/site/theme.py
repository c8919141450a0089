"""The Material settings a qbank site needs, whoever publishes it: the assets, Markdown
extensions, default features and palette, the language codes, the escaped nav, and the
edit/report links into the repository. Pure data and functions (no MkDocs): the plugin
(``qbank.plugin.config``) and the build script (``qbank.tree.build``) both read them."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from qbank.bank.loaded import Bank
from qbank.site.render import RenderOptions
from qbank.site.strings import strings_for

ASSETS = ("assets/qbank.css", "assets/qbank.js", "assets/search.css")
LAZY_ASSETS = (
    "assets/search.js",  # qbank.js loads it when the reader reaches for the search box
    "assets/snowball-english.js",
    "assets/match.js",
    "assets/saved.js",
    "assets/review.js",
    "assets/practice.js",  # the practice and review pages' session
    "assets/transfer.js",
    "assets/offline.js",  # every page, as an ES module, when the site has its service worker
)  # (pages load them)
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


_BUNDLE = re.compile(r"assets/javascripts/bundle\.[0-9a-f]+\.min\.js")


def preloads(theme_dirs: Iterable[str]) -> list[str]:
    """The scripts a page's head asks the browser to fetch at once (site-root paths): the
    theme's bundle (named in its ``base.html``), which runs only after the whole page is
    parsed, and qbank.js, which the head runs as soon as it is here
    (``partials/javascripts/base.html``); fetched from the head, a big topic page is not
    parsed first and then waits for them (a wait a reader on a phone notices,
    bench/bench_phone.py)."""
    for folder in theme_dirs:
        base = Path(folder) / "base.html"
        found = _BUNDLE.search(base.read_text("utf-8")) if base.is_file() else None
        if found:
            return [found.group(0), "assets/qbank.js"]
    return ["assets/qbank.js"]


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
    docs folder (``edit/main/docs/``); the bank's folder ``content_path`` sits beside it."""
    if not repo_url:
        return RenderOptions(content_dir=content_path, placeholders=True)
    repo = repo_url.rstrip("/") + "/"
    edit_root = f"edit/{branch}/"
    if edit_uri:
        parts = edit_uri.strip("/").split("/")
        if parts and parts[-1] == docs_dir_name and len(parts) > 2:
            parts = parts[:-1]
        edit_root = "/".join(parts) + "/"
    return RenderOptions(
        edit_url=urljoin(repo, edit_root + content_path + "/"),
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
