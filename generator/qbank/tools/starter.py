"""``qbank init``: a new bank repository laid out from the starter templates
(``site_templates/starter/``), which works as it is: its site builds, its workflows pass.

The templates are plain files with a few ``@NAME@`` tokens (GitHub's ``${{ }}`` expressions
in the workflows rule out a template language). Names the package cannot ship with a
leading dot (``github/``, ``gitignore``) get it when written. No file is ever overwritten.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uuid6
import yaml

from qbank import HOMEPAGE, RELEASE_TAG
from qbank.bank.catalog import CATALOG_FILE
from qbank.site.templates import TEMPLATES
from qbank.tools.scaffold import schema_comment
from qbank.tools.schema import write_schemas

STARTER = TEMPLATES / "starter"
EXAMPLES = "examples"  # per locale: the catalog's names and one question (not copied)
DOTTED = frozenset({"github", "vscode", "gitignore", "pre-commit-config.yaml"})
EXAMPLE_FIELD, EXAMPLE_SPECIALIZATION, EXAMPLE_TOPIC = "example", "basics", "getting-started"


def requirement() -> str:
    """How a bank installs this release of qbank until the package index has it: from the
    release's tag (``.github/workflows/release.yml`` publishes on it)."""
    return f"qbank @ git+{HOMEPAGE}@{RELEASE_TAG}"


def starter_locales() -> list[str]:
    """The locales ``qbank init`` has an example question for."""
    return sorted(p.stem for p in (STARTER / EXAMPLES).glob("*.yaml"))


@dataclass
class Layout:
    """What ``lay_out`` did: the files it wrote and those it kept as they were."""

    written: list[Path] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)

    def put(self, path: Path, text: str) -> None:
        if path.exists():
            self.kept.append(path)
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8") as handle:
            handle.write(text)
        self.written.append(path)


def _target(relative: Path) -> Path:
    first, *rest = relative.parts
    return Path(f".{first}" if first in DOTTED else first, *rest)


def _flow(texts: dict[str, str]) -> str:
    """A text map as one YAML flow line (JSON strings are YAML)."""
    return (
        "{" + ", ".join(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in texts.items()) + "}"
    )


def _catalog(examples: dict[str, dict[str, Any]], title: str | None) -> str:
    def names(key: str) -> str:
        return _flow({loc: str(ex[key]) for loc, ex in examples.items()})

    levels = next(iter(examples.values()))["seniorities"]
    seniorities = "".join(
        f"  {level}: {_flow({loc: ex['seniorities'][level] for loc, ex in examples.items()})}\n"
        for level in levels
    )
    return (
        "# The bank's locales, seniority levels and tree of fields > specializations > topics.\n"
        f"# Question files live at <field>/<topic>/<slug>.yaml beside this file.\n"
        f"title: {json.dumps(title, ensure_ascii=False) if title else names('title')}\n"
        f"locales: [{', '.join(examples)}]\n"
        f"seniorities:\n{seniorities}"
        "fields:\n"
        f"  {EXAMPLE_FIELD}:\n"
        f"    name: {names('field')}\n"
        "    specializations:\n"
        f"      {EXAMPLE_SPECIALIZATION}:\n"
        f"        name: {names('specialization')}\n"
        "        topics:\n"
        f"          {EXAMPLE_TOPIC}:\n"
        f"            name: {names('topic')}\n"
    )


def _question(locale: str, example: dict[str, Any], folder: Path, content: Path) -> str:
    q = example["question"]
    body = {
        "difficulty": q["difficulty"],
        "prompt": {locale: q["prompt"]},
        "options": {key: {locale: text} for key, text in q["options"].items()},
        "answer": q["answer"],
        "explanation": {locale: q["explanation"]},
    }
    dumped = yaml.safe_dump(body, allow_unicode=True, sort_keys=False, width=100)
    return f"{schema_comment(folder, content)}\nid: {uuid6.uuid7()}\n{dumped}"


def lay_out(
    root: Path, locales: list[str], *, content_dir: str = "content", title: str | None = None
) -> Layout:
    """Write a bank repository into ``root``; raise ValueError for a locale without an example."""
    available = starter_locales()
    unknown = [loc for loc in locales if loc not in available]
    if unknown or not locales:
        raise ValueError(
            f"--locales {','.join(locales)}: expected some of {', '.join(available)}"
            + (f" (no example for {', '.join(unknown)})" if unknown else "")
        )
    examples = {
        loc: yaml.safe_load((STARTER / EXAMPLES / f"{loc}.yaml").read_text(encoding="utf-8"))
        for loc in dict.fromkeys(locales)
    }
    tokens = {
        "@TITLE@": title or examples[locales[0]]["title"],
        "@CONTENT@": content_dir,
        "@QBANK_HOME@": HOMEPAGE,
        "@QBANK_TAG@": RELEASE_TAG,
        "@QBANK_REQUIREMENT@": requirement(),
    }
    layout = Layout()
    for source in sorted(STARTER.rglob("*")):
        relative = source.relative_to(STARTER)
        if not source.is_file() or relative.parts[0] == EXAMPLES or "__pycache__" in relative.parts:
            continue
        text = source.read_text(encoding="utf-8")
        for token, value in tokens.items():
            text = text.replace(token, value)
        layout.put(root / _target(relative), text)
    content = root / content_dir
    layout.put(content / CATALOG_FILE, _catalog(examples, title))
    folder = content / EXAMPLE_FIELD / EXAMPLE_TOPIC
    for locale, example in examples.items():
        layout.put(folder / f"{example['slug']}.yaml", _question(locale, example, folder, content))
    schemas = root / "schemas"
    if schemas.exists():
        layout.kept.append(schemas)
    else:
        layout.written += write_schemas(schemas)
    return layout
