"""Shared fixtures: a small bank on disk and a real ``mkdocs build --strict`` of it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from sitebuild import build_site, write_small_bank


@pytest.fixture
def small_bank(tmp_path: Path) -> Path:
    """The small bank's content folder (en/tr/zh, 2 fields, choice/multi/open, code, math)."""
    return write_small_bank(tmp_path / "content")


@pytest.fixture
def site_builder() -> Callable[..., Path]:
    """``build_site`` as a fixture, for tests that prefer injection."""
    return build_site
