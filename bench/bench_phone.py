"""Phone bench: a big topic page on a slow phone, qbank against plain Material and mkdocs-quiz.

    python bench/bench_phone.py [--sizes 25 75 250] [--runs 1] [--work /tmp/qbank-phone]
        [--skip-quiz] [--build all|qbank|none] [--json out.json] [--weight-only]

For topic pages of each size (one topic of that many questions, written by
``bench/make_bank.py``) it builds three sites of the same questions: qbank (its defaults),
plain Material with ``??? success "Answer"`` blocks and mkdocs-quiz (``<quiz>`` blocks; both
built by ``bench/run.py``'s baseline builders, with the theme features qbank's build used).
It serves them from 127.0.0.1 (text files gzip-compressed, as a static host serves them) and
loads each topic page in Debian's Chromium (Playwright) at phone size (390 x 844 CSS px,
touch) with the CPU slowed 4x and a slow-4G network (562.5 ms latency, 1.44 Mbit/s down,
675 kbit/s up: Chromium's preset), both set through the DevTools protocol, in a fresh
browser context (empty cache) per load. Each page is loaded twice:

1. untouched: first contentful paint; the time every question in the first viewport is
   ready (qbank: enhanced, ``data-qb-ready``; plain: its ``<details>`` is parsed; quiz: the
   document has loaded, when its script binds); the main-thread long tasks
   (``PerformanceObserver('longtask')``: count, total, longest); the bytes transferred
   (resource timing's ``transferSize`` of the page and everything it loaded);
2. clicked: from the first byte on, the first option of the first question one click
   answers (a single-answer choice; plain: the first answer block's summary) is clicked
   again and again where it is shown (Playwright's ``force``: no wait for a stable box)
   until the click gives feedback (qbank: the question's feedback line has
   text; plain: the ``<details>`` opens; quiz: its feedback shows). "First
   answer" is when that click's feedback was painted (the click's timestamp plus its Event
   Timing duration); then five questions further down are scrolled to and clicked once
   each: click-to-feedback is the Event Timing duration of those clicks (input to next
   paint; under 16 ms is not reported by Chromium and counts as 16; of it, the time spent
   in the page's click handlers is shown apart), and the long tasks
   after the first answer are listed.

It prints a table per size and the ratios qbank / plain and qbank / quiz, and the raw and
gzip weight of each page's HTML plus the files it loads that Material does not ship. Timing
figures are medians of ``--runs`` loads. Goals (issue 17): at 250 questions, first answer
within 1.0 s of first paint, no long task over 200 ms after it, click-to-feedback under
100 ms; at 75 questions, HTML + own assets within plain + 15 KB.
"""

from __future__ import annotations

import argparse
import gzip
import json
import mimetypes
import statistics
import sys
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from make_bank import make_bank  # noqa: E402
from run import (  # noqa: E402
    build_plain,
    own_assets,
    page_features,
    quiz_installed,
    run_mkdocs,
    write_plain,
    write_qbank,
)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-gpu"]
PAGE = "en/field-01/topic-01/index.html"
CPU_SLOWDOWN = 4
# Chromium DevTools' "Slow 4G" preset (formerly "Fast 3G"): bytes per second, milliseconds.
SLOW_4G = {"latency": 562.5, "downloadThroughput": 1.6 * 1024 * 1024 * 0.9 / 8,
           "uploadThroughput": 750 * 1024 * 0.9 / 8, "offline": False}  # fmt: skip
VIEWPORT = {"width": 390, "height": 844}
COMPRESSED = {".html", ".js", ".css", ".json", ".svg", ".xml", ".txt"}
LATER_CLICKS = 5

