"""The bank layer: the content format (models, YAML files, the catalog), every rule a question
file must satisfy, and the loaded, indexed bank. Reads files; never renders a page.

The package face is the core API (DESIGN.md)::

    from qbank.bank import load_bank, check_bank, Bank, Entry, ContentError

Its names are looked up when first used, so a module of the layer that needs none of them
(``qbank.bank.progress``, imported by ``qbank --help``) does not pull in pydantic, PyYAML
and numpy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from qbank.bank.catalog import load_catalog
    from qbank.bank.load import check_bank, load_bank, validate_bank
    from qbank.bank.loaded import Bank, Entry
    from qbank.bank.problems import ContentError, Problem

_FACE = {
    "Bank": "qbank.bank.loaded",
    "Entry": "qbank.bank.loaded",
    "ContentError": "qbank.bank.problems",
    "Problem": "qbank.bank.problems",
    "check_bank": "qbank.bank.load",
    "load_bank": "qbank.bank.load",
    "validate_bank": "qbank.bank.load",
    "load_catalog": "qbank.bank.catalog",
}

__all__ = [
    "Bank",
    "ContentError",
    "Entry",
    "Problem",
    "check_bank",
    "load_bank",
    "load_catalog",
    "validate_bank",
]


def __getattr__(name: str) -> Any:
    module = _FACE.get(name)
    if module is None:
        raise AttributeError(f"module 'qbank.bank' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
