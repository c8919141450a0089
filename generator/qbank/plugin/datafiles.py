"""Writing a locale's practice and JSON API files (``RenderedSite.deferred``) into a site,
one at a time and each under a temporary name first (a reader never sees half a file)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from qbank.site.output import rename, replace_file
from qbank.site.render import RenderedSite


class Superseded(Exception):
    """A newer build made a background write pointless."""


def digest(chunks: Iterable[bytes]) -> bytes:
    """The digest a served data file is compared by."""
    found = hashlib.blake2b(digest_size=16)
    for chunk in chunks:
        found.update(chunk)
    return found.digest()


def _hashing(chunks: Iterable[bytes], found: Any) -> Iterable[bytes]:
    """``chunks``, each one added to the digest ``found`` on its way (None: no digest)."""
    if found is None:
        return chunks
    return _hashed(chunks, found)


def _hashed(chunks: Iterable[bytes], found: Any) -> Iterator[bytes]:
    for chunk in chunks:
        found.update(chunk)
        yield chunk


def write_deferred(
    site: RenderedSite,
    locale: str,
    site_dir: Path,
    swap: Callable[[Path, Path], bool] = rename,
    known: dict[str, bytes] | None = None,
    written: dict[str, bytes] | None = None,
    pace: Callable[[Iterable[bytes]], Iterable[bytes]] = lambda chunks: chunks,
    **limits: Any,
) -> None:
    """Write a locale's practice and JSON API files (``RenderOptions.defer_files``) into
    ``site_dir``, one at a time, each under a temporary name first (a reader never sees half
    a file). ``limits`` (fields, api) go to the producer (``_Renderer.data_files``);
    ``swap(temporary, target)`` puts a file in place, or refuses (False: stop writing).
    With ``known`` (path → digest of the bytes served), a file whose bytes are the same is
    not written (made twice, hashed first, when it comes in many chunks); ``written``
    receives the digest of each file written; ``pace`` wraps every file's chunks (a
    background writer's checkpoints)."""
    produce = site.deferred.get(locale)
    if produce is None:
        return
    for path, chunks in produce(**limits):
        if known is not None and path in known:
            if isinstance(chunks, tuple):
                same = digest(chunks) == known[path]
            else:  # bank.json, streamed: hash a first run (not kept), write a second
                same = digest(pace(dict(produce(fields=(), api=True))[path])) == known[path]
            if same:
                continue
            if not isinstance(chunks, tuple):
                chunks = dict(produce(fields=(), api=True))[path]
        found = hashlib.blake2b(digest_size=16) if written is not None else None
        target = site_dir / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if not replace_file(target, _hashing(pace(chunks), found), swap):
            return
        if written is not None and found is not None:
            written[path] = found.digest()
