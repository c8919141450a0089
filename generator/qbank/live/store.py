"""The persistent cache: results kept on disk between builds, by a hash of their inputs.

One folder (``.cache/qbank/`` beside ``mkdocs.yml`` by default), safe to delete at any time.
Each entry is one file, ``<kind>/<key[:2]>/<key>.json``: a first line holding the entry's
format, kind, key and the SHA-256 of the rest, then the payload (JSON; never pickle: a cache
restored by CI is checked, not trusted), compressed with zstd at level 1 (``LEVEL``). An entry
that is truncated, corrupted or made for another key is reported at INFO and not used; the
caller computes the result again and ``put`` overwrites the entry. ``put_bytes`` keeps bytes
instead of JSON (the header says so): the page cache's HTML. Every entry is written to a
temporary file and renamed into place, so a reader never sees half of one, and processes of
one build (the forked locale process) share the folder without talking to each other.

A build touches every entry it uses; ``prune`` then removes the ones the build did not
touch, so the folder holds what the last build needed and no more (the pages of
``mkdocs serve``, a kind of their own, are pruned by serve's first build, and the build's
by ``mkdocs build``: each keeps the other's).

The key is made from everything the result depends on (``key``): the caller's inputs and
qbank's version (``VERSION``), so a new qbank never reads an older one's entries.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import time
from collections.abc import Callable, Collection
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import orjson

try:
    from compression import zstd  # type: ignore[import-not-found,unused-ignore]  # (3.14)
except ImportError:
    from backports import zstd  # type: ignore[no-redef,unused-ignore]

from qbank import __version__
from qbank.site.templates import TEMPLATES

_log = logging.getLogger(__name__)

FORMAT = 2  # the layout of an entry file; a new one makes every older entry foreign
# (2: payloads compressed with zstd)
LEVEL = 1
"""zstd's level for payloads. At 30,000 questions x 3 locales the entries were 575 MB of JSON
and 382 MB of page HTML, more than the site: level 1 keeps a third to a quarter of it (2.3 x
on JSON, 3.8 x on HTML), at 150-260 MB/s; zlib's level 1 packed 2.3 x and 3.6 x at 66-97 MB/s
and decompressed at half zstd's speed (bench/README.md, "The cache's entries compressed")."""


def own_files_digest() -> str:
    """A digest of qbank's own files (its code and site templates, not their times): a
    checkout's edit, whose version number stays, makes every entry again as a release does,
    and the same files give the same digest on any machine, so a restored CI cache hits."""
    digest = hashlib.blake2b(digest_size=10)
    package = Path(__file__).resolve().parents[1]
    folders = [package] if TEMPLATES.is_relative_to(package) else [package, TEMPLATES]
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.suffix == ".pyc" or not path.is_file():
                continue
            data = path.read_bytes()
            digest.update(f"{path.relative_to(folder).as_posix()}:{len(data)}:".encode())
            digest.update(data)
    return digest.hexdigest()


# part of every key (tests change it to see every entry made again)
VERSION = f"{__version__}+{own_files_digest()}"
DEFAULT_DIR = ".cache/qbank"  # beside mkdocs.yml


def dumps(value: Any) -> bytes:
    """``value`` as compact JSON in UTF-8 (orjson: the same bytes as ``json.dumps`` with
    ``ensure_ascii=False`` and no spaces, in a third of the time)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def versions_of(*distributions: str) -> list[str]:
    """The installed version of each of ``distributions`` ("" for one not installed): part
    of the key of a result that a library makes."""
    found = []
    for name in distributions:
        try:
            found.append(version(name))
        except PackageNotFoundError:
            found.append("")
    return found


def key(*parts: str | bytes) -> str:
    """The hex key of a result made from ``parts`` (each hashed with its length, so two
    different lists of parts never give the same bytes) and qbank's version."""
    chunks: list[bytes] = []
    for part in (VERSION, str(FORMAT), *parts):
        data = part.encode() if isinstance(part, str) else part
        chunks += (len(data).to_bytes(8, "little"), data)
    # (SHA-256, with the processor's SHA instructions, hashed the 30,000 question files of a
    # load in 0.16 s against BLAKE2b's 0.27; the first 160 bits kept)
    return hashlib.sha256(b"".join(chunks)).hexdigest()[:40]


