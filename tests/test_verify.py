"""``qbank verify``: passes on real builds, fails naming question and page on tampered copies."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from selectolax.lexbor import LexborHTMLParser
from sitebuild import ROOT, build_site

from qbank.bank.load import load_bank
from qbank.tools.cli import main
from qbank.tools.hosts import site_weight
from qbank.tools.verify import verify_site

CHOICE = "01a05d13-8d21-739a-baa2-7dab67be4001"  # ml-engineer/throughput, answer b
CHOICE_FILE = "ml-engineer/throughput/input-wait.yaml"
TOPIC_PAGE = "en/ml-engineer/throughput/index.html"


@pytest.fixture(scope="module")
def built(small_site: tuple[Path, Path]) -> tuple[Path, Path]:
    """(site, content) of a real strict build of the small bank (copied before tampering)."""
    return small_site


@pytest.fixture
def tampered(built: tuple[Path, Path], tmp_path: Path) -> tuple[Path, Path]:
    site, content = built
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    # Any edit also changes the build the offline files name (tests/test_offline.py checks
    # that); these tests are about the questions, so the copy is a site without the worker.
    (copy / "sw.js").unlink()
    return copy, content


def edit(page: Path, change: str, qid: str = CHOICE) -> None:
    """Apply one tampering to the question ``qid`` on ``page`` through a real HTML parser."""
    tree = LexborHTMLParser(page.read_text("utf-8"))
    node = tree.css_first(f"div.qb-q#q-{qid}")
    assert node is not None
    if change == "answer":
        node.attrs["data-answer"] = "a"
    elif change == "delete":
        node.decompose()
    elif change == "drop-option":
        option = node.css("li.qb-option")[-1]
        option.decompose()
    page.write_text(tree.html or "", "utf-8")


def run_verify(site: Path, content: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["verify", str(site), "--content", str(content)])
    return result.exit_code, result.output


def test_passes_on_a_real_build(built: tuple[Path, Path]) -> None:
    site, content = built
    assert verify_site(site, load_bank(content)) == []
    code, output = run_verify(site, content)
    assert code == 0, output
    assert "ok: 8 question(s)" in output


def test_passes_on_the_sample_build(tmp_path: Path) -> None:
    """The repository's own site (content/ + mkdocs.yml), built for real into tmp_path."""
    site = tmp_path / "site"
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr
    code, output = run_verify(site, ROOT / "content")
    assert code == 0, output


def test_changed_answer_key(tampered: tuple[Path, Path]) -> None:
    site, content = tampered
    edit(site / TOPIC_PAGE, "answer")
    code, output = run_verify(site, content)
    assert code == 1
    line = next(x for x in output.splitlines() if "answer key" in x)
    assert line.startswith(TOPIC_PAGE + ": answer key a differs from the bank's b")
    assert CHOICE in line
    assert CHOICE_FILE in line


def test_a_seniority_link_to_the_wrong_topic_page(tampered: tuple[Path, Path]) -> None:
    """A seniority page lists its questions as links to their anchors: one that points at a
    page without that anchor is reported (issue 30)."""
    site, content = tampered
    page = "en/ml-engineer/level-mid/index.html"
    tree = LexborHTMLParser((site / page).read_text("utf-8"))
    link = tree.css_first(f'ul.qb-level-list a[href$="#q-{CHOICE}"]')
    assert link is not None
    link.attrs["href"] = f"../numerics/#q-{CHOICE}"
    (site / page).write_text(tree.html or "", "utf-8")
    problems = verify_site(site, load_bank(content))
    assert [(p.page, p.message) for p in problems] == [
        (
            page,
            f"link to en/ml-engineer/numerics/index.html#q-{CHOICE}: no such anchor on that page",
        )
    ]


def test_dropped_option(tampered: tuple[Path, Path]) -> None:
    site, content = tampered
    edit(site / TOPIC_PAGE, "drop-option")
    problems = verify_site(site, load_bank(content), "content")
    assert len(problems) == 1
    assert problems[0].message == "options a b differ from the bank's a b c"
    assert problems[0].file == f"content/{CHOICE_FILE}"


def test_deleted_question(tampered: tuple[Path, Path]) -> None:
    site, content = tampered
    edit(site / TOPIC_PAGE, "delete")
    code, output = run_verify(site, content)
    assert code == 1
    missing = [x for x in output.splitlines() if "missing" in x]
    assert missing == [
        f"{TOPIC_PAGE}: missing: the question is not on the site in en "
        f"(question {CHOICE}, {content.as_posix()}/{CHOICE_FILE})"
    ]


