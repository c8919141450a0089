"""The rules one question file must satisfy on its own and against the catalog."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from qbank.bank.catalog import catalog_topics
from qbank.bank.mathcheck import math_problems
from qbank.bank.model import DIFFICULTY_SENIORITY, OPTION_KEYS, TEXT_FIELDS, Catalog, Question
from qbank.bank.problems import Problem, Severity, has_errors
from qbank.bank.safety import local_images, unsafe_parts, without_markup
from qbank.bank.similarity import compared_text, prompt_keys
from qbank.bank.staleness import stale_problems
from qbank.bank.yamlfile import Document, Path_, read_document, salvage, validate_model

if TYPE_CHECKING:
    from array import array

    from qbank.bank.loaded import Entry

# locale -> hash of the normalized prompt, hashes of its shingles packed (8 bytes a shingle,
# cheap to send between processes; the helper is forked, so hashes agree).
PromptKeys = dict[str, tuple[int, "array[int]"]]
# A file's result: its problems; when it has none, what the cross-file checks need and, if
# entries are kept, its entry.
Checked = tuple[list[Problem], "Found | None", "Entry | None"]


class Found(NamedTuple):
    """What the cross-file checks need of a question that passed its own checks."""

    id: str
    file: str  # relative to the content root
    field: str
    topic: str
    # (a result restored from the persistent cache has ``(hash, None)`` until the
    # near-duplicate comparison needs its keys: ``live.checkcache.StoredLoading.make_keys``)
    prompts: PromptKeys
    # locale -> hash of the option texts as compared (``option_text``), in key order; empty
    # for an open question. Two questions are the same only with the same prompt and these.
    # (A result restored from the persistent cache makes them when they are first read:
    # ``live.checkcache.OptionKeys``.)
    options: Mapping[str, int]
    # locale -> what the prompt's keys are hashed from (``similarity.compared_text``): made
    # only for a checker that keeps results (``QuestionChecker.keep_texts``), else None
    texts: Mapping[str, tuple[str, str]] | None = None


_QUESTION_KEYS = ", ".join(Question.model_fields)


def _question_keys(key: Path_) -> str:
    if not key:
        return f"one of {_QUESTION_KEYS}"
    if key[0] == "options" and len(key) == 1:
        return "option keys a, b, c … h"
    return "locale keys such as en, tr, zh"


class QuestionChecker:
    """The rules one question file must satisfy on its own and against the catalog."""

    def __init__(
        self,
        root: Path,
        catalog: Catalog | None,
        default_locale: str,
        *,
        make_entry: Callable[..., Entry] | None = None,
    ) -> None:
        """``make_entry``: the type of entries to make for questions that pass (``Entry``),
        or None to make none."""
        self.root = root
        self.catalog = catalog
        self.make_entry = make_entry
        # whether a passing file's ``Found`` holds its prompts' compared texts (the
        # persistent cache keeps them)
        self.keep_texts = False
        self.context = {"default_locale": default_locale}
        self.locales = catalog.locales if catalog else []
        self.locale_hint = "one of the catalog's locales: " + ", ".join(self.locales)
        self.seniorities = list(catalog.seniorities) if catalog else []
        self.spec_of: dict[tuple[str, str], str] = (
            {(f, t): s for f, s, t in catalog_topics(catalog)} if catalog else {}
        )

    def depends_on(self) -> str:
        """What a file's result depends on besides the file, where it sits and (for a file
        showing an image, never kept: ``self_contained``) the files beside it: the catalog's
        locales, seniority keys and topics, and the default locale; not its names. The
        persistent cache keys every kept result with it, so a rule that reads more of the
        catalog must add it here."""
        return json.dumps(
            [
                self.catalog is not None,
                self.context,
                self.locales,
                self.seniorities,
                sorted([*key, spec] for key, spec in self.spec_of.items()),
                self.make_entry is not None,
            ]
        )

    def check(self, file_path: str, shown: str, field_key: str, topic_key: str) -> Checked:
        """Every problem of one file; when it has none, what the cross-file checks need
        (its prompts' comparison keys are computed here, possibly in the helper process)
        and, if entries are kept, its entry."""
        # A file fails on its errors only: a warning never keeps a question out of the bank
        # (PRODUCT.md: a question is never silently dropped), so every exit below asks
        # ``has_errors``, never whether the file has problems at all.
        doc = read_document(file_path, shown)  # a str: no Path made per file
        if has_errors(doc.problems):
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
        broken: set[str] = set()
        if question is None:  # the rules still check what the schema errors left out
            question, broken = salvage(doc, Question, self.context)
            if "options" in broken:  # (without them a choice question reads as an open one)
                question = None
        if question is None or self.catalog is None:
            return doc.problems, None, None
        reported = len(doc.problems)
        seniorities = self._check(doc, question, file_path)
        if broken:
            doc.problems[reported:] = [
                p for p in doc.problems[reported:] if re.split(r"[.\[]", p.key)[0] not in broken
            ]
        if has_errors(doc.problems):
            return doc.problems, None, None
        name = os.path.basename(file_path)  # noqa: PTH119 (a str: no Path made per file)
        file = f"{field_key}/{topic_key}/{name}"
        texts = None
        if self.keep_texts:
            made = {locale: compared_text(text) for locale, text in question.prompt.items()}
            prompts = {locale: keys for locale, (keys, _) in made.items()}
            texts = {locale: text for locale, (_, text) in made.items()}
        else:
            prompts = {locale: prompt_keys(text) for locale, text in question.prompt.items()}
        options = option_keys(question)
        found = Found(question.id, file, field_key, topic_key, prompts, options, texts)
        entry = None
        if self.make_entry is not None:
            entry = self.make_entry(
                question,
                file,
                field_key,
                self.spec_of[field_key, topic_key],
                topic_key,
                name[:-5],
                seniorities,
                tuple(loc for loc in self.locales if loc in question.prompt),
                doc.digest,
            )
        return doc.problems + stale_problems(doc, question, self.locales), found, entry

    def _check(self, doc: Document, q: Question, file_path: str) -> tuple[str, ...]:
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
                        ("seniority",),
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
        for text_key, texts in question_texts(q):
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
                opened = unclosed_fence(text) if "``" in text or "~~~" in text else None
                if opened is not None:
                    problems.append(
                        doc.problem(
                            (*text_key, locale),
                            "this code block is never closed: the rest of the text would show"
                            " as code",
                            "a line of the same fence (```) after the code",
                            text_line=opened,
                        )
                    )
                problems += math_problems(doc, (*text_key, locale), text)  # (mathcheck.py)
                if without_markup(text):
                    continue
                for part in unsafe_parts(text):
                    problems.append(
                        doc.problem(
                            (*text_key, locale),
                            part.message,
                            part.hint,
                            text_line=part.line,
                            severity=part.severity,
                        )
                    )
                for image in local_images(text):
                    target = (Path(file_path).parent / image).resolve()
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
                doc.problem(
                    ("difficulty",), "a choice question needs a difficulty", "difficulty: 1, 2 or 3"
                )
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
                    ("answer",),
                    "a choice question needs an answer",
                    "answer: one of " + ", ".join(keys),
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
        if q.explanation is None:  # the page invites one; `validate --strict` demands it
            problems.append(
                doc.problem(
                    ("explanation",),
                    "no explanation: the page says so and invites one",
                    "explanation: why the answer is right and the others wrong",
                    severity=Severity.WARNING,
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
                norm = option_text(text)
                if norm and (locale, norm) in seen:  # empty: reported as empty text
                    problems.append(
                        doc.problem(
                            ("options", key, locale),
                            f"same text as option {seen[locale, norm]!r}",
                            "different options",
                            at_value=True,
                        )
                    )
                seen[locale, norm] = key


def option_text(text: str) -> str:
    """An option's text as two options are compared: as written (the loader NFC-normalizes
    every text), only the space around it dropped; `grep -E` and `grep -e`, or `PROPER`
    and `Proper`, are different options."""
    return text.strip()


def option_keys(q: Question) -> dict[str, int]:
    """Per locale of the prompt, the hash of the question's option texts in key order."""
    if not q.options:
        return {}
    return {
        locale: hash(tuple(option_text(texts.get(locale, "")) for texts in q.options.values()))
        for locale in q.prompt
    }


