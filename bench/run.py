"""Build bench: qbank against plain Material and mkdocs-quiz on the same synthetic bank.

    python bench/run.py [--questions 3000] [--runs 3] [--work /tmp/qbank-bench]
        [--skip-quiz] [--skip-serve] [--skip-publishers] [--one-nav] [--baseline-jobs 2]
        [--search-bench] [--serve-only]

(`make bench` runs it with the defaults.) In one run, on one bank written by
``bench/make_bank.py`` (three locales), it measures wall time, CPU time (user + system of the
whole process tree: every child and grandchild that was waited for, so qbank's second
process counts) and peak memory (the summed proportional set size of the process tree,
sampled from /proc every 50 ms: pages that forked processes share count once) of:

a. ``qbank validate`` of the bank;
b. parse only: every question file through ``yaml.CSafeLoader``, nothing else;
c. the full qbank site: ``mkdocs build`` with the qbank plugin, every locale, its search index;
d. the baseline: the same questions as hand-written Material Markdown (a page per topic per
   locale, ``## `` heading per question, options as a list, ``??? success "Answer"`` with the
   key and the explanation, nav grouped field → specialization → topic) built as qbank
   builds them: one ``mkdocs build`` per locale, each with that locale's nav, language and
   search index, ``--baseline-jobs`` (2, as qbank's two processes) at a time; with exactly
   the theme features qbank's build of the same bank used (read from its pages'
   ``__config``: qbank leaves out ``navigation.sections`` from 60 topics on), qbank's
   default palette, the language switcher and Material's own search;
d1. (``--one-nav``) the baseline as one ``mkdocs build`` with every locale in one nav;
e. mkdocs-quiz (the ``bench`` extra) on the same questions (``<quiz>`` blocks; open questions
   as in d), built as d;
f. ``qbank build`` writing the publisher-neutral tree from nothing, and g. each publisher's
   build of that tree without the plugin: ``mkdocs build``, ``properdocs build``,
   ``zensical build`` (``bench_publish.publisher_figures``; ``--skip-publishers`` leaves
   them out).

It prints the medians of ``--runs`` runs and the ratios c/d, c/e and a/b, each of wall time
and of CPU time; per publisher (f+g)/d, the tree and its publication against plain Material,
in wall time, CPU time and peak memory (the larger of the two steps'); the weight of a
75-question topic page (HTML bytes plus every file its
``<link>``/``<script>`` tags load that Material does not ship, found by parsing the page) in
qbank, plain Material and mkdocs-quiz; the search bytes on disk; whether two qbank builds
are byte-identical; and the edit → preview time under ``mkdocs serve`` (a question file is
rewritten, the topic page is polled over HTTP until it shows the change). ``--search-bench``
also runs ``bench/bench_search.py`` (bytes one query downloads) on the same bank and gives
each query's bytes as a share of the plain site's (d) index of that locale.
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import hashlib
import http.client
import json
import os
import posixpath
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

import material
import uuid6
import yaml

from qbank.site.theme import DEFAULT_PALETTE
from qbank.tools.hosts import site_weight

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
# The baseline's Markdown extensions: what its pages need (collapsible answers, fenced code
# highlighted by Pygments as qbank's is) and what qbank's build adds (tables, toc permalinks).
EXTENSIONS = [
    "admonition",
    "pymdownx.details",
    "pymdownx.superfences",
    "attr_list",
    "tables",
    {"toc": {"permalink": True}},
]
# Every file Material ships in its theme folder, by path relative to a site's root.
MATERIAL_THEME = Path(material.__file__).resolve().parent / "templates"

sys.path.insert(0, str(HERE))
from make_bank import make_bank  # noqa: E402

# -- measuring ---------------------------------------------------------------------------------


def _tree_memory(root: int) -> int:
    """Memory of ``root`` and its descendants (from /proc): the sum of their proportional
    set sizes (Pss: a page shared by n processes counts 1/n in each, so forked processes that
    share memory copy-on-write are not counted twice), or of their resident sizes where
    ``smaps_rollup`` is unavailable."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text(encoding="ascii", errors="replace")
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            lines = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
            total += 1024 * sum(int(line.split()[1]) for line in lines if line.startswith("Pss:"))
        except (OSError, ValueError):
            try:
                pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
                total += pages * os.sysconf("SC_PAGE_SIZE")
            except (OSError, ValueError, IndexError):
                continue
    return total


