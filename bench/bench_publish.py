"""Publish bench: ``qbank build``'s tree published by MkDocs, ProperDocs and Zensical.

    python bench/bench_publish.py [--questions 3000] [--runs 1] [--work /tmp/qbank-bench]
        [--preview] [--preview-only]

Each figure is wall time, CPU time and peak memory of the process tree (``run.measure``):

- ``qbank build`` writing the tree from nothing;
- ``qbank build`` again with nothing changed (only files whose bytes changed are written);
- ``mkdocs build``, ``properdocs build``, ``zensical build --clean`` of that tree (no plugin).

``bench/run.py`` measures the same (``publisher_figures``) next to the qbank plugin and plain
Material on the same questions and prints the ratios; this script is the publishers alone.

``--preview`` also times edit → preview once per edit: ``qbank build --watch`` and
``zensical serve`` run, a question's English prompt is rewritten, and the served topic page
is polled until it shows the edit.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from make_bank import make_bank  # noqa: E402
from run import (  # noqa: E402
    BIN,
    _edited,
    _free_port,
    _get,
    _row,
    measure,
    median_of,
    until_served,
    write_qbank,
)

ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
# Each publisher's build of the tree: its name in the figures, its command (run in the tree).
PUBLISHERS = {
    "mkdocs": ["mkdocs", "build", "-q", "-f", "mkdocs.yml"],
    "properdocs": ["properdocs", "build", "-q", "-f", "mkdocs.yml"],
    "zensical": ["zensical", "build", "--clean", "-f", "mkdocs.yml"],
}


def write_tree(content: Path, project: Path) -> list[str]:
    """A project folder with an mkdocs.yml naming the bank; the ``qbank build`` command."""
    write_qbank(content, project)
    return [
        str(BIN / "qbank"),
        "build",
        "--out",
        str(project / "tree"),
        "--content",
        str(content),
    ]


def timed(runs: int, command: list[str], cwd: Path) -> dict[str, float]:
    """Medians of ``runs`` runs of ``command`` in ``cwd``."""
    return median_of(runs, lambda _: measure(command, cwd))


_REWRITE = re.compile(r"file\(s\) written, \d+ removed in ([\d.]+) s")


def _wait(what: str, ready: Callable[[], bool], processes: list[subprocess.Popen[bytes]]) -> None:
    """Wait until ``ready()``, saying so every 30 seconds; stop if a process ended."""
    started = last = time.monotonic()
    while not ready():
        if any(process.poll() is not None for process in processes):
            raise SystemExit(f"a process ended while waiting for {what}")
        if time.monotonic() - last > 30:
            last = time.monotonic()
            print(f"  … waiting for {what} ({last - started:.0f} s)", flush=True)
        time.sleep(0.5)
    print(f"  {what}: after {time.monotonic() - started:.1f} s", flush=True)


def preview(project: Path, content: Path, edits: int) -> list[tuple[float, float]]:
    """Per edit: seconds from rewriting a question file to ``zensical serve`` serving the
    edit, and of those the seconds ``qbank build --watch`` took to rewrite the tree (from its
    log); the rest is Zensical noticing and rebuilding, and the page's polling (50 ms)."""
    tree = project / "tree"
    port = _free_port()
    watch_log, serve_log = project / "preview-watch.log", project / "preview-serve.log"
    files = sorted(content.glob("*/*/*.yaml"))
    target = files[len(files) // 2]
    page = f"/en/{target.parent.parent.name}/{target.parent.name}/"
    with watch_log.open("wb") as out:
        watch = subprocess.Popen(
            [*write_tree(content, project), "--watch"], cwd=project, stdout=out, stderr=out, env=ENV
        )
    with serve_log.open("wb") as out:
        serve = subprocess.Popen(
            [str(BIN / "zensical"), "serve", "-a", f"127.0.0.1:{port}", "-f", "mkdocs.yml"],
            cwd=tree,
            stdout=out,
            stderr=out,
            env=ENV,
        )

    def rewrites() -> list[float]:
        text = watch_log.read_text("utf-8", errors="replace")
        return [float(seconds) for seconds in _REWRITE.findall(text)]

    times: list[tuple[float, float]] = []
    original = target.read_text("utf-8")
    try:
        print(f"  started qbank build --watch and zensical serve (logs: {project})", flush=True)
        ready = lambda: "watching " in watch_log.read_text("utf-8", errors="replace")  # noqa: E731
        _wait("qbank build --watch watching", ready, [watch, serve])
        _wait("zensical serve serving the page", lambda: _get(port, page) is not None, [serve])
        time.sleep(5.0)  # Zensical's first look at the tree settles
        for n in range(edits):
            marker = f"Publishedit{n}x{os.getpid()}"
            time.sleep(2.0)
            done = len(rewrites())
            start = time.perf_counter()
            target.write_text(_edited(original, marker, "one locale"), "utf-8")
            seconds = until_served(port, page, marker, start, poll=0.05)
            found = rewrites()[done:]
            times.append((seconds, sum(found)))
            print(
                f"  edit {n + 1}: {seconds:.2f} s, qbank's rewrite {sum(found):.2f} s", flush=True
            )
    finally:
        target.write_text(original, "utf-8")
        for process in (serve, watch):
            process.terminate()
            process.wait(30)
    return times


def print_preview(figures: list[tuple[float, float]]) -> None:
    seconds = [total for total, _ in figures]
    rewrite = [own for _, own in figures]
    print(
        f"  edit → preview (qbank build --watch + zensical serve): median "
        f"{statistics.median(seconds):.2f} s ({', '.join(f'{t:.2f}' for t in seconds)}); "
        f"of which qbank's rewrite: median {statistics.median(rewrite):.2f} s",
        flush=True,
    )


def publisher_figures(
    content: Path, work: Path, runs: int, again: bool = False
) -> dict[str, dict[str, float]]:
    """Medians of ``runs`` runs of ``qbank build`` writing the tree of ``content`` from
    nothing (``"tree"``), with ``again`` of the same with nothing changed (``"tree again"``),
    and of each publisher's build of that tree (``PUBLISHERS``)."""
    project = work / f"publish-{content.name.removeprefix('bank-')}"
    tree = project / "tree"
    command = write_tree(content, project)

    def cold(_: int) -> dict[str, float]:
        shutil.rmtree(tree, ignore_errors=True)
        return measure(command, project)

    figures = {"tree": median_of(runs, cold)}
    if again:
        figures["tree again"] = median_of(runs, lambda _: measure(command, project))
    for name, (tool, *rest) in PUBLISHERS.items():
        figures[name] = timed(runs, [str(BIN / tool), *rest], tree)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--work", type=Path, default=Path("/tmp/qbank-bench"))
    parser.add_argument("--preview", action="store_true", help="time edit → zensical serve")
    parser.add_argument("--edits", type=int, default=3)
    parser.add_argument("--preview-only", action="store_true", help="only edit → preview")
    args = parser.parse_args(argv)
    work: Path = args.work.resolve()
    content = work / f"bank-{args.questions}"
    if not (content / ".bench-stamp").is_file():
        make_bank(content, args.questions)
        (content / ".bench-stamp").write_text("ok")
    print(f"bank: {args.questions} questions in en, tr, zh ({content}); runs: {args.runs}")
    project = work / f"publish-{args.questions}"
    if args.preview_only:
        print("writing the tree the server starts from (qbank build) …", flush=True)
        built = measure(write_tree(content, project), project)
        print(_row("qbank build (the tree)", built), flush=True)
        print_preview(preview(project, content, args.edits))
        return 0
    labels = {
        "tree": "qbank build (tree from nothing)",
        "tree again": "qbank build (nothing changed)",
    }
    for name, figures in publisher_figures(content, work, args.runs, again=True).items():
        print(_row(labels.get(name, f"{name} build (tree, no plugin)"), figures), flush=True)
    if args.preview:
        print_preview(preview(project, content, args.edits))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
