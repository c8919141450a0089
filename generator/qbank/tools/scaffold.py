"""``qbank new``: a ready-to-fill question file with a fresh UUIDv7, in the right folder."""

from __future__ import annotations

import os
from pathlib import Path

import uuid6

from qbank.bank.catalog import CATALOG_FILE, load_catalog, valid_topics_hint
from qbank.bank.load import no_catalog
from qbank.bank.model import SLUG_PATTERN
from qbank.bank.problems import ContentError

SCHEMA_DIR = "schemas"
QUESTION_SCHEMA = "question.schema.json"


def schema_path(content: Path) -> Path:
    """Where question files' schema comment points: ``schemas/`` beside the content folder
    (``qbank schema`` writes it there when run in the bank's folder)."""
    return content.resolve().parent / SCHEMA_DIR / QUESTION_SCHEMA


def schema_comment(question_dir: Path, content: Path) -> str:
    """The first line that tells editors (yaml-language-server) where the schema is."""
    relative = os.path.relpath(schema_path(content), question_dir.resolve())
    return f"# yaml-language-server: $schema={Path(relative).as_posix()}"


def new_question(
    content: Path,
    where: str,
    *,
    kind: str = "choice",
    slug: str | None = None,
    locales: list[str] | None = None,
) -> Path:
    """Create ``content/FIELD/TOPIC/<slug>.yaml``; never overwrite. Raise ValueError when the
    place, slug or locales are wrong (the message lists what is valid)."""
    import re

    if not (content / CATALOG_FILE).is_file():
        raise ValueError(no_catalog(content).format_text())
    try:
        catalog = load_catalog(content)
    except ContentError as exc:
        raise ValueError(exc.format_text()) from None
    parts = where.strip("/").split("/")
    if len(parts) != 2:
        what = f"{where!r}: expected FIELD/TOPIC" if where else "missing FIELD/TOPIC"
        raise ValueError(f"{what}; {valid_topics_hint(catalog)}")
    field_key, topic_key = parts
    topics = (
        {t for s in catalog.fields[field_key].specializations.values() for t in s.topics}
        if field_key in catalog.fields
        else set()
    )
    if topic_key not in topics:
        what = "topic" if field_key in catalog.fields else "field"
        raise ValueError(f"{where!r}: unknown {what}; {valid_topics_hint(catalog, field_key)}")
    chosen = locales or list(catalog.locales)
    unknown = [loc for loc in chosen if loc not in catalog.locales]
    if unknown:
        raise ValueError(
            f"unknown locale(s) {', '.join(unknown)}; expected some of "
            + ", ".join(catalog.locales)
        )
    folder = content / field_key / topic_key
    if slug is not None and not re.match(SLUG_PATTERN, slug):
        raise ValueError(f"slug {slug!r}: expected lowercase letters, digits and hyphens")
    path = folder / f"{slug or 'new-question'}.yaml"
    n = 2
    while slug is None and path.exists():
        path = folder / f"new-question-{n}.yaml"
        n += 1
    if path.exists():
        raise ValueError(f"{path.as_posix()} already exists; choose another --slug")
    folder.mkdir(parents=True, exist_ok=True)
    body = _choice(chosen) if kind == "choice" else _open(chosen)
    text = f"{schema_comment(folder, content)}\nid: {uuid6.uuid7()}\n{body}"
    with path.open("x", encoding="utf-8") as handle:  # "x": never overwrite
        handle.write(text)
    return path


def _texts(locales: list[str], indent: str = "  ") -> str:
    return "".join(f'{indent}{loc}: ""\n' for loc in locales)


def _choice(locales: list[str]) -> str:
    inline = ", ".join(f'{loc}: ""' for loc in locales)
    options = "".join(f"  {k}: {{{inline}}}\n" for k in "abcd")
    return (
        "difficulty: 2  # 1, 2 or 3; seniority defaults to junior, mid, senior from it\n"
        "# seniority: [mid, senior]  # optional\n"
        "tags: []\n"
        "prompt:  # Markdown; use | for several lines\n"
        + _texts(locales)
        + "options:  # 2 to 8, keys a, b, c … in order\n"
        + options
        + "answer: a  # one key, or a list such as [a, c] when several are right\n"
        "explanation:  # why the answer is right and each other option wrong\n" + _texts(locales)
    )


def _open(locales: list[str]) -> str:
    return (
        "seniority: mid  # junior, mid or senior, or a list\n"
        "tags: []\n"
        "prompt:  # Markdown; use | for several lines\n"
        + _texts(locales)
        + "assesses:  # what the question is meant to find out\n"
        + _texts(locales)
        + "model_answer:  # a reference answer; delete this key if you have none yet\n"
        + _texts(locales)
    )
