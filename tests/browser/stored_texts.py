"""The site's localStorage as raw texts, for the browser tests of stored data (test_storage,
test_transfer): written from a page that runs no qbank script, read back byte for byte."""

from __future__ import annotations

from typing import Any


def seed(tab: Any, entries: dict[str, str]) -> None:
    """Store raw texts under the site's origin from a page that runs no qbank script."""
    tab.goto("sitemap.xml")
    tab.evaluate(
        "(entries) => { for (const k in entries) localStorage.setItem(k, entries[k]); }", entries
    )


def storage(tab: Any) -> dict[str, str]:
    """Every ``qbank:`` key of the site's origin and its stored text."""
    return tab.evaluate(
        "() => Object.fromEntries(Object.keys(localStorage).filter(k => k.startsWith('qbank:'))"
        ".map(k => [k, localStorage.getItem(k)]))"
    )
