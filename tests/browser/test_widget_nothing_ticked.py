"""A several-answer question's Check with no box ticked is no answer: the reader is told to
tick, nothing is recorded and the key stays hidden."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

MULTI = "01a05d13-8d21-739a-baa2-7dab67be4005"  # numerics, answers a and c
NUMERICS = "en/ml-engineer/numerics/"


def test_check_with_nothing_ticked_asks_to_tick(page: Any) -> None:
    page.goto(NUMERICS)
    q = page.locator(f"#q-{MULTI}")
    q.locator(".qb-check-btn").click()
    expect(q.locator(".qb-feedback")).to_have_text("Tick the answers you choose, then Check.")
    expect(q.locator("details.qb-answer")).not_to_have_attribute("open", "")
    expect(q.locator(".qb-right, .qb-wrong, .qb-missed")).to_have_count(0)
    raw = page.evaluate("localStorage.getItem('qbank:v1:progress')")
    assert MULTI not in (json.loads(raw) if raw else {})
    # ticking then checking answers as before
    q.locator('.qb-option[data-key="a"] input.qb-check').check()
    q.locator('.qb-option[data-key="c"] input.qb-check').check()
    q.locator(".qb-check-btn").click()
    expect(q.locator(".qb-feedback")).to_have_text("✓ Right!")
