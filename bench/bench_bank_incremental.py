"""Edit → reload under ``mkdocs serve``: ``load_bank`` with a warm cache after one edit.

    python bench/bench_bank_incremental.py BANK [--runs 5] [--profile]

Loads the bank once with a ``FileCache`` (as the plugin keeps across rebuilds), then, for
each run, rewrites one question file's first prompt (a new word added, the file restored at
the end) and times ``load_bank(BANK, cache)``. Prints each run and the median, in seconds.
BANK is modified while the script runs: use a copy.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from qbank.bank.load import load_bank
from qbank.live.reload import BankCache


def _edit(path: Path, original: str, n: int) -> None:
    """The file with a word added to its first prompt line (a different word each run)."""
    lines = original.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("prompt:")) + 2
    lines[at] = lines[at] + f" zebra{n}"
    path.write_text("\n".join(lines), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bank", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    files = sorted(args.bank.glob("*/*/*.yaml"))
    cache: BankCache = BankCache()
    start = time.perf_counter()
    bank = load_bank(args.bank, cache)
    print(f"cold load: {time.perf_counter() - start:.2f} s, {len(bank.entries)} questions")
    times = []
    targets = [files[len(files) * k // (args.runs + 1)] for k in range(1, args.runs + 1)]
    for n, path in enumerate(targets):
        original = path.read_text("utf-8")
        try:
            _edit(path, original, n)
            profiler = cProfile.Profile() if args.profile else None
            start = time.perf_counter()
            if profiler:
                profiler.enable()
            load_bank(args.bank, cache)
            if profiler:
                profiler.disable()
            times.append(time.perf_counter() - start)
            if profiler:
                pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        finally:
            path.write_text(original, encoding="utf-8")
        print(f"run {n + 1}: {times[-1]:.3f} s ({path.relative_to(args.bank)})")
    print(f"median of {len(times)}: {statistics.median(times):.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
