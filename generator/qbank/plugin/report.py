"""What the adapter tells the maintainer: the ``mkdocs.plugins.qbank`` logger, one INFO line
per phase of a build with its timing, and the bank's problems at their own level."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable

from qbank.bank.problems import Problem, Severity

log = logging.getLogger("mkdocs.plugins.qbank")


def phase(started: float, done: str, *args: object) -> None:
    """Log ``qbank: <done> (<seconds since started> s)`` at INFO: one line per phase."""
    log.info(f"qbank: {done} (%.1f s)", *args, time.monotonic() - started)


def problems(found: Iterable[Problem], *, fatal: bool) -> None:
    """Log the bank's problems, GCC-style. In a failed load (``fatal``) errors are ERRORs and
    warnings WARNINGs; in a load that succeeded its warnings are INFO lines, so that
    ``mkdocs build --strict`` still builds a bank ``qbank validate`` accepts."""
    for problem in found:
        if problem.severity is Severity.ERROR:
            log.error(problem.format_text())
        elif fatal:
            log.warning(problem.format_text())
        else:
            log.info(problem.format_text())
