# ruff: noqa: RUF001  (Turkish test content)
"""The contributor commands through click's CliRunner, asserting their exact output."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
import yaml
from click.testing import CliRunner

from qbank.tools.cli import main
from qbank.tools.schema import write_schemas

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "tests" / "golden" / "validate" / "_base"
TOPIC = "ml-engineer/throughput"

OPEN = """\
id: 01a05d13-8d21-739a-baa2-7dab67be0002
seniority: [mid, senior]
prompt:
  en: How do you find the slowest rank of a data-parallel job?
  tr: Veri paralel bir işin en yavaş rank'ini nasıl bulursunuz?
assesses:
  en: Per-rank timing.
  tr: Rank başına zamanlama.
"""
BROKEN = """\
id: 01a05d13-8d21-739a-baa2-7dab67be0003
difficulty: 5
prompt: {en: Which key is unknown?}
options:
  a: {en: One}
  b: {en: Two}
answer: a
explanation: {en: Because.}
colour: red
"""


@pytest.fixture
def bank(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A valid bank of two questions in ``./content``, the working directory being tmp."""
    monkeypatch.chdir(tmp_path)
    content = tmp_path / "content"
    shutil.copytree(BASE, content)
    (content / TOPIC / "slow-rank.yaml").write_text(OPEN, encoding="utf-8")
    return content


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


# --- validate ----------------------------------------------------------------------------


def test_validate_ok(bank: Path) -> None:
    assert run("validate") == (0, "ok: 2 question(s), no problems\n", "")


def test_validate_ok_json_is_an_empty_list(bank: Path) -> None:
    assert run("validate", "--format", "json") == (0, "[]\n", "")


def test_validate_text(bank: Path) -> None:
    (bank / TOPIC / "broken.yaml").write_text(BROKEN, encoding="utf-8")
    code, out, err = run("validate", "content")
    assert code == 1
    assert out == (
        "content/ml-engineer/throughput/broken.yaml:2:13: difficulty: 5 is not an allowed value;"
        " expected 1, 2 or 3\n"
        "content/ml-engineer/throughput/broken.yaml:9:1: colour: unknown key; expected one of"
        " id, difficulty, seniority, tags, prompt, options, answer, explanation, assesses,"
        " model_answer, hint, source, translated_from\n"
    )
    assert err == "2 error(s), 0 warning(s)\n"


def test_validate_github(bank: Path) -> None:
    (bank / TOPIC / "broken.yaml").write_text(BROKEN, encoding="utf-8")
    code, out, err = run("validate", "--format", "github")
    assert code == 1
    assert out.splitlines() == [
        "::error file=content/ml-engineer/throughput/broken.yaml,line=2,col=13,"
        "title=qbank difficulty::difficulty: 5 is not an allowed value; expected 1, 2 or 3",
        "::error file=content/ml-engineer/throughput/broken.yaml,line=9,col=1,"
        "title=qbank colour::colour: unknown key; expected one of id, difficulty, seniority,"
        " tags, prompt, options, answer, explanation, assesses, model_answer, hint, source,"
        " translated_from",
    ]
    assert err == ""


def test_validate_json(bank: Path) -> None:
    (bank / TOPIC / "broken.yaml").write_text(BROKEN, encoding="utf-8")
    code, out, _err = run("validate", "--format", "json")
    assert code == 1
    assert json.loads(out)[0] == {
        "path": "content/ml-engineer/throughput/broken.yaml",
        "line": 2,
        "col": 13,
        "key": "difficulty",
        "message": "5 is not an allowed value",
        "hint": "1, 2 or 3",
        "severity": "error",
    }


def test_validate_warning_passes_unless_strict(bank: Path) -> None:
    catalog = bank / "catalog.yaml"
    catalog.write_text(
        catalog.read_text(encoding="utf-8") + "          kernels:\n            name: {en: K}\n",
        encoding="utf-8",
    )
    expected_line = (
        "content/catalog.yaml:16:11: fields.ml-engineer.specializations.training.topics.kernels:"
        " warning: topic has no questions; expected question files in ml-engineer/kernels/\n"
    )
    assert run("validate") == (0, expected_line, "0 error(s), 1 warning(s)\n")
    assert run("validate", "--strict")[0] == 1
    code, out, _ = run("validate", "--format", "github")
    assert code == 0
    assert out.startswith("::warning file=content/catalog.yaml,line=16,col=11,")


