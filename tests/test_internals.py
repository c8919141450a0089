"""Every MkDocs / Material private internal that ``qbank/plugin/internals.py`` relies on, checked
against the installed packages: when an upgrade changes one, its test fails and names it.

Each test exercises the real code (a real config, a real build, a real server) where that is
cheap, and reads the upstream source only where the reliance is on an order of steps."""

from __future__ import annotations

import inspect
import logging
import re
import textwrap
from pathlib import Path

import pytest
import yaml
from mkdocs.commands import build as build_module
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.livereload import LiveReloadServer
from mkdocs.structure.files import Files

from qbank.plugin import internals

UPGRADE = "read the link above it in qbank/plugin/internals.py and adapt qbank"


def changed(internal: str, what: str) -> str:
    return f"MkDocs/Material internal changed: {internal}: {what}; {UPGRADE}"


def project(folder: Path, **config: object) -> Path:
    """A minimal MkDocs project (docs/index.md) with ``config``; its mkdocs.yml."""
    (folder / "docs").mkdir(parents=True, exist_ok=True)
    (folder / "docs" / "index.md").write_text("# Home\n", "utf-8")
    settings: dict[str, object] = {"site_name": "Internals", "docs_dir": "docs"}
    settings.update(config)
    path = folder / "mkdocs.yml"
    path.write_text(yaml.safe_dump(settings), "utf-8")
    return path


def load(path: Path) -> MkDocsConfig:
    config: MkDocsConfig = load_config(config_file=str(path))
    return config


def test_one_plugin_instance_for_every_config_loaded(tmp_path: Path) -> None:
    path = project(tmp_path, plugins=[{"qbank": {"content_dir": "content"}}])
    first, second = load(path), load(path)
    assert first.plugins["qbank"] is second.plugins["qbank"], changed(
        "config_options.Plugins.plugin_cache",
        "a plugin with on_startup is no longer one instance across load_config calls "
        "(the nested locale builds and serve's rebuilds reach the plugin through it)",
    )


def test_nested_build_entry_points(tmp_path: Path) -> None:
    path = project(tmp_path)
    nested = load_config(
        config_file=str(path),
        site_dir=str(tmp_path / "elsewhere"),
        site_url="https://example.org/x/",
        use_directory_urls=False,
        strict=True,
    )
    applied = (nested.site_dir, nested.site_url, nested.use_directory_urls, nested.strict)
    assert applied == (str(tmp_path / "elsewhere"), "https://example.org/x/", False, True), changed(
        "mkdocs.config.load_config", f"ignores build_nested's overrides: {applied}"
    )
    assert list(inspect.signature(build_module.build).parameters)[:1] == ["config"], changed(
        "mkdocs.commands.build.build", "no longer takes the config first (build_nested)"
    )


def test_build_reads_site_dir_after_pre_build_and_counts_strict_warnings_after_post_build() -> None:
    source = inspect.getsource(build_module.build)
    pre_build = source.find("on_pre_build(")
    clean = source.find("clean_directory(config.site_dir)")
    assert 0 <= pre_build < clean, changed(
        "mkdocs.commands.build.build",
        "site_dir is no longer cleaned after on_pre_build (point_build_at in on_pre_build)",
    )
    post_build = source.find("on_post_build(")
    counted = source.find("warning_counter.get_counts()")
    assert 0 <= post_build < counted, changed(
        "mkdocs.commands.build.build",
        "strict mode no longer counts warnings after on_post_build (count_warnings)",
    )


def test_count_warnings_counts_what_mkdocs_logs() -> None:
    counter = internals.count_warnings()
    try:
        logging.getLogger("mkdocs.plugins.qbank").warning("a test warning")
        logging.getLogger("mkdocs.plugins.qbank").info("not a warning")
    finally:
        counts = internals.stop_counting(counter)
    assert counts == [("WARNING", 1)], changed("mkdocs.utils.CountHandler", f"counted {counts}")


def test_page_html_is_not_read_after_post_page() -> None:
    source = inspect.getsource(build_module._build_page)
    after = source.split("on_post_page(", 1)
    assert len(after) == 2, changed("mkdocs.commands.build._build_page", "no on_post_page call")
    assert "page.content" not in after[1], changed(
        "mkdocs.commands.build._build_page",
        "page.content is read after on_post_page (release_page_html)",
    )


def test_rebuild_trigger_wakes_the_build_loop(tmp_path: Path) -> None:
    server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path))
    try:
        trigger = internals.rebuild_trigger(server)
        assert trigger is not None, changed(
            "LiveReloadServer._rebuild_cond / _want_rebuild", "gone (rebuild_trigger)"
        )
        trigger()
        assert server._want_rebuild is True, changed(
            "LiveReloadServer._want_rebuild", "not what the build loop waits for"
        )
        waited = inspect.getsource(LiveReloadServer._build_loop)
        assert "self._want_rebuild" in waited, changed(
            "LiveReloadServer._build_loop", "no longer waits for _want_rebuild"
        )
    finally:
        server.server_close()


def test_every_rebuild_goes_through_the_server_builder(tmp_path: Path) -> None:
    built: list[str] = []
    server = LiveReloadServer(
        builder=lambda: built.append("build"), host="127.0.0.1", port=0, root=str(tmp_path)
    )
    try:

        def around(build: object) -> None:
            built.append("before")
            build()  # type: ignore[operator]
            built.append("after")

        assert internals.around_builds(server, around), changed(
            "LiveReloadServer.builder", "gone (around_builds)"
        )
        server.builder()
        assert built == ["before", "build", "after"]
        loop = inspect.getsource(LiveReloadServer._build_loop)
        assert "self.builder()" in loop, changed(
            "LiveReloadServer._build_loop", "no longer calls self.builder() for a rebuild"
        )
    finally:
        server.server_close()


