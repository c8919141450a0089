"""Golden tests for the validator: one minimal bad bank per validation rule.

Each case is a folder under ``tests/golden/validate/<case>/`` holding the files that make
it (paths relative to the content root, laid over the small valid bank in ``_base/``) and
``expected.txt``: the exact lines ``qbank validate`` prints for it, with paths as seen from
the folder holding ``content/``. A few cases are too large or too hostile to commit; they
are written by ``GENERATED`` below. To regenerate every expectation after an intended
change, run ``QBANK_UPDATE_GOLDEN=1 pytest tests/test_validate_golden.py`` and review the
``git diff``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from qbank.bank.load import check_bank
from qbank.bank.problems import format_problems
from qbank.bank.yamlfile import MAX_FILE_BYTES

GOLDEN = Path(__file__).resolve().parent / "golden" / "validate"
BASE = GOLDEN / "_base"
EXPECTED = "expected.txt"
UPDATE = os.environ.get("QBANK_UPDATE_GOLDEN") == "1"
TOPIC = "ml-engineer/throughput"
ID = b"id: 01a05d13-8d21-739a-baa2-7dab67be9001\n"


def _billion_laughs() -> bytes:
    lines = [b'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for c in range(ord("b"), ord("j")):
        refs = b",".join([b"*" + bytes([c - 1])] * 9)
        lines.append(bytes([c]) + b": &" + bytes([c]) + b" [" + refs + b"]")
    return ID + b"\n".join(lines) + b"\n"


# Cases whose file is written here rather than committed: name -> {relative path: bytes}.
GENERATED: dict[str, Callable[[], dict[str, bytes]]] = {
    "file-over-256k": lambda: {
        f"{TOPIC}/huge.yaml": ID + b"prompt: {en: '" + b"x" * MAX_FILE_BYTES + b"'}\n"
    },
    "billion-laughs": lambda: {f"{TOPIC}/laughs.yaml": _billion_laughs()},
    "nested-100000-levels": lambda: {
        f"{TOPIC}/nested.yaml": ID + b"prompt: " + b"[" * 100_000 + b"]" * 100_000 + b"\n"
    },
    "nested-block-mappings": lambda: {
        f"{TOPIC}/deep.yaml": ID
        + b"prompt:\n"
        + b"".join(b"  " * (i + 1) + b"k%d:\n" % i for i in range(40))
        + b"  " * 41
        + b"text\n"
    },
}


def _cases() -> list[str]:
    names = {p.name for p in GOLDEN.iterdir() if p.is_dir() and not p.name.startswith("_")}
    return sorted(names | set(GENERATED))


def build_case(name: str, where: Path) -> Path:
    """The case's bank: ``_base`` with the case's files laid over it, in ``where/content``."""
    content = where / "content"
    shutil.copytree(BASE, content)
    case = GOLDEN / name
    if case.is_dir():
        for path in sorted(case.rglob("*")):
            rel = path.relative_to(case)
            if path.is_file() and rel.as_posix() != EXPECTED:
                (content / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, content / rel)
    for rel_path, data in GENERATED.get(name, dict)().items():
        (content / rel_path).parent.mkdir(parents=True, exist_ok=True)
        (content / rel_path).write_bytes(data)
    return content


def validate_output(content: Path) -> str:
    """What `qbank validate` prints for the bank's problems (text format), one per line."""
    _bank, problems = check_bank(content)
    return format_problems(problems, "text") + "\n" if problems else ""


def test_base_bank_is_valid(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copytree(BASE, tmp_path / "content")
    assert validate_output(Path("content")) == ""


@pytest.mark.parametrize("name", _cases())
def test_golden(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build_case(name, tmp_path)
    monkeypatch.chdir(tmp_path)
    got = validate_output(Path("content"))
    expected_file = GOLDEN / name / EXPECTED
    if UPDATE:
        expected_file.parent.mkdir(parents=True, exist_ok=True)
        expected_file.write_text(got, encoding="utf-8")
    assert expected_file.exists(), f"no {expected_file}; run with QBANK_UPDATE_GOLDEN=1"
    assert got == expected_file.read_text(encoding="utf-8")
    assert "Traceback" not in got


def test_every_case_is_covered() -> None:
    """Every committed case folder has its expectation (a forgotten regeneration fails)."""
    missing = [name for name in _cases() if not (GOLDEN / name / EXPECTED).exists()]
    assert not missing
