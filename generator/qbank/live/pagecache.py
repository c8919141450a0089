"""The finished HTML of a page, kept in the persistent cache (``qbank.live.store``) by a hash
of everything it was made from, so that a build whose inputs for a page did not change
writes the kept HTML instead of rendering the theme's template again (Material's
``main.html`` with its nav and table of contents: the biggest share of a build's work).

A page's key has two parts. The build's (``PageCache.build``, made once per build by the
MkDocs adapter, ``qbank.plugin.pagecache``): the configuration as the templates read it, the
digest of every template folder that is not an installed package's (the overrides, a
custom_dir: ``folder_digest``), the interface strings, and the versions of MkDocs, Material
and Jinja. The page's own (``page_key``): the whole nav (every item's title, address and
file, and of its front matter what the templates read of another page, ``Reads``: Material's
menu reads ``icon``, ``subtitle``, ``status``; a topic's question count in its
``description`` is not shown there and must not make every page miss; digested once per
build), the list of pages where a template reads it, the page's address, title, front
matter, table of contents, body, edit and canonical links, template name and whatever else
its template context holds. Each is turned into plain data by ``canonical`` (sorted; a value
it cannot read makes the page not cached, never a guess), then into the key by ``store.key``
(with qbank's version).

An entry is the page's address and its HTML (``Store.put_bytes``); one that is
not of that shape, or whose store entry is truncated, corrupted or foreign (``Store.get``:
reported at INFO), is not used: the page is rendered and the entry written again.
``tests/test_build_cache.py`` compares warm and cold sites byte for byte after random edits.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import os
import re
import types
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any

import orjson

from qbank.live.store import Store, key

KIND = "pages"
SERVED = "served-pages"
"""The kind of the pages ``mkdocs serve`` builds: another site address, no
Content-Security-Policy, so never a build's; kept apart so that a build and a serve of one
project each find their own pages after the other ran (``Store.prune``)."""
_DEPTH = 12  # deeper than any configuration or context value qbank has seen


class Unreadable(Exception):
    """A value ``canonical`` cannot turn into plain data (its page is not cached)."""


Refer = Callable[[Any], Any]
"""Plain data standing for an object the caller knows (a page by its address), or
``NotImplemented`` when it does not."""


def canonical(value: Any, refer: Refer | None = None) -> Any:
    """``value`` as plain JSON data: mappings with sorted keys, sets sorted, dates as text,
    functions and classes by their names, other objects as their type and attributes
    (``refer`` first: what it knows); raises ``Unreadable`` on a cycle or an object with no
    attributes to read."""
    return _plain(value, refer, _DEPTH, set())


def _plain(value: Any, refer: Refer | None, depth: int, seen: set[int]) -> Any:
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return ["float", repr(value)]
    if depth <= 0 or id(value) in seen:
        raise Unreadable(f"{type(value).__name__} nested too deep or in a cycle")
    if refer is not None:
        known = refer(value)
        if known is not NotImplemented:
            return known
    seen = seen | {id(value)}
    below = depth - 1
    if isinstance(value, Mapping):
        items = [(str(k), _plain(v, refer, below, seen)) for k, v in value.items()]
        return ["map", sorted(items, key=lambda item: item[0])]
    if isinstance(value, list | tuple):
        return [_plain(item, refer, below, seen) for item in value]
    if isinstance(value, set | frozenset):
        members = [_plain(item, refer, below, seen) for item in value]
        return ["set", sorted(members, key=lambda m: json.dumps(m, sort_keys=True))]
    if isinstance(value, dt.date | dt.time):
        return [type(value).__name__, value.isoformat()]
    if isinstance(value, PurePath):
        return ["path", str(value)]
    if isinstance(value, bytes):
        return ["bytes", hashlib.blake2b(value, digest_size=16).hexdigest()]
    if isinstance(value, types.FunctionType | types.BuiltinFunctionType | type | types.ModuleType):
        return ["name", getattr(value, "__module__", ""), getattr(value, "__qualname__", "")]
    kind = f"{type(value).__module__}.{type(value).__qualname__}"
    try:
        attributes = vars(value)
    except TypeError:
        slots = [s for c in type(value).__mro__ for s in getattr(c, "__slots__", ())]
        if not slots:
            raise Unreadable(f"{kind} has no attributes to read") from None
        attributes = {s: getattr(value, s, None) for s in slots}
    return [kind, _plain(attributes, refer, below, seen)]


def digest(value: Any) -> str:
    """The hex digest of plain data (``canonical``'s)."""
    try:  # (orjson: a page's key is made of thousands of values, 3-5 times json's speed)
        data = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # (an integer beyond 64 bits, a nesting too deep for orjson)
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        data = text.encode()
    return hashlib.blake2b(data, digest_size=20).hexdigest()


_META_USE = re.compile(rb"(?<![\w.])(\w+)\.meta(?:\.(\w+)|\[\s*[\"'](\w+)[\"']\s*\])?")
_PAGES_USE = re.compile(rb"(?<![\w.])pages(?!\w)")
_COMMENT = re.compile(rb"\{#.*?#\}", re.DOTALL)
_CODE = re.compile(rb"\{\{.*?\}\}|\{%.*?%\}", re.DOTALL)


@dataclass(frozen=True)
class Reads:
    """What the templates of a build read beyond the page they render (found in their text:
    a key of the nav that left out what they cannot read would make every page of a build
    miss when one topic's question count, in its front matter, changed)."""

    nav_meta: frozenset[str] | None = frozenset()  # front-matter keys read of another page
    pages: bool = False  # the context's list of every page
    dated: bool = False  # the build's date (``build_date_utc``)

    def read(self, text: bytes, *, keyless: bool) -> Reads:
        """These reads and ``text``'s. ``keyless``: a template's use of another page's
        whole front matter (``nav_item.meta``, no key) is a test of whether it has any
        (Material's, read for its version), else it may read any key."""
        text = b"\n".join(_CODE.findall(_COMMENT.sub(b"", text)))  # (what Jinja runs)
        keys = self.nav_meta
        for match in _META_USE.finditer(text):
            if match.group(1) == b"page" or keys is None:
                continue
            name = match.group(2) or match.group(3)
            if name is not None:
                keys = keys | {name.decode()}
            elif not keyless:
                keys = None
        pages = self.pages or _PAGES_USE.search(text) is not None
        return Reads(keys, pages, self.dated or b"build_date_utc" in text)


def folder_digest(folders: Iterable[Path], reads: Reads) -> tuple[str, Reads]:
    """The digest of every file under ``folders`` (name and bytes, in order), and ``reads``
    with what those of them that are templates read (``Reads.read``, not ``keyless``)."""
    hashed = hashlib.blake2b(digest_size=20)
    for folder in folders:
        hashed.update(f"\0folder {folder}\0".encode())
        if not folder.is_dir():
            continue
        for dirpath, dirs, names in os.walk(folder):
            dirs.sort()
            for name in sorted(names):
                path = Path(dirpath) / name
                try:
                    data = path.read_bytes()
                except OSError:
                    data = b"\0unreadable"
                if name.endswith((".html", ".j2", ".jinja", ".xml", ".txt")):
                    reads = reads.read(data, keyless=False)
                hashed.update(f"\0{path.relative_to(folder).as_posix()}\0{len(data)}\0".encode())
                hashed.update(data)
    return hashed.hexdigest(), reads


@functools.cache
def package_reads(folder: Path) -> Reads:
    """What an installed theme's templates read (``Reads``; once per process: they change
    only with its version, which is part of every key). Its icons are not templates."""
    reads = Reads()
    for path in sorted(folder.rglob("*.html")):
        if ".icons" not in path.parts:
            reads = reads.read(path.read_bytes(), keyless=True)
    return reads


class PageCache:
    """The kept HTML of one build's pages: ``get`` and ``put`` by ``page_key``, with the
    count of pages taken from the cache and rendered."""

    def __init__(self, store: Store, build: str, kind: str = KIND) -> None:
        """``build``: the digest of the build's inputs (``BuildInputs``' ``digest``);
        ``kind``: ``KIND``, or ``SERVED`` under ``mkdocs serve``."""
        self.store = store
        self.build = build
        self.kind = kind
        self.kept = 0  # pages written from the cache
        self.rendered = 0  # pages rendered (and their entries written)

    def page_key(self, url: str, own: Any, body: str) -> str:
        """The key of a page at ``url`` with the plain data ``own`` (``canonical``) and its
        ``body`` (the HTML of its content)."""
        return key(self.kind, self.build, url, digest(own), body)

    def get(self, name: str, url: str) -> str | None:
        """The kept HTML of the page at ``url``, or None (none, or not of an entry's shape)."""
        kept = self.store.get_bytes(self.kind, name)
        if kept is None:
            return None
        head, newline, body = kept.partition(b"\n")
        try:
            html = body.decode() if newline and head == url.encode() else ""
        except UnicodeDecodeError:
            html = ""
        if not html:
            self.store.note(f"qbank: page cache entry {name} is not a page's; rendered again")
            return None
        self.kept += 1
        return html

    def holds(self, name: str) -> bool:
        """Whether a page is kept under ``name``, not read (its HTML is in place already:
        ``sitelinks``); the entry is marked as used by this build."""
        return self.store.touch(self.kind, name)

    def put(self, name: str, url: str, html: str) -> None:
        """Keep the HTML of the page at ``url``: its address, a newline, the HTML (the store
        compresses it)."""
        self.rendered += 1
        self.store.put_bytes(self.kind, name, url.encode() + b"\n" + html.encode())


CONVERTED = "markdown"  # the kind of a page's converted Markdown


@dataclass(frozen=True)
class Converted:
    """What converting a page's Markdown gives (MkDocs' ``Page.render``): its HTML, its table
    of contents as plain data (``[title, id, level, active, children]`` each), the title its
    first heading gives, the anchor ids it holds and, where MkDocs keeps them, its links to
    anchors of other files (``{file: {anchor: link}}``); and what its links found among the
    site's files (``[path, [src_uri, dest_uri, url, inclusion]]``, None where no file was
    found), which must hold for the conversion to be used again."""

    content: str
    toc: list[Any]
    title: str | None
    anchors: list[str]
    links: dict[str, dict[str, str]] | None
    lookups: list[list[Any]]


class ConvertedPages:
    """The converted Markdown of one build's pages, kept by a hash of the Markdown, where
    the page sits and the build's Markdown settings (``build``, made by the MkDocs
    adapter), with the files its links found (the adapter checks them), and the count
    taken from the cache. A question added to a topic adds a page to the site; before, the
    key held every file of the site, and that made every page's Markdown again."""

    def __init__(self, store: Store, build: str) -> None:
        self.store = store
        self.build = build
        self.kept = 0

    def key(self, where: Any, markdown: str) -> str:
        """The key of the Markdown ``markdown`` of the page at ``where`` (plain data)."""
        return key(CONVERTED, self.build, digest(where), markdown)

    def holds(self, name: str) -> bool:
        """Whether a conversion is kept under ``name``, not read (its page is not built:
        ``plugin/pageskip.py``); the entry is marked as used, and counted as kept."""
        found = self.store.touch(CONVERTED, name)
        self.kept += found
        return found

    def get(self, name: str) -> Converted | None:
        """The kept conversion under ``name``, or None (none, or not of its shape)."""
        kept = self.store.get(CONVERTED, name)
        if kept is None:
            return None
        try:
            content, toc, title, anchors, links, lookups = kept
            ok = (
                isinstance(content, str)
                and isinstance(toc, list)
                and (title is None or isinstance(title, str))
                and isinstance(anchors, list)
                and all(isinstance(a, str) for a in anchors)
                and _toc(toc)
                and (links is None or _links(links))
                and _lookups(lookups)
            )
        except (ValueError, TypeError):
            ok = False
        if not ok:
            self.store.note(f"qbank: cache entry {name} is not a converted page's; made again")
            return None
        return Converted(content, toc, title, anchors, links, lookups)

    def put(self, name: str, converted: Converted) -> None:
        """Keep ``converted`` under ``name`` (JSON)."""
        data = [
            converted.content,
            converted.toc,
            converted.title,
            converted.anchors,
            converted.links,
            converted.lookups,
        ]
        self.store.put(CONVERTED, name, data)


def _toc(items: Any) -> bool:
    return isinstance(items, list) and all(
        isinstance(item, list)
        and len(item) == 5
        and isinstance(item[0], str)
        and isinstance(item[1], str)
        and isinstance(item[2], int)
        and isinstance(item[3], bool)
        and _toc(item[4])
        for item in items
    )


def _lookups(lookups: Any) -> bool:
    return isinstance(lookups, list) and all(
        isinstance(item, list)
        and len(item) == 2
        and isinstance(item[0], str)
        and (
            item[1] is None
            or (
                isinstance(item[1], list)
                and len(item[1]) == 4
                and all(isinstance(part, str) for part in item[1])
            )
        )
        for item in lookups
    )


def _links(links: Any) -> bool:
    return isinstance(links, dict) and all(
        isinstance(anchors, dict)
        and all(isinstance(a, str) and isinstance(b, str) for a, b in anchors.items())
        for anchors in links.values()
    )
