# ruff: noqa: RUF001  (Turkish and Chinese page text)
"""Progress that travels (<locale>/progress/, assets/transfer.js) and the storage schema
(qbank.js), in real Chromium over the small bank's site.

Export → clear → import gives back every key byte for byte; a file or link merges per record
(newest wins) after a preview; the link form works between two phone-sized browsers; a
damaged, cut, foreign or newer file changes nothing; data written by the release before
versioning (tests/fixtures/release_storage.json, recorded in a browser) migrates without loss.
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from stored_texts import seed, storage
from support.axe import scheme as _scheme
from support.axe import serious as _serious
from support.review import START, later, pick, review_session

pytestmark = pytest.mark.browser

PAGE = "en/progress/"
TOPIC = "en/ml-engineer/throughput/"
SINGLE = "01a05d13-8d21-739a-baa2-7dab67be4001"  # throughput, answer b
JUNIOR = "01a05d13-8d21-739a-baa2-7dab67be4002"  # throughput, answer a
OPEN = "01a05d13-8d21-739a-baa2-7dab67be4003"  # throughput, open
NUMERICS = "01a05d13-8d21-739a-baa2-7dab67be4005"
PROGRESS = "qbank:v1:progress"
SAVED = "qbank:v1:saved"
REVIEW = "qbank:v1:review"  # another release's (or helper's) store: merged generically
META = "qbank:v1:meta"
STATUS = ".qb-transfer__status"
PREVIEW = ".qb-transfer__preview"
RELEASE: dict[str, str] = json.loads(
    (Path(__file__).resolve().parents[1] / "fixtures" / "release_storage.json").read_text("utf-8")
)["localStorage"]
# A review schedule as assets/review.js keeps it (an object map of records with ts): FSRS
# memory states (schema 2), and schema 1's Leitner box.
SCHEDULE = {
    SINGLE: {
        "t": "ml-engineer/throughput",
        "r": 1,
        "n": 1,
        "ts": 1796087879000,
        "S": 2.3065,
        "D": 2.11810397,
        "due": 20790,
        "l": 0,
    }
}
LEITNER = {SINGLE: {"t": "ml-engineer/throughput", "b": 2, "r": 1, "n": 1, "ts": 1796087879000}}
NOW = '{"schema":2}'  # storage of this release


def stored(value: Any) -> str:
    """A value as the widget stores it (JSON.stringify: no spaces)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@pytest.fixture
def tab(browser: Any, server: str) -> Iterator[Any]:
    """A fresh page (own storage); uncaught errors, console errors (a CSP violation is one)
    and failed requests collected in ``tab.errors``."""
    context = browser.new_context(base_url=server, accept_downloads=True)
    page = context.new_page()
    yield watch(page)
    context.close()


def watch(page: Any) -> Any:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # (a failed request is reported by its response; Chromium's own favicon fetch has none)
    page.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error" and not m.text.startswith("Failed to load resource")
            else None
        ),
    )
    page.errors = errors
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.requests = requests
    return page


def download(tab: Any) -> bytes:
    with tab.expect_download() as info:
        tab.locator(".qb-transfer__download").click()
    assert re.fullmatch(r"qbank-study-\d{4}-\d\d-\d\d\.json", info.value.suggested_filename)
    return Path(info.value.path()).read_bytes()


def choose(tab: Any, data: bytes, name: str = "progress.json") -> None:
    tab.locator(".qb-transfer__file").set_input_files(
        files=[{"name": name, "mimeType": "application/json", "buffer": data}]
    )


