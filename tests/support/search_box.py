"""Typing a query into the site's search box and reading the results."""

from __future__ import annotations

from typing import Any


def typed(page: Any, query: str) -> list[str]:
    """Type ``query`` into the search box; the question ids of the results shown."""
    box = page.locator(".qb-search")
    before = box.get_attribute("data-done") or "0"
    box.locator(".qb-search__input").fill(query)
    page.wait_for_function(
        "(n) => (document.querySelector('.qb-search').dataset.done || '0') !== n", arg=before
    )
    links = page.locator(".qb-search__result a")
    return [links.nth(i).get_attribute("href").split("#q-", 1)[1] for i in range(links.count())]
