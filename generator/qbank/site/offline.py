"""The offline copy a reader's browser keeps: the build id, the per-field manifests and the
service worker file, all computed from a finished site folder.

- ``sw.js`` at the site root (so its scope, the folder of its URL, is the whole site: every
  locale and the shared ``assets/``, with no ``Service-Worker-Allowed`` header, which static
  hosts do not send): ``site_templates/worker/sw.js`` with the build's data in its first
  line (``BUILD``, the shell's files, each locale's own pages).
- The build id is a hash of every file the worker can serve (path and content), so two builds
  of the same bank give the same id and the same bytes, and any changed byte gives another
  id, another ``sw.js``, and with it the browser's update of the worker.
- ``<locale>/api/offline/fields.json``: ``{field: [bytes, files]}``, what keeping each field
  takes (read by the field page before anything is downloaded); ``<field>.json``: the
  field's manifest, ``{format, build, locale, field, bytes, files: [[path, size, digest]]}``:
  its pages (every part), the locale's own pages (home, review, saved, progress), its
  practice files and images, the search manifest, filters and documents files of its
  questions, and ``<field>.terms.json``, its share of every terms file (``SearchNeeds``).

Core module: no MkDocs import; the plugin runs it on the staged site, ``qbank build`` on its
tree (``tree_offline``), ``verify`` reads what it wrote.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import posixpath
import re
import shutil
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from qbank.bank.loaded import Bank
from qbank.search.documents import LEVELS
from qbank.search.index import CHUNK, INDEX_DIR, LocaleIndex, Write, write_file
from qbank.search.termsjson import compact, json_string, objects
from qbank.site.minify import asset_bytes
from qbank.site.strings import strings_for

WORKER = "sw.js"
"""The worker's file, at the site root."""
WORKER_SOURCE = "worker/sw.js"
"""Its source under ``site_templates/`` (shipped at the site root only: not one of the assets)."""
PAGE_SCRIPT = "assets/offline.js"
"""The page side (an ES module every page loads): registration, update notice, field box."""
MANIFEST_DIR = "api/offline"
"""Where a locale's manifests sit, under ``<locale>/``."""
SUMMARY = "fields.json"
TERMS_SUFFIX = ".terms.json"
"""A field's share of its locale's terms files, beside its manifest."""
FORMAT = 1
_DATA_LINE = re.compile(r"self\.QBANK\s*=\s*null;")
"""The statement of ``sw.js``'s source that the build's data, on the first line, replaces."""
_NOT_SERVED = re.compile(r"(^|/)api/bank\.json$|\.map$|(^|/)api/offline/|^sw\.js$")
"""Files the worker never keeps: the bank export (read by no page, 100 MB a locale at 30,000
questions), source maps, and the offline files themselves (made from the others)."""
LOCALE_PAGES = ("index.html", "review/index.html", "saved/index.html", "progress/index.html")
"""A locale's own pages, kept with the first page of the locale a reader opens and with
every kept field (the review queue works offline)."""
_ASSET_REF = re.compile(
    r"<(?:script\b[^>]*?\bsrc|link\b[^>]*?\bhref)=\"?([^\"\s>]+)", re.IGNORECASE
)


_SHELL_FILE = re.compile(r"\.(js|css|png|svg|ico|woff2?)$")
"""What the theme's part of the shell can be (a page's links to other pages are not)."""


@dataclass(frozen=True)
class SiteFile:
    """One file the worker may serve: its size and a digest of its bytes."""

    size: int
    digest: str


@dataclass
class OfflineFiles:
    """What ``offline_files`` makes: ``files`` (site-root path → bytes) and the figures."""

    build: str
    files: dict[str, bytes] = field(default_factory=dict)
    field_bytes: dict[tuple[str, str], int] = field(default_factory=dict)


def file_digest(data: bytes) -> str:
    """The digest of a site file's bytes, as the offline manifests list it."""
    # SHA-256 (OpenSSL, with the processor's SHA instructions) digested the 640 MB of a
    # 30,000 x 3 site in about half the time BLAKE2b took (0.35 against 0.64 s).
    return hashlib.sha256(data).hexdigest()[:16]


