"""YAML files → plain data with line numbers: safe, strict and fast (libyaml).

Owns reading one file: size limit, UTF-8 (a BOM and CRLF accepted), NFC, and the YAML
features a question file may not use (anchors, aliases, custom tags, duplicate keys).
Positions are computed only when a problem needs them, so the common path stays close to
the cost of ``yaml.load(..., Loader=CSafeLoader)``.
"""

from __future__ import annotations

import hashlib
import operator
import os
import re
import stat
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, cast

import yaml
from pydantic import BaseModel, ValidationError
from yaml.constructor import SafeConstructor

from qbank.bank.model import HINTS, nfc
from qbank.bank.problems import Problem

MAX_FILE_BYTES = 256 * 1024
MAX_DEPTH = 32

_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
try:
    from yaml._yaml import CParser as _Parser
except ImportError:  # PyYAML built without libyaml: the same rules, slower
    _Parser = yaml.SafeLoader  # type: ignore[assignment, misc]
_scalars = SafeConstructor()
_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_MERGE = "tag:yaml.org,2002:merge"
_SCALAR_BUILDERS: dict[str, Callable[[yaml.ScalarNode], Any]] = {
    _INT: _scalars.construct_yaml_int,
    _FLOAT: _scalars.construct_yaml_float,
    _BOOL: _scalars.construct_yaml_bool,
    _NULL: _scalars.construct_yaml_null,
    # A date-like scalar stays the text the contributor wrote.
    _TIMESTAMP: lambda node: str(node.value),
}

Path_ = tuple[str | int, ...]
M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class Position:
    """Where a key and its value stand in a file (1-based)."""

    line: int
    col: int
    value_line: int
    value_col: int
    block: bool  # the value is a block scalar (``|`` or ``>``): its text starts a line below


@dataclass
class Document:
    """One parsed YAML file: its data, its text (for positions on demand) and its problems."""

    path: str | Path
    display: str
    text: str
    data: Any = None
    raw: bytes = field(default=b"", repr=False)  # the file's bytes
    problems: list[Problem] = field(default_factory=list)
    _positions: dict[Path_, Position] | None = None
    # The parse's composed nodes, kept while the document lives, so that the positions of
    # its first problem come from the same pass instead of a second parse of the text.
    _node: yaml.Node | None = field(default=None, repr=False)

    @property
    def digest(self) -> str:
        """A short hash of the file's bytes."""
        return hashlib.blake2b(self.raw, digest_size=8).hexdigest()

    def problem(
        self,
        key: Path_,
        message: str,
        hint: str = "",
        *,
        at_value: bool = False,
        text_line: int | None = None,
        **kwargs: Any,
    ) -> Problem:
        """A problem at ``key`` (a key path such as ``("options", "e")``)."""
        line, col = self.locate(key, at_value=at_value, text_line=text_line)
        return Problem(self.display, line, col, dotted(key), message, hint, **kwargs)

    def locate(
        self, key: Path_, *, at_value: bool = False, text_line: int | None = None
    ) -> tuple[int, int]:
        """Line and column of ``key``, or of its nearest written ancestor (a missing top-level
        key: the document's first key, below any comment lines).

        ``text_line`` is a 0-based line inside the key's text value (0: its first line).
        """
        positions = self.positions()
        probe = key
        while probe and probe not in positions:
            probe = probe[:-1]
        if not probe:  # a key missing from the top: where the document's keys start
            first = next((p for k, p in positions.items() if isinstance(k[0], str)), None)
            return (first.line, first.col) if first else (1, 1)
        pos = positions[probe]
        if probe != key:
            # ``answer[0]`` of ``answer: z``: the nearest written ancestor's value.
            return (pos.value_line, pos.value_col) if at_value else (pos.line, pos.col)
        if not at_value and text_line is None:
            return pos.line, pos.col
        if text_line is None or (text_line == 0 and not pos.block):
            return pos.value_line, pos.value_col
        # A block scalar's text starts on the line below its ``|`` or ``>``.
        return pos.value_line + text_line + (1 if pos.block else 0), 1

    def positions(self) -> dict[Path_, Position]:
        """Positions of every key path, on first use: from the parse's nodes, or (for a
        document that was not parsed whole) composed again from the text."""
        if self._positions is None:
            self._positions = {}
            node, self._node = self._node, None
            if node is None:
                try:
                    node = _compose(self.text)
                except yaml.YAMLError:
                    return self._positions
            if node is not None:
                _walk_positions(node, (), self._positions)
        return self._positions


