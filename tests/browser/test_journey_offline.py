# ruff: noqa: RUF001  (Turkish test content)
"""A reader who goes offline with a page open (a train, a flight) and reaches for search:
the box must say what happened and that trying again helps, not that the site has no index
(it said "the index has not been built yet", which sends a reader to blame the site); once
back online, the next keystroke searches."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_search_offline_says_the_index_could_not_load_and_recovers(page: Any) -> None:
    page.goto("tr/ml-engineer/throughput/")
    page.locator(".qb-search__open").hover()  # the reader reaches for it: search.js loads
    page.wait_for_function("() => !!document.querySelector('.qb-search').qbSearch")
    page.context.set_offline(True)
    page.locator(".qb-search__open").click()
    page.locator(".qb-search__input").fill("kernel")
    status = page.locator(".qb-search__status")
    page.wait_for_function(
        "() => /yüklenemedi/.test(document.querySelector('.qb-search__status').textContent)"
    )
    assert "oluşturulmadı" not in status.inner_text()  # not "the index was never built"
    assert "Bağlantınızı" in status.inner_text()  # what to do: check the connection
    page.context.set_offline(False)
    page.locator(".qb-search__input").fill("kernell")
    page.locator(".qb-search__input").fill("kernel")
    page.wait_for_function("() => document.querySelectorAll('.qb-search__result').length > 0")
