# ruff: noqa: RUF001  (Turkish and Chinese interface text)
"""Site search: qbank's own static index, one per locale, one record per question.

A topic page holds hundreds of questions, so a page-level index would answer with pages; here
every question of a locale is a document built straight from the bank (``question_doc``):
the words of its prompt, options, explanation and model answer, its filters (field,
seniority, difficulty) and what the result list shows (URL of the question's anchor on its
topic page, topic name, prompt). The answer line is never indexed, and a result shows the
prompt only, so a result never gives away which option is right.

The index of a locale is a folder of small static files (``index_files``): terms files that
map the words starting with the same three letters (or a bucket of Chinese, Japanese and
Korean character pairs) to their questions, documents files of 32 questions, and one bitmap
per filter value. ``assets/search.js`` downloads only what a query needs: the manifest, one
terms file per query word and the documents of the results it shows. It matches words by
prefix (Turkish by their first five letters, English after a plain suffix is cut) and CJK
text by character pairs, so no segmenter or stemmer is needed at build time. Writing an index
is plain Python over the bank, in each locale's build process; its bytes depend only on the
bank.

Under ``mkdocs serve`` a site folder is built again and again by one process, and the served
folder is not wiped between rebuilds: ``index_site_after_build`` indexes the first build at
once and keeps each locale's index in memory (``LocaleIndex``: postings, documents shown,
filter bitmaps, terms files). A rebuild that only edited questions rewrites, before it
returns, just the files those edits touched (milliseconds for one question at 30,000); one
that added, removed or moved questions has that locale rebuilt from scratch by one background
worker and swapped in whole, while the previous index stays served (see ``LiveIndex``). Either
way the folder ends up byte for byte what ``write_index`` writes for the same documents.

This module is part of the core: it never imports MkDocs.
"""

from __future__ import annotations

import base64
import bisect
import contextlib
import ctypes
import errno
import html
import itertools
import json
import logging
import operator
import os
import re
import shutil
import tempfile
import threading
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from qbank import background
from qbank.bank import Bank, Entry
from qbank.markup import prose_html, to_html
from qbank.render import question_texts
from qbank.strings import strings_for

log = logging.getLogger(__name__)


def search_settings(bank: Bank) -> dict[str, Any]:
    """What the search box needs, for every locale of ``bank``: its interface text and the
    filters' choices (``[key, name]`` pairs in catalog order, names in that locale).

    The page template writes this as JSON into the header, so the box can follow a change of
    locale that happens without a page load.
    """
    catalog = bank.catalog
    text: dict[str, Any] = {}
    for locale in catalog.locales:
        words = strings_for(locale)
        levels = words["difficulty_levels"]
        text[locale] = {
            **words["search"],
            "seniority": words["seniority"],
            "difficulty": words["difficulty"],
            "filters": {
                "field": [[k, bank.name(f.name, locale)] for k, f in catalog.fields.items()],
                "seniority": [[k, bank.name(v, locale)] for k, v in catalog.seniorities.items()],
                "difficulty": [[str(k), str(levels[k])] for k in sorted(levels)],
            },
        }
    return {"locales": list(catalog.locales), "default": catalog.default_locale, "text": text}


# -- documents -----------------------------------------------------------------------------------

INDEX_DIR = "api/search"
"""Where a locale's index sits, under ``<locale>/`` (``<locale>/api/`` is reserved)."""
FORMAT = 1
CHUNK = 32
"""Questions per documents file (a result list loads the chunks of the questions shown)."""
SNIPPET = 240
"""Characters of the prompt kept for the result list."""
PREFIX = 3
"""Words are filed by their first three characters, so a query word finds its one terms file
at once: three characters or more match every word they start, shorter ones a whole word."""
BUCKET_POSTINGS = 8000
"""About how many postings of character pairs share a terms file (CJK pairs are filed by a
hash: they are only ever looked up whole)."""

_TAG = re.compile(r"<[^>]+>")
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_CJK_RUNS = re.compile(f"([{_CJK}]+)")
# A run of CJK characters, or of other word characters: the pieces of a ``\w+`` word.
_PIECES = re.compile(f"[{_CJK}]+|[^\\W{_CJK}]+")
_ANY_CJK = re.compile(f"[{_CJK}][{_CJK}]")


