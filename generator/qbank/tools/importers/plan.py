"""The import plan: what an import would write, computed without writing, then applied.

Catalog additions are merged into ``catalog.yaml``: existing keys, order and names are kept,
missing fields, specializations, topics, seniorities, locales and names in other locales are
added at the end. The catalog is rewritten only when something was added, in a stable layout
(comments in it are lost then). A question whose id is already in the bank is never written
again: its file is reported ``unchanged`` (same bytes) or ``kept`` (edited since). A new
question gets a slug unique in its folder; a file holding a different id is never overwritten.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from qbank.bank.catalog import CATALOG_FILE
from qbank.bank.model import Question
from qbank.bank.problems import display_path
from qbank.bank.progress import Report, no_progress
from qbank.bank.yamlfile import read_document
from qbank.tools.importers.source import FABRICATED, KNOWN_NAMES, Parsed, SourceError, slug_for
from qbank.tools.scaffold import schema_comment

QUESTION_KEY_ORDER = tuple(Question.model_fields)


@dataclass(frozen=True)
class FileChange:
    """One question file of the plan."""

    path: Path
    status: str  # "new", "unchanged" or "kept"
    question_id: str
    text: str
    note: str = ""


@dataclass
class Plan:
    """Everything an import would change in the content folder."""

    content: Path
    catalog_text: str | None  # the new catalog.yaml, or None when it stays as it is
    catalog_changes: list[str] = field(default_factory=list)
    files: list[FileChange] = field(default_factory=list)
    images: list[tuple[Path, Path]] = field(default_factory=list)  # (source file, to write)
    notes: list[str] = field(default_factory=list)  # the parser's, as "file:line: …"

    def report(self, written: bool) -> list[str]:
        """One line per catalog change and per file, as the CLI prints them."""
        catalog = display_path(self.content / CATALOG_FILE)
        verb = "wrote" if written else "would write"
        lines = [*self.notes, *(f"{catalog}: {change}" for change in self.catalog_changes)]
        if self.catalog_text is not None:
            lines.append(f"{verb} {catalog}")
        for change in self.files:
            shown = display_path(change.path)
            if change.status == "new":
                lines.append(f"{verb} {shown} (new, id {change.question_id})")
            else:
                note = f"; {change.note}" if change.note else ""
                lines.append(f"{change.status} {shown} (id {change.question_id}{note})")
        lines += [f"{verb} {display_path(target)} (image)" for _source, target in self.images]
        return lines

    @property
    def new_files(self) -> list[FileChange]:
        """The files the plan creates."""
        return [c for c in self.files if c.status == "new"]


def plan_import(content: Path, parsed: Parsed, progress: Report = no_progress) -> Plan:
    """Merge ``parsed`` into the bank at ``content`` on paper; raise ``SourceError``."""
    catalog_path = content / CATALOG_FILE
    original = _read_catalog(catalog_path) if catalog_path.exists() else None
    merged, changes = merge_catalog(original, parsed.catalog)
    catalog_text = None
    if original is None or changes:
        catalog_text = dump_catalog(merged)
    plan = Plan(content, catalog_text, changes, notes=list(parsed.notes))
    _check_questions(parsed, merged)
    existing = existing_ids(content, progress)
    taken: set[Path] = set()
    for question in parsed.questions:
        found = existing.get(question.id)
        if found is not None:
            text = question_text(content, found.parent, question.data)
            same = found.read_text(encoding="utf-8") == text
            where = found.parent.relative_to(content).as_posix()
            note = "" if same else "already in the bank, edited since; not overwritten"
            if where != f"{question.field}/{question.topic}":
                note = f"already in the bank in {where}/; not written again"
            plan.files.append(
                FileChange(found, "unchanged" if same else "kept", question.id, text, note)
            )
            continue
        folder = content / question.field / question.topic
        base = slug_for(str(next(iter(question.data["prompt"].values()))))
        path, n = folder / f"{base}.yaml", 2
        while path.exists() or path in taken:
            path, n = folder / f"{base}-{n}.yaml", n + 1
        taken.add(path)
        text = question_text(content, folder, question.data)
        plan.files.append(FileChange(path, "new", question.id, text))
    for question in parsed.questions:
        for name, source in question.images.items():
            _plan_image(plan, source, content / question.field / question.topic / name)
    return plan


def _plan_image(plan: Plan, source: Path, target: Path) -> None:
    """Copy an image beside its question unless the very same file is there already; one
    of the same name with other bytes is kept and said so."""
    if any(planned == target for _, planned in plan.images):
        return
    if target.exists():
        if target.read_bytes() != source.read_bytes():
            shown = display_path(target)
            plan.notes.append(f"{shown}: another image of this name is there; not overwritten")
        return
    plan.images.append((source, target))


def apply_plan(plan: Plan, progress: Report = no_progress) -> list[Path]:
    """Write the plan's catalog and new files; return the paths written."""
    written: list[Path] = []
    if plan.catalog_text is not None:
        plan.content.mkdir(parents=True, exist_ok=True)
        path = plan.content / CATALOG_FILE
        path.write_text(plan.catalog_text, encoding="utf-8")
        written.append(path)
    for n, change in enumerate(plan.new_files):
        progress("writing files", n, len(plan.new_files))
        change.path.parent.mkdir(parents=True, exist_ok=True)
        with change.path.open("x", encoding="utf-8") as handle:  # "x": never overwrite
            handle.write(change.text)
        written.append(change.path)
    for source, target in plan.images:
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("xb") as handle:  # never overwrite
            handle.write(source.read_bytes())
        written.append(target)
    return written


