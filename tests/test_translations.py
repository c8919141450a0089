"""Translation staleness: hashes, validate warnings, stats, `qbank translations`, mark-current."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from qbank.bank.load import check_bank, load_bank
from qbank.bank.problems import Severity
from qbank.bank.staleness import is_stale, source_hash, stale_translations
from qbank.tools.cli import main
from qbank.tools.stats import bank_stats, format_stats
from qbank.tools.translated import mark_current, set_translated_from, yaml_scalar

QID = "01a05d13-8d21-739a-baa2-7dab67be4093"
OTHER_ID = "01a05d13-8d21-739a-baa2-7dab67be4094"
CATALOG = """\
title: {en: Bank, tr: Banka, zh: 题库}
locales: [en, tr, zh]
seniorities:
  junior: {en: Junior}
  mid: {en: Mid}
  senior: {en: Senior}
fields:
  ml:
    name: {en: ML}
    specializations:
      infra:
        name: {en: Infra}
        topics:
          gpu:
            name: {en: GPU}
"""
QUESTION = """\
# yaml-language-server: $schema=../../../schemas/question.schema.json
id: {qid}
difficulty: 2
prompt:
  en: Which stage shards gradients?
  tr: Hangi aşama gradyanları parçalar?
options:
  a: {{en: Stage 1, tr: Aşama 1}}
  b: {{en: Stage 2, tr: Aşama 2}}  # the right one
answer: b
explanation:
  en: Stage 2 shards optimizer states and gradients.
  tr: Aşama 2 optimizer durumlarını ve gradyanları parçalar.
