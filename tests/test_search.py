# ruff: noqa: RUF001  (Turkish dotless i in test text)
"""qbank.search over real builds: documents, the index per locale, rebuilds, the header."""

from __future__ import annotations

import base64
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from selectolax.lexbor import LexborHTMLParser as HTMLParser
from sitebuild import QUESTIONS, build_site, write_small_bank
from support.searchdocs import weighed

from qbank.bank.load import load_bank
from qbank.bank.loaded import Entry
from qbank.live.index import index_site_after_build, live_index
from qbank.search import (
    INDEX_DIR,
    LEVELS,
    SearchDoc,
    bank_docs,
    fold,
    terms,
    write_index,
)

LOCALES = ("en", "tr", "zh")
COMPOSITE = "01a05d13-8d21-739a-baa2-7dab67be4007"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("search-build")
    content = write_small_bank(tmp / "content")
    # Material's search configured too, as in most sites: qbank turns it off (asserted below).
    return build_site(tmp, content, plugins=["search", {"qbank": {"content_dir": str(content)}}])


def docs_of(content: Path) -> dict[str, list[SearchDoc]]:
    """Every locale's documents of the bank, with directory URLs (as the site is built)."""
    bank = load_bank(content)

    def url(locale: str, entry: Entry) -> str:
        return f"/{locale}/{entry.field}/{entry.topic}/"

    return {locale: bank_docs(bank, locale, url) for locale in LOCALES}


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[SearchDoc]]:
    return docs_of(write_small_bank(tmp_path_factory.mktemp("search-docs") / "content"))


def ids_in(locale: str) -> set[str]:
    return {q["id"] for q in QUESTIONS.values() if locale in q["prompt"]}


