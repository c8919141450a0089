"""``mkdocs serve``: one process builds again and again, and a rebuild writes only what changed.

Two lifetimes. ``ServeSession`` is what the plugin keeps across serve's rebuilds (MkDocs
reuses the plugin instance): the site session shared with ``qbank build --watch``
(``qbank.live.session``: checked questions, rendered bodies, search documents), what every
served page was built from, the data files' digests, the live search index. A ``Rebuild`` is
one build: made in ``on_config``, dropped when it is published or has failed; it holds
background work while it lives. Each rebuild writes into a private staging folder; only one
that succeeded moves its files into the served folder (MkDocs' temporary ``site_dir``, never
cleaned), so a bad edit keeps the last good site.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import Files, InclusionLevel

from qbank.bank.loaded import Bank
from qbank.bank.problems import ContentError, Problem
from qbank.live import background
from qbank.live.index import index_site_after_build
from qbank.live.session import SiteSession
from qbank.live.store import Store
from qbank.plugin import internals
from qbank.plugin.config import Shared, TopicUrl
from qbank.plugin.datafiles import Superseded, write_deferred
from qbank.plugin.logfilters import filter_skipped_pages
from qbank.plugin.report import log, phase
from qbank.search import INDEX_DIR, SearchIndexError
from qbank.site.output import move_into, rename
from qbank.site.parts import is_part_page
from qbank.site.render import (
    BodyCache,
    RenderedSite,
    RenderOptions,
    Slot,
    page_runs,
)
from qbank.site.templates import TEMPLATES, folder_stamp

API_DELAY = 2.0  # seconds without a rebuild before serve rewrites the bank.json files
RELOAD_TIME = 1.0  # seconds after a serve rebuild for browsers to reload before background work
_MISSING = object()


def _front_matter(markdown: str) -> str:
    """The YAML front matter of a generated page (title, tags…) as other pages may show it,
    empty when it has none: without its ``description``, which only the page's own head
    carries (a topic's question count is in it, and a new question changes no other page)."""
    if not markdown.startswith("---"):
        return ""
    end = markdown.find("\n---", 3)
    lines = markdown[: end if end >= 0 else 0].split("\n")
    return "\n".join(line for line in lines if not line.startswith("description: "))


def _same_slot(old: Slot, new: Slot) -> bool:
    """Whether two question slots give the same heading and HTML (the HTML is compared only
    when the question changed: an edit of one locale's text leaves the others' pages as
    they are)."""
    if old is new:
        return True
    if (old.level, old.anchor, old.title, old.locale) != (
        new.level,
        new.anchor,
        new.title,
        new.locale,
    ):
        return False
    return old.entry is new.entry or old.html == new.html


def _same_signature(old: Any, new: Any) -> bool:
    """Whether a generated file is built from the same thing as before: bytes, or a page's
    Markdown and its runs of questions (``render.page_runs``)."""
    if old is _MISSING or type(old) is not type(new):
        return False
    if not isinstance(new, tuple):
        return bool(old == new)
    (old_markdown, old_runs), (markdown, runs) = old, new
    return (
        old_markdown == markdown
        and len(old_runs) == len(runs)
        and all(
            len(a) == len(b) and all(_same_slot(x, y) for x, y in zip(a, b, strict=True))
            for a, b in zip(old_runs, runs, strict=True)
        )
    )


def _whole_signature(config: MkDocsConfig, shared: Shared, options: RenderOptions) -> Any:
    """What every page depends on: when any of it changes, every page is rebuilt."""
    site = shared.site
    config_file = Path(config.config_file_path) if config.config_file_path else None
    in_menu = sorted(path for path in site.pages if not is_part_page(path))
    return (
        in_menu,  # (a topic's later parts come and go with its questions, outside the menu)
        sorted(site.files),
        [_front_matter(site.pages[path]) for path in in_menu],
        site.nav,
        site.titles,
        shared.bank.catalog,
        options,
        json.dumps(config.extra, sort_keys=True, default=str),
        config_file.read_bytes() if config_file and config_file.is_file() else b"",
        folder_stamp(TEMPLATES),
        folder_stamp(Path(config.docs_dir)),
    )


def serve_options(options: RenderOptions) -> RenderOptions:
    """The render options under ``mkdocs serve``: every locale, data files deferred."""
    return dataclasses.replace(options, locales=(), defer_files=True)


class ThemeListing:
    """The theme's static files, listed once, not on every rebuild: each build walks every
    theme folder (Material ships thousands of icons) and matches every name against a dozen
    patterns to find them (``Files.add_files_from_theme``: a share of a small rebuild). The
    listing is reused while the theme folders outside installed packages (custom and qbank's
    override folders) hold the same files."""

    def __init__(self) -> None:
        self.key: Any = None
        self.names: list[str] = []

    def keep(self, theme: Any) -> None:
        """Serve ``theme``'s static file listing from here (``internals.keep_theme_listing``)."""

        def cached(compute: Callable[[], list[str]]) -> list[str]:
            key = (
                tuple(theme.dirs),
                tuple(sorted(theme.static_templates)),
                tuple(tuple(folder_stamp(Path(d))) for d in theme.dirs if "site-packages" not in d),
            )
            if key != self.key:
                self.names, self.key = compute(), key
            return list(self.names)

        internals.keep_theme_listing(theme, cached)


@dataclass
class Rebuild:
    """One serve rebuild: made when it starts (``ServeSession.begin``), dropped when it is
    published or has failed. Background work is held (``hold``) for as long as it lives."""

    started: float  # when it began (``time.monotonic``)
    hold: background.Hold
    staging: Path | None = None  # its output, moved into the served folder at its end
    # Rebuild everything?, the signatures it saw, the generated files that changed, the
    # files it skipped, the fields whose data files changed (None: all), its data files.
    full: bool = True
    whole: Any = None
    built: dict[str, Any] = field(default_factory=dict)
    changed: set[str] = field(default_factory=set)
    skipped: set[str] = field(default_factory=set)
    fields: frozenset[str] | None = None
    locales: frozenset[str] | None = None  # whose data files may have changed (None: all)
    data: dict[str, bytes] = field(default_factory=dict)
    api_writer: threading.Thread | None = None  # the background write it starts when published

    def drop(self, after: float = 0.0) -> None:
        """Its end: the staging folder goes, background work goes on (``after`` seconds)."""
        if self.staging is not None:
            shutil.rmtree(self.staging, ignore_errors=True)
            self.staging = None
        self.api_writer = None
        self.hold.release(after)


@dataclass
class ServeSession:
    """What ``mkdocs serve`` keeps across rebuilds so that a rebuild writes only what changed:
    the site session both adapters share (``qbank.live.session``: the bank, the pages, the
    search documents), what the served folder holds, and the rebuild running now (a
    ``Rebuild``). Every field is written by MkDocs' main thread but ``data_digests`` (the
    background ``bank.json`` writer too, under ``api_lock``)."""

    site: SiteSession = field(default_factory=SiteSession)
    rebuild: Rebuild | None = None  # the rebuild running now
    served: Path | None = None  # the folder the LiveReloadServer serves
    whole: Any = None  # the global signature of the last published build
    shared: Shared | None = None  # the bank and pages of the last published build
    built: dict[str, Any] = field(default_factory=dict)  # source path → what it was built from
    published: set[str] = field(default_factory=set)  # files the builds moved into ``served``
    api_generation: int = 0  # the latest background write of the JSON API files
    api_lock: threading.Lock = field(default_factory=threading.Lock)
    data_digests: dict[str, bytes] = field(default_factory=dict)  # served data files' bytes
    # Compiled theme templates and the theme's static file listing, kept across rebuilds.
    theme_listing: ThemeListing = field(default_factory=ThemeListing)
    # The problems of the last load that failed, until a load succeeds (``banner.py``
    # shows them on the served pages).
    problems: tuple[Problem, ...] = ()

    @property
    def bodies(self) -> BodyCache:
        """The rendered question bodies kept across rebuilds."""
        return self.site.bodies

    @property
    def current(self) -> Rebuild:
        """The rebuild running now."""
        assert self.rebuild is not None, "no serve rebuild is running"
        return self.rebuild

    # -- loading and rendering -----------------------------------------------------------------

    def begin(self) -> None:
        """A rebuild starts: background work waits (until it is published, or has failed)."""
        self.abandon()  # one that never reached its end (its config's plugins failed)
        self.site.begin()
        self.rebuild = Rebuild(time.monotonic(), background.hold())

    def load(self, content_root: Path, store: Store | None = None) -> Bank:
        """The bank, re-reading only the files that changed since the last rebuild (the
        first build: those ``store`` has from earlier builds taken from it)."""
        bank = self.site.load(content_root, store=store)
        self.problems = ()
        return bank

    def last_good(self, error: ContentError) -> Shared | None:
        """After a bad edit (``error``), the bank and pages of the last published build (its
        pages stay served: a failed build would stall every request, and they show its
        problems); None before the first."""
        self.problems = tuple(error.problems)
        if self.shared is None:
            return None
        log.error("qbank: %s; the last good pages stay served until it is fixed", error)
        self.current.fields = self.current.locales = frozenset()  # (no data file changed)
        return self.shared

    def render(
        self, bank: Bank, options: RenderOptions, store: Store | None = None
    ) -> RenderedSite:
        """Every locale's pages: after an edit only the pages that show changed questions are
        rendered again (``SiteSession.render``), else all of them (the question HTML of
        unchanged topics from ``store``, when given)."""
        started = time.monotonic()
        rendered = self.site.render(bank, serve_options(options), store)
        self.current.fields, self.current.locales = rendered.fields, rendered.locales
        if rendered.fields is None:
            phase(started, "pages of every locale rendered")
        else:
            phase(started, "pages of the changed questions rendered")
        return rendered.site

    def configure(self, config: MkDocsConfig) -> None:
        """Reuse the theme's static file listing across rebuilds; leave out the pages'
        Content-Security-Policy, which would block the inline live-reload script that
        ``mkdocs serve`` adds to every page (a different one per request)."""
        self.theme_listing.keep(config.theme)
        config.extra["qbank_csp"] = False

    # -- what to build -------------------------------------------------------------------------

    def stage(self, config: MkDocsConfig) -> None:
        """Build into a private folder (MkDocs cleans ``site_dir`` first): ``publish`` moves
        what this build wrote into the served folder."""
        rebuild = self.current
        if self.served is None:
            self.served = Path(config.site_dir).resolve()
            filter_skipped_pages(lambda: self.rebuild.skipped if self.rebuild else set())
        if rebuild.staging is not None:
            shutil.rmtree(rebuild.staging, ignore_errors=True)
        self.served.mkdir(parents=True, exist_ok=True)
        rebuild.staging = Path(tempfile.mkdtemp(prefix=".qbank-serve-", dir=self.served.parent))
        internals.point_build_at(config, rebuild.staging)

    def skip_unchanged(
        self,
        files: Files,
        config: MkDocsConfig,
        shared: Shared,
        options: RenderOptions,
        *,
        decide: bool,
    ) -> None:
        """Leave out (``EXCLUDED``: not read, not rendered, still in the nav) every file built
        from exactly what the served one was built from. ``decide``: this is the default
        locale's build, which runs first and decides for all."""
        site, rebuild = shared.site, self.current
        if decide:
            rebuild.whole = _whole_signature(config, shared, options)
            rebuild.full = rebuild.whole != self.whole
            rebuild.skipped = set()
            rebuild.built = {path: page_runs(site, md) for path, md in site.pages.items()}
            rebuild.built.update(site.files)  # generated data, compared by bytes
            rebuild.changed = {
                path
                for path, signature in rebuild.built.items()
                if rebuild.full or not _same_signature(self.built.get(path, _MISSING), signature)
            }
        for file in files:
            if file.inclusion.value <= InclusionLevel.DRAFT.value:  # another locale's page
                continue
            path = file.src_uri
            generated = path in rebuild.built  # else a theme or docs file (global)
            if rebuild.full or (path in rebuild.changed if generated else False):
                continue
            file.inclusion = InclusionLevel.EXCLUDED
            rebuild.skipped.add(path)

    def unchanged_locale(self, locale: str) -> bool:
        """Whether this rebuild leaves every page of ``locale`` as it is served (its build is
        then skipped)."""
        rebuild = self.current
        return not rebuild.full and not any(
            path.startswith(f"{locale}/") for path in rebuild.changed
        )

    # -- data files and search -----------------------------------------------------------------

    def data_files(
        self, staging: Path, shared: Shared, written_by_locales: Collection[str] = ()
    ) -> None:
        """The practice and JSON API files: after an edit the practice files of the changed
        fields whose bytes changed, and each ``bank.json`` whose bytes changed (the largest
        file of a large bank, read by no page) in the background, straight into the
        served folder, once edits pause; after a full rebuild all of them, in this build,
        but those of ``written_by_locales`` (the first build's locale process wrote them;
        their digests stay unknown, so the next rebuild that changes them writes them)."""
        site, rebuild = shared.site, self.current
        fields = None if rebuild.full else rebuild.fields
        with self.api_lock:
            self.api_generation += 1  # a background writer still running stops
            generation = self.api_generation
            if fields is None:
                self.data_digests = {}
        changed = shared.bank.catalog.locales if fields is None else rebuild.locales
        for locale in shared.bank.catalog.locales:
            if locale in written_by_locales or (changed is not None and locale not in changed):
                continue
            write_deferred(
                site,
                locale,
                staging,
                fields=fields,
                api=fields is None,
                known=self.data_digests,
                written=rebuild.data,
            )
        if fields is None or self.served is None:
            return
        served = self.served
        locales = [loc for loc in shared.bank.catalog.locales if changed is None or loc in changed]

        def swap(temporary: Path, target: Path) -> bool:
            with self.api_lock:  # a newer build's files are never replaced by older ones
                return self.api_generation == generation and rename(temporary, target)

        def paced(chunks: Iterable[bytes]) -> Iterator[bytes]:
            for chunk in background.paced(chunks):
                if self.api_generation != generation:
                    raise Superseded
                yield chunk

        def write_api() -> None:
            time.sleep(API_DELAY)  # edits often come in runs: wait for a pause
            with contextlib.suppress(OSError, Superseded):
                for locale in locales:
                    if self.api_generation != generation:
                        return
                    written: dict[str, bytes] = {}
                    write_deferred(
                        site,
                        locale,
                        served,
                        swap,
                        fields=(),
                        api=True,
                        known=self.data_digests,
                        written=written,
                        pace=paced,
                    )
                    with self.api_lock:
                        if self.api_generation == generation:
                            self.data_digests.update(written)

        # Started once this build is published (``publish``): it would slow it down.
        rebuild.api_writer = threading.Thread(target=write_api, name="qbank-api", daemon=True)

    def search(
        self, bank: Bank, topic_url: TopicUrl, site_dir: Path, indexed: Collection[str] = ()
    ) -> None:
        """The search index, in the served folder (serve rebuilds write elsewhere): the last
        index at once and a fresh one in the background. The locales of ``indexed`` (the
        first build writes their index from the persistent cache, as ``mkdocs build`` does,
        and ``take_indexes`` then moves it into the served folder) get their documents and
        state from a background pass instead."""
        docs = self.site.search_docs(bank, topic_url, later=indexed)
        try:
            report = index_site_after_build(self.served or site_dir, docs, indexed)
        except SearchIndexError as error:
            raise PluginError(f"qbank: {error}") from None
        if report is not None:
            log.info("qbank: %s", report.summary())

    def take_indexes(self, site_dir: Path, indexed: Collection[str]) -> None:
        """Move the search indexes of ``indexed`` that the first build wrote into ``site_dir``
        to the served folder, as they are (``search`` had them taken over)."""
        served = self.served or site_dir
        for locale in indexed:
            made, target = site_dir / locale / INDEX_DIR, served / locale / INDEX_DIR
            if made.is_dir() and made != target:
                shutil.rmtree(target, ignore_errors=True)
                target.parent.mkdir(parents=True, exist_ok=True)
                made.replace(target)

    # -- publishing ----------------------------------------------------------------------------

    def publish(self, config: MkDocsConfig, shared: Shared | None, options: RenderOptions) -> None:
        """Move the files this rebuild wrote into the served folder (one rename each: a request
        never sees half a file); after a full rebuild also delete what it no longer makes.
        Files the build skipped stay as they are. The rebuild ends here."""
        rebuild = self.rebuild
        if rebuild is None or rebuild.staging is None or self.served is None:
            return
        served = self.served
        written = move_into(rebuild.staging, served)
        if rebuild.full:
            for relative in self.published - written:
                with contextlib.suppress(OSError):
                    (served / relative).unlink()
            self.published = written
        else:
            self.published |= written
            for page in self.built.keys() - rebuild.built.keys():  # a topic's part gone
                if is_part_page(page):
                    gone = (served / page).parent
                    with contextlib.suppress(OSError):
                        (gone / "index.html").unlink()
                        gone.rmdir()
                    self.published.discard(f"{Path(page).parent.as_posix()}/index.html")
        self.whole, self.built, self.shared = rebuild.whole, rebuild.built, shared
        if shared is not None:
            self.site.published(shared.bank, shared.site, serve_options(options))
        with self.api_lock:
            self.data_digests.update(rebuild.data)
        phase(
            rebuild.started,
            "%s: %d files written, %d skipped as unchanged",
            "full rebuild" if rebuild.full else "rebuilt what changed",
            len(written),
            len(rebuild.skipped),
        )
        internals.point_build_at(config, served)
        writer = rebuild.api_writer
        self.rebuild = None
        rebuild.drop(after=RELOAD_TIME)
        if writer is not None:
            writer.start()

    def failed(self) -> None:
        """The rebuild failed: drop its output and its background write, let background work
        go on."""
        self.abandon()

    def abandon(self) -> None:
        """End the rebuild running now, if any, without publishing it (the served folder
        stays as it was)."""
        rebuild, self.rebuild = self.rebuild, None
        if rebuild is not None:
            rebuild.drop()
