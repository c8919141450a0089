"""Material's own search, which qbank's replaces (``overrides/partials/search.html``): its
files left out of the site and its worker's address out of each page.

Material ships lunr (``assets/javascripts/lunr/``, with its language packs) and the search
worker (``assets/javascripts/workers/search.*.js``) as theme files, about 1.2 MB, and names
the worker in every page's ``__config``; its bundle starts the worker only for its own search
box, which no qbank page has. A site whose config turns Material's ``search`` plugin on keeps
them all, as its maintainer asked for that search.
"""

from __future__ import annotations

import re

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files

_UNUSED = re.compile(r"assets/javascripts/(?:lunr/.*|workers/search\.[^/]*)")
"""Material's search files, by their path in the site."""

_WORKER = re.compile(r'(<script id="__config" type="application/json">\{[^<]*?)"search": "[^"]*", ')
"""The worker's address in a page's ``__config`` (Material writes it with sorted keys: one
follows it, ``translations``)."""


def material_search_on(config: MkDocsConfig) -> bool:
    """Whether the site's config turns Material's (or MkDocs') ``search`` plugin on."""
    return any(name in ("search", "material/search") for name in config.plugins)


def drop_search_files(files: Files, config: MkDocsConfig) -> None:
    """Take Material's search files out of ``files`` (the theme's are among them from the
    start of a build), unless its search is on."""
    if material_search_on(config):
        return
    for file in [f for f in files if _UNUSED.fullmatch(f.src_uri)]:
        if file.src_dir != config.docs_dir:  # (a file of the docs folder is the maintainer's)
            files.remove(file)


def drop_worker_address(html: str, config: MkDocsConfig) -> str:
    """``html`` without the worker's address in its ``__config``, unless Material's search
    is on."""
    if material_search_on(config):
        return html
    return _WORKER.sub(r"\1", html, count=1)
