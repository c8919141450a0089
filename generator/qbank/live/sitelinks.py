"""Pages of the last published site taken over by a hard link instead of written again.

A warm ``mkdocs build`` takes most pages' HTML from the page cache (``qbank.live.pagecache``)
and writes it again into the new site: at 30,000 questions x 3 locales 4,166 pages, 376 MB,
2.3-2.8 s of CPU to write (0.6-0.9 s to link them), as much again to read, check and
decompress their entries, and the old site's copies then took 1.0 s to remove (0.4 s when
the new site holds them too). Where the published site still holds the file the last build
wrote from the same page cache entry, the new site's file is a hard link to it: the bytes
are the entry's, as a written file would be.

What a build wrote is kept per locale and site (one entry of the store): each page's
site-relative path, the key of the page cache entry its HTML is, and the file's inode,
modification time (ns) and size once written. A page is linked only where its key is the
one kept and the file in the site still has that inode, time and size: a file edited or
replaced since (or a site built elsewhere, or none) is written as before, and so is a page
where no link can be made (another file system, or one without hard links). An entry not
of this shape is not used. The offline copy's digest of every file of the site is kept the
same way (``SiteDigests``): a linked page is not read and digested again. The files of
the search indexes are linked by that digest where they stayed the same bytes
(``WrittenFiles``), and the digests of those written are kept as they are written, so the
offline copy reads none of them. Never imports MkDocs.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from qbank.live.store import Store, key
from qbank.site.offline import file_digest

KIND = "site-pages"
DIGESTS = "site-digests"
WRITTEN = "written"  # (in the key of a locale's ``WrittenFiles``)
SIGNED = "signed"  # (in the key of a locale's pages' signatures: ``LastSite.skip``)


class LastSite:
    """The pages of one locale of the published site ``site`` as the last build wrote them,
    and what this build writes there (``link``, ``wrote``; kept by ``end``)."""

    def __init__(self, store: Store, site: Path, locale: str) -> None:
        self.store = store
        self.site = str(site)
        self.name = key(KIND, self.site, locale)
        self.before = _restored(store.get(KIND, self.name))
        self.linked: dict[str, list[Any]] = {}  # site path → what ``before`` says of it
        self.written: dict[str, tuple[str, str]] = {}  # site path → (page key, file written)
        # site path → what the page was made from (``skip``): the last build's, this one's
        self.signed_name = key(KIND, self.site, locale, SIGNED)
        self.signed_before = _signatures(store.get(KIND, self.signed_name))
        self.signed: dict[str, str] = {}

    def skip(self, path: str, signature: str) -> str | None:
        """The page at ``path`` is made from ``signature`` (a digest of everything its HTML
        is made of, kept for the next build): the key of the page cache entry the last
        build wrote it from when it was made from the same, else None. The caller then
        ``link``s it under that key (the file must still be the one written)."""
        self.signed[path] = signature
        was = self.before.get(path)
        if was is None or self.signed_before.get(path) != signature:
            return None
        return str(was[0])

    def link(self, path: str, page_key: str, target: str) -> bool:
        """Make ``target`` a hard link to the site's file at ``path`` when the last build
        wrote it from ``page_key`` and it is unchanged since; whether it did."""
        was = self.before.get(path)
        if was is None or was[0] != page_key:
            return False
        if not _linked(os.path.join(self.site, path), target, was[1:]):  # noqa: PTH118
            return False
        self.linked[path] = was
        return True

    def wrote(self, path: str, page_key: str, target: str) -> None:
        """This build writes the page at ``path`` into ``target`` from ``page_key``'s HTML."""
        self.written[path] = (page_key, target)

    def end(self) -> int:
        """Keep what this build's pages are, once written (their files' inode, time and
        size); the number of pages linked."""
        now = dict(self.linked)
        for path, (page_key, target) in self.written.items():
            try:
                found = os.stat(target)  # noqa: PTH116
            except OSError:
                continue
            now[path] = [page_key, *_stamp(found)]
        self.store.put(KIND, self.name, now)
        signed = {path: self.signed[path] for path in now if path in self.signed}
        self.store.put(KIND, self.signed_name, signed)
        return len(self.linked)