def counts(tab: Any) -> dict[str, list[int]]:
    """The preview table: {kind: [new, newer there, newer here (kept), already here]}, once
    it shows (a link's state is decompressed first: the table comes in one piece after)."""
    tab.locator(".qb-transfer__table tbody tr").first.wait_for()
    rows: dict[str, list[int]] = tab.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.qb-transfer__table tbody tr')]
          .map(tr => [tr.dataset.kind, [...tr.querySelectorAll('td')]
            .map(td => Number(td.textContent))]))"""
    )
    return rows


def file_of(state: dict[str, Any], **head: Any) -> bytes:
    file = {
        "format": "qbank-study-state",
        "version": 1,
        "schema": 2,
        "exported": "2026-12-01T00:00:00.000Z",
        "data": state,
    }
    file.update(head)
    return json.dumps(file).encode()


def test_export_clear_import_restores_everything_byte_for_byte(tab: Any) -> None:
    aside = PROGRESS + ":damaged:1796000000000"
    seed(tab, {**RELEASE, REVIEW: stored(LEITNER), aside: "{oops", SAVED + ":unreadable": "x"})
    tab.goto(PAGE)
    before = storage(tab)
    assert json.loads(before[META]) == {"schema": 2}
    exported = download(tab)
    expect(tab.locator(STATUS)).to_contain_text("Saved as qbank-study-")
    file = json.loads(exported)
    assert file["format"] == "qbank-study-state"
    assert (file["version"], file["schema"]) == (1, 2)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", file["exported"])
    # every kind, never a set-aside copy, never the schema key
    assert sorted(file["data"]) == ["practice", "progress", "review", "saved"]
    assert file["data"]["saved"]["items"][OPEN]["note"].endswith("页锁定.")

    tab.evaluate("localStorage.clear()")
    tab.reload()
    assert storage(tab) == {META: before[META]}
    choose(tab, exported)
    expect(tab.locator(PREVIEW)).to_be_visible()
    assert counts(tab) == {
        "practice": [1, 0, 0, 0],
        "progress": [3, 0, 0, 0],
        "review": [3, 0, 0, 0],  # the answers' FSRS records (schema 2)
        "saved": [2, 0, 0, 0],
    }
    assert tab.locator(f"{PREVIEW} tr[data-kind=saved] th").inner_text() == "Bookmarks and notes"
    assert storage(tab) == {META: before[META]}, "nothing is stored before the confirmation"
    tab.locator(".qb-transfer__apply").click()
    expect(tab.locator(STATUS)).to_have_text("Imported. Records added or updated: 9.")
    expect(tab.locator(PREVIEW)).to_be_hidden()
    kept = {k: v for k, v in before.items() if k.count(":") == 2}  # no set-aside copy
    assert storage(tab) == kept

    # bookmarks and notes came back: the question page and the saved page show them
    tab.goto(TOPIC)
    expect(tab.locator(f"#q-{SINGLE} .qb-star")).to_have_attribute("aria-pressed", "true")
    expect(tab.locator(f"#q-{OPEN} .qb-note__text")).to_have_value(
        "Pinned memory: ask about “page-locked” 页锁定."
    )
    expect(tab.locator(f"#q-{SINGLE} .qb-status")).to_have_attribute("data-state", "right")
    tab.goto("en/saved/")
    expect(tab.locator(".qb-saved__item")).to_have_count(2)
    assert tab.errors == []


def test_import_merges_per_record_newest_wins_and_says_what_changes(tab: Any) -> None:
    here = {
        SINGLE: {"t": "ml-engineer/throughput", "ts": 2000, "r": 1},  # newer here: kept
        JUNIOR: {"t": "ml-engineer/throughput", "ts": 1000, "r": 0},  # retried there: replaced
        OPEN: {"t": "ml-engineer/throughput", "ts": 1500, "s": "no"},  # the same there
    }
    there = {
        SINGLE: {"t": "ml-engineer/throughput", "ts": 1000, "r": 0},
        JUNIOR: {"t": "ml-engineer/throughput", "ts": 1000, "r": 0, "rr": 1, "rts": 3000},
        OPEN: {"t": "ml-engineer/throughput", "ts": 1500, "s": "no"},
        NUMERICS: {"t": "ml-engineer/numerics", "ts": 1200, "r": 1},  # new
    }
    history_here = [{"ts": 10, "field": "ml-engineer", "score": 1, "total": 2}]
    history_there = [{"ts": 5, "field": "backend", "score": 0, "total": 1}, history_here[0]]
    saved_here = {"v": 1, "items": {SINGLE: {"star": True, "url": "u", "t": 50}}}
    saved_there = {"v": 1, "items": {SINGLE: {"star": True, "note": "later", "url": "u", "t": 60}}}
    seed(
        tab,
        {
            META: NOW,
            PROGRESS: stored(here),
            "qbank:v1:practice": stored(history_here),
            SAVED: stored(saved_here),
        },
    )
    incoming = file_of(
        {"progress": there, "practice": history_there, "saved": saved_there, "review": SCHEDULE}
    )
    # the widget reads the answers on a question page, then the reader moves on (instantly)
    tab.goto(TOPIC)
    expect(tab.locator(f"#q-{JUNIOR} .qb-status")).to_have_attribute("data-state", "wrong")
    tab.locator("a[href$='/en/progress/']:visible").first.click()
    tab.wait_for_url(re.compile(r"/en/progress/$"))
    before = storage(tab)
    choose(tab, incoming)
    expect(tab.locator(PREVIEW)).to_be_visible()
    assert counts(tab) == {
        "practice": [1, 0, 0, 1],
        "progress": [1, 1, 1, 1],
        "review": [1, 0, 0, 0],
        "saved": [0, 1, 0, 0],
    }
    # a cancel stores nothing
    tab.locator(".qb-transfer__cancel").click()
    expect(tab.locator(STATUS)).to_have_text("Cancelled: nothing was changed.")
    assert storage(tab) == before

    choose(tab, incoming)
    tab.locator(".qb-transfer__apply").click()
    expect(tab.locator(STATUS)).to_have_text("Imported. Records added or updated: 5.")
    after = storage(tab)
    assert json.loads(after[PROGRESS]) == {
        SINGLE: here[SINGLE],
        JUNIOR: there[JUNIOR],
        OPEN: here[OPEN],
        NUMERICS: there[NUMERICS],
    }
    assert list(json.loads(after[PROGRESS])) == [SINGLE, JUNIOR, OPEN, NUMERICS]
    assert json.loads(after["qbank:v1:practice"]) == [history_there[0], history_here[0]]
    assert json.loads(after[SAVED]) == saved_there
    assert json.loads(after[REVIEW]) == SCHEDULE

    # the same file again: nothing left to import, no button to do it
    choose(tab, file_of({"progress": there}))
    expect(tab.locator(STATUS)).to_have_text(
        "Everything in it is already here: there is nothing to import."
    )
    expect(tab.locator(".qb-transfer__apply")).to_have_count(0)
    assert storage(tab) == after
    # back on the question page (same page view): the widget shows the imported answers,
    # and its next write builds on them, not on what it held before the import
    tab.go_back()
    tab.wait_for_url(re.compile(r"/throughput/$"))
    tab.locator(f"#q-{OPEN} details.qb-answer > summary").click()
    tab.locator(f'#q-{OPEN} .qb-rate-btn[data-rate="know"]').click()
    expect(tab.locator(f"#q-{OPEN} .qb-status")).to_have_attribute("data-state", "rated")
    final = json.loads(storage(tab)[PROGRESS])
    assert final[NUMERICS] == there[NUMERICS]
    assert final[JUNIOR] == there[JUNIOR]
    assert final[OPEN]["s"] == "know"
    assert tab.errors == []


def test_the_download_of_the_storage_notice_can_be_imported(tab: Any) -> None:
    """qbank.js's notice over damaged storage offers its own download: it restores too."""
    answer = {"t": "ml-engineer/throughput", "ts": 1700000000000, "r": 1}
    rescue = {
        "exported": "2026-11-30T10:00:00.000Z",
        "site": "http://127.0.0.1",
        "readable": {PROGRESS: {SINGLE: answer}, "qbank:v1:practice": None},
        "setAside": {PROGRESS: {"keptAs": PROGRESS + ":damaged:1", "text": "{oops"}},
    }
    tab.goto(PAGE)
    choose(tab, json.dumps(rescue).encode())
    # a schema-1 file: its answer gets its FSRS review record
    assert counts(tab) == {"progress": [1, 0, 0, 0], "review": [1, 0, 0, 0]}
    tab.locator(".qb-transfer__apply").click()
    expect(tab.locator(STATUS)).to_have_text("Imported. Records added or updated: 2.")
    assert set(storage(tab)) == {META, PROGRESS, REVIEW}
    assert json.loads(storage(tab)[PROGRESS]) == {SINGLE: answer}