def _read(path: str) -> bytes:
    with open(path, "rb") as file:  # noqa: PTH123 (a str path: no Path made)
        return file.read()


def _served_path(path: str) -> str:
    """Where a tree's file is served once published: ``a/index.md`` and ``a.md`` as
    ``a/index.html`` (directory URLs), anything else as it is."""
    if not path.endswith(".md"):
        return path
    stem = path[: -len(".md")]
    if stem == "index" or stem.endswith("/index"):
        return stem + ".html"
    return stem + "/index.html"


class KnownDigests(Protocol):
    """Digests of a site's files kept from an earlier build by each file's inode, time and
    size (``qbank.live.sitelinks.SiteDigests``): a file the build linked from the last site
    is not read again."""

    def digest(self, path: str, found: os.stat_result) -> str | None:
        """The digest of the file at the site-root ``path`` if it is the one kept."""

    def made(self, path: str, found: os.stat_result, digest: str) -> None:
        """The file at ``path`` was read: keep its digest."""


def site_files(
    site: Path, *, tree: bool = False, known: KnownDigests | None = None
) -> dict[str, SiteFile]:
    """Every file of the site folder the worker may serve, by site-root path (sorted);
    ``tree``: a ``qbank build`` docs folder, its pages named as they will be served;
    ``known``: the digests kept of files not changed since (not read again)."""
    found: dict[str, SiteFile] = {}
    unknown: list[tuple[str, str, os.stat_result | None]] = []  # (path, file, stat) to read
    # (paths as strings: at 13,000 files a site, a ``Path`` made per file was half the walk)
    stack = [(os.fspath(site), "")]
    while stack:
        folder, below = stack.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.startswith("."):
                    continue
                path = below + entry.name
                if entry.is_dir(follow_symlinks=False):
                    stack.append((entry.path, path + "/"))
                    continue
                if tree:
                    path = _served_path(path)
                if _NOT_SERVED.search(path):
                    continue
                if known is None:
                    unknown.append((path, entry.path, None))
                    continue
                stat = entry.stat()
                digest = known.digest(path, stat)
                if digest is None:
                    unknown.append((path, entry.path, stat))
                    continue
                found[path] = SiteFile(stat.st_size, digest)
    paths = [file for _, file, _ in unknown]
    chunks = [paths[n : n + _CHUNK] for n in range(0, len(paths), _CHUNK)]
    with ThreadPoolExecutor(_READERS) as pool:
        read = itertools.chain.from_iterable(pool.map(_read_digests, chunks))
        for (path, _, seen), (size, digest) in zip(unknown, read, strict=True):
            found[path] = SiteFile(size, digest)
            if known is not None and seen is not None:
                known.made(path, seen, digest)
    return dict(sorted(found.items()))


_READERS = 2
"""Threads reading and digesting a site's files: both release the interpreter while they
work, and the build's other processes have ended by then (at 30,000 x 3, a cold build's
13,400 files, 654 MB: a median of 2.2 s in one thread, 1.8 s in two, 1.9 s in three)."""


_CHUNK = 64  # files a thread's task (a task a file: its future cost as much as a read)


def _read_digests(paths: list[str]) -> list[tuple[int, str]]:
    found = []
    for path in paths:
        data = _read(path)
        found.append((len(data), file_digest(data)))
    return found


def build_id(files: dict[str, SiteFile]) -> str:
    """The id of a build: a hash over every served file's path and digest."""
    hasher = hashlib.blake2b(digest_size=8)
    for path, info in files.items():
        hasher.update(f"{path}\0{info.digest}\n".encode())
    return hasher.hexdigest()


