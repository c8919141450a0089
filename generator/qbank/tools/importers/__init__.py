"""Importers: other documents → question files and catalog entries (one module per format).

``read_source`` parses a source file into a ``Parsed``; ``plan_import`` computes what the
import would change; ``apply_plan`` writes it. Formats: ``payload`` (a Nuxt devalue payload
with the catalog and sample questions), ``topic-page`` (a plain-text topic page of choice
questions), ``interview`` (a Chinese interview record of open questions) and
``markdown-quiz`` (GitHub Markdown quizzes, with their translations).
"""

from __future__ import annotations

from pathlib import Path

from qbank.tools.importers import interview, markdown_quiz, payload, topic_page
from qbank.tools.importers.plan import Plan, apply_plan, plan_import
from qbank.tools.importers.source import Parsed, SourceError

FORMATS = ("payload", "topic-page", "interview", "markdown-quiz")

__all__ = ["FORMATS", "Parsed", "Plan", "SourceError", "apply_plan", "plan_import", "read_source"]


def read_source(
    kind: str,
    source: Path,
    display: str,
    *,
    field: str | None = None,
    topic: str | None = None,
    locale: str | None = None,
    seniority: str | None = None,
) -> Parsed:
    """Parse ``source`` in format ``kind``; raise ``SourceError`` naming what is unreadable."""
    if kind == "markdown-quiz":  # a file, or a folder of quizzes and their translations
        if locale or seniority:
            raise SourceError("--locale/--seniority do not apply to a markdown quiz")
        return markdown_quiz.parse(source, display, field_key=field, topic=topic)
    try:
        raw = source.read_bytes()
    except OSError as exc:
        raise SourceError(f"{display}: cannot read the file: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise SourceError(
            f"{display}:{line}: invalid UTF-8 byte 0x{raw[exc.start]:02x}; expected UTF-8 text"
        ) from None
    if kind == "payload":
        if field or topic:
            raise SourceError("--field/--topic do not apply to a payload: it names its topics")
        return payload.parse(text, display)
    if kind == "topic-page":
        return topic_page.parse(text, display, field=field, topic=topic, locale=locale or "tr")
    if kind == "interview":
        return interview.parse(
            text, display, field=field, topic=topic, locale=locale or "zh", seniority=seniority
        )
    raise SourceError(f"unknown format {kind!r}; expected one of {', '.join(FORMATS)}")
