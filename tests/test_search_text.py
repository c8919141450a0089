"""A search document's shown text (``documents.text_of``) skips the Markdown conversion for
prose and plain fenced code, and gives exactly what the conversion gives: checked on every
text of the sample bank, the messy bank and the bench's synthetic bank, and on generated
fence-like texts. Also: ``clip`` cuts at the same column as counting character by character."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from support.examples import examples
from tests.fixtures.messy_bank import write_messy_bank
from tests.test_highlight import AWKWARD, NOT_PLAIN, _texts

from qbank.bank.markup import to_html
from qbank.search.documents import CJK, clip, plain, text_of

ROOT = Path(__file__).resolve().parent.parent


def converted(text: str) -> str:
    """The shown text the long way: the text's HTML as pages show it, then ``plain``."""
    return plain(to_html(text))


def bank_texts(content: Path) -> Iterator[str]:
    """Every text of the bank in ``content`` (every string of every file)."""
    for path in sorted(content.rglob("*.yaml")):
        yield from _texts(yaml.safe_load(path.read_text(encoding="utf-8")))


def check_bank(content: Path, least: int) -> None:
    checked = fenced = 0
    for text in bank_texts(content):
        assert text_of(text) == converted(text), text
        checked += 1
        fenced += "```" in text
    assert checked >= least
    assert fenced > 0


def test_sample_bank_texts_agree() -> None:
    check_bank(ROOT / "content", 50)


def test_messy_bank_texts_agree(tmp_path: Path) -> None:
    check_bank(write_messy_bank(tmp_path / "content"), 100)


def test_synthetic_bank_texts_agree(tmp_path: Path) -> None:
    out = tmp_path / "bank"
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "make_bank.py"), str(out), "--questions", "150"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    check_bank(out, 1000)


SHAPES = [
    "Intro.\n\n```python\ndef f(x):\n\n    return x < 1 and y > 2 & z\n```\n\nAfter.",
    "```\nplain code\n```",
    "```\n\n```",
    "```js\nlet s = '&amp; &lt;b&gt;';\t// <b>not bold</b>\n```\n\n中文说明。",
    "Before.\n\n```js\nlet a = `x`;\n```\n\nMiddle.\n\n```python\npass\n```\n",
    "```python\nx = '\x0c'\n```",  # a control character: converted
    "```python\nnon\xa0breaking\n```",
    "Some *emphasis*.\n\n```python\nx\n```\n",  # the prose is not plain: converted
    "```python\nx\n```\nafter",
]


@pytest.mark.parametrize("text", SHAPES + AWKWARD + NOT_PLAIN)
def test_shapes_agree(text: str) -> None:
    assert text_of(text) == converted(text)


@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                *["word", "Söz", "词", " ", "\t", "\n", "\n\n", ".", "`", "```", "```python"],
                *["x = 1", "*", "&", "<i>", "&amp;", "a  b", "\n```\n"],
            ]
        )
    )
)
def test_fence_like_texts_agree(parts: list[str]) -> None:
    text = "".join(parts)
    assert text_of(text) == converted(text)


def clip_by_character(text: str, size: int) -> str:
    """``clip`` the slow way: add up each character's columns until one does not fit."""
    if len(text) <= size // 2:
        return text
    columns = 0
    for at, char in enumerate(text):
        columns += 2 if char in WIDE else 1
        if columns > size:
            return text[:at].rstrip() + "…"
    return text


WIDE = {chr(c) for c in range(0x4E00, 0x4E10)} | {"ひ", "한"}
assert all(re.fullmatch(f"[{CJK}]", char) for char in WIDE)


@settings(max_examples=examples(500), deadline=None)
@given(
    st.text(alphabet=st.sampled_from([*sorted(WIDE), "a", "b", " ", "."]), max_size=60),
    st.integers(min_value=1, max_value=40),
)
def test_clip_cuts_where_the_columns_run_out(text: str, size: int) -> None:
    assert clip(text, size) == clip_by_character(text, size)
