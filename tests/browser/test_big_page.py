"""A big topic page (120 questions) in real Chromium: the widget enhances questions lazily
(near the viewport, in idle time, or when acted on), and filters, progress counts, the table
of contents and ``qbank verify`` still cover every question."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sitebuild import build_site

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from make_bank import make_bank

from qbank.tools.cli import main

QUESTIONS = 120
PAGE = "en/field-01/topic-01/"
# No idle time ever comes: only the viewport and the reader's actions enhance questions.
NO_IDLE = "window.requestIdleCallback = function () { return 0; };"


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def big_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, Path]]:
    """One topic of ``QUESTIONS`` questions (English only), built and served; yields (base
    URL, site folder, content folder)."""
    tmp = tmp_path_factory.mktemp("big-page")
    content = tmp / "content"
    make_bank(content, QUESTIONS, 1, 1, 1, ("en",), 7)
    site = tmp / "site"
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=site))
    url = f"http://127.0.0.1:{httpd.server_address[1]}/"
    # One page of every question (``page_size: 0``): the lazy enhancement of a big page is
    # what is tested here (test_reader_path.py tests a topic cut into numbered pages).
    plugins = [{"qbank": {"content_dir": str(content), "page_size": 0}}]
    theme = {"name": "material", "font": False}
    build_site(tmp, content, theme=theme, site_url=url, plugins=plugins)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield url, site, content
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def tab(browser: Any, big_site: tuple[str, Path, Path]) -> Iterator[Any]:
    context = browser.new_context(base_url=big_site[0], viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()


def ready_count(tab: Any) -> int:
    return int(tab.locator(".qb-q[data-qb-ready]").count())


def test_questions_far_below_wait_until_they_near_the_viewport(tab: Any) -> None:
    tab.add_init_script(NO_IDLE)
    tab.goto(PAGE)
    tab.wait_for_selector(".qb-q[data-qb-ready]")
    first = tab.locator(".qb-q").first
    assert first.get_attribute("data-qb-ready") is not None
    assert ready_count(tab) < QUESTIONS // 2  # the rest waits
    last = tab.locator(".qb-q").last
    assert last.get_attribute("data-qb-ready") is None
    last.scroll_into_view_if_needed()
    tab.wait_for_selector(".qb-q:last-of-type[data-qb-ready]")
    assert last.locator(".qb-pick, .qb-check, .qb-rate-btn").count() > 0


def test_idle_time_enhances_every_question(tab: Any) -> None:
    tab.goto(PAGE)
    tab.wait_for_function(
        # a function, not a bare expression: Playwright evaluates a bare one with eval(),
        # which the pages' Content-Security-Policy refuses
        f"() => document.querySelectorAll('.qb-q[data-qb-ready]').length === {QUESTIONS}",
        timeout=60_000,
    )
    choice = tab.locator('.qb-q[data-kind="choice"]')
    buttons = tab.locator(".qb-q .qb-pick, .qb-q .qb-check")
    assert buttons.count() == 4 * choice.count()


def test_a_question_not_yet_enhanced_answers_a_click(tab: Any) -> None:
    tab.add_init_script(NO_IDLE)
    tab.goto(PAGE)
    tab.wait_for_selector(".qb-q[data-qb-ready]")
    # The last single-answer choice question, clicked without scrolling to it.
    qid = tab.evaluate(
        """() => {
          const qs = [...document.querySelectorAll('.qb-q[data-kind="choice"]')]
            .filter((q) => !q.querySelector('.qb-options[data-multi="1"]')
                           && q.getAttribute('data-answer').split(' ').length === 1);
          const q = qs[qs.length - 1];
          if (q.hasAttribute('data-qb-ready')) return null;
          q.querySelector('.qb-option .qb-option-text')
            .dispatchEvent(new MouseEvent('click', { bubbles: true }));
          return q.getAttribute('data-qid');
        }"""
    )
    assert qid is not None, "the question was enhanced before it was near the viewport"
    q = tab.locator(f'.qb-q[data-qid="{qid}"]')
    assert q.get_attribute("data-qb-ready") is not None
    # (text_content: off-screen questions are not rendered, content-visibility: auto)
    assert (q.locator(".qb-feedback").text_content() or "").strip()
    assert q.locator(".qb-option.qb-chosen").count() == 1
    assert "1" in tab.locator(".qb-page-progress .qb-count").inner_text().split()[0]


def test_a_question_answers_before_the_theme_bundle_has_run(tab: Any) -> None:
    """qbank.js runs from the head while the page is parsed: with the theme's bundle held
    back (the parser waits for it at the end of the body), a question already shown answers
    a click; once the bundle runs, the page's work keeps that answer and counts it."""
    held: list[Any] = []
    bundle = "**/assets/javascripts/bundle.*.min.js"
    tab.route(bundle, lambda route: held.append(route))
    tab.goto(PAGE, wait_until="commit")
    tab.wait_for_function("() => !!document.querySelector('.qb-q .qb-option-text')")
    assert tab.evaluate("() => typeof window.document$") == "undefined"  # bundle not run
    assert tab.evaluate("() => document.readyState") == "loading"
    q = tab.locator('.qb-q[data-kind="choice"]:has(.qb-options[data-multi="0"])').first
    # the widget's module has run (the page's own instance: an import resolves once it has
    # been evaluated); a click before that is the browser's alone, on a loaded machine
    tab.evaluate(
        "async () => { const entry = document.querySelector("
        "\"script[type=module][src$='/qbank.js']\");"
        " await import(new URL('widget.js', entry.src).href); }"
    )
    assert tab.evaluate("() => typeof window.document$") == "undefined"  # still held
    q.locator(".qb-option .qb-option-text").first.click()
    feedback = q.locator(".qb-feedback")
    tab.wait_for_function(
        "(f) => f.textContent.trim() !== ''", arg=feedback.element_handle(), timeout=30_000
    )
    assert tab.evaluate("() => typeof window.document$") == "undefined"
    assert held, "the bundle was not asked for"
    for route in held:  # (the head's preload, and the body's script if it asked apart)
        route.continue_()
    tab.unroute(bundle)
    tab.wait_for_function("() => typeof window.document$ !== 'undefined'", timeout=60_000)
    tab.wait_for_function(
        "() => (document.querySelector('.qb-page-progress .qb-count') || {}).textContent"
        " && document.querySelector('.qb-page-progress .qb-count').textContent.startsWith('1')",
        timeout=60_000,
    )
    assert feedback.inner_text().strip()
    assert q.locator(".qb-option.qb-chosen").count() == 1
    # the progress was saved: another page view shows the question answered
    tab.reload()
    tab.wait_for_selector(".qb-page-progress .qb-count")
    assert tab.locator(".qb-page-progress .qb-count").inner_text().startswith("1")


