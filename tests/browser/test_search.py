# ruff: noqa: RUF001  (Turkish and Chinese test content)
"""The header's search in real Chromium over a real build of the search bank."""

from __future__ import annotations

import base64
import itertools
import json
import re
import shutil
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
import search_bank
from playwright.sync_api import expect
from search_bank import BACKUPS, LATENCY_EASY, LATENCY_HARD, LATENCY_OPEN, LOADING, POOL
from support.searchdocs import weighed

from qbank.search import INDEX_DIR, LEVELS, SearchDoc, index, write_index

search_site = search_bank.search_site  # the module-scoped fixture

pytestmark = pytest.mark.browser


@pytest.fixture
def tab(
    browser: Any, search_site: tuple[str, Path], page_recorder: Callable[..., Any]
) -> Iterator[Any]:
    """A fresh page of the served search site; its requests are recorded."""
    with page_recorder(browser, search_site[0]) as page:
        yield page


def search(tab: Any, query: str) -> list[str]:
    """Open the search box, type ``query`` and return the result links (hrefs)."""
    box = tab.locator(".qb-search")
    if box.locator(".qb-search__panel").is_hidden():
        box.locator(".qb-search__open").click()
    return settle(tab, lambda: box.locator(".qb-search__input").fill(query))


def settle(tab: Any, action: Callable[[], object]) -> list[str]:
    """Do ``action``, wait until the search it starts has finished; return the result links."""
    before = tab.locator(".qb-search").get_attribute("data-done") or "0"
    action()
    tab.wait_for_function(
        "(n) => (document.querySelector('.qb-search').dataset.done || '0') !== n", arg=before
    )
    links = tab.locator(".qb-search__result a")
    return [links.nth(i).get_attribute("href") for i in range(links.count())]


def choose(tab: Any, name: str, value: str) -> list[str]:
    """Pick a filter's value and return the result links."""
    select = tab.locator(f'.qb-search__filters select[name="{name}"]')
    return settle(tab, lambda: select.select_option(value))


def anchor(href: str) -> str:
    return href.split("#", 1)[1]


def test_turkish_word_with_suffixes_is_found_by_its_stem(tab: Any) -> None:
    tab.goto("tr/")
    hits = search(tab, "veritabanı")
    assert [anchor(h) for h in hits] == [f"q-{BACKUPS}"]
    assert "/tr/backend/storage/" in hits[0]
    snippet = tab.locator(".qb-search__result").first.inner_text()
    assert "Veritabanlarındaki" in snippet


def test_english_phrase_finds_its_question(tab: Any) -> None:
    tab.goto("en/")
    hits = search(tab, '"connection pool exhaustion"')
    assert [anchor(h) for h in hits] == [f"q-{POOL}"]


def test_chinese_word_inside_an_unsegmented_sentence(tab: Any) -> None:
    tab.goto("zh/")
    hits = search(tab, "数据加载")
    assert hits
    assert anchor(hits[0]) == f"q-{LOADING}"
    assert all("/zh/" in h for h in hits)


def test_explanation_words_find_a_question_but_never_show_the_answer(tab: Any) -> None:
    tab.goto("en/")
    hits = search(tab, "Littlewood")
    assert [anchor(h) for h in hits] == [f"q-{POOL}"]
    text = tab.locator(".qb-search__results").inner_text()
    assert "connection pool exhaustion" in text  # the prompt...
    # ...and, since the match is in the explanation, an excerpt around it, marked
    excerpt = tab.locator(".qb-search__result .qb-search__excerpt")
    assert excerpt.locator("mark").inner_text() == "Littlewood"
    assert "Answer" not in text  # never which option is right
    assert tab.locator(".qb-search__results .qb-correct").count() == 0


