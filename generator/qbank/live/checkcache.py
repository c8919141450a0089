"""A load of the bank that takes each question file's checked result from the persistent
cache (``qbank.live.store``) when the file, the catalog and qbank are what they were.

One entry holds the results of one topic's files (``_Topic``). Each file's result in it is
used only under the file's own key: the file's bytes, where it sits (its shown path, field
and topic), what the checks read of the catalog (``QuestionChecker.depends_on``: a catalog
name renamed keeps every result) and qbank's version (``store.key``). A result holds the
file's problems (lines included), its question and place in the bank, and its prompts'
comparison tokens: what
the cross-file checks compare (``Found``) are hashes that change from one process to the
next, so they are computed again from the tokens. Only results that depend on nothing else
are kept (``rules.self_contained``: not a file that failed its checks, not one showing an
image beside it). The result is the same as a load without the cache, problem for problem
(``tests/test_build_cache.py``).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Mapping
from typing import Any

from qbank.bank.crossfile import FoundBank, check_cross_file
from qbank.bank.listing import QuestionFile
from qbank.bank.load import INCREMENTAL_UP_TO, Loading
from qbank.bank.loaded import Entry
from qbank.bank.model import Question
from qbank.bank.parallel import SecondProcess, check_files
from qbank.bank.problems import Problem, Severity
from qbank.bank.progress import Report, no_progress
from qbank.bank.rules import Checked, Found, QuestionChecker, option_keys, self_contained
from qbank.bank.similarity import compared_text, keys_of
from qbank.bank.yamlfile import MAX_FILE_BYTES
from qbank.live.crossfile_update import KeptPairs
from qbank.live.lookalikecache import stored_join, stored_pairs
from qbank.live.store import Store, key

KIND = "checked"
LOADS = "loads"  # (one entry: written by a load through the store, its number of files)


class StoredLoading(Loading):
    """The stages of a load, each question file's result from ``store`` where it holds."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.keys: dict[str, str] = {}  # each checked question file's key (``Found.file``)
        # the comparison keys still to make of the kept results taken (``_restored``)
        self.owed: list[tuple[dict[str, Any], dict[str, Any]]] = []
        self.making = threading.Lock()

    def checked(
        self,
        checker: QuestionChecker,
        files: list[QuestionFile],
        helper: SecondProcess,
        progress: Report = no_progress,
    ) -> list[Checked]:
        """Every file's result: the kept one where its key holds, else checked (and kept)."""
        store = self.store
        context = key(checker.depends_on())  # (the catalog's part of every key)
        results: list[Checked | None] = []
        names: list[str | None] = []
        topics: dict[tuple[str, str], _Topic] = {}
        for path, shown, field_key, topic_key in files:
            try:
                with open(path, "rb") as handle:  # noqa: PTH123 (a str: no Path per file)
                    raw = handle.read(MAX_FILE_BYTES + 1)
            except OSError:
                raw = b""
            topic = topics.get((field_key, topic_key))
            if topic is None:
                topic = topics[field_key, topic_key] = _Topic(
                    store, key(KIND, context, field_key, topic_key)
                )
            if not raw or len(raw) > MAX_FILE_BYTES:  # checked as it is, never kept
                names.append(None)
                results.append(None)
                continue
            name = key(context, shown, field_key, topic_key, raw)
            names.append(name)
            kept = topic.take(name, path)
            result = None if kept is None else _restored(kept, checker, self.owed)
            if result is not None:
                topic.keep(name, path, kept)
            results.append(result)
        missing = [n for n, result in enumerate(results) if result is None]
        if self.lookalikes is not None:  # (few files checked: the kept pairs are updated)
            self.lookalikes.light = len(missing) <= INCREMENTAL_UP_TO
        checker.keep_texts = True  # (before the helper process forks: it takes the checker)
        made = check_files(checker, [files[n] for n in missing], helper, progress)
        for n, checked in zip(missing, made, strict=True):
            made_key = names[n]
            path, _shown, field_key, topic_key = files[n]
            if made_key is not None and self_contained(checked):
                topics[field_key, topic_key].keep(made_key, path, _kept(checked), made=True)
            problems, found, entry = checked
            results[n] = (problems, found and found._replace(texts=None), entry)  # (kept now)
        for topic in topics.values():
            topic.write()
        if not store.touch(LOADS, key(LOADS)):  # (``StoredChecks.warm``)
            store.put(LOADS, key(LOADS), len(results))
        for file_key, result in zip(names, results, strict=True):
            if file_key is not None and result is not None and result[1] is not None:
                self.keys[result[1].file] = file_key
        return results  # type: ignore[return-value]  # every None replaced

    def cross_file(self, bank: FoundBank, helper: SecondProcess) -> list[Problem]:
        """The problems between files, the near-duplicate pairs updated from those the last
        build kept (``lookalikecache``); the kept results' comparison keys made when a
        prompt is compared (``mkdocs build`` compares after the bank is loaded)."""
        join = stored_join(self.store, self.keys, self.make_keys)
        return check_cross_file(bank, helper, self.lookalikes, join)

    def pairs(self) -> KeptPairs:
        """The near-duplicate pairs of this load's files, from those the last build kept
        (``lookalikecache.stored_pairs``): for a first load under ``mkdocs serve``, which
        keeps its own state of the comparison for the loads after it."""
        return stored_pairs(self.store, self.keys, self.make_keys)

    def make_keys(self) -> None:
        """Make the comparison keys of the kept results taken so far (``Found.prompts``:
        ``(hash, None)`` until then; hashes of the prompts' tokens, a third of restoring a
        result, that only the near-duplicate comparison reads; under ``mkdocs serve``
        maybe in the background, ``CrossFileState.settle``)."""
        with self.making:
            owed, self.owed = self.owed, []
            for prompts, kept in owed:
                for locale, (norm, tokens) in kept.items():
                    prompts[locale] = keys_of(norm, tokens.split(" ") if tokens else ())