def test_validate_a_file_checks_its_whole_bank(bank: Path) -> None:
    assert run("validate", f"content/{TOPIC}/good.yaml")[:2] == (
        0,
        "ok: 2 question(s), no problems\n",
    )


def test_validate_missing_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run("validate", "nowhere")
    assert (code, out) == (1, "")
    assert err == "Error: nowhere: no such content folder; expected a folder holding catalog.yaml\n"


# --- new ---------------------------------------------------------------------------------


def test_new_writes_a_ready_to_fill_file(bank: Path) -> None:
    write_schemas(bank.parent / "schemas")  # as committed in this repository (else a note)
    code, out, err = run("new", TOPIC, "--slug", "step-phases")
    assert (code, out, err) == (0, f"content/{TOPIC}/step-phases.yaml\n", "")
    text = (bank / TOPIC / "step-phases.yaml").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0] == "# yaml-language-server: $schema=../../../schemas/question.schema.json"
    # The schema comment points at the committed schema from the file's folder.
    assert (bank / TOPIC / "../../../schemas").resolve() == (bank.parent / "schemas").resolve()
    qid = yaml.safe_load(text)["id"]
    assert lines[1] == f"id: {qid}"
    assert qid[14] == "7"  # UUID version 7
    assert qid[19] in "89ab"  # RFC 4122 variant


def test_new_ids_are_fresh_and_time_ordered(bank: Path) -> None:
    run("new", TOPIC, "--slug", "one")
    run("new", TOPIC, "--slug", "two")
    one = yaml.safe_load((bank / TOPIC / "one.yaml").read_text(encoding="utf-8"))["id"]
    two = yaml.safe_load((bank / TOPIC / "two.yaml").read_text(encoding="utf-8"))["id"]
    assert one != two
    assert one < two


def test_new_file_once_filled_validates(bank: Path) -> None:
    run("new", TOPIC, "--slug", "filled", "--locales", "en")
    path = bank / TOPIC / "filled.yaml"
    text = path.read_text(encoding="utf-8")
    # Unfilled, it is reported (empty texts), not accepted silently.
    code, out, _ = run("validate")
    assert code == 1
    assert "filled.yaml:" in out
    assert "empty text" in out
    fills = iter(
        [
            "Which phase dominates a step that waits on its input pipeline?",
            "input_wait",
            "backward",
            "all-reduce",
            "optimizer step",
            "The accelerator idles while the next batch is prepared.",
        ]
    )
    filled = "".join(
        (line.replace('""', json.dumps(next(fills))) if '""' in line else line) + "\n"
        for line in text.splitlines()
    )
    path.write_text(filled, encoding="utf-8")
    assert run("validate") == (0, "ok: 3 question(s), no problems\n", "")


def test_new_open_question_once_filled_validates(bank: Path) -> None:
    run("new", TOPIC, "--type", "open", "--slug", "open-one", "--locales", "en")
    path = bank / TOPIC / "open-one.yaml"
    text = path.read_text(encoding="utf-8").replace('""', '"Some text to fill."', 1)
    text = text.replace('""', '"What it looks for."', 1).replace('""', '"A reference."', 1)
    path.write_text(text, encoding="utf-8")
    assert run("validate") == (0, "ok: 3 question(s), no problems\n", "")


def test_new_never_overwrites(bank: Path) -> None:
    target = bank / TOPIC / "good.yaml"
    before = target.read_bytes()
    code, out, err = run("new", TOPIC, "--slug", "good")
    assert (code, out) == (1, "")
    assert err == f"Error: content/{TOPIC}/good.yaml already exists; choose another --slug\n"
    assert target.read_bytes() == before


