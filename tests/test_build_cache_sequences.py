"""A build with a warm cache writes the very site a build without one writes, after any
sequence of edits of the bank, the configuration, a template, the interface strings and
qbank's version."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from sitebuild import plant_near_duplicates, write_small_bank
from support.cachebuild import EDITS, build, entries, own_page, same_sites


def override(projects: tuple[Path, ...], n: int) -> dict[str, Any]:
    """A theme override (custom_dir) of Material's footer in each project, its text ``n``."""
    for project in projects:
        folder = project / "overrides"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "main.html").write_text(
            '{% extends "base.html" %}{% block footer %}<p class="own">Footer '
            + str(n)
            + "</p>{{ super() }}{% endblock %}",
            "utf-8",
        )
    return {"theme": {"name": "material", "custom_dir": "overrides"}}


def other_strings(folder: Path, n: int) -> str:
    """A copy of qbank's interface strings with a page's and the widget's text changed."""
    from qbank.site.strings import STRINGS_DIR

    folder.mkdir(parents=True, exist_ok=True)
    for path in STRINGS_DIR.glob("*.yaml"):
        (folder / path.name).write_bytes(path.read_bytes())
    english = folder / "en.yaml"
    data = yaml.safe_load(english.read_text("utf-8"))
    data["show_answer"] = f"Reveal {n}"
    widget = data["widget"]
    first = next(k for k, v in widget.items() if isinstance(v, str))
    widget[first] = f"{widget[first]} {n}"
    english.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    return str(folder)


SETTINGS = ["none", "none", "none", "yml", "override", "override", "strings", "page", "markdown"]


@pytest.mark.parametrize("seed", [7, 31])
def test_a_warm_build_writes_what_a_cold_build_writes(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    content = write_small_bank(tmp_path / "content")
    warm, cold = tmp_path / "warm", tmp_path / "cold"
    build(warm, content)
    assert entries(warm), "the first build kept nothing"
    assert entries(warm, "pages"), "no page was kept"
    plant_near_duplicates(content)  # (then compared from the pairs the first build kept)
    steps = rng.sample(SETTINGS, len(SETTINGS))
    steps.append("version")  # (last: every entry is made again)
    settings: dict[str, Any] = {}  # (a setting stays, as a project's would)
    strings = ""
    seen_lookalikes = False
    for n, step in enumerate(steps):
        # (edits only in steps of their own: a setting's change alone must show, not be
        # hidden by a catalog edit that changes every page's menu)
        for i in range(3 if step == "none" else 0):
            rng.choice(EDITS)(content, rng, 10 * n + i)
        if step == "yml":
            settings["copyright"] = f"Copyright step {n}"
        elif step == "override":  # (the second time: the template alone changes)
            settings.update(override((warm, cold), n))
        elif step == "strings":
            strings = other_strings(tmp_path / f"strings-{n}", n)
        elif step == "page":
            own_page((warm, cold), n)
        elif step == "markdown":
            settings["markdown_extensions"] = ["abbr", {"toc": {"permalink": True}}]
        version = "0.0.0-other" if step == "version" else ""
        warm_log = build(warm, content, version=version, strings=strings, **settings)
        cold_log = build(
            cold, content, version=version, strings=strings, qbank={"cache": False}, **settings
        )
        same_sites(warm, cold)
        # (the warm build compares prompts after the load, from the pairs it kept)
        assert lookalikes(warm_log) == lookalikes(cold_log)
        seen_lookalikes = seen_lookalikes or bool(lookalikes(warm_log))
    assert seen_lookalikes, "no edit made a near-duplicate: the comparison went untested"
    assert not (cold / ".cache").exists()


def lookalikes(log: str) -> list[str]:
    """The near-duplicate warnings of a build's log, as the content folder names them."""
    return [line.split("-  ", 1)[-1] for line in log.splitlines() if "nearly the same" in line]