def test_filters_progress_and_toc_cover_every_question(
    tab: Any, big_site: tuple[str, Path, Path]
) -> None:
    tab.add_init_script(NO_IDLE)
    tab.goto(PAGE)
    tab.wait_for_selector(".qb-filters")
    counts = tab.evaluate(
        """() => {
          const qs = [...document.querySelectorAll('.qb-q[data-qid]')];
          const toc = [...document.querySelectorAll('.md-sidebar--secondary a[href*="#h-"]')]
            .map((a) => a.getAttribute('href').split('#')[1]).sort();
          const own = qs.map((q) => 'h-' + q.getAttribute('data-qid')).sort();
          return { all: qs.length,
                   easy: qs.filter((q) => q.getAttribute('data-difficulty') === '1').length,
                   toc: toc.length, same: toc.join() === own.join() };
        }"""
    )
    assert counts["all"] == QUESTIONS
    assert counts["toc"] == QUESTIONS
    assert counts["same"], "the table of contents does not list every question's heading"
    shown = tab.locator(".qb-shown")
    assert shown.inner_text().endswith(f"{QUESTIONS} of {QUESTIONS}")
    tab.select_option(".qb-filters select[name=difficulty]", "1")
    visible = tab.evaluate(
        "() => [...document.querySelectorAll('.qb-q[data-qid]')].filter((q) => !q.hidden).length"
    )
    assert visible == counts["easy"]
    assert shown.inner_text().endswith(f"{counts['easy']} of {QUESTIONS}")
    # Answer a question far down (enhanced on demand): the page's count says one answered.
    last = tab.locator('.qb-q[data-kind="choice"][data-difficulty="1"]').last
    last.locator(".qb-option").first.click()
    tab.wait_for_function(
        "() => document.querySelector('.qb-page-progress .qb-count').textContent.startsWith('1')"
    )
    assert (last.locator(".qb-feedback").text_content() or "").strip()


# Each question's height and its options' boxes, measured from the question's top, with
# every question laid out (content-visibility off): what a tap lands on.
GEOMETRY = """() => [...document.querySelectorAll('.qb-q[data-qid]')].map((q) => {
  q.style.contentVisibility = 'visible';
  const top = q.getBoundingClientRect().top;
  const box = (e) => { const b = e.getBoundingClientRect();
    return [b.left, b.top - top, b.width, b.height].map(Math.round).join(','); };
  return [q.getAttribute('data-qid'), box(q),
          ...[...q.querySelectorAll('.qb-option-text')].map(box)].join(' ');
})"""


@pytest.mark.parametrize("width", [390, 1280])
def test_nothing_moves_when_a_question_is_enhanced(
    browser: Any, big_site: tuple[str, Path, Path], width: int
) -> None:
    """A reader may tap an option while the page still loads: the question's markup before
    the widget has enhanced it takes the room the enhanced one takes (single- and
    several-answer options, the feedback line, the "Check" button), so the tap lands on what
    is painted."""
    shapes = []
    for enhanced in (False, True):
        context = browser.new_context(
            base_url=big_site[0], viewport={"width": width, "height": 844}
        )
        page = context.new_page()
        try:
            if not enhanced:
                page.route("**/assets/qbank*.js", lambda route: route.abort())
            page.goto(PAGE)
            if enhanced:
                page.wait_for_function(
                    f"() => document.querySelectorAll('.qb-q[data-qb-ready]').length"
                    f" === {QUESTIONS}",
                    timeout=60_000,
                )
            else:
                assert page.locator(".qb-q[data-qb-ready]").count() == 0
                # The star and note below each question are the saved part's, which the
                # entry module mounts whether or not a question is enhanced: here too.
                page.evaluate(
                    "async () => (await import(document.querySelector("
                    "'script[src$=\"/assets/saved.js\"]').src)).mount()"
                )
            shapes.append(page.evaluate(GEOMETRY))
        finally:
            context.close()
    before, after = shapes
    assert len(before) == QUESTIONS
    moved = [f"{a}\n  -> {b}" for a, b in zip(before, after, strict=True) if a != b]
    assert not moved, f"{len(moved)} question(s) change shape when enhanced:\n" + "\n".join(
        moved[:5]
    )


def test_verify_passes_on_the_big_page(big_site: tuple[str, Path, Path]) -> None:
    _, site, content = big_site
    result = CliRunner().invoke(main, ["verify", str(site), "--content", str(content)])
    assert result.exit_code == 0, result.output
    assert f"ok: {QUESTIONS} question(s) verified" in result.output
