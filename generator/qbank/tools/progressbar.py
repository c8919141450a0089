"""Progress of long work (checking a bank, importing, exporting) as the person waiting
sees it: a bar, plain lines or nothing.

The core reports through a ``Report``: ``report(phase, done, total)``, ``total`` being 0 when
the phase is not counted. It never knows how, or whether, that is shown: ``shown`` picks a
bar redrawn in place on an interactive terminal (tqdm, imported only then), a plain line now
and then when stderr is a file, a pipe or a CI log, or nothing with ``--quiet``. Progress
goes to stderr only, and not before the work has run for ``DELAY`` seconds, so quick runs
print exactly what they printed before and stdout stays the same in every case.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TextIO

from qbank.bank.progress import Report, no_progress

if TYPE_CHECKING:
    from tqdm import tqdm

DELAY = 2.0  # seconds of work before any progress shows
DELAY_ENV = "QBANK_PROGRESS_DELAY"  # overrides DELAY (0: from the start)
LINE_EVERY = 10.0  # seconds: a plain line at least this often while reports come
REDRAW_EVERY = 0.25  # seconds: the bar is redrawn at most this often within a phase
STEPS = 10  # a plain line each time a counted phase passes another tenth


@contextmanager
def shown(command: str, *, quiet: bool = False, stream: TextIO | None = None) -> Iterator[Report]:
    """A ``Report`` for the work done inside the block, shown on ``stream`` (stderr).

    A bar on an interactive terminal; plain lines when ``stream`` is not one (or has no
    width) or the ``CI`` variable is set (GitHub Actions, most CI services); nothing with
    ``quiet``. The bar is cleared at the end; the plain lines end with one saying how long
    the work took. A command wraps its work in one line::

        with shown("build", quiet=quiet) as progress:
            build_site(config, progress=progress)
    """
    if quiet:
        yield no_progress
        return
    out = stream if stream is not None else sys.stderr
    display: _Bar | _Lines
    if _interactive(out) and not in_ci():
        display = _Bar(out, _delay())
    else:
        display = _Lines(command, out, _delay())
    try:
        yield display
    finally:
        display.close()


def in_ci() -> bool:
    """Whether the ``CI`` variable says this runs in continuous integration."""
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def _interactive(stream: TextIO) -> bool:
    """A terminal with a width (tqdm draws nothing on a pseudo-terminal of width 0)."""
    try:
        return stream.isatty() and os.get_terminal_size(stream.fileno()).columns > 0
    except (OSError, ValueError):  # no file descriptor (a test's stream), or a closed one
        return False


def _delay() -> float:
    try:
        return max(0.0, float(os.environ[DELAY_ENV]))
    except (KeyError, ValueError):
        return DELAY


def _counted(phase: str, done: int, total: int) -> str:
    return f"{phase} {done}/{total} ({100 * done // total}%)" if total else phase


class _Lines:
    """A plain line when a phase starts, at each tenth of a counted phase, and at least
    every ``LINE_EVERY`` seconds; one line at the end. Nothing before ``delay`` seconds."""

    def __init__(self, command: str, stream: TextIO, delay: float) -> None:
        self.prefix = f"qbank {command}: "
        self.stream = stream
        self.start = time.monotonic()
        self.delay = delay
        self.phase = ""
        self.step = -1
        self.last: float | None = None  # when the last line was written

    def __call__(self, phase: str, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.start < self.delay:
            return
        step = done * STEPS // total if total else -1
        if (
            self.last is None
            or phase != self.phase
            or step != self.step
            or now - self.last >= LINE_EVERY
        ):
            self._write(f"{_counted(phase, done, total)}, {now - self.start:.1f} s")
            self.phase, self.step, self.last = phase, step, now

    def close(self) -> None:
        if self.last is not None:
            self._write(f"done in {time.monotonic() - self.start:.1f} s")

    def _write(self, text: str) -> None:
        self.stream.write(self.prefix + text + "\n")
        self.stream.flush()


_COUNTED = "{desc} {n_fmt}/{total_fmt} |{bar}| {percentage:3.0f}% {elapsed}"
_UNCOUNTED = "{desc} {elapsed}"


class _Bar:
    """One tqdm bar, made once the work has run ``delay`` seconds (tqdm is imported only
    then: quick work pays nothing for it), its phase, count and total changed as reports
    come, redrawn at most every ``REDRAW_EVERY`` seconds (and at a phase's start and end);
    the elapsed time is the whole work's. Cleared when the work ends."""

    def __init__(self, stream: TextIO, delay: float) -> None:
        self.stream = stream
        self.start = time.time()  # on tqdm's clock
        self.shown_from = self.start + delay
        self.bar: tqdm[None] | None = None

    def __call__(self, phase: str, done: int, total: int) -> None:
        bar = self.bar
        if bar is None:
            if time.time() < self.shown_from:
                return
            bar = self.bar = self._make(phase, done, total)
        elif phase == bar.desc and (total or None) == bar.total:
            bar.update(done - bar.n)  # redrawn if REDRAW_EVERY has passed
            if total and done >= total:
                bar.refresh()  # a phase's last count is always drawn
            return
        bar.set_description_str(phase, refresh=False)
        bar.total = total or None
        bar.bar_format = _COUNTED if total else _UNCOUNTED
        bar.n = bar.last_print_n = done
        bar.refresh()

    def _make(self, phase: str, done: int, total: int) -> tqdm[None]:
        from tqdm import tqdm

        class Bar(tqdm):  # type: ignore[type-arg]
            monitor_interval = 0  # no monitor thread: the bank checks fork a process

        # One bar in one process: a thread lock, not tqdm's default one that also makes a
        # multiprocessing lock (importing multiprocessing: a cost the first redraw waits for).
        Bar.set_lock(threading.RLock())
        bar: tqdm[None] = Bar(
            total=total or None,
            initial=done,
            desc=phase,
            file=self.stream,
            leave=False,
            mininterval=REDRAW_EVERY,
            miniters=1,
            dynamic_ncols=True,
            bar_format=_COUNTED if total else _UNCOUNTED,
        )
        bar.start_t = self.start  # the elapsed time counts from the start of the work
        return bar

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
