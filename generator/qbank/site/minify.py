"""Fewer bytes for the reader, the same page: the widget's own assets as a site ships them
(``site_templates/assets/*.js`` and ``*.css`` minified: comments and spaces out with
``rjsmin``, ``rcssmin``; names and code unchanged, the readable sources stay in the
repository) and a page's theme markup with its runs of spaces collapsed. Every page loads
the assets and repeats the theme's menu and table of contents, so these bytes count for every
reader (bench/bench_phone.py: the weight of a topic page). Each asset is minified once per
process and kept while its size and modification time stay the same, so a ``mkdocs serve``
rebuild (or the next locale's build) reuses it."""

from __future__ import annotations

import re
from pathlib import Path

import rcssmin
import rjsmin

from qbank.site.strings import widget_module
from qbank.site.templates import TEMPLATES

# A "/*!" comment (a vendored library's licence) stays in the shipped file.
_MINIFIERS = {".js": lambda s: rjsmin.jsmin(s, keep_bang_comments=True), ".css": rcssmin.cssmin}
_kept: dict[Path, tuple[tuple[int, int], bytes]] = {}


def minified(source: str, suffix: str) -> str:
    """``source`` (the text of a ``suffix`` file: ".js" or ".css") without comments and the
    spaces it does not need; another kind of text unchanged."""
    minify = _MINIFIERS.get(suffix)
    return str(minify(source)) if minify else source


def asset_bytes(asset: str, root: Path = TEMPLATES) -> bytes:
    """The bytes a site ships for ``asset`` (a path under ``root``, ``site_templates``: such
    as ``assets/qbank.js``)."""
    generated = widget_module(asset)
    if generated is not None:
        return generated
    path = root / asset
    stat = path.stat()
    stamp = (stat.st_mtime_ns, stat.st_size)
    kept = _kept.get(path)
    if kept is None or kept[0] != stamp:
        text = minified(path.read_text("utf-8"), path.suffix)
        kept = _kept[path] = (stamp, text.encode("utf-8"))
    return kept[1]


# Kept as written: what a run of spaces means inside (code, scripts, whose text the page's
# Content-Security-Policy hashes, form fields, styles).
_KEPT = re.compile(r"<(script|pre|textarea|style)\b.*?</\1>", re.S | re.I)
# HTML's spaces only (a no-break space is text): a line break and the spaces after it, then a
# run of two or more (two plain substitutions: faster than one with a callback).
_BREAKS = re.compile(r"\n[ \t\n\r\f]+")
_BLANKS = re.compile(r"[ \t\r\f]{2,}")


def _collapsed(html: str) -> str:
    return _BLANKS.sub(" ", _BREAKS.sub("\n", html))


def _compact(html: str) -> str:
    out: list[str] = []
    at = 0
    for kept in _KEPT.finditer(html):
        out += [_collapsed(html[at : kept.start()]), kept.group(0)]
        at = kept.end()
    out.append(_collapsed(html[at:]))
    return "".join(out)


def compact_page(html: str) -> str:
    """``html`` (a built page) with each run of spaces in the theme's markup (head, header,
    menu, table of contents, footer) cut to one space or line break: the same page as the
    browser shows it (a run of spaces shows as one), and lighter on every page. The
    page's content (``<article>``: Markdown's output, already compact, where inline code may
    be styled to keep its spaces) is left as it is, and not even read."""
    start = html.find("<article")
    end = html.find("</article>", start)
    if start < 0 or end < 0:
        return _compact(html)
    return _compact(html[:start]) + html[start:end] + _compact(html[end:])
