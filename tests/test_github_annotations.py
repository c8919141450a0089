"""A contributor's typical mistakes become GitHub annotations on the right file and line,
both from `qbank validate --format github` (the pull-request workflow) and through the
pre-commit hook's command line (`.pre-commit-hooks.yaml`)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from qbank.tools.cli import main

ROOT = Path(__file__).resolve().parent.parent
CATALOG = """\
title: {en: Bank, tr: Banka}
locales: [en, tr]
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


def choice(qid: str, *, answer: str = "b", option_c: str = "{en: Three, tr: Üç}") -> str:
    return (
        f"id: {qid}\n"
        "difficulty: 1\n"
        "prompt:\n"
        "  en: How many?\n"
        "  tr: Kaç tane?\n"
        "options:\n"
        "  a: {en: One, tr: Bir}\n"
        "  b: {en: Two, tr: İki}\n"
        f"  c: {option_c}\n"
        f"answer: {answer}\n"
        "explanation:\n"
        "  en: Two, because of the pair.\n"
        "  tr: İki, çünkü bir çift var.\n"
    )


GOOD = "ml/gpu/good.yaml"
MISTAKES = {
    # file → (text, expected line, expected column, words of the message)
    "ml/gpu/wrong-answer-key.yaml": (
        choice("01a05d13-8d21-739a-baa2-000000000001", answer="d"),
        10,
        9,
        "answer: answer 'd' is not an option",
    ),
    "ml/gpu/missing-translation.yaml": (
        choice("01a05d13-8d21-739a-baa2-000000000002", option_c="{en: Three}"),
        9,
        3,
        "options.c: half-translated",
    ),
    "ml/gpu/tab-indented.yaml": (
        choice("01a05d13-8d21-739a-baa2-000000000003").replace("  en: How", "\ten: How"),
        4,
        1,
        "not valid YAML",
    ),
    "ml/no-such-topic/misplaced.yaml": (
        choice("01a05d13-8d21-739a-baa2-000000000004"),
        1,
        1,
        "unknown topic folder 'no-such-topic'",
    ),
}
ANNOTATION = re.compile(
    r"^::(?P<level>error|warning) file=(?P<file>[^,]+),line=(?P<line>\d+),col=(?P<col>\d+),"
    r"title=(?P<title>[^:]*)::(?P<message>.*)$"
)


def write_repo(root: Path) -> Path:
    content = root / "content"
    (content / "ml" / "gpu").mkdir(parents=True)
    (content / "ml" / "no-such-topic").mkdir(parents=True)
    (content / "catalog.yaml").write_text(CATALOG, encoding="utf-8")
    (content / GOOD).write_text(choice("01a05d13-8d21-739a-baa2-000000000000"), encoding="utf-8")
    for name, (text, *_rest) in MISTAKES.items():
        (content / name).write_text(text, encoding="utf-8")
    return content


def annotations(output: str) -> list[dict[str, str]]:
    found = []
    for line in output.splitlines():
        match = ANNOTATION.match(line)
        assert match, f"not a GitHub annotation: {line!r}"
        found.append(match.groupdict())
    return found


def check(found: list[dict[str, str]]) -> None:
    errors = [a for a in found if a["level"] == "error"]
    by_file = {a["file"]: a for a in errors}
    assert len(by_file) == len(errors), "one error per mistake"
    assert set(by_file) == {f"content/{name}" for name in MISTAKES}
    for name, (_text, line, col, words) in MISTAKES.items():
        got = by_file[f"content/{name}"]
        assert (int(got["line"]), int(got["col"])) == (line, col), (name, got)
        assert words in got["message"], (name, got["message"])
        assert "expected" in got["message"], "every error says what was expected"


def test_validate_github_annotates_each_mistake(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_repo(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["validate", "--format", "github"])
    assert result.exit_code == 1
    check(annotations(result.output))


def test_tab_annotation_says_to_use_spaces(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_repo(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["validate", "--format", "github"])
    tab = next(a for a in annotations(result.output) if "tab-indented" in a["file"])
    assert "spaces" in tab["message"]


def test_pre_commit_hook_command_annotates_staged_files(tmp_path: Path) -> None:
    """Run the hook's entry as pre-commit does: the staged files matching `files` appended."""
    hook = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))[0]
    write_repo(tmp_path)
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")
    staged = [
        "mkdocs.yml",
        "content/ml/gpu/wrong-answer-key.yaml",
        "content/ml/gpu/good.yaml",
    ]
    pattern = re.compile(hook["files"])
    files = [f for f in staged if pattern.search(f)]
    assert files == staged[1:]
    qbank = shutil.which("qbank", path=str(Path(sys.executable).parent))
    assert qbank, "the qbank console script is installed beside the interpreter"
    entry = hook["entry"].split()
    assert entry[0] == "qbank"
    done = subprocess.run(
        [qbank, *entry[1:], "--format", "github", *files],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    # The whole bank around the staged files is checked, so every mistake is reported.
    check(annotations(done.stdout))

    # A clean bank passes the hook.
    for name in MISTAKES:
        (tmp_path / "content" / name).unlink()
    clean = subprocess.run(
        [qbank, *entry[1:], *files[1:]],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert clean.returncode == 0, clean.stdout + clean.stderr
