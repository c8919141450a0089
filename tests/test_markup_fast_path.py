"""The prose fast path of ``qbank.bank.markup.to_html`` gives exactly the full conversion's HTML."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from support.examples import examples

from qbank.bank.markup import _converted, _prose_and_fences, prose_html, to_html

ROOT = Path(__file__).resolve().parent.parent

PROSE = [
    "A plain sentence.",
    "Two lines\nin one paragraph.\n",
    'First paragraph.\n\nSecond one, with "quotes" and it\'s fine.\n\n\n',
    "Türkçe: çğıöşü İ. 中文句子\uff0c标点\u3002",
    "Ends with a question?",
    "Percent 50% and slash a/b and (parentheses) and an @ sign.",
]
NOT_PROSE = [
    "- a list",
    "1. ordered",
    "2) ordered",
    "    indented code",
    "Title\n=====",
    "Title\n---",
    "Some *emphasis*",
    "a `code` span",
    "a [link](https://example.org)",
    "A & B",
    "x < y",
    "hard break  \nnext",
    "# heading",
    "> quote",
    "| a | b |",
    "math \\(x\\)",
    "non\xa0breaking",
    "tab\there",
    "+ plus list",
]


@pytest.mark.parametrize("text", PROSE)
def test_prose_is_fast_and_equal(text: str) -> None:
    fast = prose_html(text)
    assert fast is not None
    assert fast == _converted(text, "")


@pytest.mark.parametrize("text", NOT_PROSE)
def test_markup_takes_the_full_path(text: str) -> None:
    assert prose_html(text) is None


@settings(max_examples=examples(300), deadline=None)
@given(
    st.text(
        alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)),
        max_size=120,
    )
)
def test_any_text_fast_equals_full(text: str) -> None:
    fast = prose_html(text)
    if fast is not None:
        assert fast == _converted(text, "")


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.sampled_from(["word", "Söz", "词", " ", "\n", "\n\n", ".", ",", "?", "1", "-"])))
def test_prose_like_text_fast_equals_full(parts: list[str]) -> None:
    text = "".join(parts)
    fast = prose_html(text)
    if fast is not None:
        assert fast == _converted(text, "")


def test_sample_bank_texts_agree() -> None:
    checked = 0
    for path in sorted((ROOT / "content").rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or "prompt" not in data:
            continue
        texts = [data["prompt"], *(data.get("options") or {}).values()]
        texts += [data.get(k) or {} for k in ("explanation", "assesses", "model_answer")]
        for by_locale in texts:
            for text in by_locale.values() if isinstance(by_locale, dict) else ():
                assert to_html(text) == _converted(text, ""), path
                checked += 1
    assert checked > 50


FENCED = [
    "Intro.\n\n```python\ndef f(x):\n\n    return x < 1\n```\n\nAfter.",
    "```\nplain code\n```",
    "```sql\nSELECT 1;\n```\n\nText after.\n",
    "Before.\n\n```js\nlet a = `x`;\n```\n\nMiddle.\n\n```python\npass\n```\n",
]
FENCED_NOT_FAST = [
    "Before.\n```python\nx\n```\n",  # no blank line before the fence
    "```python\nx\n```\nafter",  # no blank line after
    "````python\nx\n````\n",  # four backticks
    "```python\nx\n````\n",  # closed by another run of backticks
    "```python\nnever closed\n",
    "Some *emphasis*.\n\n```python\nx\n```\n",  # the prose part is not plain
]


@pytest.mark.parametrize("text", FENCED + FENCED_NOT_FAST)
def test_prose_with_fences_equals_full(text: str) -> None:
    assert to_html(text) == _converted(text, "")


@pytest.mark.parametrize("text", FENCED)
def test_fences_take_the_split_path(text: str) -> None:
    parts = _prose_and_fences(text)
    assert parts is not None
    assert any(is_fence for is_fence, _ in parts)


@pytest.mark.parametrize("text", FENCED_NOT_FAST[:5])
def test_unusual_fences_take_the_full_path(text: str) -> None:
    assert _prose_and_fences(text) is None


@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["word", "Söz", "词", " ", "\n", "\n\n", ".", "`", "```", "```python", "x = 1", "*"]
        )
    )
)
def test_fence_like_text_split_equals_full(parts: list[str]) -> None:
    text = "".join(parts)
    assert to_html(text) == _converted(text, "")
