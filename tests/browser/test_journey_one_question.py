"""A topic with one question (real banks have them: the messy bank's ``event-loop``): there is
nothing to filter, so the filter box stays empty. It must not show as an empty bordered
strip under the progress bar (it did, at every width, with MkDocs and with Zensical)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_a_one_question_topic_shows_no_empty_filter_box(browser: Any, messy: str) -> None:
    context = browser.new_context(base_url=messy, viewport={"width": 390, "height": 844})
    try:
        tab = context.new_page()
        tab.goto("en/javascript/event-loop/")
        tab.wait_for_selector(".qb-tools[data-qb-ready]", state="attached")
        assert tab.locator(".qb-q").count() == 1
        tools = tab.locator(".qb-tools")
        assert tools.inner_text().strip() == ""  # nothing to filter: no selects, no text
        assert not tools.is_visible()
        tab.goto("en/javascript/closures/")  # many questions: the filters are there
        tab.wait_for_selector(".qb-tools[data-qb-ready] select")
        assert tab.locator(".qb-tools").is_visible()
    finally:
        context.close()
