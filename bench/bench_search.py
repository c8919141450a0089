"""Search bench: the bytes one typical query makes the browser download from the Pagefind index,
next to the size of Material's ``search_index.json`` for the same bank.

    python bench/bench_search.py [--questions 30000] [--work /tmp/qbank-bench-search]
        [--queries 3] [--reuse]

1. ``bench/make_bank.py`` writes the synthetic bank (30,000 questions in en/tr/zh by default).
2. One real ``mkdocs build`` of it with the qbank plugin AND Material's search plugin switched
   back on by a bench-only hook (the plugin turns it off), so Material writes its real index
   for every locale build (kept as ``<locale>/material-search-index.json``).
3. The site is served on 127.0.0.1 and Debian's Chromium (Playwright) opens a locale's home
   page in a fresh context (cold cache), opens the search box, types a word taken from a
   random question of that locale, and waits until the first 10 results are shown. Every
   request under ``/pagefind/`` is recorded; its bytes are the served file's size (the test
   server sends files as they are; Pagefind's index, fragments and WebAssembly are already
   gzip-compressed, the JavaScript is not, so the gzip size of the JS is reported as well).
4. The report: per query the bytes by kind (JS, WebAssembly, metadata, filters, index chunks,
   fragments) and the share of Material's index for the same locale. Goal: under 1%.
"""

from __future__ import annotations

import argparse
import gzip
import json
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

HOOK = '''\
"""Bench-only MkDocs hook: switch Material's search back on and keep each locale's index."""
import shutil
from pathlib import Path


def on_config(config):
    search = config.plugins.get("material/search")
    if search is not None:
        search.config["enabled"] = True
    return config


def on_post_build(config):
    locale = config.extra.get("qbank_locale")
    index = Path(config.site_dir) / "search" / "search_index.json"
    if locale and index.is_file():
        target = Path(config.site_dir) / locale / "material-search-index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(index, target)
'''

KINDS = (
    ("js", re.compile(r"\.js$")),
    ("wasm", re.compile(r"wasm\.[^/]+\.pagefind$")),
    ("metadata", re.compile(r"(pagefind-entry\.json|\.pf_meta)$")),
    ("filters", re.compile(r"\.pf_filter$")),
    ("index chunks", re.compile(r"\.pf_index$")),
    ("fragments", re.compile(r"\.pf_fragment$")),
)


def kind_of(path: str) -> str:
    """The kind of a Pagefind file, by its name."""
    return next((kind for kind, pattern in KINDS if pattern.search(path)), "other")


def gzip_size(path: Path) -> int:
    """The size of a file compressed the way a web server would (gzip -6)."""
    return len(gzip.compress(path.read_bytes(), compresslevel=6))


def build(work: Path, questions: int, reuse: bool) -> tuple[Path, float]:
    """Write the bank and build the site (unless ``reuse`` and both exist)."""
    content, site = work / "content", work / "site"
    if not (reuse and (content / "catalog.yaml").is_file()):
        shutil.rmtree(content, ignore_errors=True)
        make = [sys.executable, str(ROOT / "bench" / "make_bank.py"), str(content)]
        subprocess.run([*make, "--questions", str(questions)], check=True)
    if reuse and (site / "pagefind" / "pagefind-entry.json").is_file():
        return site, 0.0
    (work / "docs").mkdir(exist_ok=True)
    (work / "material_search_hook.py").write_text(HOOK, "utf-8")
    config = {
        "site_name": "Bench",
        "docs_dir": "docs",
        "site_dir": "site",
        "theme": {"name": "material"},
        "plugins": ["search", {"qbank": {"content_dir": "content"}}],
        "hooks": ["material_search_hook.py"],
    }
    (work / "mkdocs.yml").write_text(yaml.safe_dump(config), "utf-8")
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=work, check=True)
    return site, time.perf_counter() - started


def material_index(site: Path, locale: str, default: str) -> Path:
    """Material's search_index.json of one locale's build."""
    kept = site / locale / "material-search-index.json"
    return kept if kept.is_file() else site / "search" / "search_index.json"