def _plain(fragment: str) -> str:
    """The text of an HTML fragment, whitespace collapsed (code keeps its words)."""
    return " ".join(html.unescape(_TAG.sub(" ", fragment)).split())


def _text(markdown: str) -> str:
    """The plain text of a question text (plain prose is its own text)."""
    if prose_html(markdown) is not None:
        return " ".join(markdown.split())
    return _plain(to_html(markdown))


def fold(text: str, locale: str) -> str:
    """Lower case as the search box folds a query (Turkish dotted and dotless i kept apart)."""
    if locale.lower().startswith(("tr", "az")):
        text = text.replace("I", "ı").replace("İ", "i")
    return text.lower()


def terms(text: str, locale: str) -> set[str]:
    """The index terms of a text: its words, folded; Chinese, Japanese and Korean runs (no
    spaces between words) as their character pairs (a lone character as itself), so a query
    word is found inside an unsegmented sentence. ``search.js`` cuts queries the same way."""
    pieces = _PIECES.findall(fold(text, locale))
    if not _ANY_CJK.search(text):  # no pair to cut: every piece is a term
        return set(pieces)
    found: set[str] = set()
    for piece in pieces:
        if len(piece) > 1 and _CJK_RUNS.match(piece):
            found.update(piece[i : i + 2] for i in range(len(piece) - 1))
        else:
            found.add(piece)
    return found


def is_cjk(term: str) -> bool:
    """Whether a term is a CJK character pair or character (filed by hash)."""
    return _CJK_RUNS.match(term) is not None


def bucket(term: str, buckets: int) -> int:
    """The terms file of a CJK term: a 32-bit polynomial hash of its code points (the same
    arithmetic as ``search.js``), modulo the number of buckets."""
    h = 0
    for char in term:
        h = (h * 31 + ord(char)) & 0xFFFFFFFF
    return h % buckets


def shard_key(term: str, buckets: int) -> str:
    """Which terms file holds ``term``: ``~<n>`` for CJK, else its first characters."""
    return f"~{bucket(term, buckets)}" if term[0] >= "\u3040" and is_cjk(term) else term[:PREFIX]


def shard_name(key: str) -> str:
    """The file name of a terms file (code points in hex: any script, any file system)."""
    return "-".join(f"{ord(c):x}" for c in key)


@dataclass(frozen=True)
class SearchDoc:
    """One searchable question in one locale."""

    url: str  # site-root URL of the question's anchor on its topic page
    topic: str
    prompt: str  # the snippet shown in the result list (plain text)
    filters: tuple[tuple[str, str], ...]  # (filter, value): field, seniority, difficulty
    prompt_terms: frozenset[str]
    other_terms: frozenset[str]  # options, explanation, assesses, model answer


def question_doc(bank: Bank, entry: Entry, locale: str, url: str) -> SearchDoc:
    """The search document of one question in one locale, straight from the bank: words of
    the prompt, the options, the explanation and the model answer find it; only the prompt
    is ever shown (the answer line is not indexed at all)."""
    q = entry.question
    catalog = bank.catalog
    topic = catalog.fields[entry.field].specializations[entry.specialization].topics[entry.topic]
    filters = [("field", entry.field), *(("seniority", s) for s in entry.seniorities)]
    if q.difficulty:
        filters.append(("difficulty", str(q.difficulty)))
    texts = [_text(text[locale]) for text in question_texts(entry) if locale in text]
    prompt_terms = terms(texts[0], locale)
    other = terms(" ".join(texts[1:]), locale)
    snippet = texts[0] if len(texts[0]) <= SNIPPET else texts[0][:SNIPPET].rstrip() + "…"
    return SearchDoc(
        f"{url}#q-{entry.id}",
        bank.name(topic.name, locale),
        snippet,
        tuple(filters),
        frozenset(prompt_terms),
        frozenset(other - prompt_terms),
    )


