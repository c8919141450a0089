"""`qbank init` and a bank of one's own: the laid-out repository builds as it is, its
hand-written pages (and a `nav:` of its own) join qbank's menu, the build says nothing about
qbank's own pages, and every command takes `--content DIR`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from selectolax.lexbor import LexborHTMLParser as HTMLParser

from qbank.tools.cli import main

MKDOCS = [sys.executable, "-m", "mkdocs"]


def init(where: Path, *args: str) -> Path:
    result = CliRunner().invoke(main, ["init", str(where), *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return where


def build(bank: Path) -> str:
    """``mkdocs build --strict`` in ``bank``; its log."""
    done = subprocess.run(
        [*MKDOCS, "build", "--strict"],
        cwd=bank,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


def menu(page: Path) -> list[tuple[str, str]]:
    """The (text, link) of the primary menu's top-level entries of a built page."""
    tree = HTMLParser(page.read_text(encoding="utf-8"))
    items = tree.css("nav.md-nav--primary > ul > li > a, nav.md-nav--primary > ul > li > label")
    return [(i.text(strip=True), i.attributes.get("href") or "") for i in items]


def test_init_lays_out_a_bank_that_builds(tmp_path: Path) -> None:
    bank = init(tmp_path / "bank", "--locales", "en,tr,zh")
    names = {p.relative_to(bank).as_posix() for p in bank.rglob("*") if p.is_file()}
    assert {
        "mkdocs.yml",
        "requirements.txt",
        "docs/about.md",
        ".gitignore",
        ".pre-commit-config.yaml",
        ".vscode/settings.json",
        ".github/workflows/pull-request.yml",
        ".github/workflows/deploy.yml",
        ".github/pull_request_template.md",
        ".github/ISSUE_TEMPLATE/question-problem.yml",
        "content/catalog.yaml",
        "schemas/question.schema.json",
        "schemas/catalog.schema.json",
        "schemas/bank-export.schema.json",
    } <= names
    questions = sorted((bank / "content" / "example" / "getting-started").glob("*.yaml"))
    assert len(questions) == 3  # one per locale, each in its locale
    locales = {next(iter(yaml.safe_load(q.read_text("utf-8"))["prompt"])) for q in questions}
    assert locales == {"en", "tr", "zh"}
    export = json.loads((bank / "schemas" / "bank-export.schema.json").read_text("utf-8"))
    assert export["$id"].endswith("/v0.1.0/schemas/bank-export.schema.json")
    log = build(bank)
    assert "not included in the" not in log  # qbank's own pages: no note
    site = bank / "site"
    for locale in ("en", "tr", "zh"):  # built once, by the default locale's build
        assert ("About this bank", "../about/") in menu(site / locale / "index.html"), locale
    assert (site / "about" / "index.html").is_file()
    titles = {
        path: HTMLParser((site / path).read_text("utf-8")).css_first("title").text()
        for path in ("index.html", "en/index.html")
    }
    assert titles == {"index.html": "Question bank", "en/index.html": "Home - Question bank"}


def test_a_nav_of_ones_own_is_kept_after_qbanks(tmp_path: Path) -> None:
    bank = init(tmp_path / "bank")
    (bank / "docs" / "guide.md").write_text("# How we review\n\nTwo reviewers.\n", "utf-8")
    config = (bank / "mkdocs.yml").read_text("utf-8")
    nav = "nav:\n  - Our guide: guide.md\n  - About: about.md\n"
    (bank / "mkdocs.yml").write_text(config + nav, "utf-8")
    log = build(bank)
    assert "not included in the" not in log
    entries = menu(bank / "site" / "en" / "index.html")
    texts = [text for text, _ in entries]
    assert texts[0] == "Home"
    assert texts[-2:] == ["Our guide", "About"]  # the maintainer's, in their order, last


def test_init_keeps_what_exists_and_refuses_unknown_locales(tmp_path: Path) -> None:
    bank = tmp_path / "bank"
    bank.mkdir()
    (bank / "mkdocs.yml").write_text("site_name: Mine\n", "utf-8")
    result = CliRunner().invoke(main, ["init", str(bank)], catch_exceptions=False)
    assert result.exit_code == 0
    assert "kept as it was: " in result.stderr
    assert (bank / "mkdocs.yml").read_text("utf-8") == "site_name: Mine\n"
    result = CliRunner().invoke(main, ["init", str(tmp_path / "b"), "--locales", "en,fr"])
    assert result.exit_code == 1
    assert "expected some of en, tr, zh (no example for fr)" in result.stderr
    assert not (tmp_path / "b").exists()


def test_validate_and_schema_take_content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bank = init(tmp_path / "bank", "--content", "questions")
    assert "content_dir: questions" in (bank / "mkdocs.yml").read_text("utf-8")
    monkeypatch.chdir(bank)
    result = CliRunner().invoke(main, ["validate", "--content", "questions"])
    assert result.exit_code == 0, result.output
    assert result.stdout == "ok: 1 question(s), no problems\n"
    result = CliRunner().invoke(main, ["validate"])  # (no content/ here)
    assert result.exit_code == 1
    (bank / "schemas" / "question.schema.json").unlink()
    result = CliRunner().invoke(main, ["schema", "--content", "questions"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "schemas/question.schema.json"
    assert (bank / "schemas" / "question.schema.json").is_file()
