"""The per-locale builds: each locale other than the default is a nested MkDocs build of its
own (so Material's interface text follows the page's language), rendered, built and indexed
into a folder of its own, then renamed into the site.

Under ``mkdocs build`` ONE forked process builds the other locales one after the other while
the parent builds the default locale (two processes for two cores, and the memory of two:
each holds the bank; fork shares it copy-on-write, but reading objects writes their reference
counts). The work is balanced by the search indexes of the other locales (each needs only the
bank): whichever process is free first takes the costliest one left (``IndexClaims``; the
parent once its own locale is written, the locale process once it has built every locale's
pages). Which one writes an index changes nothing in it. ``mkdocs serve``'s first build does
the same (its serve process then takes over the state of the indexes from their files'
documents, in the background: ``LiveIndex``); its rebuilds, and a build without fork, build
every locale in the parent, after its own.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import os
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError

from qbank.bank.loaded import Bank
from qbank.bank.parallel import end_child, fork_is_safe
from qbank.live.headingcache import stored_headings
from qbank.live.indexcache import stored_index
from qbank.live.markupcache import stored_markup
from qbank.live.matchcache import stored_terms
from qbank.live.sharecache import KeptShares
from qbank.live.sitelinks import WrittenFiles
from qbank.live.store import Store
from qbank.plugin import internals
from qbank.plugin.config import Shared, TopicUrl
from qbank.plugin.datafiles import write_deferred
from qbank.plugin.report import phase
from qbank.search import INDEX_DIR, SearchIndexError, expected_cost, write_built
from qbank.search.index import write_file
from qbank.site.memory import releasing
from qbank.site.offline import FieldShares
from qbank.site.render import RenderedSite, RenderOptions, render_site

# (locale, its folder): build its pages and data files there
BuildLocale = Callable[[str, Path], None]
# (locale, its folder): write its search index there
IndexLocale = Callable[[str, Path], None]


class IndexClaims:
    """Which process writes the search index of each forked locale: the first to claim it
    (an atomic ``mkdir`` in a folder both processes see). Both claim in ``order``: the
    costliest index first (``search.expected_cost``), so that the last one to be taken is
    the smallest and the two processes end close together."""

    def __init__(self, folder: Path, order: Sequence[str]) -> None:
        self.folder = folder
        self.order = tuple(order)

    def claim(self, locale: str) -> bool:
        """Whether this process takes ``locale``'s index (no other one has)."""
        try:
            (self.folder / locale).mkdir()
        except FileExistsError:
            return False
        return True


class Handoff:
    """What the default locale's build hands to the nested build of another locale, which
    runs on the same plugin instance (``internals.build_nested``)."""

    def __init__(self) -> None:
        self.current: Shared | None = None

    @contextlib.contextmanager
    def handing(self, shared: Shared) -> Iterator[None]:
        self.current = shared
        try:
            yield
        finally:
            self.current = None


def render_locale(
    bank: Bank, options: RenderOptions, locale: str, store: Store | None = None
) -> RenderedSite:
    """``locale``'s pages alone, its practice and JSON API files deferred (written after its
    build, one at a time); the match counts, question HTML and headings of unchanged
    topics from ``store``."""
    started = time.monotonic()
    options = dataclasses.replace(options, locales=(locale,), defer_files=True)
    store = store or Store(None)
    known = stored_markup(store, bank, locale)
    numbered, headed = stored_terms(store, bank), stored_headings(store)
    site = render_site(bank, options, None, numbered, known, headed)
    phase(started, "%s: pages rendered", locale)
    return site


