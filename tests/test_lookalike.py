"""A bank of look-alike (templated) questions: near-duplicate prompts are found exactly, their
warnings grouped (at most one line per question file, never one per pair), and the work
stays bounded; a load under serve reports the same as a load from scratch."""

from __future__ import annotations

import os
import random
import re
import shutil
import uuid
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.bankmodule import make_bank_module as _make_bank_module

import qbank.bank.similarity
from qbank.bank.load import check_bank
from qbank.bank.similarity import (
    bounded_near_duplicates,
    near_duplicates,
    normalize_text,
    prompt_keys,
    prompt_shingles,
    prompt_tokens,
)
from qbank.live.reload import BankCache
from qbank.tools.cli import main

NEAR = "nearly the same prompt as"


@pytest.fixture(scope="module")
def templated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """600 templated questions in three locales: every prompt of an opening line holds the
    same 36 words in another order and other numbers in its code; questions 150 and 450
    repeat the prompt before them with one word more."""
    out = tmp_path_factory.mktemp("lookalike") / "content"
    _make_bank_module().make_bank(
        out, questions=600, fields=3, specs=2, topics=4, seed=5, lookalike=True
    )
    return out


def _validate(content: Path) -> list[str]:
    result = CliRunner().invoke(main, ["validate", str(content)])
    assert "Traceback" not in result.output
    return [line for line in result.output.splitlines() if ": warning: " in line]


def _per_file(lines: list[str]) -> Counter[str]:
    return Counter(line.split(":", 1)[0] for line in lines)


def test_templated_prompts_are_not_near_duplicates(templated: Path) -> None:
    lines = _validate(templated)
    files = _per_file(lines)
    assert max(files.values()) == 1
    # Only the two planted pairs: prompts sharing every word in another order are told apart.
    assert sorted(Path(f).name for f in files) == ["q-000150.yaml", "q-000450.yaml"]
    assert all(NEAR in line for line in lines)
    for line in lines:
        mine = int(line.split("q-", 1)[1][:6])
        assert f"q-{mine - 1:06d}.yaml (similarity 0.9" in line


def _cluster(content: Path, base: Path, count: int) -> None:
    """``count`` questions whose prompts are one long text with one word of their own:
    every two of them are near-duplicates."""
    text = " ".join(f"word{i}" for i in range(60))
    topic = next(p.parent for p in sorted(base.glob("*/*/q-*.yaml")))
    for n in range(count):
        (topic / f"alike-{n:03d}.yaml").write_text(
            f"id: 01a05d13-8d21-739a-baa2-{n:012d}\n"
            "difficulty: 2\n"
            f"prompt: {{en: {text} own{n}}}\n"
            "options: {a: {en: One}, b: {en: Two}}\n"
            "answer: a\n"
            "explanation: {en: Because one.}\n",
            "utf-8",
        )


def test_a_cluster_of_look_alikes_is_one_line_per_file(tmp_path: Path) -> None:
    content = tmp_path / "content"
    _make_bank_module().make_bank(content, questions=60, fields=1, specs=1, topics=2, seed=2)
    _cluster(content, content, 30)
    lines = _validate(content)
    files = _per_file(lines)
    # 435 pairs, 29 lines: each file but the first names its closest look-alikes once.
    assert len(lines) == 29
    assert max(files.values()) == 1
    last = next(line for line in lines if "alike-029.yaml:" in line)
    assert last.count("(0.") == 2  # three named: the closest with "similarity", then two
    assert "and 26 other questions" in last
    second = next(line for line in lines if "alike-001.yaml:" in line)
    assert "alike-000.yaml (similarity 0.9" in second
    assert " other question" not in second


def _same_as_from_scratch(root: Path, cache: BankCache) -> list[str]:
    updated = [p.format_text() for p in check_bank(root, cache)[1]]
    scratch = [p.format_text() for p in check_bank(root)[1]]
    assert updated == scratch
    return updated


def _bump(path: Path, clock: list[int]) -> None:
    """A new, later modification time for the file and its folder (one clock tick could
    keep a stamp; folders of the listing are kept while their stamp holds)."""
    clock[0] += 1_000_000_000
    if path.exists():
        os.utime(path, ns=(clock[0], clock[0]))
    os.utime(path.parent, ns=(clock[0], clock[0]))


