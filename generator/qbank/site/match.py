"""The topic profiles of "match my job description": one JSON file per locale.

The match page (``site_templates/match.md.j2``, ``site_templates/assets/match.js``) ranks the
bank's topics against a job posting the reader pastes, in the browser. It reads
``<locale>/api/match.json``: per topic its keys, names (topic, specialization, field), tags,
question counts per seniority and its most telling terms with a weight 1..100. Terms are cut
by the search tokenizer (``qbank.search.tokenize``), which ``assets/lib/tokenize.js`` mirrors, so a
posting cut in the browser meets the same stems (Turkish suffixes stripped, Chinese as pairs
of neighbouring characters; single Chinese characters are left out: alone they say little).

A term's weight in a topic is TF-IDF: its count over the topic's texts, the names and tags
counting more than the questions, the options and what a question assesses less
(``WEIGHTS``), damped (``log(1 + count)``) and multiplied by its rarity across topics
(``log((topics + 1) / topics having it)``); one scale for the whole bank, its best term
weighing 100, so a topic's weights say how telling its terms are next to every other topic's
(the page's strength bars and its "no strong match" threshold read them so). The ``TOP``
best of each topic are kept. Never terms: stop words (``qbank.search.stopwords``, the
stopwords-iso lists) unless a name or tag of the bank holds them ("index"), words of a
seniority (``SENIORITY_WORDS`` and the catalog's level names: they say the level, not the
topic), and code (fenced blocks, math, inline code that is not plain words: identifiers).

Pure: no MkDocs, no I/O.
"""

from __future__ import annotations

import math
import re
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from qbank.bank.load import gc_paused
from qbank.bank.loaded import Bank, Entry
from qbank.search.stopwords import stop_terms
from qbank.search.termsjson import compact
from qbank.search.tokenize import is_cjk, stemmer_spec, terms, words

TOP = 80
"""Terms kept per topic."""
WEIGHTS = {"name": 8.0, "specialization": 3.0, "tag": 4.0, "prompt": 1.0, "rest": 0.5}
"""How much one occurrence of a term counts, by where it occurs (``rest``: the options and
what the question assesses). Explanations and model answers are left out: they argue more
than they name the topic, and cutting them took half the time (3,000 questions: zh 1.25 s →
0.65 s of CPU) with the same rankings on the tests' postings."""


SENIORITY_WORDS = (
    "senior junior lead principal staff intern internship trainee graduate entry level mid "
    "kıdemli uzman stajyer staj lider başlangıç orta seviye düzey yeni mezun "  # noqa: RUF001
    "高级 资深 初级 中级 实习 应届 专家 毕业生"
)
"""Words that name a level, in every locale (the catalog's level names are added): never a
topic's term, so a topic named "高级 …" is not matched by a senior posting's title."""
STRONG_SHARE = 0.5
"""A strong match scores at least this share of what naming a topic scores (``_strong``)."""
OWN_LETTERS = 5
"""A stop word of a name is a term of the bank from this length: the lists' short words are
function words ("and", "the", "ve", "ile"), their longer ones may be a subject ("index",
"system", "state")."""
_CODE = re.compile(
    r"^(```|~~~)[^\n]*\n.*?^\1[ \t]*$|(`+)(.+?)\2|\$\$.+?\$\$|\$[^$\n]+\$",
    re.DOTALL | re.MULTILINE,
)
_PLAIN_CODE = re.compile(r"[A-Za-z]+(?: [A-Za-z]+)*")


def _without_code(markdown: str) -> str:
    """``markdown`` with its code left out: fenced blocks, math, and inline code unless it
    is plain words (`EXPLAIN ANALYZE` stays, `pin_memory=True`, `fetchData` and $d_k$ go)."""

    def kept(match: re.Match[str]) -> str:
        code = match.group(3)
        plain = code is not None and _PLAIN_CODE.fullmatch(code.strip()) is not None
        return f" {code} " if plain and not re.search(r"[a-z][A-Z]", code) else " "

    return _CODE.sub(kept, markdown) if any(c in markdown for c in "`~$") else markdown


def match_path(locale: str) -> str:
    """Where a locale's topic profiles sit, relative to the site root."""
    return f"{locale}/api/match.json"


def _question_texts(entry: Entry, locale: str) -> tuple[list[str], list[str]]:
    """(prompt, rest) of a question in ``locale`` (``WEIGHTS``)."""
    q = entry.question
    rest = [_without_code(o[locale]) for o in (q.options or {}).values() if locale in o]
    if q.assesses and locale in q.assesses:
        rest.append(_without_code(q.assesses[locale]))
    return [_without_code(q.prompt[locale])], rest


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


Numbered = tuple["array[int]", "array[float]"]
"""A topic's weighted term counts as two arrays: its terms' numbers (``Terms``), counts."""

QuestionTerms = Callable[[Entry, str], tuple[list[str], list[str]]]
"""How a topic's counts get the terms of one of its questions in a locale: ``(entry,
locale)`` → (its prompt's terms, its other terms), in order, repeats kept
(``question_terms``; a cache keeps them by question: ``Terms.question_terms``)."""