def test_new_without_slug_picks_a_free_name(bank: Path) -> None:
    assert run("new", TOPIC)[1] == f"content/{TOPIC}/new-question.yaml\n"
    assert run("new", TOPIC)[1] == f"content/{TOPIC}/new-question-2.yaml\n"


def test_new_unknown_topic_lists_the_valid_ones(bank: Path) -> None:
    code, out, err = run("new", "ml-engineer/kernels")
    assert (code, out) == (1, "")
    assert err == (
        "Error: 'ml-engineer/kernels': unknown topic; "
        "<field>/<topic>/<slug>.yaml with one of: ml-engineer/throughput/\n"
    )


def test_new_unknown_field_lists_the_valid_ones(bank: Path) -> None:
    code, _, err = run("new", "data/throughput")
    assert code == 1
    assert err == (
        "Error: 'data/throughput': unknown field; "
        "<field>/<topic>/<slug>.yaml with one of: ml-engineer/throughput/\n"
    )


def test_new_unknown_locale(bank: Path) -> None:
    code, _, err = run("new", TOPIC, "--locales", "en,de")
    assert code == 1
    assert err == "Error: unknown locale(s) de; expected some of en, tr, zh\n"


# --- stats -------------------------------------------------------------------------------


def test_stats_text(bank: Path) -> None:
    code, out, err = run("stats")
    assert (code, err) == (0, "")
    assert out == (
        "2 questions (1 choice, 1 open)\n"
        "locales:    en 2 (100.0%)  tr 1 (50.0%)  zh 0 (0.0%)\n"
        "seniority:  junior 1  mid 1  senior 1\n"
        "difficulty: 1: 1  2: 0  3: 0\n"
        "\n"
        f"{'field / specialization / topic':<52}{'total':>6}{'en':>6}{'tr':>6}{'zh':>6}\n"
        f"{'ml-engineer':<52}{2:>6}{2:>6}{1:>6}{0:>6}\n"
        f"{'  training':<52}{2:>6}{2:>6}{1:>6}{0:>6}\n"
        f"{'    throughput':<52}{2:>6}{2:>6}{1:>6}{0:>6}\n"
        "\n"
        "open questions without a model answer: 1\n"
        "  ml-engineer/throughput/slow-rank.yaml\n"
        "not yet in tr: 1\n"
        "not yet in zh: 2\n"
        "translations that may be out of date: 0\n"
    )


