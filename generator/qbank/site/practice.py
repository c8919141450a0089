"""The mock interview's data: per locale, field and seniority a list of the questions, and
their texts in chunks.

- ``<locale>/api/practice/<field>/<seniority>.json``, the list: ``{locale, field, seniority,
  topics: ["field/topic", …], questions: [[id, topic number, chunk number], …]}`` in display
  order: what a session draws from (topics, misses) without any text;
- ``<locale>/api/practice/<field>/<seniority>/<n>.json``, chunk ``n``: ``{questions: [...]}``,
  the texts (``practice_question``) of the questions the list files under ``n``.

A session (``assets/practice.js``, through ``assets/lib/questions.js``) reads the list, draws
and fetches only the chunks of the questions drawn (``assets/lib/draw.js`` draws whole chunks
at random, so 20 questions cost one chunk or two, not the field). A question's chunk is a
hash of its id modulo the number of chunks (``chunk_count``: about ``CHUNK`` questions each),
so an added or edited question changes its own chunk, not the others. The texts are HTML made
by the caller's Markdown renderer (``qbank.bank.markup``), so this module stays pure: no
MkDocs, no I/O.
"""

from __future__ import annotations

import hashlib
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


CHUNK = 64
"""About how many questions a chunk holds: a session of 20 at one seniority usually needs one
chunk (about 36 kB gzip), and a 30,000-question bank in 3 locales about 1,400 chunk files."""


def practice_path(locale: str, field: str, seniority: str) -> str:
    """Where the list of one field and seniority sits, relative to the site root."""
    return f"{locale}/api/practice/{field}/{seniority}.json"


def chunk_path(locale: str, field: str, seniority: str, number: int) -> str:
    """Where chunk ``number`` of one field and seniority sits, relative to the site root."""
    return f"{locale}/api/practice/{field}/{seniority}/{number}.json"


def chunk_count(questions: int) -> int:
    """How many chunks ``questions`` questions take (at least one, even for none)."""
    return max(1, round(questions / CHUNK))


def chunk_of(question_id: str, chunks: int) -> int:
    """The chunk of a question: a hash of its id (stable across builds and edits of others)."""
    digest = hashlib.blake2b(question_id.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % chunks


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
    """Every practice file of the site (lists and chunks): ``{path relative to the site
    root: bytes}``.

    A list and its first chunk exist for every locale, field and seniority of the catalog
    (empty when nothing matches), so the page never fetches a missing file. Output is
    deterministic.
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
                chosen = [e for e in entries if seniority in e.seniorities]
                chunks = chunk_count(len(chosen))
                topics: dict[str, int] = {}
                listed = []
                held: list[list[str]] = [[] for _ in range(chunks)]
                for entry in chosen:
                    if entry.id not in texts:

                        def make(entry: Entry = entry, locale: str = locale) -> str:
                            data = practice_question(entry, locale, question_html, permalink)
                            return _dumps(data)

                        texts[entry.id] = remembered(entry, locale, make) if remembered else make()
                    number = chunk_of(entry.id, chunks)
                    topic = topics.setdefault(f"{entry.field}/{entry.topic}", len(topics))
                    listed.append(_dumps([entry.id, topic, number]))
                    held[number].append(texts[entry.id])
                head = {"locale": locale, "field": field, "seniority": seniority}
                text = (
                    f'{_dumps(head)[:-1]},"topics":{_dumps(list(topics))},'
                    f'"questions":[{",".join(listed)}]}}'
                )
                yield practice_path(locale, field, seniority), text.encode("utf-8")
                for number, members in enumerate(held):
                    chunk = f'{{"questions":[{",".join(members)}]}}'
                    yield chunk_path(locale, field, seniority, number), chunk.encode("utf-8")


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def listed_questions(
    read: Callable[[str], bytes], locale: str, field: str, seniority: str
) -> list[dict[str, Any]]:
    """The questions of one list with their texts, in its order, as a session reads them
    (``read(path)``: a practice file's bytes by its site-root path)."""
    listed = json.loads(read(practice_path(locale, field, seniority)))
    texts: dict[str, dict[str, Any]] = {}
    for number in sorted({chunk for _, _, chunk in listed["questions"]}):
        for item in json.loads(read(chunk_path(locale, field, seniority, number)))["questions"]:
            texts[item["id"]] = item
    return [texts[qid] for qid, _, _ in listed["questions"]]
