"""Compiled theme templates kept in memory for the process (``TemplateCode``)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable

import jinja2
import jinja2.bccache
import jinja2.meta


class TemplateCode(jinja2.BytecodeCache):
    """Compiled theme templates kept in memory across the builds of one process: MkDocs makes
    a new Jinja environment for every build, and a locale's nested build or a ``mkdocs
    serve`` rebuild would compile Material's templates again. Jinja checks each template's
    source checksum before reusing its code. Never written to disk (compiled code is not
    data a restored cache could be checked for)."""

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()

    def compile(self, env: jinja2.Environment, names: Iterable[str]) -> None:
        """Compile the templates ``names`` and every one they extend, include or import by a
        constant name, into this cache (before the locale process forks: it then renders
        with them instead of compiling them again). A template that does not compile here
        (a filter a plugin adds only later) is left to the build."""
        todo, seen = list(names), set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            try:
                source, filename, _ = env.loader.get_source(env, name)  # type: ignore[union-attr]
                tree = env.parse(source, name, filename)
            except jinja2.TemplateError:
                continue
            todo.extend(n for n in jinja2.meta.find_referenced_templates(tree) if n)
            bucket = self.get_bucket(env, name, filename, source)
            if bucket.code is None:
                with contextlib.suppress(jinja2.TemplateError):
                    bucket.code = env.compile(tree, name, filename)
                    self.set_bucket(bucket)
