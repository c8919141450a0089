"""The on-disk search index of a locale: its format, and the state it is written from.

The index of a locale is a folder of small static files (``index_files``): terms files that
map terms to their questions (the terms of a run of three-letter prefixes of one first
letter, or a bucket of CJK terms), documents files of ``CHUNK`` questions, and one bitmap per
filter value.
``assets/search.js`` downloads only what a query needs: the manifest, the terms file of each
query word and the documents of the results it shows. Writing an index is plain Python over
the documents; its bytes depend only on them.
"""

from __future__ import annotations

import base64
import bisect
import itertools
import shutil
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sized
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from qbank.bank.load import gc_paused
from qbank.search.cjkpostings import BucketWatch, CjkPostings
from qbank.search.documents import LEVELS, SearchDoc
from qbank.search.termsjson import compact, postings_object
from qbank.search.tokenize import is_cjk, stemmer_spec
from qbank.search.wordpostings import WordPostings

INDEX_DIR = "api/search"
"""Where a locale's index sits, under ``<locale>/`` (``<locale>/api/`` is reserved)."""
FORMAT = 3
"""3: a terms file of Latin terms holds a run of prefixes (``FILE_BYTES``); 2: one prefix."""
CHUNK = 16
"""Questions per documents file (a result list loads the chunks of the questions shown)."""
PREFIX = 3
"""A query word is looked up among the terms of its first three characters (its prefix,
``prefix_of``): three characters or more match every term they start, shorter ones a whole
term. The terms of a prefix are always in one terms file."""
FILE_BYTES = 32_000
"""About how large a terms file of Latin terms grows: the prefixes of one first character, in
order, are cut into runs of about this many bytes of terms, a file each (``runs``; a prefix
bigger alone is a file alone). A file a prefix made most of a site's files: at 30,000
questions a locale had 6,400 terms files, half of them one term of 18 bytes, and Cloudflare
Pages takes 20,000 files a site. Runs of 32 kB make about 550 a locale, while a query word
still downloads one file, of at most about 32 kB raw (10-14 kB gzip), and the manifest lists
550 files instead of 6,400 (2.8 kB instead of 32 kB: 14 kB gzip less on a first query). A
run never crosses a first character, so that an edit under ``mkdocs serve`` cuts that
character's runs again, no more."""
BUCKET_POSTINGS = 5000
"""About how many postings of CJK terms share a terms file (CJK terms are filed by a hash:
they are only ever looked up whole). Every bucket has its file, even an empty one, so the
manifest only gives their number. 5,000 (about 22 kB raw, 9 kB gzip a file): a Chinese index
of 30,000 questions has 2,260 buckets instead of 5,660 with 2,000, and a query of four
characters (three pairs, three files) downloads about 18 kB gzip more."""


Pace = Callable[[Iterable[Any], int], Iterable[Any]]
"""How a long loop of ``LocaleIndex.build`` is run: ``background.paced`` under serve."""


PEEK = 32
"""Documents looked at before indexing, to choose how CJK terms are filed (``_mostly_cjk``)."""


def _mostly_cjk(docs: list[SearchDoc]) -> bool:
    """Whether the terms of ``docs`` are mostly CJK (a Chinese, Japanese or Korean index):
    then CJK terms are packed in arrays (``CjkPostings``), faster for many of them; in any
    other index they are filed one by one like every other term (the same files)."""
    terms = [term for doc in docs for term in doc.words]
    return sum(map(is_cjk, terms)) * 2 > len(terms)


def _unpaced(items: Iterable[Any], every: int) -> Iterable[Any]:
    return items


def bucket(term: str, buckets: int) -> int:
    """The terms file of a CJK term: a 32-bit polynomial hash of its code points (the same
    arithmetic as ``search.js``), modulo the number of buckets."""
    if len(term) == 2:  # (a CJK pair, most CJK terms: no overflow to mask, no loop)
        return (ord(term[0]) * 31 + ord(term[1])) % buckets
    h = 0
    for char in term:
        h = (h * 31 + ord(char)) & 0xFFFFFFFF
    return h % buckets


def bucketed(term: str) -> bool:
    """Whether ``term`` is filed in a CJK bucket (else by its prefix, in a run)."""
    return term[0] >= "\u3040" and is_cjk(term)


