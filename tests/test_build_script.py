"""``qbank build``: the publisher-neutral docs tree, written from the plugin's renderer, and
each publisher's real build of it (MkDocs 1.6 without the plugin, ProperDocs, Zensical)."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from sitebuild import PUBLISHERS, publish_tree, write_tree

from qbank.bank.load import load_bank
from qbank.site.memory import releasing
from qbank.site.render import RenderOptions, page_paths, render_site, without_placeholders
from qbank.tools.verify import verify_site
from qbank.tree.build import TreeBuilder, read_user_config

QBANK = str(Path(sys.executable).parent / "qbank")
INPUT_WAIT = "ml-engineer/throughput/input-wait.yaml"
INPUT_WAIT_ID = "01a05d13-8d21-739a-baa2-7dab67be4001"


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "site" not in p.relative_to(folder).parts[:1]
    }


def _edit_prompt(content: Path, text: str) -> None:
    path = content / INPUT_WAIT
    data = yaml.safe_load(path.read_text("utf-8"))
    data["prompt"]["en"] = text
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")


def test_tree_holds_every_page_the_assets_data_and_index(tmp_path: Path, small_bank: Path) -> None:
    tree = write_tree(tmp_path, small_bank)
    bank = load_bank(small_bank)
    docs = tree / "docs"
    for locale in ("en", "tr", "zh"):
        for path in page_paths(bank, locale):
            assert (docs / path).is_file(), path
        assert not (docs / locale / "api/bank.json").exists()  # opt-in: bank_json
        assert (docs / locale / "api/search/index.json").is_file()
        assert (docs / locale / "api/practice/backend/junior.json").is_file()
    assert (docs / "index.md").is_file()
    for asset in ("qbank.css", "qbank.js", "search.css", "search.js"):
        assert (docs / "assets" / asset).read_bytes()
    assert (docs / "images/ml-engineer/numerics/bits.png").is_file()
    # a page-loaded asset comes along with the page that loads it
    assert "assets/transfer.js" in (docs / "tr/progress/index.md").read_text("utf-8")
    assert (docs / "assets/transfer.js").read_bytes()
    topic = (docs / "en/ml-engineer/throughput/index.md").read_text("utf-8")
    # the question's Markdown heading (toc entry), then its HTML: no placeholder is left
    assert re.search(rf"^## .+ \{{#h-{INPUT_WAIT_ID}\}}$", topic, re.MULTILINE)
    assert f'<div class="qb-q" id="q-{INPUT_WAIT_ID}"' in topic
    assert "qbank:question:" not in topic
    assert (tree / "overrides/partials/language.html").is_file()


def test_config_carries_the_user_settings_without_the_plugin(
    tmp_path: Path, small_bank: Path
) -> None:
    tree = write_tree(
        tmp_path,
        small_bank,
        markdown_extensions=["footnotes", {"toc": {"permalink": "#"}}],
        extra={"analytics": {"provider": "custom"}},
        extra_css=["my.css"],
    )
    config = read_user_config(tree / "mkdocs.yml")
    assert config["plugins"] == []  # qbank's and tags are left out
    assert config["docs_dir"] == "docs"
    assert config["site_dir"] == "site"
    assert config["edit_uri"] == ""
    assert config["theme"]["custom_dir"] == "overrides"
    assert config["markdown_extensions"][:2] == ["footnotes", {"toc": {"permalink": "#"}}]
    assert {"attr_list", "admonition", "tables"} <= set(map(str, config["markdown_extensions"]))
    assert config["extra_css"] == ["my.css", "assets/qbank.css", "assets/search.css"]
    assert config["extra"]["analytics"] == {"provider": "custom"}
    assert config["extra"]["qbank_languages"] == {"en": "en", "tr": "tr", "zh": "zh"}
    names = [next(iter(item)) for item in config["nav"][1:]]
    assert names == ["English", "Türkçe", "中文"]


def test_hand_written_pages_of_the_docs_dir_come_along(tmp_path: Path, small_bank: Path) -> None:
    own = tmp_path / "pages"
    (own / "about").mkdir(parents=True)
    (own / "about/index.md").write_text("# About this bank\n", "utf-8")
    (own / "en").mkdir()
    (own / "en/index.md").write_text("# shadowed by the bank's home\n", "utf-8")
    tree = write_tree(tmp_path, small_bank, docs_dir="pages")
    assert (tree / "docs/about/index.md").read_text("utf-8") == "# About this bank\n"
    assert "shadowed" not in (tree / "docs/en/index.md").read_text("utf-8")
    # ... and into the menu, after the locales (the bank's own page of that name is no
    # hand-written page)
    assert yaml.safe_load((tree / "mkdocs.yml").read_text("utf-8"))["nav"][-1] == "about/index.md"


def test_tags_of_the_user_config_are_kept_as_written(tmp_path: Path, small_bank: Path) -> None:
    """An !ENV or !!python tag is written back, never run."""
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: !ENV [QBANK_SITE_NAME, Small]\n"
        "markdown_extensions:\n"
        "  - pymdownx.emoji:\n"
        "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n",
        "utf-8",
    )
    builder = TreeBuilder(small_bank, tmp_path / "tree", tmp_path / "mkdocs.yml")
    builder.build()
    text = (tmp_path / "tree/mkdocs.yml").read_text("utf-8")
    assert "!!python/name:material.extensions.emoji.twemoji" in text


def test_writing_is_deterministic_and_only_rewrites_changed_bytes(
    tmp_path: Path, small_bank: Path
) -> None:
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: Small\n", "utf-8")
    first = TreeBuilder(small_bank, tmp_path / "a", config, keep=True)  # as under --watch
    assert first.build().written
    # one locale rendered, written and let go after the other: the same bytes
    assert TreeBuilder(small_bank, tmp_path / "b", config).build().written
    assert _files(tmp_path / "a") == _files(tmp_path / "b")
    again = first.build()
    assert again.written == []
    assert again.removed == []
    assert again.unchanged > 50  # (the search index files are its own: not counted)
    stale = tmp_path / "a/docs/en/gone/index.md"
    stale.parent.mkdir(parents=True)
    stale.write_text("old", "utf-8")
    _edit_prompt(small_bank, "Where does a step spend its 118 ms?")
    report = first.build()
    assert "docs/en/ml-engineer/throughput/index.md" in report.written
    assert "docs/en/backend/indexing/index.md" not in report.written
    # no practice file: the lists hold ids and pages, no text (a session reads the edited
    # prompt from its page), and the other field's lists are not even made again
    assert not any(p.startswith("docs/en/api/practice/") for p in report.written)
    assert (tmp_path / "a/docs/en/api/practice/ml-engineer/mid.json").is_file()
    backend = "docs/en/api/practice/backend/mid.json"
    assert backend not in report.removed
    assert (tmp_path / "a" / backend).is_file()
    assert not any(path.startswith(("docs/tr/", "docs/zh/")) for path in report.written)
    # the other field's pages are not made again (nor compared), and stay
    assert not any(p.startswith("docs/en/backend/") for p in report.written + report.removed)
    assert (tmp_path / "a/docs/en/backend/indexing/index.md").is_file()
    # the stale page, and the en index's terms files the edit left without a word
    assert "docs/en/gone/index.md" in report.removed
    assert all(p.startswith(("docs/en/gone/", "docs/en/api/search/t/")) for p in report.removed)
    page = (tmp_path / "a/docs/en/ml-engineer/throughput/index.md").read_text("utf-8")
    assert "Where does a step spend its 118 ms?" in page
    # the edit's pages, data files and search index files (updated in place) are those a
    # build from nothing writes
    TreeBuilder(small_bank, tmp_path / "c", config).build()
    assert _files(tmp_path / "a") == _files(tmp_path / "c")
    index = "docs/en/api/search"
    assert any(path.startswith(index) for path in _files(tmp_path / "a"))


@pytest.mark.parametrize("page_size", [50, 2])
def test_tree_pages_read_as_pages_rendered_without_placeholders(
    small_bank: Path, page_size: int
) -> None:
    bank = load_bank(small_bank)
    options = RenderOptions(page_size=page_size, defer_files=True)
    plain = render_site(bank, options)
    held = render_site(bank, dataclasses.replace(options, placeholders=True))
    assert plain.pages.keys() == held.pages.keys()
    assert any("qbank:question:" in page for page in held.pages.values())
    assert any("qbank:html:" in page for page in held.pages.values())  # seniority lists
    for path, page in held.pages.items():
        assert without_placeholders(held, page) == plain.pages[path], path


def test_releasing_lets_a_written_locale_go(small_bank: Path) -> None:
    bank = load_bank(small_bank)
    options = RenderOptions(placeholders=True, defer_files=True, locales=("en",))
    site = render_site(bank, options)
    assert site.blocks
    assert site.deferred
    assert site.html
    with releasing(site):
        assert not site.blocks  # the pages are written: their runs go first
        assert not site.html
        assert list(site.deferred["en"]())  # the data files are still to write
    assert not site.deferred


def test_a_bank_with_errors_writes_nothing(tmp_path: Path, small_bank: Path) -> None:
    tree = write_tree(tmp_path, small_bank)
    before = _files(tree)
    (small_bank / INPUT_WAIT).write_text("id: [unclosed\n", "utf-8")
    result = subprocess.run(
        [QBANK, "build", "--out", str(tree), "--content", str(small_bank)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert "input-wait.yaml" in result.stderr
    assert "nothing was written" in result.stderr
    assert "Traceback" not in result.stderr
    assert _files(tree) == before


def test_a_broken_mkdocs_yml_is_named_with_its_line(tmp_path: Path, small_bank: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: Small\ntheme: [unclosed\n", "utf-8")
    result = subprocess.run(
        [QBANK, "build", "--content", str(small_bank)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert "mkdocs.yml:3:1:" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "build/publish/docs").exists()


@pytest.mark.parametrize("publisher", PUBLISHERS)
def test_each_publisher_publishes_the_tree(
    tmp_path: Path, small_bank: Path, publisher: str
) -> None:
    tree = write_tree(tmp_path, small_bank)
    try:
        site = publish_tree(tree, publisher)
    except subprocess.CalledProcessError as error:
        pytest.fail(f"{publisher} build failed:\n{error.stdout[-3000:]}\n{error.stderr[-3000:]}")
    assert verify_site(site, load_bank(small_bank)) == []
    for locale in ("en", "tr", "zh"):
        html = (site / locale / "backend/indexing/index.html").read_text("utf-8")
        # one build of every locale, each page in its own language
        assert f'<html lang="{locale}"' in html
        assert f'class="qb-search" data-locale="{locale}"' in html
        assert 'id="h-01a05d13-8d21-739a-baa2-7dab67be4007"' in html
        assert "qbank:question:" not in html
        assert "md-content__button" not in html  # no page edit button into the tree
        assert 'class="qb-edit" href="https://github.com/qbank-dev/qbank/edit/main/' in html
    tr = (site / "tr/backend/indexing/index.html").read_text("utf-8")
    # the language switcher links the same page in each locale
    assert 'href="../../../zh/backend/indexing/" hreflang="zh"' in tr


def test_watch_rewrites_the_tree_on_an_edit(tmp_path: Path, small_bank: Path) -> None:
    tree = write_tree(tmp_path, small_bank)
    page = tree / "docs/en/ml-engineer/throughput/index.md"
    watcher = subprocess.Popen(
        [QBANK, "build", "--watch", "--out", str(tree), "--content", str(small_bank)],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert watcher.stdout is not None
        for line in watcher.stdout:
            if line.startswith("watching"):
                break
        _edit_prompt(small_bank, "An edited prompt, seen by the watcher")
        deadline = time.monotonic() + 120  # a generous bound for a shared machine, not a timing
        while "An edited prompt, seen by the watcher" not in page.read_text("utf-8"):
            assert watcher.poll() is None, "the watcher stopped"
            assert time.monotonic() < deadline, "the tree was not rewritten"
            time.sleep(0.2)
    finally:
        watcher.terminate()
        watcher.wait(timeout=30)


def test_a_watch_build_counts_every_file_it_writes(tmp_path: Path, small_bank: Path) -> None:
    """`qbank build --watch` says how many files it wrote: its search index too (written by
    the live index, not by the tree's sync)."""
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: Small\n", "utf-8")
    tree = tmp_path / "tree"
    report = TreeBuilder(small_bank, tree, config, keep=True).build()
    on_disk = {p.relative_to(tree).as_posix() for p in tree.rglob("*") if p.is_file()}
    # (the offline service worker and manifests, written by the tree's _offline on every
    # build, are not in the report yet)
    offline = {p for p in on_disk if "/api/offline/" in p or p.endswith("/sw.js")}
    assert sorted(report.written) == sorted(on_disk - offline)
    assert any("/api/search/" in path for path in report.written)


def test_the_tree_carries_bank_json_only_when_asked(tmp_path: Path, small_bank: Path) -> None:
    """``bank_json: true`` in the plugin's settings: ``qbank build`` writes it as the
    plugin's build does (the default tree has none: test above)."""
    plugins = [{"qbank": {"content_dir": str(small_bank), "bank_json": True}}, "tags"]
    docs = write_tree(tmp_path, small_bank, plugins=plugins) / "docs"
    for locale in ("en", "tr", "zh"):
        assert json.loads((docs / locale / "api/bank.json").read_text("utf-8"))["questions"]


def test_text_that_only_looks_like_a_block_of_html_stays() -> None:
    from qbank.plugin.pages import insert_html
    from qbank.site.render import HTML_BLOCK, RenderedSite

    known, unknown = HTML_BLOCK.format("0" * 20), HTML_BLOCK.format("f" * 20)
    site = RenderedSite(html={"0" * 20: "<ul><li>kept</li></ul>"})
    assert without_placeholders(site, f"{known}\n\n{unknown}\n") == (
        f"<ul><li>kept</li></ul>\n\n{unknown}\n"
    )
    html = f"<p>{known}</p>\n<p>{unknown}</p>"
    assert insert_html(html, site.html) == f"<ul><li>kept</li></ul>\n<p>{unknown}</p>"
