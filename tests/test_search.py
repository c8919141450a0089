"""qbank.search over real builds: records, the Pagefind index per locale, rebuilds, the header."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from selectolax.lexbor import LexborHTMLParser as HTMLParser
from sitebuild import QUESTIONS, build_site, write_small_bank

from qbank.bank import Entry, load_bank
from qbank.search import (
    SearchRecord,
    bank_records,
    index_site_after_build,
    live_index,
    write_records,
)

LOCALES = ("en", "tr", "zh")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("search-build")
    return build_site(tmp, write_small_bank(tmp / "content"))


def records_of(content: Path) -> list[SearchRecord]:
    """Every locale's records of the bank, with directory URLs (as the site is built)."""
    bank = load_bank(content)

    def url(locale: str, entry: Entry) -> str:
        return f"/{locale}/{entry.field}/{entry.topic}/"

    return [r for locale in LOCALES for r in bank_records(bank, locale, url)]


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[SearchRecord]:
    return records_of(write_small_bank(tmp_path_factory.mktemp("search-records") / "content"))


def ids_in(locale: str) -> set[str]:
    return {q["id"] for q in QUESTIONS.values() if locale in q["prompt"]}


def fragments(index: Path) -> list[dict[str, Any]]:
    """Every fragment (one per record) the browser could download, decoded."""
    decoded = []
    for path in sorted((index / "fragment").iterdir()):
        data = gzip.decompress(path.read_bytes())
        assert data.startswith(b"pagefind_dcd")
        decoded.append(json.loads(data[len(b"pagefind_dcd") :]))
    return decoded


def test_one_record_per_question_on_its_topic_page(records: list[SearchRecord]) -> None:
    for locale in LOCALES:
        urls = [r.url for r in records if r.language == locale]
        assert sorted(u.rsplit("#q-", 1)[1] for u in urls) == sorted(ids_in(locale)), locale
        assert all(u.startswith(f"/{locale}/") for u in urls)
        assert not any("/level-" in u or "/practice/" in u for u in urls)
    composite = next(r for r in records if r.url.endswith("be4007") and r.language == "tr")
    assert composite.url == "/tr/backend/indexing/#q-01a05d13-8d21-739a-baa2-7dab67be4007"
    assert '<html lang="tr">' in composite.html
    assert f'data-url="{composite.url}"' in composite.html  # the search box links here
    assert "qb-correct" not in composite.html


def test_the_built_site_has_one_pagefind_index_per_locale(site: Path) -> None:
    entry = json.loads((site / "pagefind/pagefind-entry.json").read_text("utf-8"))
    counts = {lang: data["page_count"] for lang, data in entry["languages"].items()}
    assert counts == {locale: len(ids_in(locale)) for locale in LOCALES}
    assert entry["languages"]["tr"]["wasm"] == "tr"  # Turkish is stemmed
    for name in ("pagefind.js", "pagefind-worker.js", "wasm.unknown.pagefind"):
        assert (site / "pagefind" / name).is_file()
    assert not (site / "search" / "search_index.json").exists()  # Material's search is off


def test_fragments_carry_filters_and_the_prompt_but_never_the_answer_line(site: Path) -> None:
    records = fragments(site / "pagefind")
    assert len(records) == sum(len(ids_in(locale)) for locale in LOCALES)
    composite = next(
        r
        for r in records
        if r["meta"]["url"] == "/en/backend/indexing/#q-01a05d13-8d21-739a-baa2-7dab67be4007"
    )
    assert composite["filters"] == {"difficulty": ["2"], "field": ["backend"], "seniority": ["mid"]}
    assert composite["meta"]["prompt"].startswith("An index on (a, b) exists.")
    assert composite["meta"]["topic"] == "Indexing"
    assert "Leftmost prefix" in composite["content"]  # the explanation is searchable
    for record in records:
        text = record["content"] + json.dumps(record["meta"], ensure_ascii=False)
        for hidden in ("Answer:", "Cevap:", "Show answer", "Permalink", "Report a problem"):
            assert hidden not in text, (record["url"], hidden)
    profile = next(r for r in records if r["meta"]["url"].endswith("be4003"))
    assert profile["filters"]["seniority"] == ["mid", "senior"]
    assert "difficulty" not in profile["filters"]


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
            assert html.css_first(".md-search") is None  # not Material's search
            scripts = [s.attributes.get("src") or "" for s in html.css("script")]
            assert any(s.endswith("assets/search.js") for s in scripts)


def test_rebuilds_restore_the_index_at_once_and_refresh_it_in_the_background(
    tmp_path: Path, site: Path, records: list[SearchRecord]
) -> None:
    copy = tmp_path / "site"
    shutil.copytree(site, copy, ignore=shutil.ignore_patterns("pagefind"))
    first = index_site_after_build(copy, records)
    assert first is not None
    assert first.languages == {locale: len(ids_in(locale)) for locale in LOCALES}
    # A rebuild wipes the folder; the English questions on indexing are gone from the bank.
    shutil.rmtree(copy / "pagefind")
    fewer = [r for r in records if not r.url.startswith("/en/backend/indexing/")]
    assert index_site_after_build(copy, fewer) is None
    assert (copy / "pagefind/pagefind-entry.json").is_file()  # the last index, at once
    live = live_index(copy)
    assert live is not None
    assert live.thread is not None
    live.thread.join(timeout=120)
    entry = json.loads((copy / "pagefind/pagefind-entry.json").read_text("utf-8"))
    assert entry["languages"]["en"]["page_count"] == len(ids_in("en")) - 2


def test_write_records_replaces_a_previous_index(
    tmp_path: Path, site: Path, records: list[SearchRecord]
) -> None:
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    stale = copy / "pagefind" / "stale.txt"
    stale.write_text("old", "utf-8")
    report = write_records(records, copy / "pagefind")
    assert not stale.exists()
    assert report.records == sum(len(ids_in(locale)) for locale in LOCALES)
    assert f"en {len(ids_in('en'))}," in report.summary()


def test_material_search_is_turned_off_when_configured(tmp_path: Path) -> None:
    content = write_small_bank(tmp_path / "content")
    site = build_site(
        tmp_path, content, plugins=["search", {"qbank": {"content_dir": str(content)}}]
    )
    assert not (site / "search" / "search_index.json").exists()
    assert (site / "pagefind" / "pagefind-entry.json").is_file()
    html = HTMLParser((site / "en" / "index.html").read_text("utf-8"))
    assert html.css_first("header .qb-search") is not None
    assert html.css_first(".md-search") is None