def write_search_index(
    bank: Bank,
    locale: str,
    site_dir: Path,
    topic_url: TopicUrl,
    *,
    shares: bool = False,
    store: Store | None = None,
    last: Path | None = None,
) -> None:
    """Write ``locale``'s search index into its tree of ``site_dir``; with ``shares`` (the
    site has the offline copy) also each field's share of it, made as the index is written
    (``offline.FieldShares``); the postings of unchanged topics from ``store``, and (``last``:
    the published site) the files that stayed the same linked from it (``WrittenFiles``)."""
    started = time.monotonic()
    store = store or Store(None)
    folder = site_dir / locale / INDEX_DIR
    fields = list(bank.catalog.fields)
    written = WrittenFiles(store, last, locale) if store.enabled and last else None
    kept = KeptShares(store, last, locale, fields) if shares and store.enabled and last else None
    watch = FieldShares(fields, folder, kept) if shares else None
    write = write_file
    if written is not None:
        write = partial(_write_in_site, written, f"{locale}/{INDEX_DIR}/")
    told = kept.documents if kept is not None else None
    try:
        write_built(
            lambda: stored_index(store, bank, locale, topic_url, told), folder, watch, write
        )
    except SearchIndexError as error:
        raise PluginError(f"qbank: {error}") from None
    linked = ""
    if kept is not None:
        kept.end()
    if written is not None:
        written.end()
        if written.before:  # (a site published by an earlier build)
            linked = f", {written.linked} of {len(written.now)} files linked from the last site"
        if kept is not None and kept.before:
            linked += f", {kept.taken} of {len(fields)} fields' offline shares kept"
    count = sum(1 for entry in bank.entries if locale in entry.locales)
    phase(started, "%s: search index written, %d questions%s", locale, count, linked)


def build_locale(
    handoff: Handoff,
    shared: Shared,
    locale: str,
    config: MkDocsConfig,
    folder: Path,
    *,
    options: RenderOptions,
    topic_url: TopicUrl,
    index: bool = True,
    shares: bool = False,
    store: Store | None = None,
    last: Path | None = None,
    kept: Callable[[], str] = lambda: "",
) -> None:
    """Build another locale's pages into ``folder`` (its ``<locale>/`` tree). When ``shared``
    holds no pages of it (``mkdocs build``) render them first, and write its practice and
    JSON API files and (``index``) its search index after. ``kept``: what the page cache
    gave the nested build, for its "pages built" line."""
    site = shared.site
    rendered = locale not in site.nav
    if rendered:
        site = render_locale(shared.bank, options, locale, store)
    started = time.monotonic()
    with handoff.handing(Shared(shared.bank, site, locale)):
        internals.build_nested(config, folder)
    phase(started, "%s: pages built%s", locale, kept())
    if rendered:  # (the locale process builds several: each one's memory goes to the next)
        finish_locale(
            shared.bank,
            site,
            locale,
            folder,
            topic_url,
            index=index,
            shares=shares,
            release=True,
            store=store,
            last=last,
        )


def finish_locale(
    bank: Bank,
    site: RenderedSite,
    locale: str,
    folder: Path,
    topic_url: TopicUrl,
    *,
    index: bool = True,
    shares: bool = False,
    release: bool = False,
    store: Store | None = None,
    last: Path | None = None,
) -> None:
    """After ``locale``'s pages are built into ``folder``: its practice and JSON API files
    and (``index``) its search index. With ``release`` (nothing else will read its pages),
    its question HTML goes before and its data producers and the kept conversions after, so
    that what comes next (the next locale, the indexes the parent writes) reuses that memory:
    at 30,000 questions the build's peak came when the parent indexed Chinese while the
    locale process still held the pages it had built."""
    with releasing(site) if release else contextlib.nullcontext():
        write_deferred(site, locale, folder)
        if index:
            write_search_index(
                bank, locale, folder, topic_url, shares=shares, store=store, last=last
            )


def _write_in_site(
    written: WrittenFiles, prefix: str, path: str, target: Path, data: bytes
) -> None:
    written.write(prefix + path, target, data)


