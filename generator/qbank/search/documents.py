"""Search documents: one per question and locale, straight from the bank (no built page read).

A document holds what finds the question (each term with its weight, ``levels``), what its
result shows (the prompt; options and explanation for an excerpt around a match) and its
filters (field, seniority, difficulty). The answer line is never in it: a result may show an
option or the explanation, never which option is right.

Weights are BM25-like and fixed when the document is made, so that an edit never changes
another question's postings: a term's count in the prompt counts 3 times, in an option 2
times, elsewhere (explanation, model answer, the topic's name, the tags) once; that count is
saturated (``K1``) and normalised by the document's length against a fixed ``AVERAGE``
(``B``), then cut into ``LEVELS - 1`` steps. The browser
multiplies the step by the term's rarity (from its number of postings) at query time.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from qbank.bank.loaded import Bank, Entry
from qbank.bank.markup import _prose_and_fences, prose_html, to_html
from qbank.search.cjkpostings import code_points, is_cjk_point
from qbank.search.tokenize import CJK, terms

SNIPPET = 240
"""Columns of the prompt kept for the result list (``clip``)."""
MORE = 300
"""Columns of the options, explanation and model answer kept for excerpts."""
CODE_OPEN, CODE_CLOSE = "\ue000", "\ue001"
"""Marks around code in a shown text (search.js shows it in monospace)."""
WEIGHTS = (3, 2, 1)
"""How much a term counts in the prompt, in an option, in the explanation or model answer."""
K1, B, AVERAGE = 1.2, 0.5, 60
LEVELS = 8
"""Postings carry a weight step 1..LEVELS-1 (``code = 8 * question + step``)."""

_TAG = re.compile(r"<[^>]+>")
_BLOCK = re.compile(
    r"</?(?:p|div|li|ol|ul|pre|br|hr|tr|td|th|table|thead|tbody|h\d|blockquote|dl|dt|dd|"
    r"details|summary|figure|figcaption|math)\b[^>]*>",
    re.IGNORECASE,
)
_WIDE = re.compile(f"[{CJK}]")
_CODE = re.compile(r"<code\b[^>]*>(.*?)</code>", re.DOTALL | re.IGNORECASE)


def plain(fragment: str) -> str:
    """The text of an HTML fragment for display: blocks apart, inline markup dropped without
    a space (highlighted code stays ``console.log(i)``), code between ``CODE_OPEN`` and
    ``CODE_CLOSE``, whitespace collapsed."""
    out = []
    for number, part in enumerate(_CODE.split(fragment)):
        if number % 2:
            code = " ".join(html.unescape(_TAG.sub("", part)).split())
            out.append(f"{CODE_OPEN}{code}{CODE_CLOSE}" if code else "")
        else:
            out.append(html.unescape(_TAG.sub("", _BLOCK.sub(" ", part))))
    return " ".join("".join(out).split())


def text_of(markdown: str) -> str:
    """The shown text of a question text: ``plain(to_html(markdown))``, made without
    converting the common shapes (``tests/test_search_text.py`` checks they agree). Plain
    prose is its own text; prose and fenced code blocks (``to_html``'s split path) are the
    prose and each block's lines, with whitespace collapsed; the rest is converted."""
    if prose_html(markdown) is not None:
        return " ".join(markdown.split())
    parts = _prose_and_fences(markdown)
    if parts is None:
        return plain(to_html(markdown))
    shown = []
    for is_fence, part in parts:
        if not is_fence:
            if prose_html(part) is None:
                return plain(to_html(markdown))
            shown.append(" ".join(part.split()))
            continue
        lines = part.split("\n")[1:-1]  # between the fence's opening and closing lines
        if not all(line.replace("\t", " ").isprintable() for line in lines):
            return plain(to_html(markdown))  # (control characters: as the converter says)
        code = " ".join(" ".join(lines).split())
        shown.append(f"{CODE_OPEN}{code}{CODE_CLOSE}" if code else "")
    return " ".join(" ".join(shown).split())


def clip(text: str, size: int) -> str:
    """``text`` cut to ``size`` columns (a CJK character takes two, as it says about as much
    as a short word; an ellipsis when cut): the characters whose columns all fit, unless
    every one does."""
    if len(text) <= size // 2:
        return text
    head = text[: size + 1]  # every character takes a column at least
    fits = size
    if _WIDE.search(head) is not None:  # how many characters end at column size or before
        columns = np.cumsum(is_cjk_point(code_points(head)) + 1)
        fits = int(np.searchsorted(columns, size, "right"))
    return text if fits >= len(text) else text[:fits].rstrip() + "…"


def levels(fields: tuple[list[str], ...], locale: str) -> tuple[tuple[str, ...], bytes]:
    """Each term of the texts of ``fields`` (prompt, options, the rest) in the order they
    first occur (the index files sort terms themselves), and their weight steps."""
    found: list[str] = []  # every term, as often as its field's weight says (counted in C)
    length = 0
    for weight, texts in zip(WEIGHTS, fields, strict=True):
        once: list[str] = []
        for text in texts:
            once += terms(text, locale)
        length += len(once)
        found += once * weight
    weighted = Counter(found)
    norm = K1 * (1 - B + B * length / AVERAGE)
    top = LEVELS - 1
    steps = {}  # the step of each weighted count (few distinct counts per question)
    for count in set(weighted.values()):
        steps[count] = max(1, min(top, round(count / (count + norm) * top)))
    return tuple(weighted), bytes(map(steps.__getitem__, weighted.values()))


@dataclass(frozen=True)
class SearchDoc:
    """One searchable question in one locale."""

    url: str  # site-root URL of the question's anchor on its topic page
    topic: str
    prompt: str  # shown in the result list (plain text, code marked)
    more: str  # options, explanation, model answer: excerpts around a match
    filters: tuple[tuple[str, str], ...]  # (filter, value): field, seniority, difficulty
    words: tuple[str, ...]  # its terms, in order of first occurrence, each once
    steps: bytes  # each term's weight step (1 to LEVELS - 1), a byte a term

    @property
    def terms(self) -> tuple[tuple[str, int], ...]:
        """``(term, weight step)`` of each term, in order (made on each call: the index
        reads ``words`` and ``steps``, which need no object a term)."""
        return tuple(zip(self.words, self.steps, strict=True))


def question_doc(bank: Bank, entry: Entry, locale: str, url: str) -> SearchDoc:
    """The search document of one question in one locale."""
    q = entry.question
    catalog = bank.catalog
    topic = catalog.fields[entry.field].specializations[entry.specialization].topics[entry.topic]
    filters = [("field", entry.field), *(("seniority", s) for s in entry.seniorities)]
    if q.difficulty:
        filters.append(("difficulty", str(q.difficulty)))
    prompt = [text_of(q.prompt[locale])]
    options = [text_of(option[locale]) for option in (q.options or {}).values()]
    rest = [
        text_of(texts[locale])
        for texts in (q.explanation, q.assesses, q.model_answer)
        if texts and locale in texts
    ]
    topic_name = bank.name(topic.name, locale)
    # The topic's name and the tags find a question too (a generic "What does this print?"
    # under "Closures and scope"), as the rest do; they are not shown in its excerpt.
    named = [topic_name, *(tag.replace("-", " ") for tag in q.tags)]
    return SearchDoc(
        f"{url}#q-{entry.id}",
        topic_name,
        clip(prompt[0], SNIPPET),
        clip(" · ".join(options + rest), MORE),
        tuple(filters),
        *levels((prompt, options, rest + named), locale),
    )


def iter_docs(
    bank: Bank, locale: str, topic_url: Callable[[str, Entry], str]
) -> Iterator[SearchDoc]:
    """One document per question of ``bank`` in ``locale``, in bank order, made as they are
    consumed (an index of 30,000 questions never holds all their terms at once);
    ``topic_url(locale, entry)`` is the site-root URL of the entry's topic page
    (``/en/backend/indexing/``)."""
    for entry in bank.entries:
        if locale in entry.locales:
            yield question_doc(bank, entry, locale, topic_url(locale, entry))


def expected_cost(bank: Bank, locale: str, sample: int = 16) -> int:
    """About how much making ``locale``'s index costs, to order the work (not exact): the
    terms of every ``sample``-th question's prompt and explanation, a word of a spaced
    script one term and a CJK character two (itself and a pair), times ``sample``."""
    cost = 0
    for entry in bank.entries[::sample]:
        if locale not in entry.locales:
            continue
        q = entry.question
        for texts in (q.prompt, q.explanation):
            if texts and locale in texts:
                text = texts[locale]
                wide = len(_WIDE.findall(text))
                cost += 2 * wide + (len(text) - wide) // 6
    return cost * sample


def bank_docs(bank: Bank, locale: str, topic_url: Callable[[str, Entry], str]) -> list[SearchDoc]:
    """``iter_docs`` as a list."""
    return list(iter_docs(bank, locale, topic_url))
