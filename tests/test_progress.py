# ruff: noqa: E501  (captured output, one source line per output line)
"""Long work shows its progress: the real ``qbank`` console script run under a pseudo-terminal
(a bar redrawn in place) and through pipes (plain lines), nothing with ``--quiet``, and stdout,
including ``--format github|json``, byte for byte what it was before progress existed."""

from __future__ import annotations

import fcntl
import io
import os
import re
import struct
import subprocess
import sys
import tempfile
import termios
from pathlib import Path

import pytest
from support.repo import write_repo

from qbank.tools import progressbar as progress
from qbank.tools.progressbar import shown

QBANK = Path(sys.executable).with_name("qbank")
VALID = 30  # valid questions besides the test_github_annotations mistakes
# A bank's summary line is the only stderr of a quick run (no progress before the delay).
SUMMARY = b"4 error(s), 1 warning(s)\n"

# What `qbank validate` printed on stdout for make_bank()'s bank before progress existed
# (captured from main at 2fd8e8e; two messages since made clearer by issue 34); progress must
# never change a byte of it.
TEXT_BEFORE = (
    b"content/catalog.yaml:16:11: fields.ml.specializations.infra.topics.kernels: warning: topic has no questions; expected question files in ml/kernels/\n"
    b"content/ml/gpu/missing-translation.yaml:9:3: options.c: half-translated: the prompt has tr but this text does not; expected a tr entry here too, or no tr prompt\n"
    b"content/ml/gpu/tab-indented.yaml:4:1: prompt.en: not valid YAML: while scanning for the next token found character that cannot start any token; expected indentation with spaces (YAML does not allow tabs)\n"
    b"content/ml/gpu/wrong-answer-key.yaml:10:9: answer: answer 'd' is not an option; expected one of a, b, c\n"
    b"content/ml/no-such-topic/misplaced.yaml:1:1: unknown topic folder 'no-such-topic' in field 'ml'; expected <field>/<topic>/<slug>.yaml with one of: ml/gpu/, ml/kernels/; or add topic 'no-such-topic' under a specialization of field 'ml' to catalog.yaml\n"
)
GITHUB_BEFORE = (
    b"::warning file=content/catalog.yaml,line=16,col=11,title=qbank fields.ml.specializations.infra.topics.kernels::fields.ml.specializations.infra.topics.kernels: topic has no questions; expected question files in ml/kernels/\n"
    b"::error file=content/ml/gpu/missing-translation.yaml,line=9,col=3,title=qbank options.c::options.c: half-translated: the prompt has tr but this text does not; expected a tr entry here too, or no tr prompt\n"
    b"::error file=content/ml/gpu/tab-indented.yaml,line=4,col=1,title=qbank prompt.en::prompt.en: not valid YAML: while scanning for the next token found character that cannot start any token; expected indentation with spaces (YAML does not allow tabs)\n"
    b"::error file=content/ml/gpu/wrong-answer-key.yaml,line=10,col=9,title=qbank answer::answer: answer 'd' is not an option; expected one of a, b, c\n"
    b"::error file=content/ml/no-such-topic/misplaced.yaml,line=1,col=1,title=qbank file::unknown topic folder 'no-such-topic' in field 'ml'; expected <field>/<topic>/<slug>.yaml with one of: ml/gpu/, ml/kernels/; or add topic 'no-such-topic' under a specialization of field 'ml' to catalog.yaml\n"
)
JSON_BEFORE = (
    b"[\n"
    b"  {\n"
    b'    "path": "content/catalog.yaml",\n'
    b'    "line": 16,\n'
    b'    "col": 11,\n'
    b'    "key": "fields.ml.specializations.infra.topics.kernels",\n'
    b'    "message": "topic has no questions",\n'
    b'    "hint": "question files in ml/kernels/",\n'
    b'    "severity": "warning"\n'
    b"  },\n"
    b"  {\n"
    b'    "path": "content/ml/gpu/missing-translation.yaml",\n'
    b'    "line": 9,\n'
    b'    "col": 3,\n'
    b'    "key": "options.c",\n'
    b'    "message": "half-translated: the prompt has tr but this text does not",\n'
    b'    "hint": "a tr entry here too, or no tr prompt",\n'
    b'    "severity": "error"\n'
    b"  },\n"
    b"  {\n"
    b'    "path": "content/ml/gpu/tab-indented.yaml",\n'
    b'    "line": 4,\n'
    b'    "col": 1,\n'
    b'    "key": "prompt.en",\n'
    b'    "message": "not valid YAML: while scanning for the next token found character that cannot start any token",\n'
    b'    "hint": "indentation with spaces (YAML does not allow tabs)",\n'
    b'    "severity": "error"\n'
    b"  },\n"
    b"  {\n"
    b'    "path": "content/ml/gpu/wrong-answer-key.yaml",\n'
    b'    "line": 10,\n'
    b'    "col": 9,\n'
    b'    "key": "answer",\n'
    b'    "message": "answer \'d\' is not an option",\n'
    b'    "hint": "one of a, b, c",\n'
    b'    "severity": "error"\n'
    b"  },\n"
    b"  {\n"
    b'    "path": "content/ml/no-such-topic/misplaced.yaml",\n'
    b'    "line": 1,\n'
    b'    "col": 1,\n'
    b'    "key": "",\n'
    b"    \"message\": \"unknown topic folder 'no-such-topic' in field 'ml'\",\n"
    b"    \"hint\": \"<field>/<topic>/<slug>.yaml with one of: ml/gpu/, ml/kernels/; or add topic 'no-such-topic' under a specialization of field 'ml' to catalog.yaml\",\n"
    b'    "severity": "error"\n'
    b"  }\n"
    b"]\n"
)
BEFORE = {"text": TEXT_BEFORE, "github": GITHUB_BEFORE, "json": JSON_BEFORE}


