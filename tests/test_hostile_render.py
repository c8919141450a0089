"""Fuzzing the render path: any Markdown, valid or not, becomes HTML that cannot run code.

Random text built from the pieces attacks are made of (tags, handlers, schemes, entities,
Markdown link and code syntax) goes through ``qbank.bank.markup.to_html``, the one function every
question text passes on its way into a page; the result is parsed, not searched as a string.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from selectolax.lexbor import LexborHTMLParser
from support.examples import examples

from qbank.bank.markup import to_html

PIECES = [
    "<script>", "</script>", "<img", " src=x", " onerror=alert(1)", "<svg", " onload=alert(1)",
    "<a href=", "javascript:", "JaVaScRiPt:", "vbscript:", "data:text/html,", "&#106;", "&#x3a;",
    "&colon;", "\t", "\n", "\n\n", "    ", "`", "```", "~~~", "[", "]", "(", ")", "![", "]: ",
    "<", ">", "\"", "'", "=", "/", "<b", "<iframe srcdoc=", " style=x", "<!--", "-->", "$", "$$",
    "\\", "<https://example.org>", "<a@b.c>", "| a |\n|---|\n", "- ", "1. ", "alert(1)", "x",
    "<math><mtext>", "<details open ontoggle=", "<form action=", "<base href=", "<object data=",
]  # fmt: skip
_BAD_URL = re.compile(r"^(javascript|vbscript|data):", re.I)
markdown_text = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=5)), max_size=40).map(
    "".join
)


def assert_inert(fragment: str) -> None:
    """No script element, event handler, srcdoc/style, script URL or frame in ``fragment``."""
    tree = LexborHTMLParser(f"<body>{fragment}</body>")
    assert tree.css_first("script, iframe, object, embed, form, base, style") is None, fragment
    for node in tree.css("*"):
        for name, value in node.attributes.items():
            lowered = name.lower()
            assert not lowered.startswith("on"), fragment
            assert lowered not in ("style", "srcdoc"), fragment
            compact = re.sub(r"[\x00-\x20]", "", value or "")
            assert not _BAD_URL.match(compact), fragment


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(markdown_text)
def test_any_markdown_renders_inert(text: str) -> None:
    assert_inert(to_html(text))


@settings(max_examples=examples(200), deadline=None)
@given(markdown_text, st.sampled_from(["", "../../../images/f/t/"]))
def test_image_prefix_keeps_it_inert(text: str, prefix: str) -> None:
    assert_inert(to_html(text, prefix))


def test_known_bypasses_stay_closed() -> None:
    for text in (
        "[a](java&#9;script:alert(1))",
        "[a](java\nscript:alert(1))",
        '<a href="&#x6A;avascript:alert(1)">x</a>',
        "<img/src=x/onerror=alert(1)>",
        "<scr<script>ipt>alert(1)</script>",
        "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
        '[x](https://ok.example "t\\" onmouseover=alert(1) x=\\"")',
    ):
        assert_inert(to_html(text))
