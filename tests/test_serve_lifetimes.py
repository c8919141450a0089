"""The live path's lifetimes under a real ``mkdocs serve`` (issue 29): a broken mkdocs.yml
does not leave background work held, and interface strings and templates edited under
serve show on the next rebuild."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import yaml
from sitebuild import write_serve_config, write_small_bank
from support.serving import free_port, wait_for

from qbank.site.templates import TEMPLATES

QUESTION = "backend/indexing/covering-index.yaml"
PAGE = "/en/backend/indexing/"
SHOW_ANSWER = "Cevab\u0131 g\u00f6ster"  # tr.yaml's show_answer


@contextmanager
def serving(folder: Path, **env: str) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """A real ``mkdocs serve`` of ``folder`` (its port and process)."""
    port = free_port()
    log = (folder / "serve.log").open("wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"],
        cwd=folder,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", **env},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        yield port, server
    finally:
        server.terminate()
        server.wait(30)
        log.close()


def edit_prompt(path: Path, prefix: str) -> str:
    data = yaml.safe_load(path.read_text("utf-8"))
    data["prompt"]["en"] = f"{prefix}: {data['prompt']['en']}"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    return str(data["prompt"]["en"])


def test_a_broken_mkdocs_yml_leaves_background_work_free(tmp_path: Path) -> None:
    """A question's file event holds background work for the rebuild it starts; when that
    rebuild never starts (mkdocs.yml no longer loads), the hold must end all the same, or
    the bank.json of the edit before never comes."""
    content = write_small_bank(tmp_path / "content")
    write_serve_config(tmp_path)
    config = tmp_path / "mkdocs.yml"
    (tmp_path / "tmp").mkdir()
    with serving(tmp_path, TMPDIR=str(tmp_path / "tmp")) as (port, server):
        wait_for(port, PAGE, "qb-q", server)
        edit_prompt(content / QUESTION, "Zebracorn")
        wait_for(port, PAGE, "Zebracorn", server)
        # bank.json follows the published rebuild in the background (seconds later):
        # meanwhile mkdocs.yml breaks and a question file changes (its event holds
        # background work for a rebuild that then fails to load the config).
        good = config.read_text("utf-8")
        config.write_text(good + "nav: [\n", "utf-8")
        other = content / "backend/indexing/composite-order.yaml"
        other.write_bytes(other.read_bytes())
        # (read from the served folder: the server answers no request while its last
        # build failed)
        (served,) = (tmp_path / "tmp").glob("mkdocs_*")
        bank_json = served / "en" / "api" / "bank.json"
        deadline = time.monotonic() + 120  # generous: the write comes seconds after
        while time.monotonic() < deadline:
            if "Zebracorn" in bank_json.read_text("utf-8"):
                return
            assert server.poll() is None, "mkdocs serve exited"
            time.sleep(0.2)
        raise AssertionError("bank.json never followed the edit: background work held")


def _own_templates(folder: Path) -> tuple[Path, dict[str, str]]:
    """A copy of qbank and its site templates under ``folder`` (the serve runs it, so a
    test edits the copy's templates, never the checkout's); the environment to run it."""
    package = Path(__import__("qbank").__file__).resolve().parent
    shutil.copytree(package, folder / "generator" / "qbank", ignore=shutil.ignore_patterns("*.pyc"))
    shutil.copytree(TEMPLATES, folder / "site_templates")
    return folder / "site_templates", {"PYTHONPATH": str(folder / "generator")}


def test_strings_and_templates_edited_under_serve_show_on_the_next_rebuild(
    tmp_path: Path,
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    content = write_small_bank(site / "content")
    write_serve_config(site)
    templates, env = _own_templates(tmp_path / "qbank")
    with serving(site, **env) as (port, server):
        before = wait_for(port, "/tr/backend/indexing/", SHOW_ANSWER, server)
        assert "Zebrastring" not in before
        assert "Zebratemplate" not in wait_for(port, PAGE, "qb-q", server)
        strings = templates / "strings" / "tr.yaml"
        text = strings.read_text("utf-8")
        assert f"\nshow_answer: {SHOW_ANSWER}\n" in text
        assert "\nlanguage_name: Türkçe\n" in text
        text = text.replace(f"\nshow_answer: {SHOW_ANSWER}\n", "\nshow_answer: Zebrastring\n")
        text = text.replace("\nlanguage_name: Türkçe\n", "\nlanguage_name: Türkçe Zebralang\n")
        strings.write_text(text, "utf-8")
        # a question's button (its body) and the language switcher (the site's settings)
        wait_for(port, "/tr/backend/indexing/", "Zebrastring", server)
        wait_for(port, PAGE, "Türkçe Zebralang", server)
        topic = templates / "topic.md.j2"
        page = topic.read_text("utf-8")
        marker = '<div class="qb-progress"'
        assert marker in page
        topic.write_text(page.replace(marker, f"Zebratemplate\n\n{marker}", 1), "utf-8")
        wait_for(port, PAGE, "Zebratemplate", server)
        # and the next edit of a question keeps both
        edit_prompt(content / QUESTION, "Zebracorn")
        after = wait_for(port, PAGE, "Zebracorn", server)
        assert "Zebratemplate" in after
        assert "Zebrastring" in wait_for(port, "/tr/backend/indexing/", "qb-q", server)
