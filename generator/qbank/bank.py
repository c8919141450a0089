"""The bank: every question file checked against the catalog and the others, then indexed.

``load_bank`` collects every problem of every file in one run and raises one
``ContentError``; a bank that loads is complete and consistent, so the renderer and the
exporters never have to check anything again.
"""

from __future__ import annotations

import bisect
import gc
import math
import multiprocessing
import operator
import os
import re
import time
import unicodedata
from array import array
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain, compress, count, repeat
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, cast

from qbank.cache import FileCache, Stamp, stamp
from qbank.loader import Document, Path_, read_document, validate_model
from qbank.model import (
    DIFFICULTY_SENIORITY,
    OPTION_KEYS,
    SLUG_PATTERN,
    TEXT_FIELDS,
    Catalog,
    FieldOfWork,
    Question,
)
from qbank.problems import ContentError, Problem, Severity, display_path, errors_in
from qbank.progress import Report, no_progress
from qbank.safety import local_images, unsafe_parts
from qbank.translations import stale_problems

if TYPE_CHECKING:
    import numpy as np

    IntArray = np.ndarray[Any, np.dtype[np.int64]]

CATALOG_FILE = "catalog.yaml"
NEAR_DUPLICATE_THRESHOLD = 0.9
_SLUG = re.compile(SLUG_PATTERN)
T = TypeVar("T")


@dataclass(frozen=True)
class Entry:
    """A question placed in the bank: the model plus where it lives and what it resolves to."""

    question: Question
    file: str  # relative to the content root, e.g. "ml-engineer/throughput/step-phases.yaml"
    field: str
    specialization: str
    topic: str
    slug: str
    seniorities: tuple[str, ...]
    locales: tuple[str, ...]  # the locales the question exists in, in catalog order
    digest: str  # hash of the file's bytes

    @property
    def id(self) -> str:
        """The question's permanent id."""
        return self.question.id


@dataclass(frozen=True)
class Bank:
    """A validated bank: the catalog, the questions in display order, and the warnings."""

    root: Path
    catalog: Catalog
    entries: tuple[Entry, ...]
    warnings: tuple[Problem, ...] = ()
    _cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @cached_property
    def by_topic(self) -> Mapping[tuple[str, str], tuple[Entry, ...]]:
        """Questions per (field, topic), in display order; every catalog topic is present."""
        groups: dict[tuple[str, str], list[Entry]] = {(f, t): [] for f, _s, t in self.topics()}
        for entry in self.entries:
            groups[entry.field, entry.topic].append(entry)
        return {key: tuple(items) for key, items in groups.items()}

    @cached_property
    def by_id(self) -> Mapping[str, Entry]:
        """Questions by id."""
        return {entry.id: entry for entry in self.entries}

    def topics(self) -> Iterator[tuple[str, str, str]]:
        """Every (field, specialization, topic) in catalog order."""
        for field_key, field_ in self.catalog.fields.items():
            for spec_key, spec in field_.specializations.items():
                for topic_key in spec.topics:
                    yield field_key, spec_key, topic_key

    def field_entries(self, field_key: str) -> list[Entry]:
        """A field's questions in display order (its topics' questions one topic after the
        other: the display order sorts by topic in catalog order first)."""
        by_topic = self.by_topic
        return [e for f, _s, t in self.topics() if f == field_key for e in by_topic[f, t]]

    def name(self, texts: Mapping[str, str], locale: str) -> str:
        """A catalog name in ``locale``, falling back to the default locale."""
        return (
            texts.get(locale)
            or texts.get(self.catalog.default_locale)
            or next(iter(texts.values()), "")
        )


def text_in(texts: Mapping[str, str] | None, locale: str) -> str | None:
    """A question text in one locale (questions never fall back: they are translated whole)."""
    return None if texts is None else texts.get(locale)


# ---------------------------------------------------------------------------------------------
# Loading


def load_bank(
    root: Path, cache: FileCache[Checked] | None = None, progress: Report = no_progress
) -> Bank:
    """Load and check the bank at ``root``; raise ``ContentError`` listing every error.

    With ``cache`` (kept across ``mkdocs serve`` rebuilds), unchanged question files are not
    read again; the cross-file checks always run on the whole bank.
    """
    bank, problems = check_bank(root, cache, progress)
    if bank is None or errors_in(problems):
        raise ContentError(problems)
    return bank


def load_catalog(root: Path) -> Catalog:
    """Only ``catalog.yaml``; raise ``ContentError`` when it has errors."""
    path = Path(root) / CATALOG_FILE
    doc = read_document(path, display_path(path))
    catalog = _load_catalog(doc)
    if catalog is None:
        raise ContentError(
            doc.problems or [Problem(doc.display, 1, 1, "", "no catalog", "a valid catalog.yaml")]
        )
    return catalog


def check_bank(
    root: Path, cache: FileCache[Checked] | None = None, progress: Report = no_progress
) -> tuple[Bank | None, list[Problem]]:
    """Load the bank and return it (None when it has errors) with every problem found."""
    root = Path(root)
    with _gc_paused():
        catalog, checked, problems = _check_all(root, cache, progress, keep_entries=True)
        if catalog is None or errors_in(problems):
            return None, problems
        entries: list[Entry] = list(filter(None, map(_ENTRY, checked)))
        entries = _display_order(catalog, entries, cache.derived if cache is not None else None)
    warnings = tuple(p for p in problems if p.severity is Severity.WARNING)
    return Bank(root, catalog, tuple(entries), warnings), problems


_ORDER = "bank.order"  # the last bank's entries as listed and in display order (FileCache.derived)


def _display_order(
    catalog: Catalog, entries: list[Entry], memory: dict[str, object] | None
) -> list[Entry]:
    """The entries by topic (catalog order), seniority, difficulty and slug.

    No two entries have the same key (one file per slug in a topic folder), so the order is
    fully determined: with ``memory``, when the listing has the same length as before, the
    previous load's order is kept, the entries of files checked again (other objects at
    their place in the listing) taken out and the new ones inserted in place, which gives
    what sorting all of them gives.
    """
    order = {key: i for i, key in enumerate(catalog.seniorities)}
    topic_order = {(f, t): i for i, (f, _s, t) in enumerate(_catalog_topics(catalog))}

    def key(e: Entry) -> tuple[int, int, int, str]:
        return (
            topic_order[e.field, e.topic],
            order[e.seniorities[0]],
            e.question.difficulty or 0,
            e.slug,
        )

    kept = memory.pop(_ORDER, None) if memory is not None else None
    result = None
    if isinstance(kept, tuple) and len(kept[0]) == len(entries):
        result = _reordered(kept[0], kept[1], entries, key)
    if result is None:
        result = sorted(entries, key=key)
    if memory is not None:
        memory[_ORDER] = (entries, result)
    return result


def validate_bank(root: Path, progress: Report = no_progress) -> tuple[int, list[Problem]]:
    """Every problem of the bank at ``root`` (what ``check_bank`` finds) and the number of
    questions that passed their own checks, without keeping the questions: what
    ``qbank validate`` needs, in less time and memory than loading the bank."""
    _catalog, checked, problems = _check_all(Path(root), None, progress, keep_entries=False)
    return sum(1 for _, found, _ in checked if found is not None), problems


def _check_all(
    root: Path, cache: FileCache[Checked] | None, progress: Report, *, keep_entries: bool
) -> tuple[Catalog | None, list[Checked], list[Problem]]:
    """The catalog, every question file's result, and every problem of the bank."""
    problems: list[Problem] = []
    catalog_doc, catalog = _read_catalog(root, cache)
    problems += catalog_doc.problems
    if not (root / CATALOG_FILE).exists():
        problems = [
            Problem(
                display_path(root / CATALOG_FILE),
                1,
                1,
                "",
                "the bank has no catalog.yaml",
                "a content folder holding catalog.yaml (see `qbank new`)",
            )
        ]
    default_locale = catalog.default_locale if catalog else _raw_default_locale(catalog_doc)
    checker = _QuestionChecker(root, catalog, default_locale, keep_entries=keep_entries)
    memory = None
    if cache is not None:
        cache.use_context((stamp(root / CATALOG_FILE), default_locale))
        memory = cache.derived
    files = _question_files(root, catalog, problems, memory)
    with _gc_paused(), _SecondProcess() as helper:
        checked = _check_files_cached(checker, files, cache, helper, progress)
        problems.extend(chain.from_iterable(map(_PROBLEMS, checked)))
        if catalog is None:
            return None, checked, problems
        found: list[Found] = list(filter(None, map(_FOUND, checked)))
        progress("cross-file checks", 0, 0)
        problems += _cross_file_problems(root, catalog, catalog_doc, found, helper, memory)
    return catalog, checked, problems


