"""The mock interview's data: one JSON file per locale, field and seniority.

The practice page (``site_templates/practice.md.j2``) draws its questions at random from
``<locale>/api/practice/<field>/<seniority>.json``. The texts in it are HTML made by the
caller's Markdown renderer (``qbank.bank.markup``), so this module stays pure: no MkDocs, no I/O.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterator, Mapping
from typing import Any

from qbank.bank.loaded import Bank, Entry

QuestionHtml = Callable[[str, Entry], str]
"""Markdown of one of ``entry``'s texts → safe HTML, for a page three folders deep."""

Permalink = Callable[[Entry, str], str]
"""(entry, locale) → the question's URL relative to the site root."""


def topic_permalink(entry: Entry, locale: str) -> str:
    """The question's anchor on its topic page (the page tree of ``qbank.site.render``)."""
    return f"{locale}/{entry.field}/{entry.topic}/#q-{entry.id}"


def practice_path(locale: str, field: str, seniority: str) -> str:
    """Where the practice JSON of one field and seniority sits, relative to the site root."""
    return f"{locale}/api/practice/{field}/{seniority}.json"


def practice_question(
    entry: Entry, locale: str, question_html: QuestionHtml, permalink: Permalink
) -> dict[str, Any]:
    """One question of the practice JSON, its texts in ``locale`` as HTML."""
    q = entry.question

    def html(texts: Mapping[str, str] | None) -> str | None:
        text = texts.get(locale) if texts else None
        return question_html(text, entry) if text else None

    item: dict[str, Any] = {
        "id": entry.id,
        "kind": "choice" if q.is_choice else "open",
        "topic": f"{entry.field}/{entry.topic}",
        "difficulty": q.difficulty,
        "seniority": list(entry.seniorities),
        "prompt": html(q.prompt),
        "options": [{"key": k, "html": html(v)} for k, v in (q.options or {}).items()],
        "answer": list(q.answer or []),
        "explanation": html(q.explanation),
        "assesses": html(q.assesses),
        "model_answer": html(q.model_answer),
        "url": permalink(entry, locale),
    }
    hint = html(q.hint)
    if hint:  # optional: files of a bank without hints stay as they were
        item["hint"] = hint
    return item


def practice_files(
    bank: Bank,
    question_html: QuestionHtml,
    permalink: Permalink = topic_permalink,
    locales: tuple[str, ...] = (),
) -> dict[str, bytes]:
    """Every practice JSON file of the site: ``{path relative to the site root: bytes}``.

    A file exists for every locale, field and seniority of the catalog (with an empty list when
    nothing matches), so the page never fetches a missing file. Output is deterministic.
    ``locales`` limits the files to those locales (empty: every locale).
    """
    return dict(iter_practice_files(bank, question_html, permalink, locales))


def iter_practice_files(
    bank: Bank,
    question_html: QuestionHtml,
    permalink: Permalink = topic_permalink,
    locales: tuple[str, ...] = (),
    remembered: Callable[[Entry, str, Callable[[], str]], str] | None = None,
    fields: Collection[str] | None = None,
) -> Iterator[tuple[str, bytes]]:
    """``practice_files`` one file at a time (a field's questions in memory at most).

    ``remembered(entry, locale, make)`` may return a question's JSON text made before (for
    ``mkdocs serve``, which writes these files again on every rebuild); ``fields`` limits the
    files to those fields (``mkdocs serve`` after an edit)."""
    for locale in bank.catalog.locales:
        if locales and locale not in locales:
            continue
        for field in bank.catalog.fields:
            if fields is not None and field not in fields:
                continue
            entries = [e for e in bank.field_entries(field) if locale in e.locales]
            texts: dict[str, str] = {}
            for seniority in bank.catalog.seniorities:
                questions = []
                for entry in entries:
                    if seniority not in entry.seniorities:
                        continue
                    if entry.id not in texts:

                        def make(entry: Entry = entry, locale: str = locale) -> str:
                            data = practice_question(entry, locale, question_html, permalink)
                            return _dumps(data)

                        texts[entry.id] = remembered(entry, locale, make) if remembered else make()
                    questions.append(texts[entry.id])
                head = {"locale": locale, "field": field, "seniority": seniority}
                text = f'{_dumps(head)[:-1]},"questions":[{",".join(questions)}]}}'
                yield practice_path(locale, field, seniority), text.encode("utf-8")


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
