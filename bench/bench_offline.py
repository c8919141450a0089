"""What studying offline costs and whether a kept field works on a phone (issue 32).

    python bench/bench_offline.py WORK [--questions 3000] [--field FIELD]

Writes the synthetic bank (``make_bank.py``) into ``WORK/content`` unless it is there, runs a
real ``mkdocs build`` of it (served on 127.0.0.1 while it runs), then reports:

- the offline step of the build (``qbank.site.offline.offline_files`` run again on the built
  site: CPU seconds) and the files it adds;
- each field's manifest (bytes and files, per locale): what "Keep this field" downloads;
- the bytes every page downloads for it (``assets/offline.js``, raw and gzip; the field
  page's box; the two notice strings in each page's text block);
- in Debian's Chromium, a phone-size page (390 x 844) with the CPU slowed 4x
  (``Emulation.setCPUThrottlingRate``): keep ``--field`` in English, go offline, open each of
  its topics, search a word of its last topic, open its practice and answer the first card,
  open the review queue; the wall time of each step is printed
  (informative only).
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "generator"))

from qbank.site.offline import offline_files, worker_text  # noqa: E402
from qbank.site.theme import ASSETS, LAZY_ASSETS  # noqa: E402


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def build(work: Path, url: str) -> float:
    config = {
        "site_name": "Bench",
        "site_url": url,
        "docs_dir": "docs",
        "site_dir": "site",
        "theme": {"name": "material"},
        "plugins": [{"qbank": {"content_dir": "content"}}],
    }
    (work / "docs").mkdir(exist_ok=True)
    (work / "mkdocs.yml").write_text(yaml.safe_dump(config), "utf-8")
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=work, check=True)
    return time.monotonic() - started


def phone(url: str, field: str, locale: str, topics: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
        )
        context = browser.new_context(
            base_url=url,
            viewport={"width": 390, "height": 844},
            device_scale_factor=3,
            is_mobile=True,
            has_touch=True,
            service_workers="allow",
        )
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
        step = time.monotonic()

        def lap(what: str) -> None:
            nonlocal step
            now = time.monotonic()
            print(f"  {what}: {now - step:.1f} s")
            step = now

        page.goto(f"{locale}/{field}/")
        page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=120_000)
        box = page.locator(".qb-offline")
        box.locator("button").wait_for()
        print(f"  the box says: {box.locator('.qb-offline__line').inner_text()}")
        lap("field page, worker in control")
        box.locator("button").click()
        page.wait_for_function(
            "() => /Kept for offline/.test(document.querySelector('.qb-offline').textContent)",
            timeout=600_000,
        )
        lap("kept")
        usage = page.evaluate("async () => (await navigator.storage.estimate()).usage")
        print(f"  storage used: {usage / 1e6:.1f} MB")
        context.set_offline(True)
        for topic in topics:
            page.goto(f"{locale}/{field}/{topic}/")
            page.locator(".qb-q").first.wait_for()
        lap(f"offline: {len(topics)} topic pages opened")
        word = page.evaluate(
            """() => [...document.querySelectorAll('.qb-prompt')].map(p => p.textContent)
                .join(' ').split(/[^\\p{L}]+/u).find(w => w.length >= 5)"""
        )
        page.locator(".qb-search__open").click()
        page.locator(".qb-search__input").fill(word)
        page.locator(".qb-search__result").first.wait_for()
        found = page.locator(".qb-search__result").count()
        lap(f"offline: search {word!r}, {found} results shown")
        page.keyboard.press("Escape")
        page.goto(f"{locale}/{field}/practice/")
        page.locator(".qb-practice button").first.click()
        page.locator(".qb-practice .qb-option, .qb-practice .qb-reveal").first.wait_for()
        page.locator(".qb-practice .qb-option").first.click()
        lap("offline: practice started and answered")
        page.goto(f"{locale}/review/")
        page.locator(".qb-practice").first.wait_for()
        lap("offline: review queue")
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("work", type=Path)
    parser.add_argument("--questions", type=int, default=3000)
    parser.add_argument("--field", default="")
    args = parser.parse_args()
    work: Path = args.work
    work.mkdir(parents=True, exist_ok=True)
    if not (work / "content" / "catalog.yaml").is_file():
        make = [sys.executable, str(ROOT / "bench/make_bank.py"), str(work / "content")]
        subprocess.run([*make, "--questions", str(args.questions)], check=True)
    site = work / "site"
    site.mkdir(exist_ok=True)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(site)))
    url = f"http://127.0.0.1:{httpd.server_address[1]}/"
    wall = build(work, url)
    print(f"mkdocs build: {wall:.1f} s wall")
    catalog = yaml.safe_load((work / "content/catalog.yaml").read_text("utf-8"))
    locales, fields = catalog["locales"], list(catalog["fields"])
    started = time.process_time()
    made = offline_files(
        site,
        locales,
        fields,
        (*ASSETS, *LAZY_ASSETS),
        {loc: worker_text(loc) for loc in locales},
    )
    print(f"offline step: {time.process_time() - started:.2f} s CPU, {len(made.files)} files")
    for (locale, field), size in sorted(made.field_bytes.items()):
        count = len(json.loads(made.files[f"{locale}/api/offline/{field}.json"])["files"])
        print(f"  keep {locale}/{field}: {size / 1e6:.2f} MB, {count} files")
    script = (site / "assets/offline.js").read_bytes()
    worker = (site / "sw.js").read_bytes()
    print(f"offline.js: {len(script)} B raw, {len(gzip.compress(script, 6))} B gzip (every page)")
    print(f"sw.js: {len(worker)} B raw, {len(gzip.compress(worker, 6))} B gzip (once)")
    field = args.field or fields[0]
    topics = sorted(
        p.parent.name
        for p in (site / locales[0] / field).glob("*/index.html")
        if p.parent.name not in ("practice", "topics")
        and not p.parent.name.startswith("level-")
        and "--" not in p.parent.name
    )
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    print(f"phone (390 x 844, 4x CPU), keeping {locales[0]}/{field}:")
    phone(url, field, locales[0], topics)
    httpd.shutdown()


if __name__ == "__main__":
    main()
