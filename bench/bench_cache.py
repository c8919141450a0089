"""The persistent cache: a cold ``mkdocs build`` against a warm one after a typical pull
request, on one synthetic bank (three locales), against plain Material's full build.

    python bench/bench_cache.py [--questions 3000] [--work /tmp/qbank-bench-cache] [--skip-plain]

Measures, one run each (wall and CPU seconds of the process tree, ``run.measure``):
a. ``mkdocs build`` with ``cache: false``;
b. ``mkdocs build`` writing the cache from nothing (the cost of writing it: b/a);
c. ``mkdocs build`` with that cache after a pull request's edit: 10 question files changed,
   1 added, 1 removed, in different topics (c/a, and c/d);
d. plain Material's full build of the same questions (``run.write_plain``, a build per
   locale, two at a time, with the theme features of qbank's build);
and the cache's size on disk against the site's (the page cache's share), how many pages
b and c rendered through the theme and took from the page cache, and whether c's site is
byte-identical to a cold build of the edited bank.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import (  # noqa: E402  (bench/ is not a package)
    build_plain,
    page_features,
    run_mkdocs,
    tree_digest,
    write_plain,
    write_qbank,
)

CACHE = ".cache/qbank"


def pull_request(content: Path) -> None:
    """10 question files changed, 1 added, 1 removed, in different topics."""
    by_topic = sorted({p.parent for p in content.glob("*/*/*.yaml")})
    for n, topic in enumerate(by_topic[:12]):
        files = sorted(topic.glob("*.yaml"))
        if n < 10:
            data = yaml.safe_load(files[0].read_text("utf-8"))
            data["prompt"] = {loc: f"{text} Edited {n}." for loc, text in data["prompt"].items()}
            files[0].write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
        elif n == 10:
            data = yaml.safe_load(files[1].read_text("utf-8"))
            data["id"] = "01a05d13-8d21-739a-baa2-7dab67be9999"
            data["prompt"] = {loc: f"Added: {text}" for loc, text in data["prompt"].items()}
            (topic / "added-by-pr.yaml").write_text(
                yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8"
            )
        else:
            files[-1].unlink()


def show(label: str, figure: dict[str, float]) -> None:
    print(f"{label:26} {figure['seconds']:7.1f} s wall, {figure['cpu']:6.1f} s CPU", flush=True)


def pages(log: list[str]) -> str:
    """The page cache's counts in a build's INFO lines, every locale."""
    found = re.findall(r"pages built, (\d+) of (\d+) from the page cache", log[-1])
    kept, rendered = sum(int(k) for k, _ in found), sum(int(n) - int(k) for k, n in found)
    return f"   pages: {rendered} rendered, {kept} from the page cache"


def size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=3000)
    parser.add_argument("--work", type=Path, default=Path("/tmp/qbank-bench-cache"))
    parser.add_argument("--skip-plain", action="store_true")
    args = parser.parse_args(argv)
    work: Path = args.work
    shutil.rmtree(work, ignore_errors=True)
    content = work / "content"
    import subprocess

    subprocess.run(
        [sys.executable, str(HERE / "make_bank.py"), "--questions", str(args.questions), content],
        check=True,
        capture_output=True,
    )
    cold, warm = work / "cold", work / "warm"
    write_qbank(content, cold, cache=False)
    write_qbank(content, warm)
    log: list[str] = []
    figures = {"a": run_mkdocs(cold), "b": run_mkdocs(warm, log)}
    show("a. cold, no cache", figures["a"])
    show("b. cold, writing cache", figures["b"])
    print(pages(log))
    pull_request(content)
    figures["c"] = run_mkdocs(warm, log)
    show("c. warm, after the PR", figures["c"])
    print(pages(log))
    run_mkdocs(cold)
    identical = tree_digest(cold / "site") == tree_digest(warm / "site")
    print(f"   warm site byte-identical to a cold build of the edited bank: {identical}")
    cache_bytes, site_bytes = size(warm / CACHE), size(warm / "site")
    page_bytes = size(warm / CACHE / "pages")
    print(f"   cache {cache_bytes:,} bytes (pages {page_bytes:,}), site {site_bytes:,} bytes")
    print(f"   b/a CPU {figures['b']['cpu'] / figures['a']['cpu']:.3f}  (writing the cache)")
    print(f"   b/a {figures['b']['seconds'] / figures['a']['seconds']:.3f}  (writing the cache)")
    print(f"   c/a {figures['c']['seconds'] / figures['a']['seconds']:.3f}  (warm against cold)")
    if not args.skip_plain:
        first = min(content.glob("*/*/*.yaml"))
        page = f"en/{first.parent.parent.name}/{first.parent.name}/index.html"
        features = page_features(warm / "site", page)
        baseline = work / "plain"
        figures["d"] = build_plain(baseline, write_plain(content, baseline, False, features), 2)
        show("d. plain Material, full", figures["d"])
        print(f"   c/d {figures['c']['seconds'] / figures['d']['seconds']:.3f}  (goal: <= 0.15)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
