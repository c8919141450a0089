# ruff: noqa: RUF001  (Turkish and Chinese page text)
"""Issue 36 as a reader meets it, in real Chromium: the practice page's exam (a question list,
flags, nothing shown or stored before "Hand in", resumed after a reload, the score per topic
and the review), the session clock everyone can use (hidden, paused, extended, turned off,
ended early, handed in when the time is up, the choice remembered, the time left announced at
a few moments only, Start landing on the first question), hints and peeks on topic pages in
three languages (FSRS grades: Hard after a hint, Again after a peek), on a phone and a
desktop, in light and dark, with axe."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from fixtures.messy_bank import qid
from playwright.sync_api import expect
from support.axe import scheme as _scheme
from support.axe import serious as _serious
from support.review import today

pytestmark = pytest.mark.browser

PRACTICE = "en/ml-engineer/practice/"
START = datetime(2026, 3, 2, 10, 0, 0)
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def stored(page: Any, key: str) -> Any:
    raw = page.evaluate(f"localStorage.getItem('{key}')")
    return json.loads(raw) if raw else None


def begin(page: Any, *, mode: str = "interview", count: int = 3, limit: int = 0) -> None:
    page.locator("select.qb-practice-level").select_option("mid")
    page.locator(".qb-practice-count").fill(str(count))
    page.locator(".qb-practice-mode").select_option(mode)
    page.locator(".qb-practice-limit").fill(str(limit))
    page.locator(".qb-start").click()
    expect(page.locator(".qb-practice-q")).to_be_visible()


def answer_current(page: Any) -> None:
    """Pick the first option of a choice card or rate an open one "know"."""
    card = page.locator(".qb-practice-q")
    if card.get_attribute("data-kind") == "choice":
        card.locator(".qb-option").first.locator(".qb-option-text").click()
    else:
        if page.locator(".qb-show-model").count():
            page.locator(".qb-show-model").click()
        card.locator('.qb-rate-btn[data-rate="know"]').click()


@pytest.fixture(params=["phone", "desktop"])
def sized(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Any]:
    context = browser.new_context(
        base_url=server, viewport=PHONE if request.param == "phone" else DESKTOP
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    yield page
    context.close()


def test_an_exam_shows_nothing_before_hand_in_and_resumes_after_a_reload(sized: Any) -> None:
    page = sized
    page.goto(PRACTICE)
    begin(page, mode="exam", count=3)
    # Start lands on the first question
    assert page.evaluate("document.activeElement.classList.contains('qb-practice-q')")
    goes = page.locator(".qb-exam-go")
    expect(goes).to_have_count(3)
    expect(goes.first).to_have_attribute("aria-current", "step")
    first = page.locator(".qb-practice-q").get_attribute("data-pid")
    answer_current(page)
    expect(goes.first).to_have_attribute("data-done", "1")
    expect(page.locator(".qb-exam-count")).to_have_text("1 of 3 answered")
    # no feedback, nothing stored before hand-in
    expect(page.locator(".qb-practice-q .qb-right, .qb-practice-q .qb-wrong")).to_have_count(0)
    assert stored(page, "qbank:v1:progress") is None
    page.locator(".qb-exam-next").click()
    page.locator(".qb-exam-flag").click()
    expect(goes.nth(1)).to_have_attribute("data-flagged", "1")
    goes.nth(2).click()  # jump
    expect(page.locator(".qb-practice-pos")).to_contain_text("3 of 3")
    answer_current(page)
    page.reload()  # resumed where it was: answers, flags, the question shown
    expect(page.locator(".qb-practice-pos")).to_contain_text("3 of 3")
    expect(page.locator(".qb-exam-go").nth(1)).to_have_attribute("data-flagged", "1")
    expect(page.locator(".qb-exam-count")).to_have_text("2 of 3 answered")
    page.locator(".qb-exam-go").first.click()
    assert page.locator(".qb-practice-q").get_attribute("data-pid") == first
    expect(
        page.locator(".qb-practice-q .qb-chosen, .qb-rate-btn[aria-pressed='true']")
    ).to_have_count(1)
    page.locator(".qb-practice-end").click()  # "Hand in"
    expect(page.locator(".qb-summary h2")).to_have_text(re.compile(r"Score: [\d.]+ / 3"))
    rows = page.locator(".qb-topic-scores tbody tr")
    assert rows.count() >= 1
    expect(rows.first.locator("th")).not_to_have_text("")
    statuses = [
        page.locator(".qb-review-item").nth(i).get_attribute("data-status") for i in range(3)
    ]
    assert statuses[1] == "skipped"
    assert "skipped" not in (statuses[0], statuses[2])
    progress = stored(page, "qbank:v1:progress")
    assert progress
    assert len(progress) == 2
    assert page.errors == []


def test_the_clock_can_be_hidden_paused_extended_turned_off_and_the_session_ended(
    page: Any,
) -> None:
    page.clock.install(time=START)
    page.goto(PRACTICE)
    begin(page, count=3, limit=6)
    shown = page.locator(".qb-timer")
    expect(shown).to_have_text("06:00")
    expect(shown).to_have_attribute("aria-label", "Time left")
    note = page.locator(".qb-timer-note")
    page.clock.run_for(61_000)  # five minutes left: announced once
    expect(note).to_have_text("05:00 left.")
    expect(shown).to_have_text("04:59")
    page.locator(".qb-timer-pause").click()
    expect(note).to_have_text(re.compile("Paused"))
    expect(page.locator(".qb-practice-q")).to_be_hidden()
    page.clock.run_for(10 * 60_000)  # paused: the time does not run out
    expect(page.locator(".qb-summary")).to_have_count(0)
    expect(shown).to_have_text("04:59")
    page.locator(".qb-timer-pause").click()
    expect(page.locator(".qb-practice-q")).to_be_visible()
    page.locator(".qb-timer-more").click()
    expect(shown).to_have_text("09:59")
    page.locator(".qb-timer-toggle").click()
    expect(shown).to_be_hidden()
    assert stored(page, "qbank:v1:prefs:timer") == {"limit": 6, "hidden": True}
    page.locator(".qb-timer-off").click()
    expect(note).to_have_text(re.compile("No time limit"))
    expect(shown).to_have_attribute("aria-label", "Time")
    page.locator(".qb-timer-toggle").click()
    expect(shown).to_have_text(re.compile(r"^01:0\d$"))  # counts up: what was used
    page.clock.run_for(30 * 60_000)
    expect(page.locator(".qb-summary")).to_have_count(0)
    # ended early: scored, the questions not reached skipped
    page.locator(".qb-practice-end").click()
    expect(page.locator(".qb-summary h2")).to_have_text("Score: 0 / 3")
    expect(page.locator(".qb-review-item[data-status='skipped']")).to_have_count(3)
    # the choices are remembered for the next session
    page.goto(PRACTICE)
    expect(page.locator(".qb-practice-limit")).to_have_value("6")


def test_time_up_hands_the_exam_in(page: Any) -> None:
    page.clock.install(time=START)
    page.goto(PRACTICE)
    begin(page, mode="exam", count=2, limit=1)
    answer_current(page)
    page.clock.run_for(41_000)
    expect(page.locator(".qb-timer-note")).to_have_text("00:20 left.")
    page.clock.run_for(20_000)
    expect(page.locator(".qb-summary-note")).to_have_text(
        "Time was up: your answers were handed in."
    )
    assert len(stored(page, "qbank:v1:progress")) == 1


@pytest.mark.parametrize(
    ("locale", "hint", "due"),
    [
        ("en", "Hint", "1 due today"),
        ("tr", "İpucu", "Bugün tekrar edilecek: 1"),
        ("zh", "提示", "今天待复习：1 道"),
    ],
)
def test_a_hint_is_shown_on_request_and_an_answer_after_it_is_hard(
    messy_tab: Any, locale: str, hint: str, due: str
) -> None:
    page = messy_tab
    page.goto(f"{locale}/backend/transactions/")
    question = page.locator(f"#q-{qid(3001)}")
    summary = question.locator("details.qb-hint > summary")
    expect(summary).to_have_text(hint)
    expect(question.locator(".qb-hint-text")).to_be_hidden()
    summary.click()
    expect(question.locator(".qb-hint-text")).to_be_visible()
    question.locator('.qb-option[data-key="b"]').click()  # right, after the hint
    record = stored(page, "qbank:v1:progress")[qid(3001)]
    assert (record["r"], record["h"]) == (1, 1)
    # Hard: due the next day (a right answer without the hint waits two)
    page.clock.set_system_time(START + timedelta(days=1))
    page.goto(f"{locale}/backend/")
    expect(page.locator(".qb-due__count")).to_have_text(due)


def test_a_peek_is_a_first_attempt_not_known_and_due_tomorrow(messy_tab: Any) -> None:
    page = messy_tab
    page.goto("en/backend/transactions/")
    question = page.locator(f"#q-{qid(3001)}")
    question.locator("details.qb-answer > summary").click()
    question.locator('.qb-option[data-key="b"]').click()
    expect(question.locator(".qb-peekNote")).to_contain_text("You saw the answer first")
    record = stored(page, "qbank:v1:progress")[qid(3001)]
    assert (record["r"], record["p"]) == (0, 1)
    page.clock.set_system_time(START + timedelta(days=1))
    page.goto("en/review/")
    expect(page.locator(".qb-due__count")).to_have_text("1 due today")
    assert today(page) >= 0


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_axe_exam_and_clock(sized: Any, scheme: str) -> None:
    page = sized
    page.goto(PRACTICE)
    _scheme(page, scheme)
    assert _serious(page) == []
    begin(page, mode="exam", count=3, limit=10)
    page.locator(".qb-exam-flag").click()
    assert _serious(page) == []
    page.locator(".qb-practice-end").click()
    expect(page.locator(".qb-summary")).to_be_visible()
    assert _serious(page) == []


@pytest.mark.parametrize(
    ("locale", "turn", "good"),
    [("en", "Turn the card", "3 Good"), ("tr", "Kartı çevir", "3 İyi"), ("zh", "翻面", "3 良好")],
)
def test_flashcards_turn_with_space_rate_with_keys_and_never_jump(
    messy_tab: Any, locale: str, turn: str, good: str
) -> None:
    page = messy_tab
    page.goto(f"{locale}/flashcards/?topic=backend/transactions")
    card = page.locator(".qb-flashcard")
    expect(card).to_have_attribute("data-id", qid(3001))
    expect(page.locator(".qb-flashcard-turn")).to_have_text(turn)
    expect(page.locator(".qb-flashcard__back")).to_be_hidden()
    before = card.bounding_box()
    below = page.locator(".qb-flash-actions").bounding_box()
    card.focus()
    page.keyboard.press("Space")
    expect(card).to_have_attribute("data-turned", "1")
    expect(page.locator(".qb-flashcard__back .qb-explanation")).to_be_visible()
    expect(page.locator(".qb-flashcard__front")).to_be_hidden()
    assert card.bounding_box() == before  # no layout jump
    assert page.locator(".qb-flash-actions").bounding_box() == below
    expect(page.locator(".qb-flashcard-grade[data-grade='3']")).to_have_text(good)
    page.keyboard.press("3")  # Good: into the review queue
    expect(page.locator(".qb-flash-end")).to_be_visible()
    record = stored(page, "qbank:v1:review")[qid(3001)]
    assert (record["g"], record["n"]) == (3, 1)
    assert record["due"] - today(page) == 2
    # the review queue's due cards: none today, the same card once it is due
    page.goto(f"{locale}/flashcards/?cards=due")
    expect(page.locator(".qb-flash-end")).to_be_visible()
    page.clock.set_system_time(START + timedelta(days=2))
    page.goto(f"{locale}/flashcards/?cards=due")
    expect(card).to_have_attribute("data-id", qid(3001))


def test_flashcards_swipe_on_a_phone_and_saved_cards(browser: Any, messy: str) -> None:
    context = browser.new_context(base_url=messy, viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        page.goto("en/backend/indexing/")
        page.locator(f"#q-{qid(3002)} .qb-star").click()
        page.goto("en/flashcards/?cards=saved")
        card = page.locator(".qb-flashcard")
        expect(card).to_have_attribute("data-id", qid(3002))
        box = card.bounding_box()
        assert box is not None

        def swipe(dx: float) -> None:
            y = box["y"] + box["height"] / 2
            x = box["x"] + box["width"] / 2
            card.dispatch_event("pointerdown", {"pointerType": "touch", "clientX": x, "clientY": y})
            card.dispatch_event(
                "pointerup", {"pointerType": "touch", "clientX": x + dx, "clientY": y}
            )

        swipe(-120)  # the front: a swipe turns it
        expect(card).to_have_attribute("data-turned", "1")
        swipe(-120)  # left: Again
        expect(page.locator(".qb-flash-end")).to_be_visible()
        record = stored(page, "qbank:v1:review")[qid(3002)]
        assert record["g"] == 1
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_axe_flashcards(messy_tab: Any, scheme: str) -> None:
    page = messy_tab
    page.goto("en/flashcards/?topic=backend/transactions")
    expect(page.locator(".qb-flashcard")).to_be_visible()
    _scheme(page, scheme)
    assert _serious(page) == []
    page.locator(".qb-flashcard-turn").click()
    assert _serious(page) == []


def test_the_exam_summary_names_topics_as_the_page_does(page: Any) -> None:
    page.goto(PRACTICE)
    names = json.loads(page.locator(".qb-practice").get_attribute("data-topic-names") or "{}")
    assert names == {"throughput": "Throughput", "numerics": "Numerics"}
    begin(page, mode="exam", count=2)
    page.locator(".qb-practice-end").click()
    shown = page.locator(".qb-topic-scores tbody th").all_inner_texts()
    assert shown
    assert set(shown) <= set(names.values())


FOCUS = """() => {
  const e = document.activeElement;
  return e === document.body ? 'body' : e.className;
}"""


def answer_and_go_on(page: Any) -> None:
    """Answer the card shown; a choice then goes on with its Next (a rating goes on by itself)."""
    choice = page.locator(".qb-practice-q").get_attribute("data-kind") == "choice"
    answer_current(page)
    if choice:
        page.locator(".qb-practice-answer").click()


def test_the_focus_follows_the_mock_interview_from_start_to_the_score(sized: Any) -> None:
    """Start, each next question and the score take the focus (issue 33, point 9: it fell to
    <body> on Start), by keyboard as by a tap."""
    page = sized
    page.goto(PRACTICE)
    page.locator("select.qb-practice-level").select_option("mid")
    page.locator(".qb-practice-count").fill("2")
    page.locator(".qb-start").focus()
    page.keyboard.press("Enter")
    expect(page.locator(".qb-practice-q")).to_be_visible()
    assert "qb-practice-q" in page.evaluate(FOCUS).split()
    answer_and_go_on(page)
    expect(page.locator(".qb-practice-pos")).to_contain_text("2 of 2")
    assert page.evaluate(FOCUS) not in ("body", ""), "the focus fell to the page"
    assert page.evaluate("!!document.activeElement.closest('.qb-practice-q')"), page.evaluate(
        "document.activeElement.outerHTML.slice(0, 200)"
    )
    answer_and_go_on(page)
    expect(page.locator(".qb-summary")).to_be_visible()
    assert page.evaluate("document.activeElement.closest('.qb-summary') !== null")


def test_the_focus_follows_the_flashcards(messy_tab: Any) -> None:
    """Rating a card hands the focus to the next one, and the last to the end note."""
    page = messy_tab
    page.goto("en/flashcards/?topic=javascript/event-loop")  # one card
    card = page.locator(".qb-flashcard")
    expect(card).to_have_attribute("data-id", qid(1001))
    page.locator(".qb-flashcard-turn").click()
    page.locator(".qb-flashcard-grade[data-grade='3']").click()
    expect(page.locator(".qb-flash-end")).to_be_visible()
    assert "qb-flash-end" in page.evaluate(FOCUS).split()
    page.goto("en/flashcards/?topic=javascript/closures")  # many cards
    first = card.get_attribute("data-id")
    card.focus()
    page.keyboard.press("Space")
    page.locator(".qb-flashcard-grade[data-grade='1']").click()
    expect(card).not_to_have_attribute("data-id", first or "")
    assert "qb-flashcard" in page.evaluate(FOCUS).split()
    page.keyboard.press("Space")  # the keys go on working from there
    expect(card).to_have_attribute("data-turned", "1")
