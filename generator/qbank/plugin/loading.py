"""Loading the bank for ``mkdocs build``: in a forked process that sends it back pickled.

Checking a bank leaves the heap fragmented (memory freed between the bank's objects that
the process cannot give back), and every process of the build holds the bank, so it arrives
compact. (``mkdocs serve`` loads in
its own process: its cache of checked files must live there; see ``serve.py``.)
"""

from __future__ import annotations

import os
import pickle
import sys
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

from qbank.bank.load import Kept, load_bank
from qbank.bank.loaded import Bank
from qbank.bank.parallel import end_child, fork_is_safe
from qbank.bank.problems import ContentError


def load_compact(content_root: Path, cache: Kept | None = None) -> Bank:
    """``load_bank(content_root, cache)``, in a child process where this process may fork."""
    if not fork_is_safe():
        return load_bank(content_root, cache)
    read, write = os.pipe()
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    pid = os.fork()
    if pid == 0:  # the child: load, send the bank or its problems, never return

        def load() -> None:
            os.close(read)
            try:
                result: tuple[str, Any] = ("bank", load_bank(content_root, cache))
            except ContentError as error:
                result = ("problems", error.problems)
            with os.fdopen(write, "wb") as out:
                pickle.dump(result, out, protocol=pickle.HIGHEST_PROTOCOL)

        end_child(load)
    os.close(write)
    with os.fdopen(read, "rb") as incoming:
        data = incoming.read()
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code < 0:  # (no traceback: the system ended it, e.g. out of memory)
        raise PluginError(f"qbank: the process loading the bank was killed by signal {-code}")
    if code != 0 or not data:
        raise PluginError("qbank: loading the bank failed in its process (its traceback is above)")
    kind, value = pickle.loads(data)
    del data
    if kind == "problems":
        raise ContentError(value)
    assert isinstance(value, Bank)
    return value