def dotted(key: Path_) -> str:
    """``("options", "e")`` → ``options.e``; list indexes as ``tags[1]``."""
    out = ""
    for part in key:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def read_document(path: str | Path, display: str) -> Document:
    """Read and parse one YAML file; problems are collected on the document, never raised."""
    doc = Document(path, display, "")
    try:
        # Unbuffered reads straight into bytes: no file object, no buffer to copy through.
        # Non-blocking: a pipe named like a question file would otherwise wait for a writer.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        try:
            raw = _read_at_most(fd, MAX_FILE_BYTES + 1)
            if not raw and not stat.S_ISREG(os.fstat(fd).st_mode):
                doc.problems.append(
                    Problem(
                        display,
                        1,
                        1,
                        "",
                        "not a regular file (a pipe or a device)",
                        "a file named <slug>.yaml",
                    )
                )
                return doc
            if len(raw) > MAX_FILE_BYTES:
                size = os.fstat(fd).st_size
                doc.problems.append(
                    Problem(
                        display,
                        1,
                        1,
                        "",
                        f"file is {size:,} bytes, over the limit of {MAX_FILE_BYTES:,}",
                        "one question per file, at most 256 KiB",
                    )
                )
                return doc
        finally:
            os.close(fd)
    except IsADirectoryError:
        doc.problems.append(
            Problem(
                display,
                1,
                1,
                "",
                "a directory where a YAML file was expected",
                "a file, not a folder, named <slug>.yaml",
            )
        )
        return doc
    except OSError as exc:
        doc.problems.append(
            Problem(display, 1, 1, "", f"cannot read the file: {exc.strerror}", "a readable file")
        )
        return doc
    doc.raw = raw
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        doc.problems.append(
            Problem(
                display,
                line,
                col,
                "",
                f"invalid UTF-8 byte 0x{raw[exc.start]:02x}",
                "a UTF-8 text file",
            )
        )
        return doc
    doc.text = text = text.removeprefix("\ufeff")
    parse_into(doc)
    return doc


def _read_at_most(fd: int, limit: int) -> bytes:
    """Up to ``limit`` bytes from the start of an open file (to its end if shorter)."""
    raw = os.read(fd, limit)
    while raw and len(raw) < limit:
        more = os.read(fd, limit - len(raw))
        if not more:
            break
        raw += more
    return raw


def parse_into(doc: Document) -> None:
    """Parse ``doc.text`` into ``doc.data``, adding problems for anything refused."""
    text = doc.text
    if _may_hold_anchor_or_alias(text) and _refuse_anchors(doc):
        return
    try:
        node = _compose(text)
    except yaml.MarkedYAMLError as exc:
        doc.problems.append(_yaml_problem(doc.display, exc, doc.text))
        return
    except yaml.YAMLError as exc:
        doc.problems.append(_reader_problem(doc, exc))
        return
    if node is None:
        doc.problems.append(
            Problem(
                doc.display,
                1,
                1,
                "",
                "the file is empty",
                "a YAML mapping of keys such as id, prompt",
            )
        )
        return
    doc.data = _construct(node, (), doc, 0)
    doc._node = node


def _compose(text: str) -> yaml.Node | None:
    composer = _Composer(text)
    try:
        node: yaml.Node | None = composer.get_single_node()
        return node
    finally:
        composer.dispose()


_resolved: dict[str, str] = {}  # plain scalar → its implicit tag, for short scalars


