"""A contributor's page under a real ``mkdocs serve``, in Chromium: a bad save shows the bank's
errors at the top of the open page (live reload reloads it) and a good save takes them away,
with no script of the banner's own and nothing the file's text could inject."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect
from support.serving import EDITED, Served

pytestmark = pytest.mark.browser

TIMEOUT_MS = 300_000  # generous: the machine may be busy; no timing is asserted


def test_live_reload_shows_and_clears_the_errors_of_a_bad_save(
    browser: Any, served: Served
) -> None:
    context = browser.new_context(base_url=f"http://127.0.0.1:{served.port}/")
    tab = context.new_page()
    dialogs: list[str] = []
    tab.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    try:
        tab.goto("en/backend/indexing/")
        banner = tab.locator("#qbank-serve-problems")
        expect(tab.locator(".qb-q").first).to_be_visible()
        expect(banner).to_have_count(0)
        tab.wait_for_timeout(500)  # (live reload starts polling at the load event)
        path = served.content / EDITED
        good = path.read_text("utf-8")
        path.write_text(good + "'<img src=x onerror=alert(1)>': 1\n", "utf-8")
        expect(banner).to_be_visible(timeout=TIMEOUT_MS)
        line = len(good.splitlines()) + 1
        expect(banner).to_contain_text(f"content/{EDITED}:{line}:1: <img src=x onerror=alert(1)>")
        expect(banner).to_contain_text("unknown key")
        assert banner.locator("img, script").count() == 0
        # It is above Material's header, and the page under it still works.
        header = tab.locator("header.md-header")
        assert banner.bounding_box()["y"] < header.bounding_box()["y"]
        tab.locator(".qb-q .qb-answer summary").first.click()
        expect(tab.locator(".qb-q .qb-answer").first).to_have_attribute("open", "")
        # A contributor can fold it away (a <details>, no script).
        banner.locator("summary").click()
        expect(banner.locator("li").first).to_be_hidden()
        # The fix is saved: the page reloads without it, showing the edit.
        path.write_text(good.replace("When is", "Quokka, when is"), "utf-8")
        expect(tab.locator(".qb-q").first).to_be_visible()
        heading = tab.locator("#h-01a05d13-8d21-739a-baa2-7dab67be4008")
        expect(heading).to_contain_text("Quokka, when is a covering index", timeout=TIMEOUT_MS)
        expect(banner).to_have_count(0)
        assert dialogs == []
    finally:
        context.close()
