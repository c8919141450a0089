"""What every importer produces: questions with their place, plus catalog additions.

A parser reads one source document and returns a ``Parsed``: question data shaped like a
question file, and the part of ``catalog.yaml`` the questions need (same nesting as the
catalog: locales, seniorities, fields > specializations > topics, names per locale). The
plan (``qbank.tools.importers.plan``) merges that into the bank. A source the parser cannot read
raises ``SourceError`` naming the file, the position and what was expected.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import unicodedata
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from qbank.bank.model import nfc
from qbank.bank.similarity import normalize_text
from qbank.site.strings import interface_strings

# Deterministic ids for questions whose source has none: UUIDv5 of the normalized prompt.
IMPORT_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://github.com/qbank/qbank/import")

# Topics map to specializations by key prefix; any other prefix goes to ``general``.
SPECIALIZATION_PREFIXES = {
    "cml-": "classical-ml",
    "dl-": "deep-learning",
    "fe-": "feature-engineering",
    "ti-": "training-infrastructure",
}
GENERAL = "general"


def _catalog_names() -> dict[str, dict[str, str]]:
    """Names the importers use when a source gives none in a catalog locale: the
    ``catalog_names`` of each locale's interface text that names them (``qbank.site.strings``)."""
    names: dict[str, dict[str, str]] = {}
    for locale, table in interface_strings().items():
        for key, name in (table.get("catalog_names") or {}).items():
            names.setdefault(key, {})[locale] = name
    return names


KNOWN_NAMES = _catalog_names()

_TURKISH = str.maketrans("çğıöşüÇĞİÖŞÜâîû", "cgiosuCGIOSUaiu")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_FENCE = re.compile(r"^```.*?^```[ \t]*$", re.MULTILINE | re.DOTALL)
_NON_SLUG = re.compile(r"[^a-z0-9]+")
SLUG_MAX = 48


class SourceError(Exception):
    """A part of the source document the importer cannot read (message names where)."""


@dataclass
class ImportedQuestion:
    """One question as read: where it goes and the data of its file."""

    where: str  # "file:line" or "file: samples[2]", for messages
    field: str
    topic: str
    data: dict[str, Any]  # keys in question-file order: id, difficulty, prompt, …
    # copied beside it: its name there -> the source's file (``field`` is taken above)
    images: dict[str, Path] = dataclasses.field(default_factory=dict)

    @property
    def id(self) -> str:
        """The question's id (from the source, or derived from its prompt)."""
        return str(self.data["id"])


@dataclass
class Parsed:
    """A parsed source: its questions and the catalog entries they need."""

    source: str
    questions: list[ImportedQuestion] = field(default_factory=list)
    catalog: dict[str, Any] = field(default_factory=dict)  # shaped like catalog.yaml
    # What the parser read but could not import, as "file:line: what and why" (reported).
    notes: list[str] = field(default_factory=list)


def clean(text: str) -> str:
    """NFC text with Unix line ends, trailing spaces and outer blank lines removed."""
    lines = nfc(text).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n".join(line.rstrip() for line in lines).strip("\n").strip()


def derived_id(prompt: str) -> str:
    """A deterministic UUID (v5) from the normalized prompt: re-imports never duplicate."""
    return str(uuid.uuid5(IMPORT_NAMESPACE, normalize_text(prompt)))


def slug_for(prompt: str) -> str:
    """A file name from the prompt: Turkish letters transliterated, code blocks skipped;
    ``q-<hash>`` for Chinese and other scripts without a Latin reading."""
    prose = _FENCE.sub(" ", prompt)
    if _CJK.search(prose) or not prose.strip():
        digest = hashlib.sha1(normalize_text(prompt).encode("utf-8")).hexdigest()[:8]
        return f"q-{digest}"
    ascii_text = unicodedata.normalize("NFKD", prose.translate(_TURKISH))
    ascii_text = "".join(c for c in ascii_text if not unicodedata.combining(c)).lower()
    words = [w for w in _NON_SLUG.split(ascii_text) if w]
    slug = ""
    for word in words:
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > SLUG_MAX:
            break
        slug = candidate
    if len(slug) < 3:
        digest = hashlib.sha1(normalize_text(prompt).encode("utf-8")).hexdigest()[:8]
        return f"q-{digest}"
    return slug


def slug_key(name: str) -> str:
    """A catalog key from a display name, e.g. ``ML Engineer`` → ``ml-engineer``."""
    text = unicodedata.normalize("NFKD", name.translate(_TURKISH))
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return _NON_SLUG.sub("-", text).strip("-")


def specialization_for(topic_key: str) -> str:
    """The specialization a topic belongs to, by its key prefix (``cml-`` → classical-ml …)."""
    for prefix, spec in SPECIALIZATION_PREFIXES.items():
        if topic_key.startswith(prefix):
            return spec
    return GENERAL


FABRICATED = "*"
"""The locale key of a name made up from a key: used for a new entry, never added to one."""


def topic_catalog(
    field_key: str,
    topic_key: str,
    locale: str,
    *,
    field_name: str | None = None,
    topic_name: str | None = None,
) -> dict[str, Any]:
    """The catalog part placing one topic (specialization by key prefix)."""
    spec = specialization_for(topic_key)
    spec_names = KNOWN_NAMES.get(spec) or {FABRICATED: spec.replace("-", " ").title()}
    return {
        "locales": [locale],
        "fields": {
            field_key: {
                "name": {locale: field_name}
                if field_name
                else {FABRICATED: field_key.replace("-", " ").title()},
                "specializations": {
                    spec: {
                        "name": dict(spec_names),
                        "topics": {
                            topic_key: {
                                "name": {locale: topic_name}
                                if topic_name
                                else {FABRICATED: topic_key.replace("-", " ").capitalize()}
                            }
                        },
                    }
                },
            }
        },
    }
