"""The content format as frozen pydantic models: the catalog and one question. No I/O.

Shape and types live here; rules that need the catalog or other files live in ``bank``.
A text field is a mapping ``{locale: Markdown}``; a plain string is accepted as shorthand
for the catalog's default locale (passed in the validation context as ``default_locale``).
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationInfo,
)

SLUG_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"
UUID_PATTERN = r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
LOCALE_PATTERN = r"^[a-z]{2,3}(-[a-z0-9]{2,8})*$"
OPTION_KEY_PATTERN = r"^[a-h]$"
TAG_PATTERN = r"^[a-z0-9][a-z0-9+#.-]*$"
OPTION_KEYS = "abcdefgh"

Slug = Annotated[str, StringConstraints(pattern=SLUG_PATTERN)]
LocaleCode = Annotated[str, StringConstraints(pattern=LOCALE_PATTERN)]
OptionKey = Annotated[str, StringConstraints(pattern=OPTION_KEY_PATTERN)]
Tag = Annotated[str, StringConstraints(pattern=TAG_PATTERN, max_length=40)]
QuestionId = Annotated[str, StringConstraints(pattern=UUID_PATTERN)]


def nfc(text: str) -> str:
    """NFC-normalize, skipping the common all-ASCII case."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def _localize(value: Any, info: ValidationInfo) -> Any:
    """Accept the plain-string shorthand for the default locale."""
    if isinstance(value, str):
        context = info.context or {}
        return {context.get("default_locale", "en"): value}
    return value


def _as_list(value: Any) -> Any:
    """Accept one key where a list of keys is expected."""
    return [value] if isinstance(value, str) else value


LocalizedText = Annotated[dict[LocaleCode, str], BeforeValidator(_localize)]
"""Markdown per locale, e.g. ``{en: "…", tr: "…"}``."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class Topic(_Frozen):
    """A topic of a specialization; questions live in ``<field>/<topic>/``."""

    name: LocalizedText


class Specialization(_Frozen):
    """A group of topics inside a field."""

    name: LocalizedText
    # May be empty: an imported taxonomy lists specializations before they have topics.
    topics: dict[Slug, Topic] = Field(default_factory=dict)


class FieldOfWork(_Frozen):
    """A job field such as ``ml-engineer``."""

    name: LocalizedText
    specializations: dict[Slug, Specialization] = Field(min_length=1)


class Catalog(_Frozen):
    """``catalog.yaml``: locales, seniorities and the field → specialization → topic tree."""

    title: LocalizedText
    locales: list[LocaleCode] = Field(min_length=1)
    seniorities: dict[Slug, LocalizedText] = Field(min_length=1)
    fields: dict[Slug, FieldOfWork] = Field(min_length=1)

    @property
    def default_locale(self) -> str:
        """The first locale; names and plain-string texts fall back to it."""
        return self.locales[0]


class Question(_Frozen):
    """One question file. With ``options`` it is a choice question, without it an open one."""

    id: QuestionId
    difficulty: Literal[1, 2, 3] | None = None
    seniority: Annotated[list[Slug], BeforeValidator(_as_list)] = Field(
        default_factory=list, min_length=1
    )
    tags: list[Tag] = Field(default_factory=list)
    prompt: LocalizedText
    options: dict[OptionKey, LocalizedText] | None = None
    answer: Annotated[list[OptionKey], BeforeValidator(_as_list)] | None = None
    explanation: LocalizedText | None = None
    assesses: LocalizedText | None = None
    model_answer: LocalizedText | None = None
    hint: LocalizedText | None = None
    source: str | None = None
    translated_from: dict[LocaleCode, str] | None = None

    @property
    def is_choice(self) -> bool:
        """Whether the reader picks from options."""
        return self.options is not None

    @property
    def is_multi(self) -> bool:
        """Whether several options are right (check boxes and a Check button)."""
        return self.answer is not None and len(self.answer) > 1


TEXT_FIELDS = ("prompt", "explanation", "assesses", "model_answer", "hint")
DIFFICULTY_SENIORITY = {1: "junior", 2: "mid", 3: "senior"}

# The expected form of each key, used as the hint of a problem about it.
HINTS: dict[str, str] = {
    "id": "a lowercase UUID such as 01a05d13-8d21-739a-baa2-7dab67be4093 (`qbank new` writes one)",
    "difficulty": "1, 2 or 3",
    "seniority": "a seniority key or a list of them, e.g. [mid, senior]",
    "tags": "a list of lowercase tags, e.g. [profiling, gpu]",
    "prompt": "Markdown text, or a mapping {locale: Markdown}",
    "options": "a mapping of option keys a, b, c … to text, e.g. a: {en: …}",
    "answer": "an option key such as b, or a list such as [a, c]",
    "explanation": "Markdown text, or a mapping {locale: Markdown}",
    "assesses": "Markdown text, or a mapping {locale: Markdown}",
    "model_answer": "Markdown text, or a mapping {locale: Markdown}",
    "hint": "Markdown text, or a mapping {locale: Markdown}: a nudge shown on request",
    "source": "a string: an attribution or a URL",
    "translated_from": (
        "a mapping {locale: short hash} written by `qbank translations mark-current`"
    ),
    "title": "a mapping {locale: text}",
    "locales": "a list of locale codes, e.g. [en, tr, zh]",
    "seniorities": "a mapping of seniority keys to names, e.g. junior: {en: Junior}",
    "fields": "a mapping of field keys to {name, specializations}",
    "name": "a mapping {locale: text}",
    "specializations": "a mapping of specialization keys to {name, topics}",
    "topics": "a mapping of topic keys to {name}",
}
