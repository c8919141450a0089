"""The loader on its own: one file in, data and located problems out."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

import qbank.bank.yamlfile
from qbank.bank.similarity import near_duplicates, normalize_text, prompt_tokens
from qbank.bank.yamlfile import MAX_FILE_BYTES, read_document

ID = b"id: 01a05d13-8d21-739a-baa2-7dab67be4093\n"


def _read(tmp_path: Path, data: bytes) -> tuple[object, list[str]]:
    path = tmp_path / "q.yaml"
    path.write_bytes(data)
    doc = read_document(path, "q.yaml")
    return doc.data, [p.format_text() for p in doc.problems]


def test_bom_and_crlf_are_accepted(tmp_path: Path) -> None:
    data, problems = _read(
        tmp_path, b"\xef\xbb\xbf" + ID.replace(b"\n", b"\r\n") + b"a: |\r\n  x\r\n"
    )
    assert problems == []
    assert data == {"id": "01a05d13-8d21-739a-baa2-7dab67be4093", "a": "x\n"}


def test_text_and_keys_are_nfc_normalized(tmp_path: Path) -> None:
    decomposed = "cafe\u0301"
    data, problems = _read(tmp_path, f"{decomposed}: {decomposed} ok\n".encode())
    assert problems == []
    assert data == {"caf\u00e9": "caf\u00e9 ok"}
    assert all(unicodedata.is_normalized("NFC", k) for k in data)  # type: ignore[union-attr]


def test_billion_laughs_is_refused_before_expansion(tmp_path: Path) -> None:
    lines = [b'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for c in range(ord("b"), ord("j")):
        lines.append(b"%c: &%c [%s]" % (c, c, b",".join([b"*%c" % (c - 1)] * 9)))
    data, problems = _read(tmp_path, b"\n".join(lines) + b"\n")
    assert data is None
    assert problems == [
        "q.yaml:1:4: YAML anchor '&a' is not allowed; "
        "expected plain values written out in full (no & anchors or * aliases)"
    ]


def test_100000_levels_of_nesting_are_refused(tmp_path: Path) -> None:
    data, problems = _read(tmp_path, ID + b"prompt: " + b"[" * 100_000 + b"]" * 100_000 + b"\n")
    assert data is None
    assert len(problems) == 1
    assert problems[0].startswith("q.yaml:2:")
    assert "exceeded maximum nesting depth" in problems[0]
    assert problems[0].endswith("; expected a question file nested a few levels deep")


def test_deep_block_nesting_is_capped(tmp_path: Path) -> None:
    body = b"".join(b"  " * i + b"k%d:\n" % i for i in range(40)) + b"  " * 40 + b"v\n"
    _data, problems = _read(tmp_path, body)
    assert len(problems) == 1
    assert "nested too deeply; expected at most 32 levels" in problems[0]


def test_size_limit(tmp_path: Path) -> None:
    _data, problems = _read(tmp_path, b"a: '" + b"x" * MAX_FILE_BYTES + b"'\n")
    assert problems == [
        f"q.yaml:1:1: file is {MAX_FILE_BYTES + 6:,} bytes, over the limit of "
        f"{MAX_FILE_BYTES:,}; expected one question per file, at most 256 KiB"
    ]


def test_markdown_stars_and_ampersands_are_not_aliases(tmp_path: Path) -> None:
    text = b"a: |\n  **bold** & *it* R&D\n  x = *p\nb: '&c'\n"
    data, problems = _read(tmp_path, text)
    assert problems == []
    assert data == {"a": "**bold** & *it* R&D\nx = *p\n", "b": "&c"}


def test_positions_point_into_block_scalars(tmp_path: Path) -> None:
    path = tmp_path / "q.yaml"
    path.write_text("prompt:\n  en: |\n    one\n    two\n  tr: inline\n", encoding="utf-8")
    doc = read_document(path, "q.yaml")
    assert doc.locate(("prompt", "en")) == (2, 3)
    assert doc.locate(("prompt", "en"), text_line=0) == (3, 1)
    assert doc.locate(("prompt", "en"), text_line=1) == (4, 1)
    assert doc.locate(("prompt", "tr"), text_line=0) == (5, 7)
    assert doc.locate(("prompt", "tr"), at_value=True) == (5, 7)
    assert doc.locate(("prompt", "zh")) == (1, 1)  # missing: the nearest written ancestor


def test_a_problem_is_located_from_the_parse_not_a_second_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The positions of a file's problems come from the nodes its parse composed: the text
    is composed once, and the problem's line is the same as from a parse of its own."""
    path = tmp_path / "q.yaml"
    path.write_text("id: x\nprompt:\n  en: |\n    one\n  tr: bir\n", encoding="utf-8")
    composed: list[str] = []
    compose = qbank.bank.yamlfile._compose

    def counted(text: str) -> object:
        composed.append(text)
        return compose(text)

    monkeypatch.setattr(qbank.bank.yamlfile, "_compose", counted)
    doc = read_document(path, "q.yaml")
    problem = doc.problem(("prompt", "tr"), "a problem", "a hint", at_value=True)
    assert (problem.line, problem.col, problem.key) == (5, 7, "prompt.tr")
    assert len(composed) == 1
    again = read_document(path, "q.yaml")
    again._node = None  # as a document that was not parsed whole: composed again
    assert again.locate(("prompt", "tr"), at_value=True) == (5, 7)
    assert len(composed) == 3


