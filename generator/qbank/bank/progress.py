"""How long work reports its progress: a ``Report`` is ``report(phase, done, total)``,
``total`` being 0 when the phase is not counted. The core calls it and never knows how, or
whether, it is shown (``qbank.tools.progressbar`` shows it to the person waiting)."""

from __future__ import annotations

from collections.abc import Callable

Report = Callable[[str, int, int], None]  # phase, done, total (0: not counted)


def no_progress(phase: str, done: int, total: int) -> None:
    """The core's default: progress goes nowhere."""
