"""``qbank import interview``: a Chinese interview record of open questions.

The record opens with a candidate profile (free text, ``岗位``, ``从业年限``, ``简介``), then
questions ``问题N：…``, each with ``考察目标：…`` (→ ``assesses``) and ``回答：…`` (→
``model_answer``; an empty answer gives none), and closes with ``点评：…``. The profile and the
closing review go into every question's ``source`` note, never into a question. Seniority
comes from the years of experience (up to 2 junior, up to 5 mid, more senior) unless
``--seniority`` is given. The record names no topic: ``--field`` and ``--topic`` are required.
"""

# ruff: noqa: RUF001, RUF002  (Turkish and Chinese text is meant)
from __future__ import annotations

import re

from qbank.tools.importers.source import (
    KNOWN_NAMES,
    ImportedQuestion,
    Parsed,
    SourceError,
    clean,
    derived_id,
    topic_catalog,
)

_QUESTION = re.compile(r"^\s*问题\s*(?P<n>\d+)\s*[：:]\s*(?P<text>.*)$")
_ASSESSES = re.compile(r"^\s*考察目标\s*[：:]\s*(?P<text>.*)$")
_ANSWER = re.compile(r"^\s*回答\s*[：:]\s*(?P<text>.*)$")
_REVIEW = re.compile(r"^\s*点评\s*[：:]\s*(?P<text>.*)$")
_YEARS = re.compile(r"从业年限\s*[：:]\s*(?P<years>\d+)")


def seniority_for_years(years: int) -> str:
    """Up to 2 years junior, up to 5 mid, more senior."""
    return "junior" if years <= 2 else "mid" if years <= 5 else "senior"


def parse(
    text: str,
    display: str,
    *,
    field: str | None,
    topic: str | None,
    locale: str = "zh",
    seniority: str | None = None,
) -> Parsed:
    """Read an interview record (see the module docstring)."""
    if not field or not topic:
        raise SourceError(
            f"{display}: an interview record names no topic; expected --field F --topic T"
        )
    lines = clean(text).split("\n")
    starts = [i for i, line in enumerate(lines) if _QUESTION.match(line)]
    if not starts:
        raise SourceError(f"{display}: no question found; expected lines such as '问题1：…'")
    profile = [line.strip() for line in lines[: starts[0]] if line.strip()]
    review_at = next((i for i, line in enumerate(lines) if _REVIEW.match(line)), len(lines))
    if review_at < starts[-1]:
        raise SourceError(
            f"{display}:{review_at + 1}: '点评' before the last question; "
            "expected the closing review after every question"
        )
    review = lines[review_at:]
    years = _YEARS.search("\n".join(profile))
    level = seniority or (seniority_for_years(int(years["years"])) if years else "mid")
    note = " ".join(profile)
    if review:
        note += " " + " ".join(line.strip() for line in review if line.strip())
    parsed = Parsed(display, catalog=topic_catalog(field, topic, locale))
    parsed.catalog["seniorities"] = {level: dict(KNOWN_NAMES.get(level, {locale: level.title()}))}
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else review_at
        head = _QUESTION.match(lines[start])
        assert head is not None
        if int(head["n"]) != n + 1:
            raise SourceError(
                f"{display}:{start + 1}: 问题{head['n']}; expected 问题{n + 1} (questions in order)"
            )
        parts: dict[str, list[str]] = {"prompt": [head["text"]], "assesses": [], "answer": []}
        current = "prompt"
        for line in lines[start + 1 : end]:
            for name, pattern in (("assesses", _ASSESSES), ("answer", _ANSWER)):
                label = pattern.match(line)
                if label is not None:
                    current = name
                    parts[name].append(label["text"])
                    break
            else:
                parts[current].append(line)
        prompt = clean("\n".join(parts["prompt"]))
        if not prompt:
            raise SourceError(
                f"{display}:{start + 1}: 问题{n + 1} has no text; expected a question"
            )
        data: dict[str, object] = {
            "id": derived_id(prompt),
            "seniority": level,
            "prompt": {locale: prompt},
        }
        assesses = clean("\n".join(parts["assesses"]))
        if assesses:
            data["assesses"] = {locale: assesses}
        answer = "\n\n".join(p.strip() for p in parts["answer"] if p.strip())
        if answer:
            data["model_answer"] = {locale: clean(answer)}
        if note:
            data["source"] = note
        parsed.questions.append(ImportedQuestion(f"{display}:{start + 1}", field, topic, data))
    return parsed
