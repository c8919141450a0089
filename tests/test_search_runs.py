# ruff: noqa: RUF001  (Turkish test words)
"""Terms files of runs of prefixes (``index.FILE_BYTES``): a bank whose terms would fill
thousands of one-prefix terms files gets few, and a query word finds through the manifest
exactly the terms of its prefix with the postings its documents give: what the one-prefix
file of before held, so every query finds the same questions."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import random
import string
from typing import Any

import pytest
from support.searchdocs import weighed

from qbank.search import LEVELS, SearchDoc, index
from qbank.search.index import FILE_BYTES, PREFIX, LocaleIndex, bucketed, prefix_of, shard_name

LETTERS = string.ascii_lowercase + string.digits + "çışü_"
ODD = ["a", "ab", "ç", "çay", "ışık", "ı", "_x", "9", "99", "𝔸b", "𝔸𝔹c", "é", "数据x"]


def made_up(count: int, seed: int) -> list[SearchDoc]:
    """Documents of random words (most prefixes held by a word or two) and odd short ones."""
    rng = random.Random(seed)
    docs = []
    for number in range(count):
        words = {
            "".join(rng.choices(LETTERS, k=rng.randint(3, 9))) for _ in range(rng.randint(1, 9))
        }
        words |= set(rng.sample(ODD, rng.randint(0, 3)))
        terms = tuple((word, rng.randint(1, LEVELS - 1)) for word in sorted(words))
        url = f"/en/f/t/#q-{number}"
        docs.append(weighed(url, "T", "P", "", (("field", "f"),), terms))
    return docs


def brute_force(docs: list[SearchDoc]) -> dict[str, dict[str, list[int]]]:
    """Per prefix, its terms with their postings (``LEVELS * n + step``), from the documents."""
    found: dict[str, dict[str, list[int]]] = {}
    for number, doc in enumerate(docs):
        for term, step in doc.terms:
            if not bucketed(term):
                found.setdefault(prefix_of(term), {}).setdefault(term, []).append(
                    number * LEVELS + step
                )
    return found


def looked_up(read: dict[str, Any], prefix: str) -> dict[str, list[int]]:
    """What ``search.js`` sees of ``prefix`` (``Index.fileOf`` and ``matches``) in ``read``
    (``grouped``): the last run of its first character starting at or before it, its terms
    of that prefix (which ``search.js`` picks as the terms starting with it, or for a shorter
    prefix the whole term), postings summed back from their deltas."""
    starts = [s for s in read["index.json"]["shards"].split("\n") if s and s[0] == prefix[0]]
    before = [start for start in starts if start <= prefix]
    if not before:
        return {}
    terms = read[f"t/{shard_name(before[-1])}.json"].get(prefix, {})
    return {term: list(itertools.accumulate(deltas)) for term, deltas in terms.items()}


def grouped(files: dict[str, bytes]) -> dict[str, Any]:
    """The manifest read, and each terms file's terms by prefix."""
    read: dict[str, Any] = {"index.json": json.loads(files["index.json"])}
    for name, data in files.items():
        if name.startswith("t/"):
            by_prefix: dict[str, dict[str, list[int]]] = {}
            for term, deltas in json.loads(data).items():
                by_prefix.setdefault(prefix_of(term), {})[term] = deltas
            read[name] = by_prefix
    return read


@pytest.mark.parametrize("seed", [0, 1])
def test_many_small_prefixes_make_few_files_and_the_same_answers(seed: int) -> None:
    docs = made_up(2000, seed)
    expected = brute_force(docs)
    files = dict(LocaleIndex.build(docs, "en").files())
    manifest = json.loads(files["index.json"])
    assert manifest["format"] == index.FORMAT == 3
    assert manifest["prefix"] == PREFIX
    runs = [name for name in files if name.startswith("t/") and not name.startswith("t/7e-")]
    assert len(runs) == len(manifest["shards"].split("\n"))
    firsts = {prefix[0] for prefix in expected}
    # One prefix a file would be thousands of files; runs of FILE_BYTES are a few dozen.
    assert len(expected) > 4000
    total = sum(len(files[name]) for name in runs)
    assert len(runs) <= math.ceil(total / FILE_BYTES) * 2 + len(firsts)
    assert len(runs) * 50 < len(expected)
    held = {name: {prefix_of(term) for term in json.loads(files[name])} for name in runs}
    # (a run passes FILE_BYTES only when one prefix does alone)
    big = [name for name in runs if len(files[name]) > FILE_BYTES and len(held[name]) > 1]
    assert big == []
    # Every prefix finds its terms, every posting; an absent prefix finds nothing.
    read = grouped(files)
    rng = random.Random(seed)
    probes = ["".join(rng.choices(LETTERS, k=rng.randint(1, PREFIX))) for _ in range(2000)]
    wrong = [p for p in [*expected, *probes] if looked_up(read, p) != expected.get(p, {})]
    assert wrong == []


def test_an_edit_cuts_the_runs_of_its_first_character_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Edits that move the runs' boundaries leave the files a fresh build writes, and rewrite
    only files of the edited terms' first characters."""
    monkeypatch.setattr(index, "FILE_BYTES", 400)
    docs = made_up(300, 9)
    built = LocaleIndex.build(docs, "en")
    rng = random.Random(4)
    for _ in range(30):
        number = rng.randrange(len(docs))
        old = docs[number]
        new = made_up(1, rng.randrange(10**6))[0]
        new = dataclasses.replace(old, words=new.words, steps=new.steps)
        changes = built.replace([(number, old, new)])
        docs[number] = new
        fresh = dict(LocaleIndex.build(docs, "en").files())
        assert dict(built.files()) == fresh
        firsts = {t[0] for t, _ in old.terms + new.terms if not bucketed(t)}
        assert all(key.startswith("~") or key[0] in firsts for key in changes.shards)
        listed = {path for path, _ in built.changed_files(changes)}
        assert changes.manifest == ("index.json" in listed)
