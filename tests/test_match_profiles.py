# ruff: noqa: RUF001  (Turkish and Chinese terms)
"""The topic profiles of "match my job description" (qbank/match.py), over the sample bank."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from qbank.bank.load import load_bank
from qbank.bank.loaded import Bank, Entry
from qbank.bank.problems import ContentError
from qbank.search.tokenize import is_cjk, stemmer_spec, terms, words
from qbank.site.match import _without_code, match_file, match_path, topic_profiles
from qbank.site.render import render_site

Counts = dict[str, float]
SAMPLE = Path(__file__).resolve().parent.parent / "content"


@pytest.fixture(scope="module")
def bank() -> Bank:
    return load_bank(SAMPLE)


def profile(bank: Bank, locale: str, topic: str) -> dict[str, int]:
    data = topic_profiles(bank, locale)
    return next(t for t in data["topics"] if t["topic"] == topic)["terms"]


def test_every_topic_in_catalog_order_with_its_names_and_counts(bank: Bank) -> None:
    data = topic_profiles(bank, "tr")
    assert [(t["field"], t["topic"]) for t in data["topics"]] == [
        (f, t) for f, _s, t in bank.topics()
    ]
    caching = next(t for t in data["topics"] if t["topic"] == "caching")
    assert caching["name"] == "Önbellekleme"
    assert caching["specialization"] == "Dağıtık Sistemler"
    entries = bank.by_topic["backend-engineer", "caching"]
    assert caching["count"] == len([e for e in entries if "tr" in e.locales])
    assert sum(caching["levels"].values()) >= caching["count"]
    assert data["stem"] == stemmer_spec("tr")
    assert data["seniorities"][2] == ["senior", "Kıdemli"]
    assert "高级" in data["level_names"]["senior"]


def test_weights_are_on_one_scale_for_the_whole_bank(bank: Bank) -> None:
    """TF-IDF on one scale: the bank's most telling term weighs 100, and a topic's best term
    weighs what it is worth next to the other topics' (not 100 in every topic)."""
    for locale in ("en", "tr", "zh"):
        data = topic_profiles(bank, locale)
        best = [max(topic["terms"].values()) for topic in data["topics"]]
        assert max(best) == 100
        assert min(best) < 100
        for topic in data["topics"]:
            assert all(1 <= w <= 100 for w in topic["terms"].values())
        # the threshold of a strong match: half of what naming a topic scores, in the middle
        assert 1 <= data["strong"] < 100


@pytest.mark.parametrize("locale", ["en", "tr", "zh"])
def test_no_stop_word_seniority_word_or_code_is_a_term(bank: Bank, locale: str) -> None:
    import stopwordsiso

    tags = {tag for entry in bank.entries for tag in entry.question.tags}
    names = []  # the bank's own words: its names' words of 5 letters or more
    for field in bank.catalog.fields.values():
        names.append(field.name)
        for spec in field.specializations.values():
            names += [spec.name, *(topic.name for topic in spec.topics.values())]
    named = {w for n in names for w in words(bank.name(n, locale), locale) if len(w) >= 5}
    stop = {term for word in stopwordsiso.stopwords(locale) - tags - named
            for term in terms(word, locale) if len(term) > 1}  # fmt: skip
    stop -= {term for word in tags | named for term in terms(word, locale)}
    seniority = {
        term
        for text in ("senior", "junior", "Kıdemli", "stajyer", "高级", "资深", "初级", "中级")
        for term in terms(text, locale)
        if len(term) > 1
    }
    for topic in topic_profiles(bank, locale)["topics"]:
        found = set(topic["terms"])
        assert not found & stop, (topic["topic"], sorted(found & stop))
        assert not found & seniority, (topic["topic"], sorted(found & seniority))
        assert not [t for t in found if "_" in t], topic["topic"]  # pin_memory, beta_1, d_k
    (will,) = terms("will", locale) if locale == "en" else ("will",)
    assert all(will not in t["terms"] for t in topic_profiles(bank, "en")["topics"])


def test_code_and_math_are_left_out_but_plain_words_in_code_stay() -> None:
    text = "Use `EXPLAIN ANALYZE`, not `pin_memory=True` or `fetchData`; $d_k$ and\n```py\nx\n```"
    kept = _without_code(text)
    assert "EXPLAIN ANALYZE" in kept
    assert "pin_memory" not in kept
    assert "fetchData" not in kept
    assert "d_k" not in kept
    assert "x" not in kept.split()


def test_terms_are_cut_as_search_cuts_them(bank: Bank) -> None:
    (kafka,) = terms("Kafka", "en")
    assert kafka in profile(bank, "en", "message-queues")
    (stem,) = terms("önbelleklemesi", "tr")  # a suffixed form meets the name's stem
    assert stem in profile(bank, "tr", "caching")
    zh = profile(bank, "zh", "caching")
    assert "缓存" in zh
    assert not [t for t in zh if is_cjk(t) and len(t) == 1]  # no lone characters


def test_a_term_every_topic_shares_tells_nothing(bank: Bank) -> None:
    (the,) = terms("the", "en")
    assert all(the not in t["terms"] for t in topic_profiles(bank, "en")["topics"])


def test_the_file_is_deterministic_json_written_with_the_data_files(bank: Bank) -> None:
    first = match_file(bank, "zh")
    assert first == match_file(load_bank(SAMPLE), "zh")
    assert json.loads(first)["locale"] == "zh"
    site = render_site(bank)
    assert {match_path(loc) for loc in ("en", "tr", "zh")} <= set(site.files)
    assert {f"{loc}/match/index.md" for loc in ("en", "tr", "zh")} <= set(site.pages)


def test_a_field_named_like_the_match_page_is_a_content_error(small_bank: Path) -> None:
    catalog = small_bank / "catalog.yaml"
    catalog.write_text(catalog.read_text("utf-8").replace("  backend:", "  match:"), "utf-8")
    (small_bank / "backend").rename(small_bank / "match")
    with pytest.raises(ContentError) as caught:
        render_site(load_bank(small_bank))
    assert "fields.match" in caught.value.format_text()
    assert "reserves" in caught.value.format_text()


def test_serve_recounts_only_the_topics_whose_questions_changed(bank: Bank) -> None:
    """Under ``mkdocs serve`` a topic's counts are kept while its entries are the very same
    objects (``BodyCache.match_counts``), and the file is the one a fresh count writes."""
    from qbank.site.render import BodyCache

    cache = BodyCache()
    counted: list[tuple[str, str]] = []

    def counting(
        locale: str, key: tuple[str, str, str], here: list[Entry], count: Callable[[], Counts]
    ) -> Counts:
        def counting_count() -> Counts:
            counted.append((key[0], key[2]))
            return count()

        return cache.match_counts(locale, key, here, counting_count)

    first = match_file(bank, "en", counting)
    assert first == match_file(bank, "en")
    assert len(counted) == len(list(bank.topics()))
    counted.clear()
    assert match_file(bank, "en", counting) == first
    assert counted == []
    here = list(bank.by_topic["backend-engineer", "caching"])
    key = ("backend-engineer", "distributed-systems", "caching")
    kept = cache.match_counts("en", key, here, lambda: {"x": 1.0})
    assert cache.match_counts("en", key, list(here), lambda: {"y": 1.0}) is kept
    reloaded = [copy.copy(here[0]), *here[1:]]  # a file read again: another Entry object
    assert cache.match_counts("en", key, reloaded, lambda: {"y": 1.0}) == {"y": 1.0}
