"""The sample bank in this repository loads without errors."""

from pathlib import Path

from qbank.bank.load import load_bank

ROOT = Path(__file__).resolve().parent.parent


def test_sample_bank_loads() -> None:
    bank = load_bank(ROOT / "content")
    assert bank.catalog.locales[0] == "en"
