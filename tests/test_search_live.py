# ruff: noqa: RUF001  (Chinese and Turkish test words)
"""The search index under ``mkdocs serve`` (``LiveIndex``): whatever sequence of rebuilds a
site goes through, its index folder ends up byte for byte what ``write_index`` writes from
scratch for the same documents, edits are written before the rebuild returns, and the site
always has an index to serve."""

from __future__ import annotations

import dataclasses
import random
import shutil
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import searchdocs
from support.examples import examples

from qbank import search
from qbank.bank.load import load_bank
from qbank.bank.loaded import Entry
from qbank.live.index import LaterDocs, LiveIndex
from qbank.search import (
    INDEX_DIR,
    SearchDoc,
    bank_docs,
    write_index,
)

ROOT = Path(__file__).resolve().parent.parent
LATIN = [
    "a", "al", "alp", "alpha", "alpine", "b", "beta", "better", "index", "indices", "ındex",
    "ıi", "çay", "q1", "query", "queue", "42", "zz", "zzz", "zzzz",
]  # fmt: skip
CJK = [a + b for a in "数据库索引" for b in "数据库索引查"] + list("数据查")
FIELDS = ["backend", "ml", "data"]
LEVELS = ["junior", "mid", "senior"]


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (hidden ones included) by relative path, with its bytes."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in folder.rglob("*")
        if path.is_file()
    }


def assert_indexed(site: Path, docs: dict[str, list[SearchDoc]]) -> None:
    """Each locale's served index is exactly what ``write_index`` makes of its documents."""
    with tempfile.TemporaryDirectory() as scratch:
        for locale, locale_docs in docs.items():
            expected = Path(scratch) / locale
            write_index(locale_docs, expected, locale)
            served = site / locale / INDEX_DIR
            got, want = tree(served), tree(expected)
            assert sorted(got) == sorted(want), locale
            differ = [path for path in want if got[path] != want[path]]
            assert not differ, (locale, differ)
            hidden = [p.name for p in served.parent.iterdir() if p.name.startswith(".")]
            assert not hidden, hidden  # no fresh or old folder left beside the index


# -- documents made up -----------------------------------------------------------------------


def made_up(rng: random.Random, url: str) -> SearchDoc:
    """A document with words from a small vocabulary (terms shared by many documents, Latin
    and CJK), each with a weight step."""
    pool = LATIN + CJK
    terms = tuple(
        sorted((t, rng.randint(1, search.LEVELS - 1)) for t in rng.sample(pool, rng.randint(0, 12)))
    )
    filters = [
        ("field", rng.choice(FIELDS)),
        *(("seniority", s) for s in LEVELS if rng.random() < 0.4),
    ]
    if rng.random() < 0.7:
        filters.append(("difficulty", str(rng.randint(1, 3))))
    return searchdocs.weighed(
        url,
        rng.choice(["Indexing", "索引", "Queues"]),
        f"Question {rng.randint(0, 3)} 数据",
        rng.choice(["", "Explanation \ue000code\ue001", "解释"]),
        tuple(filters),
        terms,
    )


def edited(rng: random.Random, doc: SearchDoc) -> SearchDoc:
    """``doc`` with one or more of its parts changed (its URL kept)."""
    again = made_up(rng, doc.url)
    parts = rng.sample(["topic", "prompt", "more", "filters", "terms"], rng.randint(1, 3))
    if "terms" in parts:
        parts[parts.index("terms") : parts.index("terms") + 1] = ["words", "steps"]
    return dataclasses.replace(doc, **{part: getattr(again, part) for part in parts})


def cjk_heavy(rng: random.Random, doc: SearchDoc) -> SearchDoc:
    """``doc`` with many CJK pairs added or all taken away (moves the CJK bucket count)."""
    if rng.random() < 0.5:
        terms = dict(doc.terms) | {t: rng.randint(1, search.LEVELS - 1) for t in CJK}
        return weighed(doc, sorted(terms.items()))
    return weighed(doc, [t for t in doc.terms if not search.is_cjk(t[0])])


def weighed(doc: SearchDoc, terms: list[tuple[str, int]]) -> SearchDoc:
    """``doc`` with ``terms`` instead of its own."""
    return searchdocs.weighed(doc.url, doc.topic, doc.prompt, doc.more, doc.filters, terms)


