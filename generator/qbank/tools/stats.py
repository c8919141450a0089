"""``qbank stats``: coverage of the bank per field, specialization, topic, seniority, locale."""

from __future__ import annotations

from collections import Counter
from typing import Any

from qbank.bank.loaded import Bank, Entry
from qbank.bank.staleness import stale_translations


def _counts(entries: list[Entry], locales: list[str]) -> dict[str, Any]:
    by_locale = Counter(loc for e in entries for loc in e.locales)
    return {
        "questions": len(entries),
        "locales": {loc: by_locale[loc] for loc in locales},
    }


def _percent(part: int, whole: int) -> float:
    return round(100.0 * part / whole, 1) if whole else 0.0


def bank_stats(bank: Bank) -> dict[str, Any]:
    """Every count as plain data (the JSON output; the text output formats it)."""
    catalog = bank.catalog
    locales = list(catalog.locales)
    entries = list(bank.entries)
    fields = []
    for field_key, field_ in catalog.fields.items():
        specs = []
        for spec_key, spec in field_.specializations.items():
            topics = []
            for topic_key in spec.topics:
                topic_entries = list(bank.by_topic[field_key, topic_key])
                topics.append({"key": topic_key, **_counts(topic_entries, locales)})
            spec_entries = [
                e for e in entries if e.field == field_key and e.specialization == spec_key
            ]
            specs.append({"key": spec_key, **_counts(spec_entries, locales), "topics": topics})
        fields.append(
            {
                "key": field_key,
                **_counts(bank.field_entries(field_key), locales),
                "specializations": specs,
            }
        )
    total = len(entries)
    by_locale = Counter(loc for e in entries for loc in e.locales)
    return {
        "questions": total,
        "choice": sum(1 for e in entries if e.question.is_choice),
        "open": sum(1 for e in entries if not e.question.is_choice),
        "locales": {
            loc: {"questions": by_locale[loc], "percent": _percent(by_locale[loc], total)}
            for loc in locales
        },
        "seniority": {
            key: sum(1 for e in entries if key in e.seniorities) for key in catalog.seniorities
        },
        "difficulty": {
            str(d): sum(1 for e in entries if e.question.difficulty == d) for d in (1, 2, 3)
        },
        "fields": fields,
        "missing_model_answer": [
            e.file for e in entries if not e.question.is_choice and e.question.model_answer is None
        ],
        "missing_translation": {
            loc: [e.file for e in entries if loc not in e.locales] for loc in locales
        },
        "stale_translations": [
            {"file": s.file, "id": s.id, "locale": s.locale, "source_locale": s.source_locale}
            for s in stale_translations(bank)
        ],
    }


def format_stats(data: dict[str, Any]) -> str:
    """A readable report of ``bank_stats``."""
    locales = list(data["locales"])
    lines = [
        f"{data['questions']} questions ({data['choice']} choice, {data['open']} open)",
        "locales:    "
        + "  ".join(
            f"{loc} {v['questions']} ({v['percent']}%)" for loc, v in data["locales"].items()
        ),
        "seniority:  " + "  ".join(f"{k} {v}" for k, v in data["seniority"].items()),
        "difficulty: " + "  ".join(f"{k}: {v}" for k, v in data["difficulty"].items()),
        "",
        f"{'field / specialization / topic':<52}{'total':>6}"
        + "".join(f"{loc:>6}" for loc in locales),
    ]

    def row(indent: int, item: dict[str, Any]) -> str:
        label = " " * indent + item["key"]
        return f"{label:<52}{item['questions']:>6}" + "".join(
            f"{item['locales'][loc]:>6}" for loc in locales
        )

    for field_ in data["fields"]:
        lines.append(row(0, field_))
        for spec in field_["specializations"]:
            lines.append(row(2, spec))
            lines.extend(row(4, topic) for topic in spec["topics"])
    missing = data["missing_model_answer"]
    lines += ["", f"open questions without a model answer: {len(missing)}"]
    lines += [f"  {path}" for path in missing]
    for loc, paths in data["missing_translation"].items():
        if paths:
            lines.append(f"not yet in {loc}: {len(paths)}")
    stale = data["stale_translations"]
    lines.append(f"translations that may be out of date: {len(stale)}")
    lines += [f"  {s['file']} ({s['locale']}, source {s['source_locale']})" for s in stale]
    return "\n".join(lines)
