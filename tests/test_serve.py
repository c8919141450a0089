"""Edit → preview: under a real ``mkdocs serve``, an edited question shows on its page."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml
from selectolax.lexbor import LexborHTMLParser as HTMLParser
from sitebuild import write_serve_config, write_small_bank
from support.serving import fetch, free_port, wait_for

QUESTION = "backend/indexing/covering-index.yaml"
PAGE = "/en/backend/indexing/"


def test_an_edited_question_is_served(tmp_path: Path) -> None:
    content = write_small_bank(tmp_path / "content")
    write_serve_config(tmp_path)
    port = free_port()
    log = (tmp_path / "serve.log").open("wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"],
        cwd=tmp_path,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        path = content / QUESTION
        data = yaml.safe_load(path.read_text("utf-8"))
        before = wait_for(port, PAGE, "qb-q", server)
        assert "Content-Security-Policy" not in before  # it would block live reload
        # No service worker under serve: the page registers none, and sw.js is the worker that
        # removes one a built site left on this origin (a preview never comes from a cache).
        assert "offline.js" not in before
        worker = fetch(port, "/sw.js")
        assert worker is not None
        assert worker.startswith('self.QBANK = {"off":true};')
        assert "Zebracorn" not in before
        data["prompt"]["en"] = "Zebracorn: " + data["prompt"]["en"]
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
        after = wait_for(port, PAGE, "Zebracorn", server)
        # The edit shows in that question's heading, whole: the new text, not a stale page
        # (a one-paragraph prompt is the heading's title, not repeated below it: issue 15).
        heading = HTMLParser(after).css_first(f"#h-{data['id']}")
        assert heading is not None
        assert heading.text(strip=True).rstrip("¶") == f"2. {data['prompt']['en']}"
        # Every locale is served after the rebuild, not only the default one.
        for other in ("/tr/backend/indexing/", "/zh/backend/indexing/", "/"):
            wait_for(port, other, "qb-", server)
    finally:
        server.terminate()
        server.wait(30)
        log.close()
