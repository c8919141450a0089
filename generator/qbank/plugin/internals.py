"""Every place the adapter relies on a MkDocs or Material private internal, and nothing else.

Each function or constant below names the upstream code it depends on, pinned to the
versions in ``constraints.txt`` (mkdocs 1.6.1, mkdocs-material 9.8.2); ``tests/test_internals.py``
checks each against the installed packages and names the internal that moved when one fails.
When upgrading MkDocs or Material, read the linked code again and run that test first.
"""

from __future__ import annotations

import logging
import re
import threading
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.livereload import LiveReloadServer
from mkdocs.structure.pages import Page
from mkdocs.utils import CountHandler

MKDOCS = "https://github.com/mkdocs/mkdocs/blob/1.6.1/mkdocs"
MATERIAL = "https://github.com/squidfunk/mkdocs-material/blob/9.8.2/material"

# -- what the user wrote ------------------------------------------------------------------------
# ``Config.user_configs`` (deprecated, "never used in MkDocs") is the only record of the keys
# the user wrote, as opposed to defaults MkDocs derives (``edit_uri`` from ``repo_url``).
# https://github.com/mkdocs/mkdocs/blob/1.6.1/mkdocs/config/base.py#L265-L270


def written_by_user(config: MkDocsConfig, key: str) -> bool:
    """Whether ``key`` was set in the config file (not derived by MkDocs)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return any(key in user for user in config.user_configs)


def user_value(config: MkDocsConfig, key: str) -> Any:
    """The value the config file gave ``key`` (``None`` when it gave none), whatever a
    plugin has set in the config since."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        values = [user[key] for user in config.user_configs if key in user]
    return values[-1] if values else None


# -- one plugin instance per process -------------------------------------------------------------
# MkDocs keeps the instance of a plugin that has ``on_startup`` for every config loaded later
# in the process (``Plugins.plugin_cache``, an attribute of the one ``MkDocsConfig.plugins``
# option): serve's rebuilds and the nested per-locale builds (``build_nested``) all reach the
# same ``QbankPlugin``, which is how the default locale's build hands its bank to them without
# a module global.
# https://github.com/mkdocs/mkdocs/blob/1.6.1/mkdocs/config/config_options.py#L1119-L1132


def build_nested(config: MkDocsConfig, site_dir: Path) -> None:
    """Run a whole second MkDocs build of ``config``'s file into ``site_dir`` from inside the
    running build (one per other locale). ``build`` is MkDocs' command function, not a plugin
    API; the nested build runs every plugin's events again on the same instances.
    https://github.com/mkdocs/mkdocs/blob/1.6.1/mkdocs/commands/build.py#L249-L364"""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    nested = load_config(
        config_file=config.config_file_path,
        site_dir=str(site_dir),
        site_url=config.site_url,
        use_directory_urls=config.use_directory_urls,
        strict=config.strict,
    )
    build(nested)


# -- where a build writes ------------------------------------------------------------------------
# ``build`` reads ``config.site_dir`` only after ``on_pre_build`` (it cleans and writes the
# folder named then) and after ``on_post_build`` raises strict mode's count of warnings: a
# plugin may point the build at a staging folder in ``on_pre_build`` and must count warnings
# itself to refuse publishing in ``on_post_build``.
# https://github.com/mkdocs/mkdocs/blob/1.6.1/mkdocs/commands/build.py#L253-L272
# https://github.com/mkdocs/mkdocs/blob/1.6.1/mkdocs/commands/build.py#L347-L352


def point_build_at(config: MkDocsConfig, folder: Path) -> None:
    """Make this build write its site into ``folder`` (called in ``on_pre_build``), or name
    the published folder again once it is done."""
    config.site_dir = str(folder)


def count_warnings() -> CountHandler:
    """Start counting warnings logged under ``mkdocs`` (strict mode), as ``build`` does
    (``mkdocs.utils.CountHandler``).
    https://github.com/mkdocs/mkdocs/blob/1.6.1/mkdocs/utils/__init__.py#L370-L385"""
    counter = CountHandler()
    counter.setLevel(logging.WARNING)
    logging.getLogger("mkdocs").addHandler(counter)
    return counter


def stop_counting(counter: CountHandler) -> list[tuple[str, int]]:
    """Stop ``counter``; the warnings it saw, as ``(level name, count)``."""
    logging.getLogger("mkdocs").removeHandler(counter)
    counts: list[tuple[str, int]] = counter.get_counts()
    return counts


# -- a page's HTML after it is written -----------------------------------------------------------
# ``_build_page`` does not read ``page.content`` after ``on_post_page``; MkDocs would keep every
# page's HTML to the end of the build (all of a big bank's pages in memory).
# https://github.com/mkdocs/mkdocs/blob/1.6.1/mkdocs/commands/build.py#L185-L240


def release_page_html(page: Page) -> None:
    """Let a written page's HTML go (from ``on_post_page``)."""
    page.content = None


# -- waking serve's build loop -------------------------------------------------------------------
# The LiveReloadServer's build loop waits on ``_rebuild_cond`` for ``_want_rebuild``; its own
# file watcher sets them exactly like this.
# https://github.com/mkdocs/mkdocs/blob/1.6.1/mkdocs/livereload/__init__.py#L129-L130
# https://github.com/mkdocs/mkdocs/blob/1.6.1/mkdocs/livereload/__init__.py#L150-L156


