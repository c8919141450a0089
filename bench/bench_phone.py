"""Phone bench: a big topic page on a slow phone, qbank against plain Material and mkdocs-quiz.

    python bench/bench_phone.py [--sizes 25 75 250] [--runs 1] [--work /tmp/qbank-phone]
        [--skip-quiz] [--build all|qbank|none] [--json out.json] [--weight-only] [--trace DIR]

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
   document is parsed, when its script binds; each time recorded in the page by a mutation
   observer, with no polling from outside: every poll forced style and layout on the
   loading page); the main-thread long tasks
   (``PerformanceObserver('longtask')``: count, total, longest); the bytes transferred
   (resource timing's ``transferSize`` of the page and everything it loaded);
2. tapped: from first contentful paint on (the browser's lifecycle event), the first option of
   the first question one tap answers (a single-answer choice; plain: the first answer
   block's summary) is scrolled to when it is not in the viewport and tapped where it is
   shown (a press and a release through DevTools' Input domain, as a touch screen sends
   them: no Playwright actionability checks, which need round trips through the page's
   busy main thread a reader's tap does not), again until the tap gives feedback (qbank:
   the question's feedback line has text; plain: the ``<details>`` opens; quiz: its
   feedback shows; a quiz option a tap checked before mkdocs-quiz's script had bound gives
   no change event when tapped again, so the next tap goes to the next option, as a
   reader's would). "First answer" is when that tap's feedback was painted (the click's
   timestamp plus its Event Timing duration, waited for as long as the page takes to
   report it; a click Chromium does not report, under 16 ms, counts as 16 ms); then five
   questions further down are scrolled to and tapped once each: click-to-feedback is the
   Event Timing duration of those clicks (input to next paint; of it, the time spent in the
   page's click handlers is shown apart), and the long tasks after the first answer are
   listed. With ``--trace DIR`` a Chromium performance trace of each tapped load is written
   and the main-thread tasks over 50 ms from first paint to the first answer are listed
   with what they spent their time on.

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
        "ready": "(q) => q.__benchReady",
    },
    "plain": {
        "question": "details.success",
        "clickable": "details.success",
        "target": "summary",
        "feedback": "(q) => q.open",
        "ready": "(q) => q.__benchAdded",
    },
    "quiz": {
        "question": ".quiz",
        "clickable": ".quiz:has(input[type=radio])",
        "target": "fieldset label",
        "feedback": "(q) => { const f = q.querySelector('.quiz-feedback');"
        " return !!(f && !f.classList.contains('hidden')); }",
        "ready": "(q) => performance.getEntriesByType('navigation')[0].domInteractive",
    },
}

# Installed before any page script: long tasks, event timings and first paint, buffered;
# when each element was added to the page and when each got ``data-qb-ready`` (a mutation
# observer: no polling from outside, which would force style and layout while the page loads).
OBSERVE = """
window.__bench = { longtasks: [], clicks: [], taps: [] };
new MutationObserver((list) => {
  const now = performance.now();
  for (const m of list) {
    if (m.type === "attributes") m.target.__benchReady ??= now;
    else for (const n of m.addedNodes) n.__benchAdded ??= now;
  }
}).observe(document, { subtree: true, childList: true, attributes: true,
                       attributeFilter: ["data-qb-ready"] });
addEventListener("click", (e) => window.__bench.taps.push(e.timeStamp), true);
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

STATE = """([question, ready]) => {
  const paint = performance.getEntriesByName("first-contentful-paint")[0];
  const readyAt = eval(ready);
  const h = innerHeight;
  const all = Array.from(document.querySelectorAll(question));
  const visible = all.filter((q) => {
    const r = q.getBoundingClientRect();
    return r.bottom > 0 && r.top < h;
  });
  if (!visible.length && all.length) visible.push(all[0]);  // below the fold: the first
  const times = visible.map(readyAt);
  return { fcp: paint ? paint.startTime : null, questions: all.length, visible: visible.length,
           ready: times.length && times.every((t) => t != null) ? Math.max(...times) : null };
}"""