def test_one_result_per_question_and_only_in_the_page_language(tab: Any) -> None:
    tab.goto("en/ml-engineer/level-senior/")  # a seniority page lists them too
    hits = search(tab, "latency")
    assert sorted(anchor(h) for h in hits) == sorted(
        f"q-{q}" for q in (LATENCY_EASY, LATENCY_HARD, LATENCY_OPEN)
    )
    assert all("/en/ml-engineer/input/" in h for h in hits)


def test_clicking_a_result_lands_on_the_question_anchor(tab: Any) -> None:
    tab.goto("en/backend/storage/")
    hits = search(tab, "latency")
    target = f"q-{LATENCY_HARD}"
    tab.locator(f'.qb-search__result a[href$="#{target}"]').click()
    tab.wait_for_url(f"**/en/ml-engineer/input/#{target}")
    question = tab.locator(f"#{target}")
    question.wait_for()
    tab.wait_for_function(
        "(id) => { const r = document.getElementById(id).getBoundingClientRect();"
        " return r.top >= 0 && r.top < window.innerHeight; }",
        arg=target,
    )
    assert tab.locator(".qb-search__panel").is_hidden()
    assert len(hits) == 3


def test_filters_narrow_the_results(tab: Any) -> None:
    tab.goto("en/")
    assert len(search(tab, "latency")) == 3
    assert [anchor(h) for h in choose(tab, "difficulty", "3")] == [f"q-{LATENCY_HARD}"]
    choose(tab, "difficulty", "")
    assert [anchor(h) for h in choose(tab, "seniority", "mid")] == [f"q-{LATENCY_OPEN}"]
    choose(tab, "seniority", "")
    assert choose(tab, "field", "backend") == []
    assert tab.locator(".qb-search__status").inner_text() == "No question matches"


@pytest.mark.parametrize(
    ("locale", "placeholder", "seniority_label", "count"),
    [
        ("en", "Search questions", "Seniority", "1 question"),
        ("tr", "Soru ara", "Kıdem", "1 soru"),
        ("zh", "搜索题目", "级别", "1 道题"),
    ],
)
def test_interface_is_in_the_page_language(
    tab: Any, locale: str, placeholder: str, seniority_label: str, count: str
) -> None:
    tab.goto(f"{locale}/")
    box = tab.locator(".qb-search")
    assert box.locator(".qb-search__open").get_attribute("aria-label") == placeholder
    box.locator(".qb-search__open").click()
    assert box.locator(".qb-search__input").get_attribute("placeholder") == placeholder
    # (the box opens at the tap; its filters come with search.js)
    expect(box.locator(".qb-search__filter", has_text=seniority_label)).to_have_count(1)
    labels = box.locator(".qb-search__filter").all_inner_texts()
    assert any(label.startswith(seniority_label) for label in labels)
    search(tab, {"en": "Littlewood", "tr": "veritabanı", "zh": "显卡"}[locale])
    assert box.locator(".qb-search__status").inner_text() == count


def test_search_survives_instant_navigation_and_makes_no_third_party_request(
    tab: Any, search_site: tuple[str, Path]
) -> None:
    tab.goto("en/")
    assert len(search(tab, "latency")) == 3
    tab.keyboard.press("Escape")
    # Follow a nav link: Material's instant navigation swaps the page without a reload.
    tab.evaluate("window.__marker = 1")
    tab.locator('.md-content a[href$="/ml-engineer/"]').first.click()
    tab.wait_for_url("**/en/ml-engineer/")
    assert tab.evaluate("window.__marker") == 1
    assert [anchor(h) for h in search(tab, "Littlewood")] == [f"q-{POOL}"]
    base = search_site[0]
    assert tab.requests
    assert all(url.startswith(base) for url in tab.requests)
    assert any(url.endswith("/en/api/search/index.json") for url in tab.requests)