def _check_questions(parsed: Parsed, catalog: dict[str, Any]) -> None:
    """Shape-check every question before anything is written; same id twice is an error."""
    context = {"default_locale": catalog["locales"][0]}
    seen: dict[str, str] = {}
    for question in parsed.questions:
        if question.id in seen:
            raise SourceError(
                f"{question.where}: the same question as {seen[question.id]} "
                "(same id or same prompt); expected each question once"
            )
        seen[question.id] = question.where
        try:
            Question.model_validate(question.data, context=context)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            key = ".".join(str(p) for p in first["loc"])
            raise SourceError(
                f"{question.where}: {key}: {first['msg']}; expected a question the bank accepts"
            ) from None


def existing_ids(content: Path, progress: Report = no_progress) -> dict[str, Path]:
    """The id of every question file already in the content folder."""
    paths: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(content):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        paths += [
            Path(dirpath) / name
            for name in sorted(filenames)
            if name.endswith(".yaml") and name != CATALOG_FILE
        ]
    found: dict[str, Path] = {}
    for n, path in enumerate(paths):
        progress("reading the bank's ids", n, len(paths))
        doc = read_document(path, display_path(path))
        if isinstance(doc.data, dict) and isinstance(doc.data.get("id"), str):
            found.setdefault(doc.data["id"], path)
    return found


# ---------------------------------------------------------------------------------------------
# The catalog


def _read_catalog(path: Path) -> dict[str, Any]:
    doc = read_document(path, display_path(path))
    if doc.problems:
        raise SourceError(
            "\n".join(p.format_text() for p in doc.problems)
            + "\nfix catalog.yaml first (`qbank validate`)"
        )
    if not isinstance(doc.data, dict):
        raise SourceError(f"{doc.display}:1:1: the catalog must be a mapping")
    data: dict[str, Any] = doc.data
    return data


def _as_names(value: Any, default_locale: str) -> dict[str, str]:
    if isinstance(value, str):
        return {default_locale: value}
    return dict(value) if isinstance(value, dict) else {}


def merge_catalog(
    original: dict[str, Any] | None, additions: dict[str, Any]
) -> tuple[dict[str, Any], list[str]]:
    """The catalog with ``additions`` merged in, and one line per change."""
    changes: list[str] = []
    base = original or {}
    locales = list(base.get("locales") or [])
    for locale in additions.get("locales", []):
        if locale not in locales:
            locales.append(locale)
            changes.append(f"add locale {locale}")
    if not locales:
        locales = ["en"]
    default = locales[0]

    def names(old: Any, new: Any, what: str) -> dict[str, str]:
        merged = _as_names(old, default)
        offered = _as_names(new, default)
        made_up = offered.pop(FABRICATED, None)
        for locale, text in offered.items():
            if locale in locales and locale not in merged:
                merged[locale] = text
                if old is not None:
                    changes.append(f"add {locale} name of {what}: {text}")
        if default not in merged:
            fallback = merged.get("en") or next(iter(merged.values()), None) or made_up
            if fallback is not None:
                merged[default] = fallback
        return merged

    known_titles = KNOWN_NAMES["title"]
    title_default = {loc: known_titles[loc] for loc in locales if loc in known_titles} or {
        default: known_titles["en"]
    }
    out: dict[str, Any] = {
        "title": names(base.get("title"), base.get("title") or title_default, "the title")
    }
    out["locales"] = locales
    seniorities: dict[str, Any] = {}
    offered = dict(additions.get("seniorities") or {})
    if not base.get("seniorities"):  # a new bank: the levels difficulty 1, 2, 3 stand for
        offered = {**{k: KNOWN_NAMES[k] for k in ("junior", "mid", "senior")}, **offered}
    for key, value in (base.get("seniorities") or {}).items():
        seniorities[key] = names(value, offered.get(key), key)
    for key, value in offered.items():
        if key not in seniorities:
            changes.append(f"add seniority {key}")
            seniorities[key] = names(None, value, key)
    out["seniorities"] = seniorities
    fields: dict[str, Any] = {}
    new_fields = additions.get("fields") or {}
    for key in [*(base.get("fields") or {}), *(k for k in new_fields if k not in fields)]:
        if key in fields:
            continue
        old_field = (base.get("fields") or {}).get(key)
        new_field = new_fields.get(key)
        if old_field is None:
            changes.append(f"add field {key}")
        fields[key] = _merge_field(key, old_field, new_field, names, changes)
    out["fields"] = fields
    return out, changes


