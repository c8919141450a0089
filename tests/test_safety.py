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


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("A method returns List<String>.", ["String"]),
        ("Run `git checkout` with <branch-name> and Map<K, V>.", ["branch-name", "K"]),
        ("The <head> element, closed by </head>.", ["head"]),
    ],
)
def test_harmless_tag_names_are_text_with_a_warning(text: str, names: list[str]) -> None:
    """Issue 35: a tag name outside the allowlist that is not dangerous is shown as typed
    (``tags_as_text``, used by the renderer), with one warning a name."""
    from qbank.bank.markup import to_html
    from qbank.bank.problems import Severity
    from qbank.bank.safety import tags_as_text

    parts = unsafe_parts(text)
    assert [p.severity for p in parts] == [Severity.WARNING] * len(names)
    assert [p.message.split(">", 1)[0][1:] for p in parts] == names
    shown = to_html(text)
    for name in names:
        assert f"&lt;{name}" in shown
    assert "<head>" not in shown
    assert "<String>" not in shown
    assert tags_as_text("`List<String>` in code") == "`List<String>` in code"


@pytest.mark.parametrize(
    "text",
    [
        "<iframe>",
        "<object data=x>",
        "<embed src=x>",
        "<style>p{}</style>",
        '<head onload="x()">',
        '<branch href="javascript:alert(1)">',
        '<x src="data:text/html,hi">',
        '<span style="color:red">',
    ],
)
def test_dangerous_tags_stay_refused(text: str) -> None:
    from qbank.bank.problems import Severity
    from qbank.bank.safety import tags_as_text

    parts = unsafe_parts(text)
    assert [p.severity for p in parts] == [Severity.ERROR], parts
    assert tags_as_text(text) == text  # left for nh3, which removes it
