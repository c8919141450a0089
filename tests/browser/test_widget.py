"""The reveal-answer widget, progress, filters, print and instant navigation in Chromium."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect
from support.widget import (
    MULTI,
    NUMERICS,
    SINGLE,
    TOPIC,
    instant_navigation_ready,
    option,
    question,
    stored,
)

pytestmark = pytest.mark.browser

JUNIOR = "01a05d13-8d21-739a-baa2-7dab67be4002"  # throughput, answer a, difficulty 1
OPEN = "01a05d13-8d21-739a-baa2-7dab67be4003"  # throughput, open, with a model answer
NUMERIC_SINGLE = "01a05d13-8d21-739a-baa2-7dab67be4006"  # numerics, answer a


def test_wrong_option_is_marked_and_reveals_the_right_one(page: Any) -> None:
    page.goto(TOPIC)
    option(page, SINGLE, "a").click()
    expect(option(page, SINGLE, "a")).to_have_class(re.compile(r"\bqb-wrong\b"))
    expect(option(page, SINGLE, "b")).to_have_class(re.compile(r"\bqb-right\b"))
    feedback = question(page, SINGLE).locator(".qb-feedback")
    expect(feedback).to_have_text(re.compile(r"Wrong.*\bb\b"))
    expect(question(page, SINGLE).locator("details.qb-answer")).to_have_attribute("open", "")
    expect(question(page, SINGLE).locator(".qb-explanation")).to_be_visible()
    assert stored(page)[SINGLE]["r"] == 0


def test_marked_options_keep_their_text_wide_on_a_phone(page: Any) -> None:
    """An option's "your answer" note sits beside its text without squeezing it into a
    column of letters (its class, qb-note, is also the saved notes' one)."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(TOPIC)
    option(page, SINGLE, "a").click()
    for key in ("a", "b"):
        row = option(page, SINGLE, key).bounding_box()
        text = option(page, SINGLE, key).locator(".qb-option-text").bounding_box()
        assert text["width"] > row["width"] * 0.6, (key, text, row)


def test_right_option_is_marked_right(page: Any) -> None:
    page.goto(TOPIC)
    option(page, SINGLE, "b").locator(".qb-option-text").click()
    expect(option(page, SINGLE, "b")).to_have_class(re.compile(r"\bqb-right\b"))
    expect(question(page, SINGLE).locator(".qb-wrong")).to_have_count(0)
    expect(question(page, SINGLE).locator(".qb-feedback")).to_have_text(re.compile("Right"))
    assert stored(page)[SINGLE]["r"] == 1


def test_several_answers_use_check_boxes_and_a_check_button(page: Any) -> None:
    page.goto(NUMERICS)
    q = question(page, MULTI)
    expect(q.locator("input.qb-check")).to_have_count(4)
    option(page, MULTI, "a").locator("input.qb-check").check()
    q.locator(".qb-check-btn").click()
    expect(q.locator(".qb-feedback")).to_have_text(re.compile(r"Not quite.*a, c"))
    expect(option(page, MULTI, "c")).to_have_class(re.compile(r"\bqb-missed\b"))
    option(page, MULTI, "c").locator(".qb-option-text").click()  # clicking the row ticks it
    q.locator(".qb-check-btn").click()
    expect(q.locator(".qb-feedback")).to_have_text(re.compile("Right"))
    expect(q.locator(".qb-right")).to_have_count(2)
    # the first answer counts; the right retry is kept apart (issue 15, point 4)
    assert stored(page)[MULTI]["r"] == 0
    assert stored(page)[MULTI]["rr"] == 1


@pytest.mark.parametrize(("where", "qid"), [(TOPIC, SINGLE), (NUMERICS, MULTI)])
def test_each_option_is_heard_once_as_its_control(page: Any, where: str, qid: str) -> None:
    """A screen reader names each option's button or check box by its key and text and
    does not read the text again after it (the accessibility tree holds it once)."""
    page.goto(where)
    options = question(page, qid).locator(".qb-options")
    expect(options.locator(".qb-pick, .qb-check").first).to_be_attached()
    texts = options.locator(".qb-option-text").all_inner_texts()
    tree = options.aria_snapshot()
    role = "checkbox" if qid == MULTI else "button"
    for key, text in zip("abcd", texts, strict=False):
        assert tree.count(text.strip()) == 1, tree
        assert f'{role} "{key} {text.strip()}"' in tree, tree


def test_open_question_shows_model_answer_and_stores_self_rating(page: Any) -> None:
    page.goto(TOPIC)
    q = question(page, OPEN)
    expect(q.locator(".qb-rate")).to_be_hidden()
    q.locator("details.qb-assesses > summary").click()
    expect(q.locator("details.qb-assesses")).to_contain_text("measure")
    summary = q.locator("details.qb-answer > summary")
    expect(summary).to_have_text("Show model answer")
    summary.click()
    expect(q.locator(".qb-model-answer")).to_be_visible()
    q.locator('.qb-rate-btn[data-rate="partly"]').click()
    assert stored(page)[OPEN]["s"] == "partly"
    page.reload()
    q = question(page, OPEN)
    expect(q.locator(".qb-status")).to_have_text(re.compile("partly"))
    q.locator("details.qb-answer > summary").click()
    expect(q.locator('.qb-rate-btn[data-rate="partly"]')).to_have_attribute("aria-pressed", "true")


def test_missing_model_answer_says_so(page: Any) -> None:
    page.goto(TOPIC)
    q = question(page, "01a05d13-8d21-739a-baa2-7dab67be4004")
    q.locator("details.qb-answer > summary").click()
    expect(q.locator(".qb-no-model-answer")).to_be_visible()


def _tab_to(page: Any, selector: str, limit: int = 80) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement.matches({json.dumps(selector)})"):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_keyboard_only_pass(page: Any) -> None:
    page.goto(TOPIC)
    q = question(page, SINGLE)
    feedback = q.locator(".qb-feedback")
    expect(feedback).to_have_attribute("aria-live", "polite")
    _tab_to(page, f'#q-{SINGLE} .qb-pick[data-key="b"]')
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none", "the focused option has no visible focus ring"
    page.keyboard.press("Enter")
    expect(feedback).to_have_text(re.compile("Right"))
    # the next question's "Show answer" opens with Space
    _tab_to(page, f"#q-{JUNIOR} details.qb-answer > summary")
    page.keyboard.press("Space")
    expect(question(page, JUNIOR).locator("details.qb-answer")).to_have_attribute("open", "")
    # several answers: Space ticks the boxes, Enter on Check
    page.goto(NUMERICS)
    _tab_to(page, f'#q-{MULTI} .qb-option[data-key="a"] input')
    page.keyboard.press("Space")
    _tab_to(page, f'#q-{MULTI} .qb-option[data-key="c"] input')
    page.keyboard.press("Space")
    _tab_to(page, f"#q-{MULTI} .qb-check-btn")
    page.keyboard.press("Enter")
    expect(question(page, MULTI).locator(".qb-feedback")).to_have_text(re.compile("Right"))


def test_progress_survives_reload_and_reset_clears_it(page: Any) -> None:
    page.goto(TOPIC)
    bar = page.locator(".qb-page-progress .qb-bar")
    expect(bar).to_have_attribute("aria-valuenow", "0")
    option(page, SINGLE, "b").click()
    option(page, JUNIOR, "b").click()
    expect(bar).to_have_attribute("aria-valuenow", "2")
    page.reload()
    expect(page.locator(".qb-page-progress")).to_contain_text("2 of 4 answered · 1 right")
    expect(question(page, SINGLE).locator(".qb-status")).to_have_attribute("data-state", "right")
    expect(question(page, JUNIOR).locator(".qb-status")).to_have_attribute("data-state", "wrong")
    page.goto("en/ml-engineer/")
    expect(page.locator(".qb-progress")).to_contain_text("2 of 6 answered")
    page.goto(TOPIC)
    page.locator('.qb-reset[data-reset="page"]').click()
    expect(bar).to_have_attribute("aria-valuenow", "0")
    expect(question(page, SINGLE).locator(".qb-status")).to_have_count(0)
    assert stored(page) == {}
    option(page, SINGLE, "a").click()
    page.goto(NUMERICS)
    page.locator('.qb-reset[data-reset="all"]').click()
    assert stored(page) == {}


def test_storage_failure_degrades_to_memory(browser: Any, server: str) -> None:
    context = browser.new_context(base_url=server)
    # Only qbank's keys fail: Material's own storage use is not under test here.
    context.add_init_script(
        """
        const set = Storage.prototype.setItem, get = Storage.prototype.getItem;
        Storage.prototype.setItem = function (k, v) {
          if (String(k).startsWith("qbank:")) throw new DOMException("full", "QuotaExceededError");
          return set.call(this, k, v);
        };
        Storage.prototype.getItem = function (k) {
          if (String(k).startsWith("qbank:")) throw new DOMException("denied", "SecurityError");
          return get.call(this, k);
        };
        """
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(TOPIC)
    option(page, SINGLE, "b").click()
    expect(question(page, SINGLE).locator(".qb-feedback")).to_have_text(re.compile("Right"))
    expect(page.locator(".qb-page-progress .qb-bar")).to_have_attribute("aria-valuenow", "1")
    context.close()
    assert errors == []


def test_filter_url_opens_filtered(page: Any) -> None:
    page.goto(TOPIC + "?level=junior")
    expect(question(page, JUNIOR)).to_be_visible()
    expect(question(page, SINGLE)).to_be_hidden()
    expect(page.locator(f"#h-{SINGLE}")).to_be_hidden()
    expect(page.locator(".qb-filters select[name=level]")).to_have_value("junior")
    page.goto(TOPIC + "?difficulty=2")
    expect(question(page, SINGLE)).to_be_visible()
    expect(page.locator(".qb-q:visible")).to_have_count(1)
    # answering then hiding answered writes the filter into the URL
    page.locator(".qb-filters select[name=difficulty]").select_option("")
    option(page, JUNIOR, "a").click()
    page.locator(".qb-filters input[name=hide]").check()
    expect(question(page, JUNIOR)).to_be_hidden()
    assert "hide=answered" in page.url
    page.reload()
    expect(question(page, JUNIOR)).to_be_hidden()
    expect(question(page, SINGLE)).to_be_visible()
    # a question answered while "hide answered" is on stays until the filter changes
    option(page, SINGLE, "b").click()
    expect(question(page, SINGLE).locator(".qb-explanation")).to_be_visible()
    page.locator(".qb-filters select[name=level]").select_option("mid")
    expect(question(page, SINGLE)).to_be_hidden()


def test_a_seniority_page_topic_opens_filtered_to_its_level(page: Any) -> None:
    """Issue 30: a seniority page lists its questions by topic; a topic's heading opens the
    topic page with the level filter set, showing that level's questions only."""
    page.goto("en/ml-engineer/level-senior/")
    expect(page.locator(".qb-level-list > li").first).to_be_visible()
    expect(page.locator(".qb-q")).to_have_count(0)
    page.locator("article h2 a", has_text="Throughput").click()
    page.wait_for_url(re.compile(r"/throughput/\?level=senior$"))
    expect(page.locator(".qb-filters select[name=level]")).to_have_value("senior")
    shown = page.locator(".qb-q:visible")
    expect(shown.first).to_be_visible()
    for level in shown.evaluate_all("qs => qs.map(q => q.dataset.level)"):
        assert "senior" in level.split()
    expect(page.locator(".qb-q:not([data-level~=senior])").first).to_be_hidden()


def test_answer_reachable_without_javascript(browser: Any, server: str) -> None:
    context = browser.new_context(base_url=server, java_script_enabled=False)
    page = context.new_page()
    page.goto(TOPIC)
    q = question(page, SINGLE)
    expect(q.locator(".qb-explanation")).to_be_hidden()
    q.locator("details.qb-answer > summary").click()
    expect(q.locator(".qb-correct")).to_contain_text("b")
    expect(q.locator(".qb-explanation")).to_be_visible()
    context.close()


def test_widget_works_after_instant_navigation(page: Any) -> None:
    page.goto(TOPIC)
    instant_navigation_ready(page)
    page.evaluate("window.__sameDocument = true")
    page.locator(".md-nav a[href$='numerics/']").first.click()
    page.wait_for_url(re.compile("numerics/$"))
    expect(question(page, NUMERIC_SINGLE)).to_be_visible()
    assert page.evaluate("window.__sameDocument === true"), "not an instant navigation"
    option(page, NUMERIC_SINGLE, "b").click()
    expect(question(page, NUMERIC_SINGLE).locator(".qb-feedback")).to_have_text(
        re.compile(r"Wrong.*\ba\b")
    )
    expect(page.locator(".qb-tools .qb-filters")).to_have_count(1)
    expect(page.locator(".qb-page-progress .qb-bar")).to_have_attribute("aria-valuenow", "1")


def test_print_expands_answers_and_hides_buttons(page: Any) -> None:
    page.goto(TOPIC)
    page.emulate_media(media="print")
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    q = question(page, SINGLE)
    expect(q.locator(".qb-explanation")).to_be_visible()
    expect(page.locator(".qb-tools")).to_be_hidden()
    expect(question(page, OPEN).locator(".qb-model-answer")).to_be_visible()


def test_interface_strings_follow_the_page_language(page: Any) -> None:
    page.goto("tr/ml-engineer/throughput/")
    assert page.evaluate("document.documentElement.lang") == "tr"
    option(page, SINGLE, "b").click()
    expect(question(page, SINGLE).locator(".qb-feedback")).to_have_text(re.compile("Doğru"))


def test_no_request_leaves_the_local_host(page: Any) -> None:
    page.goto(TOPIC)
    option(page, SINGLE, "a").click()
    page.goto("en/ml-engineer/practice/")
    page.locator(".qb-start").click()
    expect(page.locator(".qb-practice-q")).to_be_visible()
    page.goto(NUMERICS)
    page.wait_for_load_state("networkidle")
    hosts = {urlparse(url).hostname for url in page.requests if not url.startswith("data:")}
    assert hosts == {"127.0.0.1"}, page.requests
