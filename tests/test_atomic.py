"""Atomic output: a failed build leaves the previous site byte for byte; a good one replaces it.

Every build here is a real ``mkdocs build --strict`` (conftest.build_site). The failures are
real too: a question the validator refuses, a theme template that breaks on the pages of a
later locale (after the first locale was already written), an MkDocs hook that fails in
``post_build`` the way a search indexer would, and a strict-mode warning.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from sitebuild import QUESTIONS, build_site, write_small_bank

from qbank.site.output import STAGING_PREFIX, discard, move_into, publish, remove_tree, stage

REMOVED = "backend/indexing/covering-index.yaml"


def snapshot(site: Path) -> dict[str, bytes]:
    """Every file of a site folder with its bytes."""
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}


def leftovers(tmp_path: Path) -> list[str]:
    return [p.name for p in tmp_path.iterdir() if p.name.startswith(STAGING_PREFIX)]


@pytest.fixture
def first(tmp_path: Path) -> tuple[Path, Path, dict[str, bytes]]:
    """(content, site, snapshot) after a first good build."""
    content = write_small_bank(tmp_path / "content")
    site = build_site(tmp_path, content)
    return content, site, snapshot(site)


def fails(tmp_path: Path, content: Path, **overrides: object) -> str:
    with pytest.raises(subprocess.CalledProcessError) as failure:
        build_site(tmp_path, content, **overrides)
    return str(failure.value.stderr)


def test_content_error_leaves_the_site(
    tmp_path: Path, first: tuple[Path, Path, dict[str, bytes]]
) -> None:
    content, site, before = first
    (content / "backend/indexing/broken.yaml").write_text("id: [unclosed\n", "utf-8")
    assert "nothing was built" in fails(tmp_path, content)
    assert snapshot(site) == before
    assert leftovers(tmp_path) == []


def test_template_error_in_a_later_locale_leaves_the_site(
    tmp_path: Path, first: tuple[Path, Path, dict[str, bytes]]
) -> None:
    content, site, before = first
    overrides = tmp_path / "overrides"
    overrides.mkdir()
    # Breaks only on zh pages: built by the last derived build, after en and tr are written.
    (overrides / "main.html").write_text(
        '{% extends "base.html" %}{% block content %}'
        '{% if page.url.startswith("zh/") %}{{ qbank_test_missing_function() }}{% endif %}'
        "{{ super() }}{% endblock %}",
        "utf-8",
    )
    error = fails(tmp_path, content, theme={"name": "material", "custom_dir": "overrides"})
    assert "qbank_test_missing_function" in error
    assert snapshot(site) == before
    assert leftovers(tmp_path) == []


def test_failing_post_build_step_leaves_the_site(
    tmp_path: Path, first: tuple[Path, Path, dict[str, bytes]]
) -> None:
    """A step after all pages are written (where search indexing runs) fails."""
    content, site, before = first
    (tmp_path / "indexer.py").write_text(
        "from pathlib import Path\n"
        "from mkdocs.plugins import event_priority\n\n"
        "@event_priority(-50)  # after qbank's locale builds, before it publishes\n"
        "def on_post_build(config):\n"
        "    site = Path(config.site_dir)\n"
        "    if not all((site / f'{loc}/index.html').is_file() for loc in ('en', 'tr', 'zh')):\n"
        "        return  # a derived per-locale build (it loads the hooks too)\n"
        "    raise RuntimeError('search index: writing the index failed')\n",
        "utf-8",
    )
    (content / REMOVED).unlink()  # a change that must not reach the site either
    error = fails(tmp_path, content, hooks=["indexer.py"])
    assert "writing the index failed" in error
    assert snapshot(site) == before
    assert leftovers(tmp_path) == []


def test_strict_warning_leaves_the_site(
    tmp_path: Path, first: tuple[Path, Path, dict[str, bytes]]
) -> None:
    _content, site, before = first
    (tmp_path / "docs" / "about.md").write_text("# About\n\n[gone](nowhere.md)\n", "utf-8")
    # Not quiet: with -q MkDocs does not count warnings, even in strict mode.
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert build.returncode == 1
    assert "strict mode" in build.stdout + build.stderr
    assert snapshot(site) == before
    assert leftovers(tmp_path) == []


def test_success_replaces_the_site_and_removed_questions_go(
    tmp_path: Path, first: tuple[Path, Path, dict[str, bytes]]
) -> None:
    content, site, before = first
    removed_id = QUESTIONS[REMOVED]["id"]
    assert any(removed_id.encode() in data for data in before.values())
    (site / "en" / "stale.html").write_text("<p>left over</p>", "utf-8")
    (content / REMOVED).unlink()
    # The backend field goes too: its pages must not linger either.
    catalog = yaml.safe_load((content / "catalog.yaml").read_text("utf-8"))
    del catalog["fields"]["backend"]
    (content / "catalog.yaml").write_text(yaml.safe_dump(catalog, allow_unicode=True), "utf-8")
    for path in (content / "backend").rglob("*.yaml"):
        path.unlink()
    build_site(tmp_path, content)
    after = snapshot(site)
    assert "en/stale.html" not in after
    assert not any(page.startswith(("en/backend/", "tr/backend/")) for page in after)
    assert not any(removed_id.encode() in data for data in after.values())
    assert "en/ml-engineer/throughput/index.html" in after
    assert leftovers(tmp_path) == []


def test_publish_swaps_and_discard_keeps(tmp_path: Path) -> None:
    site = tmp_path / "site"
    staging = stage(site)
    (staging / "a.html").write_text("one", "utf-8")
    publish(staging, site)  # no previous site: a rename
    assert (site / "a.html").read_text("utf-8") == "one"
    staging = stage(site)
    (staging / "b.html").write_text("two", "utf-8")
    seen: list[list[str]] = []  # (what the site holds while the previous one is removed)
    publish(staging, site, lambda: seen.append(sorted(p.name for p in site.iterdir())))
    assert seen == [["b.html"]]
    assert sorted(p.name for p in site.iterdir()) == ["b.html"]
    assert leftovers(tmp_path) == []  # (the previous site gone once it returns)
    staging = stage(site)
    (staging / "c.html").write_text("three", "utf-8")
    discard(staging)
    assert sorted(p.name for p in site.iterdir()) == ["b.html"]
    assert leftovers(tmp_path) == []


def test_a_previous_site_is_removed_whole_and_nothing_outside_it(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    (outside / "field").mkdir(parents=True)
    (outside / "field" / "keep.html").write_text("kept")
    old = tmp_path / "old"
    for locale in ("en", "tr"):
        for field in ("a", "b", "c"):
            folder = old / locale / field / "topic"
            folder.mkdir(parents=True)
            (folder / "index.html").write_text(f"{locale} {field}")
        (old / locale / "index.html").write_text(locale)
        (old / locale / "linked").symlink_to(outside, target_is_directory=True)
    (old / "en" / "a" / "out").symlink_to(outside / "field", target_is_directory=True)
    (old / "sitemap.xml").write_text("<urlset/>")
    remove_tree(old)
    assert not old.exists()
    assert (outside / "field" / "keep.html").read_text() == "kept"


def test_move_into_moves_new_folders_whole_and_merges_the_others(tmp_path: Path) -> None:
    served, staging = tmp_path / "served", tmp_path / "staging"
    (served / "en" / "old").mkdir(parents=True)
    (served / "en" / "old" / "index.html").write_text("old page")
    (served / "en" / "index.html").write_text("en before")
    (served / "404.html").write_text("404 before")
    files = {
        "404.html": "404 after",
        "en/index.html": "en after",
        "en/new/index.html": "new topic",
        "en/new/2/index.html": "its part",
        "tr/index.html": "tr",
        "tr/a/b/index.html": "deep",
    }
    for relative, text in files.items():
        (staging / relative).parent.mkdir(parents=True, exist_ok=True)
        (staging / relative).write_text(text)
    inode = (staging / "tr").stat().st_ino
    assert move_into(staging, served) == set(files)
    assert {p.relative_to(served).as_posix(): p.read_text() for p in served.rglob("*.html")} == {
        **files,
        "en/old/index.html": "old page",
    }
    assert (served / "tr").stat().st_ino == inode  # (a folder served did not have: one rename)
    assert not [p for p in staging.rglob("*") if p.is_file()]
