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
from support.repo import MISTAKES, write_repo

from qbank.tools.cli import main

ROOT = Path(__file__).resolve().parent.parent


ANNOTATION = re.compile(
    r"^::(?P<level>error|warning) file=(?P<file>[^,]+),line=(?P<line>\d+),col=(?P<col>\d+),"
    r"title=(?P<title>[^:]*)::(?P<message>.*)$"
)


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
