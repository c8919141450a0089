"""Benchmark: what showing progress costs `qbank validate`.

    python bench/bench_progress.py [--bank DIR] [--questions 3000] [--locales en,tr,zh] [--runs 5]

Makes the synthetic bank (bench/make_bank.py) unless --bank names an existing one, then
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
import resource
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHUNK = 250  # files the checking process reports after (qbank's chunk of file checks)
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

from make_bank import make_bank  # noqa: E402
from test_progress import run_pipes, run_terminal  # noqa: E402

from qbank.tools.progressbar import shown  # noqa: E402

Runner = Callable[[list[str], Path, dict[str, str]], tuple[int, bytes, bytes]]


def measure(run: Runner, args: list[str], cwd: Path) -> tuple[float, float, bytes]:
    """Wall and CPU seconds (user + system of the child and its helper) of one run of
    ``qbank ARGS``, and what it wrote on stderr."""
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["QBANK_PROGRESS_DELAY"] = "0"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    code, _out, err = run(args, cwd, env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if code not in (0, 1):
        raise SystemExit(f"qbank {' '.join(args)} failed: {err.decode()}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, err


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bank", type=Path, default=None, help="an existing bank to use")
    parser.add_argument("--questions", type=int, default=3_000, help="of the bank made")
    parser.add_argument("--locales", default="en,tr,zh", help="of the bank made")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="qbank-bench-") as tmp:
        bank = args.bank
        if bank is None:
            bank = Path(tmp) / "content"
            make_bank(bank, args.questions, locales=tuple(args.locales.split(",")))
        files = sum(1 for _ in bank.rglob("*.yaml"))
        print(f"bank: {bank} ({files} YAML files, locales {args.locales})")
        variants: dict[str, tuple[Runner, list[str]]] = {
            "quiet": (run_pipes, ["validate", str(bank), "--quiet"]),
            "lines": (run_pipes, ["validate", str(bank)]),
            "bar": (run_terminal, ["validate", str(bank)]),
        }
        results: dict[str, list[tuple[float, float]]] = {name: [] for name in variants}
        for n in range(args.runs):
            for name, (run, command) in variants.items():
                load = os.getloadavg()[0]
                wall, cpu, err = measure(run, command, Path(tmp))
                results[name].append((wall, cpu))
                shown = {
                    "lines": f"  {err.count(b'qbank validate: ')} line(s)",
                    "bar": f"  {err.count(b'checking files ')} redraw(s)",
                }.get(name, "")
                print(
                    f"run {n + 1} {name:<5} wall {wall:6.2f} s  cpu {cpu:6.2f} s  load {load:4.1f}"
                    + shown
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
        calls = files // CHUNK + 3  # a report per chunk of files, at 0 and the last phase
        each = report_cost()
        print(
            f"the reports alone (load-independent): {calls} call(s) of {each * 1e6:.1f} µs"
            f" = {calls * each * 1e3:.2f} ms of CPU, {100 * calls * each / base_cpu:.3f}%"
            " of quiet's CPU time"
        )
        whole, calls = time_in_reports(bank)
        print(
            f"inside one check of the bank in this process, the bar on a pseudo-terminal:"
            f" {1e3 * calls[0]:.1f} ms in the first report shown (tqdm imported, the bar"
            f" made), {1e3 * sum(calls[1:]):.1f} ms in {len(calls) - 1} more, of"
            f" {whole:.2f} s wall ({100 * sum(calls) / whole:.2f}%)"
        )
    return 0


def report_cost(n: int = 20_000) -> float:
    """Seconds a plain-line report takes (each call a line: the dearest case)."""
    os.environ["QBANK_PROGRESS_DELAY"] = "0"
    devnull = Path(os.devnull)
    with devnull.open("w", encoding="utf-8") as sink, shown("validate", stream=sink) as report:
        start = time.process_time()
        for done in range(n):
            report("checking files", done, 10)  # a new tenth each time
        return (time.process_time() - start) / n


def time_in_reports(bank: Path) -> tuple[float, list[float]]:
    """Wall seconds of one ``validate_bank`` of BANK in this process with the bar drawn on
    a pseudo-terminal (read by another process, as a terminal would), and of each report
    call that reached the bar, setting up and clearing it included in the first and last:
    what progress costs the checking process, measured inside it, so that the machine's
    load matters less than between runs."""
    from qbank.bank.load import validate_bank

    os.environ["QBANK_PROGRESS_DELAY"] = "0"
    controller, terminal = os.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    reader = subprocess.Popen(
        ["cat"], stdin=controller, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    os.close(controller)
    calls: list[float] = []
    with os.fdopen(terminal, "w", encoding="utf-8") as stream:
        start = time.perf_counter()
        progress = shown("validate", stream=stream)
        report = progress.__enter__()
        calls.append(time.perf_counter() - start)

        def timed(phase: str, done: int, total: int) -> None:
            before = time.perf_counter()
            report(phase, done, total)
            calls.append(time.perf_counter() - before)

        validate_bank(bank, timed)
        before = time.perf_counter()
        progress.__exit__(None, None, None)
        calls[-1] += time.perf_counter() - before
        whole = time.perf_counter() - start
    setting_up = calls.pop(0)
    calls[0] += setting_up  # with the first report, which makes the bar
    reader.wait(timeout=10)
    return whole, calls


if __name__ == "__main__":
    raise SystemExit(main())
