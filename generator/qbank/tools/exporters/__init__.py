"""Exporters: the bank → files other tools read (one module per format).

``bank_json`` (JSON per locale, with the published schema ``schemas/bank-export.schema.json``),
``anki`` (an ``.apkg`` per locale; its genanki comes with the ``anki`` extra) and ``moodle``
(Moodle XML per locale). Each exporter takes a loaded ``Bank`` and a locale and writes one
file; ``export`` picks the exporter by name.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from qbank.bank.loaded import Bank
from qbank.bank.progress import Report, no_progress

FORMATS = {"json": ".json", "anki": ".apkg", "moodle": ".xml"}
ANKI_MISSING = (
    'the anki export needs genanki, which qbank installs only on request: pip install "qbank[anki]"'
)


def _writer(kind: str) -> Callable[[Bank, str, Path], None]:
    if kind == "json":
        from qbank.site.bankdata import write_json

        return write_json
    if kind == "anki":
        try:
            from qbank.tools.exporters.anki import write_apkg
        except ModuleNotFoundError as error:
            if error.name != "genanki":
                raise
            raise ValueError(ANKI_MISSING) from None
        return write_apkg
    if kind == "moodle":
        from qbank.tools.exporters.moodle import write_moodle

        return write_moodle
    raise ValueError(f"unknown export format {kind!r}; expected one of {', '.join(FORMATS)}")


def export(
    bank: Bank, kind: str, out: Path, locale: str | None = None, progress: Report = no_progress
) -> list[Path]:
    """Write ``kind`` for one locale to the file ``out``, or, without a locale, one file per
    catalog locale into the folder ``out`` (``bank.<locale>.<ext>``); return the paths."""
    write = _writer(kind)
    locales = [locale] if locale else list(bank.catalog.locales)
    for loc in locales:
        if loc not in bank.catalog.locales:
            raise ValueError(
                f"unknown locale {loc!r}; expected one of {', '.join(bank.catalog.locales)}"
            )
    if locale:
        out.parent.mkdir(parents=True, exist_ok=True)
        write(bank, locale, out)
        return [out]
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for n, loc in enumerate(locales):
        progress(f"exporting {kind}", n, len(locales))
        path = out / f"bank.{loc}{FORMATS[kind]}"
        write(bank, loc, path)
        paths.append(path)
    return paths
