"""Interface text: the one table the page templates, the widget, the search box, the exporters
and the importers read.

Read once per process and kept; a process that rebuilds (``qbank.live.session``) reads them
again when a file changed (``forget_strings``).

One YAML file per locale in ``site_templates/strings/<locale>.yaml`` (adding a locale's
interface text is adding one file). ``en.yaml`` is complete; any key another locale leaves out,
at any depth (``widget.status.no``, say), falls back to it.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import yaml

from qbank.site.templates import TEMPLATES

STRINGS_DIR = TEMPLATES / "strings"
FALLBACK = "en"


@cache
def interface_strings() -> dict[str, dict[str, Any]]:
    """Each locale's own table, as written in its file (English first, then by locale)."""
    files = sorted(STRINGS_DIR.glob("*.yaml"), key=lambda p: (p.stem != FALLBACK, p.stem))
    table: dict[str, dict[str, Any]] = {}
    for path in files:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if not isinstance(data, dict):
            raise ValueError(f"{path}: expected a mapping of interface-text keys to text")
        table[path.stem] = data
    return table


def _over(base: dict[str, Any], own: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in own.items():
        below = merged.get(key)
        merged[key] = (
            _over(below, value) if isinstance(below, dict) and isinstance(value, dict) else value
        )
    return merged


@cache
def _strings_for(locale: str) -> dict[str, Any]:
    table = interface_strings()
    return _over(table[FALLBACK], table.get(locale, {}))


def forget_strings() -> None:
    """Read the string files again at the next call (one was edited under ``mkdocs serve``
    or ``qbank build --watch``: ``qbank.live.session``)."""
    interface_strings.cache_clear()
    _strings_for.cache_clear()


def strings_for(locale: str) -> dict[str, Any]:
    """Interface text in ``locale``, each key (nested ones too) falling back to English.

    The caller gets its own copy of the top level; nested tables are shared, read them only.
    """
    return dict(_strings_for(locale))


STRINGS_ASSETS = "assets/strings/"
"""Where each locale's widget table ships as an ES module (``widget_module``), one file per
locale file, so a page names its table (partials/javascripts/base.html) instead of carrying
it (assets/lib/text.js)."""


def strings_asset(locale: str) -> str:
    """The site path of the widget table module for ``locale`` (English's for a locale with
    no file of its own: its table is English's)."""
    own = locale if locale in interface_strings() else FALLBACK
    return f"{STRINGS_ASSETS}{own}.js"


def strings_assets() -> tuple[str, ...]:
    """Every widget table module a site ships (one per locale file)."""
    return tuple(strings_asset(locale) for locale in sorted(interface_strings()))


def widget_module(asset: str) -> bytes | None:
    """The text of the widget table module at site path ``asset`` (None: not one of them)."""
    if not asset.startswith(STRINGS_ASSETS) or not asset.endswith(".js"):
        return None
    locale = asset[len(STRINGS_ASSETS) : -len(".js")]
    if locale not in interface_strings():
        return None
    table = json.dumps(_strings_for(locale)["widget"], ensure_ascii=False, sort_keys=True)
    return f"export default {table};\n".encode()
