"""Who writes the search index of a locale the forked process builds (``IndexClaims``): each
index is claimed by exactly one of two processes claiming at once, the costliest first."""

from __future__ import annotations

import json
import os
from pathlib import Path

from sitebuild import write_small_bank

from qbank.bank.load import load_bank
from qbank.plugin.locales import IndexClaims
from qbank.search import expected_cost

LOCALES = [f"l{n}" for n in range(200)]


def test_each_index_is_claimed_by_exactly_one_of_two_processes(tmp_path: Path) -> None:
    claims = IndexClaims(tmp_path / "claims", LOCALES)
    claims.folder.mkdir()
    record = tmp_path / "child.json"
    pid = os.fork()
    if pid == 0:  # the other process, claiming at the same time
        status = 1
        try:
            record.write_text(json.dumps([n for n in claims.order if claims.claim(n)]), "utf-8")
            status = 0
        finally:
            os._exit(status)
    mine = [locale for locale in reversed(claims.order) if claims.claim(locale)]
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    theirs = json.loads(record.read_text("utf-8"))
    assert not set(mine) & set(theirs)
    assert sorted(mine + theirs) == sorted(LOCALES)
    assert not claims.claim(LOCALES[0])  # (and never again)


def test_a_chinese_index_is_expected_to_cost_more_than_a_turkish_one(tmp_path: Path) -> None:
    bank = load_bank(write_small_bank(tmp_path / "content"))
    costs = {locale: expected_cost(bank, locale, sample=1) for locale in ("en", "tr", "zh")}
    assert costs["zh"] > costs["tr"] > 0
    assert costs["zh"] > costs["en"] > 0
    assert expected_cost(bank, "fr", sample=1) == 0
