"""Shared fixtures: a small bank on disk and a real ``mkdocs build --strict`` of it."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from sitebuild import build_site, write_serve_config, write_small_bank
from support.serving import Served, free_port

# Property tests: every example in CI, a tenth by default (support/examples.py).
settings.register_profile("ci", max_examples=100, print_blob=True)
settings.register_profile("dev", max_examples=10)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


# Modules whose every test is slow: a wheel in a fresh venv, a running `mkdocs serve`, a
# publisher's build, several whole builds of a site, generated banks of thousands of
# questions, random edit sequences, the console script under a pseudo-terminal.
# `make test-fast` leaves them out (-m "not slow"); `make test` runs them.
SLOW_MODULES = {
    "test_wheel",
    "test_serve",
    "test_serve_incremental",
    "test_serve_banner",
    "test_serve_lifetimes",
    "test_search_serve",
    "test_sample_site",
    "test_lookalike",
    "test_seniority_parts",
    "test_progress",
    "test_build_script",
    "test_workflows",
    "test_bank_incremental",
    "test_determinism",
    "test_atomic",
    "test_bank_as_dependency",
    "test_build_log",
    "test_search_live",
    "test_csp",
    "test_docs_commands",
    "test_fsrs_parity",
    "test_build_cache_sequences",
}


# Modules that fork helper processes and check it: they need a process with no other thread
# (qbank forks only then), which a pytest-xdist worker is not. `make test` runs them apart.
SERIAL_MODULES = {"test_live_lifetimes"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.stem in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
        if item.path.stem in SERIAL_MODULES:
            item.add_marker(pytest.mark.serial)
        # A test that drives Chromium is a browser test, marked or not.
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


@pytest.fixture
def small_bank(tmp_path: Path) -> Path:
    """The small bank's content folder (en/tr/zh, 2 fields, choice/multi/open, code, math)."""
    return write_small_bank(tmp_path / "content")


@pytest.fixture(scope="session")
def small_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(site, content): one real ``mkdocs build --strict`` of the small bank with the default
    configuration, shared by every test that only reads it (copy it before changing it)."""
    tmp = tmp_path_factory.mktemp("small-site")
    content = write_small_bank(tmp / "content")
    return build_site(tmp, content), content


@pytest.fixture
def site_builder() -> Callable[..., Path]:
    """``build_site`` as a fixture, for tests that prefer injection."""
    return build_site


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """A running ``mkdocs serve`` of the small bank (its first build published)."""
    content = write_small_bank(tmp_path / "content")
    write_serve_config(tmp_path)
    (tmp_path / "tmp").mkdir()
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"],
            cwd=tmp_path,
            env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "TMPDIR": str(tmp_path / "tmp")},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    running = Served(port, content, tmp_path, log, server)
    try:
        running.wait_builds(1)
        running.wait_page("/en/backend/indexing/", "qb-q")
        yield running
    finally:
        server.terminate()
        server.wait(30)