# Where to tap question ``i``'s target: scrolled to the middle of the viewport when it is not
# in it (a reader scrolls to it) and shown, its centre in CSS pixels; null while it is not in
# the page.
AIM = """async ([question, target, i]) => {
  const q = document.querySelectorAll(question)[i];
  // the first target whose radio is not checked yet: a tap that lands before a page's script
  // has bound checks the radio natively, and tapping it again fires no change (mkdocs-quiz),
  // so a reader, and the bench, tap the next option
  const all = q ? [...q.querySelectorAll(target)] : [];
  const t = all.find((e) => !(e.control && e.control.checked)) || all[0];
  if (!t) return null;
  // the middle of its first line box: an inline label that wraps has a gap in the middle of
  // its bounding box, where a tap lands on its parent
  const box = () => t.getClientRects()[0] || t.getBoundingClientRect();
  let r = box();
  if (r.top < 60 || r.bottom > innerHeight) {
    t.scrollIntoView({ block: "center" });
    // where it is once shown: questions brought near the viewport take their real height in
    // the next frame (content-visibility), and a reader taps what is painted
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    r = box();
  }
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
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


def build_level_site(work: Path, size: int, level: str, page_size: int | None) -> Path:
    """qbank's site of one field of ``size`` questions in 10 topics, every question at the
    seniority ``level``: its page ``level_page(level)`` holds them all, in parts."""
    content = work / f"bank-level-{size}"
    make_bank(content, size, 1, 1, 10, ("en",), 3)
    for path in content.rglob("q-*.yaml"):
        lines = [
            line
            for line in path.read_text("utf-8").split("\n")
            if not line.startswith("seniority:")
        ]
        path.write_text("\n".join([lines[0], f"seniority: {level}", *lines[1:]]), "utf-8")
    settings = {} if page_size is None else {"page_size": page_size}
    write_qbank(content, work / f"qbank-level-{size}", **settings)
    run_mkdocs(work / f"qbank-level-{size}")
    return work / f"qbank-level-{size}" / "site"


def level_page(level: str) -> str:
    """The seniority page of ``build_level_site``'s field (its first part)."""
    return f"en/field-01/level-{level}/index.html"


def weight(site: Path, kind: str, shown: str = PAGE) -> dict[str, int]:
    """Raw and gzip bytes of the topic page's HTML and of its own (not Material's) assets
    (qbank's site holds every locale; a baseline's site is one per locale)."""
    root, page = (site, shown) if kind == "qbank" else (site / "en", shown.split("/", 1)[1])
    html = (root / page).read_bytes()
    assets = [(root / path).read_bytes() for path in own_assets(root, page)]
    return {
        "html": len(html),
        "html_gzip": len(gzip.compress(html, 6)),
        "assets": sum(len(a) for a in assets),
        "assets_gzip": sum(len(gzip.compress(a, 6)) for a in assets),
    }


# -- loading -----------------------------------------------------------------------------------


def _throttled(browser: Any) -> tuple[Any, Any, Any]:
    """A fresh phone-sized context and page, CPU and network slowed; its DevTools session."""
    context = browser.new_context(
        viewport=VIEWPORT, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    context.add_init_script(OBSERVE)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_4G)
    return context, page, cdp


def _long(tasks: list[list[float]], after: float = 0.0) -> dict[str, float]:
    mine = [d for start, d in tasks if start >= after]
    return {"count": len(mine), "total": sum(mine), "longest": max(mine, default=0.0)}


def load_untouched(browser: Any, url: str, kind: str) -> dict[str, Any]:
    """First paint, every visible question ready, long tasks and bytes of one load."""
    spec = KINDS[kind]
    context, page, _ = _throttled(browser)
    try:
        page.goto(url, wait_until="commit", timeout=120_000)
        page.wait_for_load_state("load", timeout=120_000)
        page.wait_for_timeout(3000)  # let late work (Material's, the widget's) show up
        state = page.evaluate(STATE, [spec["question"], spec["ready"]])
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
        "visible_ready": state["ready"],
        "visible": state["visible"],
        "questions": state["questions"],
        "longtasks": _long(data["longtasks"]),
        "bytes": data["bytes"],
        "requests": data["requests"],
    }