def same_questions_step(rng: random.Random, docs: list[SearchDoc]) -> list[SearchDoc]:
    """Edits of the same questions: the incremental path."""
    docs = list(docs)
    kind = rng.choice(["edit", "edit", "cjk", "equal copy", "nothing"])
    for number in rng.sample(range(len(docs)), min(len(docs), rng.randint(1, 3))):
        if kind == "edit":
            docs[number] = edited(rng, docs[number])
        elif kind == "cjk":
            docs[number] = cjk_heavy(rng, docs[number])
        elif kind == "equal copy":
            docs[number] = dataclasses.replace(docs[number])
    return docs


def other_questions_step(
    rng: random.Random, docs: list[SearchDoc], serial: Iterator[int]
) -> list[SearchDoc]:
    """Questions added, removed, moved or given another URL: the full rebuild."""
    docs = list(docs)
    kind = rng.choice(["add", "remove", "move", "url"])
    if kind == "add" or len(docs) < 2:
        docs.insert(rng.randint(0, len(docs)), made_up(rng, f"/x/t/#q-{next(serial)}"))
    elif kind == "remove":
        del docs[rng.randrange(len(docs))]
    elif kind == "move":
        first, second = rng.sample(range(len(docs)), 2)
        docs[first], docs[second] = docs[second], docs[first]
    else:
        number = rng.randrange(len(docs))
        docs[number] = dataclasses.replace(docs[number], url=f"/y/t/#q-{next(serial)}")
    return docs


@pytest.fixture
def small_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """Few postings per CJK terms file and few bytes per run of prefixes, so that edits cross
    bucket boundaries and move the runs' boundaries often."""
    monkeypatch.setattr(search.index, "BUCKET_POSTINGS", 9)
    monkeypatch.setattr(search.index, "FILE_BYTES", 60)


@pytest.mark.usefixtures("small_files")
@pytest.mark.parametrize("seed", range(6))
def test_any_sequence_of_rebuilds_leaves_the_index_a_fresh_write_would(
    tmp_path: Path, seed: int
) -> None:
    rng = random.Random(seed)
    serial = iter(range(10**6))
    docs = {
        locale: [made_up(rng, f"/{locale}/t/#q-{next(serial)}") for _ in range(rng.randint(60, 90))]
        for locale in ("en", "zh")
    }
    live = LiveIndex(tmp_path)
    live.first(docs)
    assert_indexed(tmp_path, docs)
    buckets_seen = {live.served["zh"].index.buckets}
    for _ in range(40):
        locale = rng.choice(["en", "zh"])
        if rng.random() < 0.75:
            docs = {**docs, locale: same_questions_step(rng, docs[locale])}
            live.rebuilt(docs)
            # Written before ``rebuilt`` returned, unless a full rebuild is still on its way.
            if not live.pending and live.running is None:
                assert_indexed(tmp_path, docs)
        else:
            docs = {**docs, locale: other_questions_step(rng, docs[locale], serial)}
            live.rebuilt(docs)
        if rng.random() < 0.5:  # else the next rebuild comes while the worker runs
            assert live.wait(timeout=60)
            assert_indexed(tmp_path, docs)
        if "zh" in live.served:
            buckets_seen.add(live.served["zh"].index.buckets)
    assert live.wait(timeout=60)
    assert_indexed(tmp_path, docs)
    assert len(buckets_seen) > 1  # the CJK terms were filed again at least once


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    st.lists(st.integers(0, 2**32), min_size=1, max_size=8),
    st.integers(1, 40),
)
@pytest.mark.usefixtures("small_files")
def test_edits_of_the_same_questions_are_written_at_once(seeds: list[int], size: int) -> None:
    rng = random.Random(size)
    docs = {"zh": [made_up(rng, f"/zh/t/#q-{n}") for n in range(size)]}
    with tempfile.TemporaryDirectory() as scratch:
        site = Path(scratch)
        live = LiveIndex(site)
        live.first(docs)
        for seed in seeds:
            docs = {"zh": same_questions_step(random.Random(seed), docs["zh"])}
            live.rebuilt(docs)
            assert not live.pending
            assert live.running is None
            assert_indexed(site, docs)


