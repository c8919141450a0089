"""The reader's first search on a page, walked as a reader does it: the search box's code
(assets/search.js) is loaded on demand, so a reader who taps the search button and types at
once types while it is still on its way. Their words must land in the box (the box opens and
takes the focus inside the tap, which is also what makes a phone show its keyboard) and be
searched when the code arrives. Before, the box opened only after the script had loaded: the
first letters went nowhere ("Dataloader" became "der" on a slow connection)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = pytest.mark.browser

INPUT_WAIT = "01a05d13-8d21-739a-baa2-7dab67be4001"  # the small bank's "Fuse kernels" question


@pytest.fixture
def page_without_worker(browser: Any, server: str) -> Iterator[Any]:
    """A fresh page of the small bank's site whose service worker is not registered: once the
    worker has claimed the page, it answers ``import("./search.js")`` from its cache and
    ``page.route`` never sees the request (on a loaded machine the worker can claim the page
    before the test's tap)."""
    context = browser.new_context(base_url=server, service_workers="block")
    try:
        yield context.new_page()
    finally:
        context.close()


def test_words_typed_while_search_loads_are_kept_and_searched(page_without_worker: Any) -> None:
    page = page_without_worker
    held: list[Any] = []
    # Hold the script until released: the reader is faster than the network.
    page.route("**/assets/search.js", lambda route: held.append(route))
    page.goto("en/ml-engineer/throughput/")
    page.locator(".qb-search__open").click()
    for _ in range(50):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "clicking the search button did not request assets/search.js"
    assert not page.evaluate("() => !!document.querySelector('.qb-search').qbSearch")  # held
    focused = page.evaluate("() => document.activeElement.className")
    assert "qb-search__input" in focused, focused  # focused inside the tap
    page.keyboard.type("kernels")  # the reader types at once, into whatever has the focus
    held[0].continue_()
    page.wait_for_function("() => document.querySelector('.qb-search').dataset.done")
    assert page.locator(".qb-search__input").input_value() == "kernels"
    links = page.locator(".qb-search__result a")
    hrefs = [links.nth(i).get_attribute("href") or "" for i in range(links.count())]
    assert any(h.endswith(f"#q-{INPUT_WAIT}") for h in hrefs), hrefs
    assert page.locator(".qb-search__open").get_attribute("aria-expanded") == "true"


def test_search_button_on_a_wide_screen_is_one_line_inside_the_header(page: Any) -> None:
    """At desktop width the button shows its label beside the magnifier. Material's
    ``.md-header__button:not([hidden])`` outranked the button's own ``inline-flex``: the
    label fell below the icon and the 52 px button made the header taller."""
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto("en/")
    box = page.evaluate(
        """() => {
          const open = document.querySelector('.qb-search__open');
          const rect = (n) => n.getBoundingClientRect();
          const middle = (r) => r.top + r.height / 2;
          const icon = rect(open.querySelector('svg'));
          const label = rect(open.querySelector('.qb-search__label'));
          return {icon: middle(icon), label: middle(label), button: rect(open).bottom,
                  header: rect(document.querySelector('.md-header')).bottom,
                  labelShown: label.width > 0,
                  background: getComputedStyle(open).backgroundColor};
        }"""
    )
    assert box["labelShown"], box
    assert box["background"] not in ("transparent", "rgba(0, 0, 0, 0)"), box  # a search field
    assert abs(box["icon"] - box["label"]) <= 3, box  # side by side, not stacked
    assert box["button"] <= box["header"], box
    assert box["header"] <= 50, box  # Material's header is 2.4rem (48 px) high