def _tap(cdp: Any, x: float, y: float) -> None:
    """A tap where a reader's finger would land: a press and a release at (x, y) sent through
    the browser's input pipeline (DevTools' Input domain), as a touch screen's are. Unlike
    Playwright's click it does not first ask the page (several round trips through its main
    thread, each waiting behind whatever task runs) where the target is or whether it is
    stable; the renderer hit-tests the press when its main thread gets to it."""
    for kind in ("mousePressed", "mouseReleased"):
        cdp.send(
            "Input.dispatchMouseEvent",
            {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1},
        )


def _tap_and_wait(
    page: Any, cdp: Any, kind: str, index: int, timeout: float
) -> dict[str, Any] | None:
    """Tap question ``index``'s target once (scrolled to first when it is not in the
    viewport); the tap's timing once the question's feedback shows, or None when it did not
    show within ``timeout`` seconds (the target not in the page yet, or not answering yet).

    The timing is the click's Event Timing entry (input to the next paint after its
    handlers), waited for as long as the page takes to deliver it; Chromium reports no entry
    under 16 ms, so a click without one counts as 16 ms from its timestamp."""
    spec = KINDS[kind]
    aim = page.evaluate(AIM, [spec["clickable"], spec["target"], index])
    if aim is None:
        time.sleep(0.02)
        return None
    before = page.evaluate("() => window.__bench.taps.length")
    _tap(cdp, aim["x"], aim["y"])
    check = f"([i, q]) => ({spec['feedback']})(document.querySelectorAll(q)[i])"
    end = time.monotonic() + timeout
    while not page.evaluate(check, [index, spec["clickable"]]):
        if time.monotonic() > end:
            return None
        time.sleep(0.01)
    taps = page.evaluate("() => window.__bench.taps")[before:]
    if not taps:  # the feedback came from an earlier tap
        return None
    stamp = taps[0]
    end = time.monotonic() + 5
    while time.monotonic() < end:
        for start, duration, handlers in page.evaluate("() => window.__bench.clicks"):
            if abs(start - stamp) < 1:
                return {"start": start, "duration": duration, "end": start + duration,
                        "js": handlers}  # fmt: skip
        time.sleep(0.05)
    return {"start": stamp, "duration": 16.0, "end": stamp + 16.0, "js": 0.0}


def _first_paint(page: Any, cdp: Any, url: str) -> None:
    """Load ``url`` and return once the browser reports its first contentful paint (a
    lifecycle event the browser sends: no round trip through the page's main thread)."""
    painted: list[str] = []
    cdp.on(
        "Page.lifecycleEvent",
        lambda e: painted.append(e["name"]) if e["name"] == "firstContentfulPaint" else None,
    )
    cdp.send("Page.enable")
    cdp.send("Page.setLifecycleEventsEnabled", {"enabled": True})
    page.goto(url, wait_until="commit", timeout=120_000)
    deadline = time.monotonic() + 120
    while not painted and time.monotonic() < deadline:
        page.wait_for_timeout(10)


TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "loading",
                    "blink", "v8.execute", "navigation", "rail"]  # fmt: skip
# What a main-thread task spent its time on: these trace events, by name (the script's
# file and line, the event's type), summed.
CAUSES = {"EvaluateScript": "run", "v8.compile": "compile", "FunctionCall": "call",
          "EventDispatch": "event", "TimerFire": "timer", "FireAnimationFrame": "frame",
          "ParseHTML": "parse", "UpdateLayoutTree": "style", "Layout": "layout",
          "Paint": "paint", "RenderFrameImpl::didFinishLoad": "load-finished",
          "MajorGC": "gc", "MinorGC": "gc", "RunMicrotasks": "microtasks"}  # fmt: skip


