"""The catalog file (``catalog.yaml``): read, checked on its own, and walked."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from qbank.bank.model import Catalog, FieldOfWork
from qbank.bank.problems import ContentError, Problem, display_path
from qbank.bank.yamlfile import Document, Path_, read_document, validate_model

CATALOG_FILE = "catalog.yaml"


def load_catalog(root: Path) -> Catalog:
    """Only ``catalog.yaml``; raise ``ContentError`` when it has errors."""
    path = Path(root) / CATALOG_FILE
    doc = read_document(path, display_path(path))
    catalog = check_catalog(doc)
    if catalog is None:
        raise ContentError(
            doc.problems or [Problem(doc.display, 1, 1, "", "no catalog", "a valid catalog.yaml")]
        )
    return catalog


def read_catalog(root: Path) -> tuple[Document, Catalog | None]:
    """``catalog.yaml`` read and checked: the document (holding its problems) and the
    catalog, None when it has errors."""
    path = root / CATALOG_FILE
    doc = read_document(path, display_path(path))
    return doc, check_catalog(doc)


def raw_default_locale(doc: Document) -> str:
    data = doc.data if isinstance(doc.data, dict) else {}
    locales = data.get("locales")
    if isinstance(locales, list) and locales and isinstance(locales[0], str):
        return locales[0]
    return "en"


def catalog_topics(catalog: Catalog) -> Iterator[tuple[str, str, str]]:
    for field_key, field_ in catalog.fields.items():
        for spec_key, spec in field_.specializations.items():
            for topic_key in spec.topics:
                yield field_key, spec_key, topic_key


def _catalog_keys(key: Path_) -> str:
    depth = len(key)
    if depth == 0:
        return "one of title, locales, seniorities, fields"
    if key[0] == "fields" and depth == 2:
        return "name, specializations"
    if key[0] == "fields" and depth == 4:
        return "name, topics"
    if key[0] == "fields" and depth == 6:
        return "name"
    return "a known key"


def check_catalog(doc: Document) -> Catalog | None:
    if doc.problems:
        return None
    if not isinstance(doc.data, dict):
        doc.problems.append(
            doc.problem(
                (), "the catalog must be a mapping", "keys title, locales, seniorities, fields"
            )
        )
        return None
    context = {"default_locale": raw_default_locale(doc)}
    catalog = validate_model(doc, Catalog, context, _catalog_keys)
    if catalog is None:
        return None
    locales = set(catalog.locales)
    known = ", ".join(catalog.locales)
    for key, texts in _catalog_texts(catalog):
        for locale in texts:
            if locale not in locales:
                doc.problems.append(
                    doc.problem(
                        (*key, locale),
                        f"unknown locale {locale!r}",
                        f"one of the catalog's locales: {known}",
                    )
                )
        if catalog.default_locale not in texts:
            doc.problems.append(
                doc.problem(
                    key,
                    f"no name in the default locale {catalog.default_locale!r}",
                    f"a {catalog.default_locale} entry, which other locales fall back to",
                )
            )
    seen: dict[tuple[str, str], str] = {}
    for field_key, spec_key, topic_key in catalog_topics(catalog):
        if (field_key, topic_key) in seen:
            doc.problems.append(
                doc.problem(
                    ("fields", field_key, "specializations", spec_key, "topics", topic_key),
                    f"topic {topic_key!r} is already in specialization "
                    f"{seen[field_key, topic_key]!r} of this field",
                    "topic keys unique within a field (the folder is <field>/<topic>/)",
                )
            )
        seen[field_key, topic_key] = spec_key
    if len(set(catalog.locales)) != len(catalog.locales):
        doc.problems.append(
            doc.problem(("locales",), "a locale is listed twice", "each locale once")
        )
    return None if doc.problems else catalog


def _catalog_texts(catalog: Catalog) -> Iterator[tuple[Path_, Mapping[str, str]]]:
    yield ("title",), catalog.title
    for key, names in catalog.seniorities.items():
        yield ("seniorities", key), names
    for field_key, field_ in catalog.fields.items():
        yield ("fields", field_key, "name"), field_.name
        for spec_key, spec in field_.specializations.items():
            yield ("fields", field_key, "specializations", spec_key, "name"), spec.name
            for topic_key, topic in spec.topics.items():
                yield (
                    ("fields", field_key, "specializations", spec_key, "topics", topic_key, "name"),
                    topic.name,
                )


def valid_topics_hint(catalog: Catalog | None, field_key: str | None = None) -> str:
    """The folders a question may live in, for a hint."""
    if catalog is None:
        return "<field>/<topic>/<slug>.yaml under a topic of catalog.yaml"
    fields: Iterable[tuple[str, FieldOfWork]] = catalog.fields.items()
    if field_key in catalog.fields:
        fields = [(field_key, catalog.fields[field_key])]
    folders = [
        f"{f}/{t}/"
        for f, field_ in fields
        for s in field_.specializations.values()
        for t in s.topics
    ]
    shown = ", ".join(folders[:12]) + (f" … ({len(folders)} in all)" if len(folders) > 12 else "")
    return f"<field>/<topic>/<slug>.yaml with one of: {shown}"


def default_locale(doc: Document, catalog: Catalog | None) -> str:
    """The bank's default locale: the catalog's, or as written in a catalog with errors."""
    return catalog.default_locale if catalog else raw_default_locale(doc)