class _LinkedWrites:
    """Files this build writes into its site, each a hard link to the published site's
    file at the same path where the last build wrote the same bytes there (the same digest
    in ``before``, and the file unchanged since), else written; the digest of each kept in
    ``now``."""

    def __init__(self, store: Store, site: Path) -> None:
        self.store = store
        self.site = str(site)
        self.before: dict[str, list[Any]] = {}
        self.now: dict[str, list[Any]] = {}
        self.linked = 0

    def write(self, path: str, target: Path, data: bytes) -> None:
        """Put ``data``, the site's file at ``path``, into ``target``."""
        digest = file_digest(data)
        was = self.before.get(path)
        source = os.path.join(self.site, path)  # noqa: PTH118 (str paths: no Path made)
        if was is not None and was[3] == digest and _linked(source, str(target), was[:3]):
            self.now[path] = was
            self.linked += 1
            return
        target.write_bytes(data)
        with contextlib.suppress(OSError):
            self.now[path] = [*_stamp(os.stat(target)), digest]  # noqa: PTH116


class WrittenFiles(_LinkedWrites):
    """The files of one locale's search index as this build writes them into its site,
    linked where they stayed the same (``_LinkedWrites``, by the digests ``SiteDigests``
    kept); their digests kept (``end``) for the offline copy, which then reads none of them
    again (they are renamed into the site whole: inode and time stay). A pull request
    changes the postings of some terms files: at 30,000 x 3, 5,400 of the three indexes'
    9,000 files stayed the same bytes."""

    def __init__(self, store: Store, site: Path, locale: str) -> None:
        super().__init__(store, site)
        self.name = key(DIGESTS, self.site, WRITTEN, locale)
        if site.is_dir():  # (none without a published site)
            self.before = _restored(store.get(DIGESTS, key(DIGESTS, self.site)), 3)

    def end(self) -> None:
        """Keep the digests of the files written and linked."""
        self.store.put(DIGESTS, self.name, self.now)


class SiteDigests(_LinkedWrites):
    """The digests of the files of the published site ``site`` (``offline.site_files``'
    ``KnownDigests``), by each file's inode, modification time (ns) and size; with those
    that ``WrittenFiles`` kept of ``locales``' indexes written for it. The offline files
    are written through it (``write``): a field's share of the index that stayed the same
    is linked."""

    def __init__(self, store: Store, site: Path, locales: Iterable[str] = ()) -> None:
        super().__init__(store, site)
        self.name = key(DIGESTS, self.site)
        self.before = _restored(store.get(DIGESTS, self.name), 3)
        for locale in locales:
            written = key(DIGESTS, self.site, WRITTEN, locale)
            self.before = {**self.before, **_restored(store.get(DIGESTS, written), 3)}

    def digest(self, path: str, found: os.stat_result) -> str | None:
        """The kept digest of the file at ``path`` if it is the same file."""
        was = self.before.get(path)
        if was is None or was[:3] != _stamp(found):
            return None
        self.now[path] = was
        return str(was[3])

    def made(self, path: str, found: os.stat_result, digest: str) -> None:
        """Keep the digest of the file at ``path``, just read."""
        self.now[path] = [*_stamp(found), digest]

    def end(self) -> None:
        """Keep the digests of the site's files (as the offline files read them)."""
        self.store.put(DIGESTS, self.name, self.now)


def _linked(source: str, target: str, stamp: list[Any]) -> bool:
    """Whether ``target`` was made a hard link to ``source``, which must still be the file
    of ``stamp`` (``_stamp``)."""
    try:
        if _stamp(os.stat(source)) != stamp:  # noqa: PTH116
            return False
        os.makedirs(os.path.dirname(target), exist_ok=True)  # noqa: PTH103, PTH120
        os.link(source, target)
    except OSError:
        return False
    return True


def _stamp(found: os.stat_result) -> list[int]:
    """What tells a file written by a build from any other: its inode, modification time
    (ns) and size (a file edited in place or replaced changes one of them)."""
    return [found.st_ino, found.st_mtime_ns, found.st_size]


def _signatures(kept: Any) -> dict[str, str]:
    """A kept entry of pages' signatures (by site path, a str each); none when it has not
    that shape."""
    if not isinstance(kept, dict) or not all(type(v) is str for v in kept.values()):
        return {}
    return kept


def _restored(kept: Any, at: int = 0) -> dict[str, list[Any]]:
    """A kept entry: by site path, four items, each an int but the one ``at``, a str; none
    when it has not that shape."""
    if not isinstance(kept, dict):
        return {}
    for item in kept.values():
        if not (
            type(item) is list
            and len(item) == 4
            and all(type(part) is (str if n == at else int) for n, part in enumerate(item))
        ):
            return {}
    return kept
