"""JSON Schemas for editors (yaml-language-server completion), generated from the models."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from qbank.bank.model import HINTS, Catalog, Question
from qbank.tools.scaffold import QUESTION_SCHEMA

CATALOG_SCHEMA = "catalog.schema.json"
_TEXT = {
    "anyOf": [
        {"type": "string", "description": "Markdown in the catalog's default locale"},
        {
            "type": "object",
            "description": "Markdown per locale",
            "propertyNames": {"pattern": "^[a-z]{2,3}(-[a-z0-9]{2,8})*$"},
            "additionalProperties": {"type": "string"},
        },
    ]
}


def _patch_texts(node: Any) -> Any:
    """Pydantic describes text maps after their before-validators; say what YAML may hold."""
    if isinstance(node, dict):
        if (
            node.get("type") == "object"
            and node.get("additionalProperties") == {"type": "string"}
            and "propertyNames" in node
        ):
            return {**_TEXT, **{k: v for k, v in node.items() if k in ("title", "description")}}
        return {k: _patch_texts(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_patch_texts(v) for v in node]
    return node


def question_schema() -> dict[str, Any]:
    """The schema of one question file."""
    schema: dict[str, Any] = _patch_texts(Question.model_json_schema())
    props = schema["properties"]
    for key, prop in props.items():
        prop.setdefault("description", HINTS.get(key, ""))
    props["seniority"] = {
        "anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}],
        "description": HINTS["seniority"],
    }
    props["answer"] = {
        "anyOf": [
            {"type": "string", "pattern": "^[a-h]$"},
            {"type": "array", "items": {"type": "string", "pattern": "^[a-h]$"}},
        ],
        "description": HINTS["answer"],
    }
    schema["title"] = "qbank question"
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema


def catalog_schema() -> dict[str, Any]:
    """The schema of catalog.yaml."""
    schema: dict[str, Any] = _patch_texts(Catalog.model_json_schema())
    schema["title"] = "qbank catalog"
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema


def write_schemas(directory: Path) -> list[Path]:
    """Write both schemas into ``directory``; return their paths."""
    directory.mkdir(parents=True, exist_ok=True)
    out = []
    for name, schema in ((QUESTION_SCHEMA, question_schema()), (CATALOG_SCHEMA, catalog_schema())):
        path = directory / name
        path.write_text(
            json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=True) + "\n",
            encoding="utf-8",
        )
        out.append(path)
    return out
