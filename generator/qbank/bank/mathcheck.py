"""The math of a question text: ``$…$``, ``\\(…\\)``, ``$$…$$``, ``\\[…\\]`` and
``\\begin{env}…\\end{env}`` (PRODUCT.md: the site's Markdown has math, shown as MathML).

A page shows math the way ``markup.py`` makes it: ``pymdownx.arithmatex`` finds it and
latex2mathml converts it; LaTeX the converter cannot read is shown as its source in code, and
an opening delimiter never closed is shown as plain text (``\\(`` as ``(``). Both pass a
build silently, so they are reported here, at the line of the text where they start:

- errors: an opening ``\\(``, ``\\[``, ``$$`` or ``\\begin{env}`` never closed (or a closing
  one never opened) when LaTeX follows it (precedes it); math with unbalanced braces; math
  latex2mathml cannot read. A delimiter with no LaTeX around it is text: ``$$`` (the shell's
  PID), ``\\[`` in a regex, ``a\\b\\[C, D]``;
- a warning: a single ``$`` followed by what reads as LaTeX (``$x^2 + 1``, ``$\\alpha``) with
  no closing ``$`` (a lone ``$`` before a number is a price and is left alone).

Math is found with arithmatex's own patterns, outside code blocks and code spans (they are
shown verbatim). Only texts holding ``$`` or a backslash are looked at.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING

from latex2mathml.walker import walk as parse_latex
from pymdownx.arithmatex import (
    RE_BRACKET_BLOCK,
    RE_BRACKET_INLINE,
    RE_DOLLAR_BLOCK,
    RE_SMART_DOLLAR_INLINE,
    RE_TEX_BLOCK,
)

from qbank.bank.problems import Problem, Severity
from qbank.bank.safety import _CODE_SPAN, _FENCE, _blank

if TYPE_CHECKING:
    from qbank.bank.yamlfile import Document, Path_

_BLOCKS = re.compile(f"{RE_DOLLAR_BLOCK}|{RE_TEX_BLOCK}|{RE_BRACKET_BLOCK}", re.S)
_INLINE = (
    ("\\(", re.compile(RE_BRACKET_INLINE, re.S)),
    ("$", re.compile(RE_SMART_DOLLAR_INLINE, re.S)),
)
# A delimiter: one that opens or closes math, or a single $ (which ``math_problems`` needs
# to see before looking further; left over after the math is found, it is no problem).
_DELIMITER = re.compile(
    r"(?<!\\)(?P<open>\\\(|\\\[|\$\$|\\begin\{[a-z]+\*?\})"
    r"|(?<!\\)(?P<close>\\\)|\\\]|\\end\{[a-z]+\*?\})|\$"
)
_LONE_DOLLAR = re.compile(r"(?<![\\$])\$(?![\s${\d])(?P<rest>[^\n$]*)")
_LATEX_LIKE = re.compile(r"\\[A-Za-z]+|\^|_\{")
_BRACES = re.compile(r"\\.|[{}]")
CLOSERS = {"\\(": "\\)", "\\[": "\\]", "$$": "$$"}
BRACES_HINT = "each { closed by a } in the math (\\{ and \\} for literal braces)"
MATH_HINT = "LaTeX between $…$ or \\(…\\) inline, $$…$$ or \\[…\\] as a block"


def math_problems(doc: Document, key: Path_, text: str) -> list[Problem]:
    """The problems of the math in ``text``, the text at ``key`` of ``doc``."""
    if ("$" not in text and "\\" not in text) or not _DELIMITER.search(text):
        return []
    return [
        doc.problem(key, message, hint, text_line=line, severity=severity)
        for line, message, hint, severity in math_issues(text)
    ]


def math_issues(text: str) -> Iterator[tuple[int, str, str, Severity]]:
    """(0-based line in ``text``, message, expected form, severity) of each problem."""
    rest = text  # (each pattern runs only where its delimiter occurs: most texts have none)
    if "`" in rest or "~~~" in rest:
        rest = _CODE_SPAN.sub(_blank, _FENCE.sub(_blank, rest))
    spans: list[tuple[int, str]] = []  # (offset, LaTeX) of each piece of math found
    if "$$" in rest or "\\[" in rest or "\\begin" in rest:
        rest = _BLOCKS.sub(lambda m: _found(m, spans, _block_math(m)), rest)
    for trigger, pattern in _INLINE:
        if trigger in rest:
            rest = pattern.sub(lambda m: _found(m, spans, m.group(3) if m.group(2) else None), rest)
    for at, latex in sorted(spans):
        unreadable = _unreadable(latex)
        if unreadable:
            reason, hint = unreadable
            yield _line(text, at), f"math {_shown(latex)} {reason}", hint, Severity.ERROR
    for found in _DELIMITER.finditer(rest) if "\\" in rest or "$$" in rest else ():
        line = _line(text, found.start())
        opened = found.group("open")
        if (opened or found.group("close")) and not _reads_as_math(rest, found):
            continue  # `$$` (the shell's PID), `\[` in a regex: text, shown as such
        if opened:
            closer = CLOSERS.get(opened, opened.replace("begin", "end"))
            message = f"math opened with {opened} is never closed: the page would show it as text"
            yield line, message, f"{closer} after the math", Severity.ERROR
        elif found.group("close"):
            message = f"{found.group('close')} closes math that was never opened"
            yield line, message, MATH_HINT, Severity.ERROR
    for found in _LONE_DOLLAR.finditer(rest) if "$" in rest else ():
        if _LATEX_LIKE.search(found.group("rest")):
            message = (
                f"{_shown('$' + found.group('rest'))} reads as math, but no $ closes it on its"
                " line: the page would show it as text"
            )
            hint = "a closing $ after the math (\\$ for a dollar sign)"
            yield _line(text, found.start()), message, hint, Severity.WARNING


def _reads_as_math(rest: str, delimiter: re.Match[str]) -> bool:
    """Whether a math delimiter that opens or closes nothing is meant as math: a
    ``\\begin``, or LaTeX (a command, ``^``, ``_{``) after an opening one on its line (below
    it in its paragraph when it ends the line) or before a closing one on its line.
    Otherwise it is text that happens to hold it."""
    if "begin" in delimiter.group(0) or "end{" in delimiter.group(0):
        return True
    if delimiter.group("open"):
        # The rest of its line; for one that ends its line (a block), the paragraph below.
        after = rest[delimiter.end() :].split("\n\n", 1)[0]
        line, newline, below = after.partition("\n")
        return bool(_LATEX_LIKE.search(line if line.strip() or not newline else below))
    line_start = rest.rfind("\n", 0, delimiter.start()) + 1
    return bool(_LATEX_LIKE.search(rest, line_start, delimiter.start()))


def _block_math(match: re.Match[str]) -> str:
    return str(match.group("math") or match.group("math2") or match.group("math3"))


def _found(match: re.Match[str], spans: list[tuple[int, str]], latex: str | None) -> str:
    """Note a piece of math; blank it out (line breaks kept)."""
    if latex is None:  # (a pattern's escaped-backslash branch: not math)
        return match.group(0)
    spans.append((match.start(), latex))
    return _blank(match)


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset)


def _shown(latex: str) -> str:
    """A short, one-line quote of some LaTeX for a message."""
    flat = " ".join(latex.split())
    return f"`{flat if len(flat) <= 40 else flat[:39] + '…'}`"


@lru_cache(maxsize=4096)
def _unreadable(latex: str) -> tuple[str, str] | None:
    """Why the page could not show ``latex`` as meant, and the expected form; None when it
    can."""
    depth = 0
    for token in _BRACES.findall(latex):
        depth += {"{": 1, "}": -1}.get(token, 0)
        if depth < 0:
            return "closes a brace } that was never opened", BRACES_HINT
    if depth:
        return f"leaves {depth} brace{'s' if depth > 1 else ''} {{ open", BRACES_HINT
    try:
        parse_latex(latex)  # (the converter's errors are its parser's; converting is time lost)
    except Exception as error:  # latex2mathml raises many types on malformed input
        name = re.sub(r"(?<!^)(?=[A-Z])", " ", type(error).__name__).lower()
        reason = f"cannot be read ({name}): the page would show its source as code"
        return reason, "LaTeX such as x^{2}, \\frac{a}{b}, \\sqrt{x}, \\left( … \\right)"
    return None
