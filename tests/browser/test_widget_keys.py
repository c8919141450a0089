"""Answering by keys in Chromium: with the focus in a question, 1-9 or an option's letter
answers it (qbank.js, its last lines); outside a question, in a field or with a modifier the
keys do what they did."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect
from support.widget import MULTI, NUMERICS, SINGLE, TOPIC, option, question, stored

pytestmark = pytest.mark.browser

JUNIOR = "01a05d13-8d21-739a-baa2-7dab67be4002"  # throughput, answer a


def test_a_digit_answers_the_focused_question_only(page: Any) -> None:
    page.goto(TOPIC)
    first = question(page, SINGLE)
    first.locator(".qb-pick").first.focus()
    page.keyboard.press("2")
    expect(option(page, SINGLE, "b")).to_have_class(re.compile(r"\bqb-right\b"))
    expect(first.locator(".qb-feedback")).to_have_text(re.compile(r"Right"))
    expect(first.locator('.qb-pick[data-key="b"]')).to_be_focused()
    assert stored(page)[SINGLE]["r"] == 1
    assert JUNIOR not in stored(page)  # the other questions are untouched
    expect(question(page, JUNIOR).locator(".qb-option.qb-chosen")).to_have_count(0)


def test_a_letter_answers_and_a_missing_option_does_nothing(page: Any) -> None:
    page.goto(TOPIC)
    q = question(page, JUNIOR)
    q.locator(".qb-pick").last.focus()
    page.keyboard.press("h")  # no option h: nothing happens
    page.keyboard.press("9")
    expect(q.locator(".qb-option.qb-chosen")).to_have_count(0)
    page.keyboard.press("B")  # a wrong answer, by its letter (either case)
    expect(option(page, JUNIOR, "b")).to_have_class(re.compile(r"\bqb-wrong\b"))
    expect(option(page, JUNIOR, "a")).to_have_class(re.compile(r"\bqb-right\b"))
    assert stored(page)[JUNIOR]["r"] == 0


def test_multiple_answers_toggle_by_key_then_check(page: Any) -> None:
    page.goto(NUMERICS)
    q = question(page, MULTI)
    q.locator(".qb-check").first.focus()
    for key in ("1", "c", "2", "2"):  # a, c, then b on and off again
        page.keyboard.press(key)
    boxes = q.locator(".qb-check")
    assert [boxes.nth(i).is_checked() for i in range(boxes.count())][:3] == [True, False, True]
    q.locator(".qb-check-btn").click()
    expect(q.locator(".qb-feedback")).to_have_text(re.compile(r"Right"))
    assert stored(page)[MULTI]["r"] == 1


def test_keys_outside_a_question_in_a_field_or_with_a_modifier_answer_nothing(page: Any) -> None:
    page.goto(TOPIC)
    page.locator("body").click(position={"x": 1, "y": 1})
    page.keyboard.press("1")
    page.keyboard.press("b")
    expect(page.locator(".qb-option.qb-chosen")).to_have_count(0)
    question(page, SINGLE).locator(".qb-pick").first.focus()
    page.keyboard.press("Control+2")
    expect(page.locator(".qb-option.qb-chosen")).to_have_count(0)
    # The search box: what is typed stays typed.
    page.locator(".qb-search__open").click()
    field = page.locator(".qb-search__input")
    expect(field).to_be_focused()
    page.keyboard.type("b2")
    expect(field).to_have_value("b2")
    expect(page.locator(".qb-option.qb-chosen")).to_have_count(0)
    assert stored(page) == {}


def test_a_practice_card_takes_its_option_by_key(page: Any) -> None:
    page.goto("en/ml-engineer/practice/")
    page.locator("select.qb-practice-level").select_option("mid")
    page.locator(".qb-start").click()
    card = page.locator(".qb-practice-q")
    expect(card).to_be_visible()
    for _ in range(20):  # (open questions first: skip them)
        if card.get_attribute("data-kind") == "choice":
            break
        page.locator(".qb-practice-skip").click()
    card.locator(".qb-pick, .qb-check").first.focus()
    page.keyboard.press("2")
    second = card.locator(".qb-option").nth(1)
    if second.locator(".qb-check").count():
        expect(second.locator(".qb-check")).to_be_checked()
    else:
        expect(second).to_have_class(re.compile(r"\bqb-chosen\b"))
        expect(card.locator(".qb-option.qb-chosen")).to_have_count(1)
