"""The bank as JSON for one locale: catalog names and every question in that locale.

The shape is published as ``schemas/bank-export.schema.json``. Order is stable: catalog
order for fields, specializations, topics and seniorities, display order for questions, so
two exports of the same bank are byte-identical. Texts carry their Markdown and its safe
HTML (``qbank.markup``). A question not translated into the locale is left out; the topic's
``untranslated`` count says how many.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from qbank.bank import Bank, Entry
from qbank.markup import to_html

SCHEMA_ID = "bank-export.schema.json"  # published in the qbank repository, schemas/
FORMAT_VERSION = 1


def _text(texts: dict[str, str] | None, locale: str) -> dict[str, str] | None:
    if texts is None or locale not in texts:
        return None
    return {"markdown": texts[locale], "html": to_html(texts[locale])}


def question_json(entry: Entry, locale: str) -> dict[str, Any]:
    """One question in one locale (the question must exist in that locale)."""
    q = entry.question
    return {
        "id": q.id,
        "kind": "choice" if q.is_choice else "open",
        "field": entry.field,
        "specialization": entry.specialization,
        "topic": entry.topic,
        "seniority": list(entry.seniorities),
        "difficulty": q.difficulty,
        "tags": list(q.tags),
        "prompt": _text(q.prompt, locale),
        "options": None
        if q.options is None
        else [{"key": key, **(_text(texts, locale) or {})} for key, texts in q.options.items()],
        "answer": None if q.answer is None else list(q.answer),
        "explanation": _text(q.explanation, locale),
        "assesses": _text(q.assesses, locale),
        "model_answer": _text(q.model_answer, locale),
        "source": q.source,
        "locales": list(entry.locales),
        "file": entry.file,
    }


def bank_json(bank: Bank, locale: str) -> dict[str, Any]:
    """The whole bank in ``locale`` as a JSON-ready dict (see the module docstring)."""
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
        "questions": [question_json(e, locale) for e in bank.entries if locale in e.locales],
    }


def dumps(data: dict[str, Any]) -> str:
    """Stable JSON text (UTF-8, two-space indent, trailing newline)."""
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def write_json(bank: Bank, locale: str, out: Path) -> None:
    """Write ``bank_json(bank, locale)`` to ``out``."""
    out.write_text(dumps(bank_json(bank, locale)), encoding="utf-8")
