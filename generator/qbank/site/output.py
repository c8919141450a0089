"""Atomic site output: build into a staging folder beside the site, then swap it in; and
one file at a time, each written under a temporary name and renamed over its target.

A failed build only ever touches its staging folder, so the previous site stays as it was;
a successful one replaces the site in one step (Linux ``renameat2(RENAME_EXCHANGE)``, else
two renames a moment apart) and nothing of the previous site lingers. A file written with
``replace_file`` (the data files, the live search index's files, the ``qbank build`` tree)
is never seen half written. No MkDocs import.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

STAGING_PREFIX = ".qbank-staging-"
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


def stage(site_dir: Path) -> Path:
    """A fresh, empty staging folder beside ``site_dir`` (same file system, so renames work)."""
    site_dir = site_dir.absolute()
    site_dir.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{site_dir.name}-", dir=site_dir.parent))


def publish(staging: Path, site_dir: Path, meanwhile: Callable[[], None] = lambda: None) -> None:
    """Make ``staging`` the site at ``site_dir``; the previous site is removed afterwards,
    in a thread while ``meanwhile()`` runs (its removal, 0.5 s at 30,000 questions x 3
    locales, waits on the file system: a build waits on its near-duplicate comparison
    then), and is gone when this returns."""
    site_dir = site_dir.absolute()
    if not site_dir.exists() and not site_dir.is_symlink():
        staging.rename(site_dir)
        meanwhile()
        return
    previous = staging  # (holds the previous site once exchanged)
    if not _exchange(staging, site_dir):
        previous = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}old-", dir=site_dir.parent))
        site_dir.rename(previous / site_dir.name)
        staging.rename(site_dir)
    removal = threading.Thread(target=remove_tree, args=(previous,))
    removal.start()
    try:
        meanwhile()
    finally:
        removal.join()


_REMOVERS = 8
"""Threads removing a previous site: each unlink waits on the file system, not on Python (at
30,000 questions x 3 locales, 13,400 files: 1.76 s one at a time, 1.17 s in 8 threads)."""


def remove_tree(folder: Path) -> None:
    """Remove ``folder`` and everything in it (what cannot be removed is left), the folders
    two levels below it (a locale's fields) each in a thread of their own."""
    below: list[str] = []
    with contextlib.suppress(OSError):
        for child in os.scandir(folder):
            if child.is_dir(follow_symlinks=False):
                with contextlib.suppress(OSError):
                    below += [g.path for g in os.scandir(child) if g.is_dir(follow_symlinks=False)]
    if len(below) > 1:
        with ThreadPoolExecutor(min(_REMOVERS, len(below))) as pool:
            list(pool.map(partial(shutil.rmtree, ignore_errors=True), below))
    shutil.rmtree(folder, ignore_errors=True)


def move_into(staging: Path, served: Path) -> set[str]:
    """Move every file of ``staging`` to the same place under ``served``: a file in one
    rename (a reader never sees half of one), and a folder that ``served`` does not have
    yet whole, in one rename too (``mkdocs serve``'s first build: every locale's tree; file
    by file, the 4,358 files of 30,000 questions x 3 locales took 0.8 s, and removing the
    emptied folders 0.45 s more). The paths of the files moved, relative, POSIX."""
    moved: set[str] = set()
    for folder, dirs, names in os.walk(staging):
        here = Path(folder)
        relative = here.relative_to(staging)
        moved.update((relative / name).as_posix() for name in names)
        for name in names:
            (here / name).replace(served / relative / name)
        merged = []
        for name in dirs:
            target = served / relative / name
            if target.exists() or target.is_symlink():
                merged.append(name)
                continue
            for below, _, files in os.walk(here / name):
                inside = Path(below).relative_to(staging)
                moved.update((inside / file).as_posix() for file in files)
            (here / name).rename(target)
        dirs[:] = merged  # (a folder moved whole is not walked)
    return moved


def rename(temporary: Path, target: Path) -> bool:
    """Put ``temporary`` in place of ``target`` (one rename)."""
    temporary.replace(target)
    return True


def replace_file(
    target: Path,
    data: bytes | Iterable[bytes],
    put: Callable[[Path, Path], bool] = rename,
) -> bool:
    """Write ``data`` (bytes, or chunks of them) to ``target`` in one step for its readers:
    into a temporary file beside it (named for this thread: two writers never share one),
    then ``put(temporary, target)``, a rename, which may refuse (False: the temporary file
    is removed, ``target`` stays as it was). Whether ``target`` was replaced. The folder must
    be there (a missing one is an ``OSError``: the live index then rebuilds a damaged one)."""
    temporary = target.with_name(f".{target.name}.{threading.get_ident()}.part")
    try:
        with temporary.open("wb") as stream:
            for chunk in (data,) if isinstance(data, bytes) else data:
                stream.write(chunk)
        placed = put(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    if not placed:
        temporary.unlink(missing_ok=True)
    return placed


def discard(staging: Path) -> None:
    """Remove a staging folder after a failed build (the site itself is not touched)."""
    shutil.rmtree(staging, ignore_errors=True)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically where the kernel can (Linux ≥ 3.15); False when it cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    path, fd = ctypes.c_char_p, ctypes.c_int
    renameat2.argtypes = [fd, path, fd, path, ctypes.c_uint]
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    return bool(result == 0)
