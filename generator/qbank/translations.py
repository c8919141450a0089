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
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from qbank.loader import Document, read_document, validate_model
from qbank.model import TEXT_FIELDS, Catalog, Question, nfc
from qbank.problems import Problem, Severity, display_path

if TYPE_CHECKING:
    from qbank.bank import Bank, Entry

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


# ---------------------------------------------------------------------------------------------
# mark-current: a text edit of the translated_from lines only


def mark_current(content_dir: Path, question_id: str, locale: str) -> tuple[Path, str]:
    """Record that the ``locale`` translation of ``question_id`` matches the source text now.

    Rewrites only the ``translated_from`` lines of the question's file (comments, order and
    line ends are kept); adds ``translated_from: {locale: hash}`` at the end when absent.
    Returns the file and the hash written. Raises ValueError with a readable message when
    the id, the locale or the file is wrong.
    """
    from qbank.bank import load_catalog

    catalog = load_catalog(content_dir)
    path, doc = _find_question(content_dir, question_id)
    question = validate_model(doc, Question, {"default_locale": catalog.default_locale})
    if question is None:
        raise ValueError("\n".join(p.format_text() for p in doc.problems))
    source = source_locale(question, catalog.locales)
    if locale not in catalog.locales:
        raise ValueError(f"unknown locale {locale!r}; expected one of {', '.join(catalog.locales)}")
    if locale == source:
        raise ValueError(
            f"{locale!r} is the source locale of {question_id}; name a locale it is translated into"
        )
    if locale not in question.prompt:
        have = ", ".join(loc for loc in catalog.locales if loc in question.prompt)
        raise ValueError(f"{doc.display}: no {locale!r} translation; the question has {have}")
    value = source_hash(question, source or locale)
    raw = path.read_bytes()
    bom = raw.startswith(b"\xef\xbb\xbf")
    text = raw.decode("utf-8").removeprefix("\ufeff")
    updated = set_translated_from(text, locale, value)
    if updated != text:
        path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + updated.encode("utf-8"))
    return path, value


def _find_question(content_dir: Path, question_id: str) -> tuple[Path, Document]:
    """The file whose ``id`` is ``question_id`` (a cheap text test first, then a parse)."""
    needle = question_id.strip().lower()
    for dirpath, dirnames, filenames in os.walk(content_dir):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if not name.endswith(".yaml") or name == "catalog.yaml":
                continue
            path = Path(dirpath) / name
            try:
                if needle not in path.read_text(encoding="utf-8", errors="replace"):
                    continue
            except OSError:
                continue
            doc = read_document(path, display_path(path))
            if isinstance(doc.data, dict) and doc.data.get("id") == needle:
                return path, doc
    raise ValueError(f"no question with id {question_id!r} in {display_path(content_dir)}")


def yaml_scalar(value: str) -> str:
    """A hash as YAML: plain when every YAML reader sees text (``12345678`` or ``1234e567``
    would be numbers to some), else double-quoted."""
    plain = re.search(r"[a-df]", value) is not None and yaml.safe_load(value) == value
    return value if plain else f'"{value}"'


def set_translated_from(text: str, locale: str, value: str) -> str:
    """``text`` with ``translated_from.<locale>`` set to ``value``; nothing else changes."""
    newline = "\r\n" if "\r\n" in text else "\n"
    scalar = yaml_scalar(value)
    root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    if not isinstance(root, yaml.MappingNode):
        raise ValueError("the question file is not a YAML mapping")
    for key_node, value_node in root.value:
        if not (isinstance(key_node, yaml.ScalarNode) and key_node.value == TRANSLATED_FROM):
            continue
        if not isinstance(value_node, yaml.MappingNode) or not value_node.value:
            start, end = key_node.start_mark.index, value_node.end_mark.index
            if not isinstance(value_node, yaml.MappingNode) and value_node.value in ("", None):
                end = key_node.end_mark.index + 1  # the ":" of an empty value
            return f"{text[:start]}{TRANSLATED_FROM}: {{{locale}: {scalar}}}{text[end:]}"
        for sub_key, sub_value in value_node.value:
            if isinstance(sub_key, yaml.ScalarNode) and sub_key.value == locale:
                start, end = sub_value.start_mark.index, sub_value.end_mark.index
                if start == end:  # `tr:` with no value
                    start = end = sub_key.end_mark.index + 1
                    scalar = " " + scalar
                return text[:start] + scalar + text[end:]
        if value_node.flow_style:
            last = value_node.value[-1][1].end_mark.index
            return f"{text[:last]}, {locale}: {scalar}{text[last:]}"
        first_key = value_node.value[0][0]
        indent = " " * first_key.start_mark.column
        last = value_node.value[-1][1].end_mark.index
        line_end = text.find("\n", last)
        if line_end < 0:
            return f"{text}{newline}{indent}{locale}: {scalar}"
        if text[line_end - 1 : line_end] == "\r":
            line_end -= 1
        # A block mapping's last value may end on the next line (the mark sits at column 0).
        if value_node.value[-1][1].end_mark.column == 0:
            line_end = text.rfind("\n", 0, last)
            if text[line_end - 1 : line_end] == "\r":
                line_end -= 1
        return f"{text[:line_end]}{newline}{indent}{locale}: {scalar}{text[line_end:]}"
    tail = "" if not text or text.endswith(("\n", "\r")) else newline
    return f"{text}{tail}{TRANSLATED_FROM}: {{{locale}: {scalar}}}{newline}"
