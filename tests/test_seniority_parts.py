"""A big seniority page in parts, built for real (issues 35, 30): a field of 2,000 questions
all at one level builds its seniority page as an index in numbered parts of
``level_page_size(page_size)`` links, each to the question's anchor on its topic part, and
the built site verifies (every question once on its topic page, every link and anchor
resolves)."""

from __future__ import annotations

from pathlib import Path

from selectolax.lexbor import LexborHTMLParser
from sitebuild import build_site

from qbank.bank.load import load_bank
from qbank.site.parts import DEFAULT_PAGE_SIZE, level_page_size, part_count, question_folder
from qbank.tools.verify import verify_site

QUESTIONS = 2_000
TOPICS = 4
CATALOG = """\
title: {en: One Level}
locales: [en]
seniorities: {junior: {en: Junior}, mid: {en: Mid-level}, senior: {en: Senior}}
fields:
  web:
    name: {en: Web}
    specializations:
      all:
        name: {en: All}
        topics:
"""


def write_single_level_field(content: Path) -> None:
    catalog = CATALOG + "".join(
        f"          topic-{n}:\n            name: {{en: Topic {n}}}\n" for n in range(TOPICS)
    )
    content.mkdir()
    (content / "catalog.yaml").write_text(catalog, "utf-8")
    for n in range(QUESTIONS):
        folder = content / "web" / f"topic-{n % TOPICS}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"q-{n:04d}.yaml").write_text(
            f"id: 01a05d13-8d21-739a-baa2-{n:012d}\ndifficulty: 2\nseniority: mid\n"
            f"prompt: {{en: 'Question number {n} asks which of two things holds?'}}\n"
            "options:\n  a: {en: The first}\n  b: {en: The second}\n"
            f"answer: {'ab'[n % 2]}\nexplanation: {{en: Because of {n}.}}\n",
            "utf-8",
        )


def test_a_single_level_field_builds_its_seniority_page_in_parts(tmp_path: Path) -> None:
    content = tmp_path / "content"
    write_single_level_field(content)
    site = build_site(tmp_path, content)
    size = level_page_size(DEFAULT_PAGE_SIZE)
    parts = part_count(QUESTIONS, size)
    assert parts == QUESTIONS // size > 1
    folders = sorted(p.parent.name for p in (site / "en/web").glob("level-mid*/index.html"))
    assert len(folders) == parts
    bank = load_bank(content)
    seen: list[str] = []
    for n in range(1, parts + 1):
        folder = "level-mid" if n == 1 else f"level-mid--{n}"
        tree = LexborHTMLParser((site / "en/web" / folder / "index.html").read_text("utf-8"))
        assert tree.css("div.qb-q") == []  # an index: no question is copied here
        links = tree.css("ul.qb-level-list > li > a")
        assert 0 < len(links) <= size
        for link in links:
            href = link.attributes.get("href") or ""
            target, _, anchor = href.partition("#q-")
            entry = bank.by_id[anchor]
            assert target == f"../{question_folder(bank, entry, 'en', DEFAULT_PAGE_SIZE)}/"
            seen.append(anchor)
        assert tree.css_first(".qb-pages-top") is not None
        assert tree.css_first("h2 a") is not None  # grouped by topic
    expected = [e.id for e in bank.field_entries("web")]
    assert seen == expected
    assert verify_site(site, bank) == []
