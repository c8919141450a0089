"""The persistent cache (``qbank.live.store``): an entry that is truncated, corrupted or made
for another key is reported and made again, never used; every entry is used by an unchanged
build and the gone are pruned; ``cache: false`` writes nothing; the search index's entries."""

from __future__ import annotations

import dataclasses
import json
import logging
import random
import re
import shutil
from array import array
from pathlib import Path
from typing import Any

import pytest
import yaml
from sitebuild import QUESTIONS, write_small_bank
from support.cachebuild import (
    CACHE,
    EDITS,
    add,
    aged,
    build,
    checked_files,
    digests,
    entries,
    move,
    rename,
    same_sites,
    topics,
    translate,
)
from support.searchdocs import weighed

from qbank.live import store
from qbank.live.checkcache import StoredChecks
from qbank.live.store import Store


def test_an_unchanged_build_uses_every_entry_and_prunes_the_gone(tmp_path: Path) -> None:
    content = write_small_bank(tmp_path / "content")
    project = tmp_path / "project"
    build(project, content)
    first = checked_files(project)
    first_entries = {p: p.stat().st_mtime_ns for p in entries(project, "checked")}
    # every question but the one showing an image beside it, in an entry per topic
    assert len(first) == len(QUESTIONS) - 1
    assert len(first_entries) == len({folder for _locale, folder in topics(content)})
    # the search index: one entry per locale
    index = {p: p.stat().st_ino for p in entries(project, "index")}
    assert len(index) == len({locale for locale, _folder in topics(content)})
    # the match's topic counts: one entry per locale too
    match = {p: p.read_bytes() for p in entries(project, "match")}
    assert len(match) == len({locale for locale, _folder in topics(content)})
    # the question texts' HTML: one entry per topic and locale too
    markup = {p: p.read_bytes() for p in entries(project, "markup")}
    assert len(markup) == len(topics(content))
    build(project, content)
    assert {p: p.read_bytes() for p in entries(project, "markup")} == markup  # (not rewritten)
    assert set(entries(project, "checked")) == set(first_entries)  # none written again
    assert checked_files(project) == first
    # (the same topics: each entry stands, not written again, a new file each time)
    assert {p: p.stat().st_ino for p in entries(project, "index")} == index
    assert {p: p.read_bytes() for p in entries(project, "match")} == match  # (not rewritten)
    (content / "backend/indexing/covering-index.yaml").unlink()
    aged(project)
    build(project, content)
    assert len(checked_files(project)) == len(first) - 1  # the removed file's dropped
    assert set(entries(project, "checked")) == set(first_entries)  # (its topic's rewritten)
    # the match counts of the removed file's topic made again, in each of its locales (the
    # entries of those locales written again); those of the other topics kept
    again = {p: p.read_bytes() for p in entries(project, "match")}
    assert set(again) == set(match)
    assert 0 < sum(again[p] != match[p] for p in match) <= 3
    # (and the question HTML of its topic, in each of its locales, without it)
    converted = {p: p.read_bytes() for p in entries(project, "markup")}
    assert set(converted) == set(markup)
    assert 0 < sum(converted[p] != markup[p] for p in markup) <= 3
    # (the index entries of the removed file's locales written again)
    assert {p: p.stat().st_ino for p in entries(project, "index")} != index
    aged(project)
    build(project, content, version="9.9.9")
    assert len(checked_files(project)) == len(first) - 1  # all made again, old pruned
    assert not checked_files(project) & first
    assert not set(entries(project)) & (set(first_entries) | set(again))


def test_a_first_load_through_the_cache_leaves_its_mark(tmp_path: Path) -> None:
    """A cache that holds no load by this qbank is cold: the build then loads in its own
    process, as without the cache (``plugin.loading``), and its load leaves the mark by
    which the next build restores the results in the build's process instead; the mark is
    kept, and the site is the same either way."""
    content = write_small_bank(tmp_path / "content")
    project, cold = tmp_path / "project", tmp_path / "cold"
    assert not StoredChecks(Store(project / CACHE)).warm()
    build(project, content)
    assert StoredChecks(Store(project / CACHE)).warm()
    assert len(checked_files(project)) == len(QUESTIONS) - 1  # (kept by the loading process)
    aged(project)
    build(project, content)
    assert StoredChecks(Store(project / CACHE)).warm()  # (touched: not pruned)
    build(cold, content, qbank={"cache": False})
    same_sites(project, cold)


