"""scripts/screenshots.py leaves a committed PNG untouched when the new picture has the same
pixels (its bytes may differ: the encoder's compression), and writes it when they differ."""

from __future__ import annotations

import os
import struct
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from screenshots import pixels, save  # noqa: E402


def _chunk(kind: bytes, body: bytes) -> bytes:
    crc = zlib.crc32(kind + body)
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)


def _recompressed(png: bytes, level: int, change: bool = False) -> bytes:
    """The same picture with its image data compressed at ``level`` (one IDAT chunk); with
    ``change``, one byte of the pixels changed."""
    header, data = pixels(png)
    if change:
        data = data[:-1] + bytes([(data[-1] + 1) % 256])
    return (
        png[:8]
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(data, level))
        + _chunk(b"IEND", b"")
    )


def test_the_same_picture_leaves_the_file_untouched(tmp_path: Path) -> None:
    committed = (ROOT / "docs" / "screenshots" / "phone.png").read_bytes()
    path = tmp_path / "phone.png"
    path.write_bytes(committed)
    os.utime(path, (1_000_000, 1_000_000))
    again = _recompressed(committed, 1)
    assert again != committed  # other bytes, same pixels
    assert save(again, path) is False
    assert path.read_bytes() == committed
    assert path.stat().st_mtime == 1_000_000


def test_another_picture_is_written(tmp_path: Path) -> None:
    committed = (ROOT / "docs" / "screenshots" / "phone.png").read_bytes()
    path = tmp_path / "phone.png"
    path.write_bytes(committed)
    changed = _recompressed(committed, 9, change=True)
    assert save(changed, path) is True
    assert path.read_bytes() == changed
    assert save(committed, tmp_path / "new.png") is True