def test_cjk_bucket_count_crossing_the_real_boundary(tmp_path: Path) -> None:
    # Exactly two buckets' worth of CJK postings; one posting less makes it one bucket.
    pairs = [a + b for a in "数据库索引查询表行列键值" for b in "数据库索引查询表行列键值"]
    per_doc = 40
    count = 2 * search.BUCKET_POSTINGS // per_doc
    docs = {
        "zh": [
            searchdocs.weighed(
                f"/zh/t/#q-{n}",
                "索引",
                "数据",
                "",
                (),
                tuple(sorted((pair, 3) for pair in pairs[n % 3 :][:per_doc])),
            )
            for n in range(count)
        ]
    }
    live = LiveIndex(tmp_path)
    live.first(docs)
    assert live.served["zh"].index.buckets == 2
    first = docs["zh"][0]
    fewer = weighed(first, list(first.terms[1:]))
    docs = {"zh": [fewer, *docs["zh"][1:]]}
    live.rebuilt(docs)
    assert live.served["zh"].index.buckets == 1
    assert_indexed(tmp_path, docs)
    docs = {"zh": [first, *docs["zh"][1:]]}
    live.rebuilt(docs)
    assert live.served["zh"].index.buckets == 2
    assert_indexed(tmp_path, docs)


# -- documents of a real bank ----------------------------------------------------------------


def real_docs(content: Path) -> dict[str, list[SearchDoc]]:
    """Every locale's documents of the bank at ``content`` (``question_doc`` per question)."""
    bank = load_bank(content)

    def url(locale: str, entry: Entry) -> str:
        return f"/{locale}/{entry.field}/{entry.topic}/"

    return {locale: bank_docs(bank, locale, url) for locale in bank.catalog.locales}


def test_edits_additions_and_removals_of_the_sample_bank(tmp_path: Path) -> None:
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    site = tmp_path / "site"
    docs = real_docs(content)
    live = LiveIndex(site)
    live.first(docs)
    assert_indexed(site, docs)
    question = content / "backend-engineer/indexing-query-plans/index-write-costs.yaml"
    original = question.read_text("utf-8")
    # An edit of the English and Chinese prompts: every document is made again (equal
    # but not the same objects), one per locale differs; written at once.
    question.write_text(
        original.replace("A teammate proposes", "A colleague suggests").replace(
            "一位同事提议", "一位新同事建议"
        ),
        "utf-8",
    )
    docs = real_docs(content)
    live.rebuilt(docs)
    assert not live.pending
    assert_indexed(site, docs)
    # The question removed, then back: a full rebuild of each locale in the background.
    question.unlink()
    docs = real_docs(content)
    live.rebuilt(docs)
    assert live.wait(timeout=60)
    assert_indexed(site, docs)
    question.write_text(original, "utf-8")
    docs = real_docs(content)
    live.rebuilt(docs)
    assert live.wait(timeout=60)
    assert_indexed(site, docs)


def test_edits_after_a_pending_rebuild_are_applied_after_it(tmp_path: Path) -> None:
    rng = random.Random(7)
    docs = {"en": [made_up(rng, f"/en/t/#q-{n}") for n in range(3000)]}
    live = LiveIndex(tmp_path)
    live.first(docs)
    serial = iter(range(10**4, 10**5))
    added = other_questions_step(random.Random(1), docs["en"], serial)
    added.append(made_up(rng, "/en/t/#q-added"))
    live.rebuilt({"en": added})  # a full rebuild, in the background
    latest = added
    for step in range(5):  # edits while it may still run: queued behind it, the latest win
        latest = same_questions_step(random.Random(step), latest)
        live.rebuilt({"en": latest})
    assert live.wait(timeout=120)
    assert_indexed(tmp_path, {"en": latest})


@pytest.mark.usefixtures("small_files")
@pytest.mark.parametrize("edit_at_once", [False, True])
def test_an_index_another_process_wrote_is_taken_over(tmp_path: Path, edit_at_once: bool) -> None:
    """The first serve build's locale process writes the other locales' indexes: ``first``
    leaves their files as they are and the worker makes their state, so that later edits
    (made before or after it is done) are written in place, as from an index of its own."""
    rng = random.Random(11)
    docs = {loc: [made_up(rng, f"/{loc}/t/#q-{n}") for n in range(400)] for loc in ("en", "tr")}
    write_index(docs["tr"], tmp_path / "tr" / INDEX_DIR, "tr")
    before = tree(tmp_path / "tr" / INDEX_DIR)
    live = LiveIndex(tmp_path)
    report = live.first(docs, written={"tr"})
    assert report.records == 800
    assert tree(tmp_path / "tr" / INDEX_DIR) == before  # not written again
    if not edit_at_once:
        assert live.wait(timeout=60)
        assert "tr" in live.served  # the state, taken over
    latest = {"en": docs["en"], "tr": docs["tr"]}
    for step in range(4):
        latest["tr"] = same_questions_step(random.Random(step), latest["tr"])
        live.rebuilt(latest)
        if not edit_at_once:  # written before ``rebuilt`` returns
            assert_indexed(tmp_path, latest)
    assert live.wait(timeout=60)
    assert_indexed(tmp_path, latest)


