"""Problems a user can cause, as data: where (path, line, column, key path), what, and the fix."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from enum import StrEnum
from pathlib import Path


class Severity(StrEnum):
    """How bad a problem is: errors fail the run, warnings are reported only."""

    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, order=True)
class Problem:
    """One problem in the bank, printed GCC-style as ``path:line:col: key: message``."""

    path: str
    line: int
    col: int
    key: str
    message: str
    hint: str = ""
    severity: Severity = Severity.ERROR

    def format_text(self) -> str:
        """``path:line:col: key.path: message; expected …`` (warnings say so)."""
        where = f"{self.path}:{self.line}:{self.col}:"
        key = f" {self.key}:" if self.key else ""
        level = " warning:" if self.severity is Severity.WARNING else ""
        hint = f"; expected {self.hint}" if self.hint else ""
        return f"{where}{key}{level} {self.message}{hint}"

    def format_github(self) -> str:
        """A GitHub Actions workflow command, shown on the pull request's changed line."""
        level = "warning" if self.severity is Severity.WARNING else "error"
        text = f"{self.key}: {self.message}" if self.key else self.message
        if self.hint:
            text += f"; expected {self.hint}"
        return (
            f"::{level} file={_escape_property(self.path)},line={self.line},col={self.col},"
            f"title={_escape_property('qbank ' + (self.key or 'file'))}::{_escape_data(text)}"
        )

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready mapping."""
        data = asdict(self)
        data["severity"] = self.severity.value
        return data


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


class ContentError(Exception):
    """The bank has errors; carries every problem found in one run."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = sorted(problems)
        errors = [p for p in self.problems if p.severity is Severity.ERROR]
        super().__init__(f"{len(errors)} problem(s) in the question bank")

    def format_text(self) -> str:
        """Every problem, one per line."""
        return "\n".join(p.format_text() for p in self.problems)


def errors_in(problems: Iterable[Problem]) -> list[Problem]:
    """Only the problems that fail a run."""
    return [p for p in problems if p.severity is Severity.ERROR]


def has_errors(problems: Iterable[Problem]) -> bool:
    """Whether any of ``problems`` fails a run (what decides that a file is left out: its
    warnings never do)."""
    return any(p.severity is Severity.ERROR for p in problems)


def format_problems(problems: Iterable[Problem], style: str) -> str:
    """Render problems as ``text``, ``github`` annotations or ``json``."""
    items = sorted(problems)
    if style == "json":
        return json.dumps([p.as_dict() for p in items], ensure_ascii=False, indent=2)
    if style == "github":
        return "\n".join(p.format_github() for p in items)
    return "\n".join(p.format_text() for p in items)


def display_path(path: Path) -> str:
    """A path as the user would type it: relative to the working directory when inside it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()
