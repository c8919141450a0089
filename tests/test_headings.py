"""Question headings (qbank.site.headings): questions that share a generic title are told
apart by words of their own prompts or a number, never by their file's slug (issue 33,
point 6: 38 headings of a real bank ended in "— q001")."""

from __future__ import annotations

from pathlib import Path

from tests.fixtures.messy_bank import write_messy_bank

from qbank.bank.load import load_bank
from qbank.bank.loaded import Entry
from qbank.bank.markup import to_html
from qbank.site.headings import Heading, first_block, topic_headings
from qbank.site.render import md_escape


def headings(entries: list[Entry], locale: str = "en") -> dict[str, Heading]:
    return topic_headings(entries, locale, lambda md: first_block(to_html(md)), md_escape)


def test_no_heading_of_the_messy_bank_names_its_file(tmp_path: Path) -> None:
    bank = load_bank(write_messy_bank(tmp_path / "content"))
    told = 0
    for field, _, topic in bank.topics():
        for locale in bank.catalog.locales:
            here = [e for e in bank.by_topic[field, topic] if locale in e.locales]
            found = headings(here, locale)
            texts = [found[e.id].text for e in here]
            for entry in here:
                assert entry.slug not in found[entry.id].text, found[entry.id].text
                assert entry.slug not in found[entry.id].markdown
            # each title (without its number) is a different one, so the table of contents
            # tells them apart
            titles = [text.split(". ", 1)[1] for text in texts]
            assert len(set(titles)) == len(titles), sorted(t for t in titles if titles.count(t) > 1)
            told += sum(" — " in text for text in texts)
    assert told > 200  # (the 250 "What's the output?" questions, in three languages)


class _Question:
    def __init__(self, prompt: str) -> None:
        self.prompt = {"en": prompt}


class _Entry:
    def __init__(self, n: int, prompt: str) -> None:
        self.id = f"q{n}"
        self.slug = f"q{n:03d}"
        self.question = _Question(prompt)


def entries(*prompts: str) -> list[Entry]:
    return [_Entry(n, p) for n, p in enumerate(prompts, 1)]  # type: ignore[misc]


def texts(*prompts: str) -> list[str]:
    found = headings(entries(*prompts))
    return [found[f"q{n}"].text for n in range(1, len(prompts) + 1)]


def test_the_first_line_of_code_no_other_question_has_tells_them_apart() -> None:
    same_start = "What's the output?\n\n```js\nconst a = [1, 2];\nconsole.log(a.{});\n```"
    assert texts(
        same_start.replace("{}", "length"), same_start.replace("{}", "at(-1)"), "Other?"
    ) == [
        "1. What's the output? — console.log(a.length);",
        "2. What's the output? — console.log(a.at(-1));",
        "3. Other?",
    ]


def test_different_first_lines_of_code_are_used_as_before() -> None:
    assert texts(
        "What's the output?\n\n```py\nprint(1)\n```", "What's the output?\n\n```py\nprint(2)\n```"
    ) == ["1. What's the output? — print(1)", "2. What's the output? — print(2)"]


def test_questions_alike_but_for_their_options_are_numbered() -> None:
    code = "What's the output?\n\n```js\nlet x = 1;\n```"
    assert texts(code, code, "Plain?") == [
        "1. What's the output? — let x = 1; (1)",
        "2. What's the output? — let x = 1; (2)",
        "3. Plain?",
    ]
    assert texts("Which one?", "Which one?") == ["1. Which one? (1)", "2. Which one? (2)"]


def test_text_after_the_first_paragraph_tells_them_apart_without_code() -> None:
    assert texts(
        "Explain this.\n\nA **closure** over `i`.", "Explain this.\n\nA [loop](x.md)."
    ) == [
        "1. Explain this. — A closure over i.",
        "2. Explain this. — A loop.",
    ]
