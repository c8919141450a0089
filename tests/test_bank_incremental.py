"""Under ``mkdocs serve`` the cross-file checks are updated from the previous load, not run
again: after any sequence of edits the bank and its problems must be exactly those of a load
from scratch (same messages, lines, severities and order)."""

from __future__ import annotations

import os
import random
import shutil
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from support.bankmodule import make_bank_module

from qbank.bank.load import INCREMENTAL_UP_TO, Kept, check_bank
from qbank.live import crossfile_update, lookalikecache
from qbank.live.checkcache import StoredChecks
from qbank.live.reload import BankCache
from qbank.live.store import Store

TEXT_KEYS = ("prompt", "explanation", "assesses", "model_answer")


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A synthetic bank of 600 questions in three locales (bench/make_bank.py)."""
    out = tmp_path_factory.mktemp("generated") / "content"
    make_bank_module().make_bank(out, questions=600, fields=3, specs=2, topics=4, seed=7)
    return out


class Editor:
    """Seeded edits on a bank on disk. Every write gets a new, later modification time, so
    that the file cache sees each change (two writes in one clock tick could keep a stamp)."""

    def __init__(self, root: Path, seed: int) -> None:
        self.root = root
        self.rng = random.Random(seed)
        self.clock = 1_700_000_000_000_000_000
        self.folders = sorted(p.parent.relative_to(root) for p in root.glob("*/*/q-*.yaml"))
        self.folders = sorted(set(self.folders))
        self.serial = 0

    def files(self) -> list[Path]:
        return sorted(self.root.glob("*/*/*.y*ml"))

    def pick(self) -> Path:
        return self.rng.choice(self.files())

    def read(self, path: Path) -> dict[str, Any]:
        data = yaml.safe_load(path.read_text("utf-8"))
        assert isinstance(data, dict)
        return data

    def tick(self, path: Path) -> None:
        """``path`` and its folder get a new modification time (folders too: the listing is
        kept per folder while its stamp holds, and real time would make every folder
        "recent", listed again whatever the cache)."""
        self.clock += 1_000_000_000
        if path.exists():
            os.utime(path, ns=(self.clock, self.clock))
        os.utime(path.parent, ns=(self.clock, self.clock))

    def write_text(self, path: Path, text: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
        self.tick(path)

    def write(self, path: Path, data: dict[str, Any]) -> None:
        self.write_text(path, yaml.safe_dump(data, allow_unicode=True, sort_keys=False))

    def new_path(self) -> Path:
        self.serial += 1
        folder = self.rng.choice(self.folders)
        return self.root / folder / f"added-{self.serial:04d}.yaml"

    def fresh_id(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def reworded(self, text: str) -> str:
        """The text with one word more: a near-duplicate of it."""
        return text.rstrip() + f" extra{self.rng.randrange(10**6)}\n"

    # The edits; each returns a short description (shown when a comparison fails).

    def near_copy(self) -> str:
        source = self.pick()
        data = self.read(source)
        data["id"] = self.fresh_id()
        locale = self.rng.choice(list(data["prompt"]))
        data["prompt"][locale] = self.reworded(data["prompt"][locale])
        target = self.new_path()
        self.write(target, data)
        return f"near copy of {source.name} as {target.name} ({locale})"

    def same_copy(self) -> str:
        source = self.pick()
        data = self.read(source)
        data["id"] = self.fresh_id()
        target = self.new_path()
        self.write(target, data)
        return f"same-prompt copy of {source.name} as {target.name}"

    def make_near(self) -> str:
        a, b = self.pick(), self.pick()
        data, other = self.read(a), self.read(b)
        locale = self.rng.choice([loc for loc in data["prompt"] if loc in other["prompt"]])
        data["prompt"][locale] = self.reworded(other["prompt"][locale])
        self.write(a, data)
        return f"{a.name} made near {b.name} ({locale})"

    def make_same(self) -> str:
        a, b = self.pick(), self.pick()
        data, other = self.read(a), self.read(b)
        for locale in data["prompt"]:
            if locale in other["prompt"]:
                data["prompt"][locale] = other["prompt"][locale]
        self.write(a, data)
        return f"{a.name} given the prompts of {b.name}"

    def reword(self) -> str:
        a = self.pick()
        data = self.read(a)
        locale = self.rng.choice(list(data["prompt"]))
        words = data["prompt"][locale].split()
        self.rng.shuffle(words)
        data["prompt"][locale] = " ".join(words[: max(6, len(words) // 2)]) + "\n"
        self.write(a, data)
        return f"{a.name} reworded ({locale})"

    def shorten(self) -> str:
        a = self.pick()
        data = self.read(a)
        locale = self.rng.choice(list(data["prompt"]))
        data["prompt"][locale] = "Short one?\n"
        self.write(a, data)
        return f"{a.name} prompt made short ({locale})"

    def duplicate_id(self) -> str:
        a, b = self.pick(), self.pick()
        data = self.read(a)
        data["id"] = self.read(b)["id"]
        self.write(a, data)
        return f"{a.name} given the id of {b.name}"

    def fresh(self) -> str:
        a = self.pick()
        data = self.read(a)
        data["id"] = self.fresh_id()
        self.write(a, data)
        return f"{a.name} given a fresh id"

    def remove(self) -> str:
        a = self.pick()
        a.unlink()
        self.tick(a)
        return f"{a.name} removed"

    def move(self) -> str:
        a = self.pick()
        target = self.new_path()
        text = a.read_text("utf-8")
        a.unlink()
        self.tick(a)
        self.write_text(target, text)
        return f"{a.name} moved to {target.relative_to(self.root)}"

    def shift_lines(self) -> str:
        """The same question, its keys two lines further down (problems' lines change)."""
        a = self.pick()
        self.write_text(a, "# moved down\n# by two lines\n" + a.read_text("utf-8"))
        return f"{a.name} shifted down"

    def drop_locale(self) -> str:
        a = self.pick()
        data = self.read(a)
        locale = self.rng.choice(["tr", "zh"])
        for key in TEXT_KEYS:
            if isinstance(data.get(key), dict):
                data[key].pop(locale, None)
        for texts in (data.get("options") or {}).values():
            texts.pop(locale, None)
        self.write(a, data)
        return f"{a.name} without {locale}"

    def misplace(self) -> str:
        """A question where none may be: an unknown folder, a bad name, a .yml file."""
        a = self.pick()
        field_folder = a.parent.parent
        target = self.rng.choice(
            [
                field_folder / "no-such-topic" / a.name,
                a.parent / f"Bad_Name_{self.serial}.yaml",
                a.parent / f"{a.stem}-{self.serial}.yml",
            ]
        )
        self.serial += 1
        self.write_text(target, a.read_text("utf-8"))
        return f"{a.name} copied to {target.relative_to(self.root)}"

    def break_yaml(self) -> str:
        a = self.pick()
        self.write_text(a, a.read_text("utf-8") + "\n  : : [unclosed\n")
        return f"{a.name} broken"

    def steps(self) -> Iterator[str]:
        edits = [
            (self.near_copy, 5),
            (self.same_copy, 3),
            (self.make_near, 5),
            (self.make_same, 2),
            (self.reword, 3),
            (self.shorten, 1),
            (self.duplicate_id, 1),
            (self.fresh, 2),
            (self.remove, 2),
            (self.move, 2),
            (self.shift_lines, 3),
            (self.drop_locale, 1),
            (self.break_yaml, 1),
            (self.misplace, 1),
        ]
        actions, weights = zip(*edits, strict=True)
        while True:
            yield "; ".join(
                self.rng.choices(actions, weights)[0]() for _ in range(self.rng.randint(1, 3))
            )


def _seed_pairs(editor: Editor, count: int) -> None:
    """Near-duplicate and identical prompts from the start."""
    for _ in range(count):
        editor.near_copy()
        editor.make_near()
    for _ in range(count // 2):
        editor.same_copy()


def _outcome(root: Path, cache: Kept | None) -> tuple[object, list[str]]:
    bank, problems = check_bank(root, cache)
    entries = None
    if bank is not None:
        entries = [(e.file, e.id, e.digest, e.locales) for e in bank.entries]
        assert [p.format_text() for p in bank.warnings] == [
            p.format_text() for p in problems if p.severity == "warning"
        ]
    return entries, [f"{p.severity}|{p.format_text()}" for p in problems]


def _assert_same_as_from_scratch(root: Path, cache: Kept, step: str) -> list[str]:
    """The problems of a load with ``cache``, checked against a load from scratch."""
    updated = _outcome(root, cache)
    scratch = _outcome(root, None)
    assert updated[1] == scratch[1], step
    assert updated[0] == scratch[0], step
    return updated[1]


@pytest.mark.parametrize("seed", [1, 2])
def test_random_edits_give_the_same_bank_and_problems(
    generated: Path, tmp_path: Path, seed: int
) -> None:
    root = tmp_path / "content"
    shutil.copytree(generated, root)
    editor = Editor(root, seed)
    _seed_pairs(editor, 6)
    cache: BankCache = BankCache()
    _assert_same_as_from_scratch(root, cache, "first load")
    seen = {"near": 0, "same": 0, "updated": 0}
    steps = editor.steps()
    for n in range(20):
        state = cache.derived.cross_file
        step = f"step {n}: {next(steps)}"
        problems = _assert_same_as_from_scratch(root, cache, step)
        seen["updated"] += cache.derived.cross_file is state
        seen["near"] += any("nearly the same prompt" in p for p in problems)
        seen["same"] += any(": same prompt as" in p for p in problems)
    # The comparisons above meant something: pairs were there, and the state was updated
    # rather than computed again.
    assert seen["near"] >= 15, seen
    assert seen["same"] >= 15, seen
    assert seen["updated"] >= 15, seen


def test_many_changed_files_are_checked_in_full(generated: Path, tmp_path: Path) -> None:
    root = tmp_path / "content"
    shutil.copytree(generated, root)
    editor = Editor(root, 3)
    _seed_pairs(editor, 4)
    cache: BankCache = BankCache()
    _assert_same_as_from_scratch(root, cache, "first load")
    # Comments only: every file read again, none changed for the cross-file checks.
    for path in editor.files()[: INCREMENTAL_UP_TO + 1]:
        editor.write_text(path, "# touched\n" + path.read_text("utf-8"))
    state = cache.derived.cross_file
    _assert_same_as_from_scratch(root, cache, "many files touched")
    assert cache.derived.cross_file is state, "updated"
    for path in editor.files()[: INCREMENTAL_UP_TO + 1]:
        data = editor.read(path)
        data["prompt"]["en"] = editor.reworded(data["prompt"]["en"])
        editor.write(path, data)
    _assert_same_as_from_scratch(root, cache, "many prompts changed")
    assert cache.derived.cross_file is not state, "computed again, not updated"
    editor.make_near()
    state = cache.derived.cross_file
    _assert_same_as_from_scratch(root, cache, "one more edit")
    assert cache.derived.cross_file is state, "updated"


def test_a_changed_catalog_starts_the_cross_file_state_again(
    generated: Path, tmp_path: Path
) -> None:
    root = tmp_path / "content"
    shutil.copytree(generated, root)
    editor = Editor(root, 4)
    _seed_pairs(editor, 3)
    cache: BankCache = BankCache()
    _assert_same_as_from_scratch(root, cache, "first load")
    state = cache.derived.cross_file
    catalog = root / "catalog.yaml"
    editor.write_text(catalog, "# edited\n" + catalog.read_text("utf-8"))
    _assert_same_as_from_scratch(root, cache, "catalog edited")
    assert cache.derived.cross_file is not state, "computed again, not updated"


@pytest.mark.parametrize("seed", [5, 6])
def test_a_build_updates_the_pairs_the_last_build_kept(
    generated: Path, tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A load with the persistent cache (each ``mkdocs build``'s, a new process each time:
    nothing kept in memory) updates the near-duplicate pairs the last one kept instead of
    joining every prompt again, and finds the problems of a load from scratch."""
    root = tmp_path / "content"
    shutil.copytree(generated, root)
    editor = Editor(root, seed)
    _seed_pairs(editor, 6)
    joined: list[int] = []
    join = lookalikecache.join_prompts
    monkeypatch.setattr(
        lookalikecache, "join_prompts", lambda *args: joined.append(1) or join(*args)
    )
    cache = tmp_path / "cache"

    def stored() -> StoredChecks:
        return StoredChecks(Store(cache))

    _assert_same_as_from_scratch(root, stored(), "first build")
    assert len(joined) == 1
    steps = editor.steps()
    near = 0
    for n in range(20):
        problems = _assert_same_as_from_scratch(root, stored(), f"step {n}: {next(steps)}")
        near += any("nearly the same prompt" in p for p in problems)
    assert near >= 15
    assert len(joined) <= 3, "updated, not joined again"
    # an entry not of its shape, or of a join that bounded its work, is not used
    (entry,) = (cache / "lookalikes").rglob("*.json")
    name = entry.stem
    kept = Store(cache).get("lookalikes", name)
    for planted in ({**kept, "pairs": {"en": [["only one file"]]}}, {**kept, "capped": True}):
        Store(cache).put("lookalikes", name, planted)
        joined.clear()
        editor.make_near()
        _assert_same_as_from_scratch(root, stored(), f"planted {planted['capped']}")
        assert joined == [1]
    assert Store(cache).get("lookalikes", name)["capped"] is False


def _built(generated: Path, tmp_path: Path, seed: int) -> tuple[Path, Editor, Path]:
    """A copy of the generated bank with look-alikes seeded, its editor, and the persistent
    cache a build of it filled."""
    root = tmp_path / "content"
    shutil.copytree(generated, root)
    editor = Editor(root, seed)
    _seed_pairs(editor, 6)
    store = tmp_path / "cache"
    _outcome(root, StoredChecks(Store(store)))
    return root, editor, store


def test_a_first_serve_load_takes_the_pairs_a_build_kept(
    generated: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``mkdocs serve``'s first load with the persistent cache (``BankCache.stored``) takes
    the near-duplicate pairs the last build kept, brought up to date, instead of joining
    every prompt; the state it keeps in memory then serves each edit after it, and every
    load finds the problems of a load from scratch."""
    root, editor, store = _built(generated, tmp_path, 8)
    joined: list[int] = []
    join = lookalikecache.join_prompts
    for module in (lookalikecache, crossfile_update):
        monkeypatch.setattr(module, "join_prompts", lambda *a: joined.append(1) or join(*a))
    editor.make_near()  # (a pull request merged since the build)
    cache = BankCache()
    cache.stored = Store(store)
    problems = _assert_same_as_from_scratch(root, cache, "first serve load")
    cache.stored = None
    assert any("nearly the same prompt" in p for p in problems)
    assert joined == [], "updated from the build's pairs, not joined again"
    state = cache.derived.cross_file
    steps = editor.steps()
    updated = 0
    for n in range(12):
        state = cache.derived.cross_file
        _assert_same_as_from_scratch(root, cache, f"step {n}: {next(steps)}")
        updated += cache.derived.cross_file is state
    assert updated >= 8, "the serve process's own state updated after the first load"


def test_a_first_serve_load_leaves_the_comparison_keys_to_later(
    generated: Path, tmp_path: Path
) -> None:
    """When no prompt changed since the build that filled the persistent cache, serve's
    first load makes no prompt's comparison keys and no index of them: the state it keeps
    makes both when first needed (in the background once the build is published, or by the
    next load, which waits for it), and the next load still finds what a load from scratch
    finds."""
    root, editor, store = _built(generated, tmp_path, 9)
    cache = BankCache()
    cache.stored = Store(store)
    problems = _assert_same_as_from_scratch(root, cache, "first serve load")
    cache.stored = None
    assert any("nearly the same prompt" in p for p in problems)
    state = cache.derived.cross_file
    assert state is not None
    assert state.later is not None
    assert state.indexes == {}
    assert {keys[1] for item in state.found for keys in item.prompts.values()} == {None}
    settling = threading.Thread(target=state.settle)  # (as ``SiteSession.published`` does)
    settling.start()
    editor.make_near()
    _assert_same_as_from_scratch(root, cache, "an edit while the state settles")
    settling.join()
    assert cache.derived.cross_file is state, "the state updated, not made again"
    assert state.later is None
    assert set(state.indexes) == set(state.locales)
    assert all(keys[1] is not None for item in state.found for keys in item.prompts.values())
