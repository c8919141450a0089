"""A warning printed among a failed build's errors is logged as a warning (issue 15, 10)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from sitebuild import build_site, plant_near_duplicates, write_small_bank


def test_warnings_among_errors_are_logged_as_warnings(tmp_path: Path) -> None:
    content = write_small_bank(tmp_path / "content")
    plant_near_duplicates(content)
    question = yaml.safe_load((content / "ml-engineer/numerics/loss-scaling.yaml").read_text())
    bad = dict(question, id="01a05d13-8d21-739a-baa2-7dab67be40fe", difficulty=7)
    bad["prompt"] = {"en": "Something else entirely", "tr": "Bambaşka bir şey"}
    (content / "ml-engineer/numerics/bad.yaml").write_text(yaml.safe_dump(bad))
    with pytest.raises(subprocess.CalledProcessError):
        build_site(tmp_path, content)  # writes mkdocs.yml; its -q shows errors only
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build"], cwd=tmp_path, capture_output=True, text=True
    )
    assert run.returncode != 0
    assert not (tmp_path / "site").exists()
    lines = run.stderr.splitlines()
    warnings = [line for line in lines if "warning: nearly the same prompt" in line]
    assert warnings, run.stderr[-2000:]
    assert all(line.startswith("WARNING") for line in warnings), warnings
    errors = [line for line in lines if "difficulty: 7 is not an allowed value" in line]
    assert errors, run.stderr[-2000:]
    assert errors[0].startswith("ERROR"), errors
