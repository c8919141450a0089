# ruff: noqa: RUF001  (Turkish test content)
"""A warning never removes a question (issue 35; PRODUCT.md: a question is never silently
dropped): a bank holding every kind of warning the rules give loads, builds and verifies
with every one of its question files, in every locale, and ``qbank verify`` names a
question file the bank left out."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from selectolax.lexbor import LexborHTMLParser
from sitebuild import ROOT, build_site, write_bank

from qbank.bank.load import check_bank, load_bank, validate_bank
from qbank.bank.problems import Severity
from qbank.tools.cli import main
from qbank.tools.verify import verify_site

CATALOG = """\
title: {en: Warned Bank, tr: Uyarılı Banka}
locales: [en, tr, zh]  # no name in zh: the catalog's warning
seniorities:
  junior: {en: Junior}
  mid: {en: Mid-level}
  senior: {en: Senior}
fields:
  web:
    name: {en: Web}
    specializations:
      front:
        name: {en: Front end}
        topics:
          markup:
            name: {en: Markup}
          unused:
            name: {en: Nothing here yet}
"""


def _choice(n: int, prompt: str, **extra: Any) -> dict[str, Any]:
    question: dict[str, Any] = {
        "id": f"01a05d13-8d21-739a-baa2-7dab67be{n:04d}",
        "difficulty": 2,
        "prompt": {"en": prompt, "tr": f"Türkçe soru {n}?"},
        "options": {"a": {"en": "Yes", "tr": "Evet"}, "b": {"en": "No", "tr": "Hayır"}},
        "answer": "a",
        "explanation": {"en": "Because.", "tr": "Çünkü."},
    }
    question.update(extra)
    return question


NEAR = (
    "How many bytes does the browser download for one page of the web site when the reader"
    " opens it for the first time on a slow phone"
)
# Every kind of warning (a fragment of its message) and the question that gives it.
KINDS: dict[str, tuple[str, dict[str, Any] | None]] = {
    "reads as math": ("lone-dollar.yaml", _choice(5001, "Is $x^2 + 1 a cost?")),
    "may be out of date": (
        "stale.yaml",
        _choice(5002, "Is this translated?", translated_from={"tr": "00000000"}),
    ),
    "nearly the same prompt": ("near-b.yaml", _choice(5004, NEAR + " today?")),
    "topic has no questions": ("", None),  # the catalog's empty topic
    "no name of the catalog is in": ("", None),  # zh, a locale just added
    "no explanation": ("no-explanation.yaml", _choice(5005, "Why no explanation?")),
    "shows as the text typed": (
        "tag-as-text.yaml",
        _choice(5006, "Does `<p>` sit inside <head>, and List<String> in Java?"),
    ),
}


def _questions() -> dict[str, dict[str, Any]]:
    questions = {f"web/markup/{file}": question for file, question in KINDS.values() if question}
    questions["web/markup/near-a.yaml"] = _choice(5003, NEAR + "?")
    del questions["web/markup/no-explanation.yaml"]["explanation"]
    return questions


def test_every_warning_kind_is_in_the_bank_below() -> None:
    """The rules give exactly the warnings of ``KINDS``: a new kind of warning must join
    the bank of this test (counted where the rules make one)."""
    made = 0
    for path in (ROOT / "generator" / "qbank").rglob("*.py"):
        text = path.read_text("utf-8")
        made += len(re.findall(r"(?<!is )Severity\.WARNING\b", text))
    assert made == len(KINDS)


@pytest.fixture(scope="module")
def warned(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("warned")
    content = write_bank(tmp / "content", CATALOG, _questions())
    return build_site(tmp, content), content


def test_each_warning_is_given_and_no_question_is_left_out(warned: tuple[Path, Path]) -> None:
    _site, content = warned
    files = sorted(p.relative_to(content).as_posix() for p in content.rglob("*.yaml"))
    files.remove("catalog.yaml")
    bank, problems = check_bank(content)
    assert bank is not None
    assert {p.severity for p in problems} == {Severity.WARNING}
    for kind in KINDS:
        assert any(kind in p.message for p in problems), kind
    assert sorted(entry.file for entry in bank.entries) == files
    assert validate_bank(content)[0] == len(files)


def test_the_site_shows_and_verify_counts_every_question(warned: tuple[Path, Path]) -> None:
    site, content = warned
    bank = load_bank(content)
    assert verify_site(site, bank) == []
    for locale in ("en", "tr"):
        page = (site / locale / "web/markup/index.html").read_text("utf-8")
        shown = LexborHTMLParser(page).css("div.qb-q:not(.qb-copy)")
        assert len(shown) == len(bank.entries) == 6
    result = CliRunner().invoke(main, ["verify", str(site), "--content", str(content)])
    assert result.exit_code == 0, result.output
    assert "ok: 6 question(s)" in result.output


def test_the_page_invites_an_explanation_and_shows_tags_as_typed(
    warned: tuple[Path, Path],
) -> None:
    site, _content = warned
    tree = LexborHTMLParser((site / "en/web/markup/index.html").read_text("utf-8"))
    missing = tree.css_first("#q-01a05d13-8d21-739a-baa2-7dab67be5005 .qb-no-explanation")
    assert missing is not None
    assert missing.text().startswith("No explanation yet.")
    link = missing.css_first("a")
    assert link is not None
    assert (link.attributes.get("href") or "").endswith("web/markup/no-explanation.yaml")
    tr = LexborHTMLParser((site / "tr/web/markup/index.html").read_text("utf-8"))
    assert "Henüz açıklama yok." in tr.css_first(".qb-no-explanation").text()
    page = (site / "en/web/markup/index.html").read_text("utf-8")
    assert "inside &lt;head&gt;, and List&lt;String&gt; in Java?" in page


def test_verify_names_a_question_file_the_bank_left_out(
    warned: tuple[Path, Path], tmp_path: Path
) -> None:
    """Whatever keeps a file out of the bank (a rule that treated a warning as an error),
    ``verify`` counts the files, not the bank: here a file added after the build stands for
    one the load dropped."""
    site, content = warned
    bank = load_bank(content)
    extra = content / "web/markup/dropped.yaml"
    extra.write_text("id: x\nprompt: {en: Dropped?, tr: Düştü mü?}\n", "utf-8")
    try:
        problems = verify_site(site, bank, "content")
    finally:
        extra.unlink()
    assert [(p.page, p.file) for p in problems] == [
        ("en/web/markup/index.html", "content/web/markup/dropped.yaml"),
        ("tr/web/markup/index.html", "content/web/markup/dropped.yaml"),
    ]
    assert all("not in the bank" in p.message for p in problems)
