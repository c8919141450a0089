"""qbank as a dependency of another bank: a separate repository with its own mkdocs.yml
(`plugins: [qbank]`) and its own content/ builds the whole site with the installed qbank.

The same build shows the translation-staleness scenario end to end: the source prompt of a
question with `translated_from` changes, validate warns, the translated page carries the
"may be out of date" note linking to the source locale, and `mark-current` clears it.
"""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from urllib.parse import parse_qs, urljoin, urlsplit

import yaml
from click.testing import CliRunner
from mkdocs.plugins import BasePlugin
from selectolax.lexbor import LexborHTMLParser as HTMLParser
from support.dependency_bank import CATALOG, QID, QUESTION

import qbank
from qbank.tools.cli import main

ROOT = Path(__file__).resolve().parent.parent
MKDOCS_YML = """\
site_name: Our Team's Bank
site_url: https://example.org/bank/
repo_url: https://github.com/example/our-bank
theme:
  name: material
plugins:
  - qbank
"""


def write_repository(root: Path) -> Path:
    """A bank repository as its maintainers would lay it out, outside this project."""
    (root / "docs").mkdir(parents=True)  # MkDocs requires docs_dir; the bank needs no pages
    (root / "mkdocs.yml").write_text(MKDOCS_YML, encoding="utf-8")
    topic = root / "content" / "data" / "formats"
    topic.mkdir(parents=True)
    (root / "content" / "catalog.yaml").write_text(CATALOG, encoding="utf-8")
    (topic / "columnar.yaml").write_text(QUESTION.format(qid=QID), encoding="utf-8")
    return root


def mkdocs_build(root: Path) -> Path:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return root / "site"


def topic_page(site: Path, locale: str) -> HTMLParser:
    return HTMLParser((site / locale / "data" / "formats" / "index.html").read_text("utf-8"))


def test_qbank_is_an_installed_mkdocs_plugin() -> None:
    plugins = {ep.name: ep for ep in importlib.metadata.entry_points(group="mkdocs.plugins")}
    assert plugins["qbank"].value == "qbank.plugin:QbankPlugin"
    assert issubclass(plugins["qbank"].load(), BasePlugin)
    # The installed distribution is this source tree's (its version: qbank.__version__).
    assert tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["dynamic"] == [
        "version"
    ]
    assert importlib.metadata.version("qbank") == qbank.__version__


def test_separate_bank_builds_with_the_plugin(tmp_path: Path) -> None:
    root = write_repository(tmp_path / "our-bank")
    site = mkdocs_build(root)
    for locale in ("en", "tr"):
        page = topic_page(site, locale)
        question = page.css_first(f"#q-{QID}")
        assert question is not None, locale
        assert question.attributes["data-answer"] == "b"
        assert "data-file" not in question.attributes  # the edit and report links name it
        assert page.css_first(".qb-stale") is None  # no translated_from: nothing to flag
    # The "report a problem" link opens this repository's issue form, prefilled by input id.
    report = topic_page(site, "tr").css_first(f"#q-{QID} a.qb-report")
    assert report is not None
    url = urlsplit(report.attributes["href"] or "")
    assert (url.netloc, url.path) == ("github.com", "/example/our-bank/issues/new")
    query = {k: v[0] for k, v in parse_qs(url.query).items()}
    form = yaml.safe_load(
        (ROOT / ".github" / "ISSUE_TEMPLATE" / "question-problem.yml").read_text("utf-8")
    )
    inputs = {item["id"] for item in form["body"] if item["type"] == "input"}
    assert query["template"] == "question-problem.yml"
    assert {"question_id", "locale", "file"} <= inputs
    assert query["question_id"] == QID
    assert query["locale"] == "tr"
    assert query["file"] == "content/data/formats/columnar.yaml"
    assert set(query) - {"template", "title"} <= inputs


def test_stale_translation_note_appears_and_mark_current_clears_it(
    tmp_path: Path,
) -> None:
    root = write_repository(tmp_path / "our-bank")
    content = root / "content"
    path = content / "data" / "formats" / "columnar.yaml"
    runner = CliRunner()
    marked = runner.invoke(
        main, ["translations", "mark-current", QID, "tr", "--content", str(content)]
    )
    assert marked.exit_code == 0, marked.output

    # The source prompt changes after the translation was made.
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("column by column", "by columns"), encoding="utf-8")
    warned = runner.invoke(main, ["validate", str(content)])
    assert warned.exit_code == 0, warned.output  # a warning, not an error
    assert "translated_from.tr: warning: the tr translation may be out of date" in warned.output

    site = mkdocs_build(root)
    tr_page = topic_page(site, "tr")
    note = tr_page.css_first(f"#q-{QID} p.qb-stale")
    assert note is not None
    link = note.css_first("a")
    assert link is not None
    assert link.attributes["hreflang"] == "en"
    # The link resolves to the same question on the source-locale page.
    target = urljoin("https://example.org/bank/tr/data/formats/", link.attributes["href"] or "")
    assert target == f"https://example.org/bank/en/data/formats/#q-{QID}"
    assert topic_page(site, "en").css_first(f"#q-{QID}") is not None
    assert topic_page(site, "en").css_first(".qb-stale") is None  # the source is never stale

    cleared = runner.invoke(
        main, ["translations", "mark-current", QID, "tr", "--content", str(content)]
    )
    assert cleared.exit_code == 0, cleared.output
    quiet = runner.invoke(main, ["validate", str(content)])
    assert "translated_from" not in quiet.output
    site = mkdocs_build(root)
    assert topic_page(site, "tr").css_first(".qb-stale") is None
