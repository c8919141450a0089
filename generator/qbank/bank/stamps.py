"""A file's stamp (modification time in ns, size, inode): what tells that it changed.

Paths are plain strings: a rebuild stamps every file of the bank (30,000 at the largest
size measured), and building a ``pathlib.Path`` per file costs more than the ``stat`` itself.
The per-file results kept across ``mkdocs serve`` rebuilds are ``qbank.live.filecache``.
"""

from __future__ import annotations

import os

Stamp = tuple[int, int, int]


def stamp(path: str | os.PathLike[str]) -> Stamp | None:
    """The file's (mtime_ns, size, inode), or None when it cannot be read."""
    try:
        st = os.stat(path)  # noqa: PTH116 (a Path per file costs more than the stat)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)
