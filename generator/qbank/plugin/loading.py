"""Loading the bank for ``mkdocs build``: in a forked process that sends it back pickled.

Checking a bank leaves the heap fragmented (memory freed between the bank's objects that
the process cannot give back), and every process of the build holds the bank, so it arrives
compact, unpickled here as it is pickled there. Where a core would be idle during the build
(``idle_core``), the near-duplicate comparison comes after (``LaterLookalikes``): the
process sends the bank, then compares prompts while this one builds, and its warnings are
logged once this process has built its own locale (``Loaded.warnings``). (``mkdocs serve``
loads in its own process: its cache of checked files must live there; see ``serve.py``.)
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

    def __init__(self, pid: int | None = None, incoming: IO[bytes] | None = None) -> None:
        self.pid = pid
        self.incoming = incoming

    def warnings(self) -> list[Problem]:
        """The near-duplicate warnings, once the loading process has sent them (it ends)."""
        if self.incoming is None:
            return []
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


def load_compact(content_root: Path, cache: Kept | None = None) -> tuple[Bank, Loaded]:
    """``load_bank(content_root, cache)``, in a child process where this process may fork;
    the near-duplicate warnings from ``Loaded.warnings``."""
    if not fork_is_safe():
        return load_bank(content_root, cache), Loaded()
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