def page_assets(html: str, page: str, files: Iterable[str]) -> list[str]:
    """The site's files that the page at ``page`` loads from its head and body (scripts,
    stylesheets, icons, preloads): the theme's part of the shell."""
    present = set(files)
    found = []
    for url in _ASSET_REF.findall(html):
        if "//" in url or url.startswith(("data:", "#", "/")):
            continue
        target = posixpath.normpath(posixpath.join(posixpath.dirname(page), url.split("?")[0]))
        if target in present and target not in found and _SHELL_FILE.search(target):
            found.append(target)
    return found


@dataclass
class SearchNeeds:
    """What a kept field of a locale needs of its search index: ``files`` (the manifest,
    filters and documents files listing one of its questions) and ``share``, its own share of
    every terms file as JSON: ``{terms file name: {term: delta-coded postings of its
    questions}}``, written as ``<field>.terms.json``, from which the worker answers a terms
    file offline."""

    files: set[str] = field(default_factory=set)
    share: bytes = b"{}"


SHARES_DIR = ".offline"
"""Under a locale's index folder: the fields' shares of it, made while the index is written
(``FieldShares``); hidden, so never served, and gone once ``offline_files`` has taken them."""
_DOCUMENTS = "documents.json"
"""In ``SHARES_DIR``: ``{field: [documents file numbers]}``."""
_BATCH = 1 << 16
"""About how many postings ``FieldShares`` cuts at a time (its arrays: a few MB)."""


def _owners(urls: Iterable[str], fields: list[str]) -> np.ndarray[Any, Any]:
    """Per question (by its URL, ``/<locale>/<field>/…``) the number of its field among
    ``fields`` (-1: none), with one -1 more at the end."""
    number = {f: n for n, f in enumerate(fields)}
    owners = []
    for url in urls:
        parts = str(url).strip("/").split("/")
        owners.append(number.get(parts[1], -1) if len(parts) > 1 else -1)
    return np.array([*owners, -1], dtype=np.int32)


class KnownShares(Protocol):
    """Fields' shares kept from an earlier build (``qbank.live.sharecache.KeptShares``): a
    share whose index would file the same postings under the same files is not cut again."""

    def given(self, index: LocaleIndex, owners: np.ndarray[Any, Any]) -> dict[int, bytes]:
        """The kept share of each field (by its number) that ``index``, whose questions'
        fields are ``owners`` (``_owners``), would make again."""

    def made(self, number: int, share: bytes) -> None:
        """Field ``number``'s share is ``share``."""