def question_terms(entry: Entry, locale: str) -> tuple[list[str], list[str]]:
    """The terms of a question's prompt and of its other texts (``WEIGHTS``), in order."""
    prompt, rest = _question_texts(entry, locale)
    return _terms_of(prompt, locale), _terms_of(rest, locale)


def _terms_of(texts: list[str], locale: str) -> list[str]:
    found: list[str] = []
    for text in texts:
        found += terms(text, locale)
    return found


class Terms:
    """One locale's match terms, numbered (each topic's counts as two arrays over term
    numbers: a dict per topic would hold millions of entries for a large Chinese bank). A
    term's number is its place in ``names``. ``of`` numbers a topic's counts; ``done`` is
    called once every topic has been (a cache keeps them: ``qbank.live.matchcache``)."""

    def __init__(self) -> None:
        self._numbers: defaultdict[str, int] = defaultdict()
        self._numbers.default_factory = self._numbers.__len__  # a new term: the next one

    def adopt(self, names: list[str]) -> None:
        """Number ``names`` from 0, in order (before any topic is numbered)."""
        self._numbers.update(zip(names, range(len(names)), strict=True))

    @property
    def names(self) -> list[str]:
        """Every term numbered, by number."""
        return list(self._numbers)

    def of(
        self, key: tuple[str, str, str], here: list[Entry], count: Callable[[], dict[str, float]]
    ) -> Numbered:
        """The counts ``count()`` of the topic ``key`` (its entries ``here``), numbered."""
        counts = count()
        return array("i", map(self._numbers.__getitem__, counts)), array("d", counts.values())

    def question_terms(self, entry: Entry, locale: str) -> tuple[list[str], list[str]]:
        """The terms of a question of the topic ``of`` counts (``question_terms``)."""
        return question_terms(entry, locale)

    def done(self) -> None:
        """Every topic is numbered."""


def _topic_counts(
    bank: Bank,
    locale: str,
    key: tuple[str, str, str],
    here: list[Entry],
    tags: list[str],
    each: QuestionTerms = question_terms,
) -> dict[str, float]:
    """A topic's weighted term counts (``WEIGHTS``) in ``locale``, its questions' terms from
    ``each``."""
    field_key, spec_key, topic_key = key
    spec = bank.catalog.fields[field_key].specializations[spec_key]
    questions = [each(entry, locale) for entry in here]
    # Each term as often as twice its weight says (the weights are halves), counted in C, in
    # the order the terms first come (names, tags, the prompts, then the rest).
    found: Counter[str] = Counter()
    for weight, once in (
        (WEIGHTS["name"], terms(bank.name(spec.topics[topic_key].name, locale), locale)),
        (WEIGHTS["specialization"], terms(bank.name(spec.name, locale), locale)),
        (WEIGHTS["tag"], _terms_of([tag.replace("-", " ") for tag in tags], locale)),
        (WEIGHTS["prompt"], [term for prompt, _ in questions for term in prompt]),
        (WEIGHTS["rest"], [term for _, rest in questions for term in rest]),
    ):
        found.update(once * int(2 * weight))
    # a lone letter, digit run or CJK character tells topics apart poorly
    return {t: n / 2 for t, n in found.items() if len(t) >= 2 and not t.isdigit()}


def topic_profiles(
    bank: Bank, locale: str, counted: TopicCounts = _uncached, numbered: Terms | None = None
) -> dict[str, Any]:
    """The match data of ``locale``: the seniorities, the fields and every topic's profile,
    in catalog order; the topics' counts numbered by ``numbered`` (a new ``Terms``: none)."""
    catalog, name = bank.catalog, bank.name
    numbered = Terms() if numbered is None else numbered
    heads: list[dict[str, Any]] = []
    counts_of: list[Numbered] = []
    for key in bank.topics():
        field_key, spec_key, topic_key = key
        spec = catalog.fields[field_key].specializations[spec_key]
        here = [e for e in bank.by_topic[field_key, topic_key] if locale in e.locales]
        tags = sorted({tag for e in here for tag in e.question.tags})
        count = partial(_topic_counts, bank, locale, key, here, tags, numbered.question_terms)
        counts_of.append(numbered.of(key, here, partial(counted, locale, key, here, count)))
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
        heads.append(head)
    names = numbered.names
    excluded = _not_terms(bank, locale)
    never = [i for i, term in enumerate(names) if term in excluded]
    topics = [
        {**head, "terms": best}
        for head, best in zip(heads, _best(counts_of, names, never), strict=True)
    ]
    numbered.done()
    return {
        "locale": locale,
        "stem": stemmer_spec(locale),
        "strong": _strong(topics, locale),
        "seniorities": [[k, name(v, locale)] for k, v in catalog.seniorities.items()],
        "level_names": {k: sorted(set(v.values())) for k, v in catalog.seniorities.items()},
        "fields": [[k, name(f.name, locale)] for k, f in catalog.fields.items()],
        "topics": topics,
    }