def iter_docs(
    bank: Bank, locale: str, topic_url: Callable[[str, Entry], str]
) -> Iterator[SearchDoc]:
    """One document per question of ``bank`` in ``locale``, in bank order, made as they are
    consumed (an index of 30,000 questions never holds all their term sets at once);
    ``topic_url(locale, entry)`` is the site-root URL of the entry's topic page
    (``/en/backend/indexing/``)."""
    for entry in bank.entries:
        if locale in entry.locales:
            yield question_doc(bank, entry, locale, topic_url(locale, entry))


def bank_docs(bank: Bank, locale: str, topic_url: Callable[[str, Entry], str]) -> list[SearchDoc]:
    """``iter_docs`` as a list."""
    return list(iter_docs(bank, locale, topic_url))


# -- the index -----------------------------------------------------------------------------------


@dataclass
class IndexReport:
    """What an indexing run wrote: documents per locale."""

    languages: Counter[str] = field(default_factory=Counter)

    @property
    def records(self) -> int:
        """How many questions were indexed in all."""
        return sum(self.languages.values())

    def summary(self) -> str:
        """One line for the build log."""
        per = ", ".join(f"{lang} {n}" for lang, n in sorted(self.languages.items()))
        return f"search index: {self.records} questions ({per or 'none'})"

    @classmethod
    def of(cls, docs: dict[str, list[SearchDoc]]) -> IndexReport:
        """The report of indexing ``docs`` (documents by locale)."""
        return cls(Counter({locale.lower(): len(d) for locale, d in docs.items()}))


class SearchIndexError(Exception):
    """The search index could not be written."""


