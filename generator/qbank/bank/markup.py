"""Question Markdown → safe HTML: highlighted code, tables, math as MathML, then nh3.

Pure and cached by text: a text shown on several pages is converted once. The output of
Python-Markdown (with pymdownx.superfences, pymdownx.highlight and pymdownx.arithmatex),
Pygments and latex2mathml passes through nh3 (Ammonia) with an allowlist of exactly what
those produce, so ``javascript:``, ``data:`` and ``vbscript:`` URLs, scripts, styles and
event handlers never reach a page, whatever the validator let through.
"""

from __future__ import annotations

import html
import re
import threading
from collections.abc import Callable
from functools import lru_cache

import markdown
import nh3
from latex2mathml.converter import convert as latex_to_mathml

from qbank.bank.highlight import fence_html
from qbank.bank.safety import INLINE_TAGS, tags_as_text

_EXTENSIONS = [
    "tables",
    "sane_lists",
    "pymdownx.highlight",
    "pymdownx.superfences",
    "pymdownx.arithmatex",
]
_EXTENSION_CONFIGS: dict[str, dict[str, object]] = {
    "tables": {"use_align_attribute": True},
    # Pygments classes under `.highlight`, as Material's stylesheet expects.
    "pymdownx.highlight": {"use_pygments": True, "css_class": "highlight", "guess_lang": False},
    # Generic mode leaves \(…\) / \[…\] in marked spans, converted to MathML below.
    "pymdownx.arithmatex": {"generic": True},
}

_MATHML_TAGS = {
    "math", "semantics", "annotation", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace",
    "msup", "msub", "msubsup", "mfrac", "msqrt", "mroot", "mover", "munder", "munderover",
    "mtable", "mtr", "mtd", "mlabeledtr", "mstyle", "mpadded", "mphantom", "menclose",
    "merror", "mfenced",
}  # fmt: skip
_HTML_TAGS = {
    "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote",
    "pre", "code", "span", "div", "table", "thead", "tbody", "tr", "th", "td", "a", "img",
    "em", "strong", "del",
}  # fmt: skip
ALLOWED_TAGS = frozenset(_HTML_TAGS | _MATHML_TAGS | INLINE_TAGS)
_MATH_ATTRIBUTES = {
    "display", "mathvariant", "stretchy", "fence", "separator", "lspace", "rspace", "form",
    "largeop", "movablelimits", "accent", "accentunder", "displaystyle", "scriptlevel",
    "width", "height", "depth", "linethickness", "columnalign", "rowalign", "columnspacing",
    "rowspacing", "columnlines", "rowlines", "frame", "notation", "encoding", "minsize",
    "maxsize", "symmetric", "open", "close", "separators",
}  # fmt: skip
ALLOWED_ATTRIBUTES: dict[str, set[str]] = {
    **{tag: set(_MATH_ATTRIBUTES) for tag in _MATHML_TAGS},
    "math": {"display", "xmlns", "mathvariant"},
    "a": {"href", "title"},
    "img": {"src", "alt", "title", "width", "height"},
    "th": {"align"},
    "td": {"align"},
    "ol": {"start"},
    "div": {"class"},
    "span": {"class"},
    "code": {"class"},
    "pre": {"class"},
}
URL_SCHEMES = frozenset({"http", "https", "mailto"})

_ARITHMATEX = re.compile(
    r'<(span|div) class="arithmatex">(?:\\\((?P<inline>.*?)\\\)|\\\[(?P<block>.*?)\\\])</\1>',
    re.S,
)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:|^//")
_local = threading.local()


def _converter() -> markdown.Markdown:
    # Markdown instances keep state between calls; one per thread, reset per text.
    md: markdown.Markdown | None = getattr(_local, "md", None)
    if md is None:
        md = markdown.Markdown(extensions=_EXTENSIONS, extension_configs=_EXTENSION_CONFIGS)
        _local.md = md
    return md


def _math(match: re.Match[str]) -> str:
    block = match.group("block") is not None
    latex = html.unescape(match.group("block") if block else match.group("inline"))
    try:
        mathml: str = latex_to_mathml(latex, display="block" if block else "inline")
    except Exception:  # latex2mathml raises many types on malformed input
        # Malformed LaTeX is shown as its source rather than failing the whole build.
        return f"<code>{html.escape(latex)}</code>"
    return f'<div class="qb-math">{mathml}</div>' if block else mathml


def _image_rewriter(image_prefix: str) -> Callable[[str, str, str], str | None]:
    def rewrite(tag: str, attribute: str, value: str) -> str | None:
        if tag == "img" and attribute == "src":
            if _SCHEME.match(value.strip()) or value.startswith("/"):
                return None  # remote images are a third-party request: drop the source
            return image_prefix + value
        return value

    return rewrite


@lru_cache(maxsize=4096)
def _cleaner(image_prefix: str) -> nh3.Cleaner:
    # One Cleaner per image prefix: building the allowlist costs far more than the cleaning.
    return nh3.Cleaner(
        tags=set(ALLOWED_TAGS),
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=set(URL_SCHEMES),
        attribute_filter=_image_rewriter(image_prefix),
        link_rel="nofollow noopener noreferrer",
    )


def sanitize(fragment: str, image_prefix: str = "") -> str:
    """Clean an HTML fragment to the allowlist; relative image sources get ``image_prefix``."""
    return str(_cleaner(image_prefix).clean(fragment))


# Characters that may start Markdown or HTML syntax anywhere in a line, and line starts that
# open a block (list, heading, quote, setext underline, indented code).
_PROSE_SPECIAL = re.compile(r"[\\`*_\[\]{}<>&#|~$^]")
_BLOCK_START = re.compile(r"^(?:[-+=\s]|\d+[.)])")


