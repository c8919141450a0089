"""The text Material (or Zensical) writes around a page's content — header and site name,
palette toggles, language menu, search box, skip link, "back to top", footer, code-copy
tooltips — read from a page in Chromium, so that tests can check it is in the page's language
on every publisher.

A plain module (not a conftest) so that test files import it by name."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

# Each entry: what it is, read in the page (missing elements read as "").
_READ = """() => {
  const attr = (sel, name) => {
    const e = document.querySelector(sel);
    return e ? (e.getAttribute(name) || "") : "";
  };
  const text = (sel) => {
    const e = document.querySelector(sel);
    return e ? e.textContent.replace(/\\s+/g, " ").trim() : "";
  };
  const all = (sel, name) => Array.from(document.querySelectorAll(sel))
    .map((e) => (name ? e.getAttribute(name) : e.textContent).replace(/\\s+/g, " ").trim())
    .join(" | ");
  const config = JSON.parse(text("#__config") || "{}").translations || {};
  return {
    "header": attr("nav.md-header__inner", "aria-label"),
    "site name": text(".md-header__title .md-header__topic"),
    "palette toggles": all("form[data-md-component=palette] label", "title"),
    "language menu": attr(".md-select > button", "aria-label"),
    "search box": attr(".qb-search__input", "placeholder"),
    "skip link": text(".md-skip"),
    "menu": attr("nav.md-nav--primary", "aria-label"),
    "table of contents": attr(".md-sidebar--secondary nav.md-nav--secondary", "aria-label"),
    "back to top": text(".md-top"),
    "footer": attr("nav.md-footer__inner", "aria-label"),
    "previous and next": all(".md-footer__direction"),
    "credit": text(".md-copyright"),
    "copy tooltip": config["clipboard.copy"] || "",
    "copied tooltip": config["clipboard.copied"] || "",
  };
}"""


def material_text(page: Any) -> dict[str, str]:
    """What Material wrote around the open page's content, by element."""
    expect(page.locator(".md-footer")).to_be_attached()
    return dict(page.evaluate(_READ))


def english_left(page: Any, path: str, locales: tuple[str, ...] = ("tr", "zh")) -> list[str]:
    """Open ``en/<path>``, then ``<locale>/<path>`` for each of ``locales``: the elements
    whose text on a page of another locale is missing, or the same as on the English page.
    The English page's own text is checked for the footer and the palette toggles (the
    pages' theme must have ``navigation.footer`` and the default light/dark palette)."""
    page.goto(f"en/{path}")
    english = material_text(page)
    assert english["previous and next"] == "Previous | Next"
    assert english["palette toggles"] == "Switch to dark mode | Switch to light mode"
    left = []
    for locale in locales:
        page.goto(f"{locale}/{path}")
        other = material_text(page)
        left += [
            f"{locale}/{path}: {name}: {other.get(name)!r} (English: {text!r})"
            for name, text in english.items()
            if text and (not other.get(name) or other[name] == text)
        ]
    return left
