"""The validator's raw-HTML allowlist and URL rules, one text at a time."""

from __future__ import annotations

import pytest

from qbank.bank.safety import local_images, unsafe_parts


def _found(text: str) -> list[tuple[int, str]]:
    return [(part.line, part.message) for part in unsafe_parts(text)]


@pytest.mark.parametrize(
    "text",
    [
        "Plain **Markdown** with `<script>` in code and <kbd>Ctrl</kbd>.",
        "```html\n<script>alert(1)</script>\n```\n",
        "Math $a<b$ and $$x<y$$ stay math.",
        "[docs](https://example.org) and [rel](../other.md) and <b>bold</b><br>",
        "![diagram](diagram.png)",
    ],
)
def test_safe_texts(text: str) -> None:
    assert _found(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<script>alert(1)</script>", [(0, "raw HTML <script> is not allowed")]),
        ("line\n<iframe src=x>", [(1, "raw HTML <iframe> is not allowed")]),
        ('<b onclick="x()">hi</b>', [(0, "attributes on <b> are not allowed")]),
        (
            "a\n\n<!-- hidden -->",
            [(2, "raw HTML comments and processing instructions are not allowed")],
        ),
        ("[x](javascript:alert(1))", [(0, "javascript: URLs are not allowed")]),
        ("[x](JaVaScRiPt&#58;alert(1))", [(0, "javascript: URLs are not allowed")]),
        ("[x](data:text/html,hi)", [(0, "data: URLs are not allowed")]),
        (
            "![x](https://example.org/a.png)",
            [(0, "a remote image would make every reader's browser contact another site")],
        ),
        ("[x]: javascript:alert(1)", [(0, "javascript: URLs are not allowed")]),
    ],
)
def test_unsafe_texts(text: str, expected: list[tuple[int, str]]) -> None:
    assert _found(text) == expected


def test_local_images_are_listed_but_not_remote_or_code() -> None:
    text = "![a](a.png) ![b](https://x.org/b.png)\n```\n![c](c.png)\n```\n![d](img/d.svg)"
    assert local_images(text) == ["a.png", "img/d.svg"]