# What a question, a question answered by one click (one right option: a single-answer
# choice; plain: every answer block), its click target, its feedback and its readiness are
# in each kind of page.
KINDS: dict[str, dict[str, str]] = {
    "qbank": {
        "question": ".qb-q[data-qid]",
        "clickable": '.qb-q[data-kind="choice"]:has(.qb-options[data-multi="0"])',
        "target": ".qb-option .qb-option-text",
        "feedback": "(q) => { const f = q.querySelector('.qb-feedback');"
        " return !!(f && f.textContent.trim()); }",
        "ready": "(q) => q.hasAttribute('data-qb-ready')",
    },
    "plain": {
        "question": "details.success",
        "clickable": "details.success",
        "target": "summary",
        "feedback": "(q) => q.open",
        "ready": "(q) => true",
    },
    "quiz": {
        "question": ".quiz",
        "clickable": ".quiz:has(input[type=radio])",
        "target": "fieldset label",
        "feedback": "(q) => { const f = q.querySelector('.quiz-feedback');"
        " return !!(f && !f.classList.contains('hidden')); }",
        "ready": "(q) => document.readyState !== 'loading'",
    },
}

# Installed before any page script: long tasks, event timings and first paint, buffered.
OBSERVE = """
window.__bench = { longtasks: [], clicks: [] };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__bench.longtasks.push([e.startTime, e.duration]);
}).observe({ type: "longtask", buffered: true });
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.name === "click") {
      window.__bench.clicks.push([e.startTime, e.duration, e.processingEnd - e.processingStart]);
    }
  }
}).observe({ type: "event", durationThreshold: 16, buffered: true });
"""

STATE = """([kind, question, ready]) => {
  const paint = performance.getEntriesByName("first-contentful-paint")[0];
  const isReady = eval(ready);
  const h = innerHeight;
  const all = Array.from(document.querySelectorAll(question));
  const visible = all.filter((q) => {
    const r = q.getBoundingClientRect();
    return r.bottom > 0 && r.top < h;
  });
  if (!visible.length && all.length) visible.push(all[0]);  // below the fold: the first
  return { now: performance.now(), fcp: paint ? paint.startTime : null, questions: all.length,
           visible: visible.length, ready: visible.length > 0 && visible.every(isReady) };
}"""


# -- serving -----------------------------------------------------------------------------------