class _Composer(_Parser):
    """libyaml's parser and composer with a faster tag resolver: nodes, no Python objects.

    The composer calls back into Python for every node; the safe resolver's answers are the
    same for the same plain scalar, so short ones are remembered (keys, numbers, option
    keys), and path resolvers (which a safe loader never has) are skipped.
    """

    def resolve(self, kind: type[yaml.Node], value: str, implicit: tuple[bool, bool]) -> str:
        if kind is yaml.ScalarNode:
            if not implicit[0]:  # quoted or block text
                return _STR
            tag = _resolved.get(value)
            if tag is None:
                tag = _RESOLVER.resolve(kind, value, implicit)  # type: ignore[no-untyped-call]
                if len(value) <= 64 and len(_resolved) < 50_000:
                    _resolved[value] = tag
            return tag
        return _MAP if kind is yaml.MappingNode else _SEQ

    # Called around every node to follow path resolvers; there are none. Builtins taking the
    # same arguments, rather than Python functions that do nothing.
    descend_resolver = operator.is_
    ascend_resolver = int


_RESOLVER = yaml.resolver.Resolver()


def _may_hold_anchor_or_alias(text: str) -> bool:
    """Whether an anchor (&name) or alias (*name) could start somewhere in ``text``: after
    the start of a line, a space or a flow indicator, and followed by a name character.

    Text without such a place has neither, so only files with one (Markdown **bold**, say)
    pay for the event scan that decides.
    """
    for mark in "&*":
        at = text.find(mark)
        while at >= 0:
            before = text[at - 1] if at else "\n"
            after = text[at + 1 : at + 2]
            if (
                (before.isspace() or before in "[{,:")
                and after
                and not after.isspace()
                and after not in "[]{},"
            ):
                return True
            at = text.find(mark, at + 1)
    return False


_TAB_HINT = "indentation with spaces (YAML does not allow tabs)"


_COLON_HINT = 'quotes around a text holding ": " (en: "Workers: more of them"), or a | block'
_KEY_LINE = re.compile(r"( *)(?:- +)?([A-Za-z0-9_-]+) *:(?: +(?!#)(.)|[ \t]*(?:#.*)?$)")


def _key_at(text: str, line: int) -> str:
    """The dotted key a broken file's ``line`` (1-based) most likely belongs to: its own key
    and the keys without a value of their own (``options:``) less indented above it (the
    parser gives no key path for a syntax error)."""
    path: list[str] = []
    indent: int | None = None
    for raw in reversed(text.split("\n", line)[:line]):
        found = _KEY_LINE.match(raw)
        if found is None or (indent is not None and len(found.group(1)) >= indent):
            continue
        if path and found.group(3) is not None:  # ``en: text`` holds no keys
            continue
        indent = len(found.group(1))
        path.append(found.group(2))
        if indent == 0:
            break
    return ".".join(reversed(path))


def _yaml_problem(display: str, exc: yaml.MarkedYAMLError, text: str = "") -> Problem:
    mark = exc.problem_mark or exc.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    message = " ".join(s for s in (exc.context, exc.problem) if s)
    hint = "valid YAML"
    # libyaml's message does not show the character; look at the text under the mark.
    at_tab = mark is not None and text[mark.index : mark.index + 1] == "\t"
    if "'\\t'" in message or "\t" in message or at_tab:
        hint = _TAB_HINT
    elif "maximum nesting depth" in message:
        hint = "a question file nested a few levels deep"
    elif "mapping values are not allowed" in message:
        hint = _COLON_HINT
    # An unclosed [ or { is noticed lines later: its key is where it opened.
    opened = exc.context_mark if exc.context and "flow" in exc.context else mark
    key = _key_at(text, opened.line + 1) if opened and len(text) < 1_000_000 else ""
    return Problem(display, line, col, key, f"not valid YAML: {message}", hint)


