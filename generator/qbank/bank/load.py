"""The bank: every question file checked against the catalog and the others, then indexed.

``load_bank`` collects every problem of every file in one run and raises one
``ContentError``; a bank that loads is complete and consistent, so the renderer and the
exporters never have to check anything again.

The stages live in their own modules: ``catalog`` (catalog.yaml), ``listing`` (the question
files), ``rules`` (one file's rules), ``crossfile`` (rules between files), ``similarity``
(near-duplicate prompts) and ``parallel`` (the second process). A load under ``mkdocs
serve`` goes through the same stages with what ``qbank.live`` kept from the last one.
"""

from __future__ import annotations

import atexit
import gc
import operator
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import chain
from pathlib import Path
from typing import Protocol

from qbank.bank.catalog import (
    CATALOG_FILE,
    catalog_topics,
    default_locale,
    read_catalog,
)
from qbank.bank.crossfile import FoundBank, LaterLookalikes, check_cross_file
from qbank.bank.listing import QuestionFile, question_files
from qbank.bank.loaded import Bank, Entry
from qbank.bank.model import Catalog
from qbank.bank.parallel import SecondProcess, check_files
from qbank.bank.problems import ContentError, Problem, Severity, display_path, errors_in
from qbank.bank.progress import Report, no_progress
from qbank.bank.rules import Checked, Found, QuestionChecker
from qbank.bank.yamlfile import Document

INCREMENTAL_UP_TO = 300  # more changed questions than this: a serve load checks in full


# ---------------------------------------------------------------------------------------------
# Loading


class Kept(Protocol):
    """What a load under ``mkdocs serve`` is given to reuse (``qbank.live``'s
    ``BankCache``): the stages of a load that use it."""

    def loading(self) -> Loading:
        """The stages of a load reusing what this holds."""
        ...


def load_bank(
    root: Path,
    cache: Kept | None = None,
    progress: Report = no_progress,
    lookalikes: LaterLookalikes | None = None,
) -> Bank:
    """Load and check the bank at ``root``; raise ``ContentError`` listing every error.

    With ``cache`` (kept across ``mkdocs serve`` rebuilds), unchanged question files are not
    read again and what was computed over the whole bank is updated, not computed again;
    the result is the same as without it. With ``lookalikes``, the near-duplicate warnings
    of a bank without errors are not in the bank's: ``lookalikes.problems(helper)`` gives
    them.
    """
    bank, problems = check_bank(root, cache, progress, lookalikes)
    if bank is None or errors_in(problems):
        raise ContentError(problems)
    return bank


def check_bank(
    root: Path,
    cache: Kept | None = None,
    progress: Report = no_progress,
    lookalikes: LaterLookalikes | None = None,
) -> tuple[Bank | None, list[Problem]]:
    """Load the bank and return it (None when it has errors) with every problem found (with
    ``lookalikes``, a bank's near-duplicate warnings only when it has errors)."""
    root = Path(root)
    loading = Loading() if cache is None else cache.loading()
    loading.lookalikes = lookalikes
    with gc_paused():
        catalog, checked, problems = _check_all(root, loading, progress, keep_entries=True)
        if catalog is None or errors_in(problems):
            if lookalikes is not None:
                with SecondProcess() as helper:
                    problems += lookalikes.problems(helper)
            return None, problems
        entries: list[Entry] = list(filter(None, map(_ENTRY, checked)))
        entries = loading.order(catalog, entries)
    warnings = tuple(p for p in problems if p.severity is Severity.WARNING)
    return Bank(root, catalog, tuple(entries), warnings), problems


def validate_bank(root: Path, progress: Report = no_progress) -> tuple[int, list[Problem]]:
    """Every problem of the bank at ``root`` (what ``check_bank`` finds) and the number of
    questions that passed their own checks, without keeping the questions: what
    ``qbank validate`` needs, in less time and memory than loading the bank."""
    _catalog, checked, problems = _check_all(Path(root), Loading(), progress, keep_entries=False)
    return sum(1 for _, found, _ in checked if found is not None), problems


