"""The search index of a site folder that one process builds again and again (``mkdocs
serve``).

The served folder is not wiped between rebuilds: ``index_site_after_build`` indexes the first
build at once and keeps each locale's index in memory (``LocaleIndex``). A rebuild that only
edited questions rewrites, before it returns, just the files those edits touched (work in
proportion to the edit, not the bank); one that added, removed or moved questions has
that locale rebuilt from scratch by one background worker and swapped in whole with
``qbank.site.output`` (the same atomic swap as the site), while the previous index stays served.
Either way the folder ends up byte for byte what ``write_index`` writes for the same
documents.
"""

from __future__ import annotations

import itertools
import logging
import operator
import shutil
import threading
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from qbank.live import background
from qbank.search.documents import SearchDoc
from qbank.search.index import (
    INDEX_DIR,
    IndexReport,
    LocaleIndex,
    SearchIndexError,
    write_files,
)
from qbank.site import output as publish

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LaterDocs:
    """A locale's documents, made when the worker needs them (``make``), and how many there
    will be: a serve process whose index files another process wrote makes their documents
    in the background, after its first build (at 30,000 questions x 3 the documents of every
    locale took 24 s of that build's CPU)."""

    count: int
    make: Callable[[], list[SearchDoc]]

    def __len__(self) -> int:
        return self.count


Docs = list[SearchDoc] | LaterDocs
"""A locale's documents, or their maker (``LaterDocs``)."""


@dataclass
class _Served:
    """A locale's index as served: the documents it was made from, and its state."""

    docs: list[SearchDoc]
    index: LocaleIndex


