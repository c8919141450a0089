"""Screenshots for the README: build the site, serve it locally, photograph it in Chromium.

    .venv/bin/python scripts/screenshots.py [--config mkdocs.yml] [--out docs/screenshots]

Writes topic-light.png, topic-dark.png, phone.png (390x844), practice-summary.png,
match.png (a job posting matched on the match page), review.png (the review queue, two
days after answering a topic's questions), exam-summary.png (an exam handed in: the score per
topic and the review) and flashcard.png (a turned flashcard with its ratings).
``--only exam-summary,flashcard`` takes only those.
Uses Debian's Chromium (/usr/bin/chromium) through Playwright; nothing leaves 127.0.0.1.
A picture whose pixels are those of the file already there leaves the file untouched (its
bytes and time), so a run after a change that moved nothing shows no diff.
"""

from __future__ import annotations

import argparse
import struct
import subprocess
import sys
import tempfile
import threading
import zlib
from datetime import datetime, timedelta
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-gpu"]


def pixels(png: bytes) -> tuple[bytes, bytes]:
    """A PNG's header (size, depth, colour type) and its image data inflated: equal for two
    files of the same picture written by the same encoder, whatever their compression."""
    header, data, at = b"", [], 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, body = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            data.append(body)
        at += 12 + length
    return header, zlib.decompress(b"".join(data))


def save(picture: bytes, path: Path) -> bool:
    """Write ``picture`` to ``path`` unless the file there shows the same pixels; whether
    it was written."""
    if path.is_file() and pixels(path.read_bytes()) == pixels(picture):
        return False
    path.write_bytes(picture)
    return True


def snap(page: Any, path: Path) -> None:
    """The page's screenshot saved into ``path`` (``save``), transitions finished (the
    header's title slides when the page scrolls) so that the same page gives the same
    pixels."""
    save(page.screenshot(animations="disabled"), path)


# Practice and review sessions shuffle their questions: the same order on every run.
SEEDED_RANDOM = (
    "(() => { let s = 7; Math.random = () => ((s = (s * 16807) % 2147483647) - 1) / 2147483646; "
    "})();"
)
# The pages' clock (the review queue's due dates, a session's time) at the same moment.
CLOCK = datetime(2026, 1, 5, 9, 30)


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


class _Server(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        """A request the browser gave up on (it went on to the next page before a file was
        whole) is no error of the site's: said by nothing, not by a traceback."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def build(config: Path, site: Path) -> None:
    """``mkdocs build`` of ``config`` into ``site``; exit with mkdocs' output on failure."""
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(site)],
        cwd=config.parent,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode:
        sys.exit(f"mkdocs build failed:\n{result.stdout}{result.stderr}")


def topic_page(site: Path, locale: str) -> str:
    """The topic page (relative URL) with the most questions, some of them choice ones."""
    best, most = "", -1
    for page in sorted((site / locale).glob("*/*/index.html")):
        name = page.parent.name
        if name == "practice" or name.startswith("level-"):
            continue
        html = page.read_text("utf-8")
        count = html.count('class="qb-q"') if 'data-kind="choice"' in html else 0
        if count > most:
            best, most = page.parent.relative_to(site).as_posix() + "/", count
    if not best:
        sys.exit(f"no topic page under {site / locale}")
    return best


def answer_two(page: Any, count: int = 2) -> None:
    """Pick a wrong option on the first choice question, the right one on the second, and so
    on for ``count`` questions."""
    questions = page.locator('.qb-q[data-kind="choice"]:has(.qb-pick)')
    for i in range(min(count, questions.count())):
        q = questions.nth(i)
        answer = (q.get_attribute("data-answer") or "").split()
        keys = [o.get_attribute("data-key") for o in q.locator(".qb-option").all()]
        wrong = [k for k in keys if k not in answer]
        key = wrong[0] if i % 2 == 0 and wrong else answer[0]
        q.locator(f'.qb-option[data-key="{key}"] .qb-pick').click()


