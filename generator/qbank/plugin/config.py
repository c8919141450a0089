"""The plugin's options in ``mkdocs.yml`` and what it sets in MkDocs' config: nav, language,
assets, theme defaults (features, palette), and the render options derived from the repository."""

from __future__ import annotations

import html
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig

from qbank.bank import Bank, Entry
from qbank.plugin import internals
from qbank.render import RenderedSite, RenderOptions
from qbank.search import search_settings
from qbank.strings import strings_for
from qbank.templates import TEMPLATES

ASSETS = ("assets/qbank.css", "assets/qbank.js", "assets/search.css", "assets/search.js")
LAZY_ASSETS = (
    "assets/snowball-english.js",
    "assets/match.js",
    "assets/saved.js",
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

TopicUrl = Callable[[str, Entry], str]


class QbankConfig(base.Config):  # type: ignore[no-untyped-call]
    """Options of the ``qbank`` plugin in ``mkdocs.yml``."""

    content_dir = c.Type(str, default="content")
    """The bank's folder (catalog.yaml and the question files), relative to mkdocs.yml."""
    branch = c.Type(str, default="main")
    """The branch edit links open when ``edit_uri`` is not set."""
    report_template = c.Type(str, default="question-problem.yml")
    """The issue form that "report a problem" opens."""


@dataclass(frozen=True)
class Shared:
    """What one build works from: the bank, its rendered pages, the locale this build makes
    (the default locale's build hands it to the nested per-locale builds)."""

    bank: Bank
    site: RenderedSite
    locale: str


@dataclass(frozen=True)
class Repository:
    """Where the bank sits: on disk, in the repository, and its folder's URL there."""

    content_root: Path  # the bank's folder on disk
    path: str  # the bank's folder relative to the repository root (for edit links)
    branch: str  # the branch edit links open
    folder_url: str  # the bank's folder on the repository host, "" without ``repo_url``

    @classmethod
    def of(cls, config: MkDocsConfig, options: QbankConfig) -> Repository:
        config_dir = Path(config.config_file_path or ".").resolve().parent
        content_root = (config_dir / options.content_dir).resolve()
        relative = os.path.relpath(content_root, config_dir).replace(os.sep, "/")
        path = content_root.name if relative.startswith("..") else relative
        branch = _branch(config, str(options.branch))
        folder_url = ""
        if config.repo_url:
            folder_url = urljoin(config.repo_url.rstrip("/") + "/", f"tree/{branch}/{path}/")
        return cls(content_root, path, branch, folder_url)


def _branch(config: MkDocsConfig, default: str) -> str:
    """The branch from a user-set ``edit_uri`` such as ``edit/main/docs/``, else ``default``."""
    parts = (config.edit_uri or "").strip("/").split("/")
    if (
        internals.written_by_user(config, "edit_uri")
        and len(parts) >= 2
        and parts[0] in ("edit", "blob", "tree")
    ):
        return parts[1]
    return default


def render_options(
    config: MkDocsConfig, repository: Repository, report_template: str
) -> RenderOptions:
    """The render options: edit and report links into the repository when there is one."""
    if not config.repo_url:
        return RenderOptions(content_dir=repository.path, placeholders=True)
    repo = config.repo_url.rstrip("/") + "/"
    edit_root = f"edit/{repository.branch}/"
    if internals.written_by_user(config, "edit_uri") and config.edit_uri:
        # edit_uri points at the docs folder (edit/main/docs/); questions sit beside it.
        parts = config.edit_uri.strip("/").split("/")
        if parts and parts[-1] == Path(config.docs_dir).name and len(parts) > 2:
            parts = parts[:-1]
        edit_root = "/".join(parts) + "/"
    return RenderOptions(
        edit_url=urljoin(repo, edit_root + repository.path + "/"),
        report_url=urljoin(repo, "issues/new"),
        report_template=report_template,
        content_dir=repository.path,
        placeholders=True,
    )


def topic_url(use_directory_urls: bool) -> TopicUrl:
    """Entry → the site-root URL of its topic page, as MkDocs writes it."""
    suffix = "" if use_directory_urls else "index.html"

    def url(locale: str, entry: Entry) -> str:
        return f"/{locale}/{entry.field}/{entry.topic}/{suffix}"

    return url


def _escaped_nav(nav: Any) -> Any:
    """The nav with every title (a catalog name) HTML-escaped; paths unchanged."""
    if isinstance(nav, list):
        return [_escaped_nav(item) for item in nav]
    if isinstance(nav, dict):
        return {html.escape(str(k)): _escaped_nav(v) for k, v in nav.items()}
    return nav


def configure_site(config: MkDocsConfig, shared: Shared) -> None:
    """Set the nav, language, search, tags, language switcher, theme defaults, Markdown
    extensions and assets of ``shared.locale``'s build."""
    bank, locale = shared.bank, shared.locale
    # Material writes nav titles and the site name into HTML unescaped: escape them.
    config.nav = _escaped_nav(shared.site.nav[locale])
    config.site_name = html.escape(shared.site.titles[locale])
    config.theme["language"] = MATERIAL_LANGUAGES.get(locale.lower(), locale)
    config.extra["qbank_locale"] = locale
    config.extra["qbank_strings"] = strings_for(locale)["widget"]  # (partials/header.html)
    # qbank's own index (qbank.search, written after the build) replaces Material's search.
    config.extra["qbank_search"] = search_settings(bank)
    internals.switch_off_material_search(config)
    internals.allow_tags(config, sorted({t for e in bank.entries for t in e.question.tags}))
    # Material fetches <link>/sitemap.xml per alternate (qbank writes them) and sends any
    # click on a link under "<link>/" to that locale's home: naming the locale's
    # index.html (no link lies under it) keeps the switcher on the same page.
    config.extra["alternate"] = [
        {"name": strings_for(loc)["language_name"], "link": f"{loc}/index.html", "lang": loc}
        for loc in bank.catalog.locales
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
        if sum(1 for _ in bank.topics()) >= LEAN_NAV_FROM_TOPICS:
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
