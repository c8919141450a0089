"""What ``mkdocs build`` through the plugin tells the maintainer: each phase once, with its
timing, at INFO under ``mkdocs.plugins.qbank`` (issue 22), and no line per file."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import yaml
from sitebuild import QUESTIONS, build_site, write_small_bank

LOCALES = ("en", "tr", "zh")
TIMED = r" \(\d+\.\d s\)$"


def test_each_phase_is_logged_once_with_its_timing(tmp_path: Path) -> None:
    build_site(tmp_path, write_small_bank(tmp_path / "content"))  # writes mkdocs.yml
    # Again, not quiet (and over the site just built): the INFO lines show.
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        text=True,
    )
    lines = [
        line.split(" -  ", 1)[1]
        for line in (done.stdout + done.stderr).splitlines()
        if line.startswith("INFO") and " -  qbank: " in line
    ]
    counts = {loc: sum(loc in q["prompt"] for q in QUESTIONS.values()) for loc in LOCALES}
    expected = [f"qbank: bank loaded, {len(QUESTIONS)} questions"]
    for locale in LOCALES:
        expected += [
            f"qbank: {locale}: pages rendered",
            f"qbank: {locale}: pages built",
            f"qbank: {locale}: search index written, {counts[locale]} questions",
        ]
    expected.append(f"qbank: site published to {tmp_path / 'site'}")
    # the offline worker's files, named by the build's id (a hash of the served files)
    expected.append(r"qbank: offline files: build [0-9a-f]{16}")
    for phase in expected:
        pattern = phase if phase.endswith("{16}") else re.escape(phase)
        if phase.endswith("pages built"):  # (this second build's pages, and their Markdown,
            # all from the cache; every page linked from the site the first build published,
            # and all but the first never read: nothing they are made of changed)
            pattern += (
                r", (\d+) of \1 from the page cache \(\1 linked from the last site,"
                r" (\d+) unread\), Markdown of \1 kept"
            )
        if "search index written" in phase:  # (every file of it the same: all linked, and
            # every field's share of it for the offline copy kept)
            pattern += (
                r", (\d+) of \1 files linked from the last site,"
                r" (\d+) of \2 fields' offline shares kept"
            )
        found = [line for line in lines if re.fullmatch(pattern + TIMED, line)]
        for line in found if phase.endswith("pages built") else ():
            built, unread = re.findall(r"(\d+) of \1 from the page cache.*, (\d+) unread", line)[0]
            assert int(unread) == int(built) - 1, line
        assert len(found) == 1, f"{phase!r} logged {len(found)} times:\n" + "\n".join(lines)
    assert len(lines) == len(expected), "lines besides the phases:\n" + "\n".join(lines)
    assert (tmp_path / "site" / "tr" / "index.html").is_file()


def test_a_warning_is_logged_as_a_warning_when_the_build_fails(tmp_path: Path) -> None:
    """Issue 15, point 10: a near-duplicate notice in a failed build is a WARNING, not an
    ERROR that says "warning:"."""
    content = write_small_bank(tmp_path / "content")
    build_site(tmp_path, content)
    original = QUESTIONS["backend/indexing/covering-index.yaml"]
    near = {
        "id": "01a05d13-8d21-739a-baa2-7dab67be4009",
        "seniority": "senior",
        # The same words, other punctuation: similarity 1.00 (a word inserted into this
        # 9-word prompt is no longer near: shingles follow word order).
        "prompt": {"en": str(original["prompt"]["en"]).replace("?", "!")},
    }
    wrong = {**near, "id": "01a05d13-8d21-739a-baa2-7dab67be4010", "bogus": 1}
    wrong["prompt"] = {"en": "Which page size suits a B-tree on SSDs?"}
    for name, data in (("near-copy", near), ("wrong", wrong)):
        path = content / "backend" / "indexing" / f"{name}.yaml"
        path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build"],
        cwd=tmp_path,
        check=False,
        capture_output=True,
        text=True,
    )
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    levels = {
        line.split(" -  ", 1)[1]: line.split()[0] for line in output.splitlines() if " -  " in line
    }
    warned = [text for text in levels if "near-copy.yaml" in text and " warning: " in text]
    assert warned, output
    assert levels[warned[0]] == "WARNING", output
    assert any(levels[t] == "ERROR" and "bogus: unknown key" in t for t in levels), output
    assert not any(levels[t] == "ERROR" and " warning: " in t for t in levels), output
    assert (tmp_path / "site" / "tr" / "index.html").is_file()  # the last site stays


# Run mkdocs with an exit handler registered before any of its own: it runs last, and says
# whether the process's objects were frozen by then (no collection over them at the end).
FROZEN_AT_EXIT = (
    "import atexit, gc, sys;"
    "atexit.register(lambda: print('frozen at exit:', gc.get_freeze_count() > 0));"
    "from mkdocs.__main__ import cli; sys.argv = ['mkdocs', *sys.argv[1:]]; cli()"
)


def test_a_build_ends_without_collecting_garbage_over_the_bank(tmp_path: Path) -> None:
    build_site(tmp_path, write_small_bank(tmp_path / "content"))  # writes mkdocs.yml
    for command, frozen in (("build", True), ("--version", False)):
        done = subprocess.run(
            [sys.executable, "-c", FROZEN_AT_EXIT, command],
            cwd=tmp_path,
            check=True,
            capture_output=True,
            text=True,
        )
        assert f"frozen at exit: {frozen}" in done.stdout, done.stdout + done.stderr
