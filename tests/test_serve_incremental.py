# ruff: noqa: RUF001  (Turkish and Chinese test content)
"""``mkdocs serve`` rebuilds only what changed, and never serves a stale page.

Each test runs a real ``mkdocs serve`` of the small bank in a subprocess; its temporary
folder (the served site) is found under the test's own ``TMPDIR``. A rebuild is over when the
plugin logs how it published it ("qbank: full rebuild" / "qbank: rebuilt what changed").
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import yaml
from sitebuild import CATALOG
from support.serving import EDITED, TIMEOUT, Served

ZEBRA_PROMPT = {
    "en": "Zebracorn: when is a covering index worth its write cost?",
    "tr": "Kapsayan indeks yazma maliyetine ne zaman değer?",
    "zh": "覆盖索引何时值得其写入成本？",
}


def stamps(site: Path) -> dict[str, tuple[int, int]]:
    """Inode and modification time of every HTML page of the served site."""
    return {
        p.relative_to(site).as_posix(): (p.stat().st_ino, p.stat().st_mtime_ns)
        for p in site.rglob("*.html")
    }


def pages(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*.html")}


def data(site: Path) -> dict[str, bytes]:
    """The practice, JSON API and search files of the served site."""
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.glob("*/api/**/*.json")}


def data_stamps(site: Path) -> dict[str, tuple[int, int]]:
    """Inode and modification time of every practice, JSON API and search file."""
    return {
        p.relative_to(site).as_posix(): (p.stat().st_ino, p.stat().st_mtime_ns)
        for p in site.glob("*/api/**/*.json")
    }


def wait_for_file(path: Path, text: str, served: Served) -> None:
    """Wait until the file at ``path`` holds ``text`` (written in the background)."""
    deadline = time.monotonic() + TIMEOUT
    while not (path.is_file() and text in path.read_text("utf-8", errors="replace")):
        assert served.server.poll() is None, "mkdocs serve exited:\n" + served.text()
        assert time.monotonic() < deadline, f"{path} never showed {text!r}"
        time.sleep(0.2)


def test_an_edit_rebuilds_only_its_pages_and_matches_a_full_rebuild(served: Served) -> None:
    site = served.site()
    before = stamps(site)
    assert "en/ml-engineer/throughput/index.html" in before
    served.write_question(EDITED, {"prompt": ZEBRA_PROMPT})
    assert "rebuilt what changed" in served.wait_builds(2)
    served.wait_page("/en/backend/indexing/", "Zebracorn")
    served.wait_page("/en/backend/level-senior/", "Zebracorn")
    after = stamps(site)
    changed = {path for path in before if after.get(path) != before[path]}
    # The question's topic and level pages in English were rebuilt...
    assert {"en/backend/indexing/index.html", "en/backend/level-senior/index.html"} <= changed
    # ...and no page that does not show it (other topics, other locales' unchanged pages).
    for path in (
        "en/ml-engineer/throughput/index.html",
        "en/ml-engineer/numerics/index.html",
        "en/ml-engineer/level-junior/index.html",
        "en/index.html",
        "tr/ml-engineer/numerics/index.html",
        "zh/ml-engineer/throughput/index.html",
    ):
        assert path not in changed, f"{path} was rebuilt though nothing it shows changed"
    assert set(after) == set(before)

    # The practice lists come with the rebuild (a session reads the texts from the topic
    # page, rebuilt above); bank.json follows in the background.
    listed = json.loads((site / "en/api/practice/backend/senior.json").read_bytes())
    assert "indexing" in listed["pages"]
    for locale, prompt in ZEBRA_PROMPT.items():
        wait_for_file(site / f"{locale}/api/bank.json", prompt, served)

    # What the partial rebuild serves is exactly what a full rebuild makes: a change to
    # mkdocs.yml rebuilds every page.
    partial = {**pages(site), **data(site)}
    config = served.project / "mkdocs.yml"
    config.write_text(config.read_text("utf-8") + "# touched\n", "utf-8")
    assert "full rebuild" in served.wait_builds(3)
    full = {**pages(site), **data(site)}
    assert sorted(full) == sorted(partial)
    differing = [path for path in full if full[path] != partial[path]]
    assert not differing, f"the partial rebuild served other bytes than a full one: {differing}"


def test_catalog_and_removals_leave_no_stale_page(served: Served) -> None:
    site = served.site()
    before = stamps(site)
    # A name changed in the catalog (it shows in the navigation): every page is rebuilt.
    catalog = served.content / "catalog.yaml"
    catalog.write_text(CATALOG.replace("name: {en: Throughput,", "name: {en: Quokkaput,"), "utf-8")
    assert "full rebuild" in served.wait_builds(2)
    served.wait_page("/en/ml-engineer/throughput/", "Quokkaput")
    after = stamps(site)
    assert [path for path in before if after.get(path) == before[path]] == []

    # A removed question leaves its topic page, its level page and the practice data.
    removed_id = "01a05d13-8d21-739a-baa2-7dab67be4007"  # composite-order: mid, backend
    assert removed_id in served.wait_page("/en/backend/level-mid/", removed_id)
    (served.content / "backend/indexing/composite-order.yaml").unlink()
    served.wait_builds(3)
    for page in ("/en/backend/indexing/", "/en/backend/level-mid/", "/tr/backend/indexing/"):
        body = served.get(page)
        assert body is not None
        assert removed_id not in body, f"{page} still shows it"
    practice_data = [p for p in site.rglob("*.json") if "backend" in p.as_posix()]
    assert practice_data, "no practice data for backend"
    for data in practice_data:
        assert removed_id not in data.read_text("utf-8"), f"{data} still holds it"

    # A topic gone from the catalog (with its questions): its pages are no longer served.
    assert served.get("/en/ml-engineer/numerics/") is not None
    catalog.write_text(
        CATALOG.replace("name: {en: Throughput,", "name: {en: Quokkaput,").replace(
            "          numerics:\n            name: {en: Numerics, tr: Sayısal, zh: 数值}\n", ""
        ),
        "utf-8",
    )
    for path in (served.content / "ml-engineer/numerics").iterdir():
        path.unlink()
    assert "full rebuild" in served.wait_builds(4)
    for locale in ("en", "tr", "zh"):
        assert served.get(f"/{locale}/ml-engineer/numerics/") is None
        assert not (site / locale / "ml-engineer/numerics/index.html").exists()
    assert served.get("/en/ml-engineer/throughput/") is not None


def test_a_bad_edit_reports_and_keeps_the_previous_site(served: Served) -> None:
    site = served.site()
    before = stamps(site)
    data_before = data_stamps(site)
    topic_page = site / "en/backend/indexing/index.html"
    page_before = topic_page.read_bytes()
    path = served.content / EDITED
    good = path.read_text("utf-8")
    at = len(served.text())
    path.write_text(good.replace("prompt:", "prompt: [unclosed\n  x:", 1), "utf-8")
    served.wait_log("the last good pages stay served", after=at)
    # The problem is reported with its file (no traceback) and the server does not stall:
    # the rebuild is published, with every page skipped.
    assert "covering-index.yaml" in served.text()[at:]
    assert "Traceback" not in served.text()[at:]
    assert "rebuilt what changed" in served.wait_builds(2)
    body = served.get("/en/backend/indexing/")
    assert body is not None
    assert "When is a covering index worth its write cost?" in body
    assert topic_page.read_bytes() == page_before
    after = stamps(site)
    assert {p: s for p, s in after.items() if p != "404.html"} == {
        p: s for p, s in before.items() if p != "404.html"
    }
    assert data_stamps(site) == data_before, "a bad edit wrote data files again"
    # Fixing the file publishes the fix.
    fixed = {**yaml.safe_load(good), "prompt": ZEBRA_PROMPT}
    path.write_text(yaml.safe_dump(fixed, allow_unicode=True, sort_keys=False), "utf-8")
    served.wait_builds(3)
    served.wait_page("/en/backend/indexing/", "Zebracorn")


def part_folders(count: int) -> list[str]:
    return ["indexing", *(f"indexing--{n}" for n in range(2, count + 1))]


def test_a_question_that_adds_or_removes_a_topic_part_rebuilds_only_that_topic(
    served: Served,
) -> None:
    """With numbered pages, a new question that opens a topic's next part (and its removal)
    rebuilds what shows it, not every page: the parts are outside the menu. A part gone is no
    longer served."""
    config = served.project / "mkdocs.yml"
    settings = yaml.safe_load(config.read_text("utf-8"))
    settings["plugins"] = [{"qbank": {"content_dir": "content", "page_size": 1}}]
    config.write_text(yaml.safe_dump(settings), "utf-8")
    assert "full rebuild" in served.wait_builds(2)
    topic = served.content / "backend/indexing"
    parts = len(list(topic.glob("*.yaml")))
    assert served.get(f"/en/backend/indexing--{parts}/") is not None
    assert served.get(f"/en/backend/indexing--{parts + 1}/") is None

    added = yaml.safe_load((served.content / EDITED).read_text("utf-8"))
    added["id"] = "01a228f4-40ee-76ca-8a2b-285b91c1f000"
    added["prompt"] = {
        locale: f"Which quokka index answers the queries of the {locale} team alone?"
        for locale in added["prompt"]
    }
    new = topic / "zz-added.yaml"
    new.write_text(yaml.safe_dump(added, allow_unicode=True, sort_keys=False), "utf-8")
    assert "rebuilt what changed" in served.wait_builds(3)
    assert served.get(f"/en/backend/indexing--{parts + 1}/") is not None
    shown = [served.get(f"/en/backend/{part}/") or "" for part in part_folders(parts + 1)]
    assert sum("quokka" in body for body in shown) == 1

    new.unlink()
    assert "rebuilt what changed" in served.wait_builds(4)
    assert served.get(f"/en/backend/indexing--{parts + 1}/") is None
    assert served.get(f"/en/backend/indexing--{parts}/") is not None
