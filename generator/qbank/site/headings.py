"""A question's heading: its number on the topic page and a title that tells it apart.

Real banks give many questions one generic prompt line ("What's the output?") and differ
only in their code; a table of contents of identical lines is useless. A heading is the
question's number (its place on its topic page in that locale: stable whatever the filters
hide, and the same on the seniority pages) and the first line of its prompt, inline code
kept as code; where that line repeats within the topic, the first line of the prompt's
code, or failing that the file's slug, is added to tell the questions apart.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from qbank.bank.loaded import Entry

_FIRST_BLOCK = re.compile(r"<(p|h[1-6]|li|td|th)\b[^>]*>(.*?)</\1>", re.S)
_CODE = re.compile(r"<code\b[^>]*>(.*?)</code>", re.S)
_TAGS = re.compile(r"<[^>]+>")
_FENCE_LINE = re.compile(r"^ {0,3}(?:`{3,}|~{3,})[^\n]*\n[ \t]*(\S[^\n]*)", re.M)
TITLE_LIMIT = 80
SNIPPET_LIMIT = 40


@dataclass(frozen=True)
class Heading:
    """One question's heading: ``text`` plain (the table of contents), ``html`` with inline
    code kept, ``markdown`` for a page; ``whole`` when it holds the prompt's entire first
    paragraph (the page then leaves that paragraph out of the prompt below it)."""

    number: int
    text: str
    html: str
    markdown: str
    whole: bool


Segments = list[tuple[bool, str]]  # (is code, plain text)


def _segments(first_block_html: str) -> Segments:
    """The first block's text as runs of prose and inline code."""
    out: Segments = []
    at = 0
    for match in _CODE.finditer(first_block_html):
        out.append((False, first_block_html[at : match.start()]))
        out.append((True, match.group(1)))
        at = match.end()
    out.append((False, first_block_html[at:]))
    cleaned: Segments = []
    for is_code, part in out:
        text = html.unescape(_TAGS.sub("" if is_code else " ", part))
        text = text if is_code else re.sub(r"\s+", " ", text)
        if text:
            cleaned.append((is_code, text))
    if cleaned and not cleaned[0][0]:
        cleaned[0] = (False, cleaned[0][1].lstrip())
    if cleaned and not cleaned[-1][0]:
        cleaned[-1] = (False, cleaned[-1][1].rstrip())
    return [s for s in cleaned if s[1]]


def _cut(segments: Segments, limit: int) -> tuple[Segments, bool]:
    """At most ``limit`` characters of ``segments`` (whole words, whole code spans); True
    when nothing was cut."""
    out: Segments = []
    used = 0
    for is_code, text in segments:
        if used + len(text) <= limit:
            out.append((is_code, text))
            used += len(text)
            continue
        if not is_code:
            room = text[: max(0, limit - used)]
            room = room[: room.rindex(" ")] if " " in room else ""
            if room.strip():
                out.append((False, room.rstrip(" ,;:")))
        out.append((False, "…"))
        return out, False
    return out, True


def _render(segments: Segments, code: Callable[[str], str], prose: Callable[[str], str]) -> str:
    return "".join(code(text) if is_code else prose(text) for is_code, text in segments)


def _md_code(text: str) -> str:
    ticks = "`" * (max((len(m) for m in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def code_line(markdown: str) -> str:
    """The first line of a text's first fenced code block, shortened ("" without one)."""
    match = _FENCE_LINE.search(markdown)
    if not match:
        return ""
    line = match.group(1).strip()
    if len(line) > SNIPPET_LIMIT:
        line = line[: SNIPPET_LIMIT - 1].rstrip() + "…"
    return line


def topic_headings(
    entries: Sequence[Entry],
    locale: str,
    first_block: Callable[[str], str],
    md_escape: Callable[[str], str],
) -> dict[str, Heading]:
    """The headings of a topic's questions in ``locale`` (``entries``: the topic page's
    questions in order), by question id. ``first_block(markdown)`` is the HTML of a text's
    first block; ``md_escape`` makes plain text safe in Markdown."""
    base: dict[str, tuple[Segments, bool]] = {}
    for entry in entries:
        prompt = entry.question.prompt[locale]
        segments, whole = _cut(_segments(first_block(prompt)), TITLE_LIMIT)
        base[entry.id] = (segments or [(False, entry.slug)], whole and bool(segments))
    plain = {i: "".join(t for _, t in s) for i, (s, _) in base.items()}
    repeated = Counter(plain.values())
    extra: dict[str, Segments] = {}
    for entry in entries:
        if repeated[plain[entry.id]] > 1:
            line = code_line(entry.question.prompt[locale])
            extra[entry.id] = [(True, line)] if line else [(False, entry.slug)]
    seen = Counter(plain[i] + "".join(t for _, t in s) for i, s in extra.items())
    for entry in entries:  # the same code line too: the slug tells them apart
        more = extra.get(entry.id)
        if more and seen[plain[entry.id] + "".join(t for _, t in more)] > 1:
            extra[entry.id] = [(False, entry.slug)]
    headings = {}
    for number, entry in enumerate(entries, 1):
        segments, whole = base[entry.id]
        tail = extra.get(entry.id)
        parts: Segments = [(False, f"{number}. "), *segments]
        if tail:
            parts += [(False, " — "), *tail]
        headings[entry.id] = Heading(
            number,
            "".join(t for _, t in parts),
            _render(parts, lambda c: f"<code>{html.escape(c)}</code>", html.escape),
            _render(parts, _md_code, md_escape),
            whole,
        )
    return headings


def first_block(rendered: str) -> str:
    """The inner HTML of the first paragraph-like block of rendered HTML (all of it when it
    has none)."""
    match = _FIRST_BLOCK.search(rendered)
    return match.group(2) if match else rendered


def without_first_paragraph(rendered: str) -> str:
    """Rendered HTML without its leading ``<p>`` (the heading above holds it whole)."""
    stripped = rendered.lstrip()
    if not stripped.startswith("<p>") and not stripped.startswith("<p "):
        return rendered
    end = stripped.find("</p>")
    return stripped[end + 4 :].lstrip() if end >= 0 else rendered
