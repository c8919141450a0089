"""The bytes a reader downloads: minified widget assets (kept per process while the source is
unchanged) and a page's theme markup with its runs of spaces collapsed, the rest as written."""

from __future__ import annotations

import os
from pathlib import Path

from qbank.site.minify import asset_bytes, compact_page

JS = """/* a comment the reader never needs */
(function () {
  "use strict";
  // a line comment
  var text = `two  spaces ${1 + 1}  kept`;
  var re = /a  b/g;
  window.answer = text + "  //  not a comment" + re.source;
})();
"""


def test_an_asset_is_minified_and_minified_again_only_when_it_changes(tmp_path: Path) -> None:
    source = tmp_path / "assets" / "widget.js"
    source.parent.mkdir()
    source.write_text(JS, "utf-8")
    shipped = asset_bytes("assets/widget.js", tmp_path).decode()
    assert len(shipped) < len(JS)
    assert "comment" not in shipped.replace("not a comment", "")
    for kept in ("`two  spaces ${1 + 1}  kept`", "/a  b/g", '"  //  not a comment"'):
        assert kept in shipped
    assert asset_bytes("assets/widget.js", tmp_path) is asset_bytes("assets/widget.js", tmp_path)

    source.write_text(JS.replace("answer", "reply"), "utf-8")
    stat = source.stat()
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert "window.reply=" in asset_bytes("assets/widget.js", tmp_path).decode()

    style = tmp_path / "assets" / "widget.css"
    style.write_text("/* note */\n.qb-q  {\n  margin : 0 ;\n}\n", "utf-8")
    assert asset_bytes("assets/widget.css", tmp_path) == b".qb-q{margin:0}"
    other = tmp_path / "assets" / "data.txt"
    other.write_text("a  b\n", "utf-8")
    assert asset_bytes("assets/data.txt", tmp_path) == b"a  b\n"


def test_a_page_keeps_its_content_code_scripts_and_no_break_spaces() -> None:
    page = (
        "<html>\n  <head>\n    <script>var a = '  x  ';</script>\n  </head>\n"
        '  <body>\n    <nav class="md-nav">\n      <a href="#a">\n        One\xa0\xa0two\n'
        "      </a>\n    </nav>\n    <pre>  a\n    b</pre>\n    <textarea>  t  </textarea>\n"
        '    <article class="md-content">\n<p>kept  as   written</p>\n\n</article>\n'
        "    <footer>   end   </footer>\n  </body>\n</html>\n"
    )
    assert compact_page(page) == (
        "<html>\n<head>\n<script>var a = '  x  ';</script>\n</head>\n"
        '<body>\n<nav class="md-nav">\n<a href="#a">\nOne\xa0\xa0two\n'
        "</a>\n</nav>\n<pre>  a\n    b</pre>\n<textarea>  t  </textarea>\n"
        '<article class="md-content">\n<p>kept  as   written</p>\n\n</article>\n'
        "<footer> end </footer>\n</body>\n</html>\n"
    )
