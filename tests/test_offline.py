"""The offline files of a real build (``qbank.site.offline``): the worker's data, the per-field
manifests, their check by ``verify``, and ``offline: false``."""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import pytest
from sitebuild import build_site, write_small_bank

from qbank.site import offline
from qbank.site.offline import (
    SHARES_DIR,
    _search_needs,
    build_id,
    manifests,
    offline_problems,
    read_worker_data,
    site_files,
    worker_script,
)


@pytest.fixture
def site(small_site: tuple[Path, Path]) -> Path:
    return small_site[0]


def worker_data(site: Path) -> dict:
    data = read_worker_data((site / "sw.js").read_text("utf-8"))
    assert data is not None
    return data


def test_the_worker_names_the_build_of_the_files_it_serves(site: Path) -> None:
    data = worker_data(site)
    assert data["build"] == build_id(site_files(site))
    shell = data["shell"]
    assert {"assets/qbank.js", "assets/qbank.css", "assets/offline.js"} <= set(shell)
    assert any(p.startswith("assets/javascripts/bundle.") for p in shell)  # the theme's
    assert data["locales"]["tr"] == [
        "tr/index.html",
        "tr/review/index.html",
        "tr/saved/index.html",
        "tr/progress/index.html",
    ]
    assert "en/api/bank.json" not in site_files(site)
    page = (site / "en/ml-engineer/index.html").read_text("utf-8")
    assert 'src="../../assets/offline.js" type="module"' in page
    assert list(offline_problems(site)) == []


def test_a_field_manifest_lists_its_pages_practice_and_search(site: Path) -> None:
    found = dict(manifests(site))
    manifest = found["en/api/offline/ml-engineer.json"]
    paths = [path for path, _, _ in manifest["files"]]
    assert manifest["build"] == worker_data(site)["build"]
    for expected in (
        "en/ml-engineer/index.html",
        "en/ml-engineer/throughput/index.html",
        "en/ml-engineer/level-senior/index.html",
        "en/ml-engineer/practice/index.html",
        "en/api/practice/ml-engineer/mid.json",
        "en/api/search/index.json",
        "en/api/search/d/0.json",
        "en/review/index.html",
        "images/ml-engineer/numerics/bits.png",
    ):
        assert expected in paths, expected
    assert not any(p.startswith("en/backend/") for p in paths)
    assert manifest["bytes"] == sum(size for _, size, _ in manifest["files"])
    # Not the terms files (nearly every one holds a word of the field) but the field's share
    # of each: "covering" is backend's, "pin_memory" ml-engineer's.
    assert not any(p.startswith("en/api/search/t/") for p in paths)
    assert "en/api/offline/ml-engineer.terms.json" in paths
    # The terms file of "cov": the run of "c" prefixes starting at or before it.
    listed = json.loads((site / "en/api/search/index.json").read_bytes())["shards"].split("\n")
    start = max(key for key in listed if key[0] == "c" and key <= "cov")
    covering = "-".join(f"{ord(c):x}" for c in start) + ".json"
    mine = json.loads((site / "en/api/offline/ml-engineer.terms.json").read_bytes())
    theirs = json.loads((site / "en/api/offline/backend.terms.json").read_bytes())
    whole = json.loads((site / "en/api/search/t" / covering).read_bytes())
    cov = {term: codes for term, codes in whole.items() if term.startswith("cov")}
    assert cov
    # (only backend's questions say "cov…")
    assert {t: c for t, c in theirs[covering].items() if t.startswith("cov")} == cov
    assert not [t for t in mine.get(covering, {}) if t.startswith("cov")]
    summary = json.loads((site / "en/api/offline/fields.json").read_bytes())
    assert summary["fields"]["ml-engineer"] == [manifest["bytes"], len(paths)]


def test_verify_finds_a_file_changed_after_the_build(site: Path, tmp_path: Path) -> None:
    copy = shutil.copytree(site, tmp_path / "site")
    page = copy / "en/ml-engineer/throughput/index.html"
    page.write_bytes(page.read_bytes() + b"\n")
    (copy / "en/api/practice/ml-engineer/mid.json").unlink()
    problems = list(offline_problems(copy))
    assert any("does not match the files served" in message for _, message in problems)
    assert (
        "en/api/offline/ml-engineer.json",
        "en/ml-engineer/throughput/index.html: size or digest differs from the file's",
    ) in problems
    assert (
        "en/api/offline/ml-engineer.json",
        "lists en/api/practice/ml-engineer/mid.json, which the site does not have",
    ) in problems


