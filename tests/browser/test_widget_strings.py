"""The widget's interface text comes from the page's JSON data block (``#qbank-strings``,
written from ``site_templates/strings/<locale>.yaml``), not from the script."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from qbank.site.strings import strings_for

pytestmark = pytest.mark.browser

SINGLE = "01a05d13-8d21-739a-baa2-7dab67be4001"  # throughput, answer b


def feedback(page: Any) -> Any:
    return page.locator(f"#q-{SINGLE} .qb-feedback")


def choose(page: Any, key: str) -> None:
    page.locator(f"#q-{SINGLE} li.qb-option[data-key='{key}']").click()


@pytest.mark.parametrize("locale", ["en", "tr", "zh"])
def test_feedback_and_tools_speak_the_page_language(page: Any, locale: str) -> None:
    text = strings_for(locale)["widget"]
    page.goto(f"{locale}/ml-engineer/throughput/")
    block = page.locator("script#qbank-strings")
    assert block.get_attribute("type") == "application/json"
    assert json.loads(block.text_content()) == text
    choose(page, "a")
    expect(feedback(page)).to_have_text(re.compile(re.escape(text["wrong"].strip())))
    filters = page.locator(".qb-tools .qb-filters")
    expect(filters).to_have_attribute("aria-label", f"{text['level']} / {text['difficulty']}")


def test_a_changed_data_block_changes_the_text(page: Any) -> None:
    """The script holds no text of its own: what the block says is what the reader sees."""
    right = json.dumps(strings_for("en")["widget"]["right"])

    def rewrite(route: Any) -> None:
        response = route.fetch()
        route.fulfill(response=response, body=response.text().replace(right, '"Spot on"'))

    page.route(re.compile(r".*/en/ml-engineer/throughput/$"), rewrite)
    page.goto("en/ml-engineer/throughput/")
    choose(page, "b")
    expect(feedback(page)).to_have_text(re.compile("Spot on"))


@pytest.mark.parametrize("locale", ["en", "zh"])
def test_the_right_option_note_joins_in_the_page_language(page: Any, locale: str) -> None:
    """Picking the right option notes "your answer" and "right answer" with the locale's own
    separator (a Chinese comma on /zh/, not ", ")."""
    text = strings_for(locale)["widget"]
    page.goto(f"{locale}/ml-engineer/throughput/")
    choose(page, "b")
    note = page.locator(f"#q-{SINGLE} li.qb-option[data-key='b']")
    expect(note).to_contain_text(text["yours"] + text["sep"] + text["rightOpt"])
    if locale == "zh":
        assert ", " not in note.text_content()