class LiveIndex:
    """The index of one site folder that one process builds again and again (``mkdocs serve``).

    The served folder is never wiped between rebuilds, so the index files stay where they are
    and only what an edit changes is written again:

    - ``first`` writes every locale's index at once and keeps its ``LocaleIndex`` and the
      documents it was made from; a locale whose index files are already there (another
      process wrote them from the same documents: the first serve build's locale process)
      is queued instead, and the worker makes its state without writing anything.
    - ``rebuilt``, per locale: when the documents are the same questions in the same order
      (same count, same URLs), the changed ones (``is not``, then ``!=``: the plugin hands
      back the very same ``SearchDoc`` for an unchanged question) are replaced in the state
      and only the touched files are rewritten, each in one rename, before ``rebuilt``
      returns (work in proportion to the edit). Otherwise (questions added,
      removed or moved) the locale is queued for a full rebuild.
    - One background worker runs the queue: it makes the locale's index from scratch, writes it
      into a fresh folder beside ``api/search`` and swaps it in, so search keeps answering
      from the previous index meanwhile. A newer call for a queued locale replaces its
      documents (the latest win); while a locale is queued or being rebuilt the worker owns
      it, and a later edit goes through the queue too and is applied after the rebuild
      (incrementally, against the rebuilt state), never racing it.
    - A write that fails drops the locale's state: the next update rebuilds it from scratch.

    ``wait`` returns once the worker is idle (for tests and tools).

    Who writes what (two threads share this object): ``served[locale]`` is written by the
    thread that owns the locale: the worker while the locale is in ``pending`` or is
    ``running``, else the one thread that calls ``first`` and ``rebuilt`` (the rebuilding
    thread: MkDocs' main thread, the watch loop); ``rebuilt`` checks which under ``lock``, and
    only that caller queues work, so a locale it found free stays its own until it queues
    it. ``pending``, ``running``, ``adopting`` and ``worker`` are read and written under
    ``lock`` only.
    """

    def __init__(self, site_dir: Path) -> None:
        self.site_dir = site_dir
        self.served: dict[str, _Served] = {}
        self.lock = threading.Lock()
        self.idle = threading.Condition(self.lock)
        self.pending: dict[str, Docs | None] = {}  # None: remove the locale's index
        self.running: str | None = None  # the locale the worker is on
        self.worker: threading.Thread | None = None
        # queued locales whose files on disk are already those of their queued documents
        self.adopting: set[str] = set()
        # the files ``first`` and ``rebuilt`` wrote before they returned (relative to
        # ``site_dir``; the worker's rebuilds are logged instead), for a caller's report
        self.wrote: list[str] = []

    def folder(self, locale: str) -> Path:
        """Where ``locale``'s index is served."""
        return self.site_dir / locale / INDEX_DIR

    def first(self, docs: Mapping[str, Docs], written: Collection[str] = ()) -> IndexReport:
        """Index the first build synchronously and keep each locale's state for the rebuilds;
        the locales of ``written`` (their files already there) get their state from the
        worker, which makes their documents too where they are ``LaterDocs`` (the others'
        must be lists)."""
        for locale, locale_docs in docs.items():
            if locale in written:
                with self.lock:
                    self._queue_locked(locale, locale_docs)
                    self.adopting.add(locale)
                continue
            assert not isinstance(locale_docs, LaterDocs), "only an index written may wait"
            output = self.folder(locale)
            index = LocaleIndex.build(locale_docs, locale)
            try:
                if output.exists():
                    shutil.rmtree(output)
                write_files(self._noted(locale, index.files()), output)
                index.unpack()  # (now, rather than at the first edit)
            except OSError as error:
                raise SearchIndexError(
                    f"the search index could not be written to {output}: {error}"
                ) from None
            self.served[locale] = _Served(list(locale_docs), index)
        return IndexReport.of(docs)

    def _noted(
        self, locale: str, files: Iterable[tuple[str, bytes]]
    ) -> Iterator[tuple[str, bytes]]:
        for path, data in files:
            self.wrote.append(f"{locale}/{INDEX_DIR}/{path}")
            yield path, data

    def rebuilt(self, docs: Mapping[str, Docs]) -> None:
        """Bring every locale's index up to ``docs``: edits at once, the rest queued (and
        ``LaterDocs``: their documents are not made yet, the worker makes them)."""
        with self.lock:
            known = self.served.keys() | self.pending.keys() | {self.running}
        gone = {locale for locale in known if locale is not None} - docs.keys()
        for locale in sorted(gone):
            self._queue(locale, None)
        for locale, locale_docs in docs.items():
            with self.lock:
                if (
                    locale in self.pending
                    or locale == self.running  # the worker owns it
                    or isinstance(locale_docs, LaterDocs)
                ):
                    self._queue_locked(locale, locale_docs)
                    continue
            if not self._update(locale, locale_docs):
                self._queue(locale, locale_docs)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until no rebuild is queued or running; False if ``timeout`` passed first."""
        with self.idle:
            return self.idle.wait_for(lambda: not self.pending and self.running is None, timeout)

    def _queue(self, locale: str, docs: Docs | None) -> None:
        with self.lock:
            self._queue_locked(locale, docs)

    def _queue_locked(self, locale: str, docs: Docs | None) -> None:
        self.adopting.discard(locale)  # (newer documents than the files on disk)
        self.pending[locale] = docs if docs is None or isinstance(docs, LaterDocs) else list(docs)
        if self.worker is None:
            self.worker = threading.Thread(target=self._work, name="qbank-search", daemon=True)
            self.worker.start()

    def _work(self) -> None:
        """The worker: run the queue until it is empty, one locale at a time."""
        while True:
            with self.lock:
                if not self.pending:
                    self.worker = None
                    self.idle.notify_all()
                    return
                locale = next(iter(self.pending))
                docs = self.pending.pop(locale)
                adopt = locale in self.adopting
                self.adopting.discard(locale)
                self.running = locale
            try:
                if isinstance(docs, LaterDocs):
                    docs = docs.make()
                if adopt and docs is not None:
                    self._adopt(locale, docs)
                elif docs is None:
                    self.served.pop(locale, None)
                    shutil.rmtree(self.folder(locale), ignore_errors=True)
                elif not self._update(locale, docs):
                    self._rebuild(locale, docs)
            except Exception:  # a bug must not stall the queue; the next update starts afresh
                self.served.pop(locale, None)
                log.exception("qbank: the search index of %s could not be rebuilt", locale)
            finally:
                with self.lock:
                    self.running = None

    def _update(self, locale: str, docs: list[SearchDoc]) -> bool:
        """Apply edits of the same questions to ``locale``'s index at once; False when a full
        rebuild is needed (no state, questions added, removed or moved, or a failed write)."""
        served = self.served.get(locale)
        if served is None or len(served.docs) != len(docs):
            return False
        edits = []
        # The plugin hands back the very same document for an unchanged question: compare
        # the others (found by identity, in C: a pass over every document costs next to
        # nothing beside the rewrite).
        for number in itertools.compress(
            itertools.count(), map(operator.is_not, served.docs, docs)
        ):
            old, new = served.docs[number], docs[number]
            if old.url != new.url:
                return False
            if old != new:
                edits.append((number, old, new))
        if not edits:
            served.docs = list(docs)
            return True
        try:
            changes = served.index.replace(edits)
            served.docs = list(docs)
            folder = self.folder(locale)
            for path, data in served.index.changed_files(changes):
                if data is None:
                    (folder / path).unlink(missing_ok=True)
                else:
                    publish.replace_file(folder / path, data)
                    self.wrote.append(f"{locale}/{INDEX_DIR}/{path}")
        except OSError as error:
            del self.served[locale]
            log.warning("qbank: search index of %s: %s; rebuilding it", locale, error)
            return False
        log.debug("qbank: search index of %s: %d question(s) updated", locale, len(edits))
        return True

    def _adopt(self, locale: str, docs: list[SearchDoc]) -> None:
        """Make the state of ``locale``'s index, whose files on disk another process wrote
        from ``docs``, without writing them again (gives way to rebuilds)."""
        index = LocaleIndex.build(background.paced(docs), locale, background.paced)
        index.unpack(background.paced)
        self.served[locale] = _Served(docs, index)
        log.debug("qbank: search index of %s taken over (%d questions)", locale, len(docs))

    def _rebuild(self, locale: str, docs: list[SearchDoc]) -> None:
        """Make ``locale``'s index from scratch and swap it in for the served one."""
        self.served.pop(locale, None)  # the old state is of no use now: free it first
        # (gives way to rebuilds)
        index = LocaleIndex.build(background.paced(docs), locale, background.paced)
        target = self.folder(locale)
        target.parent.mkdir(parents=True, exist_ok=True)
        fresh = publish.stage(target)
        try:
            write_files(background.paced(index.files(), 8), fresh)
            publish.publish(fresh, target)
            index.unpack(background.paced)
        except OSError as error:
            log.warning("qbank: search index of %s could not be rebuilt: %s", locale, error)
            return
        finally:
            shutil.rmtree(fresh, ignore_errors=True)  # the old index, or the failed new one
        self.served[locale] = _Served(docs, index)
        log.info("qbank: search index of %s rebuilt (%d questions)", locale, len(docs))


_live: dict[Path, LiveIndex] = {}


def index_site_after_build(
    site_dir: Path, docs: Mapping[str, Docs], written: Collection[str] = ()
) -> IndexReport | None:
    """Index a just-built site (``docs`` by locale). The first build of a folder in this
    process is indexed at once (returns the report), but the locales of ``written``, whose
    index was written there from the same documents: their state (and where their documents
    are ``LaterDocs``, those) is made in the background. A rebuild of the same folder
    (``mkdocs serve``) updates the index in place: edits at once, added, removed or moved
    questions in the background (None; see ``LiveIndex``)."""
    key = site_dir.resolve()
    live = _live.get(key)
    if live is None:
        live = LiveIndex(key)
        report = live.first(docs, written)
        _live[key] = live
        return report
    live.rebuilt(docs)
    return None


def live_index(site_dir: Path) -> LiveIndex | None:
    """The rebuild state of a site folder indexed by this process, if any."""
    return _live.get(site_dir.resolve())