def prose_html(text: str) -> str | None:
    """The HTML of a text that is plain prose (paragraphs, no Markdown syntax), else None.

    Such a text converts to ``<p>`` per paragraph with nothing to escape or sanitize, so it
    skips Python-Markdown and nh3; ``tests/test_markup_fast_path.py`` checks the result is
    the same as the full conversion.
    """
    if _PROSE_SPECIAL.search(text):
        return None
    paragraphs: list[list[str]] = [[]]
    for line in text.split("\n"):
        if not line.strip():
            if paragraphs[-1]:
                paragraphs.append([])
            continue
        if not line.isprintable() or line[-1] == " " or _BLOCK_START.match(line):
            return None
        paragraphs[-1].append(line)
    return "\n".join("<p>" + "\n".join(lines) + "</p>" for lines in paragraphs if lines)


_FENCE_OPEN = re.compile(r"```[A-Za-z0-9_+.#-]*[ \t]*")
_FENCE_LIKE = re.compile(r"`{3,}[ \t]*")


def _prose_and_fences(text: str) -> list[tuple[bool, str]] | None:
    """``text`` cut into prose parts and fenced code blocks, each standing between blank lines
    (``(True, fence)`` / ``(False, prose)``), or None when it holds anything else.

    A fence opens with exactly three backticks and an optional language at the start of a
    line after a blank line (or the start), and closes at the first line of exactly three
    backticks, followed by a blank line or the end; any other line of backticks, or a prose
    part that is not plain prose, sends the whole text to the full conversion.
    """
    lines = text.split("\n")
    parts: list[tuple[bool, str]] = []
    prose: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("`"):
            if not _FENCE_OPEN.fullmatch(line) or (prose and prose[-1].strip()):
                return None
            end = i + 1
            while end < len(lines) and not _FENCE_LIKE.fullmatch(lines[end]):
                end += 1
            if end == len(lines) or lines[end].rstrip() != "```":
                return None
            if end + 1 < len(lines) and lines[end + 1].strip():
                return None
            if prose:
                parts.append((False, "\n".join(prose)))
                prose = []
            parts.append((True, "\n".join(lines[i : end + 1])))
            i = end + 1
            continue
        prose.append(line)
        i += 1
    if prose:
        parts.append((False, "\n".join(prose)))
    return parts


def to_html(text: str, image_prefix: str = "") -> str:
    """Safe HTML for one Markdown text; relative image paths are prefixed by ``image_prefix``.

    Plain prose skips Python-Markdown; prose with fenced code blocks converts each block on
    its own (cached: the same code in three locales is highlighted once) and the prose
    around it on the fast path; anything else takes the full conversion, cached by text.
    """
    prose = prose_html(text)
    if prose is not None:
        return prose
    parts = _prose_and_fences(text)
    if parts is not None:
        pieces = []
        for is_fence, part in parts:
            piece = _fence(part) if is_fence else prose_html(part)
            if piece is None:
                break
            if piece:
                pieces.append(piece)
        else:
            return "\n".join(pieces)
    return _converted(text, image_prefix)


@lru_cache(maxsize=262144)
def _fence(fence: str) -> str:
    """A fenced code block's safe HTML: highlighted here (``qbank.bank.highlight``) when the code
    is of the plain shape, else by the full conversion."""
    fast = fence_html(fence)
    return _converted(fence, "") if fast is None else sanitize(fast).strip()


@lru_cache(maxsize=262144)  # texts with markup; kept across `mkdocs serve` rebuilds
def _converted(text: str, image_prefix: str) -> str:
    return sanitize(_markdown(text), image_prefix).strip()


@lru_cache(maxsize=262144)
def _markdown(text: str) -> str:
    """Python-Markdown's HTML for ``text`` with math as MathML, before sanitizing (the costly
    part, shared by every image prefix)."""
    md = _converter()
    md.reset()
    return _ARITHMATEX.sub(_math, md.convert(tags_as_text(text)))


def forget_converted() -> None:
    """Drop the kept conversions (a build process whose pages are all written: the memory
    goes to the work that follows)."""
    _converted.cache_clear()
    _fence.cache_clear()
    _markdown.cache_clear()
    plain_text.cache_clear()


_FIRST_BLOCK = re.compile(r"<(p|h[1-6]|li|td|th)\b[^>]*>(.*?)</\1>", re.S)
_TAGS = re.compile(r"<[^>]+>")
_INLINE_TAGS = re.compile(r"</?(?:code|em|strong|b|i|a|span|sub|sup|kbd|del)\b[^>]*>")
_MATH_ELEMENT = re.compile(r"<math\b.*?</math>", re.S)


@lru_cache(maxsize=1 << 18)  # a title per prompt: 90,000 at 30,000 questions x 3 locales
def plain_text(text: str, limit: int = 80) -> str:
    """A short plain title from Markdown: its first paragraph without markup, cut at ``limit``."""
    rendered = to_html(text)
    first = _FIRST_BLOCK.search(rendered)
    body = first.group(2) if first else rendered
    # Math reads better as its symbols run together (a2+b2) than spaced out tag by tag.
    body = _MATH_ELEMENT.sub(lambda m: _TAGS.sub("", m.group(0)), body)
    # Inline markup joins its text to the next: a Turkish suffix after inline code stays
    # attached to it (no space is put where the code span ended).
    words = " ".join(html.unescape(_TAGS.sub(" ", _INLINE_TAGS.sub("", body))).split())
    words = re.sub(r"\s+([,.;:?!])", r"\1", words)
    if len(words) <= limit:
        return words
    cut = words[:limit]
    if " " in cut[limit // 2 :]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:") + "…"
