"""The plugin's options in ``mkdocs.yml`` and what it sets in MkDocs' config: nav, language,
assets, theme defaults (features, palette), and the render options derived from the repository."""

from __future__ import annotations

import html
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig

from qbank.bank.loaded import Bank, Entry
from qbank.live.store import DEFAULT_DIR
from qbank.plugin import internals
from qbank.site.offline import PAGE_SCRIPT
from qbank.site.parts import DEFAULT_PAGE_SIZE, question_url
from qbank.site.render import RenderedSite, RenderOptions
from qbank.site.templates import TEMPLATES
from qbank.site.theme import (
    branch_of,
    escaped_nav,
    link_options,
    material_language,
    site_settings,
)

TopicUrl = Callable[[str, Entry], str]


class QbankConfig(base.Config):  # type: ignore[no-untyped-call]
    """Options of the ``qbank`` plugin in ``mkdocs.yml``."""

    content_dir = c.Type(str, default="content")
    """The bank's folder (catalog.yaml and the question files), relative to mkdocs.yml."""
    branch = c.Type(str, default="main")
    """The branch edit links open when ``edit_uri`` is not set."""
    report_template = c.Type(str, default="question-problem.yml")
    """The issue form that "report a problem" opens."""
    page_size = c.Type(int, default=DEFAULT_PAGE_SIZE)
    """At most this many questions on a topic page; a bigger topic gets numbered pages
    (``<topic>/``, ``<topic>--2/``, …). 0: one page per topic whatever its size."""
    bank_json = c.Type(bool, default=False)
    """Also publish the whole bank as JSON at ``<locale>/api/bank.json`` (what ``qbank export
    json`` writes; read by no page, so left out by default: 78 MB a locale at 30,000)."""
    cache = c.Type(bool, default=True)
    """Keep what a build computed in ``cache_dir`` for the next build to reuse; ``false``
    keeps and reads nothing."""
    cache_dir = c.Type(str, default=DEFAULT_DIR)
    """The persistent cache's folder, relative to mkdocs.yml (safe to delete)."""
    offline = c.Type(bool, default=True)
    """Ship the service worker (``sw.js``) that keeps visited pages and kept fields for
    offline study; ``false`` leaves it out (``mkdocs serve`` never installs one)."""


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
    if internals.written_by_user(config, "edit_uri"):
        return branch_of(config.edit_uri or "", default)
    return default


def render_options(
    config: MkDocsConfig, repository: Repository, report_template: str
) -> RenderOptions:
    """The render options: edit and report links into the repository when there is one."""
    edit_uri = config.edit_uri if internals.written_by_user(config, "edit_uri") else ""
    return link_options(
        config.repo_url or "",
        edit_uri or "",
        Path(config.docs_dir).name,
        repository.path,
        repository.branch,
        report_template,
    )


def topic_url(use_directory_urls: bool, bank: Bank, page_size: int) -> TopicUrl:
    """Entry → the site-root URL of the topic page (part) that shows it, as MkDocs writes it."""
    return question_url(bank, page_size, "" if use_directory_urls else "index.html")


def use_overrides(config: MkDocsConfig) -> None:
    """Put qbank's theme overrides (``site_templates/overrides``) first among the theme's
    folders: before the bank loads, so that templates compiled before the locale process
    forks are the build's own."""
    overrides = str(TEMPLATES / "overrides")
    if overrides not in config.theme.dirs:
        config.theme.dirs.insert(0, overrides)


def configure_site(config: MkDocsConfig, shared: Shared, *, offline: bool) -> None:
    """Set the nav, language, search, tags, language switcher, theme defaults, Markdown
    extensions and assets of ``shared.locale``'s build (``site_settings``, as the tree sets
    them; with ``offline``, the page script of the service worker: ``qbank.site.offline``)."""
    bank, locale = shared.bank, shared.locale
    settings = site_settings(bank, locale, config.theme.dirs)
    # Material writes nav titles and the site name into HTML unescaped: escape them. A nav of
    # the maintainer's own (hand-written pages) follows qbank's; without one, ``add_pages``
    # lists the hand-written pages there.
    own = internals.user_value(config, "nav")
    config.nav = [*escaped_nav(shared.site.nav[locale]), *(own if isinstance(own, list) else [])]
    config.site_name = html.escape(shared.site.titles[locale])
    config.theme["language"] = material_language(locale)
    config.extra.update(settings.extra)
    internals.switch_off_material_search(config)
    # (read only with the tags plugin on: every question's tags, 0.1 s of a serve rebuild)
    internals.allow_tags(config, (t for e in bank.entries for t in e.question.tags))
    # No Google Fonts: the site makes no third-party request.
    config.theme["font"] = False
    if not config.theme.get("palette"):
        config.theme["palette"] = settings.palette
    if not config.theme.get("features"):
        config.theme["features"] = settings.features
    for extension in settings.extensions:
        if extension not in config.markdown_extensions:
            config.markdown_extensions.append(extension)
    config.mdx_configs.setdefault("toc", {}).setdefault("permalink", True)
    for asset in settings.stylesheets:
        if asset not in [str(item) for item in config.extra_css]:
            config.extra_css.append(asset)
    # The scripts are modules: a plain <script> of one (a site's own listing) would not run.
    for script in settings.scripts:
        config.extra_javascript[:] = [s for s in config.extra_javascript if str(s) != script]
        module = c.ExtraScriptValue(script)
        module.type = "module"
        config.extra_javascript.append(module)
    present = [str(item) for item in config.extra_javascript]
    if offline and PAGE_SCRIPT not in present:
        page_script = c.ExtraScriptValue(PAGE_SCRIPT)
        page_script.type = "module"  # (offline.js is an ES module)
        config.extra_javascript.append(page_script)
    elif not offline and PAGE_SCRIPT in present:
        config.extra_javascript[:] = [
            item for item in config.extra_javascript if str(item) != PAGE_SCRIPT
        ]
