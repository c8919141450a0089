"""The repository's own sample bank as a maintainer publishes it without the plugin:
``qbank build``'s tree published by MkDocs, ProperDocs and Zensical, each site then checked by
``qbank verify`` (the plugin's build of it: ``tests/test_verify.py``).

(These were steps of ``make test`` after pytest; as tests they run once, in the suite.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sitebuild import PUBLISHERS

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
QUIET = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


def run(*command: str | Path, cwd: Path = ROOT) -> str:
    done = subprocess.run(
        [str(part) for part in command], cwd=cwd, capture_output=True, text=True, env=QUIET
    )
    assert done.returncode == 0, f"{command} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def verified(site: Path) -> str:
    """``qbank verify``'s report of ``site`` against the sample bank (it fails on a problem)."""
    out = run(BIN / "qbank", "verify", site)
    assert any(line.startswith("ok: ") for line in out.splitlines()), out
    assert "GitHub Pages: takes it" in out, out
    return out


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("publish")
    run(BIN / "qbank", "build", "--out", out)
    return out


@pytest.mark.parametrize("publisher", PUBLISHERS)
def test_the_sample_bank_publishes_without_the_plugin(tree: Path, publisher: str) -> None:
    if publisher == "zensical":
        run(BIN / "zensical", "build", "--strict", "-f", tree / "mkdocs.yml", cwd=tree)
        site = tree / "site"
    else:
        site = tree / f"site-{publisher}"
        run(BIN / publisher, "build", "--strict", "-q", "-f", tree / "mkdocs.yml", "-d", site)
    verified(site)
