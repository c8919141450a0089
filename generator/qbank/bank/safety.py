"""What content may put on a page: the raw-HTML allowlist and URL rules, checked per text.

``unsafe_parts`` finds what the validator reports (with the line inside the text);
the renderer additionally passes every produced HTML fragment through nh3 (Ammonia).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

INLINE_TAGS = frozenset({"b", "i", "em", "strong", "code", "sub", "sup", "br", "kbd"})
SAFE_SCHEMES = frozenset({"http", "https", "mailto"})

_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})[^\n]*\n.*?(?:^\1?\2[ \t]*$|\Z)", re.M | re.S)
_CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.S)
_MATH = re.compile(r"\$\$.+?\$\$|(?<![\\$])\$(?!\s)[^$\n]+?(?<![\s\\])\$", re.S)
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)([^>]*)>|<!--|<\?|<!\[CDATA\[", re.S)
_LINK = re.compile(r"(!?)\[[^\]]*\]\(\s*<?([^)\s>]*)")
_REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
# Autolinks: <https://…>, <mailto:…> and <name@host>; any other <scheme:…> is checked as a URL.
_AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*|[^<>\s!@]+@[^@<>\s]+)>")
_HTML_ESCAPES = re.compile(r"&(#[0-9]+|#x[0-9a-fA-F]+|[a-zA-Z]+);?")

ALLOWED_HINT = (
    "Markdown, or only the inline tags "
    + ", ".join(f"<{t}>" for t in sorted(INLINE_TAGS))
    + " without attributes, and <a href> with an http, https, mailto or relative URL"
)
# Raw links (existing banks often write them): <a> with an href and optionally a title.
LINK_ATTRIBUTES = frozenset({"href", "title"})
_ATTRIBUTE = re.compile(
    r"""\s*([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""", re.S
)


@dataclass(frozen=True)
class UnsafePart:
    """One thing in a text that may not reach a page; ``line`` is 0-based within the text."""

    line: int
    message: str
    hint: str


def _blank(match: re.Match[str]) -> str:
    # Keep line breaks so offsets still map to the contributor's lines.
    return re.sub(r"[^\n]", " ", match.group(0))


def _prose(markdown: str) -> str:
    """The text with code blocks, code spans and math blanked out (they are shown verbatim)."""
    text = _FENCE.sub(_blank, markdown)
    text = _CODE_SPAN.sub(_blank, text)
    return _MATH.sub(_blank, text)


def url_problem(url: str, *, image: bool) -> str | None:
    """Why a link or image URL may not be published, or None when it is fine."""
    decoded = _HTML_ESCAPES.sub(lambda m: _unescape_entity(m.group(1)), url)
    compact = re.sub(r"[\x00-\x20]", "", decoded)
    scheme = _SCHEME.match(compact)
    if scheme and scheme.group(1).lower() not in SAFE_SCHEMES:
        return f"{scheme.group(1).lower()}: URLs are not allowed"
    if image and (scheme or compact.startswith("//")):
        return "a remote image would make every reader's browser contact another site"
    return None


def _unescape_entity(body: str) -> str:
    try:
        if body.startswith("#x"):
            return chr(int(body[2:], 16))
        if body.startswith("#"):
            return chr(int(body[1:]))
    except (ValueError, OverflowError):
        return ""
    return {"colon": ":", "tab": "\t", "newline": "\n"}.get(body.lower(), "")


def without_markup(markdown: str) -> bool:
    """Whether a text has no raw HTML, link or image at all (most texts): then neither
    ``unsafe_parts`` nor ``local_images`` finds anything in it."""
    return "<" not in markdown and "](" not in markdown and "]:" not in markdown


def unsafe_parts(markdown: str) -> list[UnsafePart]:
    """Every raw-HTML tag outside the allowlist and every unsafe link or image in a text."""
    if without_markup(markdown):
        return []
    text = _prose(markdown)
    found: list[UnsafePart] = []
    for match in _AUTOLINK.finditer(text):
        reason = url_problem(match.group(1), image=False) if ":" in match.group(1) else None
        if reason:
            line = text.count("\n", 0, match.start())
            found.append(UnsafePart(line, reason, "an https:// or mailto: link"))
    text = _AUTOLINK.sub(_blank, text)
    for match in _TAG.finditer(text):
        line = text.count("\n", 0, match.start())
        name = (match.group(2) or "").lower()
        if not name:
            found.append(
                UnsafePart(
                    line,
                    "raw HTML comments and processing instructions are not allowed",
                    ALLOWED_HINT,
                )
            )
        elif name == "a":
            reason = None if match.group(1) else _link_problem(match.group(3))
            if reason:
                found.append(UnsafePart(line, reason, ALLOWED_HINT))
        elif name not in INLINE_TAGS:
            if match.group(1):  # the closing tag of one already reported
                continue
            found.append(UnsafePart(line, f"raw HTML <{name}> is not allowed", ALLOWED_HINT))
        elif match.group(3).strip(" /"):
            found.append(UnsafePart(line, f"attributes on <{name}> are not allowed", ALLOWED_HINT))
    for match in _LINK.finditer(text):
        reason = url_problem(match.group(2), image=bool(match.group(1)))
        if reason:
            line = text.count("\n", 0, match.start())
            found.append(
                UnsafePart(
                    line,
                    reason,
                    "a relative link, an https:// link, or an "
                    "image file beside the question (![alt](diagram.png))",
                )
            )
    for match in _REFERENCE.finditer(text):
        reason = url_problem(match.group(1), image=False)
        if reason:
            line = text.count("\n", 0, match.start())
            found.append(UnsafePart(line, reason, "an https:// or relative link"))
    return found


def _link_problem(attributes: str) -> str | None:
    """Why a raw ``<a …>`` tag (its attribute text) may not be published, or None."""
    text = attributes.strip(" \t\n/")
    href = None
    position = 0
    while position < len(text):
        match = _ATTRIBUTE.match(text, position)
        if match is None or match.end() == position:
            return "the attributes of <a> could not be read"
        position = match.end()
        name = match.group(1).lower()
        if name not in LINK_ATTRIBUTES:
            return f"the attribute {name!r} on <a> is not allowed"
        if name == "href":
            href = next((g for g in match.group(2, 3, 4) if g is not None), "")
    if href is None:
        return "<a> without an href is not allowed"
    reason = url_problem(href, image=False)
    return f"<a href>: {reason}" if reason else None


_LOCAL_IMAGE = re.compile(r"!\[[^\]]*\]\(\s*<?([^)\s>]+)")


def local_images(markdown: str) -> list[str]:
    """Relative image paths a text uses (files that must sit beside the question)."""
    if "![" not in markdown:
        return []
    return [
        m.group(1)
        for m in _LOCAL_IMAGE.finditer(_prose(markdown))
        if not _SCHEME.match(m.group(1)) and not m.group(1).startswith("//")
    ]
