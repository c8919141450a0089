"""Bench: a bank of look-alike (templated) questions, where every prompt shares nearly all
its words with the others (``make_bank.py --lookalike``).

    python bench/bench_lookalike.py [--questions 3000] [--large] [--runs 1]
        [--validate-runs 7] [--work /tmp/qbank-lookalike] [--skip-build]

On one such bank in three locales (3,000 questions, or 30,000 with ``--large``) it prints:

- (a) ``qbank validate`` against (b) a bare ``yaml.CSafeLoader`` parse of the same files
  (wall time, CPU, peak memory, medians of ``--validate-runs`` alternating runs; goal: a/b
  at most 2). Both are whole processes, start-up included: Python and PyYAML for (b);
  for (a) also click, pydantic and its models, numpy (qbank's modules compiled beforehand,
  as in an installed package). (a0) and (b0) are the same commands
  on the catalog alone, so (a-a0)/(b-b0) compares the work on the question files (numpy,
  imported for the first prompt, counts there). Below 10,000 files validate runs in one
  process, so on a free core its wall time is about its CPU time; on a busy machine the
  wall times measure the load and the CPU ratio is the figure to judge by;
- the lines ``qbank validate`` prints against the number of question files (goal: at most
  one line per file: near-duplicates are grouped, never one line per pair);
- (c) ``mkdocs build`` of the qbank site against (d) plain Material on the same questions,
  with qbank's theme features, a build per locale, two at a time (the projects and the
  measuring are ``run.py``'s; goal: c/d at most 1).

Each ratio is printed for wall time and for CPU time (on a busy machine the wall times
mostly measure the load).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_validate import PARSE_ONLY  # noqa: E402
from make_bank import make_bank  # noqa: E402
from run import (  # noqa: E402
    BIN,
    _row,
    build_plain,
    measure,
    median_of,
    page_features,
    run_mkdocs,
    write_plain,
    write_qbank,
)


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=3000)
    parser.add_argument("--large", action="store_true", help="30,000 questions")
    parser.add_argument("--runs", type=int, default=1, help="of each build")
    parser.add_argument(
        "--validate-runs", type=int, default=7, help="of (a) and (b), alternating (medians)"
    )
    parser.add_argument("--work", type=Path, default=Path("/tmp/qbank-lookalike"))
    parser.add_argument("--skip-build", action="store_true", help="leave out (c) and (d)")
    args = parser.parse_args(argv)
    questions = 30_000 if args.large else args.questions
    work: Path = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    content = work / f"bank-{questions}"
    stamp = content / ".bench-stamp"
    if not stamp.is_file():
        make_bank(content, questions, lookalike=True)
        stamp.write_text("ok")
    files = sum(1 for _ in content.glob("*/*/*.yaml"))
    print(f"look-alike bank: {files} questions in en, tr, zh ({content}); runs: {args.runs}")

    validate = [str(BIN / "qbank"), "validate", str(content)]
    parse = [sys.executable, "-c", PARSE_ONLY, str(content)]
    # The same two commands on the catalog alone: their start-up (interpreter, imports).
    alone = work / "catalog-alone"
    alone.mkdir(exist_ok=True)
    shutil.copyfile(content / "catalog.yaml", alone / "catalog.yaml")
    commands = {
        "validate": validate,
        "parse": parse,
        "validate0": [*validate[:-1], str(alone)],
        "parse0": [*parse[:-1], str(alone)],
    }
    # qbank's modules compiled once, as pip compiles an installed package's: where
    # PYTHONDONTWRITEBYTECODE is set, an editable install compiles them again in every run
    # (CPU that (a) would count and an installed qbank never pays). The cache stays in the
    # work directory, not in the source tree.
    compiled = {"PYTHONDONTWRITEBYTECODE": "", "PYTHONPYCACHEPREFIX": str(work / "pycache")}
    measure(commands["validate"], work, compiled)
    # All of them one after the other, --validate-runs times: they see about the same load.
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in commands}
    for n in range(args.validate_runs):
        for name, command in commands.items():
            runs[name].append(measure(command, work, compiled))
            print(_row(f"  run {n + 1} {name}", runs[name][-1]), flush=True)
    figures = {name: median_of(len(rows), rows.__getitem__) for name, rows in runs.items()}
    print(_row("(a) qbank validate", figures["validate"]), flush=True)
    print(_row("(b) parse only (yaml.CSafeLoader)", figures["parse"]), flush=True)
    print(_row("(a0) qbank validate, catalog alone", figures["validate0"]), flush=True)
    print(_row("(b0) parse only, catalog alone", figures["parse0"]), flush=True)
    shown = subprocess.run(validate, capture_output=True, text=True, check=False)
    lines = shown.stdout.splitlines()
    warned = {line.split(":", 1)[0] for line in lines if ": warning: " in line}
    _ratio("a/b (validate / parse only)", figures["validate"], figures["parse"], 2)
    files_only = {
        name: {k: figures[name][k] - figures[f"{name}0"][k] for k in ("seconds", "cpu")}
        for name in ("validate", "parse")
    }
    _ratio("(a-a0)/(b-b0) (without start-up)", files_only["validate"], files_only["parse"], 2)
    print(
        f"  validate output: {len(lines)} lines for {files} question files"
        f" ({len(lines) / files:.3f} a file, goal <= 1); {len(warned)} files warned;"
        f" last line: {shown.stderr.strip().splitlines()[-1] if shown.stderr.strip() else ''}"
    )
    if args.skip_build:
        return 0
    project = work / f"qbank-{questions}"
    write_qbank(content, project)
    figures["qbank"] = median_of(args.runs, lambda _: run_mkdocs(project))
    print(_row("(c) qbank build, 3 locales + search", figures["qbank"]), flush=True)
    # The baseline as in run.py: qbank's theme features, a build per locale, two at once.
    first = min(content.glob("*/*/*.yaml"))
    page = f"en/{first.parent.parent.name}/{first.parent.name}/index.html"
    features = page_features(project / "site", page)
    baseline = work / f"plain-{questions}"
    configs = write_plain(content, baseline, False, features)
    figures["plain"] = median_of(args.runs, lambda _: build_plain(baseline, configs, 2))
    print(_row("(d) plain Material, a build per locale, 2 at once", figures["plain"]), flush=True)
    _ratio("c/d (qbank / plain Material)", figures["qbank"], figures["plain"], 1)
    return 0


def _ratio(name: str, mine: dict[str, float], theirs: dict[str, float], goal: float) -> None:
    wall, cpu = mine["seconds"] / theirs["seconds"], mine["cpu"] / theirs["cpu"]
    print(f"  ratio {name}: {wall:.2f} wall time, {cpu:.2f} CPU time (goal <= {goal:g})")


if __name__ == "__main__":
    raise SystemExit(main())
