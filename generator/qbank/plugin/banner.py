"""Under ``mkdocs serve``, the bank's errors shown on every served page until they are fixed.

After a bad save serve keeps publishing the last good site (``ServeSession.last_good``), and
live reload reloads the contributor's page, which looks unchanged: the errors were only in
the terminal. The banner puts them at the top of every HTML page the serve process answers
(``file:line:col: key: message``, escaped), as the page leaves the server: nothing is written
into the site, so ``mkdocs build`` output never holds it, and the next good save (live
reload reloads the page once more) serves the pages without it. It is markup and a style
sheet, no script; a ``<details>`` the contributor may fold away.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from mkdocs.livereload import LiveReloadServer

from qbank.bank.problems import Problem, errors_in

SHOWN = 30  # errors listed; the rest are counted (the terminal has every one)
BANNER_ID = "qbank-serve-problems"
_BODY = re.compile(rb"<body\b[^>]*>", re.IGNORECASE)
_STYLE = (
    f"#{BANNER_ID}{{position:relative;z-index:10;margin:0;padding:.6rem 1rem;"
    "background:#b71c1c;color:#fff;font:.75rem/1.5 system-ui,sans-serif}"
    f"#{BANNER_ID} summary{{cursor:pointer;font-weight:700}}"
    f"#{BANNER_ID} ol{{margin:.4rem 0 0;padding-left:1.4rem}}"
    f"#{BANNER_ID} code{{color:#fff;background:none;white-space:pre-wrap;"
    "word-break:break-word;font-size:.75rem}"
)


def banner(problems: Iterable[Problem]) -> bytes:
    """The banner for ``problems`` (their errors; warnings stay in the terminal), or nothing
    when there is no error."""
    errors = errors_in(problems)
    if not errors:
        return b""
    count = len(errors)
    title = (
        f"qbank: {count} error{'s' if count != 1 else ''} in the question bank; these pages"
        " are the last good build until they are fixed"
    )
    items = "".join(
        f"<li><code>{html.escape(problem.format_text())}</code></li>" for problem in errors[:SHOWN]
    )
    more = f"<p>… and {count - SHOWN} more: see the terminal.</p>" if count > SHOWN else ""
    return (
        f'<style>{_STYLE}</style><details id="{BANNER_ID}" role="alert" open>'
        f"<summary>{html.escape(title)}</summary><ol>{items}</ol>{more}</details>"
    ).encode()


def with_banner(page: bytes, shown: bytes) -> bytes:
    """``page`` with ``shown`` right after its ``<body>`` tag (at the start without one)."""
    body = _BODY.search(page)
    at = body.end() if body else 0
    return page[:at] + shown + page[at:]


def show_problems(server: LiveReloadServer, current: Callable[[], Sequence[Problem]]) -> None:
    """Answer every HTML request of ``server`` with the banner of ``current()`` (the bank's
    problems at the last rebuild) while it has errors. Wraps the server's WSGI application
    (``WSGIServer.get_app``/``set_app``, public in the standard library): other responses,
    live reload's long polls included, pass through untouched."""
    app = server.get_app()
    assert app is not None

    def serve(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        held: list[tuple[str, list[tuple[str, str]]]] = []

        def start(status: str, headers: list[tuple[str, str]], *info: Any) -> Any:
            kind = next((v for k, v in headers if k.lower() == "content-type"), "")
            if status.startswith("200") and kind.startswith("text/html") and current():
                held.append((status, headers))
                return lambda data: None  # (MkDocs' server never writes through it)
            return start_response(status, headers, *info)

        result = app(environ, start)
        if not held:
            return result
        shown = banner(current())
        try:
            page = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        page = with_banner(page, shown)
        status, headers = held[0]
        headers = [(k, v) for k, v in headers if k.lower() != "content-length"]
        start_response(status, [*headers, ("Content-Length", str(len(page)))])
        return [page]

    server.set_app(serve)