def read_index(site: Path, locale: str) -> dict[str, Any]:
    """A locale's index as written: manifest, documents, filters and every terms file."""
    folder = site / locale / INDEX_DIR
    manifest = json.loads((folder / "index.json").read_text("utf-8"))
    documents: list[list[str]] = []
    for number in range((manifest["docs"] + manifest["chunk"] - 1) // manifest["chunk"]):
        documents += json.loads((folder / f"d/{number}.json").read_text("utf-8"))
    postings: dict[str, list[int]] = {}
    for path in sorted((folder / "t").iterdir()):
        for term, deltas in json.loads(path.read_text("utf-8")).items():
            codes, total = [], 0
            for delta in deltas:
                total += delta
                codes.append(total)
            postings[term] = codes
    filters = json.loads((folder / "f.json").read_text("utf-8"))
    return {"manifest": manifest, "docs": documents, "terms": postings, "filters": filters}


def with_term(index: dict[str, Any], term: str) -> set[str]:
    """The URLs of the questions holding ``term``."""
    return {index["docs"][code // LEVELS][0] for code in index["terms"].get(term, [])}


def step_of(index: dict[str, Any], term: str, url: str) -> int:
    """The weight step of ``term`` in the question at ``url`` (0: not there)."""
    codes = [c for c in index["terms"].get(term, []) if index["docs"][c // LEVELS][0] == url]
    return codes[0] % LEVELS if codes else 0


def test_one_document_per_question_on_its_topic_page(docs: dict[str, list[SearchDoc]]) -> None:
    for locale in LOCALES:
        urls = [d.url for d in docs[locale]]
        assert sorted(u.rsplit("#q-", 1)[1] for u in urls) == sorted(ids_in(locale)), locale
        assert all(u.startswith(f"/{locale}/") for u in urls)
        assert not any("/level-" in u or "/practice/" in u for u in urls)
    composite = next(d for d in docs["tr"] if d.url.endswith(COMPOSITE))
    assert composite.url == f"/tr/backend/indexing/#q-{COMPOSITE}"
    assert composite.filters == (("field", "backend"), ("seniority", "mid"), ("difficulty", "2"))


def test_terms_fold_case_turkish_i_and_cut_cjk_into_characters_and_pairs() -> None:
    assert fold("İstanbul IŞIK", "tr") == "istanbul isik"  # Turkish case rules, then ASCII
    assert fold("Index", "en") == "index"
    assert list(terms("Veritabanı, B-tree index!", "tr")) == ["veritaban", "b", "tree", "index"]
    assert list(terms("数据库索引", "zh")) == [*"数据库索引", "数据", "据库", "库索", "索引"]
    assert list(terms("用 SQL 查询", "zh")) == ["用", "sql", "查", "询", "查询"]


def test_the_built_site_has_an_index_per_locale(site: Path) -> None:
    for locale in LOCALES:
        index = read_index(site, locale)
        assert index["manifest"]["docs"] == len(ids_in(locale))
        assert sorted(d[0].rsplit("#q-", 1)[1] for d in index["docs"]) == sorted(ids_in(locale))
        names = {p.name for p in (site / locale / INDEX_DIR / "t").iterdir()}
        # the listed terms files, and one file per CJK bucket (listed by their number)
        listed = index["manifest"]["shards"].split("\n")
        assert len(names) == len(listed) + index["manifest"]["buckets"]
    assert not list(site.rglob("search_index.json"))  # Material's search, configured, is off


def test_the_index_finds_words_of_every_text_but_never_holds_the_answer_line(site: Path) -> None:
    index = read_index(site, "en")
    composite = f"/en/backend/indexing/#q-{COMPOSITE}"
    _url, topic, prompt, more = next(d for d in index["docs"] if d[0] == composite)
    assert prompt.startswith("An index on \ue000(a, b)\ue001 exists.")  # code marked
    assert topic == "Indexing"
    assert "Leftmost prefix" in more  # the explanation is shown for excerpts...
    assert composite in with_term(index, "leftmost")  # ...and searchable
    # A word of the prompt weighs more than a word said as often in the explanation only.
    assert step_of(index, "index", composite) > step_of(index, "leftmost", composite) > 0
    for locale in LOCALES:
        folder = site / locale / INDEX_DIR
        for path in folder.rglob("*.json"):
            text = path.read_text("utf-8")
            for hidden in ("Answer:", "Cevap:", "Show answer", "Permalink", "Report a problem"):
                assert hidden not in text, (path, hidden)
    number = next(i for i, d in enumerate(index["docs"]) if d[0] == composite)
    bits = base64.b64decode(index["filters"]["seniority"]["mid"])
    assert bits[number >> 3] >> (number & 7) & 1
    bits = base64.b64decode(index["filters"]["field"]["ml-engineer"])
    assert not bits[number >> 3] >> (number & 7) & 1


def test_chinese_pairs_find_a_word_inside_a_sentence(site: Path) -> None:
    index = read_index(site, "zh")
    some = next(d for d in index["docs"] if len(d[2]) > 6)
    cjk = "".join(c for c in some[2] if "\u4e00" <= c <= "\u9fff")[:4]
    assert len(cjk) == 4
    hits = [with_term(index, cjk[i : i + 2]) for i in range(3)]
    assert some[0] in set.intersection(*hits)


def test_every_page_has_the_search_box_in_its_language(site: Path) -> None:
    for locale, label in (("en", "Search questions"), ("tr", "Soru ara"), ("zh", "搜索题目")):
        for page in (
            "index.html",
            "backend/indexing/index.html",
            "ml-engineer/practice/index.html",
        ):
            html = HTMLParser((site / locale / page).read_text("utf-8"))
            box = html.css_first("header .qb-search")
            assert box is not None, f"{locale}/{page}"
            assert box.attributes["data-locale"] == locale
            field = box.css_first(".qb-search__input")
            assert field is not None
            assert field.attributes["placeholder"] == label
            settings = json.loads(box.attributes["data-qb-search"] or "")
            assert settings["locales"] == list(LOCALES)
            assert html.css_first(".md-search") is None  # not Material's (configured) search
            # qbank.js loads the box's script when the reader reaches for it
            scripts = [s.attributes.get("src") or "" for s in html.css("script")]
            assert any(s.endswith("assets/qbank.js") for s in scripts)
            assert not any(s.endswith("assets/search.js") for s in scripts)
            assert (site / "assets/search.js").is_file()


def test_rebuilds_update_the_index_in_place(
    tmp_path: Path, site: Path, docs: dict[str, list[SearchDoc]]
) -> None:
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    for locale in LOCALES:
        shutil.rmtree(copy / locale / INDEX_DIR)
    first = index_site_after_build(copy, docs)
    assert first is not None
    assert first.languages == {locale: len(ids_in(locale)) for locale in LOCALES}
    live = live_index(copy)
    assert live is not None
    # An edit of one question is written before the rebuild returns (no background work).
    edited = docs["en"][0]
    changed = weighed(
        edited.url, edited.topic, "Entirely new words", edited.more, edited.filters,
        (("entir", 5), ("new", 5), ("word", 5)),
    )  # fmt: skip
    assert index_site_after_build(copy, {**docs, "en": [changed, *docs["en"][1:]]}) is None
    assert not live.pending
    assert live.running is None
    index = read_index(copy, "en")
    assert with_term(index, "entir") == {edited.url}
    assert index["docs"][0][2] == "Entirely new words"
    # The English questions on indexing are gone from the bank: rebuilt in the background,
    # and the served folder keeps an index all the while.
    fewer = {**docs, "en": [d for d in docs["en"] if not d.url.startswith("/en/backend/indexing/")]}
    assert index_site_after_build(copy, fewer) is None
    assert (copy / "en" / INDEX_DIR / "index.json").is_file()
    assert live.wait(timeout=120)
    manifest = json.loads((copy / "en" / INDEX_DIR / "index.json").read_text("utf-8"))
    assert manifest["docs"] == len(ids_in("en")) - 2
    assert not [p for p in (copy / "en" / "api").iterdir() if p.name.startswith(".")]


def test_write_index_replaces_a_previous_index(
    tmp_path: Path, docs: dict[str, list[SearchDoc]]
) -> None:
    folder = tmp_path / "index"
    folder.mkdir()
    stale = folder / "stale.txt"
    stale.write_text("old", "utf-8")
    write_index(docs["en"], folder, "en")
    assert not stale.exists()
    assert (folder / "index.json").is_file()


def test_material_search_is_turned_off_when_configured(tmp_path: Path) -> None:
    content = write_small_bank(tmp_path / "content")
    site = build_site(
        tmp_path, content, plugins=["search", {"qbank": {"content_dir": str(content)}}]
    )
    assert not (site / "search" / "search_index.json").exists()
    assert (site / "en" / INDEX_DIR / "index.json").is_file()
    html = HTMLParser((site / "en" / "index.html").read_text("utf-8"))
    assert html.css_first("header .qb-search") is not None
    assert html.css_first(".md-search") is None
