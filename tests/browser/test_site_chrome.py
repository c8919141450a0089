"""The site around the questions: language switcher, per-locale sitemaps, phone layout."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

TOPIC = "ml-engineer/throughput"


def test_language_switcher_keeps_the_page_and_sitemaps_exist(page: Any) -> None:
    """Material fetches <locale>/sitemap.xml for each language; a click on another
    language opens the same page there, not that language's home."""
    statuses: dict[str, int] = {}
    page.on("response", lambda r: statuses.setdefault(r.url, r.status))
    page.goto(f"en/{TOPIC}/")
    page.wait_for_load_state("networkidle")
    sitemaps = {url: code for url, code in statuses.items() if url.endswith("sitemap.xml")}
    assert any("/tr/sitemap.xml" in url for url in sitemaps), sitemaps
    assert set(sitemaps.values()) == {200}, sitemaps
    page.hover(".md-header .md-select")
    page.click('a.md-select__link[hreflang="tr"]')
    page.wait_for_url(f"**/tr/{TOPIC}/")
    expect(page.locator("html")).to_have_attribute("lang", "tr")
    assert page.locator(".qb-q").count() > 0


def test_phone_layout_has_large_tap_targets_and_no_sideways_scroll(
    browser: Any, server: str
) -> None:
    # A .qb-pick sits inside its option row, which is the tap target.
    controls = ".qb-option, .qb-q button:not(.qb-pick), .qb-tools :is(button, select), .md-button"
    context = browser.new_context(base_url=server, viewport={"width": 390, "height": 844})
    try:
        tab = context.new_page()
        for path in ("en/", "en/ml-engineer/", f"en/{TOPIC}/"):
            tab.goto(path)
            tab.wait_for_load_state("networkidle")
            width = tab.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"{path} scrolls sideways ({width}px)"
            heights = tab.evaluate(
                f"""() => [...document.querySelectorAll('{controls}')]
                  .filter(e => e.offsetParent !== null)
                  .map(e => e.getBoundingClientRect().height)"""
            )
            assert heights, f"{path}: no controls found"
            small = [h for h in heights if h < 40]
            assert not small, f"{path}: {len(small)} controls under 40px tall: {small}"
    finally:
        context.close()