def shoot(base: str, site: Path, out: Path, locale: str, only: set[str] | None = None) -> None:
    """Take the screenshots into ``out`` (with ``only``, those named)."""
    topic = topic_page(site, locale)
    field = topic.split("/")[1]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        exam_summary(browser, base, field, locale, out)
        flashcard(browser, base, topic, locale, out)
        if only is not None:
            browser.close()
            return
        for scheme in ("light", "dark"):
            context = browser.new_context(
                base_url=base, viewport={"width": 1280, "height": 900}, color_scheme=scheme
            )
            page = context.new_page()
            page.goto(topic)
            if scheme == "dark":
                page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
            answer_two(page)
            page.locator(".qb-tools").scroll_into_view_if_needed()
            page.evaluate("window.scrollBy(0, -60)")
            snap(page, out / f"topic-{scheme}.png")
            context.close()
        context = browser.new_context(
            base_url=base, viewport={"width": 390, "height": 844}, device_scale_factor=2
        )
        page = context.new_page()
        page.goto(topic)
        answer_two(page)
        # The first choice question's heading just below the header, without Material's
        # "Back to top" (the answers' scrolling shows it) over the options.
        page.evaluate(
            """() => {
              window.scrollTo({top: 0, behavior: 'instant'});
              const q = document.querySelector('.qb-q[data-kind="choice"]');
              const heading = document.getElementById('h-' + q.dataset.qid) || q;
              const header = document.querySelector('.md-header').offsetHeight;
              window.scrollTo({
                top: heading.getBoundingClientRect().top - header - 8, behavior: 'instant'});
              const top = document.querySelector('.md-top');
              if (top) top.style.display = 'none';
            }"""
        )
        page.wait_for_timeout(300)
        snap(page, out / "phone.png")
        context.close()
        context = browser.new_context(base_url=base, viewport={"width": 1280, "height": 1000})
        context.add_init_script(SEEDED_RANDOM)
        page = context.new_page()
        page.clock.install(time=CLOCK)
        page.goto(f"{locale}/{field}/practice/")
        levels = page.locator("select.qb-practice-level option").all()
        values = [o.get_attribute("value") for o in levels]
        page.locator("select.qb-practice-level").select_option("mid" if "mid" in values else None)
        page.locator(".qb-start").click()
        page.clock.pause_at(CLOCK + timedelta(minutes=1))  # then a second per answer
        card = page.locator(".qb-practice-q")
        for i in range(40):
            page.clock.run_for(1000)
            if page.locator(".qb-summary").count():
                break
            card.wait_for()
            if card.get_attribute("data-kind") == "choice":
                card.locator(".qb-option").nth(i % 2).locator(".qb-option-text").click()
                page.locator(".qb-practice-answer").click()
            else:
                page.locator(".qb-show-model").click()
                card.locator(".qb-rate-btn").nth(i % 3).click()
        page.locator(".qb-summary").scroll_into_view_if_needed()
        page.evaluate("window.scrollBy(0, -80)")
        snap(page, out / "practice-summary.png")
        context.close()
        review_queue(browser, base, topic, locale, out)
        context = browser.new_context(base_url=base, viewport={"width": 1280, "height": 1100})
        page = context.new_page()
        page.goto(f"{locale}/match/")
        page.locator(".qb-match__text").fill(POSTING)
        page.locator(".qb-match__go").click()
        page.locator(".qb-match__topic").first.wait_for()
        page.locator(".qb-match__text").scroll_into_view_if_needed()
        snap(page, out / "match.png")
        context.close()
        browser.close()


def exam_summary(browser: Any, base: str, field: str, locale: str, out: Path) -> None:
    """exam-summary.png: a 10-question exam of the field, a few flagged and answered, handed in."""
    context = browser.new_context(base_url=base, viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.goto(f"{locale}/{field}/practice/")
    page.locator(".qb-practice-mode").select_option("exam")
    page.locator(".qb-practice-count").fill("10")
    page.locator(".qb-practice-limit").fill("15")
    page.locator(".qb-start").click()
    card = page.locator(".qb-practice-q")
    for i in range(10):
        page.locator(".qb-exam-go").nth(i).click()
        card.wait_for()
        if i % 4 == 3:
            page.locator(".qb-exam-flag").click()
            continue
        if card.get_attribute("data-kind") == "choice":
            card.locator(".qb-option").nth(i % 2).locator(".qb-option-text").click()
        else:
            page.locator(".qb-show-model").click()
            card.locator(".qb-rate-btn").nth(i % 3).click()
    page.locator(".qb-practice-end").click()
    page.locator(".qb-topic-scores").scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, -160)")
    page.screenshot(path=out / "exam-summary.png")
    context.close()


def flashcard(browser: Any, base: str, topic: str, locale: str, out: Path) -> None:
    """flashcard.png: the first card of a topic, turned, on a phone-sized screen."""
    context = browser.new_context(base_url=base, viewport={"width": 390, "height": 844})
    page = context.new_page()
    key = "/".join(topic.strip("/").split("/")[1:3])
    page.goto(f"{locale}/flashcards/?topic={key}")
    page.locator(".qb-flashcard").click()
    page.locator(".qb-flashcard[data-turned='1']").wait_for()
    page.locator(".qb-flash-pos").scroll_into_view_if_needed()
    page.screenshot(path=out / "flashcard.png")
    context.close()


def review_queue(browser: Any, base: str, topic: str, locale: str, out: Path) -> None:
    """review.png: a topic's questions answered (some wrong), then, with the page's clock two
    days on, the review page with its due count and the first card of the session."""
    context = browser.new_context(base_url=base, viewport={"width": 1280, "height": 1000})
    context.add_init_script(SEEDED_RANDOM)
    page = context.new_page()
    then = CLOCK - timedelta(days=2)
    page.clock.install(time=then)
    page.goto(topic)
    answer_two(page, 6)
    page.clock.set_system_time(then + timedelta(days=2))
    page.goto(f"{locale}/review/")
    page.locator(".qb-start").click()
    page.locator(".qb-practice-q").wait_for()
    snap(page, out / "review.png")
    context.close()


POSTING = """Backend Engineer, Payments Platform (Senior)

You will own the services that move money: PostgreSQL schemas and query plans, transactions
and isolation levels that keep balances right under concurrency, Kafka consumers with
idempotent handlers, and Redis caches in front of the hottest reads. 6+ years of experience."""


def main() -> None:
    """Build, serve and photograph the site."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=ROOT / "mkdocs.yml")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--locale", default="en")
    parser.add_argument("--only", default="", help="comma-separated names: exam-summary,flashcard")
    options = parser.parse_args()
    options.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        build(options.config.resolve(), site)
        httpd = _Server(("127.0.0.1", 0), partial(_Quiet, directory=site))
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        try:
            only = set(filter(None, options.only.split(","))) or None
            base = f"http://127.0.0.1:{httpd.server_address[1]}/"
            shoot(base, site, options.out, options.locale, only)
        finally:
            httpd.shutdown()
            httpd.server_close()
    for png in sorted(options.out.glob("*.png")):
        print(f"{png.relative_to(ROOT) if png.is_relative_to(ROOT) else png}")  # noqa: T201


if __name__ == "__main__":
    main()