def make_bank(root: Path) -> Path:
    """test_github_annotations' bank (four mistakes), a topic without questions (a warning)
    and VALID more valid questions."""
    content = write_repo(root)
    catalog = content / "catalog.yaml"
    catalog.write_text(
        catalog.read_text(encoding="utf-8") + "          kernels:\n            name: {en: K}\n",
        encoding="utf-8",
    )
    for n in range(VALID):
        (content / "ml" / "gpu" / f"valid-{n}.yaml").write_text(
            f"id: 01a05d13-8d21-739a-baa2-{n + 100:012d}\n"
            "difficulty: 2\n"
            f"prompt: {{en: Which word {n} names {' '.join(f'w{n}x{i}' for i in range(8))}?}}\n"
            "options:\n  a: {en: One}\n  b: {en: Two}\n"
            "answer: a\n"
            "explanation: {en: Because.}\n",
            encoding="utf-8",
        )
    return content


@pytest.fixture
def bank(tmp_path: Path) -> Path:
    make_bank(tmp_path)
    return tmp_path


def _env(delay: str | None, ci: bool = False) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", progress.DELAY_ENV)}
    if delay is not None:
        env[progress.DELAY_ENV] = delay
    if ci:
        env["CI"] = "true"
    return env


def run_terminal(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, bytes, bytes]:
    """``qbank ARGS`` with stderr on a pseudo-terminal of 100 columns, stdout in a file:
    exit code, stdout and what the terminal received."""
    controller, terminal = os.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    with tempfile.TemporaryFile() as stdout:
        proc = subprocess.Popen(
            [str(QBANK), *args],
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=stdout,
            stderr=terminal,
        )
        os.close(terminal)
        received = []
        while True:
            try:
                data = os.read(controller, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            received.append(data)
        os.close(controller)
        proc.wait()
        stdout.seek(0)
        return proc.returncode, stdout.read(), b"".join(received)


def run_pipes(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, bytes, bytes]:
    """``qbank ARGS`` with stdout and stderr on pipes: exit code, stdout, stderr."""
    done = subprocess.run([str(QBANK), *args], cwd=cwd, env=env, capture_output=True, check=False)
    return done.returncode, done.stdout, done.stderr


def _redraws(screen: bytes) -> list[str]:
    """The states of a bar redrawn in place: the text between carriage returns."""
    return [part.strip() for part in screen.decode().split("\r") if part.strip()]


@pytest.mark.parametrize("style", ["text", "github", "json"])
def test_stdout_is_unchanged_in_every_form(bank: Path, style: str) -> None:
    args = ["validate", "--format", style]
    forms = {
        "terminal": run_terminal(args, bank, _env("0")),
        "pipes": run_pipes(args, bank, _env("0")),
        "quiet": run_pipes([*args, "--quiet"], bank, _env("0")),
    }
    for form, (code, out, _err) in forms.items():
        assert code == 1, form
        assert out == BEFORE[style], form


def test_terminal_shows_a_bar_redrawn_in_place(bank: Path) -> None:
    code, out, screen = run_terminal(["validate"], bank, _env("0"))
    assert code == 1
    assert out == TEXT_BEFORE
    states = _redraws(screen)
    total = VALID + 4  # every question file in a catalog topic, broken or not
    bars = [s for s in states if s.startswith("checking files ")]
    assert bars, states
    assert re.fullmatch(rf"checking files {total}/{total} \|█+\| 100% 00:0\d", bars[-1]), bars
    assert any(s.startswith("cross-file checks 00:") for s in states), states
    assert "qbank validate:" not in screen.decode()  # no plain lines
    # Redrawn in place (no new line) and cleared at the end: the last state is overwritten
    # by blanks, and the summary starts on a clean line.
    bar, summary = screen.decode().replace("\r\n", "\n").rsplit("\r", 1)
    assert summary.encode() == SUMMARY
    assert "\n" not in bar
    assert bar.rsplit("\r", 1)[-1].strip() == ""


def test_pipes_get_plain_lines(bank: Path) -> None:
    code, out, err = run_pipes(["validate"], bank, _env("0"))
    assert code == 1
    assert out == TEXT_BEFORE
    lines = err.decode().splitlines()
    assert "\r" not in err.decode()
    assert "\x1b" not in err.decode()
    total = VALID + 4
    assert lines[-1] == SUMMARY.decode().strip()
    progress_lines = lines[:-1]
    assert all(line.startswith("qbank validate: ") for line in progress_lines), lines
    assert re.fullmatch(rf"qbank validate: checking files 0/{total} \(0%\), \d+\.\d s", lines[0])
    assert any(
        re.fullmatch(rf"qbank validate: checking files {total}/{total} \(100%\), \d+\.\d s", line)
        for line in progress_lines
    ), lines
    assert any(re.fullmatch(r"qbank validate: cross-file checks, \d+\.\d s", x) for x in lines)
    assert re.fullmatch(r"qbank validate: done in \d+\.\d s", progress_lines[-1])


def test_ci_gets_plain_lines_even_on_a_terminal(bank: Path) -> None:
    code, out, screen = run_terminal(["validate"], bank, _env("0", ci=True))
    assert code == 1
    assert out == TEXT_BEFORE
    text = screen.decode()
    assert "\r" not in text.replace("\r\n", "\n")  # the terminal ends lines with \r\n
    assert "|" not in text  # no bar
    assert re.search(r"^qbank validate: done in \d+\.\d s\r$", text, re.MULTILINE)


@pytest.mark.parametrize("form", ["terminal", "pipes"])
def test_quiet_shows_no_progress(bank: Path, form: str) -> None:
    run = run_terminal if form == "terminal" else run_pipes
    code, out, err = run(["validate", "--quiet"], bank, _env("0"))
    assert code == 1
    assert out == TEXT_BEFORE
    assert err.replace(b"\r\n", b"\n") == SUMMARY


@pytest.mark.parametrize("form", ["terminal", "pipes"])
def test_quick_work_shows_no_progress(bank: Path, form: str) -> None:
    """Without the delay set to 0, a small bank is checked well within DELAY: stderr holds
    the summary only, as before progress existed."""
    run = run_terminal if form == "terminal" else run_pipes
    code, out, err = run(["validate"], bank, _env(None))
    assert code == 1
    assert out == TEXT_BEFORE
    assert err.replace(b"\r\n", b"\n") == SUMMARY


def test_export_shows_loading_and_writing(bank: Path, tmp_path: Path) -> None:
    for name in ("tab-indented", "wrong-answer-key", "missing-translation"):
        (bank / "content" / "ml" / "gpu" / f"{name}.yaml").unlink()
    (bank / "content" / "ml" / "no-such-topic" / "misplaced.yaml").unlink()
    out_dir = tmp_path / "out"
    quiet = run_pipes(["export", "json", str(out_dir), "--quiet"], bank, _env("0"))
    shown_ = run_pipes(["export", "json", str(out_dir)], bank, _env("0"))
    assert quiet[0] == shown_[0] == 0
    assert quiet[1] == shown_[1]
    assert quiet[1].decode().split() == [
        (out_dir / f"bank.{x}.json").as_posix() for x in ["en", "tr"]
    ]
    assert quiet[2] == b""
    lines = shown_[2].decode().splitlines()
    assert f"qbank export: checking files 0/{VALID + 1} (0%)" in lines[0]
    assert any(line.startswith("qbank export: exporting json 1/2 (50%)") for line in lines), lines
    assert lines[-1].startswith("qbank export: done in ")


def test_import_shows_reading_and_writing(tmp_path: Path) -> None:
    source = Path(__file__).parent / "fixtures" / "import" / "topic-page.txt"
    content = tmp_path / "content"
    args = ["import", "topic-page", str(source), "--content", str(content), "--write"]
    code, out, err = run_pipes(args, tmp_path, _env("0"))
    assert code == 0, err
    assert "wrote" in out.decode()
    lines = err.decode().splitlines()
    assert lines[0].startswith("qbank import: reading the source, ")
    assert any(line.startswith("qbank import: writing files 0/") for line in lines), lines
    assert any(line.startswith("qbank import: checking files ") for line in lines), lines
    assert all(line.startswith("qbank import: ") or " question(s): " in line for line in lines), (
        lines
    )


# --- the plain lines' rhythm, through ``shown`` itself ------------------------------------


def test_plain_lines_at_each_tenth_and_each_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(progress.DELAY_ENV, "0")
    monkeypatch.delenv("CI", raising=False)
    stream = io.StringIO()
    with shown("build", stream=stream) as report:
        for done in range(0, 1001, 5):
            report("rendering pages", done, 1000)
        report("writing the search index", 0, 0)
        report("writing the search index", 0, 0)
    lines = [re.sub(r", \d+\.\d s$", "", line) for line in stream.getvalue().splitlines()]
    assert lines[:-1] == [
        *(f"qbank build: rendering pages {n * 100}/1000 ({n * 10}%)" for n in range(11)),
        "qbank build: writing the search index",
    ]
    assert re.fullmatch(r"qbank build: done in \d+\.\d s", lines[-1])


def test_nothing_before_the_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(progress.DELAY_ENV, "3600")
    stream = io.StringIO()
    with shown("validate", stream=stream) as report:
        report("checking files", 5, 10)
    assert stream.getvalue() == ""


def test_quiet_is_the_no_op(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(progress.DELAY_ENV, "0")
    stream = io.StringIO()
    with shown("validate", quiet=True, stream=stream) as report:
        report("checking files", 5, 10)
    assert report is progress.no_progress
    assert stream.getvalue() == ""


def test_quick_work_on_a_terminal_does_not_import_tqdm(tmp_path: Path) -> None:
    """The bar (and tqdm) is made only once the delay has passed: a quick run on a terminal
    pays nothing for progress; a run past the delay draws it."""
    script = (
        "import os, sys\n"
        "from qbank.tools.progressbar import shown\n"
        "stream = open(os.ttyname(2), 'w')\n"
        "with shown('validate', stream=stream) as report:\n"
        "    report('checking files', 5, 10)\n"
        "print('tqdm' in sys.modules)\n"
    )
    for delay, imported in (("3600", b"False"), ("0", b"True")):
        env = {**_env(delay), "PYTHONPATH": os.pathsep.join(sys.path)}
        controller, terminal = os.openpty()
        fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
        done = subprocess.run(
            [sys.executable, "-c", script],
            env=env,
            stdin=subprocess.DEVNULL,
            stderr=terminal,
            stdout=subprocess.PIPE,
            check=True,
        )
        os.close(terminal)
        os.close(controller)
        assert done.stdout.strip() == imported, delay
