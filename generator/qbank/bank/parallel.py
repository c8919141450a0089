"""The second process: on a large bank, the file checks and the near-duplicate join are
shared between this process and one forked helper (the machine's second core).

Where forking is not possible, or the bank is small, everything runs in this process; the
results are the same either way (``tests/test_validate_many.py``).

No fork from a process that runs other threads (``fork_is_safe``): the child would get a copy
of every lock those threads hold at that moment, held forever in it. ``mkdocs serve`` runs
watcher, server and background threads from its first rebuild on, so its rebuilds check
files in its own process (its first build, before any of them starts, still forks); a
forked child ends through ``end_child``, which prints its traceback when it failed.
"""

from __future__ import annotations

import os
import sys
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from qbank.bank.listing import QuestionFile
from qbank.bank.progress import Report, no_progress
from qbank.bank.rules import Checked, QuestionChecker

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

T = TypeVar("T")
R = TypeVar("R")

# Files per chunk taken by either process, and the bank size from which a second process is
# used (and then only on a free core: ``spare_core``). The helper costs CPU time of its own
# (forking, every result sent back) and saves wall time; a contributor waits for the wall
# time, so the trade is taken from this size on. Below it the fork costs more than it saves.
CHUNK = 250
PARALLEL_FROM = 2_000


class SecondProcess:
    """One forked helper process, started by the first large piece of work (the file
    checks or the near-duplicate join of a large bank) and shared by the later ones; where
    forking is not possible, everything runs in this process."""

    def __init__(self, *, enabled: bool = True) -> None:
        """``enabled=False``: everything runs in this process (work that runs while other
        processes keep the cores busy)."""
        self.pool: ProcessPoolExecutor | None = None
        self.enabled = enabled

    def __enter__(self) -> SecondProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
            self.pool = None

    def start(self) -> ProcessPoolExecutor | None:
        """The helper's pool (None where forking is not possible). A new pool forks the
        helper at its first task, which then inherits this process's module globals."""
        if self.pool is None and self.enabled and _can_fork():
            import multiprocessing  # here: a small bank never needs either module
            from concurrent.futures import ProcessPoolExecutor

            self.pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("fork")
            )
        return self.pool


# What the helper process inherits when it is forked for the file checks: the checker, the
# files and the shared number of the next chunk to check.
_shared_work: tuple[QuestionChecker, list[QuestionFile], Any] | None = None


def _check_next_chunk() -> tuple[int, list[Checked]] | None:
    """Check the next unchecked chunk of ``_shared_work``: its number and results, or None
    when every chunk is taken."""
    assert _shared_work is not None
    checker, files, next_chunk = _shared_work
    n = _take(next_chunk)
    if n * CHUNK >= len(files):
        return None
    return n, [checker.check(*item) for item in files[n * CHUNK : (n + 1) * CHUNK]]


def _take(counter: Any) -> int:
    with counter.get_lock():
        n: int = counter.value
        counter.value = n + 1
    return n


def check_files(
    checker: QuestionChecker,
    files: list[QuestionFile],
    helper: SecondProcess,
    progress: Report = no_progress,
) -> list[Checked]:
    """Every file's result, in order; a large bank is split between this process and the
    forked helper.

    Parsing and validating are CPU-bound and independent per file. Both processes take
    the next unchecked chunk of files from a shared counter until none is left, so they
    finish together however busy either core is.
    """
    global _shared_work
    progress("checking files", 0, len(files))
    pool = helper.start() if len(files) >= PARALLEL_FROM else None
    if pool is None:
        checked: list[Checked] = []
        for start in range(0, len(files), CHUNK):
            checked += [checker.check(*item) for item in files[start : start + CHUNK]]
            progress("checking files", len(checked), len(files))
        return checked
    import multiprocessing

    next_chunk = multiprocessing.get_context("fork").Value("q", 0)
    _shared_work = (checker, files, next_chunk)
    chunks: dict[int, list[Checked]] = {}
    try:
        # The first task forks the helper, which inherits _shared_work. One task a chunk,
        # so that results come back (and are unpickled here) while both are still checking.
        theirs = [pool.submit(_check_next_chunk) for _ in range(0, len(files), CHUNK)]
        while (mine := _check_next_chunk()) is not None:
            chunks[mine[0]] = mine[1]
            finished = len(chunks) + sum(future.done() for future in theirs)
            progress("checking files", min(finished * CHUNK, len(files)), len(files))
        for future in theirs:
            if (done := future.result()) is not None:
                chunks[done[0]] = done[1]
        progress("checking files", len(files), len(files))
    finally:
        _shared_work = None
    return [result for n in sorted(chunks) for result in chunks[n]]


def map_largest_apart(
    work: dict[str, list[T]],
    weight: Callable[[list[T]], int],
    run: Callable[[list[T]], R],
    helper: SecondProcess,
) -> dict[str, R]:
    """``run`` on every list of ``work``; when there are two or more lists holding
    ``PARALLEL_FROM`` items in all, the heaviest (``weight``) runs in the helper process
    (sent there, its result sent back) while this process runs the others."""
    keys = sorted(work, key=lambda key: -weight(work[key]))
    pool = None
    if len(keys) >= 2 and sum(map(len, work.values())) >= PARALLEL_FROM:
        pool = helper.start()
    if pool is None:
        return {key: run(items) for key, items in work.items()}
    theirs = pool.submit(run, work[keys[0]])
    results = {key: run(work[key]) for key in keys[1:]}
    results[keys[0]] = theirs.result()
    return {key: results[key] for key in work}


def fork_is_safe() -> bool:
    """Whether this process may fork: the system can, and no other thread runs here."""
    return hasattr(os, "fork") and threading.active_count() == 1


def end_child(work: Callable[[], None]) -> NoReturn:
    """In a forked child: run ``work``, then end the child (never returning into the code
    that forked it) with status 0, or 1 after printing its traceback to stderr."""
    status = 1
    try:
        work()
        status = 0
    except BaseException:  # reported by the exit status, and the traceback for a person
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        os._exit(status)


def _can_fork() -> bool:
    import multiprocessing

    cores = os.cpu_count() or 1
    return (
        cores >= 2
        and "fork" in multiprocessing.get_all_start_methods()
        and fork_is_safe()
        and spare_core(cores)
    )


def spare_core(cores: int) -> bool:
    """Whether the machine has a core to spare for the helper: no other task running now
    on all but one core. On a busy machine the kernel gives this command's processes about
    one core however many they are (its scheduler shares time between sessions, not
    processes), so the helper would cost CPU time and save no wall time.

    Read from the number of tasks running now (Linux's ``/proc/loadavg``; the least of a
    few looks, as a kernel thread may run for a moment), not from a load average: that
    counts this command's own earlier runs, one after the other in a benchmark, as load.
    """
    try:
        running = min(_running_tasks() for _ in range(3)) - 1  # this process is one
    except (OSError, ValueError, IndexError):  # no /proc: the last minute's average
        try:
            return os.getloadavg()[0] <= cores - 0.5
        except OSError:
            return True
    return running <= cores - 2


def _running_tasks() -> int:
    text = Path("/proc/loadavg").read_text(encoding="ascii")  # "0.52 0.40 0.31 2/190 8155"
    return int(text.split()[3].split("/")[0])
