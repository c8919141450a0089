"""Translation staleness: which translations were made from a source text that has changed.

A question records, per translated locale, the short hash of the source-locale text the
translation was made from (``translated_from: {tr: 3f2a9c1b}``). The source locale is the
catalog's default locale (or, for a question written without it, the first catalog locale
the question has). When the source text changes, its hash no longer matches and the
translation "may be out of date" until a translator updates it and runs
``qbank translations mark-current ID LOCALE``, which rewrites only the ``translated_from``
lines of the file.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from qbank.bank.model import TEXT_FIELDS, Catalog, Question, nfc
from qbank.bank.problems import Problem, Severity
from qbank.bank.yamlfile import Document

if TYPE_CHECKING:
    from qbank.bank.loaded import Bank, Entry

HASH_LENGTH = 8
TRANSLATED_FROM = "translated_from"


@dataclass(frozen=True)
class StaleTranslation:
    """A translation whose recorded source hash differs from the source text's hash now."""

    file: str  # relative to the content root
    id: str
    locale: str  # the translation that may be out of date
    source_locale: str
    recorded: str
    current: str


def source_locale(question: Question, locales: Sequence[str]) -> str | None:
    """The locale translations of ``question`` are made from (catalog order decides)."""
    for locale in locales:
        if locale in question.prompt:
            return locale
    return next(iter(question.prompt), None)


def _normalize(text: str) -> str:
    """Ignore what does not change the meaning: trailing spaces, blank edge lines, CRLF."""
    text = nfc(text)
    if "\r" in text or " \n" in text or "\t\n" in text:
        text = "\n".join(line.rstrip() for line in text.replace("\r\n", "\n").split("\n"))
    return text.rstrip().strip("\n")


def source_hash(question: Question, locale: str) -> str:
    """The short hash of ``question``'s text in ``locale``: prompt, options, explanation,
    assesses and model answer (first 8 hex digits of a SHA-256)."""
    parts: list[str] = []
    for name in TEXT_FIELDS:
        texts = getattr(question, name)
        if texts is not None and locale in texts:
            parts.append(f"{name}\n{_normalize(texts[locale])}")
        if name == "prompt":
            for key, option in (question.options or {}).items():
                if locale in option:
                    parts.append(f"options.{key}\n{_normalize(option[locale])}")
    digest = hashlib.sha256("\x1e".join(parts).encode("utf-8")).hexdigest()
    return digest[:HASH_LENGTH]


def stale_locales(question: Question, locales: Sequence[str]) -> list[tuple[str, str, str, str]]:
    """``(locale, source locale, recorded, current)`` for every stale translation."""
    if not question.translated_from:
        return []
    source = source_locale(question, locales)
    if source is None:
        return []
    current = source_hash(question, source)
    return [
        (locale, source, recorded, current)
        for locale, recorded in question.translated_from.items()
        if locale != source and locale in question.prompt and recorded != current
    ]


def stale_problems(doc: Document, question: Question, locales: Sequence[str]) -> list[Problem]:
    """Warnings for ``qbank validate``, each on the ``translated_from.<locale>`` line."""
    return [
        doc.problem(
            (TRANSLATED_FROM, locale),
            f"the {locale} translation may be out of date: the {source} text changed since "
            f"it was translated (recorded {recorded}, now {current})",
            f"the {locale} text brought in line with the {source} text, then "
            f"`qbank translations mark-current {question.id} {locale}`",
            severity=Severity.WARNING,
        )
        for locale, source, recorded, current in stale_locales(question, locales)
    ]


def stale_translations(bank: Bank) -> list[StaleTranslation]:
    """Every translation of the bank that may be out of date, in display order."""
    locales = bank.catalog.locales
    return [
        StaleTranslation(entry.file, entry.id, locale, source, recorded, current)
        for entry in bank.entries
        for locale, source, recorded, current in stale_locales(entry.question, locales)
    ]


def is_stale(entry: Entry, locale: str, catalog: Catalog) -> bool:
    """Whether the page of ``entry`` in ``locale`` should say "this translation may be out of
    date" (and link to the source locale, ``source_locale(entry.question, catalog.locales)``)."""
    tracked = entry.question.translated_from
    if not tracked or locale not in tracked:
        return False
    return any(item[0] == locale for item in stale_locales(entry.question, catalog.locales))


@dataclass(frozen=True)
class TrackedCounts:
    """How many translations of one locale are tracked, current, stale or untracked."""

    locale: str
    translations: int
    current: int
    stale: int
    untracked: int


def translation_status(bank: Bank) -> list[TrackedCounts]:
    """Per non-default locale: translations, and how many are current, stale, untracked."""
    locales = bank.catalog.locales
    out: list[TrackedCounts] = []
    for locale in locales:
        total = current = stale = untracked = 0
        for entry in bank.entries:
            q = entry.question
            if locale not in q.prompt or source_locale(q, locales) == locale:
                continue
            total += 1
            recorded = (q.translated_from or {}).get(locale)
            if recorded is None:
                untracked += 1
            elif any(item[0] == locale for item in stale_locales(q, locales)):
                stale += 1
            else:
                current += 1
        if total:
            out.append(TrackedCounts(locale, total, current, stale, untracked))
    return out
