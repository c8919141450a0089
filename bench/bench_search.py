"""Search bench: the bytes one typical query makes the browser download from qbank's own search
index, next to the size of Material's ``search_index.json`` for the same bank.

    python bench/bench_search.py [--questions 30000] [--work /tmp/qbank-bench-search]
        [--queries 3] [--reuse]

1. ``bench/make_bank.py`` writes the synthetic bank (30,000 questions in en/tr/zh by default).
2. One real ``mkdocs build`` of it with the qbank plugin AND Material's search plugin switched
   back on by a bench-only hook (the plugin turns it off), so Material writes its real index
   for every locale build (kept as ``<locale>/material-search-index.json``).
3. The site is served on 127.0.0.1 and Debian's Chromium (Playwright) opens a locale's home
   page in a fresh context (cold cache), opens the search box, types a query and waits until
   the first results are shown. Queries are what a reader would type: a word (three letters
   or more, not a number) of the prompt of a random question of that locale, or for Chinese a
   run of 2-4 characters of it; once per locale a filter-only query (a random field, no
   words). Every request under ``/<locale>/api/search/`` is recorded, and ``search.js``.
4. The report, per query: bytes by kind (manifest ``index.json``, terms files ``t/``,
   documents ``d/``, filters ``f.json``, JS ``search.js``), raw (the file as written) and gzip
   (each file compressed with gzip -6, as a real host serves JSON and JS), and the share of
   Material's index of the same locale: ours raw against Material's raw, ours gzip against
   Material's gzip. The test server sends files uncompressed, so the gzip figures are
   computed, not observed; HTTP headers are not counted. The goal (a query transfers under 1%
   of Material's index) is judged on gzip against gzip, the bytes that really cross the wire;
   the totals include ``search.js`` (loaded with every page, but the search needs it).
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
MIN_WORD = 3
CJK_RUN = re.compile(r"[\u4e00-\u9fff]{2,}")

HOOK = '''\
"""Bench-only MkDocs hook: switch Material's search back on and keep each locale's index."""
import shutil
from pathlib import Path

from mkdocs.plugins import event_priority


# After qbank's on_config (priority 100) turned Material's search off, before Material's own
# on_config (priority 0) sets it up.
@event_priority(50)
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

KINDS = ("manifest", "terms", "documents", "filters", "js")


def kind_of(path: str) -> str | None:
    """The kind of a fetched search file, by its URL path (None: not a search file)."""
    if path.endswith("/assets/search.js"):
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
    """Write the bank and build the site (unless ``reuse`` and both exist)."""
    content, site = work / "content", work / "site"
    if not (reuse and (content / "catalog.yaml").is_file()):
        shutil.rmtree(content, ignore_errors=True)
        make = [sys.executable, str(ROOT / "bench" / "make_bank.py"), str(content)]
        subprocess.run([*make, "--questions", str(questions)], check=True)
    if reuse and built(site):
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
    quiet = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    mkdocs = [sys.executable, "-m", "mkdocs", "build", "-q"]
    subprocess.run(mkdocs, cwd=work, env=quiet, check=True)
    return site, time.perf_counter() - started


def material_index(site: Path, locale: str) -> Path:
    """Material's search_index.json of one locale's build."""
    kept = site / locale / "material-search-index.json"
    return kept if kept.is_file() else site / "search" / "search_index.json"


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


def measure(
    site: Path, locale: str, query: str, field: str | None, browser: Any, base: str
) -> dict[str, Any]:
    """One cold query (words ``query``, or a ``field`` filter alone) in a fresh context: the
    search files fetched, by kind, raw and gzip, and the results."""
    context = browser.new_context(base_url=base)
    page = context.new_page()
    fetched: list[str] = []
    context.on("request", lambda request: fetched.append(request.url))
    page.goto(f"{locale}/")
    box = page.locator(".qb-search")
    box.locator(".qb-search__open").click()
    if field is not None:
        box.locator("select[name=field]").select_option(field)
    else:
        box.locator(".qb-search__input").fill(query)
    page.wait_for_function("() => document.querySelector('.qb-search').dataset.done === '1'")
    shown = page.locator(".qb-search__result").count()
    total = int(box.get_attribute("data-count") or 0)
    context.close()
    raw: dict[str, int] = defaultdict(int)
    packed: dict[str, int] = defaultdict(int)
    count: dict[str, int] = defaultdict(int)
    for path in sorted({unquote(urlsplit(url).path) for url in fetched}):
        kind = kind_of(path)
        if kind is None:
            continue
        file = site / path.lstrip("/")
        raw[kind] += file.stat().st_size
        packed[kind] += gzip_size(file)
        count[kind] += 1
    return {
        "locale": locale,
        "query": query if field is None else f"[field={field}]",
        "results": total,
        "shown": shown,
        "files": dict(count),
        "bytes": dict(raw),
        "bytes_gzip": dict(packed),
        "total": sum(raw.values()),
        "total_gzip": sum(packed.values()),
        "data_gzip": sum(v for k, v in packed.items() if k != "js"),
    }


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
        f"  {row['query']!r}: {row['results']} results, {row['shown']} shown\n"
        f"    kB raw/gzip: {parts}\n"
        f"    total {kilo(row['total'])} kB raw = {100 * row['share']:.3f}% of Material's raw;"
        f" {kilo(row['total_gzip'])} kB gzip = {100 * row['share_gzip']:.3f}% of Material's"
        f" gzip (without JS {100 * row['data_gzip'] / row['material_gzip']:.3f}%)"
    )


def load() -> str:
    """The load average, as ``uptime`` shows it."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    """Run the bench and print the report (and JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--questions", type=int, default=30_000)
    parser.add_argument("--work", type=Path, default=Path("/tmp/qbank-bench-search"))
    parser.add_argument("--queries", type=int, default=3, help="word queries per locale")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--reuse", action="store_true", help="reuse the bank and site in --work")
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
        print(f"build (MkDocs, qbank and Material's search): {seconds:.0f} s; load {load()}")

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
            material = material_index(site, locale)
            material_raw = material.stat().st_size
            material_gzip = gzip_size(material)
            size = sizes[locale] = index_size(site, locale)
            size.update(material=material_raw, material_gzip=material_gzip)
            print(
                f"\n[{locale}] Material search_index.json: {material_raw / 1e6:.2f} MB raw,"
                f" {material_gzip / 1e6:.2f} MB gzip\n"
                f"  qbank index: {size['bytes'] / 1e6:.2f} MB in {size['files']} files"
                f" ({size['terms_files']} terms files, manifest {kilo(size['manifest'])} kB,"
                f" largest terms file {kilo(size['largest_terms'])} kB raw"
                f" / {kilo(size['largest_terms_gzip'])} kB gzip)"
            )
            queries: list[tuple[str, str | None]] = [
                (word, None) for word in sample_queries(files, locale, args.queries, rng)
            ]
            queries.append(("", rng.choice(fields)))
            for query, field in queries:
                row = measure(site, locale, query, field, browser, base)
                row["material"] = material_raw
                row["material_gzip"] = material_gzip
                row["share"] = row["total"] / material_raw
                row["share_gzip"] = row["total_gzip"] / material_gzip
                rows.append(row)
                show(row)
        browser.close()
    httpd.shutdown()
    worst = max(rows, key=lambda row: row["share_gzip"])
    print(
        f"\nworst query ({worst['locale']} {worst['query']!r}): {kilo(worst['total_gzip'])} kB"
        f" gzip vs {worst['material_gzip'] / 1e6:.2f} MB gzip"
        f" = {100 * worst['share_gzip']:.3f}% (goal: under 1%);"
        f" raw {kilo(worst['total'])} kB vs {worst['material'] / 1e6:.2f} MB"
        f" = {100 * worst['share']:.3f}%"
    )
    print(f"load average at end: {load()}")
    if args.json:
        report = {"questions": len(files), "indexes": sizes, "queries": rows}
        args.json.write_text(json.dumps(report, indent=2, ensure_ascii=False), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