def test_a_misspelt_word_still_finds_its_question(tab: Any) -> None:
    """A word that matches nothing as typed finds the terms a typo or two away in its terms
    file ("exhuastion": two letters swapped; "utilisation": one changed), and the result
    marks the word it found; a short word is never stretched to another."""
    tab.goto("en/")
    assert [anchor(h) for h in search(tab, "exhuastion")] == [f"q-{POOL}"]
    hits = search(tab, "accelerator utilisation")
    assert f"q-{LOADING}" in [anchor(h) for h in hits]
    marks = tab.locator(".qb-search__result").first.locator("mark")
    assert "utilization" in [marks.nth(i).inner_text().lower() for i in range(marks.count())]
    assert search(tab, "poop") == []  # four letters: as typed only (not "pool")


def status(tab: Any) -> str:
    return tab.locator(".qb-search__status").inner_text()


@pytest.mark.parametrize(
    ("locale", "says"),
    [("en", "Symbols such as"), ("tr", "simgeler aranamaz"), ("zh", "无法搜索")],
)
def test_a_query_without_a_word_says_symbols_cannot_be_searched(
    tab: Any, locale: str, says: str
) -> None:
    """``===`` has no word to look for: no result (it used to list the whole bank), and the
    status says why."""
    tab.goto(f"{locale}/")
    for query in ("===", "=> () {}"):
        assert search(tab, query) == [], query
        assert says in status(tab), query
        assert tab.locator(".qb-search").get_attribute("data-count") == "0"
    assert search(tab, "latency" if locale == "en" else "数据" if locale == "zh" else "yedek")


def test_a_chinese_word_the_bank_lacks_is_not_found_through_its_characters(tab: Any) -> None:
    """检索 is in no question, though 检 is (检查) and 索 is (索引): nothing is listed and the
    status names the word; each of those words alone still finds its question."""
    tab.goto("zh/")
    assert search(tab, "检索") == []
    assert status(tab) == "没有题目包含“检索”"
    assert [anchor(h) for h in search(tab, "检查")] == [f"q-{POOL}"]
    assert [anchor(h) for h in search(tab, "索引")] == [f"q-{LATENCY_EASY}"]


@pytest.mark.parametrize(
    ("locale", "query", "every", "some", "says"),
    [
        ("en", "latency compute", [LATENCY_EASY, LATENCY_HARD], [LATENCY_OPEN],
         "2 with every word · 1 more with some words"),
        ("zh", "数据 索引", [LATENCY_EASY], [LOADING],
         "1 道题包含全部词语 · 另有 1 道包含部分词语"),
        ("tr", "yedek bağlantı", [], [BACKUPS, POOL],
         "Tüm sözcükleri içeren soru yok · 2 soruda bazıları var"),
    ],
)  # fmt: skip
def test_a_query_of_several_words_tells_every_word_from_some(
    tab: Any, locale: str, query: str, every: list[str], some: list[str], says: str
) -> None:
    """Results with every word come first and are counted apart from those with only some;
    a line marks where the second group starts."""
    tab.goto(f"{locale}/")
    hits = [anchor(h) for h in search(tab, query)]
    assert status(tab) == says
    assert sorted(hits[: len(every)]) == sorted(f"q-{q}" for q in every)
    assert sorted(hits[len(every) :]) == sorted(f"q-{q}" for q in some)
    marked = tab.locator(".qb-search__result--some")
    if every:
        expect(marked).to_have_count(1)
        assert marked.locator("a").get_attribute("href").endswith(hits[len(every)])
        assert marked.locator(".qb-search__some").inner_text()
    else:  # nothing to tell apart: no line
        expect(marked).to_have_count(0)


def test_one_word_counts_as_before(tab: Any) -> None:
    tab.goto("en/")
    assert len(search(tab, "latency")) == 3
    assert status(tab) == "3 questions"