def sample_queries(content: Path, locale: str, count: int, rng: random.Random) -> list[str]:
    """Words a reader might type: taken from the prompts of random questions of ``locale``."""
    files = sorted(content.rglob("*.yaml"))
    queries: list[str] = []
    while len(queries) < count:
        data = yaml.safe_load(rng.choice(files).read_text("utf-8"))
        prompt = (data.get("prompt") or {}).get(locale) if isinstance(data, dict) else None
        if not prompt:
            continue
        if locale == "zh":
            runs = re.findall(r"[\u4e00-\u9fff]{2,}", prompt)
            if runs:
                run = rng.choice(runs)
                start = rng.randrange(len(run) - 1)
                queries.append(run[start : start + 2])
        else:
            words = [w for w in re.findall(r"\w+", prompt) if len(w) >= 5 and not w.isdigit()]
            if words:
                queries.append(rng.choice(words).lower())
    return queries


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def measure(site: Path, locale: str, query: str, browser: Any, base: str) -> dict[str, Any]:
    """One cold query in a fresh context: Pagefind files fetched, by kind, and the results."""
    context = browser.new_context(base_url=base)
    page = context.new_page()
    fetched: list[str] = []
    context.on("request", lambda request: fetched.append(request.url))
    page.goto(f"{locale}/")
    box = page.locator(".qb-search")
    box.locator(".qb-search__open").click()
    box.locator(".qb-search__input").fill(query)
    page.wait_for_function("() => document.querySelector('.qb-search').dataset.done === '1'")
    shown = page.locator(".qb-search__result").count()
    total = int(box.get_attribute("data-count") or 0)
    context.close()
    raw: dict[str, int] = defaultdict(int)
    served_gzip: dict[str, int] = defaultdict(int)
    files = sorted({unquote(urlsplit(url).path) for url in fetched if "/pagefind/" in url})
    for path in files:
        file = site / path.lstrip("/")
        kind = kind_of(path)
        raw[kind] += file.stat().st_size
        # Index, fragments, metadata and WebAssembly are gzip files already.
        served_gzip[kind] += gzip_size(file) if kind == "js" else file.stat().st_size
    return {
        "locale": locale,
        "query": query,
        "results": total,
        "shown": shown,
        "files": len(files),
        "bytes": dict(raw),
        "total": sum(raw.values()),
        "total_gzip": sum(served_gzip.values()),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the bench and print the report (and JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--questions", type=int, default=30_000)
    parser.add_argument("--work", type=Path, default=Path("/tmp/qbank-bench-search"))
    parser.add_argument("--queries", type=int, default=3, help="queries per locale")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--reuse", action="store_true", help="reuse the bank and site in --work")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON here")
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is not installed: the bench drives Debian's chromium")
        return 2
    args.work.mkdir(parents=True, exist_ok=True)
    site, seconds = build(args.work, args.questions, args.reuse)
    catalog = yaml.safe_load((args.work / "content" / "catalog.yaml").read_text("utf-8"))
    locales: list[str] = catalog["locales"]
    entry = json.loads((site / "pagefind" / "pagefind-entry.json").read_text("utf-8"))
    index_bytes = sum(f.stat().st_size for f in (site / "pagefind").rglob("*") if f.is_file())
    print(f"bank: {args.questions} questions, locales {', '.join(locales)}")
    if seconds:
        print(f"build (MkDocs, qbank, Pagefind and Material's search): {seconds:.0f} s")
    records = {lang: data["page_count"] for lang, data in entry["languages"].items()}
    print(f"pagefind: {index_bytes / 1e6:.1f} MB on disk; records per language {records}")

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=site))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    rng = random.Random(args.seed)
    rows: list[dict[str, Any]] = []
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for locale in locales:
            material = material_index(site, locale, locales[0])
            material_raw = material.stat().st_size
            material_gzip = gzip_size(material)
            print(
                f"\n[{locale}] Material search_index.json: {material_raw / 1e6:.1f} MB"
                f" ({material_gzip / 1e6:.1f} MB gzip)"
            )
            for query in sample_queries(args.work / "content", locale, args.queries, rng):
                row = measure(site, locale, query, browser, base)
                row["material"] = material_raw
                row["material_gzip"] = material_gzip
                row["share"] = row["total"] / material_raw
                row["share_gzip"] = row["total_gzip"] / material_gzip
                rows.append(row)
                parts = ", ".join(f"{k} {v / 1e3:.0f}" for k, v in sorted(row["bytes"].items()))
                print(
                    f"  {query!r}: {row['results']} results, {row['shown']} shown;"
                    f" {row['files']} files, {row['total'] / 1e3:.0f} kB ({parts} kB)"
                    f" = {100 * row['share']:.2f}% of Material's;"
                    f" with gzip'd JS {row['total_gzip'] / 1e3:.0f} kB"
                    f" = {100 * row['share_gzip']:.2f}% of Material's gzip'd"
                )
        browser.close()
    httpd.shutdown()
    worst = max(rows, key=lambda row: row["share"])
    print(
        f"\nworst query: {worst['total'] / 1e3:.0f} kB vs {worst['material'] / 1e6:.1f} MB"
        f" = {100 * worst['share']:.2f}% (goal: under 1%)"
    )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2, ensure_ascii=False), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
