"""Under a real ``mkdocs serve``, a bad save shows the bank's errors on the served pages
(``qbank/plugin/banner.py``), escaped, never in the site's files, and a good save takes them
away."""

from __future__ import annotations

import re

from selectolax.lexbor import LexborHTMLParser as HTMLParser
from support.serving import EDITED, Served

BANNER = "qbank-serve-problems"
HOSTILE_KEY = '<img src=x onerror="alert(1)">'


def bad_edit(good: str) -> str:
    """The file with two errors: an unknown key holding markup, and a difficulty out of range
    on the line after it."""
    return good + f"'{HOSTILE_KEY}': 1\ndifficulty: 7\n"


def line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def test_a_bad_save_shows_its_errors_on_every_served_page_until_fixed(served: Served) -> None:
    page = "/en/backend/indexing/"
    body = served.get(page)
    assert body is not None
    assert BANNER not in body
    site = served.site()
    path = served.content / EDITED
    good = path.read_text("utf-8")
    bad = bad_edit(good)
    path.write_text(bad, "utf-8")
    served.wait_builds(2)
    shown = served.wait_page(page, BANNER)
    tree = HTMLParser(shown)
    banner = tree.css_first(f"#{BANNER}")
    assert banner is not None
    assert banner.tag == "details"
    # Right after <body>, before Material's header: the first thing of the page.
    first = tree.body.child if tree.body is not None else None
    while first is not None and first.tag in {"-text", "style"}:
        first = first.next
    assert first is not None
    assert first.attributes.get("id") == BANNER
    lines = [item.text() for item in banner.css("li")]
    assert len(lines) == 2, lines
    key_line, difficulty_line = line_of(bad, "'<img"), line_of(bad, "difficulty:")
    assert any(
        re.match(rf"content/{re.escape(EDITED)}:{key_line}:\d+: .*unknown key", line)
        for line in lines
    ), lines
    assert any(
        re.match(rf"content/{re.escape(EDITED)}:{difficulty_line}:\d+: difficulty: ", line)
        for line in lines
    ), lines
    # The key's markup is text: escaped in the page, no element made of it, no script at all.
    assert any(HOSTILE_KEY in line for line in lines)
    assert HOSTILE_KEY not in shown
    assert not banner.css("img")
    assert not banner.css("script")
    assert "2 errors in the question bank" in (banner.css_first("summary").text() or "")
    # The last good page is still what it shows.
    assert "When is a covering index worth its write cost?" in shown
    # Every locale's pages say so; data files and the site's files never hold it.
    for other in ("/tr/backend/indexing/", "/zh/", "/en/ml-engineer/"):
        assert BANNER in (served.get(other) or ""), other
    assert BANNER not in (served.get("/en/api/search/index.json") or "")
    assert not [p for p in site.rglob("*.html") if BANNER in p.read_text("utf-8", "replace")]
    # A good save takes it away.
    path.write_text(good.replace("When is", "Zebracorn when is"), "utf-8")
    served.wait_builds(3)
    fixed = served.wait_page(page, "Zebracorn")
    assert BANNER not in fixed
    assert BANNER not in (served.get("/zh/") or "")