"""  # noqa: RUF001 (Turkish dotless i)


def write_bank(root: Path, question: str = QUESTION) -> Path:
    content = root / "content"
    (content / "ml" / "gpu").mkdir(parents=True)
    (content / "catalog.yaml").write_text(CATALOG, encoding="utf-8")
    (content / "ml" / "gpu" / "zero.yaml").write_text(question.format(qid=QID), encoding="utf-8")
    return content


def test_hash_is_short_hex_and_follows_source_text_only(tmp_path: Path) -> None:
    content = write_bank(tmp_path)
    q = load_bank(content).by_id[QID].question
    h = source_hash(q, "en")
    assert len(h) == 8
    assert re.fullmatch("[0-9a-f]{8}", h), h
    changed_tr = q.model_copy(update={"prompt": {**q.prompt, "tr": "Başka bir metin"}})
    assert source_hash(changed_tr, "en") == h
    changed_en = q.model_copy(update={"prompt": {**q.prompt, "en": "Which stage shards?"}})
    assert source_hash(changed_en, "en") != h
    spaced = q.model_copy(update={"prompt": {**q.prompt, "en": q.prompt["en"] + "  \n\n"}})
    assert source_hash(spaced, "en") == h
    option = q.model_copy(update={"options": {**(q.options or {}), "a": {"en": "x", "tr": "y"}}})
    assert source_hash(option, "en") != h


def test_change_source_warns_then_mark_current_clears(tmp_path: Path) -> None:
    content = write_bank(tmp_path)
    path = content / "ml" / "gpu" / "zero.yaml"
    # Untracked: no warning.
    _, problems = check_bank(content)
    assert not [p for p in problems if p.key.startswith("translated_from")]

    written, value = mark_current(content, QID, "tr")
    assert written == path
    text = path.read_text(encoding="utf-8")
    assert text == QUESTION.format(qid=QID) + f"translated_from: {{tr: {_plain(value)}}}\n"
    bank, problems = check_bank(content)
    assert bank is not None
    assert not [p for p in problems if p.key.startswith("translated_from")]
    assert not is_stale(bank.by_id[QID], "tr", bank.catalog)

    # The source prompt changes: the tr translation may be out of date.
    path.write_text(
        text.replace("Which stage shards gradients?", "Which ZeRO stage shards gradients?"),
        encoding="utf-8",
    )
    bank, problems = check_bank(content)
    assert bank is not None  # a warning, not an error
    stale = [p for p in problems if p.key == "translated_from.tr"]
    assert len(stale) == 1
    assert stale[0].severity is Severity.WARNING
    assert stale[0].line == 14  # the translated_from line
    assert "may be out of date" in stale[0].message
    assert f"mark-current {QID} tr" in stale[0].hint
    assert is_stale(bank.by_id[QID], "tr", bank.catalog)
    assert not is_stale(bank.by_id[QID], "en", bank.catalog)
    assert [(s.file, s.locale, s.source_locale) for s in stale_translations(bank)] == [
        ("ml/gpu/zero.yaml", "tr", "en")
    ]
    data = bank_stats(bank)
    assert data["stale_translations"] == [
        {"file": "ml/gpu/zero.yaml", "id": QID, "locale": "tr", "source_locale": "en"}
    ]
    assert "translations that may be out of date: 1\n  ml/gpu/zero.yaml (tr, source en)" in (
        format_stats(data)
    )

    before = path.read_text(encoding="utf-8")
    _, new_value = mark_current(content, QID, "tr")
    after = path.read_text(encoding="utf-8")
    assert new_value != value
    # Only the translated_from line changed.
    diff = [(a, b) for a, b in zip(before.splitlines(), after.splitlines(), strict=True) if a != b]
    assert diff == [
        (
            f"translated_from: {{tr: {_plain(value)}}}",
            f"translated_from: {{tr: {_plain(new_value)}}}",
        )
    ]
    bank, problems = check_bank(content)
    assert bank is not None
    assert not [p for p in problems if p.key.startswith("translated_from")]
    assert not stale_translations(bank)


def _plain(value: str) -> str:
    return yaml_scalar(value)


def test_validate_github_warning_points_at_translated_from_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stale = QUESTION + "translated_from:\n  tr: 0000abcd  # made from the first draft\n"
    write_bank(tmp_path, stale)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["validate", "--format", "github"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "translated_from" in line]
    assert len(lines) == 1
    assert lines[0].startswith("::warning file=content/ml/gpu/zero.yaml,line=15,col=3,")
    strict = CliRunner().invoke(main, ["validate", "--strict"])
    assert strict.exit_code == 1


def test_cli_mark_current_and_status(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stale = QUESTION + "translated_from:\n  tr: 0000abcd  # made from the first draft\n"
    content = write_bank(tmp_path, stale)
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    status = runner.invoke(main, ["translations", "status"])
    assert status.exit_code == 0, status.output
    assert status.output.splitlines() == [
        "tr: 1 translation(s), 0 current, 1 may be out of date, 0 untracked",
        "content/ml/gpu/zero.yaml: tr may be out of date (en text changed; "
        f"`qbank translations mark-current {QID} tr` once updated)",
    ]
    marked = runner.invoke(main, ["translations", "mark-current", QID, "tr"])
    assert marked.exit_code == 0, marked.output
    q = load_bank(content).by_id[QID].question
    value = source_hash(q, "en")
    assert marked.output == f"content/ml/gpu/zero.yaml: translated_from.tr = {value}\n"
    text = (content / "ml" / "gpu" / "zero.yaml").read_text(encoding="utf-8")
    assert text.endswith(f"translated_from:\n  tr: {_plain(value)}  # made from the first draft\n")
    status = runner.invoke(main, ["translations", "status"])
    assert status.output == "tr: 1 translation(s), 1 current, 0 may be out of date, 0 untracked\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([OTHER_ID, "tr"], f"no question with id '{OTHER_ID}' in content"),
        ([QID, "en"], f"'en' is the source locale of {QID}"),
        ([QID, "zh"], "content/ml/gpu/zero.yaml: no 'zh' translation; the question has en, tr"),
        ([QID, "de"], "unknown locale 'de'; expected one of en, tr, zh"),
    ],
)
def test_cli_mark_current_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    write_bank(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["translations", "mark-current", *args])
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("id: x\n", "id: x\ntranslated_from: {tr: abcd1234}\n"),
        ("id: x", "id: x\ntranslated_from: {tr: abcd1234}\n"),
        ("id: x\r\n", "id: x\r\ntranslated_from: {tr: abcd1234}\r\n"),
        (
            "translated_from: {zh: 11112222}  # keep\nid: x\n",
            "translated_from: {zh: 11112222, tr: abcd1234}  # keep\nid: x\n",
        ),
        (
            "translated_from: {tr: ffff0000, zh: 11112222}\n",
            "translated_from: {tr: abcd1234, zh: 11112222}\n",
        ),
        (
            "translated_from:\n  zh: 11112222 # c\n# tail comment\nid: x\n",
            "translated_from:\n  zh: 11112222 # c\n  tr: abcd1234\n# tail comment\nid: x\n",
        ),
        (
            "translated_from:\n  tr: 'ffff0000'\n  zh: 1\nid: x\n",
            "translated_from:\n  tr: abcd1234\n  zh: 1\nid: x\n",
        ),
        ("translated_from:\nid: x\n", "translated_from: {tr: abcd1234}\nid: x\n"),
        ("translated_from: {}  # none\n", "translated_from: {tr: abcd1234}  # none\n"),
    ],
)
def test_set_translated_from_edits_only_its_lines(before: str, after: str) -> None:
    assert set_translated_from(before, "tr", "abcd1234") == after


def test_numeric_looking_hash_is_quoted() -> None:
    assert set_translated_from("id: x\n", "tr", "12345678") == (
        'id: x\ntranslated_from: {tr: "12345678"}\n'
    )
    assert set_translated_from("id: x\n", "tr", "1234e567") == (
        'id: x\ntranslated_from: {tr: "1234e567"}\n'
    )