def trace_tasks(path: Path, until: float, longer: float = 50.0) -> list[dict[str, Any]]:
    """The renderer main thread's tasks longer than ``longer`` ms in a Chromium trace, from
    first contentful paint to ``until`` ms after it, each with its start (ms after first
    paint), duration and what it spent its time on (outermost events of ``CAUSES``)."""
    data = json.loads(path.read_text("utf-8"))
    events = data["traceEvents"] if isinstance(data, dict) else data
    fcp = [e for e in events if e.get("name") == "firstContentfulPaint"][-1]
    thread, t0 = (fcp["pid"], fcp["tid"]), fcp["ts"]
    mine = sorted(
        (e for e in events if (e.get("pid"), e.get("tid")) == thread and e.get("ph") == "X"),
        key=lambda e: (e["ts"], -e.get("dur", 0)),
    )
    tasks = [e for e in mine if e["name"] == "RunTask" and e.get("dur", 0) > longer * 1000
             and e["ts"] + e["dur"] - t0 >= 0 and e["ts"] - t0 <= until * 1000]  # fmt: skip
    out = []
    for task in tasks:
        start, stop = task["ts"], task["ts"] + task["dur"]
        causes: dict[str, float] = {}
        covered, parse = start, (start, start)
        for e in mine:
            if not (start <= e["ts"] < stop) or e["name"] not in CAUSES or e["ts"] < covered:
                continue
            if e["name"] == "ParseHTML":  # the parser runs scripts: those count apart
                parse = (e["ts"], e["ts"] + e.get("dur", 0))
            else:
                covered = e["ts"] + e.get("dur", 0)  # outermost only
                if parse[0] <= e["ts"] < parse[1]:
                    causes["parse"] = causes.get("parse", 0.0) - e.get("dur", 0) / 1000
            info = e.get("args", {}).get("data", {}) or {}
            what = CAUSES[e["name"]]
            detail = info.get("url") or info.get("type") or ""
            if detail:
                what += (
                    " "
                    + detail.rsplit("/", 1)[-1]
                    + (f":{info['lineNumber']}" if info.get("lineNumber") else "")
                )
            causes[what] = causes.get(what, 0.0) + e.get("dur", 0) / 1000
        out.append({"start": (start - t0) / 1000, "duration": task["dur"] / 1000,
                    "causes": sorted(causes.items(), key=lambda c: -c[1])[:4]})  # fmt: skip
    return out


def load_clicked(browser: Any, url: str, kind: str, trace: Path | None = None) -> dict[str, Any]:
    """When the first question first answers a tap, later taps' latency, long tasks; with
    ``trace``, a Chromium performance trace of the load written there, and the main-thread
    tasks over 50 ms from first paint to the first answer listed."""
    spec = KINDS[kind]
    context, page, cdp = _throttled(browser)
    if trace:
        browser.start_tracing(page=page, path=str(trace), categories=TRACE_CATEGORIES)
    try:
        _first_paint(page, cdp, url)
        first = None
        deadline = time.monotonic() + 120
        while first is None and time.monotonic() < deadline:
            first = _tap_and_wait(page, cdp, kind, 0, 0.3)
        if first is None:
            print(f"  {url}: the first question never answered a tap", flush=True)
            return {"first_answer": None, "first_latency": None, "later_latency": [],
                    "later_handlers": [], "long_after": _long([], 0), "fcp": None}  # fmt: skip
        page.wait_for_load_state("load", timeout=120_000)
        count = page.locator(spec["clickable"]).count()
        later, handlers = [], []
        for n in range(1, LATER_CLICKS + 1):
            index = n * (count - 1) // LATER_CLICKS
            page.evaluate(AIM, [spec["clickable"], spec["target"], index])  # scroll to it
            page.wait_for_timeout(300)
            click = _tap_and_wait(page, cdp, kind, index, 10)
            if click is not None:
                later.append(click["duration"])
                handlers.append(click["js"])
        page.wait_for_timeout(1000)
        data = page.evaluate(
            """() => ({ longtasks: window.__bench.longtasks,
              fcp: (performance.getEntriesByName("first-contentful-paint")[0] || {}).startTime })"""
        )
    finally:
        if trace:
            browser.stop_tracing()
        context.close()
    if trace:
        print(f"  {kind}: first answer {first['end'] - data['fcp']:.0f} ms after first paint;"
              f" tasks over 50 ms until then ({trace}):")  # fmt: skip
        for task in trace_tasks(trace, first["end"] - data["fcp"]):
            causes = ", ".join(f"{what} {ms:.0f}" for what, ms in task["causes"])
            print(f"    at {task['start']:6.0f} ms: {task['duration']:4.0f} ms  {causes}")
    return {
        "first_answer": first["end"],
        "first_latency": first["duration"],
        "later_latency": later,
        "later_handlers": handlers,
        "long_after": _long(data["longtasks"], first["end"]),
        "fcp": data["fcp"],
    }


