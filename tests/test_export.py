"""`qbank export`: JSON against its schema, the Anki package as zip + SQLite, Moodle XML."""

from __future__ import annotations

import json
import re
import sqlite3
import zipfile
from pathlib import Path
from typing import Any

import genanki
import pytest
from click.testing import CliRunner
from lxml import etree

from qbank.bank.load import load_bank
from qbank.bank.loaded import Bank
from qbank.site.bankdata import bank_json
from qbank.site.strings import strings_for
from qbank.tools.cli import main
from qbank.tools.exporters.anki import write_apkg
from qbank.tools.exporters.moodle import moodle_xml

SCHEMA = Path(__file__).resolve().parents[1] / "schemas" / "bank-export.schema.json"
LOCALES = ("en", "tr", "zh")

# ---------------------------------------------------------------------------------------------
# A small JSON Schema validator: the keywords the published schema uses, nothing more.

_TYPES: dict[str, Any] = {
    "object": dict,
    "array": list,
    "string": str,
    "null": type(None),
    "boolean": bool,
}


def schema_errors(
    value: Any, schema: dict[str, Any], root: dict[str, Any], at: str = "$"
) -> list[str]:
    """Every violation of ``schema`` by ``value`` (draft 2020-12 subset)."""
    if "$ref" in schema:
        target: Any = root
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        return schema_errors(value, target, root, at)
    errors: list[str] = []
    if "anyOf" in schema and all(schema_errors(value, s, root, at) for s in schema["anyOf"]):
        errors.append(f"{at}: matches none of anyOf")
    kind = schema.get("type")
    if kind == "integer":
        if not isinstance(value, int) or isinstance(value, bool):
            return [f"{at}: expected integer"]
    elif kind is not None and (
        not isinstance(value, _TYPES[kind]) or (kind != "boolean" and isinstance(value, bool))
    ):
        return [f"{at}: expected {kind}, got {type(value).__name__}"]
    if "const" in schema and value != schema["const"]:
        errors.append(f"{at}: expected {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{at}: {value!r} not in {schema['enum']}")
    if "pattern" in schema and not re.search(schema["pattern"], value):
        errors.append(f"{at}: {value!r} does not match {schema['pattern']}")
    if "minimum" in schema and value < schema["minimum"]:
        errors.append(f"{at}: below {schema['minimum']}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            errors.append(f"{at}: fewer than {schema['minItems']} items")
        if len(value) > schema.get("maxItems", len(value)):
            errors.append(f"{at}: more than {schema['maxItems']} items")
        for i, item in enumerate(value):
            errors += schema_errors(item, schema.get("items", {}), root, f"{at}[{i}]")
    if isinstance(value, dict):
        props = schema.get("properties", {})
        errors += [f"{at}: missing {k}" for k in schema.get("required", []) if k not in value]
        for key, item in value.items():
            if key in props:
                errors += schema_errors(item, props[key], root, f"{at}.{key}")
            elif schema.get("additionalProperties") is False:
                errors.append(f"{at}: unexpected key {key}")
    return errors


@pytest.fixture
def bank(small_bank: Path) -> Bank:
    """The shared small bank, loaded."""
    return load_bank(small_bank)


def in_locale(bank: Bank, locale: str) -> list[Any]:
    """The bank's entries that exist in ``locale``, in display order."""
    return [e for e in bank.entries if locale in e.locales]


# ---------------------------------------------------------------------------------------------
# JSON


@pytest.mark.parametrize("locale", LOCALES)
def test_json_matches_schema_and_bank(bank: Bank, locale: str) -> None:
    schema = json.loads(SCHEMA.read_text("utf-8"))
    data = bank_json(bank, locale)
    assert schema_errors(data, schema, schema) == []
    assert data["locale"] == locale
    assert [q["id"] for q in data["questions"]] == [e.id for e in in_locale(bank, locale)]
    names = {f["key"]: f["name"] for f in data["fields"]}
    assert names["ml-engineer"] == bank.name(bank.catalog.fields["ml-engineer"].name, locale)
    for question, entry in zip(data["questions"], in_locale(bank, locale), strict=True):
        q = entry.question
        assert question["prompt"]["markdown"] == q.prompt[locale]
        assert question["file"] == entry.file
        assert question["kind"] == ("choice" if q.is_choice else "open")
        if q.options:
            assert [o["key"] for o in question["options"]] == list(q.options)
            assert question["answer"] == q.answer
        if "```" in q.prompt[locale]:
            assert "<pre" in question["prompt"]["html"]
        if "](" in q.prompt[locale] and "![" in q.prompt[locale]:
            assert f'src="{entry.field}/{entry.topic}/' in question["prompt"]["html"]
    total = sum(
        t["questions"] for f in data["fields"] for s in f["specializations"] for t in s["topics"]
    )
    assert total == len(data["questions"])


def test_json_schema_catches_a_broken_export(bank: Bank) -> None:
    schema = json.loads(SCHEMA.read_text("utf-8"))
    data = bank_json(bank, "en")
    del data["questions"][0]["id"]
    data["questions"][1]["difficulty"] = 7
    errors = schema_errors(data, schema, schema)
    assert "$.questions[0]: missing id" in errors
    assert any(e.startswith("$.questions[1].difficulty") for e in errors)


def test_cli_export_json_stable(small_bank: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "out"
    args = ["export", "json", str(out), "--content", str(small_bank)]
    first = runner.invoke(main, args, catch_exceptions=False)
    assert first.exit_code == 0, first.output
    assert first.output.split() == [(out / f"bank.{loc}.json").as_posix() for loc in LOCALES]
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert runner.invoke(main, args).exit_code == 0
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    one = tmp_path / "tr.json"
    result = runner.invoke(
        main, ["export", "json", "--locale", "tr", str(one), "--content", str(small_bank)]
    )
    assert result.exit_code == 0
    assert one.read_bytes() == before["bank.tr.json"]
    bad = runner.invoke(
        main, ["export", "json", "--locale", "fr", str(one), "--content", str(small_bank)]
    )
    assert bad.exit_code == 1
    assert "unknown locale 'fr'; expected one of en, tr, zh" in bad.output


# ---------------------------------------------------------------------------------------------
# Anki


def open_apkg(path: Path, tmp_path: Path) -> sqlite3.Connection:
    """The package's collection, opened with sqlite3 after unzipping."""
    with zipfile.ZipFile(path) as archive:
        assert sorted(archive.namelist()) == ["collection.anki2", "media"]
        assert json.loads(archive.read("media")) == {}
        db = tmp_path / f"{path.stem}.anki2"
        db.write_bytes(archive.read("collection.anki2"))
    return sqlite3.connect(db)


@pytest.mark.parametrize("locale", ["en", "zh"])
def test_anki_package(bank: Bank, tmp_path: Path, locale: str) -> None:
    path = tmp_path / f"bank.{locale}.apkg"
    write_apkg(bank, locale, path)
    conn = open_apkg(path, tmp_path)
    entries = in_locale(bank, locale)
    notes = conn.execute("select id, guid, mid, flds, tags from notes").fetchall()
    assert len(notes) == len(entries)
    guids = {guid: (mid, flds, tags) for _id, guid, mid, flds, tags in notes}
    models = json.loads(conn.execute("select models from col").fetchone()[0])
    by_name = {m["name"]: m for m in models.values()}
    assert set(by_name) == {f"qbank choice ({locale})", f"qbank open ({locale})"}
    decks = json.loads(conn.execute("select decks from col").fetchone()[0])
    deck_names = {int(k): d["name"] for k, d in decks.items()}
    cards = conn.execute("select nid, did from cards").fetchall()
    assert len(cards) == len(entries), "one card per note"
    deck_of_note = {nid: deck_names[did] for nid, did in cards}
    note_ids = {guid: nid for nid, guid, *_ in notes}
    for entry in entries:
        guid = genanki.guid_for(entry.id, locale)
        assert guid in guids, f"{entry.file}: note GUID from id + locale"
        mid, flds, tags = guids[guid]
        fields = flds.split("\x1f")
        assert fields[0] == entry.id
        kind = "choice" if entry.question.is_choice else "open"
        assert int(by_name[f"qbank {kind} ({locale})"]["id"]) == mid
        field_ = bank.catalog.fields[entry.field]
        topic = field_.specializations[entry.specialization].topics[entry.topic]
        expected_deck = f"{bank.name(field_.name, locale)}::{bank.name(topic.name, locale)}"
        assert deck_of_note[note_ids[guid]] == expected_deck
        assert entry.seniorities[0] in tags.split()
        if entry.question.is_choice:
            assert fields[3] == ", ".join(entry.question.answer or [])
            assert fields[2].count('class="qb-option"') == len(entry.question.options or {})
        if "```" in entry.question.prompt[locale]:
            assert "<pre" in fields[1], "code stays a <pre> block"


def test_anki_deterministic_and_guid_survives_edit(small_bank: Path, tmp_path: Path) -> None:
    first, second = tmp_path / "a.apkg", tmp_path / "b.apkg"
    write_apkg(load_bank(small_bank), "en", first)
    write_apkg(load_bank(small_bank), "en", second)
    assert first.read_bytes() == second.read_bytes()
    path = small_bank / "ml-engineer/throughput/profile-plan.yaml"
    path.write_text(path.read_text("utf-8").replace("bottleneck", "slowest part"), "utf-8")
    edited = tmp_path / "c.apkg"
    write_apkg(load_bank(small_bank), "en", edited)
    before = dict(open_apkg(first, tmp_path).execute("select guid, flds from notes").fetchall())
    after = dict(open_apkg(edited, tmp_path).execute("select guid, flds from notes").fetchall())
    assert before.keys() == after.keys()
    guid = genanki.guid_for("01a05d13-8d21-739a-baa2-7dab67be4003", "en")
    assert "slowest part" in after[guid]
    assert "slowest part" not in before[guid]


# ---------------------------------------------------------------------------------------------
# Moodle XML


@pytest.mark.parametrize("locale", LOCALES)
def test_moodle_xml(bank: Bank, locale: str) -> None:
    raw = moodle_xml(bank, locale)
    assert raw.startswith(b"<?xml version='1.0' encoding='UTF-8'?>")
    root = etree.fromstring(raw)
    assert root.tag == "quiz"
    items = root.findall("question")
    categories = [q.findtext("category/text") for q in items if q.get("type") == "category"]
    for entry in in_locale(bank, locale):
        field_ = bank.catalog.fields[entry.field]
        topic = field_.specializations[entry.specialization].topics[entry.topic]
        path = f"$course$/top/{bank.name(field_.name, locale)}/{bank.name(topic.name, locale)}"
        assert path in categories
    assert len(categories) == len(set(categories)), "one category per topic"
    questions = {q.findtext("idnumber"): q for q in items if q.get("type") != "category"}
    entries = in_locale(bank, locale)
    assert list(questions) == [e.id for e in entries]
    for entry in entries:
        q = entry.question
        node = questions[entry.id]
        text = node.findtext("questiontext/text")
        assert node.find("questiontext").get("format") == "html"
        assert text.startswith("<")  # HTML from the Markdown
        if q.options is not None:
            assert node.get("type") == "multichoice"
            assert node.findtext("single") == ("false" if q.is_multi else "true")
            answers = node.findall("answer")
            assert len(answers) == len(q.options)
            fractions = [float(a.get("fraction")) for a in answers]
            right = [f for f in fractions if f > 0]
            assert len(right) == len(q.answer or [])
            assert sum(right) == pytest.approx(100, abs=0.01)
            if q.is_multi:
                assert sum(fractions) == pytest.approx(0, abs=0.01), "ticking all scores nothing"
            assert all(a.findtext("feedback/text") for a in answers)
            explanation = node.findtext("generalfeedback/text")
            assert explanation.startswith("<p>")
        else:
            assert node.get("type") == "essay"
            info = node.findtext("graderinfo/text")
            if q.model_answer:
                first_words = " ".join(q.model_answer[locale].split()[:2])
                assert first_words.split("`")[0] in info
            else:
                assert info.endswith(f"<p>{strings_for(locale)['no_model_answer']}</p>")
    assert raw.count(b"<![CDATA[") >= len(entries)


def test_moodle_category_escapes_slash() -> None:
    from qbank.tools.exporters.moodle import category_path

    assert (
        category_path("DevOps / Cloud", "Kubernetes") == "$course$/top/DevOps // Cloud/Kubernetes"
    )


def test_cli_export_moodle_and_anki(small_bank: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    for kind, suffix in (("moodle", ".xml"), ("anki", ".apkg")):
        out = tmp_path / f"bank{suffix}"
        args = ["export", kind, "--locale", "en", str(out), "--content", str(small_bank)]
        result = runner.invoke(main, args, catch_exceptions=False)
        assert result.exit_code == 0, result.output
        assert out.stat().st_size > 0