def _refuse_anchors(doc: Document) -> bool:
    """Report anchors and aliases (they make files hard to review and enable billion laughs)."""
    try:
        for event in yaml.parse(doc.text, Loader=_Loader):
            anchor = getattr(event, "anchor", None)
            if isinstance(event, yaml.AliasEvent) or anchor is not None:
                mark = event.start_mark
                line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
                kind = "alias" if isinstance(event, yaml.AliasEvent) else "anchor"
                doc.problems.append(
                    Problem(
                        doc.display,
                        line,
                        col,
                        "",
                        f"YAML {kind} '{'*' if kind == 'alias' else '&'}{anchor}' is not allowed",
                        "plain values written out in full (no & anchors or * aliases)",
                    )
                )
                return True
    except yaml.MarkedYAMLError as exc:
        doc.problems.append(_yaml_problem(doc.display, exc, doc.text))
        return True
    except yaml.YAMLError as exc:
        doc.problems.append(_reader_problem(doc, exc))
        return True
    return False


def _reader_problem(doc: Document, exc: yaml.YAMLError) -> Problem:
    """A YAML error without a mark: a character YAML refuses (NUL, other controls), located."""
    if isinstance(exc, yaml.reader.ReaderError) and isinstance(exc.position, int):
        at = exc.position
        line = doc.text.count("\n", 0, at) + 1
        col = at - (doc.text.rfind("\n", 0, at) + 1) + 1
        code = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1])
        return Problem(
            doc.display,
            line,
            col,
            "",
            f"control character U+{code:04X} is not allowed in YAML",
            "printable text (a stray byte from a copy-paste or a binary file?)",
        )
    return Problem(doc.display, 1, 1, "", f"not valid YAML: {exc}", "a YAML mapping")


def _construct(node: yaml.Node, key: Path_, doc: Document, depth: int) -> Any:
    if depth > MAX_DEPTH:
        doc.problems.append(
            _node_problem(doc, node, key, "nested too deeply", f"at most {MAX_DEPTH} levels")
        )
        return None
    tag = node.tag
    kind = node.__class__  # not isinstance: this runs for every node of every file
    if kind is yaml.ScalarNode:
        if tag == _STR:
            value: str = node.value
            return value if value.isascii() else unicodedata.normalize("NFC", value)
        builder = _SCALAR_BUILDERS.get(tag)
        if builder is None:
            _custom_tag(doc, node, key, tag, "a plain value without a ! tag")
            return None
        try:
            return builder(cast(yaml.ScalarNode, node))
        except ValueError:  # e.g. an integer of thousands of digits
            doc.problems.append(
                _node_problem(doc, node, key, "not a usable number", "a small number or text")
            )
            return None
    if kind is yaml.MappingNode:
        if tag != _MAP:
            _custom_tag(doc, node, key, tag, "a plain mapping without a ! tag")
            return None
        out: dict[str, Any] = {}
        shallow = depth < MAX_DEPTH  # its values are not too deep
        for key_node, value_node in node.value:
            if key_node.__class__ is not yaml.ScalarNode or key_node.tag == _MERGE:
                doc.problems.append(
                    _node_problem(
                        doc, key_node, key, "a key must be plain text", "a key such as prompt or en"
                    )
                )
                continue
            name = key_node.value
            if not name.isascii():
                name = unicodedata.normalize("NFC", name)
            if name in out:
                doc.problems.append(
                    _node_problem(
                        doc,
                        key_node,
                        (*key, name),
                        "duplicate key (YAML would silently keep the last one)",
                        "each key once per mapping",
                    )
                )
                continue
            if value_node.__class__ is yaml.ScalarNode and value_node.tag == _STR and shallow:
                text = value_node.value  # the common case, without a call
                out[name] = text if text.isascii() else unicodedata.normalize("NFC", text)
            else:
                out[name] = _construct(value_node, (*key, name), doc, depth + 1)
        return out
    if tag != _SEQ:
        _custom_tag(doc, node, key, tag, "a plain list without a ! tag")
        return None
    return [_construct(item, (*key, i), doc, depth + 1) for i, item in enumerate(node.value)]


def _custom_tag(doc: Document, node: yaml.Node, key: Path_, tag: str, expected: str) -> None:
    """Report a node written with a custom ``!tag`` (the only YAML types are the plain ones)."""
    doc.problems.append(
        _node_problem(doc, node, key, f"custom YAML tag {tag!r} is not allowed", expected)
    )


