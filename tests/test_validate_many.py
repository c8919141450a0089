"""A bank with 20 broken files: every problem reported in one run, exit 1, no traceback."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from qbank.tools.cli import main

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "tests" / "golden" / "validate" / "_base"
TOPIC = "ml-engineer/throughput"


def _question(n: int, body: str) -> bytes:
    return (f"id: 01a05d13-8d21-739a-baa2-7dab67be{n:04d}\n" + body).encode()


def _choice(prompt: str, extra: str = "", *, answer: str = "a") -> str:
    return (
        f"difficulty: 2\nprompt: {{en: {prompt}}}\n"
        "options:\n  a: {en: One}\n  b: {en: Two}\n"
        f"answer: {answer}\nexplanation: {{en: Because.}}\n{extra}"
    )


# file name -> (bytes, the "line:col: key" its problem is reported at)
BROKEN: dict[str, tuple[bytes, str]] = {
    "unknown-key": (_question(2001, _choice("Unknown key?", "colour: red\n")), "9:1: colour:"),
    "wrong-type": (_question(2002, _choice("Wrong type?", "tags: gpu\n")), "9:7: tags:"),
    "bad-id": (b"id: 42\n" + _choice("Bad id?").encode(), "1:5: id:"),
    "no-answer-option": (_question(2004, _choice("Answer?", answer="z")), "7:9: answer[0]:"),
    "bad-difficulty": (_question(2005, _choice("Hard?").replace("2", "7", 1)), "2:13: difficulty:"),
    "unknown-seniority": (
        _question(2006, _choice("Lead?", "seniority: lead\n")),
        "9:12: seniority:",
    ),
    "unknown-locale": (_question(2007, _choice("Locale?").replace("{en: Locale?}", "{xx: Q}")), ""),
    "empty-prompt": (_question(2008, _choice('""')), "3:14: prompt.en:"),
    "script": (_question(2009, _choice("<script>x</script>")), "3:14: prompt.en:"),
    "invalid-yaml": (_question(2010, "prompt: [a\n"), "3:1:"),
    "tab": (_question(2011, "prompt:\n\ten: x\n"), "3:1:"),
    "alias": (_question(2012, _choice("Alias?", "tags: &t [a]\n")), "9:7:"),
    "custom-tag": (_question(2013, _choice("Tag?", "source: !url x\n")), "9:9: source:"),
    "duplicate-key": (_question(2014, _choice("Twice?", "answer: b\n")), "9:1: answer:"),
    "invalid-utf8": (_question(2015, _choice("Caf\xe9?")).replace(b"\xc3\xa9", b"\xe9"), "3:17:"),
    "empty": (b"", "1:1:"),
    "a-list": (b"- one\n- two\n", "1:1:"),
    "answer-twice": (_question(2018, _choice("Twice?", answer="[a, a]")), "7:9: answer:"),
    "one-option": (
        _question(2019, _choice("One?").replace("  b: {en: Two}\n", "")),
        "4:1: options:",
    ),
    "same-option-text": (
        _question(2020, _choice("Same?").replace("{en: Two}", "{en: One}")),
        "6:11: options.b.en:",
    ),
}


@pytest.fixture
def broken_bank(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    content = tmp_path / "content"
    shutil.copytree(BASE, content)
    for name, (data, _where) in BROKEN.items():
        (content / TOPIC / f"{name}.yaml").write_bytes(data)
    return content


def _check(output: str) -> None:
    assert "Traceback" not in output
    for name, (_data, where) in BROKEN.items():
        prefix = f"content/{TOPIC}/{name}.yaml:{where}"
        assert any(line.startswith(prefix) for line in output.splitlines()), (name, where)
    reported = {line.split(":", 1)[0] for line in output.splitlines() if ".yaml:" in line}
    assert reported == {f"content/{TOPIC}/{name}.yaml" for name in BROKEN}


def test_twenty_broken_files_cli_runner(broken_bank: Path) -> None:
    assert len(BROKEN) == 20
    result = CliRunner().invoke(main, ["validate"])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    _check(result.stdout)
    errors = len(result.stdout.splitlines())
    assert result.stderr == f"{errors} error(s), 0 warning(s)\n"


def test_twenty_broken_files_subprocess(broken_bank: Path) -> None:
    qbank = Path(sys.executable).with_name("qbank")
    proc = subprocess.run(
        [str(qbank), "validate", "content"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    _check(proc.stdout)
    assert proc.stderr.endswith(" error(s), 0 warning(s)\n")


def test_parallel_check_reports_the_same(
    broken_bank: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A large bank is checked in two processes; the problems are the same as in one,
    whether the questions are kept (the site) or not (``qbank validate``)."""
    from qbank.bank.load import check_bank, validate_bank

    prompts = [" ".join(f"w{n}x{i}" for i in range(20)) for n in range(5)]
    prompts.append(prompts[4] + " extra")  # 20/21 of the words of the one before
    for n, prompt in enumerate(prompts):  # valid questions, two of them near-duplicates
        text = _question(3000 + n, _choice(prompt)).decode()
        (broken_bank / TOPIC / f"ok-{n}.yaml").write_text(text, encoding="utf-8")
    sequential = check_bank(broken_bank)[1]
    monkeypatch.setattr("qbank.bank.parallel.PARALLEL_FROM", 2)
    monkeypatch.setattr("qbank.bank.parallel.spare_core", lambda cores: True)  # even when busy
    monkeypatch.setattr("qbank.bank.parallel.CHUNK", 3)  # both processes take several chunks
    parallel = check_bank(broken_bank)[1]
    assert sorted(parallel) == sorted(sequential)
    assert sorted(validate_bank(broken_bank)[1]) == sorted(sequential)
    monkeypatch.setattr("qbank.bank.parallel.PARALLEL_FROM", 10**9)
    assert sorted(validate_bank(broken_bank)[1]) == sorted(sequential)
    assert any("nearly the same prompt" in p.message for p in parallel)


def test_equal_prompt_hashes_are_checked_against_the_texts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Prompts are compared by the hash of their normalized text; two different prompts
    whose hashes collide are not reported as the same prompt, two equal ones are."""
    import qbank.bank.rules
    from qbank.bank.load import check_bank, validate_bank

    content = tmp_path / "content"
    shutil.copytree(BASE, content)
    texts = ["Why is the sky blue?", "How far is the moon?", "Why is  the SKY blue?"]
    for n, prompt in enumerate(texts):
        data = _question(4000 + n, _choice(prompt))
        (content / TOPIC / f"collide-{n}.yaml").write_bytes(data)
    keys = qbank.bank.rules.prompt_keys
    monkeypatch.setattr(qbank.bank.rules, "prompt_keys", lambda text: (0, keys(text)[1]))
    for problems in (check_bank(content)[1], validate_bank(content)[1]):
        same = [p for p in problems if "same prompt as" in p.message]
        assert [(Path(p.path).name, p.message.rsplit("/", 1)[1]) for p in same] == [
            ("collide-2.yaml", "collide-0.yaml, with the same options")
        ]


def test_a_helper_only_with_a_spare_core() -> None:
    """The second process is forked only when a core has nothing else to run: never on
    one core, always with more cores than there can be tasks running."""
    from qbank.bank.parallel import spare_core

    assert spare_core(1) is False
    assert spare_core(1_000_000) is True