@pytest.mark.usefixtures("small_files")
def test_documents_made_later_by_the_worker(tmp_path: Path) -> None:
    """A first serve build whose indexes were written from the persistent cache hands over
    its documents unmade (``LaterDocs``): the worker makes them and takes the index over;
    edits handed over unmade too (the documents still owed) are applied after it, and the
    index ends as a fresh write of the latest documents."""
    rng = random.Random(5)
    docs = {loc: [made_up(rng, f"/{loc}/t/#q-{n}") for n in range(300)] for loc in ("en", "tr")}
    for locale, locale_docs in docs.items():
        write_index(locale_docs, tmp_path / locale / INDEX_DIR, locale)
    before = tree(tmp_path)
    made: list[str] = []
    gate = threading.Event()

    def later(locale: str, wanted: list[SearchDoc]) -> LaterDocs:
        def make() -> list[SearchDoc]:
            gate.wait(30)  # (the worker is busy until the edit below is handed over)
            made.append(locale)
            return wanted

        return LaterDocs(len(wanted), make)

    live = LiveIndex(tmp_path)
    report = live.first({loc: later(loc, d) for loc, d in docs.items()}, written={"en", "tr"})
    assert report.records == 600  # counted, not made
    assert tree(tmp_path) == before  # nothing written
    latest = dict(docs)
    latest["tr"] = same_questions_step(random.Random(1), docs["tr"])
    live.rebuilt({"en": later("en", docs["en"]), "tr": later("tr", latest["tr"])})
    gate.set()
    assert live.wait(timeout=60)
    # en's first list was being made; tr's, still queued, gave way to the newer one unmade
    assert sorted(made) == ["en", "en", "tr"]
    assert set(live.served) == {"en", "tr"}
    assert_indexed(tmp_path, latest)
    latest["en"] = same_questions_step(random.Random(2), docs["en"])
    live.rebuilt(latest)  # made now: written before ``rebuilt`` returns
    assert_indexed(tmp_path, latest)


def test_a_removed_locale_loses_its_index(tmp_path: Path) -> None:
    rng = random.Random(3)
    docs = {loc: [made_up(rng, f"/{loc}/t/#q-{n}") for n in range(40)] for loc in ("en", "tr")}
    live = LiveIndex(tmp_path)
    live.first(docs)
    live.rebuilt({"en": docs["en"]})
    assert live.wait(timeout=60)
    assert not (tmp_path / "tr" / INDEX_DIR).exists()
    assert_indexed(tmp_path, {"en": docs["en"]})


def test_a_damaged_index_folder_is_rebuilt(tmp_path: Path) -> None:
    rng = random.Random(5)
    docs = {"en": [made_up(rng, f"/en/t/#q-{n}") for n in range(50)]}
    live = LiveIndex(tmp_path)
    live.first(docs)
    shutil.rmtree(tmp_path / "en" / INDEX_DIR / "t")  # an edit cannot write its terms files
    docs = {
        "en": [
            weighed(docs["en"][0], [("fresh", 4)]),
            *docs["en"][1:],
        ]
    }
    live.rebuilt(docs)
    assert live.wait(timeout=60)
    assert_indexed(tmp_path, docs)


def test_the_site_is_never_without_an_index_during_full_rebuilds(tmp_path: Path) -> None:
    rng = random.Random(11)
    docs = [made_up(rng, f"/en/t/#q-{n}") for n in range(400)]
    live = LiveIndex(tmp_path)
    live.first({"en": docs})
    manifest = tmp_path / "en" / INDEX_DIR / "index.json"
    missing: list[int] = []
    reads = 0
    stop = threading.Event()

    def reader() -> None:
        nonlocal reads
        while not stop.is_set():
            try:
                manifest.read_bytes()
            except OSError:
                missing.append(reads)
            reads += 1

    watcher = threading.Thread(target=reader)
    watcher.start()
    try:
        for step in range(12):  # one question more or fewer: a full rebuild every time
            current = docs if step % 2 else docs[1:]
            live.rebuilt({"en": current})
            assert live.wait(timeout=60)
    finally:
        stop.set()
        watcher.join()
    assert reads > 0
    assert not missing
    assert_indexed(tmp_path, {"en": docs})
