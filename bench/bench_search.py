"""Search bench: the bytes a query makes the browser download from qbank's own search index,
next to the search index of a PLAIN Material site of the same questions, and the time it
takes to write the index.

    python bench/bench_search.py [--questions 3000] [--work /tmp/qbank-bench-search]
        [--queries 3] [--reuse] [--before DIR] [--json FILE]

1. ``bench/make_bank.py`` writes the synthetic bank (3,000 questions in en/tr/zh by default;
   the lead's figures use ``--questions 30000``).
2. One real ``mkdocs build`` of it with the qbank plugin (qbank's index only), and of the
   same questions as hand-written Material Markdown with Material's search (``run.py``'s
   ``write_plain``: a site per locale, a page per topic, as a bank without qbank would be).
   The denominator is that plain site's ``search_index.json`` of the locale: what a reader
   of one locale downloads from Material. (Material's index of the qbank site itself would
   also count the copies of each question on the seniority pages, about twice as much.)
3. Index writing, timed alone: the bank is loaded once and each locale's index written
   (``write_index``) by this checkout and, with ``--before DIR``, by an earlier one
   (``DIR/generator``, e.g. ``git archive main | tar x -C DIR``), in the same way.
4. The qbank site is served on 127.0.0.1 and Debian's Chromium (Playwright) opens a locale's
   home page in a fresh context (cold cache), opens the search box and types the locale's
   queries one after another, waiting for each result list: the first query pays for the
   manifest, the JS and the stemmer; the later ones only for the files they add. Queries are
   what a reader would type: a word (three letters or more, not a number) of the prompt of a
   random question, for Chinese a run of 2-4 characters of it; then a filter-only query (a
   random field, no words) in a fresh context. Every request under ``/<locale>/api/search/``
   is recorded, and ``search.js`` and ``snowball-*.js``.
5. The report, per query: bytes by kind (manifest ``index.json``, terms files ``t/``,
   documents ``d/``, filters ``f.json``, JS), raw and gzip (each file compressed with gzip -6,
   as a real host serves JSON and JS; the test server sends files uncompressed, so the gzip
   figures are computed; HTTP headers are not counted), and the share of the plain site's
   index of the same locale, gzip against gzip (the goal: under 1%) and raw against raw.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import re
import shutil
import subprocess
import sys
import threading
import time
from collections import defaultdict
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import yaml

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-gpu"]
INDEX_DIR = "api/search"  # qbank.search.INDEX_DIR, under <locale>/
sys.path.insert(0, str(ROOT / "bench"))
from run import write_plain  # noqa: E402

MIN_WORD = 3
CJK_RUN = re.compile(r"[\u4e00-\u9fff]{2,}")

KINDS = ("manifest", "terms", "documents", "filters", "js")


def kind_of(path: str) -> str | None:
    """The kind of a fetched search file, by its URL path (None: not a search file)."""
    if path.endswith("/assets/search.js") or "/assets/snowball-" in path:
        return "js"
    if f"/{INDEX_DIR}/" not in path:
        return None
    name = path.split(f"/{INDEX_DIR}/", 1)[1]
    if name == "index.json":
        return "manifest"
    if name == "f.json":
        return "filters"
    if name.startswith("t/"):
        return "terms"
    if name.startswith("d/"):
        return "documents"
    return "other"


def gzip_size(path: Path) -> int:
    """The size of a file compressed the way a web server would (gzip -6)."""
    return len(gzip.compress(path.read_bytes(), compresslevel=6))


def built(site: Path) -> bool:
    """Whether ``site`` holds a built site with qbank's search index."""
    return any(site.glob(f"*/{INDEX_DIR}/index.json"))


