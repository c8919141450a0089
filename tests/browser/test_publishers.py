"""What a reader does, in Chromium, on the site each publisher makes of ``qbank build``'s
tree without the qbank plugin: MkDocs 1.6 with Material, ProperDocs, Zensical."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from chrome_text import english_left, material_text
from playwright.sync_api import expect
from sitebuild import PUBLISHERS, publish_tree, write_small_bank, write_tree

pytestmark = pytest.mark.browser

SINGLE = "01a05d13-8d21-739a-baa2-7dab67be4001"  # throughput, answer b
JUNIOR = "01a05d13-8d21-739a-baa2-7dab67be4002"  # throughput, answer a
OPEN = "01a05d13-8d21-739a-baa2-7dab67be4003"  # throughput, open, senior/mid
COVERING = "01a05d13-8d21-739a-baa2-7dab67be4008"  # indexing, open, en/tr/zh
TOPIC = "ml-engineer/throughput/"
THEME = {
    "name": "material",
    "font": False,
    "features": ["navigation.instant", "navigation.top", "navigation.footer"],
}


@pytest.fixture(scope="module", params=PUBLISHERS)
def published(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    folder_server: Callable[[Path], AbstractContextManager[str]],
) -> Iterator[str]:
    """The small bank's tree, published by one publisher and served on 127.0.0.1."""
    publisher = str(request.param)
    folder = tmp_path_factory.mktemp(f"tree-{publisher}")
    site = folder / "tree" / "site"
    site.mkdir(parents=True)
    with folder_server(site) as url:
        content = write_small_bank(folder / "content")
        try:
            publish_tree(write_tree(folder, content, theme=THEME, site_url=url), publisher)
        except subprocess.CalledProcessError as error:
            pytest.fail(f"{publisher} failed:\n{error.stdout[-3000:]}\n{error.stderr[-3000:]}")
        yield url


@pytest.fixture
def page(browser: Any, published: str, page_recorder: Any) -> Iterator[Any]:
    with page_recorder(browser, published) as tab:
        yield tab


def question(page: Any, qid: str) -> Any:
    return page.locator(f"#q-{qid}")


def option(page: Any, qid: str, key: str) -> Any:
    return question(page, qid).locator(f'.qb-option[data-key="{key}"]')


def test_reveal_explanation_and_the_page_language(page: Any) -> None:
    page.goto("en/" + TOPIC)
    option(page, SINGLE, "a").click()
    expect(option(page, SINGLE, "b")).to_have_class(re.compile(r"\bqb-right\b"))
    expect(question(page, SINGLE).locator(".qb-explanation")).to_be_visible()
    page.goto("tr/" + TOPIC)
    assert page.evaluate("document.documentElement.lang") == "tr"
    option(page, SINGLE, "b").click()
    expect(question(page, SINGLE).locator(".qb-feedback")).to_have_text(re.compile("Doğru"))


def test_material_text_is_in_the_page_language(page: Any) -> None:
    """One build holds every locale: what Material writes around each page (header, palette
    toggles, search box, footer, tooltips…) still follows the page's locale."""
    assert english_left(page, TOPIC) == []
    assert material_text(page)["palette toggles"] == "切换到深色模式 | 切换到浅色模式"
    error = "() => JSON.parse(document.getElementById('__config').textContent).translations"
    assert page.evaluate(error).get("clipboard.error", "无法复制到剪贴板") == "无法复制到剪贴板"


def test_progress_survives_a_reload(page: Any) -> None:
    page.goto("en/" + TOPIC)
    option(page, SINGLE, "b").click()
    option(page, JUNIOR, "b").click()
    page.reload()
    expect(page.locator(".qb-page-progress")).to_contain_text("2 of 4 answered · 1 right")
    stored = json.loads(page.evaluate("localStorage.getItem('qbank:v1:progress')"))
    assert set(stored) == {SINGLE, JUNIOR}


def test_filters(page: Any) -> None:
    page.goto("en/" + TOPIC + "?level=junior")
    expect(question(page, JUNIOR)).to_be_visible()
    expect(question(page, SINGLE)).to_be_hidden()
    expect(page.locator(".qb-filters select[name=level]")).to_have_value("junior")


def test_practice(page: Any) -> None:
    page.goto("en/ml-engineer/practice/")
    page.locator(".qb-start").click()
    expect(page.locator(".qb-practice-q")).to_be_visible()


@pytest.mark.parametrize(
    ("locale", "query"), [("en", "covering index"), ("tr", "kapsayan"), ("zh", "覆盖索引")]
)
def test_search_in_each_locale(page: Any, locale: str, query: str) -> None:
    page.goto(f"{locale}/")
    box = page.locator(".qb-search")
    assert box.get_attribute("data-locale") == locale
    box.locator(".qb-search__open").click()
    before = box.get_attribute("data-done") or "0"
    box.locator(".qb-search__input").fill(query)
    page.wait_for_function(
        "(n) => (document.querySelector('.qb-search').dataset.done || '0') !== n", arg=before
    )
    links = box.locator(".qb-search__result a")
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    assert any(h.endswith(f"#q-{COVERING}") and f"/{locale}/" in h for h in hrefs), hrefs


def test_language_switcher_stays_on_the_page(page: Any) -> None:
    page.goto("en/" + TOPIC)
    page.wait_for_load_state("networkidle")
    page.hover(".md-header .md-select")
    page.click('a.md-select__link[hreflang="zh"]')
    page.wait_for_url(f"**/zh/{TOPIC}")
    # one build holds every locale: crossing into another loads the page in its language
    expect(page.locator("html")).to_have_attribute("lang", "zh")
    expect(page.locator(".qb-search")).to_have_attribute("data-locale", "zh")
    expect(page.locator(".qb-q").first).to_be_visible()


def test_no_request_leaves_the_local_host(page: Any) -> None:
    page.goto("en/" + TOPIC)
    option(page, SINGLE, "a").click()
    page.goto("en/ml-engineer/practice/")
    page.locator(".qb-start").click()
    expect(page.locator(".qb-practice-q")).to_be_visible()
    page.goto("zh/backend/indexing/")
    page.wait_for_load_state("networkidle")
    hosts = {urlparse(url).hostname for url in page.requests if not url.startswith("data:")}
    assert hosts == {"127.0.0.1"}, page.requests


def test_the_same_worker_keeps_a_field_for_offline_study(browser: Any, published: str) -> None:
    """Each publisher ships the tree's sw.js at its site root and offline.js as a module: a
    kept field's topic page opens offline (issue 32)."""
    context = browser.new_context(base_url=published, service_workers="allow")
    try:
        tab = context.new_page()
        tab.goto("en/backend/")
        tab.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=20_000)
        box = tab.locator(".qb-offline")
        box.locator("button").click()
        tab.wait_for_function(
            "() => /Kept for offline/.test(document.querySelector('.qb-offline').textContent)",
            timeout=30_000,
        )
        context.set_offline(True)
        tab.goto("en/backend/indexing/")
        expect(question(tab, COVERING)).to_be_attached()
        tab.goto("en/backend/practice/")
        tab.wait_for_selector(".qb-practice")
    finally:
        context.close()
