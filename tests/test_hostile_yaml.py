"""Malformed and hostile question files: each one a clear problem with its line, never a crash.

Every case is a file dropped into a real bank (the small bank of conftest) and checked with
``check_bank``, the function behind ``qbank validate`` and the build. Expansion attacks are
refused before anything is expanded (anchors and aliases are not allowed at all), nesting
and sizes are capped, so each case finishes in bounded time and memory.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner
from sitebuild import write_small_bank

from qbank.bank.load import check_bank
from qbank.bank.problems import Problem
from qbank.bank.yamlfile import MAX_FILE_BYTES
from qbank.tools.cli import main

TOPIC = "ml-engineer/throughput"
ID = b"id: 01a05d13-8d21-739a-baa2-7dab67be4f01\n"
GOOD = ID + (  # a valid question of six lines
    b"difficulty: 1\nprompt: {en: Which one?}\noptions: {a: {en: One}, b: {en: Two}}\n"
    b"answer: a\nexplanation: {en: Because.}\n"
)

BILLION_LAUGHS = b"\n".join(
    [b'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    + [b"%c: &%c [%s]" % (c, c, b",".join([b"*%c" % (c - 1)] * 9)) for c in range(98, 106)]
)
garbage = random.Random(8)

# name → (file bytes, expected line, expected column or None, expected text in the message)
CASES: dict[str, tuple[bytes, int, int | None, str]] = {
    "billion-laughs": (BILLION_LAUGHS, 1, 4, "YAML anchor '&a' is not allowed"),
    "alias-late": (GOOD + b"tags: &t [a]\nsource: *t\n", 7, 7, "YAML anchor '&t' is not allowed"),
    "deep-flow-nesting": (
        ID + b"prompt: " + b"[" * 100_000 + b"]" * 100_000 + b"\n",
        2,
        None,
        "exceeded maximum nesting depth",
    ),
    "deep-block-nesting": (
        ID + b"".join(b"  " * i + b"k%d:\n" % i for i in range(40)) + b"  " * 40 + b"v\n",
        35,
        None,
        "nested too deeply",
    ),
    "huge-scalar": (
        ID + b"prompt: " + b"x" * (MAX_FILE_BYTES + 10) + b"\n",
        1,
        1,
        f"over the limit of {MAX_FILE_BYTES:,}",
    ),
    "binary-garbage": (
        bytes(garbage.randrange(128, 256) for _ in range(4096)),
        1,
        1,
        "invalid UTF-8 byte 0x",
    ),
    "invalid-utf8-line-7": (GOOD + b"# caf\xe9\n", 7, 6, "invalid UTF-8 byte 0xe9"),
    "utf16-file": (GOOD.decode().encode("utf-16"), 1, 1, "invalid UTF-8 byte 0xff"),
    "nul-byte": (ID + b'prompt: "a\x00b"\n', 2, 11, "control character U+0000 is not allowed"),
    "nul-with-anchor-chars": (
        ID + b"prompt: '**bold** & x\x00'\n",
        2,
        22,
        "control character U+0000 is not allowed",
    ),
    "bell-character": (ID + b"prompt: a\x07b\n", 2, 10, "control character U+0007 is not allowed"),
    "duplicate-top-key": (GOOD + b"answer: b\n", 7, 1, "duplicate key"),
    "duplicate-nested-key": (
        ID + b"prompt: {en: a, en: b}\noptions: {a: x, b: y}\nanswer: a\n",
        2,
        17,
        "duplicate key",
    ),
    "complex-key": (GOOD + b"? [a, b]\n: 1\n", 7, 3, "a key must be plain text"),
    "mapping-key": (GOOD + b"{x: 1}: 2\n", 7, 1, "a key must be plain text"),
    "merge-key": (GOOD + b"<<: {difficulty: 2}\n", 7, 1, "a key must be plain text"),
    "integer-key": (GOOD + b"1: x\n", 7, 1, "unknown key"),
    "python-tag": (
        ID + b'prompt: !!python/object/apply:os.system ["echo"]\n',
        2,
        9,
        "custom YAML tag 'tag:yaml.org,2002:python/object/apply:os.system' is not allowed",
    ),
    "binary-tag": (ID + b"prompt: !!binary aGVsbG8=\n", 2, 9, "custom YAML tag"),
    "huge-integer": (ID + b"difficulty: 1" + b"0" * 5000 + b"\n", 2, 13, "not a usable number"),
    "two-documents": (GOOD + b"---\nprompt: b\n", 7, 1, "expected a single document"),
    "top-level-list": (b"- id: x\n- prompt: y\n", 1, 1, "a question file must be a mapping"),
    "empty-file": (b"", 1, 1, "the file is empty"),
    "tab-indentation": (ID + b"prompt:\n\ten: hi\n", 3, 1, "not valid YAML"),
    "unclosed-quote": (ID + b'prompt: "abc\nanswer: a\n', 4, 1, "found unexpected end of stream"),
    "very-long-key": (ID + b"a" * 2000 + b": 1\n", 2, None, "could not find expected ':'"),
}


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_small_bank(tmp_path_factory.mktemp("hostile") / "content")


def problems_of(bank: Path, name: str) -> list[Problem]:
    _bank, problems = check_bank(bank)
    return [p for p in problems if p.path.endswith(f"/{name}.yaml") or p.path.endswith(f"/{name}")]


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_file(bank: Path, name: str) -> None:
    data, line, col, message = CASES[name]
    path = bank / TOPIC / f"{name}.yaml"
    path.write_bytes(data)
    try:
        found = problems_of(bank, f"{name}.yaml")
    finally:
        path.unlink()
    assert found, f"{name}: no problem reported"
    first = found[0]
    assert message in first.message, found
    assert "Traceback" not in first.message
    assert (first.line, first.col if col is not None else None) == (line, col), found


def test_a_good_file_with_bom_and_crlf_is_fine(bank: Path) -> None:
    path = bank / TOPIC / "bom-crlf.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD.replace(b"\n", b"\r\n"))
    try:
        assert problems_of(bank, "bom-crlf.yaml") == []
    finally:
        path.unlink()


def test_huge_sparse_file_is_not_read(bank: Path) -> None:
    """A 4 GiB file is refused from its first 256 KiB (bounded memory)."""
    path = bank / TOPIC / "four-gib.yaml"
    with path.open("wb") as handle:
        handle.truncate(4 << 30)
    try:
        found = problems_of(bank, "four-gib.yaml")
    finally:
        path.unlink()
    assert [(p.line, p.message) for p in found] == [
        (1, f"file is {4 << 30:,} bytes, over the limit of {MAX_FILE_BYTES:,}")
    ]


def test_directory_where_a_file_should_be(bank: Path) -> None:
    folder = bank / TOPIC / "a-folder.yaml"
    folder.mkdir()
    try:
        found = problems_of(bank, "a-folder.yaml")
    finally:
        folder.rmdir()
    assert [(p.line, p.message) for p in found] == [
        (1, "a directory where a YAML file was expected")
    ]


def test_dangling_symlink(bank: Path) -> None:
    link = bank / TOPIC / "dangling.yaml"
    link.symlink_to(bank / "no-such-target.yaml")
    try:
        found = problems_of(bank, "dangling.yaml")
    finally:
        link.unlink()
    assert len(found) == 1
    assert found[0].line == 1
    assert found[0].message.startswith("cannot read the file")


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


# linux/capability.h: capability sets of 64 bits (two _CapData), and the two capabilities
# that let root read any file whatever its mode.
_CAPABILITY_VERSION_3 = 0x20080522
_DAC_OVERRIDE, _DAC_READ_SEARCH = 1, 2


@contextmanager
def file_modes_bind_root() -> Iterator[None]:
    """Run the body with file modes binding this thread even as root (CI runs as root): its
    effective set without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH, given back after. A
    thread may always drop its own effective capabilities and raise them again from its
    permitted set. ``check_bank`` of a small bank runs in the calling thread."""
    if os.geteuid() != 0:
        yield
        return
    libc = ctypes.CDLL(None, use_errno=True)
    header = _CapHeader(_CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()

    def call(name: str) -> None:
        if getattr(libc, name)(ctypes.byref(header), data) != 0:
            error = ctypes.get_errno()
            raise OSError(error, f"{name}: {os.strerror(error)}")

    call("capget")
    kept = data[0].effective
    data[0].effective = kept & ~(1 << _DAC_OVERRIDE | 1 << _DAC_READ_SEARCH)
    call("capset")
    try:
        yield
    finally:
        data[0].effective = kept
        call("capset")


def test_unreadable_file(bank: Path) -> None:
    path = bank / TOPIC / "locked.yaml"
    path.write_bytes(GOOD)
    path.chmod(0)
    try:
        with file_modes_bind_root():
            with pytest.raises(PermissionError):  # the file really is unreadable here
                path.read_bytes()
            found = problems_of(bank, "locked.yaml")
    finally:
        path.chmod(0o644)
        path.unlink()
    assert [(p.line, p.col, p.key, p.message) for p in found] == [
        (1, 1, "", "cannot read the file: Permission denied")
    ]
    assert found[0].path.endswith(f"{TOPIC}/locked.yaml")


def test_a_pipe_named_like_a_question_is_reported_not_waited_on(bank: Path) -> None:
    pipe = bank / TOPIC / "pipe.yaml"
    os.mkfifo(pipe)

    def unblock() -> None:
        # Should the loader wait for a writer, become one after a while: the test then
        # fails on the reported problem instead of hanging.
        with contextlib.suppress(OSError):
            os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))

    watchdog = threading.Timer(60, unblock)
    watchdog.start()
    try:
        found = problems_of(bank, "pipe.yaml")
    finally:
        watchdog.cancel()
        pipe.unlink()
    assert [(p.line, p.col, p.key, p.message) for p in found] == [
        (1, 1, "", "not a regular file (a pipe or a device)")
    ]


def test_validate_reports_every_hostile_file_without_a_traceback(bank: Path) -> None:
    written = []
    for name, (data, line, _col, _message) in CASES.items():
        path = bank / TOPIC / f"{name}.yaml"
        path.write_bytes(data)
        written.append((path, line))
    try:
        result = CliRunner().invoke(main, ["validate", str(bank)])
    finally:
        for path, _line in written:
            path.unlink()
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    for path, line in written:
        assert f"{path.name}:{line}:" in result.output, path.name