@pytest.mark.slow  # (twenty whole builds: make test runs it, make test-fast does not)
def test_a_bad_entry_is_reported_and_made_again(tmp_path: Path) -> None:
    content = write_small_bank(tmp_path / "content")
    warm, cold = tmp_path / "warm", tmp_path / "cold"
    build(warm, content)
    truncated, corrupted, foreign, *_ = entries(warm)
    truncated.write_bytes(truncated.read_bytes()[:40])
    data = bytearray(corrupted.read_bytes())
    data[-10] ^= 0x20
    corrupted.write_bytes(bytes(data))
    foreign.write_bytes(entries(warm)[3].read_bytes())
    log = build(warm, content)
    assert f"cache entry {truncated} is truncated; made again" in log
    assert f"cache entry {corrupted} is corrupted" in log
    assert f"cache entry {foreign} belongs to another key" in log
    assert "INFO" in next(line for line in log.splitlines() if "is truncated" in line)
    build(cold, content, qbank={"cache": False})
    same_sites(warm, cold)
    for path in (truncated, corrupted, foreign):  # overwritten with good entries
        assert store._parse(path.read_bytes(), "checked", path.stem)[1] is None
    # a locale's search index: what its entry holds is what the index holds; an entry
    # sound but not of an index's shape (no state, or an array cut short) is made again
    index = entries(warm, "index")[0]
    payload = store._parse(index.read_bytes(), "index", index.stem, raw=True)[0]
    head, rest = payload.split(b"\n", 1)
    state = json.loads(head)
    state["shown"][0][2] = "planted-prompt"
    planted_index = json.dumps(state, ensure_ascii=False).encode() + b"\n" + rest
    Store(warm / CACHE).put_bytes("index", index.stem, planted_index)
    build(warm, content)
    assert any("planted-prompt" in p.read_text("utf-8") for p in (warm / "site").rglob("d/0.json"))
    for broken in (b"[]\n" + rest, head + b"\n" + rest[:-4]):
        Store(warm / CACHE).put_bytes("index", index.stem, broken)
        log = build(warm, content)
        assert f"cache entry index/{index.stem} is not a search index's; made again" in log
        same_sites(warm, cold)
    # and a locale's match counts: an entry whose numbers are not those of its terms (here
    # it has none) is made again
    counts = entries(warm, "match")[0]
    payload = store._parse(counts.read_bytes(), "match", counts.stem, raw=True)[0]
    head, rest = payload.split(b"\n", 1)
    assert json.loads(head)["terms"]
    planted_terms = json.dumps(dict(json.loads(head), terms=[])).encode() + b"\n" + rest
    Store(warm / CACHE).put_bytes("match", counts.stem, planted_terms)
    log = build(warm, content)
    assert f"cache entry match/{counts.stem} is not a match's; made again" in log
    same_sites(warm, cold)
    assert store._parse(counts.read_bytes(), "match", counts.stem, raw=True)[0] == payload
    # a topic's question HTML: the kept HTML is what the page shows; a question's part of
    # the wrong shape (one text too few) is made again
    markup = entries(warm, "markup")[0]
    kept_html = store._parse(markup.read_bytes(), "markup", markup.stem)[0]
    assert kept_html
    assert all(isinstance(digest, str) and html for digest, html in kept_html)
    planted = [
        [digest, [f"<p>kept-{n}-{k}-from-the-cache</p>" for k in range(len(html))]]
        for n, (digest, html) in enumerate(kept_html)
    ]
    Store(warm / CACHE).put("markup", markup.stem, planted)
    shutil.rmtree(warm / CACHE / "pages")  # (pages are keyed by their questions' inputs)
    build(warm, content)
    # (the prompt's first paragraph is in its heading, which the headings entry keeps)
    assert any(
        "-from-the-cache</p>" in p.read_text("utf-8") for p in (warm / "site").rglob("*.html")
    )
    Store(warm / CACHE).put(
        "markup", markup.stem, [[digest, html[1:]] for digest, html in kept_html]
    )
    shutil.rmtree(warm / CACHE / "pages")  # (made from the planted HTML, trusted as it is)
    build(warm, content)
    same_sites(warm, cold)
    made = store._parse(markup.read_bytes(), "markup", markup.stem)[0]
    assert made == kept_html
    # a topic's headings: the kept ones are what the page shows; an entry of the wrong
    # shape (a number that is not one) is made again
    headings = entries(warm, "headings")[0]
    kept_headings = store._parse(headings.read_bytes(), "headings", headings.stem)[0]
    assert kept_headings
    planted_headings = [
        [
            number,
            f"Planted {number}",
            f"Planted <code>{number}</code>",
            f"Planted `{number}`",
            whole,
        ]
        for number, _text, _html, _md, whole in kept_headings
    ]
    Store(warm / CACHE).put("headings", headings.stem, planted_headings)
    build(warm, content)
    assert any(
        "Planted <code>1</code>" in p.read_text("utf-8") for p in (warm / "site").rglob("*.html")
    )
    Store(warm / CACHE).put("headings", headings.stem, [["1", *kept_headings[0][1:]]])
    build(warm, content)
    same_sites(warm, cold)
    assert store._parse(headings.read_bytes(), "headings", headings.stem)[0] == kept_headings
    # a page's converted Markdown: the kept conversion is what the page shows; one not of
    # its shape is reported and made again
    # (one of a page with runs of questions: they are numbered back as the page has them)
    converted = next(
        path
        for path in entries(warm, "markdown")
        if "qbank:question:" in store._parse(path.read_bytes(), "markdown", path.stem)[0][0]
    )
    kept_md = store._parse(converted.read_bytes(), "markdown", converted.stem)[0]
    _html, _toc, *rest = kept_md
    # (its runs of questions kept: a conversion without the page's runs is not used)
    runs = "".join(re.findall(r"<p>qbank:question:\d+:end</p>", _html))
    planted_md = [f"<p>planted-markdown</p>{runs}", [["Planted", "planted", 1, True, []]], *rest]
    Store(warm / CACHE).put("markdown", converted.stem, planted_md)
    # (with no site to link them from, every page is read: none is left out whole)
    shutil.rmtree(warm / "site")
    build(warm, content)
    shown = [
        p for p in (warm / "site").rglob("*.html") if "planted-markdown" in p.read_text("utf-8")
    ]
    assert len(shown) == 1
    assert 'href="#planted"' in shown[0].read_text("utf-8")  # its table of contents too
    Store(warm / CACHE).put("markdown", converted.stem, ["only"])
    shutil.rmtree(warm / "site")
    log = build(warm, content)
    assert f"cache entry {converted.stem} is not a converted page's; made again" in log
    same_sites(warm, cold)
    assert store._parse(converted.read_bytes(), "markdown", converted.stem)[0] == kept_md
    # one whose links found other files than today's (a page renamed, say) is made again
    looked = next(
        (path, kept)
        for path in entries(warm, "markdown")
        for kept in [store._parse(path.read_bytes(), "markdown", path.stem)[0]]
        if any(found is not None for _path, found in kept[-1])
    )
    path, kept = looked
    lookups = [
        [p, None if found is None else [*found[:2], "elsewhere/", found[3]]]
        for p, found in kept[-1]
    ]
    Store(warm / CACHE).put("markdown", path.stem, [*planted_md[:2], *kept[2:-1], lookups])
    shutil.rmtree(warm / "site")
    build(warm, content)
    assert not any(
        "planted-markdown" in p.read_text("utf-8") for p in (warm / "site").rglob("*.html")
    )
    assert store._parse(path.read_bytes(), "markdown", path.stem)[0] == kept
    # a page's kept HTML truncated, corrupted, foreign (another page's), or sound but
    # another page's (its address differs): each reported, the page rendered again
    truncated, corrupted, foreign, other, *_ = entries(warm, "pages")
    truncated.write_bytes(truncated.read_bytes()[:-200])
    data = bytearray(corrupted.read_bytes())
    data[len(data) // 2] ^= 0x01
    corrupted.write_bytes(bytes(data))
    foreign.write_bytes(entries(warm, "pages")[4].read_bytes())
    kept = store._parse(other.read_bytes(), "pages", other.stem, raw=True)[0]
    html = kept.split(b"\n", 1)[1]
    assert html.lstrip().lower().startswith(b"<!doctype html>")
    Store(warm / CACHE).put_bytes("pages", other.stem, b"elsewhere/\n" + html)
    shutil.rmtree(warm / "site")  # (else its pages are linked, their entries not read)
    log = build(warm, content)
    assert f"cache entry {truncated} is corrupted" in log  # (its checksum)
    assert f"cache entry {corrupted} is corrupted" in log
    assert f"cache entry {foreign} belongs to another key" in log
    assert f"page cache entry {other.stem} is not a page's; rendered again" in log
    same_sites(warm, cold)
    assert store._parse(other.read_bytes(), "pages", other.stem, raw=True)[0] == kept


def test_an_entry_is_checked_before_it_is_used(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    kept = Store(tmp_path)
    name = store.key("input")
    kept.put("checked", name, {"answer": [1, "two"]})
    assert Store(tmp_path).get("checked", name) == {"answer": [1, "two"]}
    path = tmp_path / "checked" / name[:2] / f"{name}.json"
    head, payload = path.read_bytes().split(b"\n", 1)
    header = json.loads(head)
    assert payload.startswith(b"\x28\xb5\x2f\xfd")  # (a zstd frame)
    path.write_bytes(head + b"\n" + payload.replace(b"two", b"six"))
    caplog.set_level(logging.INFO, logger="qbank.live.store")
    assert Store(tmp_path).get("checked", name) is None
    assert "is corrupted" in caplog.text
    header["key"] = store.key("other")
    path.write_bytes(json.dumps(header).encode() + b"\n" + payload)
    assert Store(tmp_path).get("checked", name) is None
    assert "belongs to another key" in caplog.text
    assert Store(None).get("checked", name) is None
    assert store.key("a", "bc") != store.key("ab", "c")
    # bytes kept as they are (a search index's arrays): checked the same way
    kept.put_bytes("index", name, b"\x00\x01postings", packed=False)
    assert Store(tmp_path).get_bytes("index", name) == b"\x00\x01postings"
    assert Store(tmp_path).get("index", name) is None  # (not a JSON entry)
    path = tmp_path / "index" / name[:2] / f"{name}.json"
    assert path.read_bytes().endswith(b"\n\x00\x01postings")
    path.write_bytes(path.read_bytes().replace(b"postings", b"postingz"))
    assert Store(tmp_path).get_bytes("index", name) is None
    assert caplog.text.count("is corrupted") == 2


def test_qbank_build_with_a_warm_cache_writes_the_same_tree(tmp_path: Path) -> None:
    from qbank.tree.build import TreeBuilder

    content = write_small_bank(tmp_path / "content")
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: Small Bank\nsite_url: https://example.org/bank/\n", "utf-8")
    warm = TreeBuilder(content, tmp_path / "warm", config)
    warm.build()
    kept = checked_files(tmp_path)
    assert len(kept) == len(QUESTIONS) - 1
    locales = {locale for locale, _folder in topics(content)}
    assert len(entries(tmp_path, "index")) == len(locales)
    assert len(entries(tmp_path, "match")) == len(locales)
    assert len(entries(tmp_path, "markup")) == len(topics(content))
    rng = random.Random(3)
    for n, edit in enumerate((add, move, translate, rename)):
        edit(content, rng, n)
    TreeBuilder(content, tmp_path / "warm", config).build()
    TreeBuilder(content, tmp_path / "cold", config, cache=False).build()
    assert digests(tmp_path / "warm") == digests(tmp_path / "cold")
    # the unchanged files' entries were used (a catalog name renamed keeps them)
    assert len(kept & checked_files(tmp_path)) >= len(kept) - 2
    TreeBuilder(content, tmp_path / "none", config, cache_dir=tmp_path / "elsewhere").build()
    # cache_dir is honoured: every file the bank can cache has its entry there (how many
    # stale entries the default folder still holds depends on when its prune ran)
    assert len(checked_files(tmp_path / "elsewhere")) >= len(QUESTIONS) - 1
    assert len(list((tmp_path / "elsewhere" / "index").rglob("*.json"))) == len(locales)
    # --watch: its first build loads through the cache and keeps what it made there; the
    # next, after an edit, from what it holds in memory (the same tree as a cold build)
    watch = TreeBuilder(content, tmp_path / "watch", config, keep=True, cache_dir=tmp_path / "w")
    watch.build()
    assert len(checked_files(tmp_path / "w")) >= len(QUESTIONS) - 1
    assert len(list((tmp_path / "w" / "markup").rglob("*.json"))) == len(topics(content))
    assert digests(tmp_path / "watch") == digests(tmp_path / "cold")
    again = TreeBuilder(content, tmp_path / "watch2", config, keep=True, cache_dir=tmp_path / "w")
    kept_before = set((tmp_path / "w" / "checked").rglob("*.json"))
    again.build()
    assert set((tmp_path / "w" / "checked").rglob("*.json")) == kept_before  # none made anew
    assert digests(tmp_path / "watch2") == digests(tmp_path / "cold")
    # the first build's index came from the cache, its state from the background: the
    # next edit is written in place, as a cold build of the edited bank has it
    assert again.index is not None
    assert again.index.wait(timeout=60)
    assert set(again.index.served) == locales
    translate(content, rng, 9)
    again.build()
    assert again.index.wait(timeout=60)
    TreeBuilder(content, tmp_path / "cold2", config, cache=False).build()
    assert digests(tmp_path / "watch2") == digests(tmp_path / "cold2")
    assert digests(tmp_path / "cold2") != digests(tmp_path / "cold")  # (the edit showed)


def test_what_templates_read_of_other_pages() -> None:
    from qbank.live.pagecache import Reads

    none = Reads()
    assert none.read(b"{# every page of the site #}<p>pages</p>", keyless=False) == none
    assert none.read(b"{% for p in pages %}{% endfor %}", keyless=False).pages
    assert none.read(b"{{ build_date_utc }}", keyless=False).dated
    icon = none.read(b"{% if nav_item.meta and nav_item.meta.icon %}", keyless=True)
    assert icon.nav_meta == {"icon"}
    assert none.read(b'{{ item.meta["status"] }}{{ page.meta.x }}', keyless=False).nav_meta == {
        "status"
    }
    # another page's whole front matter, in a template that is not Material's: any key
    assert none.read(b"{{ item.meta | tojson }}", keyless=False).nav_meta is None


@pytest.mark.parametrize("seed", range(6))
def test_an_index_from_the_last_one_is_the_index_made_whole(
    tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``stored_index`` after random edits (questions added, removed, moved, translated,
    topics renamed and added) writes the files ``LocaleIndex.build`` writes, in every locale
    (Chinese packs its CJK terms), with the entry of the build before."""
    from qbank.bank.load import load_bank
    from qbank.live import indexcache
    from qbank.live.indexcache import stored_index
    from qbank.search import LocaleIndex, iter_docs
    from qbank.site.parts import DEFAULT_PAGE_SIZE, question_url

    merged: list[bool] = []

    def updated(*args: Any) -> Any:
        gathered = update(*args)
        merged.append(gathered is not None)
        return gathered

    update = indexcache._updated
    monkeypatch.setattr(indexcache, "_updated", updated)
    rng = random.Random(seed)
    content = write_small_bank(tmp_path / "content")
    notes: list[str] = []
    kept = Store(tmp_path / "cache", notes.append)
    for step in range(4):
        bank = load_bank(content)
        url = question_url(bank, DEFAULT_PAGE_SIZE)
        for locale in bank.catalog.locales:
            whole = dict(LocaleIndex.build(iter_docs(bank, locale, url), locale).files())
            assert dict(stored_index(kept, bank, locale, url).files()) == whole, (step, locale)
        for n in range(rng.randint(1, 3)):
            rng.choice(EDITS)(content, rng, step * 10 + n)
    assert kept.hits >= 3 * 3  # (each locale's entry of the build before was read)
    assert notes == []  # (and sound)
    assert merged.count(True) >= 3 * 3 - 1  # (and the index made from it)


def test_an_index_entry_is_sound_before_it_is_used() -> None:
    from qbank.live.indexcache import _State
    from qbank.search import LEVELS
    from qbank.search.index import Gathered

    docs = [
        weighed("/en/f/t/#q-1", "T", "P", "", (("field", "f"),), (("index", 7), ("b", 3))),
        weighed("/en/f/t/#q-2", "T", "Q", "", (("field", "f"),), (("index", 2),)),
    ]
    state = _State.of(Gathered.of(enumerate(docs), False), [("topic", 2)], ["q1", "q2"])
    assert state is not None
    back = _State.restored(state.dumps())
    assert back is not None
    assert back.terms == ["index", "b"]
    assert back.codes.tolist() == [7, LEVELS + 2, 3]
    assert back.shown == state.shown
    assert back.filters == state.filters
    assert back.doc_keys == ["q1", "q2"]

    def broken(change: Any) -> bytes:
        head, rest = state.dumps().split(b"\n", 1)
        parts = json.loads(head)
        change(parts)
        return json.dumps(parts).encode() + b"\n" + rest

    assert _State.restored(broken(lambda h: h.update(counts=[3]))) is None  # 3 of 2 questions
    assert _State.restored(broken(lambda h: h.update(topics=["a", "a"], counts=[1, 1]))) is None
    assert _State.restored(broken(lambda h: h.update(terms="index index"))) is None
    assert _State.restored(broken(lambda h: h.update(terms="index"))) is None  # 2 lengths
    assert _State.restored(broken(lambda h: h["shown"][0].pop())) is None
    assert _State.restored(broken(lambda h: h["shown"][1].__setitem__(2, 3))) is None
    assert _State.restored(broken(lambda h: h["filters"][0][0].append("x"))) is None
    assert _State.restored(broken(lambda h: h["filters"][1][0].__setitem__(1, None))) is None
    assert _State.restored(broken(lambda h: h["filters"].__setitem__(0, "field"))) is None
    assert _State.restored(broken(lambda h: h["docs"].pop())) is None  # a question's key
    head, rest = state.dumps().split(b"\n", 1)  # lengths (2 x 8 bytes), codes (3 x 4), ...

    def codes(*values: int) -> bytes:
        return head + b"\n" + rest[:16] + array("i", values).tobytes() + rest[28:]

    assert _State.restored(codes(7, LEVELS + 2, 3)) is not None
    assert _State.restored(codes(LEVELS + 2, 7, 3)) is None  # a term's questions not growing
    assert _State.restored(codes(7, 2 * LEVELS, 3)) is None  # a third question, of two
    assert _State.restored(codes(7, LEVELS + 2, -3)) is None
    assert _State.restored(head + b"\n" + rest[:-8] + bytes([1]) + bytes(7)) is None  # starts
    assert _State.restored(b"no state") is None
    assert (
        _State.of(
            Gathered.of(enumerate([dataclasses.replace(docs[0], words=("a b",))]), False), [], []
        )
        is None
    )


def test_a_changed_topic_is_counted_from_its_questions_kept_terms(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from qbank.bank.load import load_bank
    from qbank.live import matchcache
    from qbank.site.match import topic_profiles

    content = write_small_bank(tmp_path / "content")
    kept = Store(tmp_path / "cache")
    made: list[str] = []

    def counting(entry: Any, locale: str) -> tuple[list[str], list[str]]:
        made.append(f"{locale}:{entry.file}")
        return question_terms(entry, locale)

    question_terms = matchcache.question_terms
    monkeypatch.setattr(matchcache, "question_terms", counting)
    bank = load_bank(content)
    for locale in bank.catalog.locales:  # (every question's terms made and kept)
        topic_profiles(bank, locale, numbered=matchcache.StoredTerms(kept, bank, locale))
    assert len(made) == sum(len(e.locales) for e in bank.entries)
    edited = content / "ml-engineer/numerics/loss-scaling.yaml"
    data = yaml.safe_load(edited.read_text("utf-8"))

    def edit_and_count(words: str) -> Any:
        """Edit the question's English prompt, count every topic again from the cache (each
        locale's counts as without it); the bank."""
        data["prompt"]["en"] += words
        edited.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
        bank = load_bank(content)
        made.clear()
        for locale in bank.catalog.locales:
            numbered = matchcache.StoredTerms(kept, bank, locale)
            assert topic_profiles(bank, locale, numbered=numbered) == topic_profiles(bank, locale)
            numbered.done()
        return bank

    bank = edit_and_count(" Edited.")
    # the edited file's terms made again in each of its locales, no other question's
    edited_entry = next(e for e in bank.entries if edited.name in e.file)
    assert sorted(made) == sorted(f"{loc}:{edited_entry.file}" for loc in edited_entry.locales)
    # a topic entry not of that shape is not used: its questions' terms are made again
    planted = sorted((tmp_path / "cache" / matchcache.QUESTIONS).rglob("*.json"))
    assert planted
    for path in planted:
        kept.put(matchcache.QUESTIONS, path.stem, [["digest", "terms"]])
    bank = edit_and_count(" Again.")
    here = [e for e in bank.entries if e.topic == edited_entry.topic]
    assert len(made) == sum(len(e.locales) for e in here)


def test_a_field_share_is_given_only_when_made_of_the_same(tmp_path: Path) -> None:
    """``KeptShares`` gives the last site's share of a field whose questions (their numbers
    and document keys) and the index's filing are this build's, and whose file is the one
    kept; nothing for a changed field, a changed filing, an edited file or a bad entry."""
    from qbank.live.sharecache import KIND, KeptShares
    from qbank.search.index import LocaleIndex
    from qbank.site.offline import _owners

    kept, site = Store(tmp_path / "cache"), tmp_path / "site"
    folder = site / "en" / "api" / "offline"
    folder.mkdir(parents=True)
    fields = ["backend", "frontend"]
    urls = ["/en/backend/a/", "/en/backend/a/", "/en/frontend/b/"]
    index = LocaleIndex("en", shown=[(url, "", "", "") for url in urls], shards={"ab": set()})
    owners = _owners(urls, fields)

    def build(docs: list[str], index: LocaleIndex = index) -> dict[int, bytes]:
        shares = KeptShares(kept, site, "en", fields)
        shares.documents(docs)
        given = shares.given(index, owners)
        for number, name in enumerate(fields):
            share = given.get(number, f'{{"{name}":{docs}}}'.encode())
            (folder / f"{name}.terms.json").write_bytes(share)
            shares.made(number, share)
        shares.end()
        return given

    assert build(["k1", "k2", "k3"]) == {}  # (nothing kept yet)
    backend = (folder / "backend.terms.json").read_bytes()
    assert build(["k1", "k2", "k3"]) == {
        0: backend,
        1: (folder / "frontend.terms.json").read_bytes(),
    }
    assert build(["k1", "k2", "k9"]) == {0: backend}  # (a frontend question changed)
    assert build(["k1", "k2"]) == {}  # (not the index's questions)
    build(["k1", "k2", "k9"])  # (kept again: what follows is refused for its filing alone)
    refiled = dataclasses.replace(index, shards={"ab": set(), "cd": set()})
    assert build(["k1", "k2", "k9"], refiled) == {}  # (terms filed otherwise)
    build(["k1", "k2", "k9"])
    with (folder / "backend.terms.json").open("ab") as file:
        file.write(b" ")  # (edited in the site)
    assert build(["k1", "k2", "k9"]) == {1: (folder / "frontend.terms.json").read_bytes()}
    kept.put(KIND, store.key(KIND, str(site), "en"), {"backend": ["only the key"]})
    assert build(["k1", "k2", "k9"]) == {}  # (an entry without its shape)
