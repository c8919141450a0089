"""Compiled theme templates kept in memory for the process (``TemplateCode``)."""

from __future__ import annotations

import jinja2
import jinja2.bccache


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
