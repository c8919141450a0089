"""Benchmark: `qbank validate` against merely parsing the same files with libyaml.

    python bench/bench_validate.py [--bank DIR] [--questions 30000] [--runs 3]

Writes the synthetic bank (bench/make_bank.py) unless --bank names an existing one, then,
in one run on the same bank, measures wall time and peak memory (RSS of the child) of
(a) `qbank validate BANK` in a subprocess and (b) a subprocess that only reads every
YAML file with ``yaml.load(..., Loader=yaml.CSafeLoader)``. Each is run --runs times,
alternating, and the medians and the ratio (a)/(b) are printed. The goal is a ratio of at
most 1.5 at 30,000 questions x 3 locales.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PARSE_ONLY = """
import os, sys, yaml
root = sys.argv[1]
count = 0
for dirpath, dirnames, filenames in os.walk(root):
    dirnames.sort()
    for name in sorted(filenames):
        if name.endswith(".yaml"):
            with open(os.path.join(dirpath, name), "rb") as handle:
                yaml.load(handle.read(), Loader=yaml.CSafeLoader)
            count += 1
print(f"parsed {count} files")
"""


def _qbank() -> list[str]:
    script = Path(sys.executable).with_name("qbank")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from qbank.tools.cli import main; main()"]


def measure(command: list[str]) -> tuple[float, float, float, str]:
    """Wall seconds, CPU seconds (user + system, with the child's own children) and peak
    RSS (MiB, the largest of the child and its children) of one child process, and its
    last output line."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert proc.stdout is not None
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    lines = out.decode("utf-8", "replace").strip().splitlines()
    cpu = usage.ru_utime + usage.ru_stime
    return wall, cpu, usage.ru_maxrss / 1024, lines[-1] if lines else ""


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bank", type=Path, default=None)
    parser.add_argument("--questions", type=int, default=30_000)
    parser.add_argument("--locales", default="en,tr,zh")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="qbank-bench-") as tmp:
        bank = args.bank
        if bank is None or not (bank / "catalog.yaml").exists():
            bank = bank or Path(tmp) / "content"
            start = time.perf_counter()
            subprocess.run(
                [
                    sys.executable,
                    str(HERE / "make_bank.py"),
                    str(bank),
                    "--questions",
                    str(args.questions),
                    "--locales",
                    args.locales,
                ],
                check=True,
            )
            print(f"made the bank in {time.perf_counter() - start:.1f} s")
        files = sum(1 for _ in bank.rglob("*.yaml"))
        print(f"bank: {bank} ({files} YAML files, locales {args.locales})")
        validate_cmd = [*_qbank(), "validate", str(bank)]
        parse_cmd = [sys.executable, "-c", PARSE_ONLY, str(bank)]
        results: dict[str, list[tuple[float, float, float]]] = {"validate": [], "parse": []}
        load = os.getloadavg()
        print(f"load average at the start: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
        for run in range(args.runs):
            for name, command in (("validate", validate_cmd), ("parse", parse_cmd)):
                before = os.getloadavg()[0]
                wall, cpu, rss, last = measure(command)
                results[name].append((wall, cpu, rss))
                print(
                    f"run {run + 1} {name:<8} wall {wall:7.2f} s  cpu {cpu:7.2f} s"
                    f"  peak {rss:7.1f} MiB  load {before:4.1f}  {last}"
                )
        med = {
            name: [statistics.median(r[k] for r in rows) for k in range(3)]
            for name, rows in results.items()
        }
        (v_wall, v_cpu, v_rss), (p_wall, p_cpu, p_rss) = med["validate"], med["parse"]
        print()
        print(f"(a) qbank validate     median wall {v_wall:7.2f} s  cpu {v_cpu:7.2f} s", end="")
        print(f"  peak {v_rss:7.1f} MiB")
        print(f"(b) CSafeLoader parse  median wall {p_wall:7.2f} s  cpu {p_cpu:7.2f} s", end="")
        print(f"  peak {p_rss:7.1f} MiB")
        print(f"ratio (a)/(b): wall {v_wall / p_wall:.2f} (goal <= 1.5), cpu {v_cpu / p_cpu:.2f}")
        # Each validate run and the parse run right after it saw about the same load.
        pairs = [v[0] / p[0] for v, p in zip(results["validate"], results["parse"], strict=True)]
        print("wall ratio of each run: " + ", ".join(f"{r:.2f}" for r in pairs))
        load = os.getloadavg()
        print(f"load average at the end: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
