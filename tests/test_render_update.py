"""``update_site`` (``mkdocs serve`` after an edit): rendering again only the pages that show
changed questions gives exactly what a render of the whole site gives."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from support.rendered import expanded

from qbank.bank.load import load_bank
from qbank.bank.loaded import Bank, Entry
from qbank.live.reload import BankCache
from qbank.site import render
from qbank.site.render import (
    BodyCache,
    RenderOptions,
    render_site,
    update_site,
)

SAMPLE = Path(__file__).resolve().parent.parent / "content"
OPTIONS = RenderOptions(
    edit_url="https://example.org/edit/main/content/",
    report_url="https://example.org/issues/new",
    placeholders=True,
    defer_files=True,
)
CACHE = "backend-engineer/caching"


class Session:
    """A bank folder served by one process: a file cache and bodies kept across renders."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: BankCache = BankCache()
        self.bodies = BodyCache()
        self.bank = load_bank(root, self.files)
        self.site = render_site(self.bank, OPTIONS, self.bodies)

    def reload(self) -> tuple[Bank, frozenset[str] | None]:
        """Load again; update the site from the last one; check it against a full render."""
        bank = load_bank(self.root, self.files)
        update = update_site(self.bank, self.site, bank, OPTIONS, self.bodies)
        assert update is not None
        assert expanded(update.site) == expanded(render_site(bank, OPTIONS, BodyCache()))
        self.bank, self.site = bank, update.site
        return bank, update.fields


@pytest.fixture
def session(tmp_path: Path) -> Session:
    shutil.copytree(SAMPLE, tmp_path / "content")
    return Session(tmp_path / "content")


def edit(path: Path, change: dict[str, Any]) -> None:
    data = yaml.safe_load(path.read_text("utf-8"))
    data.update(change)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")


def test_edits_additions_moves_and_removals_match_a_full_render(session: Session) -> None:
    root = session.root
    files = sorted((root / CACHE).glob("*.yaml"))
    first = yaml.safe_load(files[0].read_text("utf-8"))

    # One locale's prompt: only that question's pages change.
    prompt = {**first["prompt"], "en": "Which **read path** does cache-aside use?"}
    edit(files[0], {"prompt": prompt})
    _, fields = session.reload()
    assert fields == frozenset({"backend-engineer"})

    # Difficulty and seniority move the question within its topic and its level pages.
    edit(files[1], {"difficulty": 3, "seniority": ["senior"]})
    session.reload()

    # A new question, a question moved to another field's topic, a removed question.
    added = yaml.safe_load(files[2].read_text("utf-8"))
    added["id"] = "01a228f4-40ee-76ca-8a2b-285b91c1f000"
    added["prompt"] = {"en": "A question written during a preview session?"}
    added["options"] = {key: {"en": texts["en"]} for key, texts in added["options"].items()}
    added["explanation"] = {"en": added["explanation"]["en"]}
    (root / CACHE / "new-question.yaml").write_text(
        yaml.safe_dump(added, allow_unicode=True, sort_keys=False), "utf-8"
    )
    session.reload()
    moved = root / "ml-engineer/optimization" / files[3].name
    files[3].rename(moved)
    _, fields = session.reload()
    assert fields == frozenset({"backend-engineer", "ml-engineer"})
    files[4].unlink()
    bank, _ = session.reload()
    assert len(bank.entries) == sum(1 for _ in root.rglob("*.yaml")) - 1  # (the catalog)

    # Nothing changed: no page is rendered differently, and blocks do not pile up.
    blocks = len(session.site.blocks)
    _, fields = session.reload()
    assert fields == frozenset()
    assert len(session.site.blocks) == blocks


def test_another_catalog_needs_a_full_render(session: Session) -> None:
    catalog = session.root / "catalog.yaml"
    catalog.write_text(catalog.read_text("utf-8").replace("Caching", "Caching layers", 1), "utf-8")
    bank = load_bank(session.root, session.files)
    assert bank.catalog != session.bank.catalog
    assert update_site(session.bank, session.site, bank, OPTIONS, session.bodies) is None


def test_an_update_makes_again_only_the_headings_of_the_topics_it_changed(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The seniority pages of an edited question's field list every question of the field by
    # its heading: the other topics' headings are the ones the last render made.
    made: set[tuple[str, str]] = set()
    real = render.topic_headings

    def counted(entries: list[Entry], locale: str, *rest: Any) -> Any:
        made.update((entry.field, entry.topic) for entry in entries)
        return real(entries, locale, *rest)

    monkeypatch.setattr(render, "topic_headings", counted)
    files = sorted((session.root / CACHE).glob("*.yaml"))
    prompt = yaml.safe_load(files[0].read_text("utf-8"))["prompt"]
    edit(files[0], {"prompt": {**prompt, "en": "Which cache pattern reads through?"}})
    bank = load_bank(session.root, session.files)
    others = {(e.field, e.topic) for e in bank.field_entries("backend-engineer")}
    assert len(others) > 1  # (the field has topics the edit did not touch)
    update = update_site(session.bank, session.site, bank, OPTIONS, session.bodies)
    assert update is not None
    assert made == {tuple(CACHE.split("/"))}
    assert expanded(update.site) == expanded(render_site(bank, OPTIONS, BodyCache()))
