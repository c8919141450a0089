"""The plugin class: it receives MkDocs' events and hands the work to the other modules.

The build MkDocs starts renders the default locale (and the root page); from its
``on_post_build`` every other locale is a nested build on this same instance
(``locales.py``). ``mkdocs build`` publishes the finished site in one step (``publish.py``);
under ``mkdocs serve`` a ``ServeSession`` (``serve.py``) keeps what the next rebuild needs.
"""

from __future__ import annotations

import contextlib
import dataclasses
import html
import shutil
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.utils.templates import TemplateContext

from qbank.bank.load import no_collection_at_exit
from qbank.bank.loaded import Bank
from qbank.bank.problems import ContentError
from qbank.live import background
from qbank.live.checkcache import StoredChecks
from qbank.live.pagecache import KIND, SERVED
from qbank.live.sitelinks import SiteDigests
from qbank.live.store import Store
from qbank.plugin import internals, report
from qbank.plugin.banner import show_problems
from qbank.plugin.config import (
    QbankConfig,
    Repository,
    Shared,
    TopicUrl,
    configure_site,
    render_options,
    topic_url,
    use_overrides,
)
from qbank.plugin.loading import Loaded, load_compact
from qbank.plugin.locales import (
    Handoff,
    LocaleBuilds,
    build_locale,
    finish_locale,
    render_locale,
    write_search_index,
)
from qbank.plugin.logfilters import filter_cross_locale_links, filter_linked_pages
from qbank.plugin.material_search import drop_search_files, drop_worker_address
from qbank.plugin.pagecache import TEMPLATE as KEPT_PAGE
from qbank.plugin.pagecache import KeptMarkdown, KeptPages
from qbank.plugin.pages import (
    add_pages,
    insert_html,
    insert_questions,
    title_pages_built_elsewhere,
)
from qbank.plugin.report import phase
from qbank.plugin.serve import ServeSession
from qbank.plugin.staging import StagedSite
from qbank.plugin.templatecode import TemplateCode
from qbank.plugin.watch import EventHold, watch_bank
from qbank.search.index import write_file
from qbank.site.minify import compact_page
from qbank.site.offline import write_site_offline, write_worker
from qbank.site.render import RenderedSite, RenderOptions, Slot, compile_templates
from qbank.site.sitemaps import write_locale_sitemaps
from qbank.site.templates import TEMPLATES
from qbank.site.theme import ASSETS, LAZY_ASSETS

SHELL = (*ASSETS, *LAZY_ASSETS)
"""qbank's part of the offline shell (the theme's is read from the built home page)."""


