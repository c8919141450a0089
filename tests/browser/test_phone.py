# ruff: noqa: RUF001, RUF002  (Chinese interface text; sizes written with a times sign)
"""Keyboards and phones (issue 33, point 10), on the messy bank's site in real Chromium: on a
phone the Tab key never stops on a link of the closed menu drawer (34 of the first 40 stops
did), the drawer opens from the keyboard, the skip link leads to the questions (61 Tabs from
the top to the first option did), and the controls a reader taps are big enough: at least
24 × 24 px (WCAG 2.5.8), 44 × 44 for the primary ones."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
TOPIC = "en/javascript/closures/"

FOCUSED = """() => {
  let e = document.activeElement;
  // (Material's palette toggle is a zero-size radio; its label is what shows the focus)
  if (e.matches('input.md-option') && e.nextElementSibling) e = e.nextElementSibling;
  const r = e.getBoundingClientRect();
  const drawer = document.getElementById('__drawer');
  return {
    what: e.tagName + '.' + e.className + ' ' + (e.textContent || '').trim().slice(0, 30),
    x: r.left, y: r.top, right: r.right, bottom: r.bottom, w: r.width, h: r.height,
    hidden: getComputedStyle(e).visibility !== 'visible',
    closedDrawer: !!e.closest('.md-sidebar--primary') && !(drawer && drawer.checked),
  };
}"""

# every control that is not a link in running text
CONTROLS = "button, select, input:not([type=hidden]), summary, label[tabindex], .md-header__button"
SIZES = """(selector) => [...document.querySelectorAll(selector)]
  .filter(e => e.getClientRects().length && getComputedStyle(e).visibility === 'visible')
  .filter(e => !e.matches('input.md-option, input.md-toggle'))  // (Material's hidden toggles)
  .map(e => {
    const r = e.getBoundingClientRect();
    return {what: e.tagName + '.' + e.className + ' ' + (e.textContent || '').trim().slice(0, 24),
            w: Math.round(r.width), h: Math.round(r.height)};
  })"""


def sizes(page: Any, selector: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate(SIZES, selector)
    assert found, f"no {selector} on {page.url}"
    return found


def at_least(page: Any, selector: str, side: int) -> None:
    small = [s for s in sizes(page, selector) if s["w"] < side or s["h"] < side]
    assert not small, f"under {side} × {side} px on {page.url}: {small}"


def ready(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(".qb-q[data-qb-ready] .qb-star")


def test_on_a_phone_every_tab_stop_is_on_the_screen(messy_tab: Any) -> None:
    page = messy_tab
    page.set_viewport_size(PHONE)
    ready(page, TOPIC)
    stops = []
    for _ in range(40):
        page.keyboard.press("Tab")
        stops.append(page.evaluate(FOCUSED))
    for stop in stops:
        assert not stop["closedDrawer"], f"a Tab stop in the closed drawer: {stop['what']}"
        assert not stop["hidden"], stop["what"]
        assert stop["w"] > 0, f"a Tab stop of no size: {stop['what']}"
        assert stop["h"] > 0, f"a Tab stop of no size: {stop['what']}"
        inside = stop["x"] >= 0 and stop["right"] <= PHONE["width"] + 1
        inside = inside and stop["y"] >= 0 and stop["y"] < PHONE["height"]
        assert inside, f"a Tab stop off the screen: {stop}"
    # the questions are reached: the first question's options are among the first 40 stops
    assert any("qb-pick" in stop["what"] for stop in stops)


def test_the_drawer_opens_and_closes_from_the_keyboard(messy_tab: Any) -> None:
    page = messy_tab
    page.set_viewport_size(PHONE)
    ready(page, TOPIC)
    toggle = page.locator("label.md-header__button[for='__drawer']")
    expect(toggle).to_have_accessible_name("Navigation")
    toggle.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("document.getElementById('__drawer').checked")
    home = page.locator(".md-sidebar--primary .md-nav__link", has_text="Home").first
    expect(home).to_be_visible()
    # (the drawer slides in: its place is read once it is there)
    page.wait_for_function(
        "() => document.querySelector('.md-sidebar--primary').getBoundingClientRect().left >= 0"
    )
    for _ in range(12):  # the header's other controls, then the drawer's links
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.closest('.md-sidebar--primary')"):
            break
    stop = page.evaluate(FOCUSED)
    assert stop["x"] >= 0, f"the open drawer's first Tab stop is off the screen: {stop}"
    page.keyboard.press("Escape")
    assert not page.evaluate("document.getElementById('__drawer').checked")
    assert page.evaluate("document.activeElement.getAttribute('for')") == "__drawer"
    toggle.focus()
    page.keyboard.press(" ")  # a button's other key
    assert page.evaluate("document.getElementById('__drawer').checked")


def test_the_skip_link_leads_to_the_first_question(messy_tab: Any) -> None:
    page = messy_tab
    page.set_viewport_size(DESKTOP)
    ready(page, TOPIC)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent.trim()") == "Skip to the questions"
    page.evaluate("document.querySelector('.qb-q').qbKept = true")
    page.keyboard.press("Enter")
    # followed in the page: not fetched and swapped in again (the focus would fall to <body>)
    assert page.evaluate("document.querySelector('.qb-q').qbKept === true")
    assert page.evaluate("document.activeElement.closest('.qb-q, h2') !== null")
    first = page.locator(".qb-q").first.get_attribute("data-qid")
    where = (
        "[document.activeElement.className, document.activeElement.closest('.qb-q')?.dataset.qid]"
    )
    tabs = 0
    while tabs < 6:
        page.keyboard.press("Tab")
        tabs += 1
        at = page.evaluate(where)
        if "qb-pick" in at[0]:
            break
    assert at[1] == first, at
    assert "qb-pick" in at[0], at
    assert tabs <= 3, f"{tabs} Tabs from the skip link to the first option"


def test_the_controls_a_reader_taps_are_big_enough_on_a_phone(messy_tab: Any) -> None:
    page = messy_tab
    page.set_viewport_size(PHONE)
    ready(page, "zh/javascript/closures/")  # (Chinese words make the narrowest buttons)
    page.locator(".qb-star").first.click()
    at_least(page, CONTROLS, 24)
    at_least(page, ".md-header__button", 44)
    at_least(page, ".qb-pick", 44)
    at_least(page, ".qb-answer > summary", 44)

    page.locator(".qb-search__open").click()
    page.locator(".qb-search__input").fill("输出")
    expect(page.locator(".qb-search__filters select").first).to_be_visible()
    at_least(page, ".qb-search__panel :is(button, select, input)", 24)
    at_least(page, ".qb-search__panel :is(button, select)", 44)
    page.keyboard.press("Escape")

    page.goto("zh/saved/")
    expect(page.locator(".qb-saved__remove")).to_have_count(1)
    at_least(page, CONTROLS, 24)
    at_least(page, ".qb-saved__remove", 44)

    page.goto("zh/progress/")
    expect(page.locator(".qb-transfer button").first).to_be_visible()
    at_least(page, CONTROLS, 24)
    at_least(page, ".qb-transfer :is(button, input)", 44)

    page.goto("zh/javascript/practice/")
    expect(page.locator(".qb-start")).to_be_visible()  # (the widget adds it when it mounts)
    at_least(page, ".qb-start", 44)
    page.locator(".qb-start").click()
    expect(page.locator(".qb-practice-q")).to_be_visible()
    at_least(page, CONTROLS, 24)
    at_least(page, ".qb-practice-q .qb-pick, .qb-practice-actions button", 44)
