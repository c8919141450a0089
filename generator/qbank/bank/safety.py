"""What content may put on a page: the raw-HTML allowlist and URL rules, checked per text.

``unsafe_parts`` finds what the validator reports (with the line inside the text);
the renderer additionally passes every produced HTML fragment through nh3 (Ammonia).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from qbank.bank.problems import Severity

INLINE_TAGS = frozenset({"b", "i", "em", "strong", "code", "sub", "sup", "br", "kbd"})
# Tags refused outright: what would run code, style the page, load another document or a
# resource, or take input, were it ever published as HTML. Any other tag name outside the
# allowlist (`<head>`, `List<String>`, `<branch-name>`) is text the author typed: it is
# shown as typed, with a warning.
DANGEROUS_TAGS = frozenset(
    {
        "script", "style", "iframe", "frame", "frameset", "object", "embed", "applet",
        "param", "base", "link", "meta", "form", "input", "button", "textarea", "select",
        "svg", "math", "template", "noscript", "img", "image", "video", "audio", "source",
        "track", "picture", "portal", "xml",
    }
)  # fmt: skip
SAFE_SCHEMES = frozenset({"http", "https", "mailto"})

_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})[^\n]*\n.*?(?:^\1?\2[ \t]*$|\Z)", re.M | re.S)
_CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.S)
_MATH = re.compile(r"\$\$.+?\$\$|(?<![\\$])\$(?!\s)[^$\n]+?(?<![\s\\])\$", re.S)
_TAG = re.compile(r"(?<!\\)<(/?)([A-Za-z][A-Za-z0-9:-]*)([^>]*)>|<!--|<\?|<!\[CDATA\[", re.S)
# What makes a tag's attributes dangerous whatever its name: an event handler, a style or
# an inline document, or a URL of a scheme that runs code or carries a document (entities
# decoded first).
_EVENT_HANDLER = re.compile(r"(?:^|[\s\"'/])(?:on[a-z]+|style|srcdoc)\s*=", re.I)
_CODE_URL = re.compile(r"(?:javascript|vbscript|data|livescript):", re.I)
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
    """One thing in a text that may not reach a page (an error), or a tag name written as
    text that is shown as typed (a warning); ``line`` is 0-based within the text."""

    line: int
    message: str
    hint: str
    severity: Severity = Severity.ERROR


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
    shown_as_text: dict[str, tuple[int, str]] = {}  # name -> first line and spelling
    refused: set[str] = set()
    for match in _TAG.finditer(text):
        line = text.count("\n", 0, match.start())
        name = (match.group(2) or "").lower()
        if name and harmless_tag(match):
            shown_as_text.setdefault(name, (line, match.group(2)))
            continue
        refused.add(name)
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
            why = "" if name in DANGEROUS_TAGS else " with an event handler, a style or a code URL"
            found.append(UnsafePart(line, f"raw HTML <{name}> is not allowed{why}", ALLOWED_HINT))
        elif match.group(3).strip(" /"):
            found.append(UnsafePart(line, f"attributes on <{name}> are not allowed", ALLOWED_HINT))
    for name, (line, spelled) in shown_as_text.items():
        if name not in refused:  # one warning a name, its closing tag included
            found.append(
                UnsafePart(
                    line,
                    f"<{spelled}> is not HTML a page may hold: it shows as the text typed",
                    f"`<{spelled}>` (code) or \\<{spelled}> (text) to say so",
                    Severity.WARNING,
                )
            )
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


def harmless_tag(match: re.Match[str]) -> bool:
    """Whether a tag ``_TAG`` found is outside the allowlist yet harmless: a name not
    dangerous, with no event handler and no code URL in what follows it. Such a tag is
    shown as the text typed (``tags_as_text``)."""
    name = (match.group(2) or "").lower()
    if not name or name in INLINE_TAGS or name == "a" or name in DANGEROUS_TAGS:
        return False
    attributes = _HTML_ESCAPES.sub(lambda m: _unescape_entity(m.group(1)), match.group(3))
    return not (
        _EVENT_HANDLER.search(attributes)
        or _CODE_URL.search(re.sub(r"[\x00-\x20]", "", attributes))
    )


def tags_as_text(markdown: str) -> str:
    """``markdown`` with the ``<`` of every harmless tag outside the allowlist written as
    ``&lt;``: the page shows `List<String>` or `<head>` as typed instead of dropping it as
    HTML. Code and math are left alone (they are shown verbatim)."""
    if "<" not in markdown:
        return markdown
    text = _AUTOLINK.sub(_blank, _prose(markdown))
    starts = [m.start() for m in _TAG.finditer(text) if m.group(2) and harmless_tag(m)]
    if not starts:
        return markdown
    pieces, last = [], 0
    for start in starts:
        pieces += [markdown[last:start], "&lt;"]
        last = start + 1
    return "".join(pieces) + markdown[last:]


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
