"""The loaded bank: each question placed where it lives (``Entry``) and the bank's indexes
by topic and id (``Bank``). Made by ``qbank.bank.load``; read by every layer above."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from qbank.bank.model import Catalog, Question
from qbank.bank.problems import Problem


@dataclass(frozen=True)
class Entry:
    """A question placed in the bank: the model plus where it lives and what it resolves to."""

    question: Question
    file: str  # relative to the content root, e.g. "ml-engineer/throughput/step-phases.yaml"
    field: str
    specialization: str
    topic: str
    slug: str
    seniorities: tuple[str, ...]
    locales: tuple[str, ...]  # the locales the question exists in, in catalog order
    digest: str  # hash of the file's bytes

    @property
    def id(self) -> str:
        """The question's permanent id."""
        return self.question.id


@dataclass(frozen=True)
class Bank:
    """A validated bank: the catalog, the questions in display order, and the warnings."""

    root: Path
    catalog: Catalog
    entries: tuple[Entry, ...]
    warnings: tuple[Problem, ...] = ()
    _cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @cached_property
    def by_topic(self) -> Mapping[tuple[str, str], tuple[Entry, ...]]:
        """Questions per (field, topic), in display order; every catalog topic is present."""
        groups: dict[tuple[str, str], list[Entry]] = {(f, t): [] for f, _s, t in self.topics()}
        for entry in self.entries:
            groups[entry.field, entry.topic].append(entry)
        return {key: tuple(items) for key, items in groups.items()}

    @cached_property
    def by_id(self) -> Mapping[str, Entry]:
        """Questions by id."""
        return {entry.id: entry for entry in self.entries}

    def topics(self) -> Iterator[tuple[str, str, str]]:
        """Every (field, specialization, topic) in catalog order."""
        for field_key, field_ in self.catalog.fields.items():
            for spec_key, spec in field_.specializations.items():
                for topic_key in spec.topics:
                    yield field_key, spec_key, topic_key

    def field_entries(self, field_key: str) -> list[Entry]:
        """A field's questions in display order (its topics' questions one topic after the
        other: the display order sorts by topic in catalog order first)."""
        by_topic = self.by_topic
        return [e for f, _s, t in self.topics() if f == field_key for e in by_topic[f, t]]

    def name(self, texts: Mapping[str, str], locale: str) -> str:
        """A catalog name in ``locale``, falling back to the default locale."""
        return (
            texts.get(locale)
            or texts.get(self.catalog.default_locale)
            or next(iter(texts.values()), "")
        )


def text_in(texts: Mapping[str, str] | None, locale: str) -> str | None:
    """A question text in one locale (questions never fall back: they are translated whole)."""
    return None if texts is None else texts.get(locale)
