"""Search under a real ``mkdocs serve``: indexed at start, refreshed after an edit."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import yaml
from sitebuild import write_serve_config, write_small_bank

QUESTION = "backend/indexing/covering-index.yaml"
WAIT = 120.0  # a generous limit for a slow machine; the test never asserts a duration


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def fetch(url: str) -> bytes | None:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return bytes(response.read())
    except (urllib.error.URLError, OSError):
        return None


def wait_for(check: Callable[[], object], what: str) -> object:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.5)
    pytest.fail(f"gave up waiting for {what}")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """``mkdocs serve`` of the small bank; yields (base URL, content folder)."""
    content = write_small_bank(tmp_path / "content")
    write_serve_config(tmp_path)
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=(tmp_path / "serve.log").open("wb"),
    )
    try:
        yield base, content
    finally:
        server.terminate()
        server.wait(timeout=30)


def entry(base: str) -> dict[str, dict[str, str]] | None:
    """Each locale's search manifest, once all are served."""
    found = {}
    for locale in ("en", "tr", "zh"):
        data = fetch(base + f"{locale}/api/search/index.json")
        if not data:
            return None
        found[locale] = json.loads(data)
    return found


def test_serve_indexes_the_first_build(served: tuple[str, Path]) -> None:
    base, _ = served
    first = wait_for(lambda: entry(base), "the first index")
    assert isinstance(first, dict)
    assert set(first) == {"en", "tr", "zh"}
    assert fetch(base + "en/api/search/f.json")


def test_serve_refreshes_the_index_after_an_edit(served: tuple[str, Path]) -> None:
    base, content = served
    first = wait_for(lambda: entry(base), "the first index")
    assert isinstance(first, dict)
    path = content / QUESTION
    data = yaml.safe_load(path.read_text("utf-8"))
    data["prompt"]["en"] = "When is a covering index worth its write amplification?"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    page = base + "en/backend/indexing/"
    wait_for(lambda: b"write amplification" in (fetch(page) or b""), "the rebuilt page")
    # The rebuild restored the previous index at once; the background refresh replaces it.
    manifest = first["en"]
    chunks = range((int(manifest["docs"]) + int(manifest["chunk"]) - 1) // int(manifest["chunk"]))

    def indexed() -> bool:
        return any(
            "write amplification" in (fetch(base + f"en/api/search/d/{n}.json") or b"").decode()
            for n in chunks
        )

    assert wait_for(indexed, "the refreshed index")
    assert entry(base) is not None


@pytest.mark.parametrize("locale", ["tr", "zh"])
def test_an_edit_refreshes_the_index_another_process_wrote(
    served: tuple[str, Path], locale: str
) -> None:
    """The first build's locale process writes the other locales' indexes; the serve process
    takes them over, and an edit in such a locale reaches its index."""
    base, content = served
    first = wait_for(lambda: entry(base), "the first index")
    assert isinstance(first, dict)
    path = content / QUESTION
    data = yaml.safe_load(path.read_text("utf-8"))
    assert locale in data["prompt"]
    data["prompt"][locale] = data["prompt"][locale] + " zqxwvyplkj"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    manifest = first[locale]
    chunks = range((int(manifest["docs"]) + int(manifest["chunk"]) - 1) // int(manifest["chunk"]))

    def indexed() -> bool:
        return any(
            "zqxwvyplkj" in (fetch(base + f"{locale}/api/search/d/{n}.json") or b"").decode()
            for n in chunks
        )

    assert wait_for(indexed, f"the refreshed {locale} index")