class QbankPlugin(BasePlugin[QbankConfig]):  # type: ignore[no-untyped-call]
    """Generates the study site's pages from the question bank."""

    def __init__(self) -> None:
        # MkDocs keeps this one instance for every config loaded in the process (it has
        # ``on_startup``): serve's rebuilds and the nested locale builds all reach it.
        self.serve: ServeSession | None = None  # set by ``on_startup`` for ``mkdocs serve``
        self.shared: Shared | None = None  # what the build MkDocs started works from
        self.handoff = Handoff()  # what a nested locale build works from, while it runs
        self.repository: Repository | None = None
        self.options = RenderOptions()
        # Set with the bank in on_config; until then a topic's first page.
        self.topic_url: TopicUrl = lambda locale, e: f"/{locale}/{e.field}/{e.topic}/"
        self.locales = LocaleBuilds()
        self.loaded = Loaded()  # ``mkdocs build``: the loading process, comparing prompts
        self.staged: StagedSite | None = None  # ``mkdocs build``: the site being written
        self.store = Store(None)  # the persistent cache (``mkdocs build``; set by on_config)
        self.pages = KeptPages()  # the page cache of the build running now (``on_env``)
        self.site_root: Path | None = None  # the site ``mkdocs build`` publishes
        self.markdown = KeptMarkdown()  # its converted Markdown (``on_nav``)
        self.template_code = TemplateCode()  # the theme's compiled templates, this process's
        self.started = 0.0  # when this build began (``on_config``)
        self.build_started = 0.0  # when MkDocs began building this build's pages

    @property
    def offline(self) -> bool:
        """Whether pages register the service worker (never under ``mkdocs serve``)."""
        return bool(self.config.offline) and self.serve is None

    @property
    def derived(self) -> bool:
        """Whether the build running now is a nested build of another locale."""
        return self.handoff.current is not None

    @property
    def last_site(self) -> Path | None:
        """The published site whose search index files this build links where they stayed
        the same (``WrittenFiles``: by the digests the offline copy keeps)."""
        return self.site_root if self.offline else None

    @property
    def building(self) -> Shared | None:
        """What the build running now works from (nested or not)."""
        return self.handoff.current or self.shared

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """``mkdocs serve`` keeps a session across its rebuilds; ``mkdocs build`` ends
        without collecting garbage over the bank it holds (``no_collection_at_exit``)."""
        if command == "serve" and self.serve is None:
            self.serve = ServeSession()
        if command == "build":
            no_collection_at_exit()

    # -- configuration -------------------------------------------------------------------------

    @event_priority(100)  # before Material's tags plugin reads tags_allowed
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        """Load and render the bank; set nav, language, assets and theme defaults."""
        self.repository = Repository.of(config, self.config)
        use_overrides(config)
        if not self.derived:
            self.started = time.monotonic()
            if self.serve is not None:
                self.serve.begin()
            self.store = self._store(config)
            if self.store.enabled:
                self.pages.allowed(config)  # (said here, before the locale process forks)
            # (``mkdocs build``: the published site, whose pages the page cache may link)
            self.site_root = None if self.serve is not None else Path(config.site_dir).resolve()
            filter_linked_pages(lambda: self.pages.linked)
            self.shared = self._load_and_render(config)
        shared = self.building
        assert shared is not None
        filter_cross_locale_links(frozenset(shared.bank.catalog.locales))
        configure_site(config, shared, offline=self.offline)
        if self.serve is not None:
            self.serve.configure(config)
        return config

    def _store(self, config: MkDocsConfig) -> Store:
        """The persistent cache of this build: ``cache_dir`` beside mkdocs.yml, unless
        ``cache: false``; under ``mkdocs serve`` for its first build only (its rebuilds keep
        what they need in memory, ``serve.py``; it never prunes: the next ``mkdocs build``
        does)."""
        rebuild = self.serve is not None and self.serve.shared is not None
        if not self.config.cache or rebuild:
            return Store(None, note=report.log.info)
        config_dir = Path(config.config_file_path or ".").resolve().parent
        return Store(config_dir / str(self.config.cache_dir), note=report.log.info)

    def _load_and_render(self, config: MkDocsConfig) -> Shared:
        """The bank and its pages for the build MkDocs started: under ``mkdocs build`` the
        default locale's (the other locales start building in their own process); under
        ``mkdocs serve`` every locale's, or after a bad edit the last good ones."""
        assert self.repository is not None
        bank = self._load(self.repository.content_root)
        if bank is None:
            assert self.serve is not None
            assert self.serve.shared is not None
            return self.serve.shared
        page_size = int(self.config.page_size)
        if page_size < 0:
            raise PluginError(
                f"qbank: {config.config_file_path}: plugins.qbank.page_size: {page_size} is not"
                " a number of questions; expected a whole number, 0 or more (0: no limit)"
            )
        self.options = dataclasses.replace(
            render_options(config, self.repository, str(self.config.report_template)),
            page_size=page_size,
            bank_json=bool(self.config.bank_json),
        )
        self.topic_url = topic_url(config.use_directory_urls, bank, page_size)
        default = bank.catalog.default_locale
        # Every other locale renders, builds and indexes in its own process, while this one
        # does the default locale; so does serve's first build (its rebuilds build here),
        # which still renders every locale here: the next rebuild compares against them
        # (and this process takes over the search indexes the other one wrote, in the
        # background: ``LiveIndex``).
        unrendered = Shared(bank, RenderedSite(), default)
        if self.serve is None or self.serve.shared is None:
            self.locales.start(
                config,
                bank,
                lambda locale, folder: self._build_locale(
                    unrendered, locale, config, folder, index=False
                ),
                partial(self._index_locale, bank),
                before_fork=partial(self._compile_templates, config),
            )
        if self.serve is not None:
            return Shared(bank, self.serve.render(bank, self.options, self.store), default)
        return Shared(bank, render_locale(bank, self.options, default, self.store), default)

    def _compile_templates(self, config: MkDocsConfig) -> None:
        """Compile the page templates and the theme's before the locale process forks: it
        renders with them instead of compiling them again."""
        compile_templates()
        names = ["main.html", *config.theme.static_templates, KEPT_PAGE]
        self.template_code.compile(config.theme.get_env(), names)

    def _load(self, content_root: Path) -> Bank | None:
        """The bank; ``None`` when it has errors under ``mkdocs serve`` after a published
        build (its pages stay served: a failed build would stall every request)."""
        started = time.monotonic()
        try:
            if self.serve is not None:
                bank = self.serve.load(content_root, self.store)
            else:
                kept = StoredChecks(self.store) if self.store.enabled else None
                here = kept is not None and kept.warm()
                bank, self.loaded = load_compact(content_root, kept, here=here)
        except ContentError as error:
            report.problems(error.problems, fatal=True)
            if self.serve is not None and self.serve.last_good(error) is not None:
                return None
            raise PluginError(f"qbank: {error}; nothing was built") from None
        report.problems(bank.warnings, fatal=False)
        phase(started, "bank loaded, %d questions", len(bank.entries))
        return bank

    # -- files and pages -----------------------------------------------------------------------

    def on_files(self, files: Files, config: MkDocsConfig) -> Files | None:
        """Add this locale's pages; other locales' pages only as link targets (not built);
        leave Material's search files out (``material_search``)."""
        shared = self.building
        assert shared is not None
        add_pages(files, config, shared, self.options.page_size, root=not self.derived)
        drop_search_files(files, config)
        if self.serve is not None:
            self.serve.skip_unchanged(files, config, shared, self.options, decide=not self.derived)
        return files

    @event_priority(-100)  # after every other plugin's (the files are final)
    def on_nav(
        self, nav: Navigation, /, *, config: MkDocsConfig, files: Files
    ) -> Navigation | None:
        """Another locale's build: the menu titles of the hand-written pages it links to.
        Start the cache of qbank's pages' converted Markdown (``pagecache.py``)."""
        if self.derived:
            title_pages_built_elsewhere(nav, config)
        shared = self.building
        if shared is not None:
            self.markdown.begin(self.store, config, files, self.pages.allowed(config))
            self.pages.prepare(self.store, config)
            if self.serve is None and self.site_root is not None:
                site = (self.site_root, shared.locale)
                for page in self.pages.skip(self.store, config, files, nav, site, shared.site):
                    # (what the build reads of it: its front matter escaped, its edit button)
                    self._edit_button(page.markdown or "", page=page, config=config, files=files)
                    self.markdown.keep(page)
                self.markdown.skipped = self.pages.skipped
        return nav

    @event_priority(-100)  # after every other plugin's (the tags listings are made)
    def on_env(
        self, env: jinja2.Environment, /, *, config: MkDocsConfig, files: Files
    ) -> jinja2.Environment | None:
        """Reuse the templates compiled by this process's earlier builds; start
        the page cache over qbank's pages (``pagecache.py``)."""
        env.bytecode_cache = self.template_code
        shared = self.building
        if shared is not None:
            pages = shared.site.pages
            kind = SERVED if self.serve is not None else KIND
            site = None if self.site_root is None else (self.site_root, shared.locale)
            generated = lambda f: f.src_uri in pages  # noqa: E731
            self.pages.begin(self.store, config, files, env, generated, kind, site)
        return env

    def _edit_button(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        """Point Material's page edit button at the topic's folder, or hide it."""
        folder = page.meta.get("qbank_folder")
        title = page.meta.get("title")
        shared = self.building
        if isinstance(title, str) and shared and page.file.src_uri in shared.site.pages:
            page.meta["title"] = html.escape(title)  # a catalog name; Material does not escape
        folder_url = self.repository.folder_url if self.repository else ""
        page.edit_url = f"{folder_url}{folder}/" if folder and folder_url else None
        return markdown

    @event_priority(-100)  # after every other plugin has changed the page's Markdown
    def _kept_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        shared = self.building
        if shared is not None and page.file.src_uri in shared.site.pages:
            page.markdown = markdown
            self.markdown.convert(page)
        return markdown

    on_page_markdown = CombinedEvent(_edit_button, _kept_markdown)
    """A page of qbank's: its edit button; its Markdown converted from the cache, or kept."""

    @event_priority(100)  # before any other plugin reads the page's HTML
    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        """Put each run of questions where its placeholder is (``pages.insert_questions``),
        and each block of HTML (``pages.insert_html``)."""
        shared = self.building
        if shared is None:
            return html
        if "qbank:html:" in html:
            html = insert_html(html, shared.site.html)
        if "qbank:question:" not in html:
            return html
        if not self.pages.defer:
            return insert_questions(html, page, config, shared.site.blocks)
        slots: list[Slot] = []  # (their HTML put in when the page is rendered, if it is)
        html = insert_questions(html, page, config, shared.site.blocks, slots)
        self.pages.bodies[page.file.src_uri] = slots
        return html

    @event_priority(100)  # before any other plugin sees the page's context
    def _own_template(
        self, context: dict[str, Any], /, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> dict[str, Any] | None:
        self.pages.restore(page)
        return context

    @event_priority(-100)  # after every other plugin has added to the page's context
    def _render_page(
        self, context: dict[str, Any], /, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> dict[str, Any] | None:
        self.pages.render(context, page)
        return context

    on_page_context = CombinedEvent(_own_template, _render_page)
    """A page of qbank's: its HTML from the page cache, or rendered here (``pagecache.py``)."""

    @event_priority(-100)  # after every other plugin has seen the page
    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str | None:
        """Let a written page's HTML go (MkDocs keeps it to the end of the build: all of a
        big bank's pages would stay in memory); serve keeps its pages. The theme's markup
        goes out with its runs of spaces collapsed (``minify.compact_page``) and without
        Material's search worker (``material_search``); a page the page cache holds goes out
        as it keeps it (so made)."""
        if self.serve is None:
            internals.release_page_html(page)
        return self.pages.finish(
            output, page, lambda html: compact_page(drop_worker_address(html, config))
        )

    def on_template_context(
        self, context: TemplateContext, /, *, template_name: str, config: MkDocsConfig
    ) -> TemplateContext | None:
        """A theme page of its own (``sitemap.xml``) lists the pages the build left out whole
        too, as a build that renders them does (``pageskip``)."""
        if self.pages.skipped.paths:
            context["pages"] = self.pages.skipped.listed()
        return context

    def on_post_template(
        self, output_content: str, /, *, template_name: str, config: MkDocsConfig
    ) -> str | None:
        """A theme page of its own (404.html) without Material's search worker either."""
        return drop_worker_address(output_content, config)

    # -- output --------------------------------------------------------------------------------

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        """Build into a staging folder beside ``site_dir``; a failed build never touches it."""
        if self.derived:  # a nested locale build writes into its own folder
            return
        self.build_started = time.monotonic()
        if self.serve is not None:
            self.serve.stage(config)
        else:
            self.staged = StagedSite(config)

    def _build_locales(self, *, config: MkDocsConfig) -> None:
        """From the default locale's build, build every other locale into the same site, then
        its data files, sitemaps and search index."""
        self.pages.summary = self.pages.end() + self.markdown.end()
        if self.derived or self.shared is None:
            return
        shared, bank = self.shared, self.shared.bank
        phase(self.build_started, "%s: pages built%s", shared.locale, self.pages.summary)
        site_dir = Path(config.site_dir)
        if self.serve is None:  # this locale's files and index, while the child works
            finish_locale(
                bank,
                shared.site,
                shared.locale,
                site_dir,
                self.topic_url,
                shares=self.offline,
                release=bool(self.locales.running),  # the locale process builds the rest
                store=self.store,
                last=self.last_site,
            )
        scratch = Path(tempfile.mkdtemp(prefix=".qbank-index-", dir=site_dir.parent))
        serve = self.serve
        forked = set(self.locales.running)  # locales whose data files their process wrote
        early = serve is not None and bool(forked)  # (only a first build forks)
        # the indexes serve's first build writes as under build, then takes over
        taken = {*forked, shared.locale} if self.store.enabled else forked
        # (serve's first build: background work held while it indexes, as it would share
        # this process's one running thread with the index it writes)
        with background.hold() if early else contextlib.nullcontext():
            try:
                if early and serve is not None:  # serve's first build: this locale's files
                    # and index while the child works; every index is written as under
                    # build (the others' by whichever process is free first) and taken
                    # over in the background once this build is done
                    serve.data_files(site_dir, shared, written_by_locales=forked)
                    if self.store.enabled:  # (without the cache, its documents made once)
                        write_search_index(
                            bank, shared.locale, site_dir, self.topic_url, store=self.store
                        )
                    serve.search(bank, self.topic_url, site_dir, indexed=taken)
                extra = (
                    self.locales.index_here(scratch, partial(self._index_locale, bank))
                    if serve is None or early
                    else {}
                )
                failed = self.locales.collect(
                    site_dir,
                    bank.catalog.locales[1:],
                    extra,
                    lambda locale, folder: self._build_locale(shared, locale, config, folder),
                    serve.unchanged_locale if serve else lambda locale: False,
                )
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
        if failed:
            self.locales.stop()
            raise PluginError(
                f"qbank: the build of locale(s) {', '.join(failed)} failed in the locale"
                " process (its traceback is above)"
            )
        if serve is not None and not early:  # (after the locale trees are in place)
            serve.data_files(site_dir, shared, written_by_locales=forked)
        write_locale_sitemaps(
            bank,
            Path(config.site_dir),
            config.site_url or "",
            config.use_directory_urls,
            self.options.page_size,
            shared.site.pages.keys() if serve is not None else (),  # (serve renders all)
        )
        if serve is not None and early:
            serve.take_indexes(site_dir, taken)
        elif serve is not None:
            serve.search(bank, self.topic_url, site_dir)

    def _index_locale(self, bank: Bank, locale: str, folder: Path) -> None:
        """Write ``locale``'s search index into its tree of ``folder`` (as this build's
        default locale's is written)."""
        write_search_index(
            bank,
            locale,
            folder,
            self.topic_url,
            shares=self.offline,
            store=self.store,
            last=self.last_site,
        )

    def _build_locale(
        self, shared: Shared, locale: str, config: MkDocsConfig, folder: Path, *, index: bool = True
    ) -> None:
        build_locale(
            self.handoff,
            shared,
            locale,
            config,
            folder,
            options=self.options,
            topic_url=self.topic_url,
            index=index,
            shares=self.offline,
            store=self.store,
            last=self.last_site,
            kept=lambda: self.pages.summary,
        )

    @event_priority(-100)  # after every other plugin's post_build (search indexing included)
    def _publish(self, *, config: MkDocsConfig) -> None:
        """Put the finished site in place: swapped in at once (``mkdocs build``), or the files
        this rebuild wrote moved into the served folder (``mkdocs serve``)."""
        if self.derived:
            return
        if self.serve is not None:
            write_worker(Path(config.site_dir), None)  # removes a built site's worker
            self.serve.publish(config, self.shared, self.options)
            self.store.prune(only=SERVED)  # (the first build's: serve's pages it did not use)
        elif self.staged is not None:
            if self.offline and self.shared is not None:
                started = time.monotonic()
                known = None
                if self.store.enabled and self.site_root is not None:
                    locales = self.shared.bank.catalog.locales
                    known = SiteDigests(self.store, self.site_root, locales)
                made = write_site_offline(
                    Path(config.site_dir),
                    self.shared.bank,
                    SHELL,
                    known=known,
                    write=write_file if known is None else known.write,
                )
                if known is not None:
                    known.end()
                phase(started, "offline files: build %s", made.build)
            # (a failure: on_build_error discards it) Once it is published, while the previous
            # site is removed: the near-duplicate warnings (INFO lines: never strict mode's),
            # compared while the site was built (``loading.py``; before the prune: the
            # comparison reads and writes its cache entry), then the prune of what this build
            # did not use (serve's pages kept).
            self.staged.publish(config, self.started, self._warned_and_pruned)

    def _warned_and_pruned(self) -> None:
        """What a build does once its site is published (``_publish``)."""
        self.staged = None  # (published: nothing left to discard)
        report.problems(self.loaded.warnings(), fatal=False)
        self.store.prune(spare=(SERVED,))

    on_post_build = CombinedEvent(_build_locales, _publish)

    def on_build_error(self, *, error: Exception) -> None:
        """Drop the staging folder: the previous site stays exactly as it was."""
        self.locales.stop()
        self.loaded.stop()
        if self.staged is not None:
            self.staged.discard()
            self.staged = None
        if self.serve is not None:
            self.serve.failed()

    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Any
    ) -> LiveReloadServer | None:
        """Rebuild when a question file, the catalog or a site template changes (the bank
        through file events where possible, ``watch.py``); while the bank has errors, every
        served page shows them (``banner.py``)."""
        assert self.repository is not None
        events = EventHold()

        def around(build: Callable[[], None]) -> None:  # every rebuild, however it ends
            answered = events.answered()
            try:
                build()
            finally:
                if answered is not None:
                    answered.release()
                if self.serve is not None:  # (on_config raised after the rebuild began)
                    self.serve.abandon()

        holding = internals.around_builds(server, around)
        if not watch_bank(server, self.repository.content_root, events if holding else None):
            server.watch(str(self.repository.content_root))
        server.watch(str(TEMPLATES))
        show_problems(server, lambda: self.serve.problems if self.serve else ())
        return server
