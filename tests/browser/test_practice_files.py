"""``qbank.site.practice.practice_files`` on the small bank (pure: no MkDocs, no browser)."""

from __future__ import annotations

import json
from pathlib import Path

from qbank.bank.load import load_bank
from qbank.bank.markup import to_html
from qbank.site.practice import chunk_count, chunk_of, listed_questions, practice_files
from qbank.site.render import image_prefix


def _files(content: Path) -> dict[str, bytes]:
    return practice_files(load_bank(content), lambda md, e: to_html(md, image_prefix(e)))


def test_a_list_and_its_chunks_per_locale_field_and_seniority(small_bank: Path) -> None:
    files = _files(small_bank)
    lists = [p for p in files if p.count("/") == 4]
    assert len(lists) == 3 * 2 * 3
    assert "zh/api/practice/backend/senior.json" in files
    assert "zh/api/practice/backend/senior/0.json" in files  # (every list has a chunk 0)
    chunks = set(files) - set(lists)
    assert all(p.count("/") == 5 and p.split("/")[-1][:-5].isdigit() for p in chunks)
    assert files == _files(small_bank), "output is deterministic"


def test_questions_match_field_seniority_and_locale(small_bank: Path) -> None:
    bank = load_bank(small_bank)
    files = _files(small_bank)
    for path, data in files.items():
        if path.count("/") != 4:
            continue
        locale, _api, _practice, field, name = path.split("/")
        payload = json.loads(data)
        seniority = name.removesuffix(".json")
        assert (payload["locale"], payload["field"], payload["seniority"]) == (
            locale,
            field,
            seniority,
        )
        want = [
            e.id
            for e in bank.field_entries(field)
            if seniority in e.seniorities and locale in e.locales
        ]
        assert [qid for qid, _, _ in payload["questions"]] == want
        chunks = chunk_count(len(want))
        for qid, topic, chunk in payload["questions"]:
            assert chunk == chunk_of(qid, chunks)
            assert payload["topics"][topic] == f"{field}/{bank.by_id[qid].topic}"
        items = listed_questions(files.__getitem__, locale, field, seniority)
        assert [q["id"] for q in items] == want
        chunked = [
            q["id"]
            for n in range(chunks)
            for q in json.loads(files[f"{path[:-5]}/{n}.json"])["questions"]
        ]
        assert sorted(chunked) == sorted(want), "each question in exactly one chunk"


def test_chunks_hold_about_chunk_questions_each() -> None:
    assert chunk_count(0) == chunk_count(20) == chunk_count(90) == 1
    assert chunk_count(830) == 13
    ids = [f"01a05d13-8d21-739a-baa2-{n:012x}" for n in range(830)]
    sizes = [sum(chunk_of(i, 13) == c for i in ids) for c in range(13)]
    assert min(sizes) > 40, sizes
    assert max(sizes) < 90, sizes


def test_question_fields(small_bank: Path) -> None:
    items = listed_questions(_files(small_bank).__getitem__, "en", "ml-engineer", "senior")
    by_id = {q["id"]: q for q in items}
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