def test_offline_false_leaves_the_worker_out(tmp_path: Path) -> None:
    content = write_small_bank(tmp_path / "content")
    plugins = [{"qbank": {"content_dir": str(content), "offline": False}}]
    built = build_site(tmp_path, content, plugins=plugins)
    assert not (built / "sw.js").exists()
    assert not list(built.glob("*/api/offline"))
    assert "offline.js" not in (built / "en/index.html").read_text("utf-8")
    assert list(offline_problems(built)) == []


def test_the_serve_worker_only_removes_itself() -> None:
    script = worker_script(None).decode()
    assert read_worker_data(script) == {"off": True}


def _cut_from_files(site: Path, locale: str, fields: list[str]) -> dict[str, tuple[set, bytes]]:
    """Each field's search files and terms share as the offline step cut them before it
    took them from the index in memory: from the written index files, file by file (the
    reference the shares must equal byte for byte)."""
    folder = site / locale / "api/search"
    prefix = f"{locale}/api/search/"
    number = {f: n for n, f in enumerate(fields)}
    files: dict[str, set] = {f: {prefix + "index.json", prefix + "f.json"} for f in fields}
    terms: dict[str, dict] = {f: {} for f in fields}
    owners = []
    for chunk in sorted((folder / "d").glob("*.json"), key=lambda p: int(p.stem)):
        for url, *_ in json.loads(chunk.read_bytes()):
            owner = number.get(url.strip("/").split("/")[1], -1)
            owners.append(owner)
            if owner >= 0:
                files[fields[owner]].add(f"{prefix}d/{chunk.name}")
    for path in sorted((folder / "t").glob("*.json")):
        for term, deltas in json.loads(path.read_bytes()).items():
            code = 0
            mine: dict[int, list[int]] = {}
            for delta in deltas:
                code += delta
                owner = owners[code // 8] if code // 8 < len(owners) else -1
                if owner >= 0:
                    mine.setdefault(owner, []).append(code)
            for owner, codes in mine.items():
                coded = [codes[0], *(b - a for a, b in itertools.pairwise(codes))]
                terms[fields[owner]].setdefault(path.name, {})[term] = coded
    return {
        f: (files[f], json.dumps(terms[f], ensure_ascii=False, separators=(",", ":")).encode())
        for f in fields
    }


@pytest.mark.parametrize("locale", ["en", "tr", "zh"])
def test_the_shares_made_in_memory_are_those_cut_from_the_written_index(
    site: Path, locale: str
) -> None:
    # (zh: its CJK terms packed in arrays; en, tr: one by one)
    fields = ["ml-engineer", "backend"]
    expected = _cut_from_files(site, locale, fields)
    found = dict(manifests(site))
    for name in fields:
        listed = {p for p, _, _ in found[f"{locale}/api/offline/{name}.json"]["files"]}
        search = {p for p in listed if p.startswith(f"{locale}/api/search/")}
        assert search == expected[name][0]
        share = (site / f"{locale}/api/offline/{name}.terms.json").read_bytes()
        assert share == expected[name][1]
    assert not (site / locale / "api/search" / SHARES_DIR).exists()  # (taken, not published)


@pytest.mark.parametrize("batch", [None, 1, 40])
def test_shares_cut_from_a_tree_equal_the_shares_made_in_memory(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, batch: int | None
) -> None:
    # (``batch``: terms files' postings cut a few at a time, as a large index's are)
    if batch is not None:
        monkeypatch.setattr(offline, "_BATCH", batch)
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    for locale in ("en", "zh"):
        needs = _search_needs(copy, locale, ["ml-engineer", "backend"])  # (no shares left)
        for name, need in needs.items():
            assert need.share == (site / f"{locale}/api/offline/{name}.terms.json").read_bytes()
            manifest = dict(manifests(site))[f"{locale}/api/offline/{name}.json"]
            listed = {p for p, _, _ in manifest["files"] if p.startswith(f"{locale}/api/search/")}
            assert need.files == listed
