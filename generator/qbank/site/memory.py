"""Letting a locale's rendered site go once its pages are written (build memory).

A build that writes one locale after the other (the plugin's locale process, ``qbank build``)
hands each locale's memory to the next: on a large bank one locale's question runs, data
file producers and kept Markdown conversions are a large share of the build's peak. The
plugin's ``finish_locale`` and the docs tree both let go through ``releasing``. No MkDocs.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from qbank.bank.markup import forget_converted
from qbank.site.render import RenderedSite


@contextmanager
def releasing(site: RenderedSite) -> Iterator[None]:
    """Around the writing of ``site``'s data files and search index, once its pages are
    written: its question runs go before (nothing reads them any more), its data producers
    (and the renderer they hold) and the kept conversions after, and the garbage collector
    runs so that what comes next reuses that memory."""
    site.blocks.clear()
    site.html.clear()
    yield
    site.deferred.clear()
    forget_converted()
    gc.collect()
