"""Templates compiled before the locale process forks (``TemplateCode.compile``,
``render.compile_templates``): the build then renders them without compiling them again."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest
from mkdocs.config import load_config

from qbank.plugin.templatecode import TemplateCode
from qbank.site import render


def material_env(tmp_path: Path, overrides: dict[str, str]) -> jinja2.Environment:
    """Material's Jinja environment for a project whose theme overrides hold ``overrides``."""
    (tmp_path / "docs").mkdir()
    for name, text in overrides.items():
        (tmp_path / "overrides" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "overrides" / name).write_text(text, "utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: T\ntheme: {name: material, custom_dir: overrides}\n", "utf-8"
    )
    return load_config(str(tmp_path / "mkdocs.yml")).theme.get_env()


def test_a_page_template_and_all_it_names_are_compiled_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = material_env(
        tmp_path,
        {
            "odd.html": '{% include "partials/odd-part.html" %}{{ x | made_later }}',
            "partials/odd-part.html": "<p>part</p>",
        },
    )
    code = TemplateCode()
    code.compile(env, ["main.html", "odd.html", "missing.html"])
    compiled = len(code.code)
    # main.html, base.html and the partials base.html includes; the included part of a
    # template that does not compile yet (a filter a plugin adds later) too
    assert compiled > 20
    later = load_config(str(tmp_path / "mkdocs.yml")).theme.get_env()
    later.bytecode_cache = code
    later.filters["made_later"] = str.upper
    compiles: list[str | None] = []
    compile_once = jinja2.Environment.compile

    def counted(self: jinja2.Environment, source: object, name: str | None = None, *a: object):
        compiles.append(name)
        return compile_once(self, source, name, *a)  # type: ignore[arg-type]

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    for name in ("main.html", "base.html", "partials/header.html", "partials/odd-part.html"):
        later.get_template(name)
    assert compiles == []
    assert later.get_template("odd.html").render(x="a") == "<p>part</p>A"
    assert compiles == ["odd.html"]  # (the one that could not compile before)
    assert len(code.code) == compiled + 1


def test_every_page_template_of_the_bank_is_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    render._environment.cache_clear()  # (a new environment: nothing compiled yet)
    render.compile_templates()
    env = render._environment()
    names = env.list_templates(extensions=["j2"])
    assert "topic.md.j2" in names
    monkeypatch.setattr(env, "compile", lambda *a, **k: pytest.fail("compiled again"))
    for name in names:
        env.get_template(name)
