"""A question's heading: its number on the topic page and a title that tells it apart.

Real banks give many questions one generic prompt line ("What's the output?") and differ
only in their code; a table of contents of identical lines is useless. A heading is the
question's number (its place on its topic page in that locale: stable whatever the filters
hide, and the same on the seniority pages) and the first line of its prompt, inline code
kept as code; where that line repeats within the topic, words a reader can tell the questions
apart by are added: the first line of the prompt's code (or of its text after the first
paragraph) that no other question of the repeated title has, else a number, "(2)". Never the
file's slug: a reader never sees file names, and "— q001" says nothing.
"""

from __future__ import annotations

import html
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from typing import NamedTuple

from qbank.bank.loaded import Entry

_FIRST_BLOCK = re.compile(r"<(p|h[1-6]|li|td|th)\b[^>]*>(.*?)</\1>", re.S)
_CODE = re.compile(r"<code\b[^>]*>(.*?)</code>", re.S)
_TAGS = re.compile(r"<[^>]+>")
_FENCE_LINE = re.compile(r"^ {0,3}(?:`{3,}|~{3,})[^\n]*\n[ \t]*(\S[^\n]*)", re.M)
TITLE_LIMIT = 80
SNIPPET_LIMIT = 40


class Heading(NamedTuple):
    """One question's heading: ``text`` plain (the table of contents), ``html`` with inline
    code kept, ``markdown`` for a page; ``whole`` when it holds the prompt's entire first
    paragraph (the page then leaves that paragraph out of the prompt below it). A named
    tuple: the headings cache makes 90,000 at once (a third of a frozen dataclass's time)."""

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


def _short(line: str) -> str:
    return line if len(line) <= SNIPPET_LIMIT else line[: SNIPPET_LIMIT - 1].rstrip() + "…"


def code_line(markdown: str) -> str:
    """The first line of a text's first fenced code block, shortened ("" without one)."""
    match = _FENCE_LINE.search(markdown)
    return _short(match.group(1).strip()) if match else ""


_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_WORDY = re.compile(r"\w{2,}")
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MD_MARKS = re.compile(r"^(?:[#>*+-]|\d+[.)])\s+|[*_`]+")


def _lines(markdown: str) -> list[tuple[bool, str]]:
    """A prompt's lines, each (is code, the line as a reader sees it: stripped, prose without
    its Markdown marks); lines without a word (a lone brace) and fences are left out."""
    out: list[tuple[bool, str]] = []
    fence = ""
    for raw in markdown.splitlines():
        opening = _FENCE.match(raw)
        if opening and (not fence or opening.group(1)[0] == fence[0]):
            fence = "" if fence else opening.group(1)
            continue
        line = raw.strip() if fence else _MD_MARKS.sub("", _MD_LINK.sub(r"\1", raw.strip()))
        if _WORDY.search(line):
            out.append((bool(fence), line))
    return out


def _told_apart(group: Sequence[Entry], locale: str) -> dict[str, Segments]:
    """What tells apart the questions of ``group``, which share one title: for each, the
    first line of its prompt (code first) that none of the others has, else a number in
    the group's order ("(2)"), after its first code line when it has one."""
    lines = {entry.id: _lines(entry.question.prompt[locale]) for entry in group}
    code_first = {
        i: [*(x for x in ls if x[0]), *(x for x in ls if not x[0])] for i, ls in lines.items()
    }
    seen = Counter(text for ls in lines.values() for text in {t for _, t in ls})
    out: dict[str, Segments] = {}
    unnumbered: list[Entry] = []
    for entry in group:
        unique = next(((c, t) for c, t in code_first[entry.id] if seen[t] == 1), None)
        if unique:
            out[entry.id] = [(unique[0], _short(unique[1]))]
        else:
            unnumbered.append(entry)
    if len(unnumbered) == 1 and len(group) > 1:  # the others are told apart: it is too
        entry = unnumbered[0]
        line = code_line(entry.question.prompt[locale])
        if line and all(out[e.id] != [(True, line)] for e in group if e.id in out):
            out[entry.id] = [(True, line)]
            return out
    for n, entry in enumerate(unnumbered, 1):
        line = code_line(entry.question.prompt[locale])
        out[entry.id] = [*([(True, line), (False, " ")] if line else []), (False, f"({n})")]
    return out


TopicHeadings = Callable[[str, list[Entry], Callable[[], dict[str, Heading]]], dict[str, Heading]]
"""How the renderer gets a topic's headings: ``(locale, the topic page's entries in order,
make)`` → the headings by question id; without one it calls ``make()``
(``qbank.live.headingcache`` keeps them)."""


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
        base[entry.id] = (segments, whole and bool(segments))
    plain = {i: "".join(t for _, t in s) for i, (s, _) in base.items()}
    repeated = Counter(plain.values())
    groups: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries:
        if repeated[plain[entry.id]] > 1 or not plain[entry.id]:
            groups[plain[entry.id]].append(entry)
    extra: dict[str, Segments] = {}
    for group in groups.values():
        extra.update(_told_apart(group, locale))
    headings = {}
    for number, entry in enumerate(entries, 1):
        segments, whole = base[entry.id]
        tail = extra.get(entry.id)
        parts: Segments = [(False, f"{number}. "), *segments]
        if tail:
            numbered = len(tail) == 1 and tail[0][1].startswith("(")  # "Which one? (2)"
            gap = " " if numbered else " — "
            parts += [*([(False, gap)] if segments else []), *tail]
        headings[entry.id] = Heading(
            number,
            "".join(t for _, t in parts).rstrip(),
            _render(parts, lambda c: f"<code>{html.escape(c)}</code>", html.escape).rstrip(),
            _render(parts, _md_code, md_escape).rstrip(),
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