def measure_kind(
    browser: Any, url: str, kind: str, runs: int, trace: Path | None = None
) -> dict[str, Any]:
    loads = [load_untouched(browser, url, kind) for _ in range(runs)]
    clicks = [
        load_clicked(browser, url, kind, trace and trace / f"{kind}-{n + 1}.json")
        for n in range(runs)
    ]

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
    p = weights.get("plain", {"html": 0, "assets": 0, "html_gzip": 0, "assets_gzip": 0})
    for kind, w in weights.items():
        if kind != "plain" and "plain" not in weights:  # (a page plain Material has not)
            print(
                f"  weight {kind:<6} HTML {w['html'] / 1024:6.1f} KiB"
                f" ({w['html_gzip'] / 1024:5.1f} gz) + own assets {w['assets'] / 1024:5.1f} KiB"
                f" ({w['assets_gzip'] / 1024:4.1f} gz)",
                flush=True,
            )
            continue
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
        "--trace",
        type=Path,
        help="write a Chromium performance trace of each tapped load into this folder and"
        " list the main-thread tasks over 50 ms from first paint to the first answer",
    )
    parser.add_argument(
        "--page-size",
        type=int,
        help="qbank's page_size (questions a topic page holds; 0: one page; default: the"
        " plugin's). The bench loads the topic's first page.",
    )
    parser.add_argument(
        "--level",
        help="instead of topic pages: the seniority page of a field of --sizes questions in"
        " 10 topics, all at this level (qbank only: plain Material has no such page)",
    )
    parser.add_argument(
        "--page",
        help="with --level: another page of that site to load instead (e.g. a topic page"
        " of the same questions, en/field-01/topic-01/index.html, for a ratio in one run)",
    )
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    work: Path = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    quiz = not args.skip_quiz and not args.weight_only and quiz_installed() and not args.level
    kinds = ["qbank"] if args.level else ["qbank", "plain"] + (["quiz"] if quiz else [])
    shown = (args.page or level_page(args.level)) if args.level else PAGE
    if args.level:
        sites = {
            size: {"qbank": build_level_site(work, size, args.level, args.page_size)}
            if args.build != "none"
            else {"qbank": work / f"qbank-level-{size}" / "site"}
            for size in args.sizes
        }
    else:
        sites = {
            size: (
                build_sites(work, size, quiz, args.page_size)
                if args.build == "all"
                else {k: work / f"{k}-{size}" / "site" for k in kinds}
            )
            for size in args.sizes
        }
    if args.build == "qbank" and not args.level:
        for size in args.sizes:
            build_qbank(work, size, args.page_size)
    if args.weight_only:
        for size in args.sizes:
            print(f"\n{size}-question topic page:", flush=True)
            report_weight({kind: weight(sites[size][kind], kind, shown) for kind in kinds[:2]})
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
                    url = base + site.relative_to(work).as_posix() + "/" + shown
                    trace = args.trace and args.trace.resolve() / f"{size}"
                    if trace:
                        trace.mkdir(parents=True, exist_ok=True)
                    figures[kind] = measure_kind(browser, url, kind, args.runs, trace)
                    weights[kind] = weight(site, kind, shown)
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