class _Handler(SimpleHTTPRequestHandler):
    """Static files, text ones gzip-compressed when the browser accepts it (as a host would)."""

    cache: ClassVar[dict[Path, bytes]] = {}

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and path.is_file() and path.suffix in COMPRESSED):
            super().do_GET()
            return
        body = self.cache.get(path)
        if body is None:
            body = self.cache[path] = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", mimetypes.guess_type(path.name)[0] or "text/html")
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def serve(root: Path) -> tuple[ThreadingHTTPServer, str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Handler, directory=str(root)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/"


# -- building ----------------------------------------------------------------------------------


def build_qbank(work: Path, size: int, page_size: int | None) -> None:
    """qbank's site of the ``size``-question topic (``page_size``: the plugin's setting,
    None for its default)."""
    settings = {} if page_size is None else {"page_size": page_size}
    write_qbank(work / f"bank-{size}", work / f"qbank-{size}", **settings)
    run_mkdocs(work / f"qbank-{size}")


def build_sites(work: Path, size: int, quiz: bool, page_size: int | None) -> dict[str, Path]:
    """The three sites of one ``size``-question topic; each kind's site folder."""
    content = work / f"bank-{size}"
    make_bank(content, size, 1, 1, 1, ("en",), 3)
    build_qbank(work, size, page_size)
    sites = {"qbank": work / f"qbank-{size}" / "site"}
    features = page_features(sites["qbank"], PAGE)
    for kind, is_quiz in [("plain", False)] + ([("quiz", True)] if quiz else []):
        project = work / f"{kind}-{size}"
        build_plain(project, write_plain(content, project, is_quiz, features), 1)
        sites[kind] = project / "site"
    return sites


def weight(site: Path, kind: str) -> dict[str, int]:
    """Raw and gzip bytes of the topic page's HTML and of its own (not Material's) assets
    (qbank's site holds every locale; a baseline's site is one per locale)."""
    root, page = (site, PAGE) if kind == "qbank" else (site / "en", PAGE.split("/", 1)[1])
    html = (root / page).read_bytes()
    assets = [(root / path).read_bytes() for path in own_assets(root, page)]
    return {
        "html": len(html),
        "html_gzip": len(gzip.compress(html, 6)),
        "assets": sum(len(a) for a in assets),
        "assets_gzip": sum(len(gzip.compress(a, 6)) for a in assets),
    }


# -- loading -----------------------------------------------------------------------------------


def _throttled(browser: Any) -> tuple[Any, Any]:
    context = browser.new_context(
        viewport=VIEWPORT, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    context.add_init_script(OBSERVE)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_4G)
    return context, page


def _long(tasks: list[list[float]], after: float = 0.0) -> dict[str, float]:
    mine = [d for start, d in tasks if start >= after]
    return {"count": len(mine), "total": sum(mine), "longest": max(mine, default=0.0)}


def load_untouched(browser: Any, url: str, kind: str) -> dict[str, Any]:
    """First paint, every visible question ready, long tasks and bytes of one load."""
    spec = KINDS[kind]
    context, page = _throttled(browser)
    try:
        page.goto(url, wait_until="commit", timeout=120_000)
        args = [kind, spec["question"], spec["ready"]]
        ready_at = None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            state = page.evaluate(STATE, args)
            if state["ready"] and ready_at is None:
                ready_at = state["now"]
                break
            time.sleep(0.02)
        page.wait_for_load_state("load", timeout=120_000)
        page.wait_for_timeout(3000)  # let late work (Material's, the widget's) show up
        state = page.evaluate(STATE, args)
        data = page.evaluate(
            """() => {
              const all = [...performance.getEntriesByType("navigation"),
                           ...performance.getEntriesByType("resource")];
              return { longtasks: window.__bench.longtasks,
                       bytes: all.reduce((n, e) => n + (e.transferSize || 0), 0),
                       requests: all.length };
            }"""
        )
    finally:
        context.close()
    return {
        "fcp": state["fcp"],
        "visible_ready": ready_at,
        "visible": state["visible"],
        "questions": state["questions"],
        "longtasks": _long(data["longtasks"]),
        "bytes": data["bytes"],
        "requests": data["requests"],
    }


def _click_and_wait(
    page: Any, kind: str, index: int, timeout: float, force: bool = False
) -> dict[str, Any] | None:
    """Click question ``index``'s target once; its click timing once the feedback shows (or
    None when it did not show within ``timeout`` seconds). ``force``: click where the target
    is now, as a reader's tap does, without waiting until Playwright finds it stable (two
    animation frames with the same box: while the page loads, seconds after it shows)."""
    spec = KINDS[kind]
    question = page.locator(spec["clickable"]).nth(index)
    before = page.evaluate("() => window.__bench.clicks.length")
    try:
        question.locator(spec["target"]).first.click(
            timeout=60_000, no_wait_after=True, force=force
        )
    except Exception:  # not clickable yet (not laid out): try again
        return None
    check = f"([i, q]) => ({spec['feedback']})(document.querySelectorAll(q)[i])"
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if page.evaluate(check, [index, spec["clickable"]]):
            break
        time.sleep(0.01)
    else:
        return None
    page.wait_for_timeout(200)  # the event timing entry is queued after the next paint
    clicks = page.evaluate("() => window.__bench.clicks")[before:]
    now = page.evaluate("() => performance.now()")
    if clicks:
        start, duration, handlers = clicks[-1]
        return {"start": start, "duration": duration, "end": start + duration, "js": handlers}
    return {"start": None, "duration": 16.0, "end": now, "js": 0.0}


def load_clicked(browser: Any, url: str, kind: str) -> dict[str, Any]:
    """When the first question first answers a click, later clicks' latency, long tasks."""
    spec = KINDS[kind]
    context, page = _throttled(browser)
    try:
        page.goto(url, wait_until="commit", timeout=120_000)
        first = None
        deadline = time.monotonic() + 120
        while first is None and time.monotonic() < deadline:
            if page.evaluate(f"() => !!document.querySelector({json.dumps(spec['clickable'])})"):
                first = _click_and_wait(page, kind, 0, 0.15, force=True)
            else:
                time.sleep(0.02)
        if first is None:
            print(f"  {url}: the first question never answered a click", flush=True)
            return {"first_answer": None, "first_latency": None, "later_latency": [],
                    "later_handlers": [], "long_after": _long([], 0), "fcp": None}  # fmt: skip
        page.wait_for_load_state("load", timeout=120_000)
        count = page.locator(spec["clickable"]).count()
        later, handlers = [], []
        for n in range(1, LATER_CLICKS + 1):
            index = n * (count - 1) // LATER_CLICKS
            page.locator(spec["clickable"]).nth(index).scroll_into_view_if_needed()
            page.wait_for_timeout(300)
            click = _click_and_wait(page, kind, index, 10)
            if click is not None:
                later.append(click["duration"])
                handlers.append(click["js"])
        page.wait_for_timeout(1000)
        data = page.evaluate(
            """() => ({ longtasks: window.__bench.longtasks,
              fcp: (performance.getEntriesByName("first-contentful-paint")[0] || {}).startTime })"""
        )
    finally:
        context.close()
    return {
        "first_answer": first["end"],
        "first_latency": first["duration"],
        "later_latency": later,
        "later_handlers": handlers,
        "long_after": _long(data["longtasks"], first["end"]),
        "fcp": data["fcp"],
    }


def measure_kind(browser: Any, url: str, kind: str, runs: int) -> dict[str, Any]:
    loads = [load_untouched(browser, url, kind) for _ in range(runs)]
    clicks = [load_clicked(browser, url, kind) for _ in range(runs)]

    def med(values: list[Any]) -> Any:
        values = [v for v in values if v is not None]
        return statistics.median(values) if values else None

    later = [d for c in clicks for d in c["later_latency"]]
    return {
        "fcp": med([x["fcp"] for x in loads]),
        "visible_ready": med([x["visible_ready"] for x in loads]),
        "visible": loads[0]["visible"],
        "questions": loads[0]["questions"],
        "longtask_count": med([x["longtasks"]["count"] for x in loads]),
        "longtask_total": med([x["longtasks"]["total"] for x in loads]),
        "longtask_longest": med([x["longtasks"]["longest"] for x in loads]),
        "bytes": med([x["bytes"] for x in loads]),
        "requests": loads[0]["requests"],
        "first_answer": med([c["first_answer"] for c in clicks]),
        "first_answer_after_fcp": med(
            [c["first_answer"] - c["fcp"] for c in clicks if c["first_answer"] is not None]
        ),
        "first_latency": med([c["first_latency"] for c in clicks]),
        "click_latency": med(later),
        "click_latency_max": max(later, default=None),
        "click_handlers": med([d for c in clicks for d in c["later_handlers"]]),
        "long_after_longest": med([c["long_after"]["longest"] for c in clicks]),
        "long_after_count": med([c["long_after"]["count"] for c in clicks]),
    }


# -- report ------------------------------------------------------------------------------------

ROWS = [
    ("questions on the page", "questions", ""),
    ("first contentful paint", "fcp", "ms"),
    ("every visible question ready", "visible_ready", "ms"),
    ("first question answers a click", "first_answer", "ms"),
    ("  ... after first paint", "first_answer_after_fcp", "ms"),
    ("  ... that click's latency", "first_latency", "ms"),
    ("click-to-feedback later (median)", "click_latency", "ms"),
    ("click-to-feedback later (worst)", "click_latency_max", "ms"),
    ("  ... in event handlers (median)", "click_handlers", "ms"),
    ("long tasks (count)", "longtask_count", ""),
    ("long tasks (total)", "longtask_total", "ms"),
    ("longest long task", "longtask_longest", "ms"),
    ("longest task after first answer", "long_after_longest", "ms"),
    ("bytes transferred", "bytes", "KiB"),
]


def _fmt(value: Any, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "KiB":
        return f"{value / 1024:.0f} KiB"
    return f"{value:.0f} {unit}".strip()


def report(
    size: int, figures: dict[str, dict[str, Any]], weights: dict[str, dict[str, int]]
) -> None:
    kinds = list(figures)
    print(f"\n{size}-question topic page (4x CPU, slow 4G, 390x844):", flush=True)
    print(f"  {'':<36}" + "".join(f"{k:>12}" for k in kinds) + "   qbank/plain  qbank/quiz")
    for label, key, unit in ROWS:
        cells = "".join(f"{_fmt(figures[k][key], unit):>12}" for k in kinds)
        ratios = []
        for other in ("plain", "quiz"):
            a, b = figures["qbank"].get(key), figures.get(other, {}).get(key)
            ratios.append(f"{a / b:10.2f}x" if a is not None and b else f"{'-':>11}")
        print(f"  {label:<36}{cells}  " + " ".join(ratios))
    report_weight(weights)


def report_weight(weights: dict[str, dict[str, int]]) -> None:
    """Each kind's HTML and own assets, raw and gzip, and how far above plain's they are."""
    p = weights["plain"]
    for kind, w in weights.items():
        total, total_gz = w["html"] + w["assets"], w["html_gzip"] + w["assets_gzip"]
        extra = (total - p["html"] - p["assets"]) / 1024
        extra_gz = (total_gz - p["html_gzip"] - p["assets_gzip"]) / 1024
        print(
            f"  weight {kind:<6} HTML {w['html'] / 1024:6.1f} KiB ({w['html_gzip'] / 1024:5.1f} gz)"
            f" + own assets {w['assets'] / 1024:5.1f} KiB ({w['assets_gzip'] / 1024:4.1f} gz)"
            f" = plain {extra:+6.1f} KiB raw, {extra_gz:+5.1f} KiB gzip"
            f" ({total / (p['html'] + p['assets']):.2f}x raw)",
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[25, 75, 250])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--work", type=Path, default=Path("/tmp/qbank-phone"))
    parser.add_argument("--skip-quiz", action="store_true", help="leave out mkdocs-quiz")
    parser.add_argument(
        "--build",
        choices=("all", "qbank", "none"),
        default="all",
        help="which sites to build (the others are reused from --work)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures as JSON here")
    parser.add_argument(
        "--weight-only", action="store_true", help="only the weights (no browser; no quiz)"
    )
    parser.add_argument(
        "--page-size",
        type=int,
        help="qbank's page_size (questions a topic page holds; 0: one page; default: the"
        " plugin's). The bench loads the topic's first page.",
    )
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    work: Path = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    quiz = not args.skip_quiz and not args.weight_only and quiz_installed()
    kinds = ["qbank", "plain"] + (["quiz"] if quiz else [])
    sites = {
        size: (
            build_sites(work, size, quiz, args.page_size)
            if args.build == "all"
            else {k: work / f"{k}-{size}" / "site" for k in kinds}
        )
        for size in args.sizes
    }
    if args.build == "qbank":
        for size in args.sizes:
            build_qbank(work, size, args.page_size)
    if args.weight_only:
        for size in args.sizes:
            print(f"\n{size}-question topic page:", flush=True)
            report_weight({kind: weight(sites[size][kind], kind) for kind in ("qbank", "plain")})
        return 0
    httpd, base = serve(work)
    results: dict[str, Any] = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for size in args.sizes:
                figures, weights = {}, {}
                for kind in kinds:
                    site = sites[size][kind]
                    url = base + site.relative_to(work).as_posix() + "/" + PAGE
                    figures[kind] = measure_kind(browser, url, kind, args.runs)
                    weights[kind] = weight(site, kind)
                report(size, figures, weights)
                results[str(size)] = {"figures": figures, "weights": weights}
            browser.close()
    finally:
        httpd.shutdown()
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
