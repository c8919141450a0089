"""Benchmark: what showing progress costs `qbank validate`.

    python bench/bench_progress.py [--bank DIR] [--questions 3000] [--locales en,tr,zh] [--runs 5]

Writes the synthetic bank (bench/make_bank.py) unless --bank names an existing one, then
runs, alternating, --runs times each on the same bank:

- quiet: ``qbank validate BANK --quiet`` (no progress at all);
- lines: ``qbank validate BANK`` with stderr on a pipe (a plain line at each tenth);
- bar:   ``qbank validate BANK`` with stderr on a pseudo-terminal (the tqdm bar redrawn).

Progress is shown from the start (``QBANK_PROGRESS_DELAY=0``), not after the usual delay,
so all of its cost is measured. Prints each run's wall and CPU time (user + system, with
the helper process) and the medians' differences against quiet. The goal is under 2% at
30,000 questions x 3 locales (``--questions 30000``).
"""

from __future__ import annotations

import argparse
import fcntl
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
QBANK = Path(sys.executable).with_name("qbank")


def run(argv: list[str], terminal: bool) -> tuple[float, float, bytes]:
    """Wall and CPU seconds of one child, and what it wrote on stderr."""
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["QBANK_PROGRESS_DELAY"] = "0"
    if terminal:
        controller, err_fd = os.openpty()
        fcntl.ioctl(err_fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    else:
        controller, err_fd = os.pipe()
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err_fd
    )
    os.close(err_fd)
    received = []
    while True:
        try:
            data = os.read(controller, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        received.append(data)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    os.close(controller)
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} failed: {b''.join(received).decode()}")
    return wall, usage.ru_utime + usage.ru_stime, b"".join(received)


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bank", type=Path, default=None)
    parser.add_argument("--questions", type=int, default=3_000)
    parser.add_argument("--locales", default="en,tr,zh")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="qbank-bench-") as tmp:
        bank = args.bank
        if bank is None or not (bank / "catalog.yaml").exists():
            bank = bank or Path(tmp) / "content"
            make = [sys.executable, str(HERE / "make_bank.py"), str(bank)]
            subprocess.run(
                [*make, "--questions", str(args.questions), "--locales", args.locales], check=True
            )
        files = sum(1 for _ in bank.rglob("*.yaml"))
        print(f"bank: {bank} ({files} YAML files, locales {args.locales})")
        variants = {
            "quiet": ([str(QBANK), "validate", str(bank), "--quiet"], False),
            "lines": ([str(QBANK), "validate", str(bank)], False),
            "bar": ([str(QBANK), "validate", str(bank)], True),
        }
        results: dict[str, list[tuple[float, float]]] = {name: [] for name in variants}
        for n in range(args.runs):
            for name, (command, terminal) in variants.items():
                load = os.getloadavg()[0]
                wall, cpu, err = run(command, terminal)
                results[name].append((wall, cpu))
                shown = len(err.replace(b"\r\n", b"\n").splitlines()) if name == "lines" else 0
                redraws = err.count(b"\r") - err.count(b"\r\n") if name == "bar" else 0
                print(
                    f"run {n + 1} {name:<5} wall {wall:6.2f} s  cpu {cpu:6.2f} s  load {load:4.1f}"
                    + (f"  {shown} line(s)" if shown else "")
                    + (f"  {redraws} redraw(s)" if redraws else "")
                )
        medians = {
            name: (statistics.median(r[0] for r in rows), statistics.median(r[1] for r in rows))
            for name, rows in results.items()
        }
        base_wall, base_cpu = medians["quiet"]
        print()
        for name, (wall, cpu) in medians.items():
            print(
                f"{name:<5} median wall {wall:6.2f} s ({100 * (wall / base_wall - 1):+5.1f}%)"
                f"  cpu {cpu:6.2f} s ({100 * (cpu / base_cpu - 1):+5.1f}%)"
            )
        print("goal: under 2% against quiet at 30,000 questions x 3 locales")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