@pytest.mark.parametrize("cap", [None, 4])
def test_serve_loads_report_the_same_as_full_loads(
    templated: Path, tmp_path: Path, cap: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Edits on a templated bank (with a cluster of look-alikes), each load under serve
    compared with a load from scratch; with a small cap the join bounds its work and the
    serve path joins again instead of updating."""
    root = tmp_path / "content"
    shutil.copytree(templated, root)
    _cluster(root, root, 12)
    if cap is not None:
        monkeypatch.setattr("qbank.bank.crossfile.CANDIDATES_PER_PROMPT", cap)
        monkeypatch.setattr("qbank.live.crossfile_update.CANDIDATES_PER_PROMPT", cap)
    cache: BankCache = BankCache()
    rng = random.Random(cap or 0)
    clock = [1_700_000_000_000_000_000]
    first = _same_as_from_scratch(root, cache)
    if cap is None:
        assert sum(NEAR in p for p in first) == 2 + 11
    updated = 0
    for step in range(9):
        files = sorted(root.glob("*/*/*.yaml"))
        path = rng.choice(files)
        text = path.read_text("utf-8")
        if step % 3 == 0:  # a near copy of another question, in a new file
            copy = path.with_name(f"copy-{step}.yaml")
            fresh = uuid.UUID(int=rng.getrandbits(128), version=4)
            text = re.sub(r"(?m)^id: .*$", f"id: {fresh}", text, count=1)
            copy.write_text(text.replace("  en: |\n    ", "  en: |\n    Also ", 1), "utf-8")
            _bump(copy, clock)
        elif step % 3 == 1:  # every key two lines further down
            path.write_text("# moved\n# down\n" + text, "utf-8")
            _bump(path, clock)
        else:  # a question removed (a look-alike of others, now and then)
            path = rng.choice([p for p in files if "alike" in p.name or "copy" in p.name])
            path.unlink()
            _bump(path, clock)
        state = cache.derived.cross_file
        problems = _same_as_from_scratch(root, cache)
        updated += cache.derived.cross_file is state
        assert max(_per_file([p for p in problems if NEAR in p]).values()) == 1
    state = cache.derived.cross_file
    assert state is not None
    assert state.capped is (cap is not None)
    assert updated >= 5 if cap is None else updated == 0


def test_the_bounded_join_reports_only_true_pairs() -> None:
    """With a cap the join examines a bounded number of candidates per set: every pair it
    reports is a true one with its exact similarity, and it says that it left some out."""
    base = list(range(1000, 1060))
    items = [(n, frozenset([*base, n])) for n in range(200)]  # all 19,900 pairs similar
    items += [(200 + n, frozenset(range(n * 100, n * 100 + 40))) for n in range(5)]
    exact = {(a, b): s for a, b, s in near_duplicates(items, 0.9)}
    assert len(exact) == 200 * 199 // 2
    found, capped = bounded_near_duplicates(items, 0.9, 8)
    assert capped
    assert 0 < len(found) < 200 * 11 * 8  # sets x prefix tokens x cap
    for a, b, score in found:
        assert exact[a, b] == score
    assert {b for _, b, _ in found} == set(range(1, 200))
    assert bounded_near_duplicates(items, 0.9, 10_000) == (near_duplicates(items, 0.9), False)


@pytest.mark.parametrize(
    "prompt",
    [
        "",
        "word",
        "What is the output of the code below? print(x + y)",
        "a b a b a b c",  # repeated words and repeated pairs
        "Çıktı nedir? şu kod: x = 1; İstanbul _alt_çizgi_",  # noqa: RUF001
        "下面代码的输出是什么？ print(x) 利用率 GPU",  # noqa: RUF001
        "ｆｕｌｌ　ｗｉｄｔｈ  Text\n\nwith   spaces",  # noqa: RUF001
    ],
)
def test_prompt_keys_hash_every_distinct_shingle_once(prompt: str) -> None:
    norm_hash, keys = prompt_keys(prompt)
    norm = normalize_text(prompt)
    assert norm_hash == hash(norm)
    assert len(set(keys)) == len(keys) == len(prompt_shingles(norm))
    # Single tokens keep their own hash; the pairs are the rest.
    tokens = {hash(s) for s in prompt_shingles(norm) if isinstance(s, str)}
    assert tokens <= set(keys)


@pytest.mark.parametrize(
    "prompt",
    [
        "snake_case and __dunder__ names, x.y(z) = 1_000; a-b/c",
        "Çıktı nedir? şu_kod: «x²» = 1½; İstanbul'da ½ ﬁle",  # noqa: RUF001
        "Was gibt   print(f'{ä}')   aus?\n\n```python\nx = [1, 2]\n```",
        "Plain ASCII words only, with punctuation: (a), [b], {c}!",
    ],
)
def test_prompt_words_are_the_runs_of_letters_and_digits(prompt: str) -> None:
    """Words are cut at every character that is neither a letter nor a digit (underscore
    and punctuation included), whichever way the text is split."""
    norm = normalize_text(prompt)
    assert prompt_tokens(norm) == frozenset(re.findall(r"[^\W_]+", norm))
    shingles = prompt_shingles(norm)
    assert len(prompt_keys(prompt)[1]) == len(shingles)
    assert {hash(s) for s in shingles if isinstance(s, str)} <= set(prompt_keys(prompt)[1])


def test_prompt_keys_tell_word_order_apart() -> None:
    forward = set(prompt_keys("alpha beta gamma delta epsilon")[1])
    backward = set(prompt_keys("epsilon delta gamma beta alpha")[1])
    # The same five words; not one of the four pairs in common.
    assert len(forward & backward) == 5
    assert len(forward) == len(backward) == 9
    assert prompt_keys("Alpha  BETA gamma")[1] == prompt_keys("alpha beta gamma")[1]


def test_the_join_counts_pair_codes_alike_in_32_and_64_bits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pair codes are counted in 32 bits when every code fits (up to 65,536 sets), in 64
    bits beyond: both give the same pairs, capped or not."""
    rng = random.Random(3)
    words = list(range(60))
    items: list[tuple[int, frozenset[int]]] = []
    for n in range(300):
        # Every third set is the one before with one token more (similarity 30/31).
        picked = [*items[-1][1], 1000 + n] if n % 3 == 1 else rng.sample(words, 30)
        items.append((n, frozenset(picked)))
    narrow = [bounded_near_duplicates(items, 0.9, cap) for cap in (None, 4)]
    assert narrow[0][0], "the bank has near-duplicates"
    monkeypatch.setattr(qbank.bank.similarity, "_CODES_IN_32_BITS_UP_TO", 0)
    assert [bounded_near_duplicates(items, 0.9, cap) for cap in (None, 4)] == narrow


def test_a_capped_join_still_finds_templated_near_duplicates() -> None:
    """Thousands of templated prompts share every prefix shingle, so the cap cuts every
    list short; the lists cut short are gone through again in min-hash order, where
    near-duplicates sit side by side: with a cap of 4, 2,000 look-alike prompts with 100
    planted near-duplicate pairs give nearly all of them (the size order alone: 38), each
    with its exact similarity."""
    make_bank = _make_bank_module()
    rng = random.Random(5)
    templated = make_bank.LookalikePrompts(rng, {"en": make_bank.TextMaker(rng, "en")})
    templated.NEAR_EVERY = 20  # the prompt before, one word more, every 20th
    prompts = [templated.prompts(n, ["en"])["en"] for n in range(2000)]
    items = [(n, prompt_keys(prompt)[1]) for n, prompt in enumerate(prompts)]
    exact = {(a, b): score for a, b, score in near_duplicates(items, 0.9)}
    planted = {(n - 1, n) for n in range(2000) if n % 20 == 10}
    assert planted <= exact.keys()
    found, capped = bounded_near_duplicates(items, 0.9, 4)
    assert capped
    for a, b, score in found:
        assert exact[a, b] == score
    assert len(planted & {(a, b) for a, b, _ in found}) >= 90  # 98-100 (hash seeds)
