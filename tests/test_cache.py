"""Reuse across serve rebuilds: unchanged files are not re-read, edited ones always are."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from sitebuild import write_small_bank

from qbank.bank.load import load_bank
from qbank.bank.problems import ContentError
from qbank.live.reload import BankCache
from qbank.site.render import BodyCache, RenderOptions, render_site

QUESTION = "backend/indexing/covering-index.yaml"
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082"
)


def test_an_edit_is_seen_and_the_rest_is_reused(tmp_path: Path) -> None:
    content = write_small_bank(tmp_path / "content")
    checked: BankCache = BankCache()
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
    reused = [entry for entry in second.entries if entry is old[entry.id]]
    assert edited[0] not in reused
    assert len(reused) >= len(second.entries) // 2  # questions with images are re-checked

    # a one-paragraph prompt shows as the heading, not again in the HTML below it
    def shown(slot: Any) -> str:
        return slot.title + slot.html

    assert not any("Zebracorn" in shown(slot) for run in first_site.blocks for slot in run)
    assert any("Zebracorn" in shown(slot) for run in second_site.blocks for slot in run)
    uncached = render_site(load_bank(content), options)
    assert uncached.blocks == second_site.blocks
    assert uncached.pages == second_site.pages


def test_a_changed_catalog_rechecks_every_file(tmp_path: Path) -> None:
    content = write_small_bank(tmp_path / "content")
    checked: BankCache = BankCache()
    first = load_bank(content, checked)
    catalog = content / "catalog.yaml"
    catalog.write_text(catalog.read_text("utf-8") + "\n", "utf-8")
    second = load_bank(content, checked)
    assert not any(a is b for a, b in zip(first.entries, second.entries, strict=True))


def test_a_deleted_file_leaves_the_bank(tmp_path: Path) -> None:
    content = write_small_bank(tmp_path / "content")
    checked: BankCache = BankCache()
    first = load_bank(content, checked)
    (content / QUESTION).unlink()
    second = load_bank(content, checked)
    assert len(second.entries) == len(first.entries) - 1
    assert not any(e.file.endswith(QUESTION) for e in second.entries)


def test_an_image_that_appears_or_vanishes_is_seen(tmp_path: Path) -> None:
    content = write_small_bank(tmp_path / "content")
    checked: BankCache = BankCache()
    path = content / QUESTION
    data = yaml.safe_load(path.read_text("utf-8"))
    data["prompt"]["en"] += "\n\n![plan](plan.png)\n"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    with pytest.raises(ContentError) as missing:
        load_bank(content, checked)
    assert "plan.png" in missing.value.problems[0].format_text()
    image = path.parent / "plan.png"
    image.write_bytes(PNG)
    load_bank(content, checked)
    image.unlink()
    with pytest.raises(ContentError) as gone:
        load_bank(content, checked)
    assert "plan.png" in gone.value.problems[0].format_text()
