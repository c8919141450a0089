"""Two builds of the same bank are byte-identical (every file, sitemaps and search included)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from sitebuild import build_site

ROOT = Path(__file__).resolve().parent.parent


def digests(site: Path) -> dict[str, str]:
    return {
        p.relative_to(site).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(site.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def two_builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    first = build_site(tmp_path_factory.mktemp("first"), ROOT / "content")
    second = build_site(tmp_path_factory.mktemp("second"), ROOT / "content")
    return first, second


def compare(two_builds: tuple[Path, Path], search: bool) -> None:
    first, second = (
        {k: v for k, v in digests(site).items() if ("/api/search/" in k) == search}
        for site in two_builds
    )
    assert first, "nothing to compare"
    assert sorted(first) == sorted(second)
    differing = [path for path in first if first[path] != second[path]]
    assert differing == []


def test_two_builds_are_byte_identical(two_builds: tuple[Path, Path]) -> None:
    compare(two_builds, search=False)


def test_two_search_indexes_are_byte_identical(two_builds: tuple[Path, Path]) -> None:
    compare(two_builds, search=True)


def test_the_compared_site_is_complete(two_builds: tuple[Path, Path]) -> None:
    files = digests(two_builds[0])
    for expected in ("sitemap.xml", "sitemap.xml.gz", "en/index.html", "zh/index.html"):
        assert expected in files, expected
    assert any("/api/search/t/" in path for path in files)
    assert any("/api/practice/" in path for path in files)
