"""The review queue as a reader drives it: answering, a review session, days passing."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta
from typing import Any

from playwright.sync_api import expect

# Mid-morning, so that "later by N days" never crosses a day boundary differently.
START = datetime(2026, 3, 2, 10, 0, 0)


DAY = timedelta(days=1)


def stored(page: Any, key: str) -> dict[str, Any]:
    raw = page.evaluate(f"localStorage.getItem('{key}')")
    return dict(json.loads(raw)) if raw else {}


def pick(page: Any, qid: str, key: str) -> None:
    page.locator(f'#q-{qid} .qb-option[data-key="{key}"]').click()
    expect(page.locator(f"#q-{qid}")).to_have_class(re.compile(r"\bqb-answered-"))


def today(page: Any) -> int:
    """The page's local day number (lib/schedule.js's ``day``)."""
    return int(
        page.evaluate("Math.floor((Date.now() - new Date().getTimezoneOffset() * 60000) / 864e5)")
    )


def due_line(page: Any) -> Any:
    return page.locator(".qb-due .qb-due__line")


def review_session(page: Any, answers: dict[str, str]) -> list[str]:
    """Start the review page's session and answer each card from ``answers`` ({id: option key
    or rating}); return the ids in the order they came."""
    page.locator(".qb-start").click()
    seen: list[str] = []
    while True:
        card = page.locator(".qb-practice-q")
        summary = page.locator(".qb-summary")
        expect(card.or_(summary)).to_be_visible()
        if summary.is_visible():
            return seen
        qid = card.get_attribute("data-pid")
        assert qid
        seen.append(qid)
        answer = answers[qid]
        if answer in ("know", "partly", "no"):
            page.locator(".qb-show-model").click()
            page.locator(f'.qb-rate-btn[data-rate="{answer}"]').click()
        else:
            card.locator(f'.qb-pick[data-key="{answer}"]').click()
            page.locator(".qb-practice-answer").click()
            # each card is checked before the next one comes: right or wrong, said at once
            expect(card.locator(".qb-review-feedback")).to_have_attribute(
                "data-state", re.compile("^(right|wrong)$")
            )
            page.locator(".qb-review-next").click()
        expect(page.locator(f'.qb-practice-q[data-pid="{qid}"]')).to_have_count(0)


def later(page: Any, days: int, path: str) -> None:
    page.clock.set_system_time(START + days * DAY)
    page.goto(path)
