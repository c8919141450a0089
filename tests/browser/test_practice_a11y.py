"""The mock interview, and axe-core on a topic page and the practice page (light and dark)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from support.axe import scheme as set_scheme
from support.axe import serious

pytestmark = pytest.mark.browser

PRACTICE = "en/ml-engineer/practice/"
TOPIC = "en/ml-engineer/throughput/"


def run_session(page: Any, level: str, skip_first: bool = True) -> int:
    """Start a session for ``level`` and answer (or skip) every question; return how many."""
    page.locator("select.qb-practice-level").select_option(level)
    page.locator(".qb-start").click()
    card = page.locator(".qb-practice-q")
    expect(card).to_be_visible()
    total = int(re.findall(r"\d+", page.locator(".qb-practice-pos").inner_text())[-1])
    for i in range(total):
        expect(page.locator(".qb-practice-pos")).to_contain_text(f"{i + 1} of {total}")
        if i == 0 and skip_first:
            page.locator(".qb-practice-skip").click()
        elif card.get_attribute("data-kind") == "choice":
            card.locator(".qb-option").first.locator(".qb-option-text").click()
            page.locator(".qb-practice-answer").click()
        else:
            page.locator(".qb-show-model").click()
            expect(card.locator(".qb-model-answer")).to_be_visible()
            card.locator('.qb-rate-btn[data-rate="know"]').click()
    return total


def expected_ids(content: Path, field: str, level: str, locale: str) -> set[str]:
    from qbank.bank.load import load_bank

    bank = load_bank(content)
    return {
        e.id for e in bank.field_entries(field) if level in e.seniorities and locale in e.locales
    }


@pytest.mark.parametrize("level", ["mid", "senior"])
def test_practice_session_runs_to_the_end(page: Any, content_dir: Path, level: str) -> None:
    page.goto(PRACTICE)
    total = run_session(page, level)
    wanted = expected_ids(content_dir, "ml-engineer", level, "en")
    assert total == min(20, len(wanted))
    expect(page.locator(".qb-summary h2")).to_have_text(re.compile(rf"Score: [\d.]+ / {total}"))
    expect(page.locator(".qb-summary-time")).to_have_text(re.compile(r"Time: \d\d:\d\d"))
    items = page.locator(".qb-review-item")
    expect(items).to_have_count(total)
    drawn = {items.nth(i).get_attribute("data-id") for i in range(total)}
    assert drawn <= wanted
    assert len(drawn) == total
    assert items.first.get_attribute("data-status") == "skipped"
    for i in range(total):
        item = items.nth(i)
        assert (item.get_attribute("data-topic") or "").startswith("ml-engineer/")
        href = item.locator("a.qb-permalink").get_attribute("href") or ""
        assert href.endswith("#q-" + (item.get_attribute("data-id") or ""))
    choice = page.locator(".qb-review-item:has(.qb-correct)")
    if choice.count():
        expect(choice.first.locator(".qb-correct")).to_contain_text("Right answer:")
        expect(choice.first.locator(".qb-explanation")).to_be_visible()
    # the permalink opens the question on its topic page
    link = items.nth(0).locator("a.qb-permalink")
    target = link.get_attribute("href") or ""
    link.click()
    page.wait_for_url(re.compile(re.escape(target.split("#")[0])))
    expect(page.locator(f"#{target.split('#')[1]}")).to_be_visible()
    # the session is in the history
    page.goto(PRACTICE)
    history = json.loads(page.evaluate("localStorage.getItem('qbank:v1:practice')"))
    assert history[-1]["level"] == level
    assert history[-1]["total"] == total
    expect(page.locator(".qb-history li")).to_have_count(1)


def test_practice_records_progress(page: Any) -> None:
    page.goto(PRACTICE)
    run_session(page, "junior", skip_first=False)
    progress = json.loads(page.evaluate("localStorage.getItem('qbank:v1:progress')"))
    assert progress, "answers in a practice session count as progress"
    assert all(r["t"].startswith("ml-engineer/") for r in progress.values())


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_axe_topic_page(page: Any, scheme: str) -> None:
    page.goto(TOPIC)
    set_scheme(page, scheme)
    # cover the answered states too: a wrong pick, a right pick, an open model answer
    page.locator('#q-01a05d13-8d21-739a-baa2-7dab67be4001 .qb-option[data-key="a"]').click()
    page.locator('#q-01a05d13-8d21-739a-baa2-7dab67be4002 .qb-option[data-key="a"]').click()
    page.locator("#q-01a05d13-8d21-739a-baa2-7dab67be4003 details.qb-answer > summary").click()
    assert serious(page) == []


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_axe_practice_page(page: Any, scheme: str) -> None:
    page.goto(PRACTICE)
    set_scheme(page, scheme)
    assert serious(page) == []
    page.locator("select.qb-practice-level").select_option("mid")
    page.locator(".qb-start").click()
    expect(page.locator(".qb-practice-q")).to_be_visible()
    assert serious(page) == []
    page.goto(PRACTICE)
    set_scheme(page, scheme)
    run_session(page, "mid")
    expect(page.locator(".qb-summary")).to_be_visible()
    assert serious(page) == []