def measure(
    command: list[str],
    cwd: Path,
    env: dict[str, str] | None = None,
    log: list[str] | None = None,
) -> dict[str, float]:
    """Run ``command``; its wall seconds, CPU seconds (user + system of the whole tree) and
    peak memory (MiB, ``_tree_memory``); its output appended to ``log``."""
    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    process = subprocess.Popen(
        command,
        cwd=cwd,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_memory(process.pid))
            done.wait(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    output, _ = process.communicate()
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    done.set()
    sampler.join()
    if log is not None:
        log.append(output.decode(errors="replace"))
    if process.returncode != 0:
        tail = output.decode(errors="replace")[-3000:]
        raise SystemExit(f"failed ({process.returncode}): {' '.join(command)}\n{tail}")
    return {"seconds": seconds, "cpu": cpu, "mib": peak / 2**20}


def median_of(runs: int, step: Callable[[int], dict[str, float]]) -> dict[str, float]:
    """Medians of each figure over ``runs`` calls of ``step``."""
    results = [step(n) for n in range(runs)]
    return {key: statistics.median(r[key] for r in results) for key in results[0]}


# -- the bank as plain Markdown ----------------------------------------------------------------


def read_bank(content: Path) -> tuple[dict[str, Any], list[tuple[str, str, dict[str, Any]]]]:
    """The catalog and every question as (field, topic, data), in file order."""
    catalog = yaml.load((content / "catalog.yaml").read_text("utf-8"), Loader=yaml.CSafeLoader)
    questions = []
    for path in sorted(content.glob("*/*/*.yaml")):
        data = yaml.load(path.read_text("utf-8"), Loader=yaml.CSafeLoader)
        questions.append((path.parent.parent.name, path.parent.name, data))
    return catalog, questions


def _indent(text: str, prefix: str = "    ") -> str:
    return "".join(prefix + line if line.strip() else line for line in text.splitlines(True))


def plain_question(q: dict[str, Any], locale: str, quiz: bool) -> str:
    """One question in hand-written Material Markdown (or a mkdocs-quiz block)."""
    prompt = q["prompt"][locale].strip()
    title = " ".join(prompt.split("\n", 1)[0].split()[:10])
    parts = [f"## {title}\n"]
    options = q.get("options")
    if options and quiz:
        answer = q["answer"] if isinstance(q["answer"], list) else [q["answer"]]
        lines = [f"- [{'x' if k in answer else ' '}] {v[locale]}" for k, v in options.items()]
        explanation = q.get("explanation", {}).get(locale, "").strip()
        parts.append(f"<quiz>\n{prompt}\n\n" + "\n".join(lines) + f"\n\n{explanation}\n</quiz>\n")
        return "\n".join(parts)
    parts.append(prompt + "\n")
    if options:
        answer = q["answer"] if isinstance(q["answer"], list) else [q["answer"]]
        parts.append("\n".join(f"- **{k}.** {v[locale]}" for k, v in options.items()) + "\n")
        body = f"**{', '.join(answer)}**\n\n" + q.get("explanation", {}).get(locale, "")
    else:
        body = (q.get("model_answer") or q.get("assesses") or {}).get(locale, "")
    parts.append('??? success "Answer"\n\n' + _indent(body.strip() + "\n"))
    return "\n".join(parts)


def write_plain(
    content: Path, project: Path, quiz: bool, features: list[str], one_nav: bool = False
) -> list[str]:
    """A Material project holding the bank as Markdown pages (a page per topic per locale),
    with qbank's theme ``features``, palette and language switcher; the names of its config
    files, one per locale (``<locale>.yml``: docs ``docs/<locale>``, site ``site/<locale>``,
    that locale's nav and language), or with ``one_nav`` a single ``mkdocs.yml`` whose nav
    holds every locale."""
    catalog, questions = read_bank(content)
    if project.exists():
        shutil.rmtree(project)
    docs = project / "docs"
    by_topic: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for field_key, topic_key, q in questions:
        by_topic.setdefault((field_key, topic_key), []).append(q)
    locales: list[str] = catalog["locales"]
    navs: dict[str, list[Any]] = {}
    for locale in locales:
        # Page paths relative to the locale's own docs folder.
        locale_nav: list[Any] = ["index.md"]
        (docs / locale).mkdir(parents=True)
        (docs / locale / "index.md").write_text(f"# {catalog['title'][locale]}\n", "utf-8")
        for field_key, field in catalog["fields"].items():
            field_nav: list[Any] = []
            for spec in field["specializations"].values():
                spec_nav = []
                for topic_key, topic in spec["topics"].items():
                    page = f"{field_key}/{topic_key}/index.md"
                    body = [f"# {topic['name'][locale]}\n"]
                    for q in by_topic.get((field_key, topic_key), []):
                        if locale in q["prompt"]:
                            body.append(plain_question(q, locale, quiz))
                    (docs / locale / page).parent.mkdir(parents=True, exist_ok=True)
                    (docs / locale / page).write_text("\n".join(body), "utf-8")
                    spec_nav.append({topic["name"][locale]: page})
                field_nav.append({spec["name"][locale]: spec_nav})
            locale_nav.append({field["name"][locale]: field_nav})
        navs[locale] = locale_nav

    def config(language: str, nav: list[Any], where: str) -> dict[str, Any]:
        return {
            "site_name": "Plain bank",
            "site_url": f"https://example.org/{where}",
            "docs_dir": f"docs/{where}".rstrip("/"),
            "site_dir": f"site/{where}".rstrip("/"),
            "theme": {
                "name": "material",
                "font": False,
                "language": language,
                "features": features,
                "palette": DEFAULT_PALETTE,
            },
            "extra": {
                "alternate": [{"name": loc, "link": f"/{loc}/", "lang": loc} for loc in locales]
            },
            "plugins": ["search"] + (["mkdocs_quiz"] if quiz else []),
            "markdown_extensions": EXTENSIONS,
            "nav": nav,
        }

    configs = {}
    if one_nav:
        nav = [{loc: [_under(loc, item) for item in navs[loc]]} for loc in locales]
        configs["mkdocs.yml"] = config(locales[0], nav, "")
    else:
        for locale in locales:
            configs[f"{locale}.yml"] = config(locale, navs[locale], f"{locale}/")
    for name, settings in configs.items():
        (project / name).write_text(yaml.safe_dump(settings, allow_unicode=True), "utf-8")
    return list(configs)


def _under(locale: str, item: Any) -> Any:
    """A nav item (a page path, or a titled list of items) with its pages under ``locale/``."""
    if isinstance(item, str):
        return f"{locale}/{item}"
    return {title: [_under(locale, i) for i in sub] if isinstance(sub, list) else
            _under(locale, sub) for title, sub in item.items()}  # fmt: skip


def write_qbank(content: Path, project: Path, **settings: Any) -> None:
    """A project building ``content`` through the qbank plugin (its defaults, or the plugin
    ``settings`` given)."""
    (project / "docs").mkdir(parents=True, exist_ok=True)
    options = {"content_dir": os.path.relpath(content, project), **settings}
    config = {
        "site_name": "qbank bench",
        "site_url": "https://example.org/",
        "docs_dir": "docs",
        "theme": {"name": "material"},
        "plugins": [{"qbank": options}],
    }
    (project / "mkdocs.yml").write_text(yaml.safe_dump(config), "utf-8")


# -- figures -----------------------------------------------------------------------------------


def tree_digest(site: Path) -> dict[str, str]:
    """sha256 of every file of a built site, by relative path."""
    return {
        p.relative_to(site).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(site.rglob("*"))
        if p.is_file()
    }


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) if folder.is_dir() else 0


