"""``qbank translations mark-current``: a text edit of a question file's ``translated_from``
lines only (comments, order and line ends kept), recording that a translation matches its
source text now (the staleness rule itself lives in ``qbank.bank.staleness``)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import yaml

from qbank.bank.catalog import load_catalog
from qbank.bank.model import Question
from qbank.bank.problems import display_path
from qbank.bank.staleness import TRANSLATED_FROM, source_hash, source_locale
from qbank.bank.yamlfile import Document, read_document, validate_model


def mark_current(content_dir: Path, question_id: str, locale: str) -> tuple[Path, str]:
    """Record that the ``locale`` translation of ``question_id`` matches the source text now.

    Rewrites only the ``translated_from`` lines of the question's file (comments, order and
    line ends are kept); adds ``translated_from: {locale: hash}`` at the end when absent.
    Returns the file and the hash written. Raises ValueError with a readable message when
    the id, the locale or the file is wrong.
    """
    catalog = load_catalog(content_dir)
    path, doc = _find_question(content_dir, question_id)
    question = validate_model(doc, Question, {"default_locale": catalog.default_locale})
    if question is None:
        raise ValueError("\n".join(p.format_text() for p in doc.problems))
    source = source_locale(question, catalog.locales)
    if locale not in catalog.locales:
        raise ValueError(f"unknown locale {locale!r}; expected one of {', '.join(catalog.locales)}")
    if locale == source:
        raise ValueError(
            f"{locale!r} is the source locale of {question_id}; name a locale it is translated into"
        )
    if locale not in question.prompt:
        have = ", ".join(loc for loc in catalog.locales if loc in question.prompt)
        raise ValueError(f"{doc.display}: no {locale!r} translation; the question has {have}")
    value = source_hash(question, source or locale)
    raw = path.read_bytes()
    bom = raw.startswith(b"\xef\xbb\xbf")
    text = raw.decode("utf-8").removeprefix("\ufeff")
    updated = set_translated_from(text, locale, value)
    if updated != text:
        path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + updated.encode("utf-8"))
    return path, value


def _find_question(content_dir: Path, question_id: str) -> tuple[Path, Document]:
    """The file whose ``id`` is ``question_id`` (a cheap text test first, then a parse)."""
    needle = question_id.strip().lower()
    for dirpath, dirnames, filenames in os.walk(content_dir):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if not name.endswith(".yaml") or name == "catalog.yaml":
                continue
            path = Path(dirpath) / name
            try:
                if needle not in path.read_text(encoding="utf-8", errors="replace"):
                    continue
            except OSError:
                continue
            doc = read_document(path, display_path(path))
            if isinstance(doc.data, dict) and doc.data.get("id") == needle:
                return path, doc
    raise ValueError(f"no question with id {question_id!r} in {display_path(content_dir)}")


def yaml_scalar(value: str) -> str:
    """A hash as YAML: plain when every YAML reader sees text (``12345678`` or ``1234e567``
    would be numbers to some), else double-quoted."""
    plain = re.search(r"[a-df]", value) is not None and yaml.safe_load(value) == value
    return value if plain else f'"{value}"'


def set_translated_from(text: str, locale: str, value: str) -> str:
    """``text`` with ``translated_from.<locale>`` set to ``value``; nothing else changes."""
    newline = "\r\n" if "\r\n" in text else "\n"
    scalar = yaml_scalar(value)
    root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    if not isinstance(root, yaml.MappingNode):
        raise ValueError("the question file is not a YAML mapping")
    for key_node, value_node in root.value:
        if not (isinstance(key_node, yaml.ScalarNode) and key_node.value == TRANSLATED_FROM):
            continue
        if not isinstance(value_node, yaml.MappingNode) or not value_node.value:
            start, end = key_node.start_mark.index, value_node.end_mark.index
            if not isinstance(value_node, yaml.MappingNode) and value_node.value in ("", None):
                end = key_node.end_mark.index + 1  # the ":" of an empty value
            return f"{text[:start]}{TRANSLATED_FROM}: {{{locale}: {scalar}}}{text[end:]}"
        for sub_key, sub_value in value_node.value:
            if isinstance(sub_key, yaml.ScalarNode) and sub_key.value == locale:
                start, end = sub_value.start_mark.index, sub_value.end_mark.index
                if start == end:  # `tr:` with no value
                    start = end = sub_key.end_mark.index + 1
                    scalar = " " + scalar
                return text[:start] + scalar + text[end:]
        if value_node.flow_style:
            last = value_node.value[-1][1].end_mark.index
            return f"{text[:last]}, {locale}: {scalar}{text[last:]}"
        first_key = value_node.value[0][0]
        indent = " " * first_key.start_mark.column
        last = value_node.value[-1][1].end_mark.index
        line_end = text.find("\n", last)
        if line_end < 0:
            return f"{text}{newline}{indent}{locale}: {scalar}"
        if text[line_end - 1 : line_end] == "\r":
            line_end -= 1
        # A block mapping's last value may end on the next line (the mark sits at column 0).
        if value_node.value[-1][1].end_mark.column == 0:
            line_end = text.rfind("\n", 0, last)
            if text[line_end - 1 : line_end] == "\r":
                line_end -= 1
        return f"{text[:line_end]}{newline}{indent}{locale}: {scalar}{text[line_end:]}"
    tail = "" if not text or text.endswith(("\n", "\r")) else newline
    return f"{text}{tail}{TRANSLATED_FROM}: {{{locale}: {scalar}}}{newline}"
