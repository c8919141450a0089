# ruff: noqa: RUF001  (Chinese test content)
"""The math rule (``qbank/mathcheck.py``): what it reports is what the page would get wrong,
checked against the real renderer (``markup.to_html``), and a bank's ordinary dollars, code
and valid math pass. The file-level output (paths, lines, keys) is the golden case
``tests/golden/validate/bad-math``."""

from __future__ import annotations

from pathlib import Path

import pytest

from qbank.bank.load import load_bank
from qbank.bank.markup import to_html
from qbank.bank.mathcheck import math_issues
from qbank.bank.model import TEXT_FIELDS
from qbank.bank.problems import Severity

ROOT = Path(__file__).resolve().parents[1]

FINE = [
    "The bound is $O(n \\log n)$ and \\(m^2\\) too.",
    "A batch costs $5, two cost $10.",
    "Set $HOME_DIR and ${name} in the shell.",
    "Code: `$x^` and `\\(` are shown as written.",
    "```python\nprice = '$' + x  # \\( not math\n```",
    "An escaped \\$x^2 is a dollar sign.",
    "A block:\n\n$$\n\\frac{a}{b}\n$$\n\nand \\[x = 1\\] too.",
    "\\begin{aligned} a &= b \\\\ c &= d \\end{aligned}",
    "Sets: $\\{a, b\\}$, norms $\\lVert x \\rVert$.",
    "人民币 $5，以及 $O(1)$ 的查找。",
    # Delimiters with no LaTeX around them are text (issue 35: real banks hold them).
    "The shell expands $$ to its process id.",
    "grep '\\[' finds an opening bracket.",
    "The regex [\\[\\]] matches either bracket.",
    "In the notation a\\b\\[C, D] the brackets are literal.",
    "`kill $$` and then\n\n$$ alone",
]


@pytest.mark.parametrize("text", FINE)
def test_valid_math_and_ordinary_dollars_pass(text: str) -> None:
    assert list(math_issues(text)) == []


BROKEN = [
    # (text, line, start of the message, severity, what the page shows instead of math)
    ("when \\(n^2 > m holds", 0, "math opened with \\( is never closed", Severity.ERROR, "(n^2"),
    ("one\ntwo $\\sqrt$ three", 1, "math `\\sqrt` cannot be read", Severity.ERROR, "<code>"),
    ("$\\left( x$", 0, "math `\\left( x` cannot be read", Severity.ERROR, "<code>"),
    ("a\n\n$$\nx^2\n", 2, "math opened with $$ is never closed", Severity.ERROR, "$$"),
    ("\\begin{cases} a", 0, "math opened with \\begin{cases}", Severity.ERROR, "begin{cases}"),
    ("stray x^2 \\) here", 0, "\\) closes math that was never opened", Severity.ERROR, ")"),
    ("$x^2 + 1 forever", 0, "`$x^2 + 1 forever` reads as math", Severity.WARNING, "$x^2"),
]


@pytest.mark.parametrize(("text", "line", "message", "severity", "shown"), BROKEN)
def test_broken_math_is_reported_at_its_line(
    text: str, line: int, message: str, severity: Severity, shown: str
) -> None:
    issues = list(math_issues(text))
    assert len(issues) == 1, issues
    found_line, found_message, hint, found_severity = issues[0]
    assert (found_line, found_severity) == (line, severity)
    assert found_message.startswith(message), found_message
    assert hint
    # What the message says the page does is what the renderer does.
    page = to_html(text)
    assert shown in page
    assert "<math" not in page


def test_unbalanced_braces_are_reported() -> None:
    (issue,) = math_issues("$$\n\\frac{n^2}{m\n$$")
    assert issue[1] == "math `\\frac{n^2}{m` leaves 1 brace { open"
    (issue,) = math_issues("$a}$")
    assert "closes a brace } that was never opened" in issue[1]


def test_the_sample_bank_math_is_clean_and_renders() -> None:
    """Every text of the sample bank with math passes, and its math reaches the page."""
    bank = load_bank(ROOT / "content")
    with_math = 0
    for entry in bank.entries:
        q = entry.question
        texts = [getattr(q, name) for name in TEXT_FIELDS] + list((q.options or {}).values())
        for by_locale in texts:
            for text in (by_locale or {}).values():
                assert list(math_issues(text)) == [], (entry.file, text)
                if "$" in text:
                    with_math += 1
                    assert "<math" in to_html(text), (entry.file, text)
    assert with_math >= 3