class Loading:
    """How a load gets through each stage: here from scratch. ``qbank.live`` has
    the same stages reuse what the previous load under ``mkdocs serve`` computed."""

    lookalikes: LaterLookalikes | None = None  # where the near-duplicate comparison waits

    def catalog(self, root: Path) -> tuple[Document, Catalog | None]:
        """``catalog.yaml``, read and checked."""
        return read_catalog(root)

    def files(
        self, root: Path, catalog: Catalog | None, problems: list[Problem]
    ) -> list[QuestionFile]:
        """The question files (``listing.question_files``)."""
        return question_files(root, catalog, problems)[0]

    def checked(
        self,
        checker: QuestionChecker,
        files: list[QuestionFile],
        helper: SecondProcess,
        progress: Report = no_progress,
    ) -> list[Checked]:
        """Every question file's result, in order."""
        return check_files(checker, files, helper, progress)

    def cross_file(self, bank: FoundBank, helper: SecondProcess) -> list[Problem]:
        """The problems between files (``crossfile``)."""
        return check_cross_file(bank, helper, self.lookalikes)

    def order(self, catalog: Catalog, entries: list[Entry]) -> list[Entry]:
        """The entries in display order (``display_key``)."""
        return sorted(entries, key=display_key(catalog))


def display_key(catalog: Catalog) -> Callable[[Entry], tuple[int, int, int, str]]:
    """The display order of entries: by topic (catalog order), seniority, difficulty and
    slug. No two entries have the same key (one file per slug in a topic folder)."""
    order = {key: i for i, key in enumerate(catalog.seniorities)}
    topic_order = {(f, t): i for i, (f, _s, t) in enumerate(catalog_topics(catalog))}

    def key(e: Entry) -> tuple[int, int, int, str]:
        return (
            topic_order[e.field, e.topic],
            order[e.seniorities[0]],
            e.question.difficulty or 0,
            e.slug,
        )

    return key


def no_catalog(root: Path) -> Problem:
    """The problem of a content folder without catalog.yaml (the wrong folder, or no bank)."""
    return Problem(
        display_path(root / CATALOG_FILE),
        1,
        1,
        "",
        "the bank has no catalog.yaml",
        "a content folder holding catalog.yaml: run qbank in your bank's folder, or name "
        "the content folder with --content DIR",
    )


def _check_all(
    root: Path, loading: Loading, progress: Report, *, keep_entries: bool
) -> tuple[Catalog | None, list[Checked], list[Problem]]:
    """The catalog, every question file's result, and every problem of the bank."""
    catalog_doc, catalog = loading.catalog(root)
    problems: list[Problem] = list(catalog_doc.problems)
    if not (root / CATALOG_FILE).exists():
        problems = [no_catalog(root)]
    locale = default_locale(catalog_doc, catalog)
    checker = QuestionChecker(root, catalog, locale, make_entry=Entry if keep_entries else None)
    files = loading.files(root, catalog, problems)
    with gc_paused(), SecondProcess() as helper:
        checked = loading.checked(checker, files, helper, progress)
        problems.extend(chain.from_iterable(map(_PROBLEMS, checked)))
        if catalog is None:
            return None, checked, problems
        found: list[Found] = list(filter(None, map(_FOUND, checked)))
        progress("cross-file checks", 0, 0)
        problems += loading.cross_file(FoundBank(root, catalog, catalog_doc, found), helper)
    return catalog, checked, problems


# Parts of a Checked, taken in C loops (a load under serve goes through every file's
# result; Python loops over 30,000 of them add up).
_PROBLEMS = operator.itemgetter(0)
_FOUND = operator.itemgetter(1)
_ENTRY = operator.itemgetter(2)


def no_collection_at_exit() -> None:
    """At this process's exit, no cyclic garbage collection over what it holds: Python ends
    with a full collection that walks every object left (a bank of 30,000 questions x 3
    locales and its site: 1.3-2.4 s at the end of each ``mkdocs build``), though nothing is
    freed for anyone once the process is gone. The objects are frozen (``gc.freeze``) by an
    exit handler, after the handlers registered later and before the final collection."""
    atexit.unregister(gc.freeze)  # (once a process, however often asked)
    atexit.register(gc.freeze)


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while the bank is checked.

    Checking builds hundreds of thousands of short-lived objects and keeps many; the
    collector would walk the kept ones again and again, a cost that grows with the bank,
    and would find almost nothing, as checking makes no reference cycles worth collecting.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
