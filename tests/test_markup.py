"""Question Markdown → safe HTML: what survives, what is converted, what never reaches a page."""

from __future__ import annotations

import pytest

from qbank.bank.markup import plain_text, to_html


def test_code_is_highlighted_with_material_classes() -> None:
    out = to_html("```python\ndef f(x):\n    return x < 1\n```\n")
    assert out.startswith('<div class="highlight"><pre>')
    assert '<span class="k">def</span>' in out
    assert "&lt;" in out


def test_inline_code_lists_and_tables() -> None:
    out = to_html("Use `pin_memory`:\n\n- one\n- two\n\n| a | b |\n|:--|--:|\n| 1 | 2 |\n")
    assert "<code>pin_memory</code>" in out
    assert "<li>one</li>" in out
    assert '<th align="left">a</th>' in out
    assert '<td align="right">2</td>' in out


def test_math_becomes_mathml_inline_and_block() -> None:
    out = to_html("Ratio $a^2$ here.\n\n$$\n\\frac{1}{2}\n$$\n")
    assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">' in out
    assert '<div class="qb-math"><math' in out
    assert 'display="block"' in out
    assert "<mfrac>" in out
    assert "arithmatex" not in out


def test_dollar_in_code_is_not_math() -> None:
    out = to_html("Run `echo $HOME $PATH` now.")
    assert "<math" not in out
    assert "<code>echo $HOME $PATH</code>" in out


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("$\\frac{1}{$", "<code>\\frac{1}{</code>"),
        ("Ratio $\\frac{1}{$ here.", "Ratio <code>\\frac{1}{</code> here."),
        ("$$\n\\frac{1}{\n$$\n", "<code>\n\\frac{1}{\n</code>"),
    ],
)
def test_malformed_math_falls_back_to_source(text: str, shown: str) -> None:
    out = to_html(text)
    assert "<math" not in out
    assert shown in out  # the TeX source, as code


@pytest.mark.parametrize(
    "text",
    [
        "[x](javascript:alert(1))",
        "[x](JaVaScRiPt:alert(1))",
        "[x](vbscript:msgbox(1))",
        "[x](data:text/html;base64,PHNjcmlwdD4=)",
        "![x](data:image/png;base64,AAAA)",
        "[x](&#106;avascript:alert(1))",
        "<a href='javascript:alert(1)'>x</a>",
    ],
)
def test_dangerous_urls_never_survive(text: str) -> None:
    out = to_html(text).lower()
    assert "javascript" not in out
    assert "vbscript" not in out
    assert "data:" not in out


@pytest.mark.parametrize(
    ("text", "gone"),
    [
        ("<script>alert(1)</script>", "<script"),
        ("<style>p{}</style>", "<style"),
        ("<iframe src=x></iframe>", "<iframe"),
        ('<b onclick="alert(1)">x</b>', "onclick"),
        ('<span style="color:red">x</span>', "style"),
    ],
)
def test_unsafe_html_is_removed(text: str, gone: str) -> None:
    assert gone not in to_html(text)


def test_inline_allowlist_survives() -> None:
    out = to_html("H<sub>2</sub>O, x<sup>2</sup>, <kbd>Ctrl</kbd>, <b>b</b><br>")
    for tag in ("<sub>2</sub>", "<sup>2</sup>", "<kbd>Ctrl</kbd>", "<b>b</b>", "<br>"):
        assert tag in out


def test_relative_image_is_prefixed_and_remote_image_loses_its_source() -> None:
    out = to_html("![d](diagram.png) ![r](https://example.com/x.png)", "../../../img/f/t/")
    assert 'src="../../../img/f/t/diagram.png"' in out
    assert "example.com" not in out


def test_links_keep_safe_targets() -> None:
    out = to_html("[docs](https://example.com/a)")
    assert 'href="https://example.com/a"' in out
    assert 'rel="nofollow noopener noreferrer"' in out


def test_plain_text_title() -> None:
    assert plain_text("Why is **this** `slow`?\n\n```\ncode\n```") == "Why is this slow?"
    assert plain_text("Ratio $a^2$ here.") == "Ratio a2 here."
    long = "word " * 40
    title = plain_text(long)
    assert title.endswith("…")
    assert len(title) <= 81
    zh = "性能分析器" * 30
    assert plain_text(zh) == zh[:80] + "…"


def test_plain_text_starts_from_the_first_paragraph_not_a_table() -> None:
    assert plain_text("Look:\n\n| a | b |\n|--|--|\n| 1 | 2 |\n") == "Look:"