def _reordered(
    before: list[Entry],
    ordered: list[Entry],
    entries: list[Entry],
    key: Callable[[Entry], tuple[int, int, int, str]],
) -> list[Entry] | None:
    """``entries`` in order, from the previous load's listing (``before``, as long) and its
    order (``ordered``): an edit keeps every file's place in the listing, so only the places
    holding another entry (files checked again) are looked at. None when too many changed."""
    differ = list(compress(count(), map(operator.is_not, before, entries)))
    if len(differ) > INCREMENTAL_UP_TO:
        return None
    result = list(ordered)
    for n in differ:
        at = bisect.bisect_left(result, key(before[n]), key=key)
        if at == len(result) or result[at] is not before[n]:
            return None
        del result[at]
    for n in differ:
        bisect.insort(result, entries[n], key=key)
    return result


_CATALOG = "bank.catalog"  # the catalog's key in FileCache.derived
# Parts of a Checked and of a QuestionFile, taken in C loops (a load under serve goes
# through every file's result; Python loops over 30,000 of them add up).
_PROBLEMS = operator.itemgetter(0)
_FOUND = operator.itemgetter(1)
_ENTRY = operator.itemgetter(2)
_PATH = operator.itemgetter(0)


def _read_catalog(root: Path, cache: FileCache[Checked] | None) -> tuple[Document, Catalog | None]:
    """``catalog.yaml`` read and checked; with ``cache``, kept while its stamp holds (unless
    it changed in the last seconds, as a change within one clock tick keeps the stamp)."""
    path = root / CATALOG_FILE
    current = stamp(path) if cache is not None else None
    if cache is not None and current is not None:
        kept = cache.derived.get(_CATALOG)
        if isinstance(kept, tuple) and kept[0] == current:
            return kept[1], kept[2]
    doc = read_document(path, display_path(path))
    catalog = _load_catalog(doc)
    if cache is not None and current is not None and current[0] < time.time_ns() - _RECENT_NS:
        cache.derived[_CATALOG] = (current, doc, catalog)
    return doc, catalog


@contextmanager
def _gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while the bank is checked.

    Checking builds hundreds of thousands of short-lived objects and keeps many; the
    collector would walk the kept ones again and again (about a tenth of the time) and
    would find almost nothing, as checking makes no reference cycles worth collecting.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# Files per chunk taken by either process, and the bank size from which a second process is
# used: below it, starting one costs more than it saves.
_CHUNK = 250
PARALLEL_FROM = 2000

QuestionFile = tuple[str, str, str, str]  # path, display path, field, topic
# locale -> hash of the normalized prompt, hashes of its tokens packed (8 bytes a token,
# cheap to send between processes; the helper is forked, so hashes agree).
PromptKeys = dict[str, tuple[int, "array[int]"]]
Checked = tuple[list[Problem], "Found | None", "Entry | None"]


class Found(NamedTuple):
    """What the cross-file checks need of a question that passed its own checks."""

    id: str
    file: str  # relative to the content root
    field: str
    topic: str
    prompts: PromptKeys


class _SecondProcess:
    """One forked helper process, started by the first large piece of work (the file
    checks or the near-duplicate join of a large bank) and shared by the later ones; where
    forking is not possible, everything runs in this process."""

    def __init__(self) -> None:
        self.pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> _SecondProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
            self.pool = None

    def start(self) -> ProcessPoolExecutor | None:
        """The helper's pool (None where forking is not possible). A new pool forks the
        helper at its first task, which then inherits this process's module globals."""
        if self.pool is None and _can_fork():
            self.pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("fork")
            )
        return self.pool


def _check_files_cached(
    checker: _QuestionChecker,
    files: list[QuestionFile],
    cache: FileCache[Checked] | None,
    helper: _SecondProcess,
    progress: Report,
) -> list[Checked]:
    """``_check_files``, reusing the cached result of every file whose stamp is unchanged."""
    if cache is None:
        return _check_files(checker, files, helper, progress)
    paths = list(map(_PATH, files))
    cache.keep_only(set(paths))
    stamps, results = cache.lookup(paths)
    missing = list(compress(count(), map(operator.is_, results, repeat(None))))
    checked_files = _check_files(checker, [files[n] for n in missing], helper, progress)
    for n, checked in zip(missing, checked_files, strict=True):
        if _self_contained(checked):
            cache.put(files[n][0], stamps[n], checked)
        results[n] = checked
    return cast(list[Checked], results)  # every None replaced


def _self_contained(checked: Checked) -> bool:
    """Whether a file's result depends on nothing but the file and the catalog.

    A question that refers to an image (which can appear or vanish on its own), or one that
    failed its checks, is checked again on every load.
    """
    entry = checked[2]
    if entry is None:
        return False
    return not any(
        "![" in text and local_images(text)
        for _, texts in _texts(entry.question)
        for text in texts.values()
    )


# What the helper process inherits when it is forked for the file checks: the checker, the
# files and the shared number of the next chunk to check.
_shared_work: tuple[_QuestionChecker, list[QuestionFile], Any] | None = None


def _check_next_chunk() -> tuple[int, list[Checked]] | None:
    """Check the next unchecked chunk of ``_shared_work``: its number and results, or None
    when every chunk is taken."""
    assert _shared_work is not None
    checker, files, next_chunk = _shared_work
    n = _take(next_chunk)
    if n * _CHUNK >= len(files):
        return None
    return n, [checker.check(*item) for item in files[n * _CHUNK : (n + 1) * _CHUNK]]


def _take(counter: Any) -> int:
    with counter.get_lock():
        n: int = counter.value
        counter.value = n + 1
    return n


def _check_files(
    checker: _QuestionChecker, files: list[QuestionFile], helper: _SecondProcess, progress: Report
) -> list[Checked]:
    """Every file's result, in order; a large bank is split between this process and the
    forked helper.

    Parsing and validating are CPU-bound and independent per file. Both processes take
    the next unchecked chunk of files from a shared counter until none is left, so they
    finish together however busy either core is.
    """
    global _shared_work
    progress("checking files", 0, len(files))
    pool = helper.start() if len(files) >= PARALLEL_FROM else None
    if pool is None:
        checked: list[Checked] = []
        for start in range(0, len(files), _CHUNK):
            checked += [checker.check(*item) for item in files[start : start + _CHUNK]]
            progress("checking files", len(checked), len(files))
        return checked
    next_chunk = multiprocessing.get_context("fork").Value("q", 0)
    _shared_work = (checker, files, next_chunk)
    chunks: dict[int, list[Checked]] = {}
    try:
        # The first task forks the helper, which inherits _shared_work. One task a chunk,
        # so that results come back (and are unpickled here) while both are still checking.
        theirs = [pool.submit(_check_next_chunk) for _ in range(0, len(files), _CHUNK)]
        while (mine := _check_next_chunk()) is not None:
            chunks[mine[0]] = mine[1]
            finished = len(chunks) + sum(future.done() for future in theirs)
            progress("checking files", min(finished * _CHUNK, len(files)), len(files))
        for future in theirs:
            if (done := future.result()) is not None:
                chunks[done[0]] = done[1]
        progress("checking files", len(files), len(files))
    finally:
        _shared_work = None
    return [result for n in sorted(chunks) for result in chunks[n]]


def _raw_default_locale(doc: Document) -> str:
    data = doc.data if isinstance(doc.data, dict) else {}
    locales = data.get("locales")
    if isinstance(locales, list) and locales and isinstance(locales[0], str):
        return locales[0]
    return "en"