def _node_problem(doc: Document, node: yaml.Node, key: Path_, message: str, hint: str) -> Problem:
    mark = node.start_mark
    return Problem(doc.display, mark.line + 1, mark.column + 1, dotted(key), message, hint)


def _walk_positions(node: yaml.Node, key: Path_, out: dict[Path_, Position]) -> None:
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                continue
            sub = (*key, nfc(key_node.value))
            if sub in out:
                continue
            km, vm = key_node.start_mark, value_node.start_mark
            block = isinstance(value_node, yaml.ScalarNode) and value_node.style in ("|", ">")
            out[sub] = Position(km.line + 1, km.column + 1, vm.line + 1, vm.column + 1, block)
            _walk_positions(value_node, sub, out)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            m = item.start_mark
            sub = (*key, i)
            block = isinstance(item, yaml.ScalarNode) and item.style in ("|", ">")
            out[sub] = Position(m.line + 1, m.column + 1, m.line + 1, m.column + 1, block)
            _walk_positions(item, sub, out)


_PYDANTIC_MESSAGES = {
    "extra_forbidden": "unknown key",
    "missing": "required key is missing",
    "literal_error": "not an allowed value",
    "string_pattern_mismatch": "not in the expected form",
    "too_short": "too few entries",
    "too_long": "too long",
}
_TYPE_NAMES = {
    str: "text",
    int: "a number",
    float: "a number",
    bool: "true/false",
    list: "a list",
    dict: "a mapping",
    type(None): "nothing (null)",
}


def validate_model(
    doc: Document,
    model: type[M],
    context: dict[str, Any],
    allowed_keys: Callable[[Path_], str] | None = None,
) -> M | None:
    """Validate ``doc.data`` against ``model``; problems go on ``doc`` with their lines."""
    try:
        return model.model_validate(doc.data, context=context)
    except ValidationError as exc:
        for error in exc.errors(include_url=False):
            doc.problems.append(_pydantic_problem(doc, error, allowed_keys))
        return None


def _pydantic_problem(
    doc: Document, error: Any, allowed_keys: Callable[[Path_], str] | None
) -> Problem:
    loc: Path_ = tuple(
        p
        for p in error["loc"]
        if p not in ("[key]",)
        and not (isinstance(p, str) and p.startswith(("function-", "constrained-")))
    )
    kind = error["type"]
    top = next((p for p in reversed(loc) if isinstance(p, str) and p in HINTS), "")
    hint = HINTS.get(top, "")
    if kind == "missing":
        return doc.problem(
            loc[:-1],
            f"required key is missing: {loc[-1]}" if loc else "required key is missing",
            HINTS.get(str(loc[-1]), "") if loc else "",
        )
    if kind == "extra_forbidden":
        hint = allowed_keys(loc[:-1]) if allowed_keys else ""
        return doc.problem(loc, "unknown key", hint)
    message = _PYDANTIC_MESSAGES.get(kind)
    value = error.get("input")
    if message is None:
        got = _TYPE_NAMES.get(type(value), type(value).__name__)
        message = f"wrong type: got {got}" if kind.endswith("_type") else error["msg"]
    elif kind in ("literal_error", "string_pattern_mismatch"):
        message = f"{value!r} is {message}"
    if kind == "string_type" and str(loc[-1] if loc else "") not in HINTS:
        # YAML reads yes/no, on/off, 3.10 and dates as other types: say how to keep text.
        hint = _TEXT_HINT
    if kind == "string_pattern_mismatch" and loc[:1] == ("answer",):
        message = f"{value!r} is not an option key"
    if "[key]" in error["loc"]:
        if loc[:1] == ("options",) and len(loc) == 2:
            message = f"{value!r} is not an option key"
            hint = "option keys a, b, c … h in order (2 to 8 options)"
        return doc.problem(loc, message, hint)
    return doc.problem(loc, message, hint, at_value=True)


_TEXT_HINT = "text; put it in quotes when YAML would read it as a number, true/false or a date"