def rebuild_trigger(server: LiveReloadServer) -> Callable[[], None] | None:
    """A function that asks ``server`` for a rebuild as its own watcher does; ``None`` when the
    server has no such condition (another MkDocs version)."""
    condition = getattr(server, "_rebuild_cond", None)
    if not isinstance(condition, threading.Condition) or not hasattr(server, "_want_rebuild"):
        return None
    rebuild = condition

    def trigger() -> None:
        with rebuild:
            server._want_rebuild = True
            rebuild.notify_all()

    return trigger


# -- around each of serve's builds --------------------------------------------------------------
# The build loop calls ``server.builder()`` for every rebuild, in a ``try`` that logs what it
# raises (a broken mkdocs.yml fails there, before any plugin event runs).
# https://github.com/mkdocs/mkdocs/blob/1.6.1/mkdocs/livereload/__init__.py#L209-L219


def around_builds(server: LiveReloadServer, around: Callable[[Callable[[], None]], None]) -> bool:
    """Run every later rebuild of ``server`` as ``around(build)`` (``around`` calls ``build``
    once); False when the server has no such builder (another MkDocs version)."""
    build = getattr(server, "builder", None)
    if not callable(build):
        return False
    server.builder = lambda: around(build)
    return True


# -- the theme's static file listing -------------------------------------------------------------
# Each build lists the theme's static files through ``env.list_templates(filter_func=filter)``
# with a closure defined in ``Files.add_files_from_theme`` (recognised by its qualified name),
# in a Jinja environment made by ``Theme.get_env``.
# https://github.com/mkdocs/mkdocs/blob/1.6.1/mkdocs/structure/files.py#L146-L163
# https://github.com/mkdocs/mkdocs/blob/1.6.1/mkdocs/theme.py#L158-L166
THEME_FILES_FILTER = "Files.add_files_from_theme.<locals>.filter"


def keep_theme_listing(theme: Any, cached: Callable[[Callable[[], list[str]]], list[str]]) -> None:
    """Route the theme's static file listing through ``cached(compute)`` (which may return an
    earlier listing); any other caller of ``list_templates`` gets a fresh one."""
    make_env = theme.get_env

    def get_env() -> jinja2.Environment:
        env: jinja2.Environment = make_env()
        list_templates = env.list_templates

        def listing(extensions: Any = None, filter_func: Any = None) -> list[str]:
            qualified = getattr(filter_func, "__qualname__", "")
            if extensions is not None or qualified != THEME_FILES_FILTER:
                return list_templates(extensions, filter_func)
            return cached(lambda: list_templates(None, filter_func))

        env.list_templates = listing  # type: ignore[method-assign]
        return env

    theme.get_env = get_env


# -- notes MkDocs logs about pages built elsewhere -----------------------------------------------
# Each locale is its own build, so every link to another locale's page, and (under serve) every
# nav entry of a page skipped as unchanged, makes MkDocs log a note naming an excluded file.
# https://github.com/mkdocs/mkdocs/blob/1.6.1/mkdocs/structure/pages.py#L505-L514
# https://github.com/mkdocs/mkdocs/blob/1.6.1/mkdocs/structure/nav.py#L209-L216
PAGES_LOGGER = "mkdocs.structure.pages"
LINK_TO_EXCLUDED = re.compile(
    r"^Doc file '(?:([^/']+)/[^']*|index\.md)' contains a link to '([^/']+)/"
)
EXCLUDED_MARK = "excluded from the built site"
NAV_LOGGER = "mkdocs.structure.nav"
NAV_TO_EXCLUDED = re.compile(r"^A reference to '([^']+)' is included in the 'nav' configuration")
# A page whose final HTML is empty is not written, with a note: the page cache gives a page
# linked from the last site (``qbank.live.sitelinks``) no HTML.
# https://github.com/mkdocs/mkdocs/blob/1.6.1/mkdocs/commands/build.py#L228-L234
BUILD_LOGGER = "mkdocs.commands.build"
EMPTY_PAGE = re.compile(r"^Page skipped: '(.+)'\. Generated empty output\.$")


# -- Material's plugins --------------------------------------------------------------------------
# The tags plugin reads ``tags_allowed`` (a set of ``Tag``) from its config at each page; it is
# set here after MkDocs validated the config.
# https://github.com/squidfunk/mkdocs-material/blob/9.8.2/material/plugins/tags/config.py#L55
# https://github.com/squidfunk/mkdocs-material/blob/9.8.2/material/plugins/tags/structure/tag/__init__.py#L31
# https://github.com/squidfunk/mkdocs-material/blob/9.8.2/material/plugins/tags/structure/mapping/manager/__init__.py#L50
# The search plugin checks its ``enabled`` option at every event, so switching it off after
# validation stops it.
# https://github.com/squidfunk/mkdocs-material/blob/9.8.2/material/plugins/search/plugin.py#L64


def allow_tags(config: MkDocsConfig, names: Iterable[str]) -> None:
    """With Material's tags plugin on, allow exactly ``names`` (a tag that no question carries
    then fails the build instead of silently appearing; ``names`` is not read without it)."""
    tags_plugin = config.plugins.get("material/tags")
    if tags_plugin is None:
        return
    from material.plugins.tags.structure.tag import Tag

    tags_plugin.config["tags_allowed"] = {Tag(name) for name in set(names)}


def switch_off_material_search(config: MkDocsConfig) -> None:
    """Turn Material's search plugin off (qbank writes its own index)."""
    material_search = config.plugins.get("material/search")
    if material_search is not None:
        material_search.config["enabled"] = False
