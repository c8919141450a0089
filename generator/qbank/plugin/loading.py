"""Loading the bank for ``mkdocs build``.

Without the persistent cache, in a forked process that sends it back pickled: checking a
bank leaves the heap fragmented (memory freed between the bank's objects that the process
cannot give back), and every process of the build holds the bank, so it arrives compact,
unpickled here as it is pickled there. Where a core would be idle during the build
(``idle_core``), the near-duplicate comparison comes after (``LaterLookalikes``): the
process sends the bank, then compares prompts while this one builds. With the cache, in
this process (``_load_here``: most results are restored, not checked), the comparison in a
forked process after it where it is light. Either way its warnings are logged once the
site is published (``Loaded.warnings``). (``mkdocs serve`` loads in its own process: its
cache of checked files must live there; see ``serve.py``.)

With a cache that holds no load by this qbank (its first build, or a new version's), the
load checks every file: then in the forked process too, which keeps the cache's entries.
Checked here, the bank's 30,000 x 3 questions left this process's heap as checking leaves
it, and every later step of the build ran slower in it: a cold build that writes the cache
took 107.2 s / 198.0 s CPU loading here, 93.1 s / 170.4 s in the child, against 93.3 s /
172.1 s without the cache.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
from pathlib import Path
from typing import IO, Any

from mkdocs.exceptions import PluginError

from qbank.bank.crossfile import LaterLookalikes
from qbank.bank.load import Kept, gc_paused, load_bank
from qbank.bank.loaded import Bank
from qbank.bank.parallel import SecondProcess, end_child, fork_is_safe
from qbank.bank.problems import ContentError, Problem


class Loaded:
    """The loading process once it has sent the bank: its near-duplicate warnings are still
    to come (compared before the bank was sent, or being compared now: ``idle_core``)."""

    def __init__(
        self,
        pid: int | None = None,
        incoming: IO[bytes] | None = None,
        ready: list[Problem] | None = None,
    ) -> None:
        self.pid = pid
        self.incoming = incoming
        self.ready = ready or []  # (compared before the bank was handed over)

    def warnings(self) -> list[Problem]:
        """The near-duplicate warnings, once the process comparing prompts has sent them (it
        ends)."""
        if self.incoming is None:
            ready, self.ready = self.ready, []
            return ready
        value = _received(self.incoming, self.pid, "comparing prompts")
        self.incoming.close()
        self.incoming = None
        _ended(self.pid, "comparing prompts")
        self.pid = None
        assert isinstance(value, list)
        return value

    def stop(self) -> None:
        """End the loading process (the build failed: its warnings are not wanted)."""
        if self.pid is not None:
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGTERM)
                os.waitpid(self.pid, 0)
            self.pid = None
        if self.incoming is not None:
            self.incoming.close()
            self.incoming = None


def load_compact(
    content_root: Path, cache: Kept | None = None, *, here: bool = False
) -> tuple[Bank, Loaded]:
    """``load_bank(content_root, cache)``: in a child process where this process may fork,
    else here; here too with ``here`` (a ``cache`` that holds most results:
    ``_load_here``); the near-duplicate warnings from ``Loaded.warnings``."""
    if not fork_is_safe():
        return load_bank(content_root, cache), Loaded()
    if cache is not None and here:
        return _load_here(content_root, cache)
    read, write = os.pipe()
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    pid = os.fork()
    if pid == 0:  # the child: load, send the bank or its problems, never return
        end_child(lambda: _load(content_root, cache, read, write))
    os.close(write)
    incoming = os.fdopen(read, "rb")
    try:
        kind, value = _received(incoming, pid, "loading the bank")
    except BaseException:
        incoming.close()
        raise
    if kind == "problems":
        incoming.close()
        _ended(pid, "loading the bank")
        raise ContentError(value)
    assert isinstance(value, Bank)
    return value, Loaded(pid, incoming)


def _load_here(content_root: Path, cache: Kept) -> tuple[Bank, Loaded]:
    """The load with the persistent cache, in this process: most results come from the
    cache (no heap fragmented by checking), and the bank is not sent over (pickling and
    unpickling it cost 1.5 s at 30,000 questions x 3 locales). The near-duplicate comparison
    comes after, in a forked process, where it is light (an update of the pairs the last
    build kept, ``LaterLookalikes.light``) or a core would be idle; else here, first."""
    lookalikes = LaterLookalikes()
    bank = load_bank(content_root, cache, lookalikes=lookalikes)
    if not lookalikes.light and not idle_core(len(bank.catalog.locales)):
        with gc_paused(), SecondProcess() as helper:
            return bank, Loaded(ready=lookalikes.problems(helper))
    read, write = os.pipe()
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    pid = os.fork()
    if pid == 0:  # the child: compare, send the warnings, never return
        end_child(lambda: _compare(lookalikes, read, write))
    os.close(write)
    return bank, Loaded(pid, os.fdopen(read, "rb"))


def _compare(lookalikes: LaterLookalikes, read: int, write: int) -> None:
    """The comparing process: send the near-duplicate warnings (the build's processes
    first)."""
    os.close(read)
    with os.fdopen(write, "wb") as out:
        with contextlib.suppress(OSError):
            os.nice(19)
        with gc_paused():
            near = lookalikes.problems(SecondProcess(enabled=False))
        _send(out, near)


def _load(content_root: Path, cache: Kept | None, read: int, write: int) -> None:
    """The loading process: send the bank (or its problems), then its near-duplicate
    warnings, compared before the bank is sent unless a core is spare (``idle_core``)."""
    os.close(read)
    lookalikes = LaterLookalikes()
    with os.fdopen(write, "wb") as out:
        try:
            bank = load_bank(content_root, cache, lookalikes=lookalikes)
        except ContentError as error:
            _send(out, ("problems", error.problems))
            return
        near = None
        if not idle_core(len(bank.catalog.locales)):
            with gc_paused(), SecondProcess() as helper:  # (the load's idle core: the helper's)
                near = lookalikes.problems(helper)
        _send(out, ("bank", bank))
        if near is None:
            del bank  # (not needed to compare)
            with contextlib.suppress(OSError):  # (the build's processes first)
                os.nice(19)
            with gc_paused():
                near = lookalikes.problems(SecondProcess(enabled=False))
        _send(out, near)


def idle_core(locales: int) -> bool:
    """Whether a ``mkdocs build`` of ``locales`` locales leaves a core idle, once the bank is
    loaded, for the near-duplicate comparison (a process per locale, ``LocaleBuilds``):
    with 3 locales, a machine of 4 cores or more. On 2 cores, compared after, it slowed the
    build by what it saved the load (``bench/README.md``)."""
    cores = os.cpu_count() or 1
    return cores > min(cores, locales)


def _send(out: IO[bytes], value: Any) -> None:
    """Pickle ``value`` into the pipe as it goes: the parent unpickles while this process is
    still pickling (at 30,000 questions x 3 locales each takes about 1.5 s)."""
    pickle.dump(value, out, protocol=pickle.HIGHEST_PROTOCOL)
    out.flush()


def _received(incoming: IO[bytes], pid: int | None, doing: str) -> Any:
    """The next value the child ``pid`` sends; a ``PluginError`` when it ended without one."""
    try:
        return pickle.load(incoming)
    except (EOFError, pickle.UnpicklingError):
        _ended(pid, doing)  # (raises: the child failed)
        raise PluginError(
            f"qbank: {doing} failed in its process (its traceback is above)"
        ) from None


def _ended(pid: int | None, doing: str) -> None:
    """Wait for the child ``pid``; a ``PluginError`` when it failed."""
    if pid is None:
        return
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code < 0:  # (no traceback: the system ended it, e.g. out of memory)
        raise PluginError(f"qbank: the process {doing} was killed by signal {-code}")
    if code != 0:
        raise PluginError(f"qbank: {doing} failed in its process (its traceback is above)")
