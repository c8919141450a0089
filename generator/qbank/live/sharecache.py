"""Each field's share of a locale's search index (``site.offline.FieldShares``) taken from
the last published site where its index would file the same postings under the same files,
instead of cut again.

A field's share is its questions' postings of every terms file, as JSON: at 30,000
questions x 3 locales 108 MB, 73 MB of them Chinese, whose cutting was 3 s of a warm
build's 15 (the Chinese index is written last, by the main process, after the other
locales' pages). A pull request edits a few topics, in one field or two; another field's
postings are the same when its questions are (what each one's document is made from,
``indexcache._doc_key``, and its number in the index) and the index files terms the same
way (its CJK buckets and terms files' keys: ``plan``).

One entry a site and locale keeps, per field, the key of what its share was made from and
the digest of the share's bytes (``offline.file_digest``). A share is taken from the last
site's ``<locale>/api/offline/<field>.terms.json`` only where the key is this build's and
the file still has that digest (read whole: it is read and digested again when the offline
files are made). An entry without that shape is not used. Never imports MkDocs.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import numpy as np

from qbank.live.store import Store, key
from qbank.search.index import LocaleIndex
from qbank.site.offline import MANIFEST_DIR, TERMS_SUFFIX, file_digest

KIND = "field-shares"


class KeptShares:
    """The fields' shares of ``locale``'s index in the published site ``site`` as the last
    build made them (a ``offline.KnownShares``); what this build makes kept by ``end``.
    ``documents`` must be told each question's document key first (``stored_index``'s
    ``told``): without them no share is given."""

    def __init__(self, store: Store, site: Path, locale: str, fields: list[str]) -> None:
        self.store = store
        self.site = site
        self.locale = locale
        self.fields = fields
        self.name = key(KIND, str(site), locale)
        self.before = _restored(store.get(KIND, self.name))
        self.docs: list[str] = []
        self.keys: dict[int, str] = {}
        self.now: dict[str, list[str]] = {}
        self.digests: dict[int, str] = {}  # (of the shares given: not digested again)
        self.taken = 0

    def documents(self, docs: list[str]) -> None:
        """Each question's document key, in the index's order."""
        self.docs = docs

    def given(self, index: LocaleIndex, owners: np.ndarray[Any, Any]) -> dict[int, bytes]:
        if len(self.docs) != len(index.shown) or len(owners) != len(self.docs) + 1:
            return {}
        docs = self.docs
        keys = sorted(index.shards)
        plan = [self.locale, str(index.buckets), str(index.packed is None), *keys]
        found: dict[int, bytes] = {}
        for number, name in enumerate(self.fields):
            questions = np.flatnonzero(owners[:-1] == number).tolist()
            made_of = "\n".join(f"{n} {docs[n]}" for n in questions)
            self.keys[number] = share_key = key(KIND, *plan, made_of)
            was = self.before.get(name)
            if was is None or was[0] != share_key:
                continue
            path = self.site / self.locale / MANIFEST_DIR / f"{name}{TERMS_SUFFIX}"
            with contextlib.suppress(OSError):
                data = path.read_bytes()
                if file_digest(data) == was[1]:
                    found[number], self.digests[number] = data, was[1]
        self.taken = len(found)
        return found

    def made(self, number: int, share: bytes) -> None:
        made_of = self.keys.get(number)
        if made_of is not None:
            digest = self.digests.get(number) or file_digest(share)
            self.now[self.fields[number]] = [made_of, digest]

    def end(self) -> None:
        """Keep what this build's shares were made from."""
        self.store.put(KIND, self.name, self.now)


def _restored(kept: Any) -> dict[str, list[str]]:
    """A kept entry: by field, [key, digest]; none when it has not that shape."""
    if not isinstance(kept, dict):
        return {}
    for item in kept.values():
        if not (type(item) is list and len(item) == 2 and all(type(p) is str for p in item)):
            return {}
    return kept
