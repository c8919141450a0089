"""A synthetic bank module loaded from bench/ for the incremental-load tests."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType


def make_bank_module() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "bench" / "make_bank.py"
    spec = importlib.util.spec_from_file_location("make_bank", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