def _json(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _doc_number(code: int) -> int:
    """The question a posting belongs to (``2n + 1`` or ``2n`` → ``n``)."""
    return code >> 1


@dataclass
class IndexChanges:
    """Which files of a locale's index an update touched (``LocaleIndex.replace``)."""

    shards: set[str] = field(default_factory=set)  # keys of terms files to write or delete
    chunks: set[int] = field(default_factory=set)  # numbers of documents files to write
    filters: bool = False  # f.json
    manifest: bool = False  # index.json (the list of terms files or the CJK buckets)


@dataclass
class LocaleIndex:
    """A locale's index in memory: what its files are made from, and what an edit updates.

    - ``postings``: term → the codes of the questions holding it (``2n + 1`` when question
      ``n``'s prompt holds it, ``2n`` for its other texts), a 32-bit array sorted by question
      (a 30,000-question locale has ~4 million postings: 16 MB this way);
    - ``shown``: ``(url, topic, prompt)`` of each question, what a documents file lists;
    - ``filters``: filter → value → bitmap of the questions it keeps (one bit per question);
    - ``cjk``: how many postings CJK terms have, which sets ``buckets``, the number of terms
      files CJK terms are hashed into;
    - ``shards``: terms file key (``shard_key``) → its terms.

    ``files`` writes it out (``index_files``); ``replace`` puts edited questions in place of
    their old versions and says which files changed (``changed_files``), so that an edit
    rewrites a few small files instead of the whole index.
    """

    postings: dict[str, array[int]] = field(default_factory=dict)
    shown: list[tuple[str, str, str]] = field(default_factory=list)
    filters: dict[str, dict[str, bytearray]] = field(default_factory=dict)
    cjk: int = 0
    buckets: int = 1
    shards: dict[str, set[str]] = field(default_factory=dict)

    @classmethod
    def build(cls, docs: Iterable[SearchDoc]) -> LocaleIndex:
        """The index of ``docs`` (consumed once, in order: documents are not kept)."""
        index = cls()
        postings = index.postings
        by_filter: dict[str, dict[str, list[int]]] = {}
        for number, doc in enumerate(docs):
            for term in doc.prompt_terms:
                found = postings.get(term)
                if found is None:
                    postings[term] = found = array("i")
                found.append(number * 2 + 1)
            for term in doc.other_terms:
                found = postings.get(term)
                if found is None:
                    postings[term] = found = array("i")
                found.append(number * 2)
            index.shown.append((doc.url, doc.topic, doc.prompt))
            for name, value in doc.filters:
                by_filter.setdefault(name, {}).setdefault(value, []).append(number)
        width = (len(index.shown) + 7) // 8
        for name, values in by_filter.items():
            index.filters[name] = {}
            for value, numbers in values.items():
                bits = index.filters[name][value] = bytearray(width)
                for number in numbers:
                    bits[number >> 3] |= 1 << (number & 7)
        terms = background.paced(postings.items(), 4096)  # (a serve rebuild may come first)
        index.cjk = sum(len(codes) for term, codes in terms if is_cjk(term))
        index.buckets = max(1, index.cjk // BUCKET_POSTINGS)
        for term in background.paced(postings, 4096):
            index.shards.setdefault(shard_key(term, index.buckets), set()).add(term)
        return index

    # -- files

    def shard_file(self, key: str) -> tuple[str, bytes]:
        """The terms file ``key``: ``{term: postings}``, terms sorted, postings delta-coded."""
        shard = {}
        for term in sorted(self.shards[key]):
            codes = self.postings[term]
            shard[term] = [codes[0], *map(operator.sub, codes[1:], codes)]  # delta-coded
        return f"t/{shard_name(key)}.json", _json(shard)

    def chunk_file(self, number: int) -> tuple[str, bytes]:
        """Documents file ``number``: ``[url, topic, prompt]`` of its ``CHUNK`` questions."""
        return f"d/{number}.json", _json(self.shown[number * CHUNK : (number + 1) * CHUNK])

    def filters_file(self) -> tuple[str, bytes]:
        """``f.json``: per filter and value (sorted), its bitmap in base64."""
        return "f.json", _json(
            {
                name: {
                    value: base64.b64encode(bits).decode("ascii")
                    for value, bits in sorted(values.items())
                }
                for name, values in sorted(self.filters.items())
            }
        )

    def manifest_file(self) -> tuple[str, bytes]:
        """``index.json``: format, sizes, CJK buckets and the terms files' keys."""
        return "index.json", _json(
            {
                "format": FORMAT,
                "docs": len(self.shown),
                "chunk": CHUNK,
                "prefix": PREFIX,
                "buckets": self.buckets,
                "shards": "\n".join(sorted(self.shards)),
            }
        )

    def files(self) -> Iterator[tuple[str, bytes]]:
        """Every file of the index (path relative to its folder, bytes), one at a time."""
        for key in sorted(self.shards):
            yield self.shard_file(key)
        for number in range((len(self.shown) + CHUNK - 1) // CHUNK):
            yield self.chunk_file(number)
        yield self.filters_file()
        yield self.manifest_file()

    def changed_files(self, changes: IndexChanges) -> Iterator[tuple[str, bytes | None]]:
        """The files ``changes`` touched (``None``: a terms file that no longer exists), the
        manifest after the files it names and deletions last, so that a reader of the old
        manifest finds its files until the new one is in place."""
        for key in sorted(changes.shards):
            if key in self.shards:
                yield self.shard_file(key)
        for number in sorted(changes.chunks):
            yield self.chunk_file(number)
        if changes.filters:
            yield self.filters_file()
        if changes.manifest:
            yield self.manifest_file()
        for key in sorted(changes.shards - self.shards.keys()):
            yield f"t/{shard_name(key)}.json", None

    # -- updates

    def replace(self, edits: Iterable[tuple[int, SearchDoc, SearchDoc]]) -> IndexChanges:
        """Put each edited question ``(n, old, new)`` in place of its old version (same number,
        same URL) and say which files changed. Only the terms whose postings differ are
        touched; when the CJK postings cross a multiple of ``BUCKET_POSTINGS`` every CJK term
        is filed again under the new number of buckets."""
        changes = IndexChanges()
        touched: set[str] = set()
        for number, old, new in edits:
            if old.prompt_terms != new.prompt_terms or old.other_terms != new.other_terms:
                differ = (old.prompt_terms ^ new.prompt_terms) | (old.other_terms ^ new.other_terms)
                for term in differ:
                    self._post(term, number, new)
                touched |= differ
            shown = (new.url, new.topic, new.prompt)
            if self.shown[number] != shown:
                self.shown[number] = shown
                changes.chunks.add(number // CHUNK)
            if old.filters != new.filters:
                self._filter(number, set(old.filters) - set(new.filters), False)
                self._filter(number, set(new.filters) - set(old.filters), True)
                changes.filters = True
        self._file(touched, changes)
        return changes

    def _post(self, term: str, number: int, doc: SearchDoc) -> None:
        """Set question ``number``'s postings of ``term`` to what ``doc`` holds (prompt code
        first, as ``build`` appends them)."""
        codes = array("i")
        if term in doc.prompt_terms:
            codes.append(number * 2 + 1)
        if term in doc.other_terms:
            codes.append(number * 2)
        found = self.postings.get(term)
        if found is None:
            found = self.postings[term] = array("i")
        start = bisect.bisect_left(found, number, key=_doc_number)
        end = bisect.bisect_right(found, number, lo=start, key=_doc_number)
        found[start:end] = codes
        if is_cjk(term):
            self.cjk += len(codes) - (end - start)
        if not found:
            del self.postings[term]

    def _filter(self, number: int, pairs: set[tuple[str, str]], keep: bool) -> None:
        """Set (``keep``) or clear question ``number``'s bit in the bitmaps of ``pairs``; a
        value no question has any more leaves the filters (as ``build`` never lists it)."""
        byte, bit = number >> 3, 1 << (number & 7)
        for name, value in pairs:
            values = self.filters.setdefault(name, {})
            bits = values.get(value)
            if bits is None:
                bits = values[value] = bytearray((len(self.shown) + 7) // 8)
            if keep:
                bits[byte] |= bit
                continue
            bits[byte] &= ~bit & 0xFF
            if bits.count(0) == len(bits):
                del values[value]
                if not values:
                    del self.filters[name]

    def _file(self, touched: set[str], changes: IndexChanges) -> None:
        """File the ``touched`` terms in their terms files (a term without postings leaves
        its file, a file without terms goes), refiling every CJK term when the number of
        buckets changed."""
        buckets = max(1, self.cjk // BUCKET_POSTINGS)
        if buckets != self.buckets:
            old_keys = [key for key in self.shards if key.startswith("~")]
            cjk_terms = {term for key in old_keys for term in self.shards.pop(key)}
            cjk_terms |= {term for term in touched if is_cjk(term)}
            self.buckets = buckets
            for term in cjk_terms:
                if term in self.postings:
                    self.shards.setdefault(shard_key(term, buckets), set()).add(term)
            changes.shards.update(old_keys)
            changes.shards.update(key for key in self.shards if key.startswith("~"))
            changes.manifest = True
            touched = {term for term in touched if not is_cjk(term)}
        for term in touched:
            key = shard_key(term, self.buckets)
            changes.shards.add(key)
            members = self.shards.get(key)
            if term in self.postings:
                if members is None:
                    members = self.shards[key] = set()
                    changes.manifest = True
                members.add(term)
            elif members is not None:
                members.discard(term)
                if not members:
                    del self.shards[key]
                    changes.manifest = True


def index_files(docs: Iterable[SearchDoc]) -> Iterator[tuple[str, bytes]]:
    """A locale's index as files (path relative to its folder, bytes), one at a time.

    - ``index.json``: format, number of questions, chunk size, prefix length, number of CJK
      buckets and the list of terms files;
    - ``t/<key>.json``: ``{term: postings}`` for the terms filed under ``key`` (see
      ``shard_key``); postings are the numbers of the questions holding the term, times two,
      plus one when the prompt holds it, sorted and delta-coded;
    - ``d/<n>.json``: ``[url, topic, prompt]`` of questions ``n*CHUNK`` onwards;
    - ``f.json``: per filter and value, a bitmap (base64) of the questions it keeps.

    A query downloads the manifest, one terms file per query word and the chunks of the
    results it shows; the bytes are the same for the same bank (sorted everywhere).
    """
    return LocaleIndex.build(docs).files()


def _write_files(files: Iterable[tuple[str, bytes]], output: Path) -> None:
    """Write an index's files into ``output`` (a new or empty folder)."""
    for folder in ("t", "d"):
        (output / folder).mkdir(parents=True, exist_ok=True)
    for path, data in files:
        (output / path).write_bytes(data)


def write_index(docs: Iterable[SearchDoc], output: Path) -> None:
    """Write a locale's index into the folder ``output`` (replaced)."""
    try:
        if output.exists():
            shutil.rmtree(output)
        _write_files(index_files(docs), output)
    except OSError as error:
        raise SearchIndexError(
            f"the search index could not be written to {output}: {error}"
        ) from None


def write_site_index(site_dir: Path, docs: dict[str, list[SearchDoc]]) -> IndexReport:
    """Write every locale's index into ``site_dir/<locale>/api/search/``."""
    for locale, locale_docs in docs.items():
        write_index(locale_docs, site_dir / locale / INDEX_DIR)
    return IndexReport.of(docs)


# -- rebuilds (mkdocs serve) -------------------------------------------------------------------


def _replace_file(path: Path, data: bytes) -> None:
    """Write a file in one step for its readers: a temporary name beside it, then a rename."""
    temporary = path.with_name(f".{path.name}.new")
    temporary.write_bytes(data)
    temporary.replace(path)


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
_renameat2: Any = None


def _exchange(first: Path, second: Path) -> bool:
    """Swap two paths in one step (Linux ``renameat2(RENAME_EXCHANGE)``); False where the C
    library or the file system cannot."""
    global _renameat2
    if _renameat2 is None:
        _renameat2 = False
        with contextlib.suppress(OSError, AttributeError):
            function = ctypes.CDLL(None, use_errno=True).renameat2
            function.argtypes = (
                ctypes.c_int,
                ctypes.c_char_p,
                ctypes.c_int,
                ctypes.c_char_p,
                ctypes.c_uint,
            )
            function.restype = ctypes.c_int
            _renameat2 = function
    if _renameat2 is False:
        return False
    paths = os.fsencode(first), os.fsencode(second)
    if _renameat2(_AT_FDCWD, paths[0], _AT_FDCWD, paths[1], _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(first))


def _swap_in(fresh: Path, target: Path) -> None:
    """Put the folder ``fresh`` in place of the folder ``target`` and remove the old one. A
    request always finds one or the other: an atomic exchange where the system has one, else
    two renames a moment apart."""
    if not target.exists():
        fresh.rename(target)
    elif _exchange(fresh, target):
        shutil.rmtree(fresh)
    else:
        aside = Path(tempfile.mkdtemp(prefix=".search-old-", dir=target.parent))
        target.rename(aside / "index")
        fresh.rename(target)
        shutil.rmtree(aside)


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
      documents it was made from.
    - ``rebuilt``, per locale: when the documents are the same questions in the same order
      (same count, same URLs), the changed ones (``is not``, then ``!=``: the plugin hands
      back the very same ``SearchDoc`` for an unchanged question) are replaced in the state
      and only the touched files are rewritten, each in one rename, before ``rebuilt``
      returns (milliseconds for one edited question at 30,000). Otherwise (questions added,
      removed or moved) the locale is queued for a full rebuild.
    - One background worker runs the queue: it makes the locale's index from scratch, writes it
      into a fresh folder beside ``api/search`` and swaps it in, so search keeps answering
      from the previous index meanwhile. A newer call for a queued locale replaces its
      documents (the latest win); while a locale is queued or being rebuilt the worker owns
      it, and a later edit goes through the queue too and is applied after the rebuild
      (incrementally, against the rebuilt state), never racing it.
    - A write that fails drops the locale's state: the next update rebuilds it from scratch.

    ``wait`` returns once the worker is idle (for tests and tools).
    """

    def __init__(self, site_dir: Path) -> None:
        self.site_dir = site_dir
        self.served: dict[str, _Served] = {}
        self.lock = threading.Lock()
        self.idle = threading.Condition(self.lock)
        self.pending: dict[str, list[SearchDoc] | None] = {}  # None: remove the locale's index
        self.running: str | None = None  # the locale the worker is on
        self.worker: threading.Thread | None = None

    def folder(self, locale: str) -> Path:
        """Where ``locale``'s index is served."""
        return self.site_dir / locale / INDEX_DIR

    def first(self, docs: dict[str, list[SearchDoc]]) -> IndexReport:
        """Index the first build synchronously and keep each locale's state for the rebuilds."""
        for locale, locale_docs in docs.items():
            output = self.folder(locale)
            index = LocaleIndex.build(locale_docs)
            try:
                if output.exists():
                    shutil.rmtree(output)
                _write_files(index.files(), output)
            except OSError as error:
                raise SearchIndexError(
                    f"the search index could not be written to {output}: {error}"
                ) from None
            self.served[locale] = _Served(list(locale_docs), index)
        return IndexReport.of(docs)

    def rebuilt(self, docs: dict[str, list[SearchDoc]]) -> None:
        """Bring every locale's index up to ``docs``: edits at once, the rest queued."""
        with self.lock:
            known = self.served.keys() | self.pending.keys() | {self.running}
        gone = {locale for locale in known if locale is not None} - docs.keys()
        for locale in sorted(gone):
            self._queue(locale, None)
        for locale, locale_docs in docs.items():
            with self.lock:
                if locale in self.pending or locale == self.running:  # the worker owns it
                    self._queue_locked(locale, locale_docs)
                    continue
            if not self._update(locale, locale_docs):
                self._queue(locale, locale_docs)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until no rebuild is queued or running; False if ``timeout`` passed first."""
        with self.idle:
            return self.idle.wait_for(lambda: not self.pending and self.running is None, timeout)

    def _queue(self, locale: str, docs: list[SearchDoc] | None) -> None:
        with self.lock:
            self._queue_locked(locale, docs)

    def _queue_locked(self, locale: str, docs: list[SearchDoc] | None) -> None:
        self.pending[locale] = None if docs is None else list(docs)
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
                self.running = locale
            try:
                if docs is None:
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
        # the others (found by identity, in C: 30,000 documents in a millisecond).
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
                    _replace_file(folder / path, data)
        except OSError as error:
            del self.served[locale]
            log.warning("qbank: search index of %s: %s; rebuilding it", locale, error)
            return False
        log.debug("qbank: search index of %s: %d question(s) updated", locale, len(edits))
        return True

    def _rebuild(self, locale: str, docs: list[SearchDoc]) -> None:
        """Make ``locale``'s index from scratch and swap it in for the served one."""
        self.served.pop(locale, None)  # the old state is of no use now: free it first
        index = LocaleIndex.build(background.paced(docs))  # (gives way to rebuilds)
        target = self.folder(locale)
        target.parent.mkdir(parents=True, exist_ok=True)
        fresh = Path(tempfile.mkdtemp(prefix=".search-", dir=target.parent))
        try:
            _write_files(background.paced(index.files(), 8), fresh)
            _swap_in(fresh, target)
        except OSError as error:
            log.warning("qbank: search index of %s could not be rebuilt: %s", locale, error)
            return
        finally:
            shutil.rmtree(fresh, ignore_errors=True)  # the old index, or the failed new one
        self.served[locale] = _Served(docs, index)
        log.info("qbank: search index of %s rebuilt (%d questions)", locale, len(docs))


_live: dict[Path, LiveIndex] = {}


def index_site_after_build(site_dir: Path, docs: dict[str, list[SearchDoc]]) -> IndexReport | None:
    """Index a just-built site (``docs`` by locale). The first build of a folder in this
    process is indexed at once (returns the report); a rebuild of the same folder (``mkdocs
    serve``) updates the index in place: edits at once, added, removed or moved questions in
    the background (None; see ``LiveIndex``)."""
    key = site_dir.resolve()
    live = _live.get(key)
    if live is None:
        live = LiveIndex(key)
        report = live.first(docs)
        _live[key] = live
        return report
    live.rebuilt(docs)
    return None


def live_index(site_dir: Path) -> LiveIndex | None:
    """The rebuild state of a site folder indexed by this process, if any."""
    return _live.get(site_dir.resolve())