class _Topic:
    """The entry of one topic's files: ``[file key, path, kept result]`` of each. It is
    addressed by the topic (and the catalog's part of the keys), and each file's result is
    used only where the file's own key (its bytes, place, the catalog, qbank) is the one
    kept: one entry a topic reads the bank in a few hundred files instead of one a question.
    A load that checks only some files of a topic (a rebuild under ``mkdocs serve``) keeps
    the entry's other files while they exist."""

    def __init__(self, store: Store, name: str) -> None:
        self.store = store
        self.name = name
        self.old: dict[str, tuple[str, Any]] = {}  # file key → (path, kept result)
        self.new: dict[str, list[Any]] = {}  # path → [file key, path, kept result]
        self.changed = False
        found = store.get(KIND, name)
        if isinstance(found, list):
            for item in found:
                if isinstance(item, list) and len(item) == 3 and isinstance(item[0], str):
                    self.old[item[0]] = (item[1], item[2])

    def take(self, name: str, path: str) -> Any | None:
        """The kept result of the file ``name`` at ``path``, or None."""
        kept = self.old.get(name)
        if kept is None or kept[0] != path:
            return None
        return kept[1]

    def keep(self, name: str, path: str, kept: Any, *, made: bool = False) -> None:
        """Keep ``kept``, the result of the file ``name`` at ``path`` (``made``: checked
        now, not taken from the entry)."""
        self.new[path] = [name, path, kept]
        self.changed = self.changed or made

    def write(self) -> None:
        """Write the entry again when a file of it changed or went away."""
        seen = {item[0] for item in self.new.values()}
        for name, (path, kept) in self.old.items():
            if name in seen or path in self.new:
                continue
            if os.path.exists(path):  # noqa: PTH110 (a file this load did not check)
                self.new[path] = [name, path, kept]
            else:
                self.changed = True
        if self.changed and self.new:
            self.store.put(KIND, self.name, sorted(self.new.values(), key=lambda i: i[1]))


class StoredChecks:
    """What ``load_bank(root, cache)`` is given to use the persistent cache
    (``qbank.bank.load.Kept``)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def loading(self) -> StoredLoading:
        """The stages of a load that use the store."""
        return StoredLoading(self.store)

    def warm(self) -> bool:
        """Whether a load by this qbank (its version is in every key) went through the
        store: most files' results are then in it, and the load restores more than it
        checks (``plugin.loading``)."""
        return self.store.touch(LOADS, key(LOADS))


def _kept(checked: Checked) -> dict[str, Any]:
    """What the cache keeps of a file's result (one that passed: it has an entry)."""
    problems, found, entry = checked
    assert entry is not None
    assert found is not None
    texts = found.texts
    if texts is None:  # (a checker that was not asked for them)
        texts = {locale: compared_text(text)[1] for locale, text in entry.question.prompt.items()}
    return {
        "problems": [
            [p.path, p.line, p.col, p.key, p.message, p.hint, str(p.severity)] for p in problems
        ],
        "question": entry.question.model_dump(mode="json", exclude_unset=True),
        "prompts": {locale: list(text) for locale, text in texts.items()},
        "entry": [
            entry.file,
            entry.field,
            entry.specialization,
            entry.topic,
            entry.slug,
            list(entry.seniorities),
            list(entry.locales),
            entry.digest,
        ],
    }


def _restored(
    kept: Any, checker: QuestionChecker, owed: list[tuple[dict[str, Any], dict[str, Any]]]
) -> Checked | None:
    """A kept result as the checks make it, but for its prompts' comparison keys (owed: the
    prompts' hashes only, ``StoredLoading.make_keys``); None when the entry does not have
    its shape."""
    try:
        problems = [
            Problem(path, line, col, k, message, hint, Severity(severity))
            for path, line, col, k, message, hint, severity in kept["problems"]
        ]
        question = Question.model_validate(kept["question"], context=checker.context)
        file, field_key, spec, topic_key, slug, seniorities, locales, digest = kept["entry"]
        prompts = kept["prompts"]
        if not isinstance(prompts, dict) or prompts.keys() != question.prompt.keys():
            return None
        if not all(isinstance(n, str) and isinstance(t, str) for n, t in prompts.values()):
            return None
        make_entry = checker.make_entry or Entry
        entry = make_entry(
            question,
            file,
            field_key,
            spec,
            topic_key,
            slug,
            tuple(seniorities),
            tuple(locales),
            digest,
        )
    except (KeyError, TypeError, ValueError):  # (pydantic's ValidationError is a ValueError)
        return None
    keys: dict[str, Any] = {locale: (hash(norm), None) for locale, (norm, _) in prompts.items()}
    owed.append((keys, prompts))
    found = Found(question.id, file, field_key, topic_key, keys, OptionKeys(question))
    return problems, found, entry


class OptionKeys(Mapping[str, int]):
    """``option_keys(question)``, made when first read: the cross-file checks read a
    question's option keys only when its prompt is another question's too, and making them
    for every restored result was 0.45-0.6 s of a 30,000-question load."""

    __slots__ = ("_keys", "_question")

    def __init__(self, question: Question) -> None:
        self._question: Question | None = question
        self._keys: dict[str, int] | None = None

    def _made(self) -> dict[str, int]:
        if self._keys is None:
            assert self._question is not None
            self._keys, self._question = option_keys(self._question), None
        return self._keys

    def __getitem__(self, locale: str) -> int:
        return self._made()[locale]

    def __iter__(self) -> Iterator[str]:
        return iter(self._made())

    def __len__(self) -> int:
        return len(self._made())