class _Loads(HTMLParser):
    """The URLs a page's ``<script src>`` and ``<link>`` tags make the browser load."""

    LOADED = frozenset(
        {"stylesheet", "icon", "preload", "modulepreload", "manifest", "apple-touch-icon"}
    )

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "script" and found.get("src"):
            self.urls.append(found["src"] or "")
        elif tag == "link" and set((found.get("rel") or "").lower().split()) & self.LOADED:
            self.urls.append(found.get("href") or "")


def own_assets(root: Path, page: str) -> dict[str, int]:
    """Every file the built ``page`` (relative to its site's ``root``) loads through its
    ``<link>``/``<script>`` tags that Material does not ship in its theme, with its bytes.
    A URL outside the site (a CDN) or to a missing file stops the bench."""
    parser = _Loads()
    parser.feed((root / page).read_text("utf-8"))
    found: dict[str, int] = {}
    for url in parser.urls:
        parts = urlsplit(url)
        if parts.scheme or parts.netloc:
            raise SystemExit(f"{root / page} loads {url} from outside the site")
        path = posixpath.normpath(posixpath.join(posixpath.dirname(page), parts.path))
        if (MATERIAL_THEME / path).is_file():
            continue
        if not (root / path).is_file():
            raise SystemExit(f"{root / page} loads {url}, which is not in the site")
        found[path] = (root / path).stat().st_size
    return found


