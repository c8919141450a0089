"""A plain fenced code block → the HTML ``markup.to_html`` gives it, without Python-Markdown.

``pymdownx.highlight`` builds a new Pygments formatter for every code block, and a
formatter's stylesheet (every token type of the style) is made in its constructor: on a
large bank that costs more than highlighting the code itself. A block
of the usual shape (a fence line with an optional language, code, a closing fence) is
highlighted here with one formatter and one lexer per language, kept; the result is the
same bytes as the full conversion (``tests/test_highlight.py`` compares both on every block
of the sample and test banks and on awkward cases). Anything else returns None and takes
the full conversion.
"""

from __future__ import annotations

import functools
import re

from pygments import highlight as pygments_highlight
from pygments.formatters.html import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

_PLAIN_CODE = re.compile(r"[^\t\r\x02\x03]*")
"""Code the full conversion passes to Pygments unchanged: Python-Markdown expands tabs,
rewrites line ends and reserves STX/ETX first (such code takes the full conversion)."""
_BLANKISH_LINE = re.compile(r"(?:^|\n) +(?:\n|$)")


@functools.cache
def _formatter() -> HtmlFormatter:
    # The options pymdownx.highlight passes for a block without line numbers or title.
    return HtmlFormatter(cssclass="highlight", style="default", wrapcode=True)


@functools.cache
def _lexer(language: str) -> Lexer:
    """The lexer of ``language`` as pymdownx.highlight picks it (no guessing: ``text`` for
    an unknown or missing name), made once."""
    if language:
        try:
            return get_lexer_by_name(language, stripnl=True)
        except ClassNotFound:
            pass
    return get_lexer_by_name("text", stripnl=True)


def fence_html(fence: str) -> str | None:
    """The unsanitized HTML of a fenced block (its first and last lines the fences, the
    language after the opening backticks), or None when the code is not of the plain shape."""
    first, _, rest = fence.partition("\n")
    code, _, _closing = rest.rpartition("\n")
    if not _PLAIN_CODE.fullmatch(code) or _BLANKISH_LINE.search(code):
        return None
    html: str = pygments_highlight(code, _lexer(first.strip("` \t")), _formatter())
    return html
