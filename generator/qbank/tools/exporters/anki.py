"""The bank as an Anki package (``.apkg``) for one locale, written with genanki.

One deck per field (``Field``) with a sub-deck per topic (``Field::Topic``), named in the
locale. Two note types per locale: ``qbank choice`` (prompt and options on the front; the
right key and the explanation on the back) and ``qbank open`` (prompt; what it assesses and
the model answer on the back). Texts are the site's safe HTML, so code stays a monospace
``<pre>``. A note's GUID is ``genanki.guid_for(id, locale)``: re-importing an edited bank
updates notes in place and keeps the learner's review history. Deck and note-type ids are
derived from their names, and notes, cards and the zip carry a fixed timestamp, so the same
bank gives the same bytes.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import genanki

from qbank.bank.loaded import Bank, Entry
from qbank.bank.markup import to_html
from qbank.site.strings import strings_for

FIXED_TIMESTAMP = 1_700_000_000.0  # notes' and cards' modification time (deterministic output)
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)

CSS = """\
.card { font-family: system-ui, sans-serif; font-size: 18px; text-align: left;
        color: #1d1d1f; background: #fff; line-height: 1.45; }
.nightMode.card, .night_mode .card { color: #eee; background: #1e1e1e; }
pre, code { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
pre { white-space: pre-wrap; padding: .6em .8em; border-radius: 4px; background: #f3f3f3;
      font-size: 15px; }
.nightMode pre, .night_mode pre { background: #2b2b2b; }
.qb-options { list-style: none; padding-left: 0; }
.qb-option { margin: .4em 0; }
.qb-key { font-weight: bold; margin-right: .4em; }
.qb-meta { color: #777; font-size: 14px; }
"""


def stable_id(*parts: str) -> int:
    """An Anki id (deck, note type) derived from names, in genanki's suggested range."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest()
    return (1 << 30) + int.from_bytes(digest[:8], "big") % (1 << 30)


def note_guid(question_id: str, locale: str) -> str:
    """The note GUID: stable across edits of the question."""
    return str(genanki.guid_for(question_id, locale))


def note_models(locale: str) -> tuple[genanki.Model, genanki.Model]:
    """The choice and open note types of ``locale``."""
    t = strings_for(locale)
    choice = genanki.Model(
        stable_id("qbank", "model", "choice", locale),
        f"qbank choice ({locale})",
        fields=[
            {"name": n}
            for n in ("Id", "Prompt", "Options", "Answer", "Explanation", "Meta", "Hint")
        ],
        templates=[
            {
                "name": "Choice",
                "qfmt": '<div class="qb-meta">{{Meta}}</div>'
                '<div class="qb-prompt">{{Prompt}}</div>{{Options}}'
                '{{#Hint}}<div class="qb-hint">{{hint:Hint}}</div>{{/Hint}}',
                "afmt": "{{FrontSide}}<hr id=answer>"
                f'<p class="qb-correct">{t["answer"]}: <strong>{{{{Answer}}}}</strong></p>'
                '<div class="qb-explanation">{{Explanation}}</div>',
            }
        ],
        css=CSS,
        sort_field_index=1,
    )
    open_ = genanki.Model(
        stable_id("qbank", "model", "open", locale),
        f"qbank open ({locale})",
        fields=[{"name": n} for n in ("Id", "Prompt", "Assesses", "ModelAnswer", "Meta", "Hint")],
        templates=[
            {
                "name": "Open",
                "qfmt": '<div class="qb-meta">{{Meta}}</div>'
                '<div class="qb-prompt">{{Prompt}}</div>'
                '{{#Hint}}<div class="qb-hint">{{hint:Hint}}</div>{{/Hint}}',
                "afmt": "{{FrontSide}}<hr id=answer>"
                f"{{{{#Assesses}}}}<h4>{t['what_it_assesses']}</h4>"
                '<div class="qb-assesses">{{Assesses}}</div>{{/Assesses}}'
                f"<h4>{t['model_answer']}</h4>"
                '{{#ModelAnswer}}<div class="qb-model-answer">{{ModelAnswer}}</div>'
                f"{{{{/ModelAnswer}}}}{{{{^ModelAnswer}}}}<p>{t['no_model_answer']}</p>"
                "{{/ModelAnswer}}",
            }
        ],
        css=CSS,
        sort_field_index=1,
    )
    return choice, open_


def _html(texts: dict[str, str] | None, locale: str) -> str:
    return to_html(texts[locale]) if texts and locale in texts else ""


def _meta(bank: Bank, entry: Entry, locale: str) -> str:
    names = [bank.name(bank.catalog.seniorities[s], locale) for s in entry.seniorities]
    level = f" · {entry.question.difficulty}/3" if entry.question.difficulty else ""
    return ", ".join(names) + level


def _tags(entry: Entry) -> list[str]:
    q = entry.question
    tags = [*q.tags, *entry.seniorities, entry.topic]
    if q.difficulty:
        tags.append(f"difficulty::{q.difficulty}")
    return tags


def build_package(bank: Bank, locale: str) -> genanki.Package:
    """The decks and notes of ``locale`` (questions not in that locale are left out)."""
    choice_model, open_model = note_models(locale)
    decks: list[genanki.Deck] = []
    for field_key, field_ in bank.catalog.fields.items():
        field_name = bank.name(field_.name, locale).replace("::", ":")
        decks.append(genanki.Deck(stable_id("qbank", "deck", locale, field_key), field_name))
        for spec in field_.specializations.values():
            for topic_key, topic in spec.topics.items():
                entries = [e for e in bank.by_topic[field_key, topic_key] if locale in e.locales]
                if not entries:
                    continue
                topic_name = bank.name(topic.name, locale).replace("::", ":")
                deck = genanki.Deck(
                    stable_id("qbank", "deck", locale, field_key, topic_key),
                    f"{field_name}::{topic_name}",
                )
                for entry in entries:
                    deck.add_note(_note(bank, entry, locale, choice_model, open_model))
                decks.append(deck)
    return genanki.Package(decks)


def _note(
    bank: Bank, entry: Entry, locale: str, choice: genanki.Model, open_: genanki.Model
) -> genanki.Note:
    q = entry.question
    meta = _meta(bank, entry, locale)
    fields: list[str]
    if q.options is not None:
        options = "".join(
            f'<li class="qb-option" data-key="{key}"><span class="qb-key">{key}</span>'
            f"{_html(texts, locale)}</li>"
            for key, texts in q.options.items()
        )
        fields = [
            q.id,
            _html(q.prompt, locale),
            f'<ol class="qb-options">{options}</ol>',
            ", ".join(q.answer or []),
            _html(q.explanation, locale),
            meta,
            _html(q.hint, locale),
        ]
        model = choice
    else:
        fields = [
            q.id,
            _html(q.prompt, locale),
            _html(q.assesses, locale),
            _html(q.model_answer, locale),
            meta,
            _html(q.hint, locale),
        ]
        model = open_
    return genanki.Note(model=model, fields=fields, tags=_tags(entry), guid=note_guid(q.id, locale))


def write_apkg(bank: Bank, locale: str, out: Path) -> None:
    """Write the ``.apkg`` of ``locale`` to ``out`` with fixed timestamps."""
    package = build_package(bank, locale)
    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(tmp) / "collection.anki2"
        conn = sqlite3.connect(db_path)
        try:
            cursor = conn.cursor()
            ids: Any = iter(range(int(FIXED_TIMESTAMP * 1000), 1 << 62))
            package.write_to_db(cursor, FIXED_TIMESTAMP, ids)
            conn.commit()
        finally:
            conn.close()
        data = db_path.read_bytes()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in (("collection.anki2", data), ("media", json.dumps({}).encode())):
            info = zipfile.ZipInfo(name, date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, content)