def page_features(root: Path, page: str) -> list[str]:
    """The theme features a built Material page was built with (its ``__config``)."""
    html = (root / page).read_text("utf-8")
    match = re.search(r'<script id="__config" type="application/json">(.*?)</script>', html, re.S)
    if match is None:
        raise SystemExit(f"{root / page} has no Material __config")
    return list(json.loads(match.group(1))["features"])


def weights(work: Path, quiz: bool, jobs: int) -> dict[str, dict[str, Any]]:
    """The weight of one 75-question topic page in each kind of site: its HTML bytes and
    every own (not Material's) file it loads."""
    content = work / "weight-bank"
    make_bank(content, 75, 1, 1, 1, ("en", "tr", "zh"), 3)
    write_qbank(content, work / "weight-qbank")
    run_mkdocs(work / "weight-qbank")
    page = "field-01/topic-01/index.html"
    root = work / "weight-qbank/site"
    result = {
        "qbank": {"html": (root / "en" / page).stat().st_size,
                  "assets": own_assets(root, f"en/{page}")}
    }  # fmt: skip
    features = page_features(root, f"en/{page}")
    kinds = [("plain", False)] + ([("quiz", True)] if quiz else [])
    for kind, is_quiz in kinds:
        project = work / f"weight-{kind}"
        build_plain(project, write_plain(content, project, is_quiz, features), jobs)
        root = project / "site" / "en"
        result[kind] = {"html": (root / page).stat().st_size, "assets": own_assets(root, page)}
    return result


def run_mkdocs(project: Path, log: list[str] | None = None) -> dict[str, float]:
    """``mkdocs build`` in ``project``: quiet, or with ``log`` its INFO lines appended there."""
    quiet = [] if log is not None else ["-q"]
    return measure([str(BIN / "mkdocs"), "build", *quiet], project, log=log)


# Builds the config files given after the mkdocs command and the number of builds at a time.
_BUILDS = """\
import subprocess, sys
from concurrent.futures import ThreadPoolExecutor
mkdocs, jobs, *configs = sys.argv[1:]
def build(config):
    return subprocess.run([mkdocs, "build", "-q", "-f", config], capture_output=True)
with ThreadPoolExecutor(int(jobs)) as pool:
    failed = [d for d in pool.map(build, configs) if d.returncode]
for done in failed:
    sys.stdout.buffer.write(done.stdout + done.stderr)
sys.exit(1 if failed else 0)
"""


