"""A printed topic (issue 33, point 5): Chromium's own PDF of a 25-question page of the messy
bank, read back with pypdf. Each heading is on the page where its question starts, the
answers and explanations are printed, the screen-only controls are not, and the page count
stays near two or three questions a page (it was 26 A4 pages, each heading alone at the
foot of a page)."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from pypdf import PdfReader

pytestmark = pytest.mark.browser

TOPIC = "en/javascript/closures/"  # the first of the topic's parts: 25 questions
MAX_PAGES = 13  # about two questions a page at the least


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_a_printed_topic_keeps_each_heading_with_its_question(messy_tab: Any) -> None:
    page = messy_tab
    page.goto(TOPIC)
    page.wait_for_selector(".qb-q[data-qb-ready] .qb-star")  # the page as a reader has it
    questions = page.evaluate(
        """() => [...document.querySelectorAll('.qb-q')].map(q => {
          const heading = document.getElementById('h-' + q.dataset.qid);
          const prompt = q.querySelector('.qb-prompt');
          return {
            heading: heading.textContent.replace(/¶\\s*$/, ''),
            start: (prompt || q.querySelector('.qb-option-text')).textContent,
            explanation: q.querySelector('.qb-explanation').textContent,
          };
        })"""
    )
    assert len(questions) == 25
    pdf = PdfReader(io.BytesIO(page.pdf(format="A4")))
    texts = [squash(sheet.extract_text()) for sheet in pdf.pages]
    assert 5 <= len(texts) <= MAX_PAGES, f"{len(texts)} A4 pages for 25 questions"
    assert all(texts), "a blank page"

    def sheet_of(text: str, length: int = 40) -> int:
        found = [n for n, sheet in enumerate(texts) if squash(text)[:length] in sheet]
        assert found, f"not printed: {text[:60]!r}"
        return found[0]

    for question in questions:
        assert sheet_of(question["heading"], 200) == sheet_of(question["start"]), (
            f"{question['heading']!r} is printed on the page before its question"
        )
        sheet_of(question["explanation"])  # the answers are printed, not behind a button
    everything = "\n".join(sheet.extract_text() for sheet in pdf.pages)
    for screen_only in ("Save", "My note", "Show answer", "Reset progress", "Permalink"):
        assert screen_only not in everything
