"""A rendered site with its placeholders filled in, for comparing two renders."""

from __future__ import annotations

from typing import Any

from qbank.site.render import (
    PLACEHOLDER_NUMBER,
    RenderedSite,
)


def expanded(site: RenderedSite) -> dict[str, Any]:
    """Everything a publisher makes of a site: pages with each run of questions written out
    (headings and HTML), nav, titles, static files and every deferred data file."""

    def write_out(match: Any) -> str:
        return "".join(
            f"[{slot.level}|{slot.anchor}|{slot.title}]{slot.html}"
            for slot in site.blocks[int(match.group(1))]
        )

    data = {}
    for produce in site.deferred.values():
        for path, chunks in produce():
            data[path] = b"".join(chunks)
    return {
        "pages": {path: PLACEHOLDER_NUMBER.sub(write_out, md) for path, md in site.pages.items()},
        "nav": site.nav,
        "titles": site.titles,
        "files": site.files,
        "data": data,
    }
