"""The offline files of a real build (``qbank.site.offline``): the worker's data, the per-field
manifests, their check by ``verify``, and ``offline: false``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from sitebuild import build_site, write_small_bank

from qbank.site.offline import (
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
    covering = "-".join(f"{ord(c):x}" for c in "cov") + ".json"
    mine = json.loads((site / "en/api/offline/ml-engineer.terms.json").read_bytes())
    theirs = json.loads((site / "en/api/offline/backend.terms.json").read_bytes())
    assert covering in theirs
    assert covering not in mine
    whole = json.loads((site / "en/api/search/t" / covering).read_bytes())
    assert theirs[covering] == whole  # (only backend's questions say "cov…")
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