def documents_back(folder: Path) -> list[SearchDoc]:
    """The documents a written index was made from, read back from its files."""
    manifest = json.loads((folder / "index.json").read_text("utf-8"))
    shown: list[list[str]] = []
    for number in range((manifest["docs"] + manifest["chunk"] - 1) // manifest["chunk"]):
        shown += json.loads((folder / f"d/{number}.json").read_text("utf-8"))
    terms: list[list[tuple[str, int]]] = [[] for _ in shown]
    for path in (folder / "t").iterdir():
        for term, deltas in json.loads(path.read_text("utf-8")).items():
            for code in itertools.accumulate(deltas):
                terms[code // LEVELS].append((term, code % LEVELS))
    filters: list[list[tuple[str, str]]] = [[] for _ in shown]
    for name, values in json.loads((folder / "f.json").read_text("utf-8")).items():
        for value, encoded in values.items():
            bits = base64.b64decode(encoded)
            for number in range(len(shown)):
                if bits[number >> 3] >> (number & 7) & 1:
                    filters[number].append((name, value))
    return [
        weighed(url, topic, prompt, more, tuple(filters[n]), sorted(terms[n]))
        for n, (url, topic, prompt, more) in enumerate(shown)
    ]


def queries_of(folder: Path, locale: str) -> list[str]:
    """What a reader may type in ``locale``: words of the prompts, the same with a typo (two
    letters swapped), their first two letters, a Chinese run's pairs and characters."""
    manifest = json.loads((folder / "index.json").read_text("utf-8"))
    prompts = [
        prompt
        for number in range((manifest["docs"] + manifest["chunk"] - 1) // manifest["chunk"])
        for _url, _topic, prompt, _more in json.loads((folder / f"d/{number}.json").read_text())
    ]
    words = sorted({w for p in prompts for w in re.findall(r"\w+", p) if not w.isdigit()})
    found: list[str] = []
    for word in words[:: max(1, len(words) // 12)]:
        if re.fullmatch(r"[\u4e00-\u9fff]+", word):
            found += [word[:4], word[:2], word[0]]
        else:
            found += [word, word[:2]]
            if len(word) > 4:
                found.append(word[0] + word[2] + word[1] + word[3:])
    return found


@pytest.mark.parametrize(("file_bytes", "bucket_postings"), [(0, 2000), (40, 3)])
def test_the_same_results_whatever_terms_share_a_file(
    browser: Any,
    search_site: tuple[str, Path],
    folder_server: Callable[[Path], AbstractContextManager[str]],
    page_recorder: Callable[..., Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    file_bytes: int,
    bucket_postings: int,
) -> None:
    """The site's index (a run of prefixes a file) against the same documents' index with
    each prefix in a file of its own (``FILE_BYTES`` 0: the files of before) or in runs of
    40 bytes (many runs a first letter), CJK buckets of 2,000 postings (as before) or of 3:
    every query finds the same questions in the same order, counted the same."""
    base, site = search_site
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    monkeypatch.setattr(index, "FILE_BYTES", file_bytes)
    monkeypatch.setattr(index, "BUCKET_POSTINGS", bucket_postings)
    for locale in ("en", "tr", "zh"):
        write_index(documents_back(site / locale / INDEX_DIR), copy / locale / INDEX_DIR, locale)
    runs = json.loads((site / "en" / INDEX_DIR / "index.json").read_bytes())["shards"]
    other_runs = json.loads((copy / "en" / INDEX_DIR / "index.json").read_bytes())["shards"]
    assert len(other_runs.split("\n")) > 2 * len(runs.split("\n"))
    with (
        folder_server(copy) as other,
        page_recorder(browser, base) as mine,
        page_recorder(browser, other) as theirs,
    ):
        for locale in ("en", "tr", "zh"):
            queries = queries_of(site / locale / INDEX_DIR, locale)
            assert len(queries) > 10
            mine.goto(f"{locale}/")
            theirs.goto(f"{locale}/")
            for query in queries:
                got = [h.removeprefix(base) for h in search(mine, query)]
                want = [h.removeprefix(other) for h in search(theirs, query)]
                assert (query, got, status(mine)) == (query, want, status(theirs))