def build_plain(project: Path, configs: list[str], jobs: int) -> dict[str, float]:
    """Build a plain project's config files (one per locale), ``jobs`` builds at a time, as
    one measured process tree."""
    return measure([sys.executable, "-c", _BUILDS, str(BIN / "mkdocs"), str(jobs), *configs],
                   project)  # fmt: skip


def gzip_bytes(path: Path) -> int:
    """The size of ``path`` compressed with gzip -6 (as a host serves JSON)."""
    return len(gzip.compress(path.read_bytes(), 6))


def search_shares(search: dict[str, Any], plain_site: Path) -> list[dict[str, Any]]:
    """Each query of ``bench_search.py``'s report as a share of the plain site's index of its
    locale (``plain_site/<locale>/search/search_index.json``), raw against raw and gzip
    against gzip."""
    indexes: dict[str, tuple[int, int]] = {}
    rows = []
    for query in search["queries"]:
        locale = query["locale"]
        if locale not in indexes:
            index = plain_site / locale / "search" / "search_index.json"
            indexes[locale] = (index.stat().st_size, gzip_bytes(index))
        raw, packed = indexes[locale]
        rows.append({
            "locale": locale, "query": query["query"], "results": query["results"],
            "total": query["total"], "total_gzip": query["total_gzip"],
            "plain": raw, "plain_gzip": packed,
            "share": query["total"] / raw, "share_gzip": query["total_gzip"] / packed,
        })  # fmt: skip
    return rows


# -- edit → preview ----------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def until_served(port: int, page: str, marker: str, start: float, poll: float = 0.02) -> float:
    """Seconds from ``start`` (``time.perf_counter``) until the page served at ``port``
    shows ``marker``."""
    while True:
        body = _get(port, page)
        if body is not None and marker in body:
            return time.perf_counter() - start
        if time.perf_counter() - start > 600:
            raise SystemExit("the served page never showed the edit")
        time.sleep(poll)


def quiz_installed() -> bool:
    """Whether mkdocs-quiz (the ``bench`` extra) can be built; says so when it cannot."""
    try:
        import mkdocs_quiz  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        print("mkdocs-quiz is not installed (pip install -e '.[bench]'): leaving it out")
        return False
    return True


def _get(port: int, path: str) -> str | None:
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read().decode("utf-8", errors="replace")
        return body if response.status == 200 else None
    except OSError:
        return None


EDIT_KINDS = ("one locale", "every locale", "new question")


def _edited(original: str, marker: str, kind: str) -> str:
    """The question file with ``marker`` at the start of its English prompt (``one locale``)
    or of the prompt in every locale (``every locale``: every locale's pages change); for a
    ``new question``, with a new id as well (written beside it: the topic gains a question,
    the search index of every locale is rebuilt in the background)."""
    locales = ("en",) if kind == "one locale" else ("en", "tr", "zh")
    text = original
    for locale in locales:
        text = text.replace(f"  {locale}: |\n    ", f"  {locale}: |\n    {marker} ", 1)
    if kind == "new question":
        text = re.sub(r"(?m)^id: .*$", f"id: {uuid6.uuid7()}", text, count=1)
    return text


