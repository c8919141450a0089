"""Reuse across serve rebuilds: unchanged files are not re-read, edited ones always are."""

from __future__ import annotations

from pathlib import Path

import yaml
from sitebuild import write_small_bank

from qbank.bank import Checked, load_bank
from qbank.cache import FileCache
from qbank.render import BodyCache, RenderOptions, render_site

QUESTION = "backend/indexing/covering-index.yaml"


def test_an_edit_is_seen_and_the_rest_is_reused(tmp_path: Path) -> None:
    content = write_small_bank(tmp_path / "content")
    checked: FileCache[Checked] = FileCache()
    bodies = BodyCache()
    options = RenderOptions(placeholders=True)
    first = load_bank(content, checked)
    first_site = render_site(first, options, bodies)
    path = content / QUESTION
    data = yaml.safe_load(path.read_text("utf-8"))
    data["prompt"]["en"] = "Zebracorn: " + data["prompt"]["en"]
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    second = load_bank(content, checked)
    second_site = render_site(second, options, bodies)

    edited = [e for e in second.entries if e.file.endswith(QUESTION)]
    assert len(edited) == 1
    assert "Zebracorn" in edited[0].question.prompt["en"]
    old = {e.id: e for e in first.entries}
    for entry in second.entries:
        assert (entry is old[entry.id]) == (entry is not edited[0])
    assert not any("Zebracorn" in block for block in first_site.blocks)
    assert any("Zebracorn" in block for block in second_site.blocks)
    uncached = render_site(load_bank(content), options)
    assert uncached.blocks == second_site.blocks
    assert uncached.pages == second_site.pages


def test_a_changed_catalog_rechecks_every_file(tmp_path: Path) -> None:
    content = write_small_bank(tmp_path / "content")
    checked: FileCache[Checked] = FileCache()
    first = load_bank(content, checked)
    catalog = content / "catalog.yaml"
    catalog.write_text(catalog.read_text("utf-8") + "\n", "utf-8")
    second = load_bank(content, checked)
    assert not any(a is b for a, b in zip(first.entries, second.entries, strict=True))


def test_a_deleted_file_leaves_the_bank(tmp_path: Path) -> None:
    content = write_small_bank(tmp_path / "content")
    checked: FileCache[Checked] = FileCache()
    first = load_bank(content, checked)
    (content / QUESTION).unlink()
    second = load_bank(content, checked)
    assert len(second.entries) == len(first.entries) - 1
    assert not any(e.file.endswith(QUESTION) for e in second.entries)
