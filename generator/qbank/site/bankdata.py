"""The bank as JSON for one locale: catalog names and every question in that locale.

The shape is ``bank-export.schema.json`` beside this module (``qbank schema`` writes
it; its ``$id``, which each export names as its ``$schema``, is its address at the release's
tag). Order is stable: catalog order for fields, specializations, topics and seniorities,
display order for questions, so two exports of the same bank are byte-identical. Texts carry
their Markdown and its safe HTML (``qbank.bank.markup``; image paths relative to the content
folder unless the caller passes its own converter, as the site does for
``/<locale>/api/bank.json``). A question not translated into the locale is left out; the
topic's ``untranslated`` count says how many.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from qbank import HOMEPAGE, RELEASE_TAG
from qbank.bank.loaded import Bank, Entry
from qbank.bank.markup import to_html

QuestionHtml = Callable[[str, Entry], str]
"""Markdown of one of ``entry``'s texts → safe HTML (for the file that shows it)."""

FORMAT_VERSION = 1
EXPORT_SCHEMA = "bank-export.schema.json"
# Where a reader of an export finds its schema: the file in the repository's schemas/ at the
# release's tag (``qbank schema`` writes the same file into a bank's schemas/).
SCHEMA_ID = (
    f"{HOMEPAGE.replace('https://github.com/', 'https://raw.githubusercontent.com/')}"
    f"/{RELEASE_TAG}/schemas/{EXPORT_SCHEMA}"
)


def export_schema() -> dict[str, Any]:
    """The schema of ``qbank export json`` and of the site's ``api/bank.json``."""
    shipped = Path(__file__).with_name(EXPORT_SCHEMA)  # in the wheel beside this module
    schema: dict[str, Any] = json.loads(shipped.read_text(encoding="utf-8"))
    return {"$id": SCHEMA_ID, **schema}


def content_html(text: str, entry: Entry) -> str:
    """Safe HTML with image paths relative to the content folder (the default converter)."""
    return to_html(text, f"{entry.field}/{entry.topic}/")


def question_json(entry: Entry, locale: str, html: QuestionHtml = content_html) -> dict[str, Any]:
    """One question in one locale (the question must exist in that locale)."""
    q = entry.question

    def text(texts: dict[str, str] | None) -> dict[str, str] | None:
        if texts is None or locale not in texts:
            return None
        return {"markdown": texts[locale], "html": html(texts[locale], entry)}

    out: dict[str, Any] = {
        "id": q.id,
        "kind": "choice" if q.is_choice else "open",
        "field": entry.field,
        "specialization": entry.specialization,
        "topic": entry.topic,
        "seniority": list(entry.seniorities),
        "difficulty": q.difficulty,
        "tags": list(q.tags),
        "prompt": text(q.prompt),
        "options": None
        if q.options is None
        else [{"key": key, **(text(texts) or {})} for key, texts in q.options.items()],
        "answer": None if q.answer is None else list(q.answer),
        "explanation": text(q.explanation),
        "assesses": text(q.assesses),
        "model_answer": text(q.model_answer),
        "source": q.source,
        "locales": list(entry.locales),
        "file": entry.file,
    }
    if q.hint is not None and locale in q.hint:  # optional: banks without hints unchanged
        out["hint"] = text(q.hint)
    return out


def bank_json(
    bank: Bank, locale: str, html: QuestionHtml = content_html, *, questions: bool = True
) -> dict[str, Any]:
    """The whole bank in ``locale`` as a JSON-ready dict (see the module docstring).

    ``html(markdown, entry)`` converts a text; the site passes one that fixes image paths for
    the page the JSON is served from. ``questions=False`` leaves out the last key,
    "questions", for a writer that streams them."""
    catalog = bank.catalog
    fields = []
    for field_key, field_ in catalog.fields.items():
        specs = []
        for spec_key, spec in field_.specializations.items():
            topics = []
            for topic_key, topic in spec.topics.items():
                entries = bank.by_topic[field_key, topic_key]
                shown = sum(1 for e in entries if locale in e.locales)
                topics.append(
                    {
                        "key": topic_key,
                        "name": bank.name(topic.name, locale),
                        "questions": shown,
                        "untranslated": len(entries) - shown,
                    }
                )
            specs.append({"key": spec_key, "name": bank.name(spec.name, locale), "topics": topics})
        fields.append(
            {"key": field_key, "name": bank.name(field_.name, locale), "specializations": specs}
        )
    return {
        "$schema": SCHEMA_ID,
        "version": FORMAT_VERSION,
        "locale": locale,
        "title": bank.name(catalog.title, locale),
        "locales": list(catalog.locales),
        "default_locale": catalog.default_locale,
        "seniorities": [
            {"key": key, "name": bank.name(names, locale)}
            for key, names in catalog.seniorities.items()
        ],
        "fields": fields,
        **(
            {
                "questions": [
                    question_json(e, locale, html) for e in bank.entries if locale in e.locales
                ]
            }
            if questions
            else {}
        ),
    }


def dumps(data: dict[str, Any]) -> str:
    """Stable JSON text (UTF-8, two-space indent, trailing newline)."""
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def write_json(bank: Bank, locale: str, out: Path) -> None:
    """Write ``bank_json(bank, locale)`` to ``out``."""
    out.write_text(dumps(bank_json(bank, locale)), encoding="utf-8")