def test_theme_listing_filter_is_recognised(tmp_path: Path) -> None:
    config = load(project(tmp_path, theme={"name": "mkdocs"}))
    env = config.theme.get_env()
    seen: list[str] = []
    list_templates = env.list_templates

    def recording(extensions: object = None, filter_func: object = None) -> list[str]:
        seen.append(getattr(filter_func, "__qualname__", ""))
        return list_templates(extensions, filter_func)  # type: ignore[arg-type]

    env.list_templates = recording  # type: ignore[method-assign]
    Files([]).add_files_from_theme(env, config)
    assert internals.THEME_FILES_FILTER in seen, changed(
        "Files.add_files_from_theme",
        f"lists theme files with filters {seen}, not a closure "
        f"named {internals.THEME_FILES_FILTER!r} (keep_theme_listing)",
    )

    # keep_theme_listing routes exactly that listing through the cache.
    calls: list[int] = []

    def cached(compute: object) -> list[str]:
        calls.append(1)
        assert callable(compute)
        names: list[str] = compute()
        return names

    internals.keep_theme_listing(config.theme, cached)
    files = Files([])
    files.add_files_from_theme(config.theme.get_env(), config)
    assert calls == [1], changed("Theme.get_env", "the wrapped environment is not used")
    assert any(f.src_uri.endswith(".css") for f in files), "the cached listing lost the files"


def test_notes_on_excluded_pages_match(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A real build whose page links to a page of another 'locale' that a hook excludes (as
    qbank's builds do), with that page in the nav: MkDocs' two notes must match the filters."""
    path = project(
        tmp_path,
        theme={"name": "mkdocs"},
        nav=["en/index.md", "tr/index.md"],
        hooks=["hooks.py"],
        site_dir="site",
    )
    for locale in ("en", "tr"):
        (tmp_path / "docs" / locale).mkdir()
        (tmp_path / "docs" / locale / "index.md").write_text(
            f"# {locale}\n\n[other](../tr/index.md)\n", "utf-8"
        )
    (tmp_path / "hooks.py").write_text(
        textwrap.dedent(
            """
            from mkdocs.structure.files import InclusionLevel

            def on_files(files, config):
                for file in files:
                    if file.src_uri.startswith("tr/"):
                        file.inclusion = InclusionLevel.EXCLUDED
                return files
            """
        ),
        "utf-8",
    )
    caplog.set_level(logging.DEBUG)
    build_module.build(load(path))
    pages = [r.getMessage() for r in caplog.records if r.name == internals.PAGES_LOGGER]
    link = [m for m in pages if internals.LINK_TO_EXCLUDED.match(m)]
    assert link, changed(
        "mkdocs.structure.pages (link to an excluded file)",
        f"no note matched LINK_TO_EXCLUDED under {internals.PAGES_LOGGER}: {pages}",
    )
    assert internals.EXCLUDED_MARK in link[0], changed(
        "mkdocs.structure.pages", f"the note no longer says {internals.EXCLUDED_MARK!r}"
    )
    nav = [r.getMessage() for r in caplog.records if r.name == internals.NAV_LOGGER]
    assert any(internals.NAV_TO_EXCLUDED.match(m) for m in nav), changed(
        "mkdocs.structure.nav (nav entry of an excluded file)",
        f"no note matched NAV_TO_EXCLUDED under {internals.NAV_LOGGER}: {nav}",
    )


def test_material_tags_allowed(tmp_path: Path) -> None:
    from material.plugins.tags.structure.mapping import manager
    from material.plugins.tags.structure.tag import Tag

    config = load(project(tmp_path, theme={"name": "material"}, plugins=["tags"]))
    internals.allow_tags(config, ["sql", "gpu"])
    tags = config.plugins["material/tags"]
    assert tags.config["tags_allowed"] == {Tag("sql"), Tag("gpu")}, changed(
        "material tags plugin config tags_allowed", "not a set of Tag"
    )
    assert "self.config.tags_allowed" in inspect.getsource(manager), changed(
        "material tags plugin", "no longer reads tags_allowed (allow_tags)"
    )


def test_material_search_switched_off(tmp_path: Path) -> None:
    config = load(project(tmp_path, theme={"name": "material"}, plugins=["search"]))
    internals.switch_off_material_search(config)
    search = config.plugins["material/search"]
    assert search.config["enabled"] is False, changed(
        "material search plugin config", "has no enabled option (switch_off_material_search)"
    )
    for event in ("on_config", "on_page_context", "on_post_build"):
        body = inspect.getsource(getattr(type(search), event))
        assert re.search(r"if not self\.config\.enabled:\s+return", body), changed(
            f"material search plugin {event}",
            "no longer checks its enabled option (switch_off_material_search)",
        )


def test_keys_the_user_wrote(tmp_path: Path) -> None:
    repo = "https://github.com/example/bank"
    derived = load(project(tmp_path / "a", repo_url=repo))
    written = load(project(tmp_path / "b", repo_url=repo, edit_uri="edit/trunk/docs/"))
    assert derived.edit_uri, "MkDocs no longer derives edit_uri from a GitHub repo_url"
    assert not internals.written_by_user(derived, "edit_uri"), changed(
        "Config.user_configs", "holds keys MkDocs derived"
    )
    assert internals.written_by_user(written, "edit_uri"), changed(
        "Config.user_configs", "no longer holds the keys of the config file (written_by_user)"
    )
