"""``qbank.site.practice.practice_files`` on the small bank (pure: no MkDocs, no browser)."""

from __future__ import annotations

import json
from pathlib import Path

from qbank.bank.load import load_bank
from qbank.bank.markup import to_html
from qbank.site.practice import practice_files
from qbank.site.render import image_prefix


def _files(content: Path) -> dict[str, bytes]:
    return practice_files(load_bank(content), lambda md, e: to_html(md, image_prefix(e)))


def test_one_file_per_locale_field_and_seniority(small_bank: Path) -> None:
    files = _files(small_bank)
    assert len(files) == 3 * 2 * 3
    assert "zh/api/practice/backend/senior.json" in files
    assert files == _files(small_bank), "output is deterministic"


def test_questions_match_field_seniority_and_locale(small_bank: Path) -> None:
    bank = load_bank(small_bank)
    files = _files(small_bank)
    for path, data in files.items():
        locale, _api, _practice, field, name = path.split("/")
        payload = json.loads(data)
        seniority = name.removesuffix(".json")
        assert (payload["locale"], payload["field"], payload["seniority"]) == (
            locale,
            field,
            seniority,
        )
        want = {
            e.id
            for e in bank.field_entries(field)
            if seniority in e.seniorities and locale in e.locales
        }
        assert {q["id"] for q in payload["questions"]} == want


def test_question_fields(small_bank: Path) -> None:
    payload = json.loads(_files(small_bank)["en/api/practice/ml-engineer/senior.json"])
    by_id = {q["id"]: q for q in payload["questions"]}
    multi = by_id["01a05d13-8d21-739a-baa2-7dab67be4005"]
    assert multi["kind"] == "choice"
    assert multi["answer"] == ["a", "c"]
    assert [o["key"] for o in multi["options"]] == ["a", "b", "c", "d"]
    assert multi["explanation"] == "<p>Both keep 8 exponent bits.</p>"
    assert "<math" in multi["prompt"]
    assert 'src="../../../images/ml-engineer/numerics/bits.png"' in multi["prompt"]
    assert multi["url"] == "en/ml-engineer/numerics/#q-01a05d13-8d21-739a-baa2-7dab67be4005"
    open_ = by_id["01a05d13-8d21-739a-baa2-7dab67be4003"]
    assert open_["kind"] == "open"
    assert open_["options"] == []
    assert "<strong>measure</strong>" in open_["assesses"]
    assert open_["model_answer"].startswith("<p>Profile one step")