class LocaleBuilds:
    """The forked processes building the other locales of one ``mkdocs build``."""

    def __init__(self) -> None:
        self.running: dict[str, tuple[int, Path]] = {}  # locale → (pid, its folder)
        self.exits: dict[int, int] = {}  # exit codes of the locale process, by pid
        self.claims: IndexClaims | None = None  # who writes which forked locale's index

    def start(
        self,
        config: MkDocsConfig,
        bank: Bank,
        build: BuildLocale,
        index: IndexLocale | None,
        *,
        before_fork: Callable[[], None] = lambda: None,
    ) -> None:
        """Fork the processes that build the bank's locales but the first (``build``): one
        per core beside this one (``os.cpu_count()``; 2 cores: one process for every other
        locale, one after the other), never more than there are locales; each then writes
        (``index``; None: none) the search indexes no other process has claimed. The
        children write into folders beside the site, ``collect`` renames them into place.
        ``before_fork``: what this process does first that the children then need not."""
        locales = bank.catalog.locales
        parent = Path(config.site_dir).resolve().parent
        parent.mkdir(parents=True, exist_ok=True)
        cores = os.cpu_count() or 1
        if not fork_is_safe() or cores < 2:
            return  # (every locale is then built here, one after the other: ``collect``)
        folders = {
            locale: Path(tempfile.mkdtemp(prefix=f".qbank-{locale}-", dir=parent))
            for locale in locales[1:]
        }
        if not folders:
            return
        costs = {locale: expected_cost(bank, locale) for locale in folders}
        by_cost = sorted(folders, key=lambda locale: -costs[locale])  # (stable: ties in order)
        claims = None
        if index is not None:
            claims = IndexClaims(
                Path(tempfile.mkdtemp(prefix=".qbank-claims-", dir=parent)), by_cost
            )
        shares: list[list[str]] = [[] for _ in range(min(cores - 1, len(folders)))]
        for number, locale in enumerate(by_cost):  # the costliest first, round the processes
            shares[number % len(shares)].append(locale)
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        gc.freeze()  # the garbage collector of the child then leaves the bank's pages shared
        before_fork()  # (its objects young: a collection then never walks the bank)
        running = {}
        for share in shares:
            pid = os.fork()
            if pid == 0:  # a child: build, report by exit status, never return into MkDocs

                def build_all(share: list[str] = share) -> None:
                    for locale in sorted(share, key=locales.index):
                        build(locale, folders[locale])
                    for locale in claims.order if claims else ():
                        if index is not None and claims is not None and claims.claim(locale):
                            index(locale, folders[locale])

                end_child(build_all)
            running.update({locale: (pid, folders[locale]) for locale in share})
        gc.unfreeze()
        self.claims = claims
        self.running = {locale: running[locale] for locale in folders}

    def index_here(self, scratch: Path, index: IndexLocale) -> dict[str, Path]:
        """Write (``index``) into ``scratch`` the indexes of the locales the child builds
        that this process claims first; each one's index folder, by locale."""
        extra: dict[str, Path] = {}
        if not self.running or self.claims is None:
            return extra
        for locale in self.claims.order:
            if self.claims.claim(locale):
                index(locale, scratch)
                extra[locale] = scratch / locale / INDEX_DIR
        return extra

    def collect(
        self,
        site_dir: Path,
        locales: Iterable[str],
        extra: dict[str, Path],
        build_here: Callable[[str, Path], None],
        skip: Callable[[str], bool],
    ) -> list[str]:
        """Wait for (or, without a locale process, ``build_here``) every one of ``locales``
        but those to ``skip``, rename its tree into ``site_dir`` with the index written by
        the parent (``extra``); the locales whose build failed."""
        failed = []
        for locale in locales:
            started = self.running.pop(locale, None)
            if started is None and skip(locale):
                continue
            if started is None:  # serve, or no fork: build here, one locale after the other
                folder = Path(tempfile.mkdtemp(prefix=f".qbank-{locale}-"))
                build_here(locale, folder)
            else:
                pid, folder = started
                if pid not in self.exits:
                    _, status = os.waitpid(pid, 0)
                    self.exits[pid] = os.waitstatus_to_exitcode(status)
                if self.exits[pid] != 0:
                    failed.append(locale)
                    shutil.rmtree(folder, ignore_errors=True)
                    continue
            target = site_dir / locale
            if target.exists():
                shutil.rmtree(target)
            if (folder / locale).is_dir():  # (a serve rebuild may have skipped all its pages)
                try:
                    (folder / locale).replace(target)  # same file system: a rename
                except OSError:
                    shutil.copytree(folder / locale, target)
            if locale in extra:
                shutil.move(extra[locale], target / INDEX_DIR)
            shutil.rmtree(folder, ignore_errors=True)
        self.exits = {}
        self._drop_claims()
        return failed

    def stop(self) -> None:
        """End the locale process (after a failure) and drop its output."""
        for pid in {pid for pid, _folder in self.running.values()}:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGTERM)
                os.waitpid(pid, 0)
        for _pid, folder in self.running.values():
            shutil.rmtree(folder, ignore_errors=True)
        self.running = {}
        self.exits = {}
        self._drop_claims()

    def _drop_claims(self) -> None:
        if self.claims is not None:
            shutil.rmtree(self.claims.folder, ignore_errors=True)
            self.claims = None