class FieldShares:
    """Each field's share of one locale's terms files (``SearchNeeds.share``), made as the
    index writes them (a ``search.index.TermsWatch``) or from a written index's files
    (``_disk_shares``). The postings of each terms file are cut by their questions' fields
    while they are in hand, a batch of files at a time, and each (field, file) kept as its
    JSON text: the locale's postings are never held a second time (at 30,000 questions x 3
    locales, arrays over a whole locale's postings made the build's peak, 2.4 GB). With
    ``folder`` (the index's folder) ``end`` writes the shares and each field's documents
    files into its ``SHARES_DIR``, for ``offline_files``; ``known`` gives the shares an
    earlier build made of the same postings, which are not cut again. One per index
    written."""

    def __init__(
        self, fields: Iterable[str], folder: Path | None = None, known: KnownShares | None = None
    ) -> None:
        self.fields = list(fields)
        self.folder = folder
        self.known = known
        self._given: dict[int, bytes] = {}
        self._owner_of = _owners((), self.fields)
        self._cut_owner = self._owner_of  # (the owners cut: none of a given share)
        self._pieces: list[list[tuple[str, bytes]]] = [[] for _ in self.fields]
        self._waiting: list[tuple[str, list[str], np.ndarray[Any, Any], np.ndarray[Any, Any]]]
        self._waiting = []
        self._postings = 0

    def begin(self, index: LocaleIndex) -> None:
        self.questions(shown[0] for shown in index.shown)
        if self.known is not None:
            self._given = self.known.given(index, self._owner_of)
            if self._given:
                cut = self._cut_owner = self._owner_of.copy()
                cut[np.isin(cut, list(self._given))] = -1

    def questions(self, urls: Iterable[str]) -> None:
        """Take each question's URL (``/<locale>/<field>/…``), in the index's order."""
        self._owner_of = self._cut_owner = _owners(urls, self.fields)

    def terms_file(
        self,
        name: str,
        terms: list[str],
        lengths: np.ndarray[Any, Any],
        codes: np.ndarray[Any, Any],
    ) -> None:
        if len(codes):
            self._waiting.append((name, terms, lengths, codes))
            self._postings += len(codes)
            if self._postings >= _BATCH:
                self._cut()

    def end(self) -> None:
        self._cut()
        if self.folder is None:
            return
        target = self.folder / SHARES_DIR
        target.mkdir(parents=True, exist_ok=True)
        for number, name in enumerate(self.fields):
            share = self.share(number)
            (target / f"{name}.json").write_bytes(share)
            if self.known is not None:
                self.known.made(number, share)
            self._pieces[number] = []  # (written: let go)
        documents = dict(zip(self.fields, self.documents(), strict=True))
        (target / _DOCUMENTS).write_bytes(compact(documents))

    def share(self, number: int) -> bytes:
        """Field ``number``'s share as JSON: ``{terms file name: {term: delta-coded postings
        of its questions}}``, files by name and terms in their file's order (the bytes of
        ``json.dumps(…, ensure_ascii=False, separators=(",", ":"))``)."""
        given = self._given.get(number)
        if given is not None:
            return given
        pieces = sorted(self._pieces[number])  # (one piece a file: by its name)
        return b"{" + b",".join(piece for _, piece in pieces) + b"}"

    def documents(self) -> list[list[int]]:
        """Per field, the numbers of the documents files that list one of its questions."""
        chunks = np.arange(len(self._owner_of) - 1) // CHUNK
        owner_of = self._owner_of[:-1]
        return [np.unique(chunks[owner_of == n]).tolist() for n in range(len(self.fields))]

    def _cut(self) -> None:
        """Cut the waiting terms files' postings by field: one pass in numpy over them, then
        one string a (field, term) and one piece a (field, file)."""
        waiting, self._waiting, self._postings = self._waiting, [], 0
        if not waiting:
            return
        names = [term for _, terms, _, _ in waiting for term in terms]
        lengths = np.concatenate([lengths for _, _, lengths, _ in waiting])
        codes = np.concatenate([codes for _, _, _, codes in waiting]).astype(np.int64)
        file_of = np.repeat(np.arange(len(waiting)), [len(terms) for _, terms, _, _ in waiting])
        term_of = np.repeat(np.arange(len(names)), lengths)
        owner_of = self._cut_owner
        owner = owner_of[np.clip(codes // LEVELS, 0, len(owner_of) - 1)]
        kept = np.flatnonzero(owner >= 0)
        if not len(kept):
            return
        # By field, then term: the postings are in term order already (then by code), so a
        # stable sort by field alone (a radix sort in 16 bits) leaves each field's in it.
        small = owner.dtype if len(self.fields) > 2**15 else np.int16
        kept = kept[np.argsort(owner[kept].astype(small), kind="stable")]
        owners, terms, codes = owner[kept], term_of[kept], codes[kept]
        first = np.ones(len(kept), bool)
        first[1:] = (owners[1:] != owners[:-1]) | (terms[1:] != terms[:-1])
        deltas = np.diff(codes, prepend=0)
        deltas[first] = codes[first]
        starts = np.flatnonzero(first)  # (a group: a field's postings of one term)
        group_terms = terms[starts]
        group_owners, group_files = owners[starts], file_of[group_terms]
        # (a field's terms of one file are together: an object each)
        opens = np.flatnonzero(
            (group_owners[1:] != group_owners[:-1]) | (group_files[1:] != group_files[:-1])
        )
        bounds = [0, *(opens + 1).tolist(), len(starts)]
        made = objects(names, group_terms, np.diff(np.append(starts, len(kept))), deltas, bounds)
        heads = [json_string(name) + b":" for name, _, _, _ in waiting]
        for number, file, share in zip(
            group_owners[bounds[:-1]].tolist(),
            group_files[bounds[:-1]].tolist(),
            made,
            strict=True,
        ):
            self._pieces[number].append((waiting[file][0], heads[file] + share))


def _disk_shares(folder: Path, fields: Iterable[str]) -> FieldShares:
    """``FieldShares`` cut from a written index in the folder ``folder``."""
    shares = FieldShares(fields)
    chunks = sorted((folder / "d").glob("*.json"), key=lambda p: int(p.stem))
    shares.questions(url for chunk in chunks for url, *_ in json.loads(chunk.read_bytes()))
    for path in (folder / "t").glob("*.json"):
        found = [(term, deltas) for term, deltas in json.loads(path.read_bytes()).items() if deltas]
        lengths = np.fromiter((len(deltas) for _, deltas in found), np.int64, len(found))
        flat = np.fromiter(
            itertools.chain.from_iterable(deltas for _, deltas in found),
            np.int64,
            int(lengths.sum()),
        )
        sums = np.cumsum(flat)
        starts = np.cumsum(lengths) - lengths
        before = np.where(starts > 0, sums[np.maximum(starts - 1, 0)], 0) if len(flat) else starts
        codes = sums - np.repeat(before, lengths)  # each term's deltas summed on their own
        shares.terms_file(path.name, [term for term, _ in found], lengths, codes)
    shares.end()
    return shares


def _search_needs(site: Path, locale: str, fields: Iterable[str]) -> dict[str, SearchNeeds]:
    """Per field, what it needs of ``locale``'s search index (``SearchNeeds``). A field's
    questions hold words of nearly every terms file (they are cut by word, not by field), so
    its share of them, not the files, is what a reader keeps. The shares the index's writer
    left (``FieldShares``) are taken (and removed); without them (a ``qbank build``
    tree) they are cut from the written index."""
    folder = site / locale / INDEX_DIR
    wanted = list(fields)
    needs = {f: SearchNeeds() for f in wanted}
    if not (folder / "index.json").is_file():
        return needs
    prefix = f"{locale}/{INDEX_DIR}/"
    kept = folder / SHARES_DIR
    if (kept / _DOCUMENTS).is_file():
        documents = json.loads((kept / _DOCUMENTS).read_bytes())
        for name in wanted:
            needs[name].files.update(f"{prefix}d/{n}.json" for n in documents.get(name, ()))
            needs[name].share = (kept / f"{name}.json").read_bytes()
        shutil.rmtree(kept)
    else:
        shares = _disk_shares(folder, wanted)
        for number, (name, numbers) in enumerate(zip(wanted, shares.documents(), strict=True)):
            needs[name].files.update(f"{prefix}d/{n}.json" for n in numbers)
            needs[name].share = shares.share(number)
    for found in needs.values():
        found.files.update(prefix + name for name in ("index.json", "f.json"))
    return needs


def _field_paths(
    files: dict[str, SiteFile], locale: str, fields: Iterable[str]
) -> dict[str, set[str]]:
    """Per field of ``locale``: its pages, practice files, images and the locale's pages."""
    own = [f"{locale}/{page}" for page in LOCALE_PAGES if f"{locale}/{page}" in files]
    paths: dict[str, set[str]] = {f: set(own) for f in fields}
    for path in files:
        parts = path.split("/")
        if len(parts) > 2 and parts[0] == locale and parts[1] in paths:
            paths[parts[1]].add(path)
        elif parts[:3] == [locale, "api", "practice"] and len(parts) > 4 and parts[3] in paths:
            paths[parts[3]].add(path)
        elif parts[0] == "images" and len(parts) > 2 and parts[1] in paths:
            paths[parts[1]].add(path)
    return paths


def worker_script(data: dict[str, Any] | None) -> bytes:
    """``sw.js`` with the build's ``data`` (``None``: the worker that removes itself, for
    ``mkdocs serve``, whose preview must never come from a cache)."""
    source, found = _DATA_LINE.subn("", asset_bytes(WORKER_SOURCE).decode("utf-8"), 1)
    if not found:
        raise ValueError(f"{WORKER_SOURCE} lost its line self.QBANK = null;")
    text = compact(data or {"off": True}).decode("utf-8")
    line = "self.QBANK = " + text + ";"
    return (line + "\n" + source).encode("utf-8")


def offline_files(
    site: Path,
    locales: Iterable[str],
    fields: Iterable[str],
    shell: Iterable[str],
    strings: dict[str, dict[str, str]],
    *,
    tree: bool = False,
    known: KnownDigests | None = None,
) -> OfflineFiles:
    """The worker and the manifests of the site in the folder ``site`` (written by
    ``write_offline``). ``shell``: the qbank assets every reader keeps; the theme's are
    found in the default (first) locale's home page. ``strings``: per locale, the worker's
    text (the page it shows for a page that was never kept)."""
    files = site_files(site, tree=tree, known=known)
    build = build_id(files)
    locales = list(locales)
    fields = list(fields)
    home = f"{locales[0]}/index.html" if locales else "index.html"
    theme: list[str] = []
    if (site / home).is_file():
        theme = page_assets((site / home).read_text("utf-8", "replace"), home, files)
    kept_shell = [p for p in dict.fromkeys([*shell, *theme]) if p in files]
    out = OfflineFiles(build)
    own_pages = {
        loc: [f"{loc}/{p}" for p in LOCALE_PAGES if f"{loc}/{p}" in files] for loc in locales
    }
    for locale in locales:
        paths = _field_paths(files, locale, fields)
        search = _search_needs(site, locale, fields)
        summary: dict[str, list[int]] = {}
        for name in fields:
            chosen = sorted((paths[name] | search[name].files) & files.keys())
            if not any(p.startswith(f"{locale}/{name}/") for p in chosen):
                continue  # (a field with no page in this locale)
            listed = [(p, files[p].size, files[p].digest) for p in chosen]
            share = f"{locale}/{MANIFEST_DIR}/{name}{TERMS_SUFFIX}"
            terms = out.files[share] = search[name].share
            listed.append((share, len(terms), file_digest(terms)))
            listed.sort()
            total = sum(size for _, size, _ in listed)
            manifest: dict[str, Any] = {
                "format": FORMAT,
                "build": build,
                "locale": locale,
                "field": name,
                "bytes": total,
                "files": listed,
            }
            if tree:
                manifest["tree"] = True
            out.files[f"{locale}/{MANIFEST_DIR}/{name}.json"] = compact(manifest)
            out.field_bytes[(locale, name)] = total
            summary[name] = [total, len(listed)]
        out.files[f"{locale}/{MANIFEST_DIR}/{SUMMARY}"] = compact(
            {"format": FORMAT, "build": build, "fields": summary}
        )
    data: dict[str, Any] = {
        "build": build,
        "shell": kept_shell,
        "home": home if home in files else "",
        "locales": own_pages,
        "text": strings,
    }
    if tree:  # (sizes and digests are of the Markdown; the publisher makes the HTML)
        data["tree"] = True
    out.files[WORKER] = worker_script(data)
    return out


def write_offline(site: Path, made: OfflineFiles, write: Write = write_file) -> None:
    """Write ``made``'s files into the site folder (each only when its bytes changed), each
    by ``write``."""
    for path, data in made.files.items():
        target = site / path
        if target.is_file() and target.read_bytes() == data:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        write(path, target, data)


def is_offline_file(path: str) -> bool:
    """Whether the site-root ``path`` is one ``offline_files`` makes."""
    return path == WORKER or f"/{MANIFEST_DIR}/" in path


def read_worker_data(script: str) -> dict[str, Any] | None:
    """The build's data in a written ``sw.js`` (``None``: not a qbank worker's)."""
    for line in script.splitlines():
        if line.startswith("self.QBANK = ") and line.endswith(";"):
            data = json.loads(line[len("self.QBANK = ") : -1])
            return data if isinstance(data, dict) else None
    return None


def manifests(site: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every field manifest of a built site: (site-root path, parsed manifest)."""
    for path in sorted(site.glob(f"*/{MANIFEST_DIR}/*.json")):
        if path.name != SUMMARY and not path.name.endswith(TERMS_SUFFIX):
            yield path.relative_to(site).as_posix(), json.loads(path.read_bytes())


def worker_text(locale: str) -> dict[str, str]:
    """The worker's text in ``locale``: the page it shows for a page never kept."""
    table = strings_for(locale)["offline"]
    return {"title": table["page_title"], "text": table["page_text"], "home": table["page_home"]}


def write_site_offline(
    site: Path,
    bank: Bank,
    shell: Iterable[str],
    *,
    tree: bool = False,
    known: KnownDigests | None = None,
    write: Write = write_file,
) -> OfflineFiles:
    """Write ``sw.js`` and every locale's field manifests into the built ``site`` (``tree``:
    a ``qbank build`` docs folder; ``shell``: qbank's assets, which every reader keeps;
    ``known``: the digests kept of its files, ``site_files``), each file by ``write``."""
    locales = bank.catalog.locales
    made = offline_files(
        site,
        locales,
        list(bank.catalog.fields),
        shell,
        {locale: worker_text(locale) for locale in locales},
        tree=tree,
        known=known,
    )
    write_offline(site, made, write)
    return made


def write_worker(site: Path, data: dict[str, Any] | None) -> None:
    """Write ``sw.js`` into ``site`` (``data`` None: the worker that removes itself)."""
    site.mkdir(parents=True, exist_ok=True)
    (site / WORKER).write_bytes(worker_script(data))


def offline_problems(site: Path) -> Iterator[tuple[str, str]]:
    """What is wrong with the offline files of the built ``site``, as (file, message): the
    worker's list of files (shell, home page, each locale's pages) against the site, each
    manifest's files (present, of the stated size and digest) and build against the
    worker's, the build id against the files served now, and the home page's theme files
    against the shell. A site without ``sw.js`` has nothing to check."""
    worker = site / WORKER
    if not worker.is_file():
        return
    data = read_worker_data(worker.read_text("utf-8", "replace"))
    if data is None:
        yield WORKER, "not a qbank worker: its first line holds no build data"
        return
    if data.get("off"):
        yield WORKER, "the worker that removes itself (mkdocs serve's) is not for a built site"
        return
    files = site_files(site)
    build = build_id(files)
    exact = not data.get("tree")  # (a tree's figures are of its Markdown, not these files)
    if exact and data.get("build") != build:
        yield (
            WORKER,
            (
                f"build {data.get('build')} does not match the files served ({build}): a file"
                " changed after the build, so readers' kept copies would mix two builds"
            ),
        )
    listed = [*data.get("shell", []), *([data["home"]] if data.get("home") else [])]
    listed += [p for pages in data.get("locales", {}).values() for p in pages]
    for path in listed:
        if path not in files:
            yield WORKER, f"lists {path}, which the site does not have"
    home = data.get("home") or ""
    if home in files:
        text = (site / home).read_text("utf-8", "replace")
        for asset in page_assets(text, home, files) if exact else ():
            if asset not in data.get("shell", []):
                yield WORKER, f"the shell lacks {asset}, which {home} loads"
    for path, manifest in manifests(site):
        if manifest.get("build") != data.get("build"):
            yield path, f"build {manifest.get('build')} is not the worker's {data.get('build')}"
        total = 0
        for name, size, digest in manifest.get("files", []):
            found = files.get(name)
            if found is None and is_offline_file(name) and (site / name).is_file():
                share = (site / name).read_bytes()  # (the field's terms share: not served)
                found = SiteFile(len(share), file_digest(share))
            if found is None:
                yield path, f"lists {name}, which the site does not have"
            elif exact and (found.size, found.digest) != (size, digest):
                yield path, f"{name}: size or digest differs from the file's"
            total += size
        if total != manifest.get("bytes"):
            yield path, f"bytes {manifest.get('bytes')} is not the sum of its files ({total})"