def build(work: Path, questions: int, reuse: bool) -> tuple[Path, float]:
    """Write the bank and build the qbank site (unless ``reuse`` and both exist)."""
    content, site = work / "content", work / "site"
    if not (reuse and (content / "catalog.yaml").is_file()):
        shutil.rmtree(content, ignore_errors=True)
        make = [sys.executable, str(ROOT / "bench" / "make_bank.py"), str(content)]
        subprocess.run([*make, "--questions", str(questions)], check=True)
    if reuse and built(site):
        return site, 0.0
    (work / "docs").mkdir(exist_ok=True)
    config = {
        "site_name": "Bench",
        "docs_dir": "docs",
        "site_dir": "site",
        "theme": {"name": "material"},
        "plugins": [{"qbank": {"content_dir": "content"}}],
    }
    (work / "mkdocs.yml").write_text(yaml.safe_dump(config), "utf-8")
    return site, mkdocs_build(work)


def mkdocs_build(project: Path, config: str = "mkdocs.yml") -> float:
    """Run ``mkdocs build`` of ``config`` in ``project``; the seconds it took."""
    started = time.perf_counter()
    quiet = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    mkdocs = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", config]
    subprocess.run(mkdocs, cwd=project, env=quiet, check=True)
    return time.perf_counter() - started


def build_plain(work: Path, locales: list[str], reuse: bool) -> dict[str, Path]:
    """The same questions as a plain Material site per locale (``run.py``'s ``write_plain``,
    one config and site per locale, Material's search on); each locale's index."""
    project = work / "plain"
    indexes = {loc: project / "site" / loc / "search" / "search_index.json" for loc in locales}
    if not (reuse and all(index.is_file() for index in indexes.values())):
        for config in write_plain(work / "content", project, False, []):
            mkdocs_build(project, config)
    return indexes


TIMING = """
import json, sys, time, inspect, tempfile
from pathlib import Path
from qbank.bank.load import load_bank
from qbank import search
content = Path(sys.argv[1])
bank = load_bank(content)
out = {}
takes_locale = len(inspect.signature(search.write_index).parameters) > 2
with tempfile.TemporaryDirectory() as scratch:
    for locale in bank.catalog.locales:
        url = lambda loc, e: f"/{loc}/{e.field}/{e.topic}/"
        docs = search.iter_docs(bank, locale, url)
        folder = Path(scratch) / locale
        started = time.perf_counter()
        started_cpu = time.process_time()
        if takes_locale:
            search.write_index(docs, folder, locale)
        else:
            search.write_index(docs, folder)
        files = [f for f in folder.rglob("*") if f.is_file()]
        out[locale] = {
            "seconds": time.perf_counter() - started,
            "cpu": time.process_time() - started_cpu,
            "bytes": sum(f.stat().st_size for f in files),
            "files": len(files),
        }
print(json.dumps(out))
"""