def _strong(topics: list[dict[str, Any]], locale: str) -> int:
    """The score from which a topic is a strong match for a posting: half of what a posting
    naming a topic (each term of its name once) scores, the median over the bank's topics
    (``STRONG_SHARE``). On the profiles' one scale, so the page's threshold follows the
    bank: a posting that names no topic about as clearly as its name does is no match."""
    named = sorted(_score(topic["terms"], topic["name"], locale) for topic in topics)
    if not named:
        return 1
    middle = len(named) // 2
    median = named[middle] if len(named) % 2 else (named[middle - 1] + named[middle]) / 2
    return max(1, round(STRONG_SHARE * median))


def _score(weights: dict[str, int], text: str, locale: str) -> float:
    """What ``text`` scores against a topic's term ``weights`` as the page scores a posting
    (assets/match.js, each distinct word once): a word its stem's weight; a CJK stretch of
    neighbouring pairs the topic has its best pair's, a quarter more per further pair."""
    found: dict[str, float] = {}
    for piece in words(text, locale):
        if not is_cjk(piece):
            (term,) = terms(piece, locale) or ("",)
            found[piece] = weights.get(term, 0)
            continue
        run: list[int] = []
        for pair in [*map(str.__add__, piece, piece[1:]), ""]:  # "" ends the last stretch
            if weights.get(pair):
                run.append(weights[pair])
            elif run:
                found[f"{piece}{len(found)}"] = max(run) * (1 + 0.25 * (len(run) - 1))
                run = []
    return sum(found.values())


def _not_terms(bank: Bank, locale: str) -> frozenset[str]:
    """What is never a topic's term in ``locale``: its stop words, except the bank's own
    words (its tags, and words of its names with ``OWN_LETTERS`` letters or more: "index"
    of "Indexing and query plans" stays a term, "and" does not), and every locale's words
    of a seniority."""
    catalog = bank.catalog
    names = [field.name for field in catalog.fields.values()]
    for field in catalog.fields.values():
        for spec in field.specializations.values():
            names += [spec.name, *(topic.name for topic in spec.topics.values())]
    own: set[str] = set()
    for name in names:
        for word in words(bank.name(name, locale), locale):
            if len(word) >= OWN_LETTERS or (is_cjk(word) and len(word) > 1):
                own.update(terms(word, locale))
    for tag in {tag for entry in bank.entries for tag in entry.question.tags}:
        own.update(terms(tag.replace("-", " "), locale))
    levels = [SENIORITY_WORDS, *catalog.seniorities]
    levels += [text for names in catalog.seniorities.values() for text in names.values()]
    seniority = {term for text in levels for term in terms(text, locale)}
    return frozenset((stop_terms(locale) - own) | seniority)


def _best(counts: list[Numbered], names: list[str], never: list[int]) -> Iterator[dict[str, int]]:
    """Each topic's ``TOP`` terms with their weights 1..100, from its counts (term numbers
    into ``names``, weighted counts): a term's weight is ``log(1 + count)`` times its rarity,
    ``log((topics + 1) / topics having it)``, on one scale for every topic (the bank's best
    weighs 100); the terms numbered in ``never`` weigh nothing; ties go to the term first in
    code point order. Weighed in numpy, with the same float operations as one term at a
    time (a logarithm per distinct count, by ``math``)."""
    import numpy as np  # (imported on the first match data, as the validator does)

    held = [np.frombuffer(which, dtype=np.int32) for which, _ in counts]
    spread = np.bincount(np.concatenate([np.zeros(0, np.int32), *held]), minlength=len(names))
    rarity = np.array([math.log((len(counts) + 1) / max(1, n)) for n in range(len(counts) + 1)])
    allowed = np.ones(len(names), dtype=bool)
    allowed[np.array(never, dtype=np.int64)] = False
    chosen_of: list[list[tuple[str, float]]] = []
    for which, (_, how_often) in zip(held, counts, strict=True):
        values, at = np.unique(np.frombuffer(how_often, dtype=np.float64), return_inverse=True)
        damped = np.array([math.log1p(value) for value in values.tolist()], dtype=np.float64)
        weight = damped[at] * rarity[spread[which]]
        keep = allowed[which] & (weight > 0)
        which, weight = which[keep], weight[keep]
        if len(weight) > TOP:  # the TOP best and every term tied with the last of them
            chosen = np.flatnonzero(weight >= np.partition(weight, len(weight) - TOP)[-TOP])
            which, weight = which[chosen], weight[chosen]
        scored = zip(map(names.__getitem__, which.tolist()), weight.tolist(), strict=True)
        chosen_of.append(sorted(scored, key=lambda item: (-item[1], item[0]))[:TOP])
    top = max((best[0][1] for best in chosen_of if best), default=1.0)
    for best in chosen_of:
        yield {t: round(100 * w / top) for t, w in best if round(100 * w / top) >= 1}


def match_file(
    bank: Bank, locale: str, counted: TopicCounts = _uncached, numbered: Terms | None = None
) -> bytes:
    """``topic_profiles`` as the bytes of ``match_path(locale)`` (deterministic)."""
    with gc_paused():  # (millions of objects made, no cycle among them)
        data = topic_profiles(bank, locale, counted, numbered)
    return compact(data)
