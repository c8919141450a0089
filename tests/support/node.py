"""node, for the tests that run the widget's JavaScript: its path, or the test skips (fails
where CI is set, so a CI without node does not pass by skipping)."""

from __future__ import annotations

import os
import shutil

import pytest


def node_or_skip(why: str) -> str:
    """The path of ``node``; without it the test fails under CI, else skips, saying ``why``."""
    node = shutil.which("node")
    if node is None:
        message = f"node is not installed: {why}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return node
