"""``qbank import payload``: a Nuxt page payload (devalue format) with a catalog and samples.

The payload is a flat JSON array: entry 0 is the root, and every number inside an object or
a list is the index of another entry (negative numbers stand for undefined, NaN and the
like; a list starting with a string such as ``["ShallowReactive", 2]`` wraps a value).
Resolved, it holds ``config`` (fields with ``name_<locale>``, their specializations,
seniorities, locales) and one ``catalog:<locale>:<field>/<topic>`` page (its field's topics
and sample questions with UUIDs, difficulty, options, correct key and explanation).

What is merged into catalog.yaml: every field with its names, every specialization (named
in the payload's locale), the seniorities, the locales, and the page field's topics. Topics
map to specializations by key prefix: ``cml-`` classical-ml, ``dl-`` deep-learning, ``fe-``
feature-engineering, ``ti-`` training-infrastructure, anything else general. The samples
become question files in the payload's locale, keeping their ids and Markdown code blocks.
"""

from __future__ import annotations

import json
from typing import Any

from qbank.tools.importers.source import (
    GENERAL,
    KNOWN_NAMES,
    ImportedQuestion,
    Parsed,
    SourceError,
    clean,
    specialization_for,
)

# devalue's encodings of values JSON cannot hold
_SPECIAL = {-1: None, -2: None, -3: float("nan"), -4: float("inf"), -5: float("-inf"), -6: 0.0}
_WRAPPERS = {"ShallowReactive", "Reactive", "ShallowRef", "Ref", "Object", "BigInt"}


def resolve(values: list[Any], display: str) -> Any:
    """The value of entry 0 with every index reference replaced by what it points at."""
    done: dict[int, Any] = {}
    active: set[int] = set()

    def at(index: Any, path: str) -> Any:
        if isinstance(index, bool) or not isinstance(index, int):
            raise SourceError(
                f"{display}: {path}: {index!r} is not an entry index; expected a whole number"
            )
        if index < 0:
            if index not in _SPECIAL:
                raise SourceError(
                    f"{display}: {path}: unknown special value {index}; expected -1 … -6"
                )
            return _SPECIAL[index]
        if index >= len(values):
            raise SourceError(
                f"{display}: {path}: refers to entry {index}, but the payload has "
                f"{len(values)} entries; expected an index below {len(values)}"
            )
        if index in done:
            return done[index]
        if index in active:
            raise SourceError(
                f"{display}: entry {index} refers to itself; expected a tree of entries"
            )
        active.add(index)
        value = values[index]
        here = f"entry {index}"
        if isinstance(value, dict):
            out: Any = {key: at(item, f"{here}.{key}") for key, item in value.items()}
        elif isinstance(value, list) and value and isinstance(value[0], str):
            kind = value[0]
            if kind in _WRAPPERS or kind in ("Date", "RegExp", "URL"):
                out = at(value[1], f"{here}[1]") if kind in _WRAPPERS else value[1]
            elif kind == "Set":
                out = [at(item, f"{here}[{i}]") for i, item in enumerate(value[1:], 1)]
            elif kind == "Map":
                out = {
                    str(at(value[i], f"{here}[{i}]")): at(value[i + 1], f"{here}[{i + 1}]")
                    for i in range(1, len(value) - 1, 2)
                }
            elif kind in ("null",):
                out = None
            else:
                raise SourceError(
                    f"{display}: {here}: unknown wrapper {kind!r}; expected one of "
                    "ShallowReactive, Reactive, Ref, Set, Map, Date"
                )
        elif isinstance(value, list):
            out = [at(item, f"{here}[{i}]") for i, item in enumerate(value)]
        else:
            out = value
        active.discard(index)
        done[index] = out
        return out

    return at(0, "root")


def _need(obj: Any, key: str, kind: type, where: str, display: str) -> Any:
    value = obj.get(key) if isinstance(obj, dict) else None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        names = {str: "text", int: "a number", list: "a list", dict: "an object"}
        got = "nothing" if value is None else type(value).__name__
        raise SourceError(f"{display}: {where}.{key}: got {got}; expected {names[kind]}")
    return value