def index_timing(content: Path, generator: Path | None) -> dict[str, Any]:
    """Load the bank once and time writing each locale's index, with this checkout's code or
    the one under ``generator`` (a folder holding the ``qbank`` package)."""
    env = dict(os.environ)
    if generator is not None:
        env["PYTHONPATH"] = str(generator)
    result = subprocess.run(
        [sys.executable, "-c", TIMING, str(content)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def index_size(site: Path, locale: str) -> dict[str, Any]:
    """The locale's search index on disk: files, bytes, and its largest terms file."""
    folder = site / locale / INDEX_DIR
    files = [f for f in folder.rglob("*") if f.is_file()]
    terms = [f for f in files if f.parent.name == "t"]
    largest = max(terms, key=lambda f: f.stat().st_size)
    return {
        "files": len(files),
        "terms_files": len(terms),
        "bytes": sum(f.stat().st_size for f in files),
        "manifest": (folder / "index.json").stat().st_size,
        "largest_terms": largest.stat().st_size,
        "largest_terms_gzip": gzip_size(largest),
    }


def query_word(prompt: str, locale: str, rng: random.Random) -> str | None:
    """What a reader might type after reading ``prompt``: one of its words (three letters or
    more, not a number), or for Chinese a run of 2-4 of its characters."""
    if locale.lower().startswith("zh"):
        runs: list[str] = CJK_RUN.findall(prompt)
        if not runs:
            return None
        run = rng.choice(runs)
        length = rng.randint(2, min(4, len(run)))
        start = rng.randrange(len(run) - length + 1)
        return run[start : start + length]
    found: list[str] = re.findall(r"\w+", prompt)
    words = [w for w in found if len(w) >= MIN_WORD and not w.isdigit()]
    return rng.choice(words) if words else None


def sample_queries(files: list[Path], locale: str, count: int, rng: random.Random) -> list[str]:
    """``count`` queries from the prompts of random questions of ``locale``."""
    queries: list[str] = []
    for _ in range(100 * count):
        if len(queries) == count:
            break
        data = yaml.safe_load(rng.choice(files).read_text("utf-8"))
        prompt = (data.get("prompt") or {}).get(locale) if isinstance(data, dict) else None
        word = query_word(prompt, locale, rng) if isinstance(prompt, str) else None
        if word:
            queries.append(word)
    return queries


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def fetched_rows(
    site: Path, locale: str, fetched: list[str], seen: set[str]
) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """Bytes (raw, gzip) and counts by kind of the search files in ``fetched`` not in
    ``seen`` (which they join)."""
    raw: dict[str, int] = defaultdict(int)
    packed: dict[str, int] = defaultdict(int)
    count: dict[str, int] = defaultdict(int)
    for path in sorted({unquote(urlsplit(url).path) for url in fetched} - seen):
        seen.add(path)
        kind = kind_of(path)
        if kind is None:
            continue
        file = site / path.lstrip("/")
        raw[kind] += file.stat().st_size
        packed[kind] += gzip_size(file)
        count[kind] += 1
    return dict(raw), dict(packed), dict(count)


def measure(
    site: Path, locale: str, queries: list[str], field: str | None, browser: Any, base: str
) -> list[dict[str, Any]]:
    """Type ``queries`` one after another in a fresh context (or pick a ``field`` filter
    alone): per query, the search files it fetched that earlier queries had not, by kind,
    raw and gzip, and its results."""
    context = browser.new_context(base_url=base)
    page = context.new_page()
    fetched: list[str] = []
    context.on("request", lambda request: fetched.append(request.url))
    page.goto(f"{locale}/")
    box = page.locator(".qb-search")
    box.locator(".qb-search__open").click()
    seen: set[str] = set()
    rows = []
    steps: list[str | None] = [None] if field is not None else list(queries)
    for number, query in enumerate(steps, 1):
        if query is None:
            box.locator("select[name=field]").select_option(field)
        else:
            box.locator(".qb-search__input").fill(query)
        page.wait_for_function(
            "(n) => document.querySelector('.qb-search').dataset.done === String(n)", arg=number
        )
        shown = page.locator(".qb-search__result").count()
        total = int(box.get_attribute("data-count") or 0)
        raw, packed, count = fetched_rows(site, locale, fetched, seen)
        rows.append(
            {
                "locale": locale,
                "query": query if query is not None else f"[field={field}]",
                "first": number == 1,
                "results": total,
                "shown": shown,
                "files": count,
                "bytes": raw,
                "bytes_gzip": packed,
                "total": sum(raw.values()),
                "total_gzip": sum(packed.values()),
                "data_gzip": sum(v for k, v in packed.items() if k != "js"),
            }
        )
    context.close()
    return rows


def kilo(value: int) -> str:
    """Bytes as kB with one decimal."""
    return f"{value / 1e3:.1f}"


def show(row: dict[str, Any]) -> None:
    """Print one query's row."""
    parts = ", ".join(
        f"{kind} {row['files'].get(kind, 0)}x {kilo(row['bytes'].get(kind, 0))}"
        f"/{kilo(row['bytes_gzip'].get(kind, 0))}"
        for kind in KINDS
        if kind in row["bytes"]
    )
    print(
        f"  {row['query']!r} ({'first' if row['first'] else 'later'}):"
        f" {row['results']} results, {row['shown']} shown\n"
        f"    kB raw/gzip: {parts}\n"
        f"    total {kilo(row['total'])} kB raw = {100 * row['share']:.3f}% of the plain"
        f" site's raw; {kilo(row['total_gzip'])} kB gzip = {100 * row['share_gzip']:.3f}% of"
        f" its gzip (without JS {100 * row['data_gzip'] / row['material_gzip']:.3f}%)"
    )


def load() -> str:
    """The load average, as ``uptime`` shows it."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    """Run the bench and print the report (and JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--questions", type=int, default=3_000)
    parser.add_argument("--work", type=Path, default=Path("/tmp/qbank-bench-search"))
    parser.add_argument("--queries", type=int, default=3, help="word queries per locale")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--reuse", action="store_true", help="reuse the bank and sites in --work")
    parser.add_argument("--before", type=Path, help="an earlier checkout to time its index too")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON here")
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is not installed: the bench drives Debian's chromium")
        return 2
    args.work.mkdir(parents=True, exist_ok=True)
    print(f"load average at start: {load()}")
    site, seconds = build(args.work, args.questions, args.reuse)
    content = args.work / "content"
    catalog = yaml.safe_load((content / "catalog.yaml").read_text("utf-8"))
    locales: list[str] = catalog["locales"]
    fields = sorted(catalog["fields"])
    files = sorted(content.rglob("q-*.yaml"))
    print(f"bank: {len(files)} questions, locales {', '.join(locales)}")
    if seconds:
        print(f"qbank site build (mkdocs build): {seconds:.0f} s; load {load()}")
    plain = build_plain(args.work, locales, args.reuse)
    print(f"plain Material site built; load {load()}")

    timings = {"after": index_timing(content, None)}
    if args.before:
        timings["before"] = index_timing(content, args.before / "generator")
    for name, timing in timings.items():
        for locale, figures in timing.items():
            print(
                f"index writing ({name}) {locale}: {figures['seconds']:.1f} s wall,"
                f" {figures['cpu']:.1f} s CPU, {figures['bytes'] / 1e6:.2f} MB"
                f" in {figures['files']} files"
            )

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=site))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    rng = random.Random(args.seed)
    rows: list[dict[str, Any]] = []
    sizes: dict[str, Any] = {}
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for locale in locales:
            material = plain[locale]
            material_raw = material.stat().st_size
            material_gzip = gzip_size(material)
            size = sizes[locale] = index_size(site, locale)
            size.update(material=material_raw, material_gzip=material_gzip)
            print(
                f"\n[{locale}] the plain Material site's index of this locale:"
                f" {material_raw / 1e6:.2f} MB raw, {material_gzip / 1e6:.2f} MB gzip\n"
                f"  qbank index: {size['bytes'] / 1e6:.2f} MB in {size['files']} files"
                f" ({size['terms_files']} terms files, manifest {kilo(size['manifest'])} kB,"
                f" largest terms file {kilo(size['largest_terms'])} kB raw"
                f" / {kilo(size['largest_terms_gzip'])} kB gzip)"
            )
            words = sample_queries(files, locale, args.queries, rng)
            locale_rows = measure(site, locale, words, None, browser, base)
            locale_rows += measure(site, locale, [], rng.choice(fields), browser, base)
            for row in locale_rows:
                row["material"] = material_raw
                row["material_gzip"] = material_gzip
                row["share"] = row["total"] / material_raw
                row["share_gzip"] = row["total_gzip"] / material_gzip
                rows.append(row)
                show(row)
        browser.close()
    httpd.shutdown()
    for label, chosen in (
        ("first", [r for r in rows if r["first"]]),
        ("later", [r for r in rows if not r["first"]]),
    ):
        if not chosen:
            continue
        worst = max(chosen, key=lambda row: row["share_gzip"])
        print(
            f"\nworst {label} query ({worst['locale']} {worst['query']!r}):"
            f" {kilo(worst['total_gzip'])} kB gzip vs {worst['material_gzip'] / 1e6:.2f} MB gzip"
            f" = {100 * worst['share_gzip']:.3f}% (goal: under 1%);"
            f" raw {kilo(worst['total'])} kB vs {worst['material'] / 1e6:.2f} MB"
            f" = {100 * worst['share']:.3f}%"
        )
    print(f"load average at end: {load()}")
    if args.json:
        report = {"questions": len(files), "indexes": sizes, "timings": timings, "queries": rows}
        args.json.write_text(json.dumps(report, indent=2, ensure_ascii=False), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
