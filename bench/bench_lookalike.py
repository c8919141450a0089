"""Bench: a bank of look-alike (templated) questions, where every prompt shares nearly all
its words with the others (``make_bank.py --lookalike``).

    python bench/bench_lookalike.py [--questions 3000] [--large] [--runs 1]
        [--work /tmp/qbank-lookalike] [--skip-build]

On one such bank in three locales (3,000 questions, or 30,000 with ``--large``) it prints:

- (a) ``qbank validate`` against (b) a bare ``yaml.CSafeLoader`` parse of the same files
  (wall time, CPU, peak memory; goal: a/b at most 2);
- the lines ``qbank validate`` prints against the number of question files (goal: at most
  one line per file: near-duplicates are grouped, never one line per pair);
- (c) ``mkdocs build`` of the qbank site against (d) plain Material on the same questions
  (the projects and the measuring are ``run.py``'s; goal: c/d at most 1).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_validate import PARSE_ONLY  # noqa: E402
from make_bank import make_bank  # noqa: E402
from run import BIN, _row, measure, median_of, run_mkdocs, write_plain, write_qbank  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=3000)
    parser.add_argument("--large", action="store_true", help="30,000 questions")
    parser.add_argument("--runs", type=int, default=1)
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
    figures = {"validate": median_of(args.runs, lambda _: measure(validate, work))}
    print(_row("(a) qbank validate", figures["validate"]), flush=True)
    parse = [sys.executable, "-c", PARSE_ONLY, str(content)]
    figures["parse"] = median_of(args.runs, lambda _: measure(parse, work))
    print(_row("(b) parse only (yaml.CSafeLoader)", figures["parse"]), flush=True)
    shown = subprocess.run(validate, capture_output=True, text=True, check=False)
    lines = shown.stdout.splitlines()
    warned = {line.split(":", 1)[0] for line in lines if ": warning: " in line}
    ratio = figures["validate"]["seconds"] / figures["parse"]["seconds"]
    print(f"  ratio a/b (validate / parse only):  {ratio:.2f} (goal <= 2)")
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
    baseline = work / f"plain-{questions}"
    write_plain(content, baseline, False)
    figures["plain"] = median_of(args.runs, lambda _: run_mkdocs(baseline))
    print(_row("(d) plain Material + its search", figures["plain"]), flush=True)
    c, d = figures["qbank"]["seconds"], figures["plain"]["seconds"]
    print(f"  ratio c/d (qbank / plain Material): {c / d:.2f} (goal <= 1)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