def start_serve(project: Path, port: int, log: IO[bytes]) -> subprocess.Popen[bytes]:
    """``mkdocs serve`` of ``project`` on 127.0.0.1:``port``, its output into ``log``."""
    return subprocess.Popen(
        [str(BIN / "mkdocs"), "serve", "-a", f"127.0.0.1:{port}"],
        cwd=project,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def edit_preview(project: Path, content: Path, edits: int) -> dict[str, list[float]]:
    """Seconds from rewriting one question file to the served topic page showing it, for
    ``edits`` edits of each kind (``EDIT_KINDS``): first those of one locale's text, then
    those of every locale's."""
    port = _free_port()
    log = (project / "serve.log").open("wb")
    server = start_serve(project, port, log)
    files = sorted(content.glob("*/*/*.yaml"))
    times: dict[str, list[float]] = {kind: [] for kind in EDIT_KINDS}
    try:
        target = files[len(files) // 2]
        page = f"/en/{target.parent.parent.name}/{target.parent.name}/"
        deadline = time.monotonic() + 3600
        while _get(port, page) is None:
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit(f"mkdocs serve did not start; see {project / 'serve.log'}")
            time.sleep(0.5)
        original = target.read_text("utf-8")
        for kind in EDIT_KINDS:  # every edit of a kind changes only what that kind changes
            for n in range(edits):
                marker = f"Benchedit{EDIT_KINDS.index(kind)}x{n}x{os.getpid()}"
                text = _edited(original, marker, kind)
                time.sleep(2.0)  # let the previous rebuild's background writes settle
                written = target if kind != "new question" else target.with_name(f"b-{n}.yaml")
                start = time.perf_counter()
                written.write_text(text, "utf-8")
                times[kind].append(until_served(port, page, marker, start))
                if written != target:
                    written.unlink()
        target.write_text(original, "utf-8")
    finally:
        server.terminate()
        server.wait(30)
        log.close()
    return times


def print_edit_preview(times: dict[str, list[float]]) -> None:
    """Print the median and every edit → preview time of each kind of edit."""
    for kind, seconds in times.items():
        print(
            f"  edit → preview under mkdocs serve ({kind}): median "
            f"{statistics.median(seconds):.2f} s ({', '.join(f'{t:.2f}' for t in seconds)})",
            flush=True,
        )


# -- main --------------------------------------------------------------------------------------


def _row(name: str, figures: dict[str, float]) -> str:
    return (
        f"  {name:<52} {figures['seconds']:>9.2f} s wall {figures.get('cpu', 0):>9.2f} s CPU"
        f" {figures['mib']:>9.0f} MiB"
    )


def publishers(figures: dict[str, Any], content: Path, work: Path, runs: int) -> None:
    """Measure (f) ``qbank build``'s tree and (g) each publisher's build of it; print them and
    each (f+g)/d, the tree and its publication against plain Material (``figures["plain"]``):
    wall and CPU time summed, memory the peak of the two steps."""
    from bench_publish import publisher_figures  # (it imports this module)

    found = publisher_figures(content, work, runs)
    tree = found.pop("tree")
    figures["tree"] = tree
    print(_row("(f) qbank build, the tree from nothing", tree), flush=True)
    for name, step in found.items():
        figures[f"publisher {name}"] = step
        print(_row(f"(g) {name} build of the tree (no plugin)", step), flush=True)
    plain = figures["plain"]
    for name, step in found.items():
        wall = (tree["seconds"] + step["seconds"]) / plain["seconds"]
        cpu = (tree["cpu"] + step["cpu"]) / plain["cpu"]
        mib = max(tree["mib"], step["mib"]) / plain["mib"]
        figures[f"ratio (f+g)/d {name}"] = {"wall": wall, "cpu": cpu, "memory": mib}
        label = f"(f+g)/d (tree + {name} / plain)"
        print(f"  ratio {label:<36} {wall:5.2f} wall time, {cpu:5.2f} CPU time, {mib:5.2f} memory")


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", type=Path, default=Path("/tmp/qbank-bench"))
    parser.add_argument("--skip-quiz", action="store_true", help="leave out mkdocs-quiz (e)")
    parser.add_argument("--skip-serve", action="store_true", help="leave out edit → preview")
    parser.add_argument("--edits", type=int, default=3, help="edits timed under mkdocs serve")
    parser.add_argument(
        "--serve-only", action="store_true", help="time only edit → preview (no builds)"
    )
    parser.add_argument(
        "--one-nav", action="store_true", help="also time (d1): the baseline as one build"
    )
    parser.add_argument(
        "--baseline-jobs", type=int, default=2, help="locale builds of d and e run at a time"
    )
    parser.add_argument("--search-bench", action="store_true", help="also run bench_search.py")
    parser.add_argument(
        "--skip-publishers", action="store_true", help="leave out qbank build + publishers (f, g)"
    )
    parser.add_argument("--json", type=Path, help="also write the figures as JSON here")
    args = parser.parse_args(argv)
    work: Path = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    quiz = not args.skip_quiz and quiz_installed()
    content = work / f"bank-{args.questions}"
    stamp = content / ".bench-stamp"
    if not stamp.is_file():
        make_bank(content, args.questions)
        stamp.write_text("ok")
    print(f"bank: {args.questions} questions in en, tr, zh ({content}); runs: {args.runs}")
    figures: dict[str, Any] = {"questions": args.questions, "runs": args.runs}
    if args.serve_only:
        project = work / f"qbank-{args.questions}"
        write_qbank(content, project)
        print_edit_preview(edit_preview(project, content, args.edits))
        return 0

    figures["validate"] = median_of(
        args.runs, lambda _: measure([str(BIN / "qbank"), "validate", str(content)], work)
    )
    print(_row("(a) qbank validate", figures["validate"]), flush=True)
    parse = (
        "import sys, pathlib, yaml\n"
        "for p in sorted(pathlib.Path(sys.argv[1]).rglob('*.yaml')):\n"
        "    yaml.load(p.read_bytes(), Loader=yaml.CSafeLoader)\n"
    )
    figures["parse"] = median_of(
        args.runs, lambda _: measure([sys.executable, "-c", parse, str(content)], work)
    )
    print(_row("(b) parse only (yaml.CSafeLoader)", figures["parse"]), flush=True)

    project = work / f"qbank-{args.questions}"
    write_qbank(content, project)
    digests: list[dict[str, str]] = []

    def qbank_build(_: int) -> dict[str, float]:
        result = run_mkdocs(project)
        digests.append(tree_digest(project / "site"))
        return result

    figures["qbank"] = median_of(args.runs, qbank_build)
    print(_row("(c) qbank build, 3 locales + search", figures["qbank"]), flush=True)
    differing = sorted(
        path
        for path in set(digests[0]) | set(digests[-1])
        if digests[0].get(path) != digests[-1].get(path)
    )
    figures["identical"] = not differing
    figures["differing"] = differing[:20]

    # The baseline gets exactly the theme features qbank's build of this bank used.
    first = min(content.glob("*/*/*.yaml"))
    page = f"en/{first.parent.parent.name}/{first.parent.name}/index.html"
    features = page_features(project / "site", page)
    figures["features"] = features
    print(f"  theme features of qbank's build, given to d, d1 and e: {', '.join(features)}")
    jobs = args.baseline_jobs
    kinds = [("plain", False, False, f"(d) plain Material, a build per locale, {jobs} at once")]
    if args.one_nav:
        kinds.append(("one-nav", False, True, "(d1) plain Material, one build, one nav"))
    if quiz:
        kinds.append(("quiz", True, False, f"(e) mkdocs-quiz, a build per locale, {jobs} at once"))
    for kind, is_quiz, one_nav, label in kinds:
        baseline = work / f"{kind}-{args.questions}"
        configs = write_plain(content, baseline, is_quiz, features, one_nav)
        figures[kind] = median_of(
            args.runs,
            lambda _, b=baseline, c=configs: build_plain(b, c, 1 if len(c) == 1 else jobs),  # type: ignore[misc]
        )
        print(_row(label, figures[kind]), flush=True)

    def ratio(name: str, x: str, y: str) -> None:
        wall = figures[x]["seconds"] / figures[y]["seconds"]
        cpu = figures[x]["cpu"] / figures[y]["cpu"]
        figures[f"ratio {name}"] = {"wall": wall, "cpu": cpu}
        print(f"  ratio {name:<36} {wall:5.2f} wall time, {cpu:5.2f} CPU time")

    ratio("c/d (qbank / plain Material)", "qbank", "plain")
    if args.one_nav:
        ratio("c/d1 (qbank / plain, one nav)", "qbank", "one-nav")
        ratio("d/d1 (a build per locale / one)", "plain", "one-nav")
    if quiz:
        ratio("c/e (qbank / mkdocs-quiz)", "qbank", "quiz")
    ratio("a/b (validate / parse only)", "validate", "parse")
    if len(digests) < 2:
        figures["identical"] = None
        print("  two qbank builds byte-identical: not checked (one run)")
    else:
        print(f"  two qbank builds byte-identical: {'yes' if not differing else 'NO'}")
    for path in differing[:10]:
        print(f"    differs: {path}")
    if not args.skip_publishers:
        publishers(figures, content, work, args.runs)

    plain_site = work / f"plain-{args.questions}" / "site"
    search = {
        "qbank": sum(folder_bytes(f) for f in (project / "site").glob("*/api/search")),
        "plain": sum(f.stat().st_size for f in plain_site.glob("*/search/search_index.json")),
    }
    figures["search_bytes"] = search
    print(
        "  search index on disk, every locale: "
        + ", ".join(f"{k} {v / 1e6:.1f} MB" for k, v in search.items())
    )

    sites = {"qbank": project / "site", "plain": plain_site}
    figures["site"] = {kind: dataclasses.asdict(site_weight(site)) for kind, site in sites.items()}
    for kind, weight in figures["site"].items():
        print(
            f"  whole site, {kind:<5}: {weight['total'] / 1e6:7.1f} MB"
            f" in {weight['files']:,} files;"
            f" largest {weight['largest_path']} {weight['largest'] / 1e6:.1f} MB"
        )
    site_ratio = figures["site"]["qbank"]["total"] / figures["site"]["plain"]["total"]
    print(f"  ratio site bytes c/d {site_ratio:5.2f}")

    figures["weight"] = weights(work, quiz, jobs)
    plain_total = figures["weight"]["plain"]["html"] + sum(
        figures["weight"]["plain"]["assets"].values()
    )
    for kind, weight in figures["weight"].items():
        own = sum(weight["assets"].values())
        total = weight["html"] + own
        print(
            f"  75-question topic page, {kind:<5}: {weight['html'] / 1024:7.0f} KiB HTML"
            f" + {own / 1024:5.0f} KiB own assets = {total / 1024:5.0f} KiB"
            f" = {total / plain_total:.2f} x plain"
        )
        for path, size in sorted(weight["assets"].items()):
            print(f"      {path}: {size / 1024:.1f} KiB")

    if not args.skip_serve:
        figures["edit_preview"] = edit_preview(project, content, args.edits)
        print_edit_preview(figures["edit_preview"])
    if args.search_bench:
        out = work / "search.json"
        subprocess.run(
            [sys.executable, str(HERE / "bench_search.py"), "--questions", str(args.questions),
             "--work", str(work / f"search-{args.questions}"), "--json", str(out)],
            check=True,
        )  # fmt: skip
        figures["search_bench"] = json.loads(out.read_text("utf-8"))
        shares = search_shares(figures["search_bench"], plain_site)
        figures["search_shares"] = shares
        print("  one search query against the plain site's (d) index of its locale:")
        for row in shares:
            print(
                f"    {row['locale']} {row['query']!r}: {row['total'] / 1e3:.1f} kB raw"
                f" = {100 * row['share']:.3f}% of {row['plain'] / 1e6:.2f} MB;"
                f" {row['total_gzip'] / 1e3:.1f} kB gzip = {100 * row['share_gzip']:.3f}%"
                f" of {row['plain_gzip'] / 1e6:.2f} MB"
            )
        worst = max(shares, key=lambda row: row["share_gzip"])
        print(
            f"  worst query: {100 * worst['share_gzip']:.3f}% gzip,"
            f" {100 * max(row['share'] for row in shares):.3f}% raw (the largest raw share)"
        )
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
