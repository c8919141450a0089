"""Where ``site_templates/`` is: the page templates, theme overrides, widget assets and the
interface string table.

One resolver for both ways qbank is installed: a wheel ships the folder inside the package
(``qbank/site_templates``, a hatch force-include), and an editable checkout reads the
repository's top-level ``site_templates/`` beside ``generator/``.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # the qbank package


def templates_dir() -> Path:
    """The ``site_templates`` folder this qbank reads."""
    for candidate in (_PACKAGE / "site_templates", _PACKAGE.parent.parent / "site_templates"):
        if (candidate / "strings" / "en.yaml").is_file():
            return candidate
    raise FileNotFoundError(
        f"qbank's site_templates folder is missing: looked in {_PACKAGE / 'site_templates'} "
        f"(installed wheel) and {_PACKAGE.parent.parent / 'site_templates'} (checkout)"
    )


TEMPLATES = templates_dir()


def folder_stamp(folder: Path) -> list[tuple[str, int, int]]:
    """Path, modification time and size of every file under ``folder`` (sorted; empty when
    there is no such folder): it differs once any of them changed."""
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.rglob("*")):
        try:
            stat = path.stat()
        except OSError:
            continue
        if path.is_file():
            found.append((path.as_posix(), stat.st_mtime_ns, stat.st_size))
    return found