def _catalog_topics(catalog: Catalog) -> Iterator[tuple[str, str, str]]:
    for field_key, field_ in catalog.fields.items():
        for spec_key, spec in field_.specializations.items():
            for topic_key in spec.topics:
                yield field_key, spec_key, topic_key


def _catalog_keys(key: Path_) -> str:
    depth = len(key)
    if depth == 0:
        return "one of title, locales, seniorities, fields"
    if key[0] == "fields" and depth == 2:
        return "name, specializations"
    if key[0] == "fields" and depth == 4:
        return "name, topics"
    if key[0] == "fields" and depth == 6:
        return "name"
    return "a known key"


def _load_catalog(doc: Document) -> Catalog | None:
    if doc.problems:
        return None
    if not isinstance(doc.data, dict):
        doc.problems.append(
            doc.problem(
                (), "the catalog must be a mapping", "keys title, locales, seniorities, fields"
            )
        )
        return None
    context = {"default_locale": _raw_default_locale(doc)}
    catalog = validate_model(doc, Catalog, context, _catalog_keys)
    if catalog is None:
        return None
    locales = set(catalog.locales)
    known = ", ".join(catalog.locales)
    for key, texts in _catalog_texts(catalog):
        for locale in texts:
            if locale not in locales:
                doc.problems.append(
                    doc.problem(
                        (*key, locale),
                        f"unknown locale {locale!r}",
                        f"one of the catalog's locales: {known}",
                    )
                )
        if catalog.default_locale not in texts:
            doc.problems.append(
                doc.problem(
                    key,
                    f"no name in the default locale {catalog.default_locale!r}",
                    f"a {catalog.default_locale} entry, which other locales fall back to",
                )
            )
    seen: dict[tuple[str, str], str] = {}
    for field_key, spec_key, topic_key in _catalog_topics(catalog):
        if (field_key, topic_key) in seen:
            doc.problems.append(
                doc.problem(
                    ("fields", field_key, "specializations", spec_key, "topics", topic_key),
                    f"topic {topic_key!r} is already in specialization "
                    f"{seen[field_key, topic_key]!r} of this field",
                    "topic keys unique within a field (the folder is <field>/<topic>/)",
                )
            )
        seen[field_key, topic_key] = spec_key
    if len(set(catalog.locales)) != len(catalog.locales):
        doc.problems.append(
            doc.problem(("locales",), "a locale is listed twice", "each locale once")
        )
    return None if doc.problems else catalog


def _catalog_texts(catalog: Catalog) -> Iterator[tuple[Path_, Mapping[str, str]]]:
    yield ("title",), catalog.title
    for key, names in catalog.seniorities.items():
        yield ("seniorities", key), names
    for field_key, field_ in catalog.fields.items():
        yield ("fields", field_key, "name"), field_.name
        for spec_key, spec in field_.specializations.items():
            yield ("fields", field_key, "specializations", spec_key, "name"), spec.name
            for topic_key, topic in spec.topics.items():
                yield (
                    ("fields", field_key, "specializations", spec_key, "topics", topic_key, "name"),
                    topic.name,
                )


def valid_topics_hint(catalog: Catalog | None, field_key: str | None = None) -> str:
    """The folders a question may live in, for a hint."""
    if catalog is None:
        return "<field>/<topic>/<slug>.yaml under a topic of catalog.yaml"
    fields: Iterable[tuple[str, FieldOfWork]] = catalog.fields.items()
    if field_key in catalog.fields:
        fields = [(field_key, catalog.fields[field_key])]
    folders = [
        f"{f}/{t}/"
        for f, field_ in fields
        for s in field_.specializations.values()
        for t in s.topics
    ]
    shown = ", ".join(folders[:12]) + (f" … ({len(folders)} in all)" if len(folders) > 12 else "")
    return f"<field>/<topic>/<slug>.yaml with one of: {shown}"


def _display_prefix(root: Path) -> str:
    """What goes before a path relative to ``root`` to show it as the user would type it."""
    shown = display_path(root)
    return "" if shown == "." else shown.rstrip("/") + "/"


def _question_files(
    root: Path,
    catalog: Catalog | None,
    problems: list[Problem],
    memory: dict[str, object] | None = None,
) -> list[QuestionFile]:
    """Every question file, in a stable order (``os.walk``'s, folders and names sorted);
    misplaced files become problems.

    With ``memory`` (a ``FileCache``'s ``derived``) each folder's result is kept with the
    folder's stamp and used again while the stamp is unchanged (adding, removing or renaming
    an entry changes it): a rebuild under ``mkdocs serve`` then stats folders, not list them.
    A folder holding symbolic links, or changed in the last seconds (a change within the
    same clock tick would keep its stamp), is always listed again.
    """
    topics = {(f, t) for f, _s, t in _catalog_topics(catalog)} if catalog else None
    prefix = _display_prefix(root)
    kept = memory.pop(_LISTING, None) if memory is not None else None
    if not isinstance(kept, _Listing) or kept.prefix != prefix:
        kept = _Listing(prefix)
    listed = _Listing(prefix)
    recent = time.time_ns() - _RECENT_NS
    files: list[QuestionFile] = []

    def visit(dirpath: str, rel: tuple[str, ...]) -> None:
        current = stamp(dirpath)
        folder = kept.folders.get(dirpath)
        if folder is None or current is None or folder.stamp != current:
            folder = _list_folder(dirpath, rel, prefix, catalog, topics, current)
            if folder is None:
                return
        if folder.stamp is not None and folder.stamp[0] < recent:
            listed.folders[dirpath] = folder
        files.extend(folder.files)
        problems.extend(folder.problems)
        for name in folder.descend:
            visit(os.path.join(dirpath, name), (*rel, name))  # noqa: PTH118 (hot)

    visit(os.fspath(root), ())
    if memory is not None:
        memory[_LISTING] = listed
    return files


_LISTING = "bank.listing"  # the listing's key in FileCache.derived
_RECENT_NS = 2_000_000_000  # a folder changed this recently is listed again next time


@dataclass
class _Folder:
    """One folder's part of the listing."""

    stamp: Stamp | None  # None: listed again every time (it holds symbolic links)
    files: list[QuestionFile]
    problems: list[Problem]
    descend: list[str]  # the subfolders to list, in order


@dataclass
class _Listing:
    prefix: str  # the display prefix the problems were written with
    folders: dict[str, _Folder] = field(default_factory=dict)


def _list_folder(
    dirpath: str,
    rel: tuple[str, ...],
    prefix: str,
    catalog: Catalog | None,
    topics: set[tuple[str, str]] | None,
    current: Stamp | None,
) -> _Folder | None:
    """One folder as ``os.walk`` sees it (None when it cannot be listed): its question
    files, the problems of misplaced ones, and the subfolders to enter."""
    dirnames: list[str] = []
    filenames: list[str] = []
    links = False
    try:
        with os.scandir(dirpath) as entries:
            for entry in entries:
                try:
                    is_dir = entry.is_dir()
                except OSError:
                    is_dir = False
                (dirnames if is_dir else filenames).append(entry.name)
                try:
                    links = links or entry.is_symlink()
                except OSError:
                    links = True
    except OSError:
        return None
    dirnames = sorted(d for d in dirnames if not d.startswith("."))
    files: list[QuestionFile] = []
    problems: list[Problem] = []
    for name in sorted(filenames):
        if name.startswith(".") or not name.endswith((".yaml", ".yml")):
            continue
        parts = (*rel, name)
        if parts == (CATALOG_FILE,):
            continue
        shown = prefix + "/".join(parts)
        if name.endswith(".yml"):
            problems.append(
                Problem(
                    shown,
                    1,
                    1,
                    "",
                    "question files end in .yaml",
                    f"rename to {name[:-4]}.yaml",
                )
            )
            continue
        if len(parts) != 3:
            problems.append(
                Problem(
                    shown,
                    1,
                    1,
                    "",
                    "a question file must sit in a topic folder",
                    valid_topics_hint(catalog),
                )
            )
            continue
        field_key, topic_key, _ = parts
        slug = name[:-5]
        if not _SLUG.match(slug):
            problems.append(
                Problem(
                    shown,
                    1,
                    1,
                    "",
                    f"file name {name!r} is not a slug",
                    "lowercase letters, digits and hyphens, e.g. gpu-step-phases.yaml",
                )
            )
            continue
        if topics is not None and catalog is not None and (field_key, topic_key) not in topics:
            what = (
                f"unknown topic folder {topic_key!r} in field {field_key!r}"
                if field_key in catalog.fields
                else f"unknown field folder {field_key!r}"
            )
            problems.append(Problem(shown, 1, 1, "", what, valid_topics_hint(catalog, field_key)))
            continue
        path = os.path.join(dirpath, name)  # noqa: PTH118 (hot)
        files.append((path, shown, field_key, topic_key))
    # A folder named like a YAML file is a file that went wrong.
    for d in dirnames:
        if d.endswith(".yaml"):
            problems.append(
                Problem(
                    display_path(Path(dirpath) / d),
                    1,
                    1,
                    "",
                    "a directory where a YAML file was expected",
                    "a file, not a folder, named <slug>.yaml",
                )
            )
    # os.walk does not enter linked folders.
    descend = [d for d in dirnames if not os.path.islink(os.path.join(dirpath, d))]  # noqa: PTH114, PTH118
    return _Folder(None if links else current, files, problems, descend)