def test_added_duplicate(tampered: tuple[Path, Path]) -> None:
    site, content = tampered
    source = LexborHTMLParser((site / TOPIC_PAGE).read_text("utf-8"))
    node = source.css_first(f"div.qb-q#q-{CHOICE}")
    assert node is not None
    assert node.html
    other = site / "en/ml-engineer/numerics/index.html"
    text = other.read_text("utf-8")
    marker = '<div class="qb-q"'
    assert marker in text
    other.write_text(text.replace(marker, node.html + marker, 1), "utf-8")
    problems = verify_site(site, load_bank(content))
    duplicate = [p for p in problems if p.message.startswith("duplicate")]
    assert len(duplicate) == 1
    assert duplicate[0].question == CHOICE
    assert "en/ml-engineer/numerics/index.html" in duplicate[0].message
    assert TOPIC_PAGE in duplicate[0].message


def test_question_not_in_the_bank(tampered: tuple[Path, Path]) -> None:
    site, content = tampered
    page = site / TOPIC_PAGE
    page.write_text(
        page.read_text("utf-8").replace(CHOICE, "01a05d13-8d21-739a-baa2-7dab67be4fff"), "utf-8"
    )
    problems = verify_site(site, load_bank(content))
    messages = {(p.page, p.message) for p in problems}
    assert (TOPIC_PAGE, "a question that is not in the bank") in messages
    assert any(m.startswith("missing") for _p, m in messages)


def test_missing_asset_and_external_resources(tampered: tuple[Path, Path]) -> None:
    site, content = tampered
    (site / "images/ml-engineer/numerics/bits.png").unlink()
    page = site / TOPIC_PAGE
    text = page.read_text("utf-8").replace(
        "</head>",
        '<link rel="stylesheet" href="https://cdn.example.com/x.css">'
        '<script src="//cdn.example.com/x.js"></script></head>',
    )
    page.write_text(text, "utf-8")
    css = next((site / "assets").rglob("main.*.css"))
    css.write_text(
        css.read_text("utf-8") + '@font-face{src:url("https://fonts.example.com/a.woff2")}',
        "utf-8",
    )
    messages = [p.format_text() for p in verify_site(site, load_bank(content))]
    assert any("bits.png" in m and "missing" in m for m in messages), messages
    assert (
        f"{TOPIC_PAGE}: link rel=stylesheet loads 'https://cdn.example.com/x.css' from another host"
        in messages
    )
    assert any("'//cdn.example.com/x.js' from another host" in m for m in messages)
    assert any("fonts.example.com/a.woff2" in m and css.name in m for m in messages)


def test_a_module_that_imports_a_missing_file(tampered: tuple[Path, Path]) -> None:
    """The widget's modules import each other (statically, or with ``import()``): a module a
    page loads that names a file the site lacks is reported, however deep it is imported."""
    site, content = tampered
    (site / "assets/lib/schedule.js").unlink()  # review.js imports it (review.js: qbank.js)
    (site / "assets/transfer.js").unlink()  # qbank.js imports it when a page needs it
    messages = [p.format_text() for p in verify_site(site, load_bank(content))]
    assert any(
        "module assets/review.js imports './lib/schedule.js': not in the site" in m
        for m in messages
    ), messages
    assert any(
        "module assets/qbank.js imports './transfer.js': not in the site" in m for m in messages
    ), messages


def test_broken_internal_link_and_anchor(tampered: tuple[Path, Path]) -> None:
    site, content = tampered
    page = site / TOPIC_PAGE
    page.write_text(
        page.read_text("utf-8").replace(
            "</article>",
            '<a href="../nowhere/">x</a><a href="../numerics/#q-no-such">y</a></article>',
        ),
        "utf-8",
    )
    messages = {p.message for p in verify_site(site, load_bank(content)) if p.page == TOPIC_PAGE}
    assert "link '../nowhere/' points at no file of the site" in messages
    assert (
        "link to en/ml-engineer/numerics/index.html#q-no-such: no such anchor on that page"
        in messages
    )


