"""What starting a practice session downloads, in real Chromium, on a field with many topic
pages at one seniority: the list of that field and seniority and the topic pages (parts) of
the questions drawn, byte for byte the files on disk, never the whole field. Flashcards fetch
the page of the card shown (and the next card's), not every page."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from sitebuild import build_site, write_bank

pytestmark = pytest.mark.browser

FIELD = "platform"
QUESTIONS = 400  # 200 a topic: 8 pages each
CATALOG = """\
title: {en: Byte Bank}
locales: [en]
seniorities:
  junior: {en: Junior}
  mid: {en: Mid-level}
  senior: {en: Senior}
fields:
  platform:
    name: {en: Platform}
    specializations:
      ops:
        name: {en: Operations}
        topics:
          queues: {name: {en: Queues}}
          caches: {name: {en: Caches}}
"""


def _question(n: int) -> dict[str, Any]:
    return {
        "id": f"01a05d13-8d21-739a-baa2-{n:012x}",
        "difficulty": 2,
        "prompt": {"en": f"Question {n}: which setting bounds the backlog of worker pool {n}?"},
        "options": {
            "a": {"en": f"The queue depth of pool {n}"},
            "b": {"en": f"The retry budget of pool {n}"},
        },
        "answer": "a",
        "explanation": {"en": f"Pool {n} stops accepting work once its queue is full."},
    }


@pytest.fixture(scope="module")
def byte_site(
    tmp_path_factory: pytest.TempPathFactory,
    folder_server: Callable[[Path], AbstractContextManager[str]],
) -> Iterator[tuple[str, Path]]:
    tmp = tmp_path_factory.mktemp("practice-bytes")
    questions = {
        f"{FIELD}/{'queues' if n % 2 else 'caches'}/q{n}.yaml": _question(n)
        for n in range(QUESTIONS)
    }
    content = write_bank(tmp / "content", CATALOG, questions)
    with folder_server(tmp / "site") as url:
        try:
            build_site(tmp, content, site_url=url, theme={"name": "material", "font": False})
        except subprocess.CalledProcessError as error:
            pytest.fail(f"mkdocs build failed:\n{error.stdout}\n{error.stderr[-3000:]}")
        yield url, tmp / "site"


@pytest.fixture
def tab(browser: Any, byte_site: tuple[str, Path]) -> Iterator[Any]:
    context = browser.new_context(base_url=byte_site[0], service_workers="block")
    page = context.new_page()
    fetched: dict[str, int] = {}

    def heard(response: Any) -> None:
        path = response.url.removeprefix(byte_site[0])
        if response.request.resource_type == "fetch" and response.ok and "/api/search/" not in path:
            fetched[path] = len(response.body())

    page.on("response", heard)
    page.fetched = fetched
    yield page
    context.close()


def _pages(site: Path) -> list[str]:
    return sorted(
        f"{p.parent.relative_to(site).as_posix()}/"
        for topic in ("queues", "caches")
        for p in site.glob(f"en/{FIELD}/{topic}*/index.html")
    )


def _on_disk(site: Path, path: str) -> int:
    return (site / (path + "index.html" if path.endswith("/") else path)).stat().st_size


def test_a_session_start_downloads_the_list_and_the_drawn_questions_pages(
    tab: Any, byte_site: tuple[str, Path]
) -> None:
    site = byte_site[1]
    pages = _pages(site)
    assert len(pages) == 16
    tab.goto(f"en/{FIELD}/practice/")
    tab.locator("select.qb-practice-level").select_option("mid")
    tab.locator(".qb-practice-count").fill("20")
    tab.locator(".qb-start").click()
    tab.locator(".qb-practice-q").wait_for()
    tab.wait_for_load_state("networkidle")  # (every response handled)
    session = json.loads(
        tab.evaluate(f"sessionStorage.getItem('qbank:v1:session:en/{FIELD}')") or "null"
    )
    drawn = [item["id"] for item in session["items"]]
    assert len(drawn) == len(set(drawn)) == 20
    listed = f"en/api/practice/{FIELD}/mid.json"
    data = json.loads((site / listed).read_bytes())
    page_of = {qid: f"en/{FIELD}/{data['pages'][n]}/" for qid, _, n in data["questions"]}
    wanted = {listed} | {page_of[q] for q in drawn}
    # only the list and the drawn questions' pages, each as big as its file on disk
    assert set(tab.fetched) == wanted
    for path, size in tab.fetched.items():
        assert size == _on_disk(site, path), path
    # the drawn questions come from as few pages as hold 20: not the field's
    assert len(wanted) - 1 <= 4 < len(pages)
    # what the session shows is what the pages hold
    shown = tab.locator(".qb-practice-q").get_attribute("data-pid")
    assert shown == drawn[0]
    prompt = tab.locator(".qb-practice-q .qb-prompt").inner_text()
    assert prompt.startswith(f"Question {int(shown.rsplit('-', 1)[1], 16)}:")


def test_flashcards_fetch_the_pages_of_the_cards_shown(
    tab: Any, byte_site: tuple[str, Path]
) -> None:
    site = byte_site[1]
    tab.goto(f"en/flashcards/?field={FIELD}")
    card = tab.locator(".qb-flashcard")
    card.wait_for()
    tab.wait_for_load_state("networkidle")  # (every response handled)
    texts = [p for p in tab.fetched if p.endswith("/")]
    assert 1 <= len(texts) <= 2  # the first card's page and the next card's
    assert len(texts) < len(_pages(site))
    lists = {p for p in tab.fetched if p.endswith(".json")}
    levels = ("junior", "mid", "senior")
    assert lists == {f"en/api/practice/{FIELD}/{level}.json" for level in levels}
    first = card.get_attribute("data-id")
    card.click()  # turn
    tab.locator(".qb-flashcard-grade[data-grade='3']").click()
    tab.locator(f".qb-flashcard:not([data-id='{first}'])").wait_for()