def phone(browser: Any, server: str) -> Any:
    context = browser.new_context(
        base_url=server, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    return watch(context.new_page())


def test_the_link_form_carries_the_state_between_two_phones(browser: Any, server: str) -> None:
    first = phone(browser, server)
    first.goto(TOPIC)
    first.locator(f'#q-{SINGLE} .qb-option[data-key="b"] .qb-pick').tap()
    expect(first.locator(f"#q-{SINGLE} .qb-status")).to_have_attribute("data-state", "right")
    first.locator(f"#q-{SINGLE} .qb-star").tap()
    first.goto(PAGE)
    first.locator(".qb-transfer__copy").tap()
    link_box = first.locator(".qb-transfer__link")
    expect(link_box).to_have_value(re.compile("#import="))
    link = link_box.input_value()
    assert link.startswith(f"{server}{PAGE}#import=")
    expect(first.locator(STATUS)).to_have_text(
        f"Link copied ({len(link)} characters). Open it on the other device."
    )
    assert first.evaluate("navigator.clipboard.readText()") == link
    assert first.evaluate("document.documentElement.scrollWidth") <= 390
    # the fragment is the file, deflated (raw) and base64url-encoded
    code = link.split("#import=")[1]
    assert re.fullmatch(r"[A-Za-z0-9_-]+", code)
    text = zlib.decompress(base64.urlsafe_b64decode(code + "=" * (-len(code) % 4)), -15)
    sent = json.loads(text)
    assert sent["format"] == "qbank-study-state"
    assert set(sent["data"]) == {"progress", "saved"}
    source = storage(first)

    second = phone(browser, server)
    second.goto(link)
    expect(second.locator(PREVIEW)).to_be_visible()
    assert counts(second) == {
        "progress": [1, 0, 0, 0],
        "saved": [1, 0, 0, 0],
    }
    assert second.evaluate("document.documentElement.scrollWidth") <= 390
    second.locator(".qb-transfer__apply").tap()
    expect(second.locator(STATUS)).to_have_text("Imported. Records added or updated: 2.")
    assert storage(second) == source
    assert "#" not in second.url, "the link's data leaves the address once imported"
    second.goto(TOPIC)
    expect(second.locator(f"#q-{SINGLE} .qb-star")).to_have_attribute("aria-pressed", "true")
    assert first.errors == []
    assert second.errors == []
    first.context.close()
    second.context.close()


def test_a_review_schedule_made_in_the_browser_travels_with_its_due_dates(
    browser: Any, server: str
) -> None:
    """Answers, then a review session two days later (assets/review.js), on one device; the
    link opened on another device (same day) gives it the same queue: same due counts now
    and on later days."""
    first = phone(browser, server)
    first.clock.install(time=START)
    first.goto(TOPIC)
    pick(first, SINGLE, "a")  # wrong: box 1
    pick(first, JUNIOR, "a")  # right: box 2
    later(first, 2, "en/review/")
    assert review_session(first, {SINGLE: "b", JUNIOR: "b"}) == [SINGLE, JUNIOR]
    later(first, 4, PAGE)
    first.locator(".qb-transfer__copy").tap()
    expect(first.locator(".qb-transfer__link")).to_have_value(re.compile("#import="))
    link = first.locator(".qb-transfer__link").input_value()

    second = phone(browser, server)
    second.clock.install(time=START)
    later(second, 4, "en/")
    expect(second.locator(".qb-due")).to_be_hidden()  # nothing answered here yet
    second.goto(link)
    assert counts(second)["review"] == [2, 0, 0, 0]
    second.locator(".qb-transfer__apply").tap()
    expect(second.locator(STATUS)).to_contain_text("Records added or updated: 5.")
    assert storage(second) == storage(first)
    for day in (4, 5):
        later(first, day, "en/")
        later(second, day, "en/")
        expect(second.locator(".qb-due__count")).to_have_text(
            first.locator(".qb-due__count").inner_text()
        )
    assert first.errors == []
    assert second.errors == []
    first.context.close()
    second.context.close()


GOOD = file_of({"progress": {SINGLE: {"t": "ml-engineer/throughput", "ts": 9, "r": 1}}})
REFUSED = [
    ("corrupt", b"\x89PNG\r\n\x1a\n\x00\x00garbage", "is not readable JSON"),
    ("truncated", GOOD[: len(GOOD) // 2], "is incomplete"),
    ("foreign", b'{"name": "left-pad", "version": "1.3.0"}', 'its "format" should be'),
    ("newer version", file_of({}, version=2), "comes from a newer release"),
    ("newer schema", file_of({}, schema=7), "storage schema 7; this site reads up to schema 2"),
    ("no data", file_of({}, data=[1, 2]), 'lacks "version", "schema" or "data"'),
    (
        "damaged record",
        file_of({"progress": {SINGLE: {"t": "x", "r": 5}}}),
        f'damaged at "progress → {SINGLE}"',
    ),
    (
        "damaged history",
        file_of({"practice": [{"ts": 1, "field": "a"}, {"ts": "x"}]}),
        'damaged at "practice → 1"',
    ),
    ("another form", file_of({"saved": [1, 2]}), 'The file\'s "saved" has another form'),
]


@pytest.mark.parametrize(("what", "data", "message"), REFUSED, ids=[r[0] for r in REFUSED])
def test_a_bad_file_says_what_is_wrong_and_changes_nothing(
    tab: Any, what: str, data: bytes, message: str
) -> None:
    seed(tab, {**RELEASE, REVIEW: stored(LEITNER)})
    tab.goto(PAGE)
    before = storage(tab)
    choose(tab, data)
    expect(tab.locator(STATUS)).to_contain_text(message)
    expect(tab.locator(STATUS)).to_contain_text("Nothing was changed.")
    assert tab.locator(STATUS).get_attribute("data-kind") == "error"
    expect(tab.locator(PREVIEW)).to_be_hidden()
    assert storage(tab) == before
    assert tab.errors == []


def test_a_full_storage_undoes_the_whole_import(browser: Any, server: str) -> None:
    """Kinds are written in name order; the last one (saved) does not fit: the ones written
    before it are put back."""
    context = browser.new_context(base_url=server)
    tab = watch(context.new_page())
    seed(tab, {PROGRESS: stored({JUNIOR: {"t": "ml-engineer/throughput", "ts": 1, "r": 0}})})
    context.add_init_script(
        """
        const set = Storage.prototype.setItem;
        Storage.prototype.setItem = function (k, v) {
          if (k === "qbank:v1:saved") throw new DOMException("full", "QuotaExceededError");
          return set.call(this, k, v);
        };
        """
    )
    tab.goto(PAGE)
    before = storage(tab)
    data = json.loads(RELEASE[PROGRESS])
    choose(
        tab, file_of({"progress": data, "review": SCHEDULE, "saved": json.loads(RELEASE[SAVED])})
    )
    tab.locator(".qb-transfer__apply").click()
    expect(tab.locator(STATUS)).to_have_text(
        "This browser's storage is full: the import was undone and nothing was changed."
    )
    assert storage(tab) == before
    assert tab.errors == []
    context.close()


def test_a_cut_link_changes_nothing_and_speaks_the_page_language(tab: Any) -> None:
    seed(tab, RELEASE)
    tab.goto("tr/progress/")
    before = storage(tab)
    tab.locator(".qb-transfer__copy").click()
    expect(tab.locator(".qb-transfer__link")).to_have_value(re.compile("#import="))
    link = tab.locator(".qb-transfer__link").input_value()
    tab.evaluate("localStorage.clear()")
    tab.goto(link[: len(link) - 40].replace("/tr/progress/", "/zh/progress/"))
    expect(tab.locator(STATUS)).to_have_text(
        "这个链接不完整或已损坏（复制时被截断？）。没有任何改动。"
    )
    assert set(storage(tab)) == {META}
    tab.goto(link.replace("#import=", "#import=%%%"))
    expect(tab.locator(STATUS)).to_contain_text("Bu bağlantı eksik ya da bozuk")
    assert set(storage(tab)) == {META}
    tab.goto(link)
    expect(tab.locator(f"{PREVIEW} th").first).to_have_text("Tür")
    tab.locator(".qb-transfer__apply").click()
    assert storage(tab) == before
    assert tab.errors == []


def test_data_of_the_release_before_versioning_migrates_without_loss(tab: Any) -> None:
    """release_storage.json: what 67ea3aa's widget stored after answering (right, wrong then
    a retry, a rating), a practice session, a star and a note, recorded in Chromium by
    tests/fixtures/record_release_storage.py."""
    seed(tab, RELEASE)
    assert storage(tab) == RELEASE
    tab.goto(TOPIC)
    after = storage(tab)
    assert json.loads(after.pop(META)) == {"schema": 2}
    review = json.loads(after.pop(REVIEW))  # schema 2: the answers' FSRS records
    assert after == RELEASE  # byte for byte
    assert sorted(review) == sorted(json.loads(RELEASE[PROGRESS]))
    expect(tab.locator(f"#q-{SINGLE} .qb-status")).to_have_attribute("data-state", "right")
    expect(tab.locator(".qb-page-progress .qb-bar")).to_have_attribute("aria-valuenow", "3")
    expect(tab.locator(f"#q-{SINGLE} .qb-star")).to_have_attribute("aria-pressed", "true")
    tab.goto("en/ml-engineer/practice/")
    expect(tab.locator(".qb-history li")).to_have_count(1)
    # the step runs once: a second start finds the schema and writes nothing
    tab.evaluate(f"localStorage.setItem('{META}', '{{\"schema\":2,\"seen\":true}}')")
    tab.goto(TOPIC)
    assert storage(tab)[META] == '{"schema":2,"seen":true}'
    assert tab.errors == []


def test_storage_of_a_newer_schema_is_left_as_it_is(tab: Any) -> None:
    newer = {**RELEASE, META: '{"schema":9}'}
    seed(tab, newer)
    tab.goto(TOPIC)
    expect(tab.locator(f"#q-{SINGLE} .qb-status")).to_have_attribute("data-state", "right")
    assert storage(tab) == newer


def test_only_the_progress_page_loads_the_script_and_pages_link_to_it(tab: Any) -> None:
    tab.goto("en/")
    tab.locator("article a[href$='progress/']").click()
    tab.wait_for_url(re.compile(r"/en/progress/$"))
    expect(tab.locator(".qb-transfer__download")).to_be_visible()
    assert [u for u in tab.requests if u.endswith("/assets/transfer.js")]
    tab.requests.clear()
    tab.goto("zh/saved/")
    expect(tab.locator("article a[href$='progress/']")).to_have_text(
        "把收藏的题目和学习进度转到另一台设备"
    )
    tab.goto(TOPIC)
    assert not [u for u in tab.requests if u.endswith("/assets/transfer.js")]
    assert tab.errors == []


def test_without_javascript_the_page_says_it_needs_it(browser: Any, server: str) -> None:
    context = browser.new_context(base_url=server, java_script_enabled=False)
    tab = context.new_page()
    tab.goto("tr/progress/")
    assert "JavaScript gerektirir" in tab.locator("article").inner_text()
    expect(tab.locator(".qb-transfer__download")).to_be_hidden()
    context.close()


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_axe_progress_page_with_a_preview_and_a_refusal(tab: Any, scheme: str) -> None:
    seed(tab, RELEASE)
    tab.goto(PAGE)
    _scheme(tab, scheme)
    tab.locator(".qb-transfer__copy").click()
    expect(tab.locator(".qb-transfer__link")).to_have_value(re.compile("#import="))
    choose(tab, file_of({"review": SCHEDULE}))
    expect(tab.locator(PREVIEW)).to_be_visible()
    assert _serious(tab) == []
    choose(tab, b"{")
    expect(tab.locator(STATUS)).to_have_attribute("data-kind", "error")
    assert _serious(tab) == []


LEITNER_RELEASE: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[1] / "fixtures" / "leitner_storage.json").read_text("utf-8")
)


def test_leitner_storage_of_the_release_keeps_every_due_question_due(
    browser: Any, server: str
) -> None:
    """leitner_storage.json: what the release with Leitner boxes (schema 1) stored after a
    reader answered on a topic page and ran two review sessions, and the home page's "N due
    today" it showed on each of the 40 days after (tests/fixtures/record_leitner_storage.py).
    Migrated to FSRS records, the same questions are due on the same days."""
    context = browser.new_context(base_url=server, timezone_id="UTC")
    try:
        tab = watch(context.new_page())
        start = datetime.fromisoformat(LEITNER_RELEASE["start"])
        tab.clock.install(time=start)
        seed(tab, LEITNER_RELEASE["localStorage"])
        for day, line in LEITNER_RELEASE["due"].items():
            tab.clock.set_system_time(start + timedelta(days=int(day)))
            tab.goto("en/")
            expect(tab.locator(".qb-due .qb-due__count")).to_have_text(line)
        after = storage(tab)
        assert json.loads(after[META]) == {"schema": 2}
        old = json.loads(LEITNER_RELEASE["localStorage"][REVIEW])
        review = json.loads(after[REVIEW])
        assert sorted(review) == sorted(old)
        for qid, record in review.items():
            assert "b" not in record
            assert record["n"] == old[qid]["n"]
            assert record["S"] in (1, 2, 4, 8, 16, 32)
        assert after[PROGRESS] == LEITNER_RELEASE["localStorage"][PROGRESS]  # untouched
        assert tab.errors == []
    finally:
        context.close()


def test_a_file_of_the_leitner_release_imports_as_fsrs_records(tab: Any) -> None:
    seed(tab, {META: NOW})
    tab.goto(PAGE)
    choose(tab, file_of({"review": LEITNER}, schema=1))
    expect(tab.locator(PREVIEW)).to_be_visible()
    tab.locator(".qb-transfer__apply").click()
    expect(tab.locator(STATUS)).to_contain_text("Imported.")
    record = json.loads(storage(tab)[REVIEW])[SINGLE]
    assert (record["S"], record["r"], record["n"]) == (2, 1, 1)
    assert "b" not in record
