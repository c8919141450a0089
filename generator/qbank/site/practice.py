"""The mock interview's data: per locale, field and seniority a list of the questions and
the topic page (part) that shows each.

``<locale>/api/practice/<field>/<seniority>.json``: ``{locale, field, seniority, topics:
["field/topic", …], pages: ["<part folder>", …], questions: [[id, topic number, page
number], …]}`` in display order: what a session draws from (topics, misses) without any
text. A question's texts are those of its topic page, ``<locale>/<field>/<part folder>/``:
a session (``assets/practice.js``, through ``assets/lib/questions.js``) fetches the pages of
the questions it draws and reads each question's wrapper there (DESIGN.md "The HTML of one
question"), so the site carries every question's HTML once, on its page, and a kept field
offline has every text it practises. ``assets/lib/draw.js`` draws whole pages at random, so
20 questions cost two or three pages, not the field. Pure: no MkDocs, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from typing import Any

from qbank.bank.loaded import Bank, Entry
from qbank.search.termsjson import compact

Folder = Callable[[Entry, str], str]
"""(entry, locale) → the folder of the topic page (part) that shows it, under its field's."""


def practice_path(locale: str, field: str, seniority: str) -> str:
    """Where the list of one field and seniority sits, relative to the site root."""
    return f"{locale}/api/practice/{field}/{seniority}.json"


def practice_files(bank: Bank, folder: Folder, locales: tuple[str, ...] = ()) -> dict[str, bytes]:
    """Every practice list of the site: ``{path relative to the site root: bytes}``.

    A list exists for every locale, field and seniority of the catalog (empty when nothing
    matches), so the page never fetches a missing file. Output is deterministic.
    ``locales`` limits the files to those locales (empty: every locale).
    """
    return dict(iter_practice_files(bank, folder, locales))


def iter_practice_files(
    bank: Bank,
    folder: Folder,
    locales: tuple[str, ...] = (),
    fields: Collection[str] | None = None,
) -> Iterator[tuple[str, bytes]]:
    """``practice_files`` one file at a time; ``fields`` limits the files to those fields
    (``mkdocs serve`` after an edit)."""
    for locale in bank.catalog.locales:
        if locales and locale not in locales:
            continue
        for field in bank.catalog.fields:
            if fields is not None and field not in fields:
                continue
            entries = [e for e in bank.field_entries(field) if locale in e.locales]
            for seniority in bank.catalog.seniorities:
                topics: dict[str, int] = {}
                pages: dict[str, int] = {}
                listed = []
                for entry in entries:
                    if seniority not in entry.seniorities:
                        continue
                    topic = topics.setdefault(f"{entry.field}/{entry.topic}", len(topics))
                    page = pages.setdefault(folder(entry, locale), len(pages))
                    listed.append(_dumps([entry.id, topic, page]))
                head = {"locale": locale, "field": field, "seniority": seniority}
                text = (
                    f'{_dumps(head)[:-1]},"topics":{_dumps(list(topics))},'
                    f'"pages":{_dumps(list(pages))},"questions":[{",".join(listed)}]}}'
                )
                yield practice_path(locale, field, seniority), text.encode("utf-8")


def _dumps(data: Any) -> str:
    return compact(data).decode("utf-8")