def test_stats_json(bank: Path) -> None:
    code, out, _ = run("stats", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["questions"] == 2
    assert data["locales"] == {
        "en": {"questions": 2, "percent": 100.0},
        "tr": {"questions": 1, "percent": 50.0},
        "zh": {"questions": 0, "percent": 0.0},
    }
    assert data["seniority"] == {"junior": 1, "mid": 1, "senior": 1}
    assert data["difficulty"] == {"1": 1, "2": 0, "3": 0}
    assert data["missing_model_answer"] == ["ml-engineer/throughput/slow-rank.yaml"]
    topic = data["fields"][0]["specializations"][0]["topics"][0]
    assert topic == {"key": "throughput", "questions": 2, "locales": {"en": 2, "tr": 1, "zh": 0}}


def test_stats_on_a_broken_bank_lists_the_problems(bank: Path) -> None:
    (bank / TOPIC / "broken.yaml").write_text(BROKEN, encoding="utf-8")
    code, out, err = run("stats")
    assert (code, out) == (1, "")
    assert err.startswith("Error: content/ml-engineer/throughput/broken.yaml:2:13: difficulty:")
    assert err.endswith("the bank has errors; run `qbank validate` for details\n")


# --- schema ------------------------------------------------------------------------------


def test_schema_writes_both_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert run("schema", "out") == (
        0,
        "out/question.schema.json\nout/catalog.schema.json\n",
        "",
    )
    question = json.loads((tmp_path / "out" / "question.schema.json").read_text("utf-8"))
    assert question["title"] == "qbank question"
    assert question["additionalProperties"] is False
    assert set(question["required"]) == {"id", "prompt"}


def test_committed_schemas_are_up_to_date(tmp_path: Path) -> None:
    """`schemas/*.json` in the repository equal what `qbank schema` writes now."""
    for path in write_schemas(tmp_path):
        committed = ROOT / "schemas" / path.name
        assert committed.read_text("utf-8") == path.read_text("utf-8"), (
            f"{committed} is stale; run `qbank schema` and commit the result"
        )


def test_schema_accepts_the_sample_questions(tmp_path: Path) -> None:
    """The committed question schema's top-level keys are the model's."""
    schema = json.loads((ROOT / "schemas" / "question.schema.json").read_text("utf-8"))
    assert set(schema["properties"]) == {
        "id",
        "difficulty",
        "seniority",
        "tags",
        "prompt",
        "options",
        "answer",
        "explanation",
        "assesses",
        "model_answer",
        "hint",
        "source",
        "translated_from",
    }


# --- help --------------------------------------------------------------------------------


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for name, command in sorted(group.commands.items()):
        out.append((*prefix, name))
        if isinstance(command, click.Group):
            out += _commands(command, (*prefix, name))
    return out


@pytest.mark.parametrize("path", _commands(main), ids=" ".join)
def test_every_command_has_help(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(main, [*path, "--help"])
    assert result.exit_code == 0
    assert result.stdout.startswith(f"Usage: main {' '.join(path)}")
    command: click.Command = main
    for name in path:
        assert isinstance(command, click.Group)
        command = command.commands[name]
    assert command.help, f"qbank {' '.join(path)} has no help text"
    first_words = " ".join(command.help.split()[:6])
    assert first_words in " ".join(result.stdout.split())


def test_main_help_lists_every_command() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    for name in main.commands:
        assert f"  {name} " in result.stdout


# --- start-up ----------------------------------------------------------------------------


def _in_fresh_python(code: str, env: dict[str, str] | None = None) -> str:
    """What ``code`` prints, run by a new Python process (a fresh set of imported modules)."""
    environ = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**environ, **(env or {})},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_version_and_help_do_not_import_the_bank() -> None:
    """`qbank --version` and `--help` print without importing pydantic, PyYAML or numpy
    (most of `qbank validate`'s start-up)."""
    code = (
        "import sys\n"
        "from qbank.tools.cli import main\n"
        "for args in (['--version'], ['--help']):\n"
        "    try:\n"
        "        main(args)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "heavy = ('pydantic', 'yaml', 'numpy', 'qbank.bank.load')\n"
        "print(sorted(m for m in heavy if m in sys.modules))"
    )
    shown = _in_fresh_python(code).splitlines()
    assert shown[0] == "qbank, version 0.1.0"
    assert shown[-1] == "[]"


def test_validate_of_a_bank_without_questions_does_not_import_numpy(tmp_path: Path) -> None:
    """numpy is imported for the prompts' comparison keys and their join: a bank with only
    its catalog (the start of a new bank) is checked without it; with a question it is."""
    content = tmp_path / "content"
    shutil.copytree(BASE, content)
    question = content / TOPIC / "good.yaml"
    kept = question.read_text(encoding="utf-8")
    question.unlink()
    code = (
        "import sys\n"
        "from qbank.bank.load import validate_bank\n"
        f"count, problems = validate_bank({str(content)!r})\n"
        "print(count, [p.message for p in problems], 'numpy' in sys.modules)"
    )
    assert _in_fresh_python(code) == "0 ['topic has no questions'] False"
    question.write_text(kept, encoding="utf-8")
    assert _in_fresh_python(code) == "1 [] True"


def test_importing_qbank_asks_for_one_blas_thread_unless_the_user_chose() -> None:
    """numpy's OpenBLAS would start a spinning worker thread per extra core at import: qbank
    never does linear algebra, so it asks for one thread, keeping a value the user set."""
    code = "import os, qbank, numpy\nprint(os.environ['OPENBLAS_NUM_THREADS'])"
    assert _in_fresh_python(code) == "1"
    assert _in_fresh_python(code, {"OPENBLAS_NUM_THREADS": "3"}) == "3"
