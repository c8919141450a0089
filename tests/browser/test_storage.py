# ruff: noqa: RUF001  (Turkish and Chinese notice text)
"""Damaged or full browser storage: the widget keeps answering, sets unreadable progress
aside (never deletes it), says so in the page's language, and offers a download."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from stored_texts import seed, storage

pytestmark = pytest.mark.browser

TOPIC = "en/ml-engineer/throughput/"
FIELD = "en/ml-engineer/"
PRACTICE = "en/ml-engineer/practice/"
SINGLE = "01a05d13-8d21-739a-baa2-7dab67be4001"  # throughput, answer b
JUNIOR = "01a05d13-8d21-739a-baa2-7dab67be4002"  # throughput, answer a
PROGRESS = "qbank:v1:progress"
HISTORY = "qbank:v1:practice"
NOTICE = ".qb-storage-notice"
DAMAGED_TEXT = "could not be read"
FULL_TEXT = "storage is full"
VALID = {"t": "ml-engineer/throughput", "r": 1, "ts": 1700000000000}


@pytest.fixture
def tab(browser: Any, server: str) -> Iterator[Any]:
    """A fresh page (own storage) whose uncaught errors are collected in ``tab.errors``."""
    context = browser.new_context(base_url=server, accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    yield page
    context.close()


def set_aside(tab: Any, key: str) -> dict[str, str]:
    return {k: v for k, v in storage(tab).items() if k.startswith(key + ":damaged:")}


def answer_right(tab: Any) -> None:
    """Answer SINGLE rightly and check that the widget reacted and counted it."""
    q = tab.locator(f"#q-{SINGLE}")
    q.locator('.qb-option[data-key="b"]').click()
    expect(q.locator(".qb-feedback")).to_have_text(re.compile("Right"))
    expect(q.locator(".qb-status")).to_have_attribute("data-state", "right")


def download(tab: Any) -> dict[str, Any]:
    with tab.expect_download() as info:
        tab.locator(f"{NOTICE} .qb-storage-export").first.click()
    path = info.value.path()
    assert re.fullmatch(r"qbank-progress-\d{4}-\d\d-\d\d\.json", info.value.suggested_filename)
    return json.loads(Path(path).read_text("utf-8"))


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param('{"01a05d13-8d21-739a-baa2-7dab67be4002": {"t": "ml-engin', id="cut-short"),
        pytest.param("not json at all {", id="garbage"),
        pytest.param("[1, 2, 3]", id="an-array"),
        pytest.param('"a string"', id="a-string"),
        pytest.param("null", id="null"),
        pytest.param('{"version": 2, "answers": {"x": [1, 0]}}', id="newer-shape"),
    ],
)
def test_unreadable_progress_is_set_aside_and_answering_continues(tab: Any, raw: str) -> None:
    seed(tab, {PROGRESS: raw})
    tab.goto(TOPIC)
    notice = tab.locator(NOTICE)
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(DAMAGED_TEXT)
    assert notice.get_attribute("role") == "alert"
    # the entry was kept, byte for byte, under another key
    kept = set_aside(tab, PROGRESS)
    assert list(kept.values()) == [raw]
    answer_right(tab)
    expect(tab.locator(".qb-page-progress .qb-bar")).to_have_attribute("aria-valuenow", "1")
    assert set(json.loads(storage(tab)[PROGRESS])) == {SINGLE}
    # the next visit reads the key again: no notice, the answer is there, the copy stays
    tab.reload()
    expect(tab.locator(f"#q-{SINGLE} .qb-status")).to_have_attribute("data-state", "right")
    expect(notice).to_have_count(0)
    assert set_aside(tab, PROGRESS) == kept
    assert tab.errors == []


def test_wrong_types_keep_what_can_be_read(tab: Any) -> None:
    raw = json.dumps(
        {
            SINGLE: VALID,
            JUNIOR: {"t": 42, "r": "yes"},  # a topic that is not a string crashed the page
            "01a05d13-8d21-739a-baa2-7dab67be4003": None,
            "01a05d13-8d21-739a-baa2-7dab67be4005": "know",
            "01a05d13-8d21-739a-baa2-7dab67be4006": {"t": "ml-engineer/numerics", "s": 3},
        }
    )
    seed(tab, {PROGRESS: raw})
    tab.goto(FIELD)
    expect(tab.locator(NOTICE)).to_contain_text(DAMAGED_TEXT)
    expect(tab.locator(".qb-progress").first).to_contain_text("1 of 6 answered")
    assert list(set_aside(tab, PROGRESS).values()) == [raw]
    assert json.loads(storage(tab)[PROGRESS]) == {SINGLE: VALID}
    # the readable record shows on its page, and the reader answers on
    tab.goto(TOPIC)
    expect(tab.locator(f"#q-{SINGLE} .qb-status")).to_have_attribute("data-state", "right")
    tab.locator(f'#q-{JUNIOR} .qb-option[data-key="a"]').click()
    expect(tab.locator(f"#q-{JUNIOR} .qb-feedback")).to_have_text(re.compile("Right"))
    assert set(json.loads(storage(tab)[PROGRESS])) == {SINGLE, JUNIOR}
    assert tab.errors == []


def test_download_holds_what_could_be_read_and_the_damaged_text(tab: Any) -> None:
    raw = json.dumps({SINGLE: VALID, JUNIOR: {"t": None}})
    seed(tab, {PROGRESS: raw})
    tab.goto(TOPIC)
    data = download(tab)
    assert data["readable"][PROGRESS] == {SINGLE: VALID}
    kept = set_aside(tab, PROGRESS)
    assert data["setAside"][PROGRESS] == {"keptAs": next(iter(kept)), "text": raw}
    # the close button dismisses the notice
    tab.locator(f"{NOTICE} .qb-storage-close").click()
    expect(tab.locator(NOTICE)).to_have_count(0)
    answer_right(tab)
    assert tab.errors == []


def test_huge_unreadable_entry_is_moved_aside_when_a_copy_does_not_fit(tab: Any) -> None:
    """Chromium's quota is about 5.2 million characters per site: a 3-million-character
    entry leaves no room for a copy, so it is moved (its room freed first), not lost."""
    raw = '{"' + "x" * 3_000_000
    seed(tab, {PROGRESS: raw})
    tab.goto(TOPIC)
    expect(tab.locator(NOTICE)).to_contain_text(DAMAGED_TEXT)
    answer_right(tab)
    kept = tab.evaluate(
        "(key) => Object.keys(localStorage).filter(k => k.startsWith(key + ':damaged:'))"
        ".map(k => [localStorage.getItem(k).length, localStorage.getItem(k).slice(0, 8)])",
        PROGRESS,
    )
    assert kept == [[len(raw), raw[:8]]]
    assert set(json.loads(tab.evaluate(f"localStorage.getItem('{PROGRESS}')"))) == {SINGLE}
    assert tab.errors == []


def test_huge_readable_entry_is_used_without_a_notice(tab: Any) -> None:
    """30,000 well-formed records (about 2.6 million characters) are progress, not damage."""
    records = {f"00000000-0000-7000-8000-{i:012d}": VALID for i in range(30_000)}
    records[JUNIOR] = {"t": "ml-engineer/throughput", "r": 0, "ts": 1700000000000}
    seed(tab, {PROGRESS: json.dumps(records)})
    tab.goto(TOPIC)
    expect(tab.locator(f"#q-{JUNIOR} .qb-status")).to_have_attribute("data-state", "wrong")
    answer_right(tab)
    expect(tab.locator(NOTICE)).to_have_count(0)
    assert len(json.loads(tab.evaluate(f"localStorage.getItem('{PROGRESS}')"))) == 30_002
    assert set_aside(tab, PROGRESS) == {}
    assert tab.errors == []


def test_full_storage_says_so_and_answering_continues(browser: Any, server: str) -> None:
    context = browser.new_context(base_url=server, accept_downloads=True)
    # Only qbank's writes fail: Material's own storage use is not under test here.
    context.add_init_script(
        """
        const set = Storage.prototype.setItem;
        Storage.prototype.setItem = function (k, v) {
          if (String(k).startsWith("qbank:")) {
            throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
          }
          return set.call(this, k, v);
        };
        """
    )
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.goto(TOPIC)
    expect(tab.locator(NOTICE)).to_have_count(0)
    answer_right(tab)
    notice = tab.locator(f'{NOTICE}[data-kind="full"]')
    expect(notice).to_contain_text(FULL_TEXT)
    expect(tab.locator(".qb-page-progress .qb-bar")).to_have_attribute("aria-valuenow", "1")
    tab.locator(f'#q-{JUNIOR} .qb-option[data-key="a"]').click()
    expect(tab.locator(".qb-page-progress .qb-bar")).to_have_attribute("aria-valuenow", "2")
    expect(tab.locator(NOTICE)).to_have_count(1)
    # what is only in memory can be downloaded
    with tab.expect_download() as info:
        notice.locator(".qb-storage-export").click()
    data = json.loads(Path(info.value.path()).read_text("utf-8"))
    assert set(data["readable"][PROGRESS]) == {SINGLE, JUNIOR}
    # the notice stays through instant navigation, and answers are still counted there
    tab.locator(".md-nav a[href$='numerics/']").first.click()
    tab.wait_for_url(re.compile("numerics/$"))
    expect(notice).to_be_visible()
    context.close()
    assert errors == []


def test_damaged_practice_history_keeps_practice_working(tab: Any) -> None:
    raw = json.dumps([None, {"field": "ml-engineer", "ts": "yesterday"}, 7])
    seed(tab, {HISTORY: raw})
    tab.goto(PRACTICE)
    expect(tab.locator(NOTICE)).to_contain_text(DAMAGED_TEXT)
    assert list(set_aside(tab, HISTORY).values()) == [raw]
    tab.locator("select.qb-practice-level").select_option("junior")
    tab.locator(".qb-start").click()
    expect(tab.locator(".qb-practice-q")).to_be_visible()
    tab.locator(".qb-practice-skip").click()
    expect(tab.locator(".qb-summary")).to_be_visible()
    expect(tab.locator(".qb-history li")).to_have_count(1)
    assert len(json.loads(storage(tab)[HISTORY])) == 1
    assert tab.errors == []


@pytest.mark.parametrize(
    ("locale", "damaged", "full"),
    [
        ("tr", "okunamadı", "dolu"),
        ("zh", "无法读取", "已满"),
    ],
)
def test_notice_speaks_the_page_language(
    browser: Any, server: str, locale: str, damaged: str, full: str
) -> None:
    context = browser.new_context(base_url=server)
    tab = context.new_page()
    seed(tab, {PROGRESS: "{oops"})
    # from now on the progress key cannot be written: the part that could be read is not saved
    context.add_init_script(
        """
        const set = Storage.prototype.setItem;
        Storage.prototype.setItem = function (k, v) {
          if (k === "qbank:v1:progress") throw new DOMException("full", "QuotaExceededError");
          return set.call(this, k, v);
        };
        """
    )
    tab.goto(f"{locale}/ml-engineer/throughput/")
    expect(tab.locator(f'{NOTICE}[data-kind="damaged"]')).to_contain_text(damaged)
    expect(tab.locator(f'{NOTICE}[data-kind="full"]')).to_contain_text(full)
    assert list(set_aside(tab, PROGRESS).values()) == ["{oops"]
    tab.locator(f'#q-{SINGLE} .qb-option[data-key="b"]').click()
    expect(tab.locator(f"#q-{SINGLE} .qb-status")).to_have_attribute("data-state", "right")
    context.close()


def test_damaged_entry_stays_in_place_when_nothing_can_be_written(
    browser: Any, server: str
) -> None:
    """If no qbank key can be written at all, setting the entry aside would mean deleting
    it: it stays where it is, untouched, and the reader answers on in memory."""
    raw = '{"01a05d13-8d21-739a-baa2-7dab67be4001": 1'
    context = browser.new_context(base_url=server)
    tab = context.new_page()
    seed(tab, {PROGRESS: raw})
    context.add_init_script(
        """
        const set = Storage.prototype.setItem;
        Storage.prototype.setItem = function (k, v) {
          if (String(k).startsWith("qbank:")) throw new DOMException("full", "QuotaExceededError");
          return set.call(this, k, v);
        };
        """
    )
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.goto(TOPIC)
    expect(tab.locator(f'{NOTICE}[data-kind="damaged"]')).to_be_visible()
    expect(tab.locator(f'{NOTICE}[data-kind="full"]')).to_be_visible()
    answer_right(tab)
    expect(tab.locator(".qb-page-progress .qb-bar")).to_have_attribute("aria-valuenow", "1")
    assert storage(tab) == {PROGRESS: raw}
    # a closed notice does not come back with the next answer of this page view
    tab.locator(f'{NOTICE}[data-kind="full"] .qb-storage-close').click()
    tab.locator(f'#q-{JUNIOR} .qb-option[data-key="a"]').click()
    expect(tab.locator(".qb-page-progress .qb-bar")).to_have_attribute("aria-valuenow", "2")
    expect(tab.locator(f'{NOTICE}[data-kind="full"]')).to_have_count(0)
    context.close()
    assert errors == []