def prefix_of(term: str) -> str:
    """The prefix a term is looked up by: its first ``PREFIX`` characters."""
    return term[:PREFIX]


def bucket_key(term: str, buckets: int) -> str:
    """The key of the CJK terms file of ``term`` (``bucketed``): ``~<n>``."""
    return f"~{bucket(term, buckets)}"


def entry_sizes(lists: list[array[int]]) -> list[int]:
    """The bytes each term's postings (not delta-coded) take in a terms file, delta-coded, its
    name's quotes, colon, brackets and comma included (its name's own bytes are not): what
    ``runs`` adds up."""
    if not lists:
        return []
    lengths, codes = postings_arrays(lists)
    deltas = np.diff(codes.astype(np.int64), prepend=0)
    starts = np.cumsum(lengths) - lengths
    firsts = starts[lengths > 0]
    deltas[firsts] = codes[firsts]
    widths = np.ones(len(deltas), np.int64) + 1  # a digit and the comma after
    for power in range(1, 10):
        widths += deltas >= 10**power
    totals = np.concatenate([[0], np.cumsum(widths)])
    sizes: list[int] = (totals[starts + lengths] - totals[starts] + 5).tolist()
    return sizes


def runs(sizes: dict[str, int]) -> list[list[str]]:
    """The prefixes of one first character (with the bytes of their terms) cut into terms
    files: runs of prefixes in order, a run closed when the next prefix would take it past
    ``FILE_BYTES``. A file is named by its first prefix (``LocaleIndex.shards``)."""
    files: list[list[str]] = []
    total = 0
    for prefix in sorted(sizes):
        size = sizes[prefix]
        if not files or total + size > FILE_BYTES:
            files.append([])
            total = 0
        files[-1].append(prefix)
        total += size
    return files


def shard_name(key: str) -> str:
    """The file name of a terms file (code points in hex: any script, any file system)."""
    return "-".join(f"{ord(c):x}" for c in key)


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
    def of(cls, docs: Mapping[str, Sized]) -> IndexReport:
        """The report of indexing ``docs`` (documents by locale, or as many)."""
        return cls(Counter({locale.lower(): len(d) for locale, d in docs.items()}))


class TermsWatch(Protocol):
    """What is told of a locale's index as it is written (``write_index``): the index once
    built (``begin``), then each terms file's postings while they are in hand
    (``terms_file``), then the end of the writing (``end``). The offline copy makes each
    field's share of the terms files this way, without holding the whole index's postings a
    second time."""

    def begin(self, index: LocaleIndex) -> None: ...

    def terms_file(
        self,
        name: str,
        terms: list[str],
        lengths: npt.NDArray[np.int64],
        codes: npt.NDArray[np.int32],
    ) -> None:
        """The terms file ``name`` (``t/<name>``) holds ``terms`` (in its order), each with
        ``lengths`` postings, ``codes`` one term's after the other (not delta-coded)."""

    def end(self) -> None: ...


def _told_bucket(
    watch: TermsWatch,
    number: int,
    terms: list[str],
    lengths: npt.NDArray[np.int64],
    codes: npt.NDArray[np.int32],
) -> None:
    """Tell ``watch`` of the CJK terms file of bucket ``number``."""
    watch.terms_file(f"{shard_name(f'~{number}')}.json", terms, lengths, codes)


