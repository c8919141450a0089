"""The widget's interface text comes from the page locale's table (``assets/strings/<locale>.js``,
written from ``site_templates/strings/<locale>.yaml``, named by the head's
``<link id="qbank-strings">``), not from the script."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from qbank.site.strings import strings_for
from qbank.site.templates import TEMPLATES

pytestmark = pytest.mark.browser

SINGLE = "01a05d13-8d21-739a-baa2-7dab67be4001"  # throughput, answer b


def feedback(page: Any) -> Any:
    return page.locator(f"#q-{SINGLE} .qb-feedback")


def choose(page: Any, key: str) -> None:
    # (a tap before the widget has set the question up is a tap on plain text)
    page.wait_for_selector(f"#q-{SINGLE}[data-qb-ready]", state="attached")
    page.locator(f"#q-{SINGLE} li.qb-option[data-key='{key}']").click()


@pytest.mark.parametrize("locale", ["en", "tr", "zh"])
def test_feedback_and_tools_speak_the_page_language(page: Any, locale: str) -> None:
    text = strings_for(locale)["widget"]
    page.goto(f"{locale}/ml-engineer/throughput/")
    link = page.locator("head link#qbank-strings")
    assert link.get_attribute("rel") == "modulepreload"
    assert (link.get_attribute("href") or "").endswith(f"/assets/strings/{locale}.js")
    assert page.locator("script#qbank-strings").count() == 0  # no copy of the table in the page
    choose(page, "a")
    expect(feedback(page)).to_have_text(re.compile(re.escape(text["wrong"].strip())))
    filters = page.locator(".qb-tools .qb-filters")
    expect(filters).to_have_attribute("aria-label", f"{text['level']} / {text['difficulty']}")


def test_a_changed_table_changes_the_text(page: Any) -> None:
    """The script holds no text of its own: what the table says is what the reader sees."""
    right = json.dumps(strings_for("en")["widget"]["right"], ensure_ascii=False)

    def rewrite(route: Any) -> None:
        response = route.fetch()
        assert right in response.text()
        route.fulfill(response=response, body=response.text().replace(right, '"Spot on"'))

    page.route(re.compile(r".*/assets/strings/en\.js$"), rewrite)
    page.goto("en/ml-engineer/throughput/")
    choose(page, "b")
    expect(feedback(page)).to_have_text(re.compile("Spot on"))


@pytest.mark.parametrize("locale", ["en", "zh"])
def test_the_right_option_note_joins_in_the_page_language(page: Any, locale: str) -> None:
    """Picking the right option notes "your answer" and "right answer" with the locale's own
    separator (a Chinese comma on /zh/, not ", ")."""
    text = strings_for(locale)["widget"]
    page.goto(f"{locale}/ml-engineer/throughput/")
    choose(page, "b")
    note = page.locator(f"#q-{SINGLE} li.qb-option[data-key='b']")
    expect(note).to_contain_text(text["yours"] + text["sep"] + text["rightOpt"])
    if locale == "zh":
        assert ", " not in note.text_content()


# Each key the widget's modules name literally, t("…") (keys made at run time are checked by
# the tests of the features that make them).
KEY = re.compile(r"""\bt\(\s*["']([^"'\\]+)["']\s*\)""")


def literal_keys() -> set[str]:
    keys: set[str] = set()
    for path in (TEMPLATES / "assets").rglob("*.js"):
        if "vendor" not in path.parts:
            keys.update(KEY.findall(path.read_text("utf-8")))
    return keys


# The page's own text.js (the module instance its scripts use), asked for each key.
LOOK_UP = """async (keys) => {
  const entry = document.querySelector("script[type=module][src$='/qbank.js']");
  const { t } = await import(new URL("lib/text.js", entry.src).href);
  return Object.fromEntries(keys.map((key) => [key, t(key)]));
}"""


def test_every_key_resolves_in_the_page_locale_across_instant_navigation(page: Any) -> None:
    """A page names its locale's table; after instant navigation within /en/, and after the
    language switcher takes the reader from /en/ to /zh/ and on to /tr/, every key the scripts
    name reads that locale's text (no key stands for itself), and the widget speaks it."""
    keys = sorted(literal_keys())
    assert len(keys) > 80  # the scan found the widget's keys
    page.goto("en/ml-engineer/throughput/")
    page.wait_for_load_state("networkidle")
    page.evaluate("window.__sameDocument = true")
    page.locator(".md-nav a[href$='numerics/']").first.click()  # instant, within /en/
    page.wait_for_url(re.compile("/en/ml-engineer/numerics/$"))
    assert page.evaluate("window.__sameDocument === true"), "not an instant navigation"
    assert page.evaluate(LOOK_UP, keys) == {k: strings_for("en")["widget"][k] for k in keys}
    for locale in ("zh", "tr"):
        page.hover(".md-header .md-select")
        page.click(f'a.md-select__link[hreflang="{locale}"]')
        page.wait_for_url(re.compile(f"/{locale}/ml-engineer/"))
        expect(page.locator("html")).to_have_attribute("lang", locale)
        page.wait_for_load_state("networkidle")
        text = strings_for(locale)["widget"]
        assert set(keys) <= set(text)  # the locale's table (English filled in) has every key
        assert page.evaluate(LOOK_UP, keys) == {k: text[k] for k in keys}, locale
        # on within the locale (this site's other locales are builds of their own, whose
        # pages Material loads in full), where the widget speaks the locale
        page.locator(".md-nav a[href$='throughput/']").first.click()
        page.wait_for_url(re.compile(f"/{locale}/ml-engineer/throughput/$"))
        choose(page, "b")
        expect(feedback(page)).to_have_text(re.compile(re.escape(text["right"].strip())))
