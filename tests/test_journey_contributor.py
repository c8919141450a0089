"""The contributor's first minutes, walked for real: ``qbank new`` where people actually run
it (an empty folder, inside the bank's folders, a bank of their own without ``schemas/``),
then ``qbank validate`` on the file it wrote, before anything is filled in."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from qbank.tools.cli import main
from qbank.tools.schema import write_schemas

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "tests" / "golden" / "validate" / "_base"
TOPIC = "ml-engineer/throughput"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def bank(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A bank of its own in ``tmp/content`` (no ``schemas/`` yet); the working directory is
    ``tmp``."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(BASE, tmp_path / "content")
    return tmp_path / "content"


def test_new_in_an_empty_folder_says_there_is_no_bank_and_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run("new", TOPIC)
    assert (code, out) == (1, "")
    assert err.startswith("Error: content/catalog.yaml:1:1: the bank has no catalog.yaml;"), err
    assert "--content DIR" in err
    assert "No such file" not in err  # not an OS error message
    # validate and new say the same thing; neither points at `qbank new` as a cure
    _, _, validate_err = run("validate")
    code, out, _ = run("stats")
    assert code == 1
    assert "qbank new" not in out + err + validate_err


def test_new_run_inside_the_bank_finds_it_as_validate_does(
    bank: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(bank / "ml-engineer")
    code, out, err = run("new", TOPIC, "--slug", "from-inside")
    assert code == 0, err
    assert out == "throughput/from-inside.yaml\n"  # relative to where the contributor is
    assert (bank / TOPIC / "from-inside.yaml").is_file()
    assert not (bank / "ml-engineer" / "content").exists()


def test_new_says_when_the_schema_its_first_line_names_is_missing(bank: Path) -> None:
    code, out, err = run("new", TOPIC, "--slug", "first")
    assert (code, out) == (0, f"content/{TOPIC}/first.yaml\n")
    first_line = (bank / TOPIC / "first.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first_line.endswith("$schema=../../../schemas/question.schema.json")
    assert err == (
        "note: schemas/question.schema.json does not exist yet; run `qbank schema schemas` "
        "so that editors complete and check the file\n"
    )
    assert run("schema")[0] == 0  # the command the note names writes what the line names
    assert (bank.parent / "schemas" / "question.schema.json").is_file()
    assert run("new", TOPIC, "--slug", "second") == (0, f"content/{TOPIC}/second.yaml\n", "")


def test_a_fresh_file_lists_each_empty_text_once(bank: Path) -> None:
    """``qbank new`` leaves every text empty; each is one "empty text" line, not also
    "same text as option …" for every option after the first (12 more lines in 3 locales)."""
    write_schemas(bank.parent / "schemas")
    run("new", TOPIC, "--slug", "blank", "--locales", "en")
    code, out, _ = run("validate")
    assert code == 1
    lines = out.splitlines()
    assert all("empty text" in line for line in lines), out
    assert len(lines) == 6  # prompt, four options, explanation


def test_new_without_arguments_lists_where_a_question_can_go(bank: Path) -> None:
    """A contributor's first try is often the bare command: it names every FIELD/TOPIC of
    the bank (click only said "Missing argument 'FIELD/TOPIC'")."""
    code, out, err = run("new")
    assert (code, out) == (1, "")
    assert err == (
        "Error: missing FIELD/TOPIC; "
        "<field>/<topic>/<slug>.yaml with one of: ml-engineer/throughput/\n"
    )
    assert not list(bank.rglob("new-question*.yaml"))
