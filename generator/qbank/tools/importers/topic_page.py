"""``qbank import topic-page``: a plain-text topic page of multiple-choice questions (Turkish).

Each question starts with a line ending in ``Zorluk N`` (the topic name, then difficulty 1–3),
then the question text, then option lines ``• a<text>`` … with the right one(s) ending in
``✓``, then ``Açıklama:<explanation>``. The page title (``<Field> <Topic> Mülakat Soruları``)
gives the field and topic unless ``--field``/``--topic`` are given. Lines of code or data in a
question (indented, aligned with runs of spaces, assignments, calls, rulers) become fenced
code blocks, so the Markdown keeps them as written. Ids are derived from the prompt.
"""

# ruff: noqa: RUF001, RUF002  (Turkish and Chinese text is meant)
from __future__ import annotations

import re

from qbank.tools.importers.source import (
    ImportedQuestion,
    Parsed,
    SourceError,
    clean,
    derived_id,
    slug_key,
    topic_catalog,
)

_HEADER = re.compile(r"^(?P<topic>.*?)\s*Zorluk\s*(?P<level>\d+)\s*$")
_OPTION = re.compile(r"^\s*[•·\-*]\s*(?P<key>[a-h])(?P<text>.*)$")
_EXPLANATION = re.compile(r"^\s*Açıklama\s*:\s*(?P<text>.*)$")
_TITLE_SUFFIX = re.compile(r"\s*Mülakat Soruları\s*$")
_RIGHT = "✓"
_CODE_START = re.compile(
    r"^(for|while|if|elif|else|def|class|with|try|except|import|from|return|print)\b"
    r"|^[\w.]+\(|^[\[\]{}]|^[-=_*#~]{3,}\s*$|^[\w.\[\]]+\s*[-+*/]?=\s"
)
_PYTHON = re.compile(
    r"^\s*(for \w+ in |while |def |class |import |from [\w.]+ import |return\b|print\()"
    r"|^\s*[\w.]+ = "
)


def is_code_line(line: str) -> bool:
    """Whether a line of a question reads as code or data rather than prose."""
    if not line.strip():
        return False
    return line[0] in " \t" or "  " in line.strip() or bool(_CODE_START.match(line))


def to_markdown(lines: list[str]) -> str:
    """Question lines as Markdown: runs of code lines fenced, prose lines kept."""
    blocks: list[str] = []
    prose: list[str] = []
    code: list[str] = []

    def flush_prose() -> None:
        if prose:
            blocks.append("\n".join(prose))
            prose.clear()

    def flush_code() -> None:
        if code:
            lang = "python" if any(_PYTHON.match(c) for c in code) else "text"
            blocks.append(f"```{lang}\n" + "\n".join(code) + "\n```")
            code.clear()

    for line in lines:
        line = line.rstrip()
        if not line.strip():
            flush_prose()
            flush_code()
        elif is_code_line(line):
            flush_prose()
            code.append(line)
        else:
            flush_code()
            prose.append(line.strip())
    flush_prose()
    flush_code()
    return "\n\n".join(blocks)


def parse(
    text: str,
    display: str,
    *,
    field: str | None = None,
    topic: str | None = None,
    locale: str = "tr",
) -> Parsed:
    """Read a topic page (see the module docstring)."""
    lines = clean(text).split("\n")
    headers = [i for i, line in enumerate(lines) if _HEADER.match(line)]
    if not headers:
        raise SourceError(
            f"{display}: no question found; expected lines ending in 'Zorluk 1', "
            "'Zorluk 2' or 'Zorluk 3' before each question"
        )
    first = _HEADER.match(lines[headers[0]])
    assert first is not None
    topic_name = first["topic"].strip()
    field_name = _field_name(lines[: headers[0]], topic_name)
    if field is None:
        if field_name is None:
            raise SourceError(
                f"{display}: cannot tell the field from the page title; "
                "expected a '<Field> <Topic> Mülakat Soruları' line, or --field and --topic"
            )
        field = slug_key(field_name)
    if topic is None:
        if not topic_name:
            raise SourceError(
                f"{display}:{headers[0] + 1}: no topic name before 'Zorluk'; expected --topic"
            )
        topic = slug_key(topic_name)
    parsed = Parsed(
        display,
        catalog=topic_catalog(
            field, topic, locale, field_name=field_name, topic_name=topic_name or None
        ),
    )
    for n, start in enumerate(headers):
        end = headers[n + 1] if n + 1 < len(headers) else len(lines)
        parsed.questions.append(_question(lines, start, end, display, field, topic, locale))
    return parsed


def _field_name(head: list[str], topic_name: str) -> str | None:
    for line in head:
        if _TITLE_SUFFIX.search(line):
            title = _TITLE_SUFFIX.sub("", line).strip()
            if topic_name and title.endswith(topic_name):
                title = title[: -len(topic_name)].strip()
            return title or None
    return None


def _question(
    lines: list[str], start: int, end: int, display: str, field: str, topic: str, locale: str
) -> ImportedQuestion:
    header = _HEADER.match(lines[start])
    assert header is not None
    where = f"{display}:{start + 1}"
    level = int(header["level"])
    if level not in (1, 2, 3):
        raise SourceError(f"{where}: 'Zorluk {level}'; expected difficulty 1, 2 or 3")
    i = start + 1
    body: list[str] = []
    while i < end and not _OPTION.match(lines[i]) and not _EXPLANATION.match(lines[i]):
        body.append(lines[i])
        i += 1
    if not "".join(body).strip():
        raise SourceError(f"{where}: the question has no text; expected it after 'Zorluk'")
    options: dict[str, dict[str, str]] = {}
    answer: list[str] = []
    last = ""
    while i < end and not _EXPLANATION.match(lines[i]):
        option = _OPTION.match(lines[i])
        if option is None:
            if not last or not lines[i].strip():
                break
            options[last][locale] += "\n" + lines[i].strip()  # an option over several lines
        else:
            last = option["key"]
            expected = "abcdefgh"[len(options)]
            if last != expected:
                raise SourceError(
                    f"{display}:{i + 1}: option {last!r}; expected option {expected!r} next"
                )
            value = option["text"].strip()
            if value.endswith(_RIGHT):
                value = value[: -len(_RIGHT)].rstrip()
                answer.append(last)
            options[last] = {locale: value}
        i += 1
    if len(options) < 2:
        raise SourceError(
            f"{display}:{i + 1}: the question at line {start + 1} has {len(options)} option(s); "
            "expected option lines '• a…', '• b…' (2 to 8)"
        )
    if not answer:
        raise SourceError(
            f"{where}: no option is marked {_RIGHT}; expected the right option to end in {_RIGHT}"
        )
    explanation = _EXPLANATION.match(lines[i]) if i < end else None
    if explanation is None:
        raise SourceError(
            f"{display}:{min(i, len(lines) - 1) + 1}: the question at line {start + 1} has no "
            "explanation; expected a line 'Açıklama: …' after its options"
        )
    text = [explanation["text"]]
    i += 1
    while i < end and lines[i].strip():
        text.append(lines[i])
        i += 1
    prompt = to_markdown(body)
    data = {
        "id": derived_id("\n".join(body)),  # from the source text: stable if conversion changes
        "difficulty": level,
        "prompt": {locale: prompt},
        "options": options,
        "answer": answer[0] if len(answer) == 1 else answer,
        "explanation": {locale: clean("\n".join(text))},
    }
    return ImportedQuestion(where, field, topic, data)