_FENCE = re.compile(r" *(`{3,}|~{3,})([^`]*)$")


def unclosed_fence(text: str) -> int | None:
    """The line (0-based) of a fenced code block that is opened in ``text`` and never closed
    (CommonMark: closed by a line of the same character, at least as many, nothing after)."""
    opening: tuple[int, str] | None = None
    for number, line in enumerate(text.split("\n")):
        found = _FENCE.match(line)
        if found is None:
            continue
        fence, rest = found.groups()
        if opening is None:
            if fence[0] == "`" or "~" not in rest:
                opening = (number, fence)
        elif fence[0] == opening[1][0] and len(fence) >= len(opening[1]) and not rest.strip():
            opening = None
    return None if opening is None else opening[0]


def question_texts(q: Question) -> Iterator[tuple[Path_, Mapping[str, str]]]:
    for name in TEXT_FIELDS:
        texts = getattr(q, name)
        if texts is not None:
            yield (name,), texts
    for key, texts in (q.options or {}).items():
        yield ("options", key), texts


def self_contained(checked: Checked) -> bool:
    """Whether a file's result depends on nothing but the file and the catalog.

    A question that refers to an image (which can appear or vanish on its own), or one that
    failed its checks, must be checked again on every load.
    """
    entry = checked[2]
    if entry is None:
        return False
    return not any(
        "![" in text and local_images(text)
        for _, texts in question_texts(entry.question)
        for text in texts.values()
    )
