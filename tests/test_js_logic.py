"""The widget's pure logic (review schedule, progress transfer merge, storage shapes and
migration, search tokenizing: ``site_templates/assets/lib/``) under node's own test runner:
``node --test tests/js/``. Without node the test fails where CI is set, else it skips."""

from __future__ import annotations

import subprocess
from pathlib import Path

from support.node import node_or_skip

JS_TESTS = Path(__file__).resolve().parent / "js"


def test_node_test_runner_passes_the_widget_logic_tests() -> None:
    node = node_or_skip("tests/js/ (the widget's logic) runs under node --test")
    assert sorted(JS_TESTS.glob("*.test.mjs")), "no test files in tests/js/"
    result = subprocess.run(
        [node, "--test", str(JS_TESTS)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "# fail 0" in result.stdout, result.stdout[-4000:]
