"""The topic profiles of "match my job description": one JSON file per locale.

The match page (``site_templates/match.md.j2``, ``site_templates/assets/match.js``) ranks the
bank's topics against a job posting the reader pastes, in the browser. It reads
``<locale>/api/match.json``: per topic its keys, names (topic, specialization, field), tags,
question counts per seniority and its most telling terms with a weight 1..100. Terms are cut
by the search tokenizer (``qbank.search.tokenize``), which ``assets/search.js`` mirrors, so a
posting cut in the browser meets the same stems (Turkish suffixes stripped, Chinese as pairs
of neighbouring characters; single Chinese characters are left out: alone they say little).

A term's weight in a topic: its count over the topic's texts, the names and tags counting
more than the questions, the options and what a question assesses less (``WEIGHTS``), damped
(``log(1 + count)``) and multiplied by its rarity across topics (a term every topic has weighs
nothing), then scaled so the topic's best term weighs 100; the ``TOP`` best are kept.

Pure: no MkDocs, no I/O.
"""

from __future__ import annotations

import heapq
import json
import math
from array import array
from collections import Counter
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from qbank.bank import Bank, Entry, _gc_paused
from qbank.search.tokenize import stemmer_spec, terms

TOP = 80
"""Terms kept per topic."""
WEIGHTS = {"name": 8.0, "specialization": 3.0, "tag": 4.0, "prompt": 1.0, "rest": 0.5}
"""How much one occurrence of a term counts, by where it occurs (``rest``: the options and
what the question assesses). Explanations and model answers are left out: they argue more
than they name the topic, and cutting them took half the time (3,000 questions: zh 1.25 s →
0.65 s of CPU) with the same rankings on the tests' postings."""


def match_path(locale: str) -> str:
    """Where a locale's topic profiles sit, relative to the site root."""
    return f"{locale}/api/match.json"


def _count(texts: Iterable[str], locale: str) -> Counter[str]:
    """How often each term occurs in ``texts`` (counted in C: a bank holds millions)."""
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(terms(text, locale))
    return counts


def _question_texts(entry: Entry, locale: str) -> tuple[list[str], list[str]]:
    """(prompt, rest) of a question in ``locale`` (``WEIGHTS``)."""
    q = entry.question
    rest = [option[locale] for option in (q.options or {}).values() if locale in option]
    if q.assesses and locale in q.assesses:
        rest.append(q.assesses[locale])
    return [q.prompt[locale]], rest


TopicCounts = Callable[
    [str, tuple[str, str, str], list[Entry], Callable[[], dict[str, float]]], dict[str, float]
]
"""How ``topic_profiles`` gets a topic's weighted term counts: ``(locale, (field,
specialization, topic), the topic's entries, count)`` → the counts; the default calls
``count()``, a serve cache (``BodyCache``) keeps them while the topic's entries are the very
same objects."""


def _uncached(
    locale: str, key: tuple[str, str, str], here: list[Entry], count: Callable[[], dict[str, float]]
) -> dict[str, float]:
    return count()


def _topic_counts(
    bank: Bank, locale: str, key: tuple[str, str, str], here: list[Entry], tags: list[str]
) -> dict[str, float]:
    """A topic's weighted term counts (``WEIGHTS``) in ``locale``."""
    field_key, spec_key, topic_key = key
    spec = bank.catalog.fields[field_key].specializations[spec_key]
    prompts: list[str] = []
    rest: list[str] = []
    for entry in here:
        prompt, others = _question_texts(entry, locale)
        prompts += prompt
        rest += others
    counts: dict[str, float] = {}
    for weight, texts in (
        (WEIGHTS["name"], [bank.name(spec.topics[topic_key].name, locale)]),
        (WEIGHTS["specialization"], [bank.name(spec.name, locale)]),
        (WEIGHTS["tag"], [tag.replace("-", " ") for tag in tags]),
        (WEIGHTS["prompt"], prompts),
        (WEIGHTS["rest"], rest),
    ):
        for term, n in _count(texts, locale).items():
            # a lone letter, digit run or CJK character tells topics apart poorly
            if len(term) >= 2 and not term.isdigit():
                counts[term] = counts.get(term, 0.0) + weight * n
    return counts


def topic_profiles(bank: Bank, locale: str, counted: TopicCounts = _uncached) -> dict[str, Any]:
    """The match data of ``locale``: the seniorities, the fields and every topic's profile,
    in catalog order."""
    catalog, name = bank.catalog, bank.name
    # Each topic's counts as two arrays over term numbers (a dict per topic would hold
    # millions of entries for a large Chinese bank); ``spread``: in how many topics a term is.
    numbers: dict[str, int] = {}
    names: list[str] = []
    spread = array("i")
    raw: list[tuple[dict[str, Any], array[int], array[float]]] = []
    for key in bank.topics():
        field_key, spec_key, topic_key = key
        spec = catalog.fields[field_key].specializations[spec_key]
        here = [e for e in bank.by_topic[field_key, topic_key] if locale in e.locales]
        tags = sorted({tag for e in here for tag in e.question.tags})
        counts = counted(locale, key, here, partial(_topic_counts, bank, locale, key, here, tags))
        levels = Counter(s for e in here for s in e.seniorities)
        head = {
            "field": field_key,
            "topic": topic_key,
            "name": name(spec.topics[topic_key].name, locale),
            "specialization": name(spec.name, locale),
            "tags": tags,
            "count": len(here),
            "levels": {k: levels[k] for k in catalog.seniorities if levels[k]},
        }
        which, how_often = array("i"), array("d")
        for term, n in counts.items():
            number = numbers.get(term)
            if number is None:
                number = numbers[term] = len(names)
                names.append(term)
                spread.append(0)
            spread[number] += 1
            which.append(number)
            how_often.append(n)
        raw.append((head, which, how_often))
    rarity = [math.log((len(raw) + 1) / max(1, n)) for n in range(len(raw) + 1)]
    topics = []
    for head, which, how_often in raw:
        scored = [
            (names[number], math.log1p(n) * rarity[spread[number]])
            for number, n in zip(which, how_often, strict=True)
        ]
        best = heapq.nsmallest(TOP, scored, key=lambda item: (-item[1], item[0]))
        top = best[0][1] if best and best[0][1] > 0 else 1.0
        weights = {t: round(100 * w / top) for t, w in best if round(100 * w / top) >= 1}
        topics.append({**head, "terms": weights})
    return {
        "locale": locale,
        "stem": stemmer_spec(locale),
        "seniorities": [[k, name(v, locale)] for k, v in catalog.seniorities.items()],
        "level_names": {k: sorted(set(v.values())) for k, v in catalog.seniorities.items()},
        "fields": [[k, name(f.name, locale)] for k, f in catalog.fields.items()],
        "topics": topics,
    }


def match_file(bank: Bank, locale: str, counted: TopicCounts = _uncached) -> bytes:
    """``topic_profiles`` as the bytes of ``match_path(locale)`` (deterministic)."""
    with _gc_paused():  # (millions of objects made, no cycle among them)
        data = topic_profiles(bank, locale, counted)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