def parse(text: str, display: str) -> Parsed:
    """Read a payload document (see the module docstring)."""
    try:
        values = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SourceError(
            f"{display}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg}); "
            "expected a Nuxt payload (a JSON array)"
        ) from None
    if not isinstance(values, list) or not values:
        raise SourceError(f"{display}:1:1: expected a Nuxt payload: a non-empty JSON array")
    root = resolve(values, display)
    data = root.get("data") if isinstance(root, dict) else None
    if not isinstance(data, dict):
        raise SourceError(f"{display}: root.data: missing; expected the page's data object")
    config = _need(data, "config", dict, "data", display)
    page_keys = sorted(k for k in data if k.startswith("catalog:"))
    if not page_keys:
        raise SourceError(
            f"{display}: data: no catalog:<locale>:<field>/<topic> entry; expected one"
        )
    page_where = f"data[{page_keys[0]!r}]"
    page = _need(data, page_keys[0], dict, "data", display)
    locale = _need(page, "locale", str, page_where, display)
    locales = [
        loc for loc in _need(config, "locales", list, "config", display) if isinstance(loc, str)
    ]
    if locale not in locales:
        locales.append(locale)

    def names(*pairs: tuple[str, Any]) -> dict[str, str]:
        return {loc: clean(name) for loc, name in pairs if isinstance(name, str) and name}

    catalog: dict[str, Any] = {"locales": locales, "seniorities": {}, "fields": {}}
    for key in _need(config, "seniorities", list, "config", display):
        known = KNOWN_NAMES.get(key, {})
        catalog["seniorities"][key] = {loc: known.get(loc, key.title()) for loc in locales}
    fields = _need(config, "fields", list, "config", display)
    ordered = sorted(
        enumerate(fields),
        key=lambda p: (p[1].get("sort", p[0]) if isinstance(p[1], dict) else p[0], p[0]),
    )
    for i, field_ in ordered:
        where = f"config.fields[{i}]"
        key = _need(field_, "key", str, where, display)
        field_names = names(*((k[5:], v) for k, v in field_.items() if k.startswith("name_")))
        specs: dict[str, Any] = {}
        for j, spec in enumerate(_need(field_, "specializations", list, where, display)):
            spec_where = f"{where}.specializations[{j}]"
            spec_key = _need(spec, "key", str, spec_where, display)
            spec_name = names((locale, _need(spec, "name", str, spec_where, display)))
            known = KNOWN_NAMES.get(spec_key, {})
            spec_name.update({loc: known[loc] for loc in locales if loc in known})
            specs[spec_key] = {"name": spec_name, "topics": {}}
        catalog["fields"][key] = {"name": field_names, "specializations": specs}

    field_key = _need(page, "field_key", str, page_where, display)
    if field_key not in catalog["fields"]:
        raise SourceError(
            f"{display}: {page_where}.field_key: {field_key!r} is not in config.fields; "
            "expected one of " + ", ".join(catalog["fields"])
        )
    field_specs = catalog["fields"][field_key]["specializations"]
    topic_by_name: dict[str, str] = {}
    for i, topic in enumerate(_need(page, "topics", list, page_where, display)):
        where = f"{page_where}.topics[{i}]"
        topic_key = _need(topic, "key", str, where, display)
        topic_name = _need(topic, "name", str, where, display)
        spec_key = specialization_for(topic_key)
        if spec_key not in field_specs:
            spec_key = GENERAL
            field_specs.setdefault(GENERAL, {"name": dict(KNOWN_NAMES[GENERAL]), "topics": {}})
        field_specs[spec_key]["topics"][topic_key] = {"name": names((locale, topic_name))}
        topic_by_name[topic_name] = topic_key
    page_topic = _need(page, "topic_key", str, page_where, display)

    parsed = Parsed(display, catalog=catalog)
    for i, sample in enumerate(_need(page, "samples", list, page_where, display)):
        where = f"{page_where}.samples[{i}]"
        shown = f"{display}: samples[{i}]"
        options: dict[str, dict[str, str]] = {}
        for j, option in enumerate(_need(sample, "options", list, where, display)):
            option_where = f"{where}.options[{j}]"
            key = _need(option, "key", str, option_where, display)
            options[key] = {locale: clean(_need(option, "text", str, option_where, display))}
        correct = sample.get("correct_key")
        answer = correct if isinstance(correct, list) else [correct]
        if not all(isinstance(k, str) and k in options for k in answer):
            raise SourceError(
                f"{display}: {where}.correct_key: {correct!r}; expected one of "
                + ", ".join(options)
            )
        topic_name = sample.get("topic")
        data = {
            "id": _need(sample, "id", str, where, display),
            "difficulty": _need(sample, "difficulty", int, where, display),
            "prompt": {locale: clean(_need(sample, "body", str, where, display))},
            "options": options,
            "answer": answer[0] if len(answer) == 1 else answer,
            "explanation": {locale: clean(_need(sample, "explanation", str, where, display))},
        }
        if isinstance(sample.get("hint"), str) and sample["hint"].strip():
            data["hint"] = {locale: clean(sample["hint"])}
        topic_key = topic_by_name.get(topic_name, page_topic) if topic_name else page_topic
        parsed.questions.append(ImportedQuestion(shown, field_key, topic_key, data))
    return parsed
