"""What the persistent cache's tests share: a real ``mkdocs build`` of a project as
``mkdocs build`` runs it, the site's and the cache's files, and random edits of the small
bank."""

from __future__ import annotations

import hashlib
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import yaml
from sitebuild import site_config

from qbank.live import store

CACHE = ".cache/qbank"
# A build run the way ``mkdocs build`` runs, with qbank's version (part of every key)
# replaced when the test says so, and the interface strings read from another folder.
RUN = (
    "import sys; import qbank.live.store as s; v = sys.argv.pop(1); s.VERSION = v or s.VERSION;"
    "import qbank.site.strings as t; from pathlib import Path; d = sys.argv.pop(1);"
    "t.STRINGS_DIR = Path(d) if d else t.STRINGS_DIR;"
    "from mkdocs.__main__ import cli; cli()"
)


def build(
    project: Path, content: Path, *, version: str = "", strings: str = "", **overrides: Any
) -> str:
    """A real ``mkdocs build --strict`` of ``content`` in ``project``; its log (stderr).
    ``strings``: a folder of interface strings read instead of qbank's."""
    (project / "docs").mkdir(parents=True, exist_ok=True)
    config = {**site_config(content, overrides.pop("qbank", {})), **overrides}
    (project / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True), "utf-8")
    done = subprocess.run(
        [sys.executable, "-c", RUN, version, strings, "build", "--strict"],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stderr


def digests(site: Path) -> dict[str, str]:
    return {
        p.relative_to(site).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(site.rglob("*"))
        if p.is_file()
    }


def entries(project: Path, kind: str = "") -> list[Path]:
    """The cache's entries (of ``kind``: ``checked`` files, search ``docs``, ``match``
    counts)."""
    return sorted(p for p in (project / CACHE / kind).rglob("*.json"))


def checked_files(folder: Path) -> set[str]:
    """The keys of the question files whose checked results the cache in ``folder`` (a
    project's cache, or a ``cache_dir``) holds, in its entries of one topic each."""
    if (folder / CACHE).is_dir():
        folder = folder / CACHE
    found = set()
    for path in (folder / "checked").rglob("*.json"):
        items, reason = store._parse(path.read_bytes(), "checked", path.stem)
        assert reason is None, reason
        found.update(item[0] for item in items)
    return found


def aged(project: Path) -> None:
    """Every entry last used a minute ago: the next build's prune tells the ones it did
    not use apart whatever the file system's clock granularity (the store allows a second,
    and a build of the small bank can touch an entry less than a second before the next
    build starts)."""
    then = time.time() - 60
    for path in entries(project):
        os.utime(path, (then, then))


def topics(content: Path) -> set[tuple[str, str]]:
    """(locale, topic folder) of every topic with a question in that locale."""
    found = set()
    for path in questions(content):
        for locale in yaml.safe_load(path.read_text("utf-8"))["prompt"]:
            found.add((locale, path.parent.relative_to(content).as_posix()))
    return found


def same_sites(warm: Path, cold: Path) -> None:
    first, second = digests(warm / "site"), digests(cold / "site")
    assert first
    assert sorted(first) == sorted(second)
    assert [path for path in first if first[path] != second[path]] == []


# -- edits -------------------------------------------------------------------------------------


def questions(content: Path) -> list[Path]:
    return sorted(p for p in content.rglob("*.yaml") if p.name != "catalog.yaml")


def add(content: Path, rng: random.Random, n: int) -> None:
    source = rng.choice(questions(content))
    data = yaml.safe_load(source.read_text("utf-8"))
    data["id"] = f"01a05d13-8d21-739a-baa2-7dab67be{5000 + n:04d}"
    data["prompt"] = {loc: f"Variant {n}: {text}" for loc, text in data["prompt"].items()}
    target = source.parent / f"added-{n}.yaml"
    target.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")


def remove(content: Path, rng: random.Random, n: int) -> None:
    files = [p for p in questions(content) if "bits.png" not in p.read_text("utf-8")]
    if len(files) > 3:
        rng.choice(files).unlink()


def move(content: Path, rng: random.Random, n: int) -> None:
    source = rng.choice(questions(content))
    topics = [
        content / "ml-engineer/throughput",
        content / "ml-engineer/numerics",
        content / "backend/indexing",
    ]
    target = rng.choice([t for t in topics if t != source.parent])
    if "bits.png" not in source.read_text("utf-8"):
        source.rename(target / source.name.replace(".yaml", f"-moved{n}.yaml"))


def translate(content: Path, rng: random.Random, n: int) -> None:
    source = rng.choice(questions(content))
    data = yaml.safe_load(source.read_text("utf-8"))
    if "tr" in data["prompt"]:
        data["prompt"]["tr"] += f" Düzeltme {n}."
        source.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")


def rename(content: Path, rng: random.Random, n: int) -> None:
    catalog = content / "catalog.yaml"
    name = rng.choice(["Throughput", "Numerics", "Indexing"])
    text = catalog.read_text("utf-8")
    catalog.write_text(text.replace(f"en: {name}", f"en: {name} {n}", 1), "utf-8")


def add_topic(content: Path, rng: random.Random, n: int) -> None:
    catalog = content / "catalog.yaml"  # (what the checks read of the catalog changes)
    text = catalog.read_text("utf-8")
    if "caching" not in text:
        catalog.write_text(text + "          caching:\n            name: {en: Caching}\n", "utf-8")


EDITS = [add, remove, move, translate, rename, add_topic]


# (a page linked from the site the last build published is one from the page cache)
MARKDOWN_KEPT = (
    r"from the page cache(?: \(\d+ linked from the last site(?:, \d+ unread)?\))?,"
    r" Markdown of (\d+) kept"
)


def kept_and_rendered(log: str) -> tuple[int, int]:
    """Pages from the page cache and pages rendered through the theme, every locale."""
    found = re.findall(r"pages built, (\d+) of (\d+) from the page cache", log)
    assert found, log
    return sum(int(k) for k, _ in found), sum(int(n) - int(k) for k, n in found)


def own_page(projects: tuple[Path, ...], n: int) -> None:
    """A hand-written page in each project's docs (every menu gains an item)."""
    for project in projects:
        (project / "docs").mkdir(parents=True, exist_ok=True)
        (project / "docs" / "about.md").write_text(f"# About {n}\n\nWritten by hand.\n")