_QUESTION_KEYS = ", ".join(Question.model_fields)


def _question_keys(key: Path_) -> str:
    if not key:
        return f"one of {_QUESTION_KEYS}"
    if key[0] == "options" and len(key) == 1:
        return "option keys a, b, c … h"
    return "locale keys such as en, tr, zh"


class _QuestionChecker:
    """The rules one question file must satisfy on its own and against the catalog."""

    def __init__(
        self,
        root: Path,
        catalog: Catalog | None,
        default_locale: str,
        *,
        keep_entries: bool = True,
    ) -> None:
        self.root = root
        self.catalog = catalog
        self.keep_entries = keep_entries
        self.context = {"default_locale": default_locale}
        self.locales = catalog.locales if catalog else []
        self.locale_hint = "one of the catalog's locales: " + ", ".join(self.locales)
        self.seniorities = list(catalog.seniorities) if catalog else []
        self.spec_of: dict[tuple[str, str], str] = (
            {(f, t): s for f, s, t in _catalog_topics(catalog)} if catalog else {}
        )

    def check(self, file_path: str, shown: str, field_key: str, topic_key: str) -> Checked:
        """Every problem of one file; when it has none, what the cross-file checks need
        (its prompts' comparison keys are computed here, possibly in the helper process)
        and, if entries are kept, its entry."""
        path = Path(file_path)
        doc = read_document(path, shown)
        if doc.problems:
            return doc.problems, None, None
        if not isinstance(doc.data, dict):
            doc.problems.append(
                doc.problem(
                    (),
                    "a question file must be a mapping",
                    "keys such as id, difficulty, prompt, options",
                )
            )
            return doc.problems, None, None
        question = validate_model(doc, Question, self.context, _question_keys)
        if question is None or self.catalog is None:
            return doc.problems, None, None
        seniorities = self._check(doc, question, path)
        if doc.problems:
            return doc.problems, None, None
        file = f"{field_key}/{topic_key}/{path.name}"
        found = Found(
            question.id,
            file,
            field_key,
            topic_key,
            {locale: prompt_keys(text) for locale, text in question.prompt.items()},
        )
        entry = None
        if self.keep_entries:
            entry = Entry(
                question,
                file,
                field_key,
                self.spec_of[field_key, topic_key],
                topic_key,
                path.name[:-5],
                seniorities,
                tuple(loc for loc in self.locales if loc in question.prompt),
                doc.digest,
            )
        return doc.problems + stale_problems(doc, question, self.locales), found, entry

    def _check(self, doc: Document, q: Question, path: Path) -> tuple[str, ...]:
        problems = doc.problems
        # Seniority: written, or derived from difficulty.
        seniorities = tuple(q.seniority)
        for i, key in enumerate(q.seniority):
            if key not in self.seniorities:
                problems.append(
                    doc.problem(
                        ("seniority", i)
                        if "seniority" in doc.data and isinstance(doc.data["seniority"], list)
                        else ("seniority",),
                        f"unknown seniority {key!r}",
                        "one of " + ", ".join(self.seniorities),
                        at_value=True,
                    )
                )
        if not seniorities:
            derived = DIFFICULTY_SENIORITY.get(q.difficulty or 0)
            if derived is None and q.options is not None:
                pass  # a choice question without difficulty is reported as such below
            elif derived is None:
                problems.append(
                    doc.problem(
                        (),
                        "an open question without difficulty needs a seniority",
                        "seniority: junior, mid or senior",
                    )
                )
            elif derived not in self.seniorities:
                problems.append(
                    doc.problem(
                        ("difficulty",),
                        f"difficulty {q.difficulty} means "
                        f"seniority {derived!r}, which the catalog lacks",
                        "an explicit seniority key",
                        at_value=True,
                    )
                )
            else:
                seniorities = (derived,)
        # Shape of choice and open questions.
        if q.options is not None:
            self._check_choice(doc, q)
        else:
            for key in ("answer", "explanation"):
                if key in doc.data:
                    problems.append(
                        doc.problem(
                            (key,),
                            f"{key} belongs to a choice question, and this one has no options",
                            "options, or model_answer for an open question",
                        )
                    )
        # Locales: what the prompt has, every other text has too.
        prompt_locales = set(q.prompt)
        for text_key, texts in _texts(q):
            for locale, text in texts.items():
                if locale not in self.locales:
                    problems.append(
                        doc.problem(
                            (*text_key, locale), f"unknown locale {locale!r}", self.locale_hint
                        )
                    )
                    continue
                if not text or text.isspace():
                    problems.append(
                        doc.problem(
                            (*text_key, locale),
                            "empty text",
                            "the text in this locale, or drop the locale",
                            at_value=True,
                        )
                    )
                    continue
                for part in unsafe_parts(text):
                    problems.append(
                        doc.problem(
                            (*text_key, locale), part.message, part.hint, text_line=part.line
                        )
                    )
                for image in local_images(text):
                    target = (path.parent / image).resolve()
                    if not target.is_file() or self.root.resolve() not in target.parents:
                        problems.append(
                            doc.problem(
                                (*text_key, locale),
                                f"image {image!r} not found beside the question",
                                "an image file in the question's folder",
                                at_value=True,
                            )
                        )
            if text_key == ("prompt",) or texts.keys() == prompt_locales:
                continue
            missing = [loc for loc in self.locales if loc in prompt_locales and loc not in texts]
            extra = [loc for loc in texts if loc not in prompt_locales and loc in self.locales]
            if missing:
                problems.append(
                    doc.problem(
                        text_key,
                        f"half-translated: the prompt has "
                        f"{', '.join(missing)} but this text does not",
                        f"a {', '.join(missing)} entry here too, or no {', '.join(missing)} prompt",
                    )
                )
            for loc in extra:
                problems.append(
                    doc.problem(
                        (*text_key, loc),
                        f"translation {loc!r} without a {loc!r} prompt",
                        "the prompt in this locale too",
                    )
                )
        if q.translated_from:
            for locale in q.translated_from:
                if locale not in prompt_locales:
                    problems.append(
                        doc.problem(
                            ("translated_from", locale),
                            f"no {locale!r} translation to track",
                            "locales the prompt has",
                        )
                    )
        return seniorities

    def _check_choice(self, doc: Document, q: Question) -> None:
        assert q.options is not None
        problems = doc.problems
        keys = list(q.options)
        if q.difficulty is None:
            problems.append(
                doc.problem((), "a choice question needs a difficulty", "difficulty: 1, 2 or 3")
            )
        if len(keys) < 2:
            problems.append(
                doc.problem(
                    ("options",), f"only {len(keys)} option(s)", "2 to 8 options, keys a, b …"
                )
            )
        expected = list(OPTION_KEYS[: len(keys)])
        if keys != expected:
            for i, key in enumerate(keys):
                if i < len(expected) and key != expected[i]:
                    problems.append(
                        doc.problem(
                            ("options", key),
                            f"option key {key!r} out of order",
                            "keys " + ", ".join(expected) + " in this order",
                        )
                    )
                    break
        if q.answer is None:
            problems.append(
                doc.problem(
                    (), "a choice question needs an answer", "answer: one of " + ", ".join(keys)
                )
            )
        else:
            if not q.answer:
                problems.append(
                    doc.problem(
                        ("answer",),
                        "the answer list is empty",
                        "one or more option keys",
                        at_value=True,
                    )
                )
            for i, key in enumerate(q.answer):
                where: Path_ = (
                    ("answer", i) if isinstance(doc.data.get("answer"), list) else ("answer",)
                )
                if key not in q.options:
                    problems.append(
                        doc.problem(
                            where,
                            f"answer {key!r} is not an option",
                            "one of " + ", ".join(keys),
                            at_value=True,
                        )
                    )
            if len(set(q.answer)) != len(q.answer):
                problems.append(
                    doc.problem(
                        ("answer",), "an answer key is listed twice", "each key once", at_value=True
                    )
                )
        if q.explanation is None:
            problems.append(
                doc.problem(
                    (),
                    "a choice question needs an explanation",
                    "explanation: why the answer is right and the others wrong",
                )
            )
        for key in ("assesses", "model_answer"):
            if key in doc.data:
                problems.append(
                    doc.problem(
                        (key,),
                        f"{key} belongs to an open question",
                        "explanation on a choice question",
                    )
                )
        seen: dict[tuple[str, str], str] = {}
        for key, texts in q.options.items():
            for locale, text in texts.items():
                norm = normalize_text(text)
                if (locale, norm) in seen:
                    problems.append(
                        doc.problem(
                            ("options", key, locale),
                            f"same text as option {seen[locale, norm]!r}",
                            "different options",
                            at_value=True,
                        )
                    )
                seen[locale, norm] = key