def test_an_edit_link_that_names_the_content_folder_twice(tampered: tuple[Path, Path]) -> None:
    site, content = tampered
    page = site / TOPIC_PAGE
    good = f"/edit/main/content/{CHOICE_FILE}"
    text = page.read_text("utf-8")
    assert good in text
    page.write_text(text.replace(good, f"/edit/main/content/content/{CHOICE_FILE}"), "utf-8")
    code, output = run_verify(site, content)
    assert code == 1
    lines = [x for x in output.splitlines() if "edit link" in x]
    assert len(lines) == 1, output
    assert lines[0].startswith(
        f"{TOPIC_PAGE}: edit link 'https://github.com/qbank-dev/qbank/edit/main/content/content/"
        f"{CHOICE_FILE}' does not open the question's file content/{CHOICE_FILE}; expected "
        f"https://github.com/qbank-dev/qbank/edit/<branch>/content/{CHOICE_FILE}"
    )
    assert CHOICE in lines[0]


def test_an_edit_link_out_of_the_repository(tampered: tuple[Path, Path]) -> None:
    site, content = tampered
    page = site / TOPIC_PAGE
    text = page.read_text("utf-8")
    page.write_text(text.replace("https://github.com/qbank-dev/qbank/edit/", "https://x.org/edit/"))
    messages = [p.message for p in verify_site(site, load_bank(content))]
    assert (
        sum("is not into the repository https://github.com/qbank-dev/qbank/" in m for m in messages)
        == 4
    ), messages  # the topic's four questions


def test_a_source_link_that_is_not_a_url(tampered: tuple[Path, Path]) -> None:
    site, content = tampered
    page = site / TOPIC_PAGE
    text = page.read_text("utf-8")
    url = 'href="https://example.org/profiling-notes"'
    assert url in text
    page.write_text(text.replace(url, 'href="https://example.org/profiling-notes (MIT)"'))
    problems = verify_site(site, load_bank(content))
    assert [(p.page, p.message, p.question) for p in problems] == [
        (
            TOPIC_PAGE,
            "source link 'https://example.org/profiling-notes (MIT)' is not an http(s) URL",
            CHOICE,
        )
    ]


def test_not_a_site_folder(tmp_path: Path, built: tuple[Path, Path]) -> None:
    code, output = run_verify(tmp_path / "absent", built[1])
    assert code != 0
    assert "no such site folder" in output or "does not exist" in output


# -- the site's weight against the hosts' limits (qbank.tools.hosts) ----------------------


def test_a_default_site_has_no_bank_json_and_the_opt_in_writes_it(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    site, content = built
    assert not list(site.glob("*/api/bank.json"))
    opted = build_site(
        tmp_path, content, plugins=[{"qbank": {"content_dir": str(content), "bank_json": True}}]
    )
    bank = load_bank(content)
    for locale in ("en", "tr", "zh"):
        data = json.loads((opted / locale / "api/bank.json").read_text("utf-8"))
        assert len(data["questions"]) == sum(locale in e.locales for e in bank.entries)
    code, output = run_verify(opted, content)
    assert code == 0, output


def test_verify_reports_the_site_against_each_host(built: tuple[Path, Path]) -> None:
    site, content = built
    code, output = run_verify(site, content)
    assert code == 0, output
    weight = site_weight(site)
    assert weight.files == sum(1 for p in site.rglob("*") if p.is_file())
    assert f"in {weight.files:,} files; largest file {weight.largest_path} (" in output
    for host in ("GitHub Pages", "Cloudflare Pages", "GitLab Pages"):
        assert f"  {host}: takes it" in output


def test_verify_fails_a_site_github_pages_would_refuse(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    """A sparse file of 1.1 GB (no disk used; hosts count its size) pushes the site over
    GitHub Pages' 1 GB and over Cloudflare's 25 MiB a file."""
    site, content = built
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    (copy / "sw.js").unlink()  # the worker's list of files would name the copy's change
    with (copy / "big.bin").open("wb") as out:
        out.truncate(1_100_000_000)
    code, output = run_verify(copy, content)
    assert code == 1, output
    assert "largest file big.bin (1.10 GB)" in output
    assert "  GitHub Pages: refuses it: 1.10 GB is over its 1.00 GB a site" in output
    cloudflare = "  Cloudflare Pages: refuses it: big.bin (1.10 GB) is over its 25.0 MiB a file"
    assert cloudflare in output
    assert "GitHub Pages would refuse this site" in output