def test_prompt_tokens_pair_chinese_characters() -> None:
    assert prompt_tokens(normalize_text("GPU 利用率 Rate")) == frozenset(
        {"gpu", "利用", "用率", "rate"}
    )
    assert prompt_tokens("中") == frozenset({"中"})


def test_near_duplicates_finds_exactly_the_similar_pairs() -> None:
    base = [f"w{i}" for i in range(30)]
    items = [
        ("a", frozenset(base)),
        ("b", frozenset([*base, "extra"])),  # 30/31 = 0.97 with a
        ("c", frozenset([*base[:25], "x1", "x2", "x3", "x4", "x5"])),  # 25/35 with a
        ("d", frozenset(f"v{i}" for i in range(30))),
        ("e", frozenset(f"u{i}" for i in range(10))),
        ("f", frozenset(f"u{i}" for i in range(9))),  # 9/10 with e: exactly the threshold
        ("g", frozenset(f"u{i}" for i in range(8))),  # 8/10 with e, 8/9 with f
    ]
    ids: dict[str, int] = {}
    numbered = [(name, frozenset(ids.setdefault(t, len(ids)) for t in s)) for name, s in items]
    found = {(a, b) for a, b, _score in near_duplicates(numbered, 0.9)}
    assert found == {("a", "b"), ("f", "e")}


@pytest.mark.parametrize("packed", [False, True])
@pytest.mark.parametrize("threshold", [0.9, 0.75])
def test_near_duplicates_equals_brute_force(threshold: float, packed: bool) -> None:
    """The join finds exactly the pairs a brute-force comparison finds, on sets and on
    token hashes packed in arrays (what the bank passes)."""
    import random
    from array import array
    from itertools import combinations

    rng = random.Random(3)
    vocab = [f"t{i}" for i in range(400)]
    weights = [1 / (r + 1) for r in range(len(vocab))]
    items: list[tuple[int, frozenset[str]]] = []
    for n in range(600):
        if n % 4 == 3:  # a mutated copy of an earlier set
            base = set(items[rng.randrange(len(items))][1])
            for _ in range(rng.randint(0, 3)):
                base.discard(rng.choice(sorted(base)))
            base.update(rng.choices(vocab, k=rng.randint(0, 3)))
            items.append((n, frozenset(base)))
        else:
            items.append((n, frozenset(rng.choices(vocab, weights, k=rng.randint(5, 60)))))
    brute = {
        (a, b) if a < b else (b, a)
        for (a, x), (b, y) in combinations(items, 2)
        if len(x & y) / len(x | y) >= threshold
    }
    ids: dict[str, int] = {}
    numbered = [(n, frozenset(ids.setdefault(t, len(ids)) for t in tokens)) for n, tokens in items]
    joined = [(n, array("q", map(hash, tokens))) for n, tokens in items] if packed else numbered
    found = {(a, b) if a < b else (b, a) for a, b, _ in near_duplicates(joined, threshold)}
    assert len(brute) > 50
    assert found == brute
