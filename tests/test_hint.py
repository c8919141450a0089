# ruff: noqa: RUF001  (Turkish and Chinese test content)
"""A question's optional ``hint`` (issue 36): validated like every text (the half-translation
rule), rendered closed before the options (DESIGN.md "The HTML of one question"), carried by
the topic page (and so practice sessions: tests/browser/test_practice_files.py), the JSON,
Moodle and Anki exports and the payload importer."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from fixtures.messy_bank import CATALOG, QUESTIONS, qid
from lxml import etree
from sitebuild import write_bank

from qbank.bank.load import check_bank, load_bank
from qbank.site.bankdata import bank_json
from qbank.site.render import render_site
from qbank.tools.exporters.anki import build_package
from qbank.tools.exporters.moodle import moodle_xml

LOST_UPDATE = "backend/transactions/lost-update.yaml"


def bank_of(root: Path, questions: dict[str, dict[str, Any]] = QUESTIONS) -> Path:
    return write_bank(root, CATALOG, questions)


def test_a_half_translated_hint_is_reported_with_its_file_and_key(tmp_path: Path) -> None:
    questions = copy.deepcopy(QUESTIONS)
    del questions[LOST_UPDATE]["hint"]["zh"]
    _, problems = check_bank(bank_of(tmp_path, questions))
    found = [p for p in problems if p.key == "hint"]
    assert found, problems
    assert "half-translated" in found[0].message
    assert found[0].path.endswith("lost-update.yaml")


def test_the_hint_is_closed_before_the_options_and_in_each_locale(tmp_path: Path) -> None:
    site = render_site(load_bank(bank_of(tmp_path)))
    for locale, summary, text in (
        ("en", "Hint", "one by one"),
        ("tr", "İpucu", "sırayla"),
        ("zh", "提示", "逐个执行"),
    ):
        page = site.pages[f"{locale}/backend/transactions/index.md"]
        body = page[page.index(f'id="q-{qid(3001)}"') :]
        hint = body.index('<details class="qb-hint"><summary>')
        assert body.index('<div class="qb-meta">') < hint < body.index('<ol class="qb-options"')
        assert f"<summary>{summary}</summary>" in body[hint:]
        assert text in body[hint : body.index("</details>", hint)]
    assert "qb-hint" not in site.pages["en/backend/indexing/index.md"]  # none: no markup


def test_exports_carry_the_hint(tmp_path: Path) -> None:
    bank = load_bank(bank_of(tmp_path))
    exported = {q["id"]: q for q in bank_json(bank, "tr")["questions"]}
    assert exported[qid(3001)]["hint"]["markdown"].startswith("Hangi düzey")
    assert "hint" not in exported[qid(3002)]
    moodle = etree.fromstring(moodle_xml(bank, "zh"))
    hints = moodle.xpath(f"//question[idnumber='{qid(3001)}']/hint/text")
    assert hints
    assert "逐个执行" in hints[0].text
    notes = [
        n for d in build_package(bank, "en").decks for n in d.notes if n.fields[0] == qid(3001)
    ]
    assert "one by one" in notes[0].fields[-1]