class Store:
    """The cache folder: ``get`` and ``put`` entries by kind and key; ``prune`` what the
    build did not use. A store made with ``folder=None`` keeps nothing."""

    def __init__(self, folder: Path | None, note: Callable[[str], None] = _log.info) -> None:
        """``note``: where an entry that cannot be used or written is reported (INFO)."""
        self.folder = folder
        self.note = note
        self.started = time.time()  # entries touched before this were not used by this build
        self.hits = 0
        self.misses = 0
        self.written = 0
        self.folders: set[str] = set()  # the folders made (or found) by this process

    @property
    def enabled(self) -> bool:
        """Whether this store keeps anything."""
        return self.folder is not None

    def _path(self, kind: str, name: str) -> Path:
        assert self.folder is not None
        return self.folder / kind / name[:2] / f"{name}.json"

    def get(self, kind: str, name: str) -> Any | None:
        """The payload kept under ``name``, or None when there is none or it is not valid
        (reported at INFO). A valid entry is touched: this build used it."""
        return self._get(kind, name, raw=False)

    def get_bytes(self, kind: str, name: str) -> bytes | None:
        """The bytes kept under ``name`` by ``put_bytes`` (as ``get``)."""
        value = self._get(kind, name, raw=True)
        return value if isinstance(value, bytes) else None

    def _get(self, kind: str, name: str, *, raw: bool) -> Any | None:
        if self.folder is None:
            return None
        path = self._path(kind, name)
        try:
            data = path.read_bytes()
        except OSError:
            self.misses += 1
            return None
        value, reason = _parse(data, kind, name, raw=raw)
        if reason is not None:
            self.note(f"qbank: cache entry {path} {reason}; made again")
            self.misses += 1
            return None
        with contextlib.suppress(OSError):
            os.utime(path)
        self.hits += 1
        return value

    def touch(self, kind: str, name: str) -> bool:
        """Mark the entry under ``name`` (if there is one) as used by this build without
        reading it, so that ``prune`` keeps it; whether there is one."""
        if self.folder is None:
            return False
        try:
            os.utime(self._path(kind, name))
        except OSError:
            return False
        return True

    def put(self, kind: str, name: str, value: Any) -> None:
        """Keep ``value`` (JSON-serializable) under ``name``, replacing any entry there."""
        if self.folder is None:
            return
        self._put(kind, name, dumps(value), raw=False)

    def put_bytes(self, kind: str, name: str, payload: bytes, *, packed: bool = True) -> None:
        """Keep ``payload`` as it is (no JSON: a page's HTML) under ``name``; not compressed
        with ``packed=False`` (a search index's postings, which zstd packed 1.7 x at a third
        of a warm build's cost of indexing Chinese)."""
        if self.folder is not None:
            self._put(kind, name, payload, raw=True, packed=packed)

    def _put(self, kind: str, name: str, data: bytes, *, raw: bool, packed: bool = True) -> None:
        payload = zstd.compress(data, LEVEL) if packed else data
        header: dict[str, Any] = {
            "format": FORMAT,
            "kind": kind,
            "key": name,
            "sha256": hashlib.sha256(payload).hexdigest(),
        }
        if raw:
            header["payload"] = "bytes"
        if not packed:
            header["packed"] = False
        assert self.folder is not None
        data = dumps(header) + b"\n" + payload
        folder = os.path.join(self.folder, kind, name[:2])  # noqa: PTH118 (str: no Path)
        path = os.path.join(folder, f"{name}.json")  # noqa: PTH118
        self.written += 1
        temporary = os.path.join(folder, f".tmp-{os.getpid()}-{self.written}")  # noqa: PTH118
        try:
            if folder not in self.folders:
                os.makedirs(folder, exist_ok=True)  # noqa: PTH103
                self.folders.add(folder)
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            try:
                os.write(fd, data)
            finally:
                os.close(fd)
            os.replace(temporary, path)  # noqa: PTH105 (str paths)
        except OSError as error:  # a cache that cannot be written only costs time
            with contextlib.suppress(OSError):
                os.unlink(temporary)  # noqa: PTH108
            self.note(f"qbank: cache entry {path} not written: {error}")

    def prune(self, *, only: str | None = None, spare: Collection[str] = ()) -> int:
        """Remove every entry (and left-over temporary file) this build did not use or make,
        of the kind ``only`` or else of every kind but those ``spare`` names; the number
        removed."""
        if self.folder is None or not self.folder.is_dir():
            return 0
        removed = 0
        for dirpath, dirs, names in os.walk(self.folder):
            if dirpath == str(self.folder):
                dirs[:] = [d for d in dirs if d not in spare and only in (None, d)]
            for name in names:
                path = os.path.join(dirpath, name)  # noqa: PTH118
                try:
                    if os.stat(path).st_mtime < self.started - 1:  # noqa: PTH116
                        os.unlink(path)  # noqa: PTH108
                        removed += 1
                except OSError:
                    continue
        return removed


def _parse(data: bytes, kind: str, name: str, *, raw: bool = False) -> tuple[Any, str | None]:
    """An entry file's payload (``raw``: its bytes, else the JSON value), or why it cannot
    be used."""
    head, newline, payload = data.partition(b"\n")
    if not newline:
        return None, "is truncated"
    try:
        header = orjson.loads(head)
    except ValueError:
        return None, "has no valid header"
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        return None, "was written by another version of the cache"
    if header.get("kind") != kind or header.get("key") != name:
        return None, "belongs to another key"
    if header.get("sha256") != hashlib.sha256(payload).hexdigest():
        return None, "is corrupted (its checksum does not match)"
    if (header.get("payload") == "bytes") != raw:
        return None, "belongs to another key"  # (a JSON entry where bytes are kept, or back)
    if header.get("packed", True) is False:
        return (payload, None) if raw else (None, "belongs to another key")
    try:
        data = zstd.decompress(payload)
    except zstd.ZstdError:
        return None, "is corrupted (not zstd)"
    if raw:
        return data, None
    try:
        return orjson.loads(data), None
    except ValueError:
        return None, "is corrupted (not JSON)"