def _merge_field(
    key: str,
    old: dict[str, Any] | None,
    new: dict[str, Any] | None,
    names: Any,
    changes: list[str],
) -> dict[str, Any]:
    old = old or {}
    new = new or {}
    specs: dict[str, Any] = {}
    old_specs = old.get("specializations") or {}
    new_specs = new.get("specializations") or {}
    topic_home = {t: s for s, spec in old_specs.items() for t in (spec.get("topics") or {})}
    for spec_key in [*old_specs, *new_specs]:
        if spec_key in specs:
            continue
        old_spec = old_specs.get(spec_key) or {}
        new_spec = new_specs.get(spec_key) or {}
        where = f"{key}/{spec_key}"
        if not old_spec:
            changes.append(f"add specialization {where}")
        topics: dict[str, Any] = {}
        for topic_key, topic in (old_spec.get("topics") or {}).items():
            topics[topic_key] = {"name": names(topic.get("name"), None, f"topic {topic_key}")}
        specs[spec_key] = {
            "name": names(old_spec.get("name"), new_spec.get("name"), f"specialization {where}"),
            "topics": topics,
        }
    # New topics: into the specialization the addition names, unless the field has them.
    for spec_key, new_spec in new_specs.items():
        for topic_key, topic in (new_spec.get("topics") or {}).items():
            home = topic_home.get(topic_key, spec_key)
            target = specs[home]["topics"]
            if topic_key in target:
                target[topic_key]["name"] = names(
                    target[topic_key]["name"], topic.get("name"), f"topic {key}/{topic_key}"
                )
            else:
                changes.append(f"add topic {key}/{topic_key} in {home}")
                target[topic_key] = {"name": names(None, topic.get("name"), topic_key)}
                topic_home[topic_key] = home
    return {
        "name": names(old.get("name"), new.get("name"), f"field {key}"),
        "specializations": specs,
    }


def _flow(value: Any) -> str:
    text = yaml.safe_dump(
        value, default_flow_style=True, allow_unicode=True, sort_keys=False, width=1 << 20
    )
    return text.strip().removesuffix("...").strip()


def dump_catalog(catalog: dict[str, Any]) -> str:
    """``catalog.yaml`` text in a stable layout: names as one-line mappings, keys in order."""
    lines = [
        "# catalog.yaml: locales, seniorities and fields > specializations > topics.",
        f"title: {_flow(catalog['title'])}",
        f"locales: {_flow(catalog['locales'])}",
        "seniorities:",
    ]
    lines += [f"  {key}: {_flow(names)}" for key, names in catalog["seniorities"].items()]
    lines.append("fields:")
    for field_key, field_ in catalog["fields"].items():
        lines += [f"  {field_key}:", f"    name: {_flow(field_['name'])}", "    specializations:"]
        for spec_key, spec in field_["specializations"].items():
            lines += [f"      {spec_key}:", f"        name: {_flow(spec['name'])}"]
            if not spec["topics"]:
                lines.append("        topics: {}")
                continue
            lines.append("        topics:")
            for topic_key, topic in spec["topics"].items():
                lines.append(f"          {topic_key}: {{name: {_flow(topic['name'])}}}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# Question files


class _QuestionDumper(yaml.SafeDumper):
    """Block scalars (``|``) for texts of several lines."""


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_QuestionDumper.add_representer(str, _represent_str)


def question_text(content: Path, folder: Path, data: dict[str, Any]) -> str:
    """The text of a question file: the schema comment, then the keys in model order."""
    ordered = {key: data[key] for key in QUESTION_KEY_ORDER if data.get(key) is not None}
    body = yaml.dump(
        ordered,
        Dumper=_QuestionDumper,
        allow_unicode=True,
        sort_keys=False,
        width=100,
        default_flow_style=False,
    )
    return f"{schema_comment(folder, content)}\n{body}"