def _texts(q: Question) -> Iterator[tuple[Path_, Mapping[str, str]]]:
    for name in TEXT_FIELDS:
        texts = getattr(q, name)
        if texts is not None:
            yield (name,), texts
    for key, texts in (q.options or {}).items():
        yield ("options", key), texts


_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_RUN = re.compile(f"[{_CJK}]+")
_NON_CJK_WORD = re.compile(f"[^\\W_{_CJK}]+")  # words, with Chinese or Japanese between
_WORD = re.compile(r"[^\W_]+")  # letters and digits
_WORD_OR_UNDERSCORE = re.compile(r"\w+")  # the same where there is no underscore, faster
_ASCII_GAPS = {c: " " for c in range(128) if not chr(c).isalnum()}  # what _WORD skips, in ASCII


def normalize_text(text: str) -> str:
    """Compare texts ignoring case, width and spacing."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    return " ".join(text.casefold().split())


def prompt_tokens(norm: str) -> frozenset[str]:
    """The token set of a normalized text: words, and for Chinese and Japanese (written
    without spaces) overlapping character pairs, which tell texts apart far better than
    single characters."""
    if norm.isascii():
        return frozenset(norm.translate(_ASCII_GAPS).split())
    if not _CJK_RUN.search(norm):
        return frozenset((_WORD if "_" in norm else _WORD_OR_UNDERSCORE).findall(norm))
    tokens: set[str] = set()
    for run in _CJK_RUN.findall(norm):
        if len(run) == 1:
            tokens.add(run)
        else:
            tokens.update(map(operator.add, run, run[1:]))
    tokens.update(_NON_CJK_WORD.findall(norm))
    return frozenset(tokens)


def prompt_keys(prompt: str) -> tuple[int, array[int]]:
    """A prompt's comparison keys: the hash of its normalized text and the hashes of its
    tokens, packed (8 bytes a token)."""
    import numpy as np  # imported once, on the first prompt

    norm = normalize_text(prompt)
    tokens = prompt_tokens(norm)
    # numpy converts the hashes to 8-byte integers faster than array() does.
    return hash(norm), array("q", np.fromiter(map(hash, tokens), np.int64, len(tokens)).tobytes())


# locale -> (index of the question in the list of found ones, its prompt's token hashes)
PackedTokens = list[tuple[int, "array[int]"]]


def _cross_file_problems(
    root: Path,
    catalog: Catalog,
    catalog_doc: Document,
    found: list[Found],
    helper: _SecondProcess,
    memory: dict[str, object] | None = None,
) -> list[Problem]:
    """The problems between files: duplicate ids, identical and nearly identical prompts,
    catalog topics without questions.

    With ``memory`` (a ``FileCache``'s ``derived``, kept across ``mkdocs serve`` rebuilds)
    the previous load's state (``_CrossFileState``) is updated instead of joining every
    prompt again, and problems located by reading a file again are kept while the file is
    unchanged. The result is the same as without it, problem for problem and in order.
    """
    locales = tuple(catalog.locales)
    previous = memory.pop(_CROSS_FILE_STATE, None) if memory is not None else None
    if not isinstance(previous, _CrossFileState) or previous.locales != locales:
        previous = None
    changes = previous.changes(found) if previous is not None else None
    rereads = _Rereads(root, catalog, previous, changes.renewed if changes else set())
    problems: list[Problem] = []
    prefix = rereads.prefix
    if previous is not None and changes is not None:
        tally = previous.tally
        before = previous.found
        tally.update(
            [before[previous.at[file]] for file in changes.changed if file in previous.at],
            [found[changes.at[file]] for file in changes.changed if file in changes.at],
        )
    else:
        tally = _Tally.of(found, locales)
    if tally.dup_ids:  # the loop only when some id is used twice
        first_with_id: dict[str, Found] = {}
        for item in found:
            if item.id not in tally.dup_ids:
                continue
            other = first_with_id.setdefault(item.id, item)
            if other is not item:
                problems.append(
                    rereads.problem(
                        item.file,
                        ("id",),
                        f"duplicate id, also used by {prefix + other.file}",
                        "a fresh id (`qbank new` writes one); ids are never reused",
                    )
                )
    # Per locale: the questions (indexes into ``found``) whose prompt is the same as an
    # earlier one's; they are left out of the near-duplicate join.
    same: dict[str, set[int]] = {}
    for locale in locales:
        same[locale] = later = set()
        repeated = tally.repeated[locale]
        if not repeated:
            continue
        prompts: dict[int, Found] = {}
        for n, item in enumerate(found):
            keys = item.prompts.get(locale)
            if keys is None or keys[0] not in repeated:
                continue
            other = prompts.setdefault(keys[0], item)
            if other is not item and rereads.prompt(other, locale) == rereads.prompt(item, locale):
                problems.append(
                    rereads.problem(
                        item.file,
                        ("prompt", locale),
                        f"same prompt as {prefix + other.file}",
                        "one file per question; merge or reword them",
                    )
                )
                later.add(n)
    if (
        previous is not None
        and changes is not None
        and len(changes.changed) <= INCREMENTAL_UP_TO
        and not previous.worn()
    ):
        state = previous
        near = state.update(found, same, changes)
    else:
        token_sets: dict[str, PackedTokens] = {
            locale: [
                (n, keys[1])
                for n, item in enumerate(found)
                if (keys := item.prompts.get(locale)) is not None
                and len(keys[1]) >= 5
                and n not in same[locale]
            ]
            for locale in locales
        }
        near = list(_near_duplicates_by_locale(token_sets, helper))
        if memory is not None:
            state = _CrossFileState.after_join(locales, found, token_sets, same, near, tally)
    for locale, (a, b, score) in near:
        first, second = found[a], found[b]
        problems.append(
            rereads.problem(
                second.file,
                ("prompt", locale),
                f"nearly the same prompt as {prefix + first.file} (similarity {score:.2f})",
                "distinct questions, or one of them removed",
                Severity.WARNING,
            )
        )
    for field_key, spec_key, topic_key in _catalog_topics(catalog):
        if not tally.topics[field_key, topic_key]:
            problems.append(
                catalog_doc.problem(
                    ("fields", field_key, "specializations", spec_key, "topics", topic_key),
                    "topic has no questions",
                    f"question files in {field_key}/{topic_key}/",
                    severity=Severity.WARNING,
                )
            )
    if memory is not None:
        state.problems, state.prompts = rereads.used_problems, rereads.used_prompts
        memory[_CROSS_FILE_STATE] = state
    return problems


class _Tally:
    """How many questions have each id, each (field, topic), and per locale each prompt hash;
    with the ids and hashes counted more than once. Kept across loads under serve and
    updated with the questions that changed, instead of counted again."""

    def __init__(self, locales: Iterable[str]) -> None:
        self.ids: Counter[str] = Counter()
        self.dup_ids: set[str] = set()
        self.topics: Counter[tuple[str, str]] = Counter()
        self.hashes: dict[str, Counter[int]] = {locale: Counter() for locale in locales}
        self.repeated: dict[str, set[int]] = {locale: set() for locale in self.hashes}

    @classmethod
    def of(cls, found: list[Found], locales: Iterable[str]) -> _Tally:
        """The tally of ``found``."""
        tally = cls(locales)
        tally.ids.update(map(_ID, found))
        tally.dup_ids = {key for key, count in tally.ids.items() if count > 1}
        tally.topics.update(map(_FIELD_TOPIC, found))
        for locale, hashes in tally.hashes.items():
            hashes.update([k[0] for item in found if (k := item.prompts.get(locale)) is not None])
            tally.repeated[locale] = {key for key, count in hashes.items() if count > 1}
        return tally

    def update(self, removed: list[Found], added: list[Found]) -> None:
        """The questions ``removed`` no longer counted, those ``added`` counted."""
        ids: set[str] = set()
        hashes: dict[str, set[int]] = {locale: set() for locale in self.hashes}
        for sign, items in ((-1, removed), (1, added)):
            for item in items:
                self.ids[item.id] += sign
                ids.add(item.id)
                self.topics[item.field, item.topic] += sign
                for locale, (norm_hash, _tokens) in item.prompts.items():
                    if locale in self.hashes:
                        self.hashes[locale][norm_hash] += sign
                        hashes[locale].add(norm_hash)
        _recount(self.ids, ids, self.dup_ids)
        for locale, keys in hashes.items():
            _recount(self.hashes[locale], keys, self.repeated[locale])


def _recount(counts: Counter[T], keys: set[T], repeated: set[T]) -> None:
    """``repeated`` (the keys counted more than once) brought up to date for ``keys``."""
    for key in keys:
        count = counts[key]
        if count <= 0:
            del counts[key]
        if count > 1:
            repeated.add(key)
        else:
            repeated.discard(key)


_ID = operator.attrgetter("id")
_FIELD_TOPIC = operator.attrgetter("field", "topic")


# The cross-file checks under ``mkdocs serve``, one edit at a time.
#
# A rebuild after an edit re-checks the edited file only (``FileCache``), but the cross-file
# checks involve every question: the near-duplicate join of all prompts took 1.6 s at 30,000
# questions x 3 locales, reading files again for the line of each warning 0.3 s, and even
# the dictionary passes over all questions (repeated ids and prompt hashes) add up. So a
# load kept in a ``FileCache`` leaves behind a ``_CrossFileState``: the questions it saw
# (``Found``, and each file's place), a ``_Tally`` of ids, topics and prompt hashes, per
# locale the prompts left out as identical to an earlier one, the near-duplicate pairs (by
# file), an inverted index of the joined prompts' tokens (``_TokenIndex``), and the problems
# it located by reading files. The next load finds the questions that changed (another
# ``Found`` where an edit keeps every file's place, else by file: added and removed ones
# too), updates the tally with them, and loops over all questions only for an id or prompt
# hash that is repeated (the order of such problems is that of the questions). A prompt is
# touched when its question changed or when it started or stopped being left out; pairs of
# two untouched prompts stand; each touched prompt is compared with the others holding one
# of its rarest tokens: exact Jaccard similarity with the same threshold and rules as
# ``near_duplicates`` (sets of under 5 tokens and identical prompts left out, the second of
# a pair the larger set or the later question), then ordered as ``near_duplicates`` orders
# them (size of the second, place of the second, place of the first). When in doubt (first
# load, catalog changed, more than ``INCREMENTAL_UP_TO`` questions changed, an index worn by
# many edits), everything is computed again. ``tests/test_bank_incremental.py`` compares the
# result with a load from scratch after each of a random sequence of edits.

_CROSS_FILE_STATE = "bank.cross_file"  # the state's key in FileCache.derived
INCREMENTAL_UP_TO = 300  # more changed questions than this: the cross-file checks in full


class _NearPair(NamedTuple):
    """A near-duplicate pair of prompts in one locale, by file."""

    first: str
    second: str  # the larger token set, or the later question of two the same size
    score: float
    size: int  # of the second's token set (how the pairs are ordered first)


ProblemMemo = dict[str, dict[tuple[Any, ...], Problem]]  # file -> what was asked -> problem


class _Rereads:
    """What the cross-file checks read files again for: the line of a problem's key, and a
    prompt's normalized text (when two prompts' hashes are equal). Both are taken from the
    previous load while the file was not read again since (the same ``Found`` object: a
    file's ``Found`` is made again whenever the file is checked again)."""

    def __init__(
        self,
        root: Path,
        catalog: Catalog,
        previous: _CrossFileState | None,
        renewed: set[str],
    ) -> None:
        self.root = root
        self.prefix = _display_prefix(root)
        self.context = {"default_locale": catalog.default_locale}
        self.kept_problems: ProblemMemo = {}
        self.kept_prompts: dict[tuple[str, str], str] = {}
        if previous is not None:
            self.kept_problems = previous.problems
            self.kept_prompts = previous.prompts
        self.renewed = renewed
        self.used_problems: ProblemMemo = {}
        self.used_prompts: dict[tuple[str, str], str] = {}

    def problem(
        self,
        file: str,
        key: Path_,
        message: str,
        hint: str,
        severity: Severity = Severity.ERROR,
    ) -> Problem:
        """``_problem_in`` for a file under the content root, kept while it is unchanged."""
        asked = (self.prefix, key, message, hint, severity)
        problem = None
        if file not in self.renewed:
            problem = self.kept_problems.get(file, {}).get(asked)
        if problem is None:
            problem = _problem_in(self.root, self.prefix + file, file, key, message, hint, severity)
        self.used_problems.setdefault(file, {})[asked] = problem
        return problem

    def prompt(self, item: Found, locale: str) -> str:
        """The normalized prompt of a question in ``locale``, read again from its file."""
        key = (item.file, locale)
        text = self.used_prompts.get(key)
        if text is None and item.file not in self.renewed:
            text = self.kept_prompts.get(key)
        if text is None:
            doc = read_document(self.root / item.file, self.prefix + item.file)
            question = validate_model(doc, Question, self.context)
            text = normalize_text(question.prompt.get(locale, "") if question else "")
        self.used_prompts[key] = text
        return text


class _Changes(NamedTuple):
    """How the questions differ from the previous load's."""

    renewed: set[str]  # files checked again since (a new ``Found``)
    changed: set[str]  # files whose ``Found`` differs, added and removed ones
    at: dict[str, int]  # file -> index in the current ``found``


@dataclass
class _CrossFileState:
    """What one load's cross-file checks leave for the next (see the notes above)."""

    locales: tuple[str, ...]
    found: list[Found]
    at: dict[str, int]  # file -> index in ``found``
    same: dict[str, set[str]]  # per locale: files left out as having an earlier one's prompt
    pairs: dict[str, list[_NearPair]]  # per locale, in report order
    indexes: dict[str, _TokenIndex]  # per locale, the prompts of the join
    tally: _Tally
    problems: ProblemMemo = field(default_factory=dict)
    prompts: dict[tuple[str, str], str] = field(default_factory=dict)

    @classmethod
    def after_join(
        cls,
        locales: tuple[str, ...],
        found: list[Found],
        token_sets: dict[str, PackedTokens],
        same: dict[str, set[int]],
        near: list[tuple[str, tuple[int, int, float]]],
        tally: _Tally,
    ) -> _CrossFileState:
        """The state after a full computation (``near``: its pairs, as indexes into ``found``)."""
        pairs: dict[str, list[_NearPair]] = {locale: [] for locale in locales}
        for locale, (a, b, score) in near:
            second = found[b]
            pairs[locale].append(
                _NearPair(found[a].file, second.file, score, len(second.prompts[locale][1]))
            )
        return cls(
            locales,
            found,
            {item.file: n for n, item in enumerate(found)},
            {loc: {found[n].file for n in same[loc]} for loc in locales},
            pairs,
            {
                loc: _TokenIndex([(found[n].file, tokens) for n, tokens in token_sets[loc]])
                for loc in locales
            },
            tally,
        )

    def changes(self, found: list[Found]) -> _Changes:
        """How ``found`` differs from the previous load's. An edit keeps every question's
        place: then only the places holding another object are looked at."""
        before = self.found
        if len(before) == len(found):
            differ = [n for n, same in enumerate(map(operator.is_, before, found)) if not same]
            if all(before[n].file == found[n].file for n in differ):
                return _Changes(
                    {found[n].file for n in differ},
                    {found[n].file for n in differ if before[n] != found[n]},
                    self.at,
                )
        at = {item.file: n for n, item in enumerate(found)}
        renewed: set[str] = set()
        changed = {file for file in self.at if file not in at}
        for item in found:
            n = self.at.get(item.file)
            old = None if n is None else before[n]
            if old is not item:
                renewed.add(item.file)
                if old != item:
                    changed.add(item.file)
        return _Changes(renewed, changed, at)

    def worn(self) -> bool:
        """Whether an index holds too many tokens of prompts since changed."""
        return any(index.worn() for index in self.indexes.values())

    def update(
        self, found: list[Found], same: dict[str, set[int]], changes: _Changes
    ) -> list[tuple[str, tuple[int, int, float]]]:
        """The near-duplicate pairs of the current ``found`` (as ``near_duplicates`` gives
        them, per locale in catalog order), with this state brought up to date.

        ``same``: per locale, the questions left out as having an earlier one's prompt. A
        prompt is touched when its question changed, or when it was left out and is no
        longer, or the other way round; pairs of two untouched prompts stand.
        """
        at = changes.at
        near: list[tuple[str, tuple[int, int, float]]] = []
        for locale in self.locales:
            same_now = {found[n].file for n in same[locale]}
            index = self.indexes[locale]
            touched = changes.changed | same_now.symmetric_difference(self.same[locale])

            def joins(file: str) -> bool:
                """Whether the file's prompt takes part in the join now."""
                n = at.get(file)
                if n is None or file in same_now:  # noqa: B023 (used in this iteration only)
                    return False
                keys = found[n].prompts.get(locale)  # noqa: B023
                return keys is not None and len(keys[1]) >= 5

            for file in touched:
                if file in index.slot_of:
                    index.remove(file)
            fresh = sorted(filter(joins, touched), key=at.__getitem__)
            tokens_of = {file: found[at[file]].prompts[locale][1] for file in fresh}
            index.add(list(tokens_of.items()))
            pairs = {
                (pair.first, pair.second): pair
                for pair in self.pairs[locale]
                if pair.first not in touched and pair.second not in touched
            }
            for file, mine in tokens_of.items():
                mine_set = set(mine)
                for other in index.candidates(file, mine, NEAR_DUPLICATE_THRESHOLD):
                    theirs = found[at[other]].prompts[locale][1]
                    common = len(mine_set.intersection(theirs))
                    score = common / (len(mine) + len(theirs) - common)
                    if score < NEAR_DUPLICATE_THRESHOLD:
                        continue
                    if (len(theirs), at[other]) > (len(mine), at[file]):
                        pair = _NearPair(file, other, score, len(theirs))
                    else:
                        pair = _NearPair(other, file, score, len(mine))
                    pairs[pair.first, pair.second] = pair
            ordered = sorted(pairs.values(), key=lambda p: (p.size, at[p.second], at[p.first]))
            self.same[locale] = same_now
            self.pairs[locale] = ordered
            near += [(locale, (at[p.first], at[p.second], p.score)) for p in ordered]
        self.found, self.at = found, at
        return near


class _TokenIndex:
    """One locale's prompts by token, for finding the prompts like a given one.

    Every prompt of the join holds a slot; each run (``runs``: sorted keys, the low 32 bits
    of token hashes, and their slots) lists tokens. Keys may collide, which only adds
    candidates: similarity is always computed exactly. A prompt that changes or leaves gets
    its slot marked dead (its tokens stay until the index is built again, see ``worn``); a
    prompt that joins gets a new slot, its tokens merged into the small second run, which is
    merged into the large first one once it holds a 32nd as many keys (copying the large run
    for every edit would cost more than the rest of the update).
    """

    def __init__(self, items: list[tuple[str, Collection[int]]]) -> None:
        self.files: list[str] = []
        self.sizes: list[int] = []
        self.alive = bytearray()
        self.slot_of: dict[str, int] = {}
        self.dead = 0
        self.runs: list[tuple[Any, Any]] = []
        self.add(items)

    def add(self, items: list[tuple[str, Collection[int]]]) -> None:
        """New slots for these prompts (file, token hashes)."""
        import numpy as np

        if not items:
            return
        first = len(self.files)
        files = [file for file, _ in items]
        self.slot_of.update(zip(files, range(first, first + len(items)), strict=True))
        self.files += files
        self.sizes += [len(tokens) for _, tokens in items]
        self.alive += b"\x01" * len(items)
        keys = _index_keys(_flat_int64([tokens for _, tokens in items]))
        owners = np.repeat(np.arange(first, len(self.files), dtype=np.uint64), self.sizes[first:])
        # Keys and slots sorted together, as one 64-bit number each (faster than argsort).
        pairs = (keys.astype(np.uint64) << np.uint64(32)) | owners
        if len(self.runs) == 2:
            small_keys, small_owners = self.runs.pop()
            pairs = np.concatenate(
                [
                    pairs,
                    (small_keys.astype(np.uint64) << np.uint64(32))
                    | small_owners.astype(np.uint64),
                ]
            )
        pairs.sort()
        keys = (pairs >> np.uint64(32)).astype(np.uint32)
        owners = (pairs & np.uint64(0xFFFFFFFF)).astype(np.int32)
        del pairs
        if self.runs and len(keys) * 32 > len(self.runs[0][0]):
            big_keys, big_owners = self.runs.pop()
            where = np.searchsorted(big_keys, keys)
            keys, owners = np.insert(big_keys, where, keys), np.insert(big_owners, where, owners)
        self.runs.append((keys, owners))

    def remove(self, file: str) -> None:
        """The prompt of ``file`` leaves the index."""
        slot = self.slot_of.pop(file)
        self.alive[slot] = 0
        self.dead += self.sizes[slot]

    def worn(self) -> bool:
        """Whether a quarter of the keys belong to prompts no longer in the index."""
        return self.dead * 4 > sum(len(keys) for keys, _ in self.runs)

    def candidates(self, file: str, tokens: Collection[int], threshold: float) -> list[str]:
        """Every other prompt that may have Jaccard similarity ≥ ``threshold`` with
        ``tokens``: those holding one of its rarest tokens, of a size that allows it.

        A prompt that similar shares at least ``ceil(threshold * size)`` of the ``size``
        tokens of this one (whichever is larger), so it holds one of any
        ``size - ceil(threshold * size) + 1`` of them (one more taken, for rounding).
        """
        import numpy as np

        size = len(tokens)
        mine = np.unique(_index_keys(_as_int64(tokens)))
        ranges = [
            (np.searchsorted(keys, mine, "left"), np.searchsorted(keys, mine, "right"), owners)
            for keys, owners in self.runs
        ]
        held = sum(high - low for low, high, _ in ranges)
        take = min(len(mine), size - math.ceil(threshold * size) + 2)
        rarest = np.argsort(held, kind="stable")[:take].tolist()
        slots = np.unique(
            np.concatenate(
                [owners[low[k] : high[k]] for low, high, owners in ranges for k in rarest]
            )
        )
        smallest, largest = int(threshold * size) - 1, int(size / threshold) + 1
        own = self.slot_of[file]
        alive, sizes, files = self.alive, self.sizes, self.files
        return [
            files[slot]
            for slot in slots.tolist()
            if alive[slot] and slot != own and smallest <= sizes[slot] <= largest
        ]


def _index_keys(hashes: IntArray) -> Any:
    """The low 32 bits of token hashes (the keys of a ``_TokenIndex``)."""
    import numpy as np

    return (hashes & 0xFFFFFFFF).astype(np.uint32)


def _join(items: PackedTokens) -> list[tuple[int, int, float]]:
    """Near-duplicates among one locale's prompts."""
    return list(near_duplicates(items, NEAR_DUPLICATE_THRESHOLD))


def _near_duplicates_by_locale(
    token_sets: dict[str, PackedTokens], helper: _SecondProcess
) -> Iterator[tuple[str, tuple[int, int, float]]]:
    """Near-duplicate prompts per locale; on a large bank the largest locale is joined in
    the helper process (its token hashes are sent there, index pairs come back) while this
    process joins the others."""
    locales = sorted(token_sets, key=lambda loc: -sum(len(t) for _, t in token_sets[loc]))
    pool = None
    if len(locales) >= 2 and sum(map(len, token_sets.values())) >= PARALLEL_FROM:
        pool = helper.start()
    if pool is None:
        for locale in token_sets:
            for found in _join(token_sets[locale]):
                yield locale, found
        return
    theirs = pool.submit(_join, token_sets[locales[0]])
    results = {locale: _join(token_sets[locale]) for locale in locales[1:]}
    results[locales[0]] = theirs.result()
    for locale in token_sets:
        for found in results[locale]:
            yield locale, found


def _can_fork() -> bool:
    return (os.cpu_count() or 1) >= 2 and "fork" in multiprocessing.get_all_start_methods()


def _problem_in(
    root: Path,
    shown: str,
    file: str,
    key: Path_,
    message: str,
    hint: str,
    severity: Severity = Severity.ERROR,
) -> Problem:
    """A problem at ``key`` of a file that loaded fine (read again for its line: rare)."""
    doc = read_document(root / file, shown)
    return doc.problem(key, message, hint, severity=severity)


def near_duplicates(
    items: Sequence[tuple[T, Collection[int]]], threshold: float
) -> list[tuple[T, T, float]]:
    """Pairs whose token sets have Jaccard similarity ≥ ``threshold``, as (first, second,
    similarity) with the second the larger set (or the later one of two the same size).

    Tokens are integers (hashes), distinct within each item. A prefix-filter join, in
    array operations: every set is ordered by one global order of tokens (rarest first),
    and two sets this similar must share at least two tokens of their prefixes (one token
    longer than the classic prefix; tokens no other set has are left out, since they are
    never shared). Candidate pairs are the sets sharing a prefix token whose sizes allow
    the threshold; the pairs sharing two are compared exactly.
    """
    import numpy as np  # here, not at the top: most commands never join

    n = len(items)
    sizes = np.fromiter((len(tokens) for _, tokens in items), dtype=np.int64, count=n)
    if n < 2 or not sizes.any():
        return []
    flat = _flat_int64([tokens for _, tokens in items])
    rank, span, unique_tokens = _global_order(flat)
    total = len(flat)
    del flat
    owner = np.repeat(np.arange(n, dtype=np.int64), sizes)
    # Each set's tokens in that order (sets are contiguous in ``flat``), then its prefix.
    set_ranks = np.sort(owner * span + rank) % span
    del rank
    set_start = np.cumsum(sizes) - sizes
    prefix = sizes - np.ceil(threshold * sizes).astype(np.int64) + 2
    in_prefix = np.arange(total, dtype=np.int64) - set_start[owner] < prefix[owner]
    keep = in_prefix & (set_ranks >= unique_tokens)  # tokens other sets have too
    owner, rank = owner[keep], set_ranks[keep]
    # Pairs of sets sharing a prefix token: entries by token, then by set size and set, so
    # that each pair appears once, smaller set first; the second must not be too large.
    entry_size = sizes[owner]
    by_token = np.lexsort((owner, entry_size, rank))
    owner, rank, entry_size = owner[by_token], rank[by_token], entry_size[by_token]
    top = int(sizes.max())
    # largest[s]: the largest size a set may have to be as similar to a set of size s
    largest = np.searchsorted(threshold * np.arange(top + 1), np.arange(top + 1), "right") - 1
    limit = np.minimum(largest[entry_size], top)
    end = np.searchsorted(rank * (top + 1) + entry_size, rank * (top + 1) + limit, "right")
    width = end - np.arange(len(owner)) - 1
    if not width.any():
        return []
    left = np.repeat(np.arange(len(owner)), width)
    right = left + 1 + np.arange(len(left)) - np.repeat(np.cumsum(width) - width, width)
    pair_codes, shared = np.unique(owner[left] * n + owner[right], return_counts=True)
    candidates = pair_codes[shared >= 2]
    if not len(candidates):
        return []
    first, second = np.divmod(candidates, n)
    found_pairs: list[tuple[int, int, int, float]] = []
    for at in range(0, len(first), _PAIRS_AT_ONCE):
        a, b = first[at : at + _PAIRS_AT_ONCE], second[at : at + _PAIRS_AT_ONCE]
        common = _common_counts(set_ranks, set_start, sizes, a, b, span)
        score = common / (sizes[a] + sizes[b] - common)
        similar = score >= threshold
        found_pairs += zip(
            sizes[b][similar].tolist(),
            b[similar].tolist(),
            a[similar].tolist(),
            score[similar].tolist(),
            strict=True,
        )
    found_pairs.sort()
    return [(items[a][0], items[b][0], score) for _, b, a, score in found_pairs]


def _global_order(flat: IntArray) -> tuple[IntArray, int, int]:
    """Each token's place in one order of all distinct tokens: by how many sets have the
    token, then by its value; with the number of distinct tokens and of those only one set
    has (they come first)."""
    import numpy as np

    by_value = np.argsort(flat, kind="stable")  # much faster than the default here
    values = flat[by_value]
    new_value = np.empty(len(values), dtype=bool)
    new_value[0] = True
    np.not_equal(values[1:], values[:-1], out=new_value[1:])
    del values
    distinct_at = np.cumsum(new_value, dtype=np.int64) - 1  # which distinct token, where
    del new_value
    counts = np.bincount(distinct_at)
    dense = np.empty(len(counts), dtype=np.int64)
    dense[np.argsort(counts, kind="stable")] = np.arange(len(counts))
    rank = np.empty(len(flat), dtype=np.int64)
    rank[by_value] = dense[distinct_at]
    return rank, len(counts), int(np.count_nonzero(counts == 1))


_PAIRS_AT_ONCE = 20_000  # candidate pairs compared in one array operation


def _common_counts(
    set_ranks: IntArray, set_start: IntArray, sizes: IntArray, a: IntArray, b: IntArray, span: int
) -> IntArray:
    """How many tokens sets ``a[k]`` and ``b[k]`` share, for every k: both sets' tokens
    side by side per pair, sorted, and the tokens that appear twice counted."""
    import numpy as np

    length = sizes[a] + sizes[b]
    pair = np.repeat(np.arange(len(a)), length)
    offset = np.arange(len(pair)) - np.repeat(np.cumsum(length) - length, length)
    in_a = offset < sizes[a][pair]
    where = np.where(
        in_a, set_start[a][pair] + offset, set_start[b][pair] + offset - sizes[a][pair]
    )
    tokens = np.sort(pair * span + set_ranks[where])
    twice = tokens[1:] == tokens[:-1]
    counts: IntArray = np.bincount(tokens[1:][twice] // span, minlength=len(a))
    return counts


def _flat_int64(token_sets: list[Collection[int]]) -> IntArray:
    """Every set's tokens one after the other, as one array. Packed sets (8-byte arrays,
    what ``prompt_keys`` makes) are joined as bytes: a numpy view of each would cost
    several microseconds a set, most of the time at 90,000 sets."""
    import numpy as np

    if all(isinstance(tokens, array) and tokens.typecode == "q" for tokens in token_sets):
        return np.frombuffer(b"".join(cast("list[array[int]]", token_sets)), dtype=np.int64)
    return np.concatenate([_as_int64(tokens) for tokens in token_sets])


def _as_int64(tokens: Collection[int]) -> IntArray:
    import numpy as np

    if isinstance(tokens, array) and tokens.typecode == "q":
        return np.frombuffer(tokens, dtype=np.int64)
    return np.fromiter(tokens, dtype=np.int64, count=len(tokens))