def postings_arrays(
    lists: list[array[int]],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
    """Terms' postings as ``TermsWatch.terms_file`` takes them: lengths and codes."""
    lengths = np.fromiter(map(len, lists), np.int64, len(lists))
    codes = np.frombuffer(b"".join(codes.tobytes() for codes in lists), np.int32)
    return lengths, codes


class SearchIndexError(Exception):
    """The search index could not be written."""


def _doc_number(code: int) -> int:
    """The question a posting belongs to (``LEVELS * n + step`` → ``n``)."""
    return code // LEVELS


@dataclass
class IndexChanges:
    """Which files of a locale's index an update touched (``LocaleIndex.replace``)."""

    shards: set[str] = field(default_factory=set)  # keys of terms files to write or delete
    chunks: set[int] = field(default_factory=set)  # numbers of documents files to write
    filters: bool = False  # f.json
    manifest: bool = False  # index.json (the list of terms files or the CJK buckets)


@dataclass
class Gathered:
    """What an index is assembled from (``LocaleIndex.assemble``): each question's shown
    texts (``shown``) and filters (``filters``), in question order, and the postings of its
    terms: ``postings``, term → codes sorted by question (every term, or with ``packed`` every
    term but the CJK ones, whose postings ``packed`` holds in arrays)."""

    shown: list[tuple[str, str, str, str]] = field(default_factory=list)
    filters: list[tuple[tuple[str, str], ...]] = field(default_factory=list)
    postings: dict[str, array[int]] = field(default_factory=dict)
    packed: CjkPostings | None = None

    @classmethod
    def of_docs(cls, docs: Iterable[SearchDoc]) -> Gathered:
        """``of`` every one of ``docs``, numbered in order, CJK terms packed when the first
        ``PEEK`` are mostly CJK (``_mostly_cjk``)."""
        docs = iter(docs)
        first = list(itertools.islice(docs, PEEK))
        return cls.of(enumerate(itertools.chain(first, docs)), _mostly_cjk(first))

    @classmethod
    def of(cls, numbered: Iterable[tuple[int, SearchDoc]], cjk: bool) -> Gathered:
        """The postings of ``numbered`` documents (numbers growing), CJK terms packed when
        ``cjk``; their shown texts and filters one after the other."""
        gathered = cls()
        growing: defaultdict[str, array[int]] = defaultdict(lambda: array("i"))
        packed = CjkPostings(LEVELS) if cjk else None
        words = WordPostings(LEVELS) if packed is None else None
        for number, doc in numbered:
            if words is not None:
                words.add(number, doc.words, doc.steps)
            elif packed is not None and doc.words:
                for term, code in packed.add(number, doc.words, doc.steps):
                    growing[term].append(code)
            gathered.shown.append((doc.url, doc.topic, doc.prompt, doc.more))
            gathered.filters.append(doc.filters)
        if words is not None:
            growing.update(words.done())
        if packed is not None:
            for term, code in packed.flush():
                growing[term].append(code)
            packed.done()
        growing.default_factory = None  # from now on a plain dict: a lookup never adds
        gathered.postings = growing
        gathered.packed = packed
        return gathered


@dataclass
class LocaleIndex:
    """A locale's index in memory: what its files are made from, and what an edit updates.

    - ``locale``: whose rules the manifest names (``stemmer_spec``);
    - ``postings``: term → the codes of the questions holding it (``LEVELS * n + step``, the
      term's weight step in question ``n``), a 32-bit array sorted by question (a large
      locale has millions of postings: 4 bytes each this way, not a Python object each);
    - ``shown``: ``(url, topic, prompt, more)`` of each question, what a documents file lists;
    - ``filters``: filter → value → bitmap of the questions it keeps (one bit per question);
    - ``cjk``: how many postings CJK terms have, which sets ``buckets``, the number of terms
      files CJK terms are hashed into;
    - ``shards``: terms file key → its terms: ``~<n>`` for a CJK bucket (``bucket_key``),
      else the first prefix of a run (``runs``), the run holding every term of its prefixes;
    - ``sizes``: per term filed in a run, the bytes of its postings (``entry_sizes``; the
      term's length is added where they are summed);
    - ``packed``: after ``build``, the CJK terms' postings in arrays (``CjkPostings``), from
      which ``files`` writes their terms files; ``unpack`` moves them into ``postings`` and
      ``shards`` (what ``replace`` edits), as the live index does once it is written.

    ``files`` writes it out (``index_files``); ``replace`` puts edited questions in place of
    their old versions and says which files changed (``changed_files``), so that an edit
    rewrites a few small files instead of the whole index.
    """

    locale: str = ""
    postings: dict[str, array[int]] = field(default_factory=dict)
    shown: list[tuple[str, str, str, str]] = field(default_factory=list)
    filters: dict[str, dict[str, bytearray]] = field(default_factory=dict)
    cjk: int = 0
    buckets: int = 1
    shards: dict[str, set[str]] = field(default_factory=dict)
    sizes: dict[str, int] = field(default_factory=dict)
    packed: CjkPostings | None = None

    @classmethod
    def build(cls, docs: Iterable[SearchDoc], locale: str, pace: Pace | None = None) -> LocaleIndex:
        """The index of ``locale``'s ``docs`` (consumed once, in order: documents are not
        kept). ``pace`` wraps its long loops (``background.paced`` when a serve rebuild must
        be able to come first)."""
        return cls.assemble(locale, Gathered.of_docs(docs), pace)

    @classmethod
    def assemble(cls, locale: str, gathered: Gathered, pace: Pace | None = None) -> LocaleIndex:
        """The index of the postings, shown texts and filters of ``gathered`` (whose
        postings it takes over)."""
        index = cls(locale)
        index.shown = gathered.shown
        width = (len(index.shown) + 7) // 8
        by_filter: dict[str, dict[str, list[int]]] = {}
        for number, pairs in enumerate(gathered.filters):
            for name, value in pairs:
                by_filter.setdefault(name, {}).setdefault(value, []).append(number)
        for name, values in by_filter.items():
            index.filters[name] = {}
            for value, numbers in values.items():
                bits = index.filters[name][value] = bytearray(width)
                for number in numbers:
                    bits[number >> 3] |= 1 << (number & 7)
        # (every term but the CJK ones, which are packed)
        index.postings = postings = gathered.postings
        index.packed = packed = gathered.packed
        pace = pace or _unpaced
        terms = pace(postings.items(), 4096)
        index.cjk = sum(len(codes) for term, codes in terms if is_cjk(term)) + len(packed or ())
        index.buckets = max(1, index.cjk // BUCKET_POSTINGS)
        by_first: dict[str, list[str]] = {}
        for term in pace(postings, 4096):
            if bucketed(term):
                index.shards.setdefault(bucket_key(term, index.buckets), set()).add(term)
            else:
                by_first.setdefault(term[0], []).append(term)
        for terms in pace(list(by_first.values()), 16):
            index.sizes.update(zip(terms, entry_sizes([postings[t] for t in terms]), strict=True))
            index.shards.update(index._runs(terms))
        if packed is not None and any(key.startswith("~") for key in index.shards):
            index.unpack()  # (a CJK term that was not packed: all filed one by one)
        return index

    def _runs(self, terms: Iterable[str]) -> dict[str, set[str]]:
        """The terms files of ``terms`` (of one first character, each in ``sizes``): first
        prefix → terms."""
        by_prefix: dict[str, set[str]] = {}
        sizes: Counter[str] = Counter()
        for term in terms:
            prefix = prefix_of(term)
            by_prefix.setdefault(prefix, set()).add(term)
            sizes[prefix] += self.sizes[term] + len(term.encode("utf-8"))
        return {run[0]: set().union(*(by_prefix[prefix] for prefix in run)) for run in runs(sizes)}

    def unpack(self, pace: Pace | None = None) -> None:
        """Move the packed CJK postings into ``postings`` and ``shards`` (for ``replace``)."""
        packed, self.packed = self.packed, None
        if packed is None:
            return
        unpacked = packed.unpacked(pace)
        self.postings.update(unpacked)
        for term, number in zip(unpacked, packed.buckets(self.buckets).tolist(), strict=True):
            self.shards.setdefault(f"~{number}", set()).add(term)

    # -- files

    def shard_file(self, key: str, watch: TermsWatch | None = None) -> tuple[str, bytes]:
        """The terms file ``key``: ``{term: postings}``, terms sorted, postings delta-coded
        (told to ``watch``)."""
        terms = sorted(self.shards.get(key, ()))
        lengths, codes = postings_arrays([self.postings[term] for term in terms])
        name = f"{shard_name(key)}.json"
        if watch is not None:
            watch.terms_file(name, terms, lengths, codes)
        return f"t/{name}", postings_object(terms, lengths, codes)

    def chunk_file(self, number: int) -> tuple[str, bytes]:
        """Documents file ``number``: ``[url, topic, prompt, more]`` of its ``CHUNK``
        questions."""
        return f"d/{number}.json", compact(self.shown[number * CHUNK : (number + 1) * CHUNK])

    def filters_file(self) -> tuple[str, bytes]:
        """``f.json``: per filter and value (sorted), its bitmap in base64."""
        return "f.json", compact(
            {
                name: {
                    value: base64.b64encode(bits).decode("ascii")
                    for value, bits in sorted(values.items())
                }
                for name, values in sorted(self.filters.items())
            }
        )

    def manifest_file(self) -> tuple[str, bytes]:
        """``index.json``: format, sizes, CJK buckets, the stemmer and the terms files' keys
        (``shards``: the first prefix of each run, sorted; a prefix is in the last run of its
        first character that starts at or before it)."""
        return "index.json", compact(
            {
                "format": FORMAT,
                "docs": len(self.shown),
                "chunk": CHUNK,
                "prefix": PREFIX,
                "buckets": self.buckets,
                "levels": LEVELS,
                "stem": stemmer_spec(self.locale),
                "shards": "\n".join(sorted(k for k in self.shards if not k.startswith("~"))),
            }
        )

    def files(self, watch: TermsWatch | None = None) -> Iterator[tuple[str, bytes]]:
        """Every file of the index (path relative to its folder, bytes), one at a time; each
        terms file's postings told to ``watch`` as it is made."""
        if self.packed is None:
            keys = sorted(self.shards.keys() | self._buckets())
        else:  # (the CJK terms files from the arrays)
            told: BucketWatch | None = None
            if watch is not None:
                told = partial(_told_bucket, watch)
            for number, data in self.packed.files(self.buckets, told):
                yield f"t/{shard_name(f'~{number}')}.json", data
            keys = sorted(self.shards)
        for key in keys:
            yield self.shard_file(key, watch)
        for number in range((len(self.shown) + CHUNK - 1) // CHUNK):
            yield self.chunk_file(number)
        yield self.filters_file()
        yield self.manifest_file()

    def changed_files(self, changes: IndexChanges) -> Iterator[tuple[str, bytes | None]]:
        """The files ``changes`` touched (``None``: a terms file that no longer exists), the
        manifest after the files it names and deletions last, so that a reader of the old
        manifest finds its files until the new one is in place."""
        present = self.shards.keys() | self._buckets()
        for key in sorted(changes.shards & present):
            yield self.shard_file(key)
        for number in sorted(changes.chunks):
            yield self.chunk_file(number)
        if changes.filters:
            yield self.filters_file()
        if changes.manifest:
            yield self.manifest_file()
        for key in sorted(changes.shards - present):
            yield f"t/{shard_name(key)}.json", None

    def _buckets(self) -> set[str]:
        """The keys of the CJK terms files (all of them are written)."""
        return {f"~{n}" for n in range(self.buckets)}

    # -- updates

    def replace(self, edits: Iterable[tuple[int, SearchDoc, SearchDoc]]) -> IndexChanges:
        """Put each edited question ``(n, old, new)`` in place of its old version (same number,
        same URL) and say which files changed. Only the terms whose postings differ are
        touched; the runs of their first characters are cut again (as ``build`` would cut
        them); when the CJK postings cross a multiple of ``BUCKET_POSTINGS`` every CJK term
        is filed again under the new number of buckets."""
        self.unpack()
        changes = IndexChanges()
        touched: set[str] = set()
        for number, old, new in edits:
            if old.words != new.words or old.steps != new.steps:
                before, after = dict(old.terms), dict(new.terms)
                differ = {t for t in before.keys() | after.keys() if before.get(t) != after.get(t)}
                for term in differ:
                    self._post(term, number, after.get(term))
                touched |= differ
            shown = (new.url, new.topic, new.prompt, new.more)
            if self.shown[number] != shown:
                self.shown[number] = shown
                changes.chunks.add(number // CHUNK)
            if old.filters != new.filters:
                self._filter(number, set(old.filters) - set(new.filters), False)
                self._filter(number, set(new.filters) - set(old.filters), True)
                changes.filters = True
        self._file(touched, changes)
        return changes

    def _post(self, term: str, number: int, step: int | None) -> None:
        """Set question ``number``'s posting of ``term`` to weight ``step`` (None: none)."""
        codes = array("i")
        if step is not None:
            codes.append(number * LEVELS + step)
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
        buckets changed and cutting the runs of the other terms' first characters again."""
        latin = {term for term in touched if not bucketed(term)}
        touched = touched - latin
        self._file_runs(latin, changes)
        buckets = max(1, self.cjk // BUCKET_POSTINGS)
        if buckets != self.buckets:
            old_buckets = self._buckets()
            old_keys = [key for key in self.shards if key.startswith("~")]
            cjk_terms = {term for key in old_keys for term in self.shards.pop(key)}
            cjk_terms |= touched
            self.buckets = buckets
            for term in cjk_terms:
                if term in self.postings:
                    self.shards.setdefault(bucket_key(term, buckets), set()).add(term)
            changes.shards.update(old_keys, old_buckets)
            changes.shards.update(self._buckets())
            changes.manifest = True
            touched = {term for term in touched if not bucketed(term)}
        for term in touched:
            key = bucket_key(term, self.buckets)
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

    def _file_runs(self, touched: set[str], changes: IndexChanges) -> None:
        """Cut again the runs of the first characters of ``touched`` (terms filed by prefix,
        their postings changed), noting the files whose terms or postings changed."""
        present = [term for term in touched if term in self.postings]
        for term in touched - set(present):
            self.sizes.pop(term, None)
        self.sizes.update(
            zip(present, entry_sizes([self.postings[t] for t in present]), strict=True)
        )
        for first in {term[0] for term in touched}:
            old = {
                key: members
                for key, members in self.shards.items()
                if key[0] == first and not key.startswith("~")
            }
            terms = {term for members in old.values() for term in members}
            terms = {term for term in terms | touched if term[0] == first and term in self.postings}
            new = self._runs(terms)
            for key in old.keys() | new.keys():
                members = new.get(key)
                if members != old.get(key) or (members is not None and members & touched):
                    changes.shards.add(key)
            if old.keys() != new.keys():
                changes.manifest = True
            for key in old:
                del self.shards[key]
            self.shards.update(new)


def index_files(docs: Iterable[SearchDoc], locale: str) -> Iterator[tuple[str, bytes]]:
    """A locale's index as files (path relative to its folder, bytes), one at a time.

    - ``index.json``: format, number of questions, chunk size, prefix length, number of CJK
      buckets, weight steps, the stemmer (``stemmer_spec``) and the list of terms files (the
      first prefix of each run, ``manifest_file``);
    - ``t/<key>.json``: ``{term: postings}`` for the terms filed under ``key`` (see
      ``LocaleIndex.shards``); a posting is ``LEVELS * n + step`` for question ``n`` and the term's
      weight step there (``documents.levels``), sorted and delta-coded;
    - ``d/<n>.json``: ``[url, topic, prompt, more]`` of questions ``n*CHUNK`` onwards;
    - ``f.json``: per filter and value, a bitmap (base64) of the questions it keeps.

    A query downloads the manifest, one terms file per query word and the chunks of the
    results it shows; the bytes are the same for the same bank (sorted everywhere).
    """
    return LocaleIndex.build(docs, locale).files()


Write = Callable[[str, Path, bytes], None]
"""How an index's file is written: its path in the index's folder, the file, its bytes."""


def write_file(_path: str, target: Path, data: bytes) -> None:
    """``Write`` as it is: the bytes into the file."""
    target.write_bytes(data)


def write_files(
    files: Iterable[tuple[str, bytes]], output: Path, write: Write = write_file
) -> None:
    """Write an index's files into ``output`` (a new or empty folder)."""
    for folder in ("t", "d"):
        (output / folder).mkdir(parents=True, exist_ok=True)
    for path, data in files:
        write(path, output / path, data)


def write_index(
    docs: Iterable[SearchDoc],
    output: Path,
    locale: str,
    watch: TermsWatch | None = None,
) -> None:
    """Write ``locale``'s index of ``docs`` into the folder ``output`` (replaced), telling
    ``watch`` of the index and of each terms file as it is written (``TermsWatch``)."""
    write_built(lambda: LocaleIndex.build(docs, locale), output, watch)


def write_built(
    make: Callable[[], LocaleIndex],
    output: Path,
    watch: TermsWatch | None = None,
    write: Write = write_file,
) -> None:
    """``write_index`` of the index ``make`` returns (made once ``output`` is cleared), each
    file by ``write``."""
    try:
        if output.exists():
            shutil.rmtree(output)
        with gc_paused():  # (millions of objects made, no cycle among them)
            index = make()
            if watch is not None:
                watch.begin(index)
            write_files(index.files(watch), output, write)
            if watch is not None:
                watch.end()
    except OSError as error:
        raise SearchIndexError(
            f"the search index could not be written to {output}: {error}"
        ) from None


def write_site_index(site_dir: Path, docs: dict[str, list[SearchDoc]]) -> IndexReport:
    """Write every locale's index into ``site_dir/<locale>/api/search/``."""
    for locale, locale_docs in docs.items():
        write_index(locale_docs, site_dir / locale / INDEX_DIR, locale)
    return IndexReport.of(docs)
