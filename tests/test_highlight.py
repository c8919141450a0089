"""A plain fenced code block highlighted without Python-Markdown (``qbank.bank.highlight``) gives
exactly the full conversion's HTML; code of another shape takes the full conversion."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from support.examples import examples
from tests.fixtures.messy_bank import write_messy_bank

from qbank.bank.highlight import fence_html
from qbank.bank.markup import _converted, _fence, _prose_and_fences

ROOT = Path(__file__).resolve().parent.parent

AWKWARD = [
    "```\n\n```",
    "```python\n```",
    "```js\nconst a = '<b>' && \"x\";\n```",
    "```nosuchlanguage\nfoo <bar> & baz\n```",
    "```c++\nint main() { return 0; }\n```",
    "```c#\nvar x = 1;\n```",
    "```python\nx = 1\n\n\ny = 2\n```",
    "```python\n\nx = 1\n\n```",
    "```text\n中文 代码 ünïcödé 'q' \"w\"\n```",
    '```bash\n$ echo "hi" > /dev/null &\n```',
    "```\nplain & <tag> &amp; &#39;\n```",
    "```sql\nSELECT * FROM t WHERE a = 'x';\n```",
    "```yaml\na: 1  \n# trailing spaces above\n```",
    "```python\n    indented()\n        more()\n```",
]
NOT_PLAIN = [
    "```python\n\tx = 1\n```",  # a tab: Python-Markdown expands it first
    "```python\nx = 1\r\ny = 2\n```",  # a carriage return
    "```python\nx = 1\n   \ny = 2\n```",  # a line of spaces only
    "```python\nstx \x02 etx \x03\n```",
]


def _fences(texts: list[str]) -> list[str]:
    found = []
    for text in texts:
        for is_fence, part in _prose_and_fences(text) or ():
            if is_fence:
                found.append(part)
    return found


def _texts(data: Any) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [t for value in data.values() for t in _texts(value)]
    if isinstance(data, list):
        return [t for value in data for t in _texts(value)]
    return []


def _bank_fences(root: Path) -> list[str]:
    texts = []
    for path in sorted(root.rglob("*.yaml")):
        texts += _texts(yaml.safe_load(path.read_text(encoding="utf-8")))
    return _fences(texts)


@pytest.mark.parametrize("fence", AWKWARD)
def test_awkward_fences_are_fast_and_equal(fence: str) -> None:
    fast = fence_html(fence)
    assert fast is not None
    assert _fence(fence) == _converted(fence, "")


@pytest.mark.parametrize("fence", NOT_PLAIN)
def test_other_code_takes_the_full_conversion(fence: str) -> None:
    assert fence_html(fence) is None
    assert _fence(fence) == _converted(fence, "")


def test_sample_bank_fences_agree() -> None:
    fences = _bank_fences(ROOT / "content")
    assert len(fences) > 20
    for fence in fences:
        assert fence_html(fence) is not None, fence
        assert _fence(fence) == _converted(fence, ""), fence


def test_messy_bank_fences_agree(tmp_path: Path) -> None:
    fences = _bank_fences(write_messy_bank(tmp_path / "bank"))
    assert len(fences) > 20
    for fence in fences:
        assert _fence(fence) == _converted(fence, ""), fence


@settings(max_examples=examples(300), deadline=None)
@given(
    st.sampled_from(["", "python", "js", "sql", "bash", "text", "nosuch", "c++", "yaml"]),
    st.lists(
        st.one_of(
            st.sampled_from(["\n", "  ", "<", ">", "&", '"', "'", "#", "`", "\\", "$", "中文"]),
            st.text(
                alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")),
                max_size=12,
            ),
        ),
        max_size=30,
    ),
)
def test_any_code_fast_equals_full(language: str, pieces: list[str]) -> None:
    fence = f"```{language}\n{''.join(pieces)}\n```"
    assume(_prose_and_fences(fence) == [(True, fence)])  # what to_html hands to _fence
    assert _fence(fence) == _converted(fence, "")
