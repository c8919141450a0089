# ruff: noqa: RUF001  (Chinese expectations)
"""The review queue (assets/review.js) in real Chromium: answers on a topic page give each
question an FSRS-6 schedule; with Playwright's clock moved on days later, the home and field
pages count what is due, the review page runs the session in the practice interface, the
schedule moves on, reviews are stored apart from the progress figures, and "my misses" can be
reviewed by topic and seniority. Also on the messy bank (partial translations, open
questions), in Chinese, with JavaScript off, and loaded only where it is used."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from fixtures.messy_bank import qid
from playwright.sync_api import expect
from support.axe import scheme as _scheme
from support.axe import serious as _serious
from support.review import DAY, START, due_line, later, pick, review_session, stored, today

pytestmark = pytest.mark.browser

SINGLE = "01a05d13-8d21-739a-baa2-7dab67be4001"  # throughput, answer b, mid
JUNIOR = "01a05d13-8d21-739a-baa2-7dab67be4002"  # throughput, answer a, junior
TOPIC = "en/ml-engineer/throughput/"


@pytest.fixture
def clocked(page: Any) -> Any:
    """The small bank's page with Playwright's clock installed at START."""
    page.clock.install(time=START)
    return page


def test_answers_come_due_and_a_review_session_moves_the_schedule_on(clocked: Any) -> None:
    page = clocked
    page.goto(TOPIC)
    pick(page, SINGLE, "a")  # wrong (Again): stability 0.212, back tomorrow
    pick(page, JUNIOR, "a")  # right (Good): stability 2.3065, back in 2 days
    first = stored(page, "qbank:v1:progress")

    page.goto("en/")
    expect(due_line(page)).to_have_text("Nothing due today · next review tomorrow")
    expect(page.locator(".qb-due__misses")).to_have_text("Review my misses (1)")

    later(page, 1, "en/")
    expect(page.locator(".qb-due__count")).to_have_text("1 due today")
    later(page, 2, "en/ml-engineer/")
    expect(page.locator(".qb-due__count")).to_have_text("2 due today")
    page.goto("en/backend/")  # nothing answered in this field
    expect(page.locator(".qb-due")).to_be_hidden()

    page.goto("en/")
    expect(page.locator(".qb-due__count")).to_have_text("2 due today")
    page.locator(".qb-due__start").click()
    page.wait_for_url(re.compile(r"/en/review/$"))
    expect(page.locator(".qb-due__count")).to_have_text("2 due today")
    # the most overdue first; right now gives SINGLE 2 more days, wrong gives JUNIOR 1
    assert review_session(page, {SINGLE: "b", JUNIOR: "b"}) == [SINGLE, JUNIOR]
    expect(page.locator(".qb-summary h2")).to_have_text("Score: 1 / 2")
    expect(due_line(page)).to_have_text("Nothing due today · next review tomorrow")
    expect(page.locator(".qb-due__missed")).to_have_text("Missed last time: 1")

    reviews = stored(page, "qbank:v1:review")
    now = today(page)
    assert {k: (v["due"] - now, v["r"], v["n"], v["t"]) for k, v in reviews.items()} == {
        SINGLE: (2, 1, 1, "ml-engineer/throughput"),
        JUNIOR: (1, 0, 1, "ml-engineer/throughput"),
    }
    # FSRS-6's memory state (tests/test_fsrs_parity.py checks the numbers against py-fsrs)
    assert reviews[JUNIOR]["S"] < reviews[SINGLE]["S"]
    assert reviews[JUNIOR]["l"] == 1
    day2 = (START + 2 * DAY).timestamp() * 1000  # the clock runs on from there
    assert all(day2 <= v["ts"] < day2 + 3_600_000 for v in reviews.values())
    # reviews are recorded apart: the first attempts still make the progress figures
    assert stored(page, "qbank:v1:progress") == first

    later(page, 3, "en/")  # JUNIOR is back; SINGLE waits until day 4
    expect(page.locator(".qb-due__count")).to_have_text("1 due today")
    later(page, 4, "en/ml-engineer/")
    expect(page.locator(".qb-due__count")).to_have_text("2 due today")

    # "my misses" of one topic: the latest answer counts, so SINGLE (right in review) is out
    page.goto("en/review/?topic=ml-engineer/throughput&misses=1")
    expect(page.locator(".qb-review-field")).to_have_value("ml-engineer")
    expect(page.locator(".qb-practice-misses")).to_be_checked()
    assert review_session(page, {JUNIOR: "a"}) == [JUNIOR]
    assert stored(page, "qbank:v1:review")[JUNIOR]["due"] - today(page) == 3

    # a seniority whose questions are not the missed ones: nothing to draw, said so
    page.goto("en/review/?level=senior")
    page.locator(".qb-start").click()
    expect(page.locator(".qb-practice > .qb-feedback")).to_have_text(
        re.compile("not available in this language or at this seniority")
    )


def test_a_retry_on_a_topic_page_after_a_review_moves_the_schedule(clocked: Any) -> None:
    page = clocked
    page.goto(TOPIC)
    pick(page, SINGLE, "b")  # right: 2 days
    later(page, 2, "en/review/")
    assert review_session(page, {SINGLE: "b"}) == [SINGLE]  # right again: 11 days
    later(page, 5, "en/")
    expect(due_line(page)).to_have_text("Nothing due today · next review in 8 days")
    later(page, 5, TOPIC)  # another day's retry on the topic page, wrong: a lapse, 1 day
    pick(page, SINGLE, "a")
    assert stored(page, "qbank:v1:progress")[SINGLE]["rr"] == 0
    later(page, 6, "en/")
    expect(page.locator(".qb-due__count")).to_have_text("1 due today")


def test_chinese_strings_and_no_due_box_without_javascript(
    browser: Any, server: str, clocked: Any
) -> None:
    page = clocked
    page.goto("zh/ml-engineer/throughput/")
    pick(page, SINGLE, "a")
    later(page, 1, "zh/")
    expect(page.locator(".qb-due__count")).to_have_text("今天待复习：1 道")
    expect(page.locator(".qb-due__start")).to_have_text("开始复习")

    context = browser.new_context(base_url=server, java_script_enabled=False)
    try:
        off = context.new_page()
        for path in ("en/", "en/ml-engineer/", "en/review/"):
            off.goto(path)
            expect(off.locator(".qb-due")).to_be_hidden()
        expect(off.locator(".qb-review-pick")).to_be_hidden()
        notice = off.locator(".qb-practice noscript p")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text("The review queue needs JavaScript.")
    finally:
        context.close()


def test_review_code_loads_only_where_it_is_used(page: Any) -> None:
    def loaded(path: str) -> bool:
        page.requests.clear()
        page.goto(path)
        page.wait_for_load_state("networkidle")
        return any(url.endswith("/assets/review.js") for url in page.requests)

    assert not loaded(TOPIC)
    assert not loaded("en/ml-engineer/practice/")
    assert loaded("en/")
    assert loaded("en/ml-engineer/")
    assert loaded("en/review/")


def test_messy_bank_review_across_fields_locales_and_open_questions(messy_tab: Any) -> None:
    page = messy_tab
    # 1: English only, right answer b; 3: also Turkish, right answer d ("abcd"[n % 4]); each
    # on the numbered page of the 250-question topic that holds it (the link sends it on)
    for n in (1, 3):
        page.goto(f"en/javascript/closures/#q-{qid(n)}")
        page.locator(f"#q-{qid(n)}").wait_for()
        pick(page, qid(n), "a")  # wrong
    page.goto("en/javascript/bundlers/")
    open_question = page.locator(f"#q-{qid(2002)}")
    open_question.locator("details.qb-answer > summary").click()
    open_question.locator('.qb-rate-btn[data-rate="no"]').click()
    page.goto("en/backend/transactions/")
    pick(page, qid(3001), "b")  # right

    later(page, 2, "en/")
    expect(page.locator(".qb-due__count")).to_have_text("4 due today")
    page.goto("en/javascript/")
    expect(page.locator(".qb-due__count")).to_have_text("3 due today")
    page.locator(".qb-due__start").click()
    page.wait_for_url(re.compile(r"/en/review/\?field=javascript$"))
    expect(page.locator(".qb-review-field")).to_have_value("javascript")
    seen = review_session(page, {qid(1): "a", qid(3): "d", qid(2002): "know"})
    assert sorted(seen) == sorted([qid(1), qid(3), qid(2002)])
    reviews = stored(page, "qbank:v1:review")
    assert reviews[qid(2002)]["s"] == "know"
    now = today(page)
    assert {n: reviews[qid(n)]["due"] - now for n in (1, 3, 2002)} == {1: 1, 3: 2, 2002: 2}

    # Turkish: only what exists in Turkish is drawn (1 is English only)
    later(page, 3, "tr/review/")
    expect(page.locator(".qb-due__count")).to_have_text("Bugün tekrar edilecek: 2")
    assert review_session(page, {qid(1): "d", qid(3001): "b"}) == [qid(3001)]
    expect(page.locator(".qb-due__elsewhere")).to_contain_text("1 tanesi bu dilde")
    assert stored(page, "qbank:v1:review")[qid(3001)]["due"] - today(page) == 14
    # Past sessions read in this page's language, the English one's "All" included
    past = page.locator(".qb-history li")
    expect(past).to_have_count(2)
    for text in past.all_inner_texts():
        assert " · Tümü · " in text, text
        assert "All" not in text, text


def test_today_turns_at_the_readers_midnight(browser: Any, server: str) -> None:
    shanghai = ZoneInfo("Asia/Shanghai")
    context = browser.new_context(base_url=server, timezone_id="Asia/Shanghai")
    try:
        page = context.new_page()
        page.clock.install(time=datetime(2026, 3, 2, 23, 30, tzinfo=shanghai))
        page.goto(TOPIC)
        pick(page, SINGLE, "a")  # a miss late in the evening (15:30 UTC)
        page.goto("en/")
        expect(due_line(page)).to_have_text("Nothing due today · next review tomorrow")
        # one hour later it is the next day in Shanghai (still the same day in UTC)
        page.clock.set_system_time(datetime(2026, 3, 3, 0, 30, tzinfo=shanghai))
        page.goto("en/")
        expect(page.locator(".qb-due__count")).to_have_text("1 due today")
    finally:
        context.close()


def test_unreadable_review_data_is_set_aside_not_lost(clocked: Any) -> None:
    page = clocked
    page.goto(TOPIC)
    page.evaluate("localStorage.setItem('qbank:v1:review', '{\"cut short')")
    pick(page, SINGLE, "a")
    later(page, 1, "en/review/")
    expect(page.locator(".qb-due__count")).to_have_text("1 due today")
    assert review_session(page, {SINGLE: "b"}) == [SINGLE]
    assert stored(page, "qbank:v1:review")[SINGLE]["due"] - today(page) == 2
    aside = page.evaluate(
        "Object.keys(localStorage).filter(k => k.startsWith('qbank:v1:review:damaged:'))"
    )
    assert len(aside) == 1
    assert page.evaluate(f"localStorage.getItem('{aside[0]}')") == '{"cut short'


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_axe_due_box_and_review_page(clocked: Any, scheme: str) -> None:
    page = clocked
    page.goto(TOPIC)
    pick(page, SINGLE, "a")
    pick(page, JUNIOR, "a")
    later(page, 2, "en/")
    _scheme(page, scheme)
    expect(page.locator(".qb-due__start")).to_be_visible()
    assert _serious(page) == []
    page.goto("en/review/")
    _scheme(page, scheme)
    assert _serious(page) == []
    page.locator(".qb-start").click()
    expect(page.locator(".qb-practice-q")).to_be_visible()
    assert _serious(page) == []


def test_a_review_session_checks_each_card_before_the_next(clocked: Any) -> None:
    """Each card says at once whether the reader knew it (issue 33, point 9: nothing until
    the summary): the options marked, right or wrong in words with the right answer, the
    explanation, when it comes back; the focus on "Next"; the card cannot be answered again."""
    page = clocked
    page.goto(TOPIC)
    pick(page, SINGLE, "a")
    pick(page, JUNIOR, "a")
    later(page, 2, "en/review/")
    page.locator(".qb-start").click()
    card = page.locator(f'.qb-practice-q[data-pid="{SINGLE}"]')
    expect(card).to_be_visible()
    expect(page.locator(".qb-practice-answer")).to_have_text("Check")
    card.locator('.qb-pick[data-key="c"]').click()
    page.locator(".qb-practice-answer").click()
    feedback = card.locator(".qb-review-feedback")
    expect(feedback).to_have_attribute("data-state", "wrong")
    expect(feedback).to_have_text("✗ Wrong. The right answer: b · next review tomorrow")
    expect(card.locator(".qb-option.qb-wrong")).to_have_attribute("data-key", "c")
    expect(card.locator(".qb-option.qb-missed")).to_have_attribute("data-key", "b")
    expect(card.locator(".qb-explanation")).to_be_visible()
    assert page.evaluate("document.activeElement.className") == "qb-review-next"
    card.locator('.qb-pick[data-key="b"]').click(force=True)  # checked: it stays as it was
    expect(card.locator(".qb-option.qb-right")).to_have_count(0)
    page.locator(".qb-review-next").focus()
    page.keyboard.press("Enter")  # Next
    card = page.locator(f'.qb-practice-q[data-pid="{JUNIOR}"]')
    card.locator('.qb-pick[data-key="a"]').click()
    page.locator(".qb-practice-answer").click()
    expect(card.locator(".qb-review-feedback")).to_have_text(
        re.compile(r"^✓ Right! · next review in \d+ days$")
    )
    expect(card.locator(".qb-option.qb-right")).to_have_attribute("data-key", "a")
    expect(page.locator(".qb-review-next")).to_have_text("Finish")
    page.locator(".qb-review-next").click()
    expect(page.locator(".qb-summary h2")).to_have_text("Score: 1 / 2")
