# ruff: noqa: RUF001  (full-width colons and stops, Turkish labels: the quizzes write them)
"""Markdown quizzes as GitHub banks write them: numbered question headings, then options.

Two layouts are read, question by question (a file may mix them):

- check-box options: ``#### Q12. Prompt`` (``Q`` and the number's ``.``/``:``/``)`` vary),
  options ``- [ ] text`` with the right ones ``- [x] text`` (several: a several-answer
  question), then optionally ``**Explanation:** …`` and reference links (``[Reference](…)``:
  the first one becomes the question's ``source``, the others stay in the explanation);
- lettered options: ``###### 12. Prompt``, options ``- A: text``, and the answer in a
  ``<details>`` block: a line ``#### Answer: C`` (any language's word before the colon;
  ``A, C`` for several) and the explanation after it.

A prompt keeps what stands between its heading and its options (code blocks, images); an
option keeps its indented lines (a code fence in an option). A local image is copied beside
the question; a remote one becomes a link (a page never makes a third-party request).

Translations: in a folder, ``<name>-<locale>.md`` (``-zh``, ``_zh_CN``, ``-tr-TR``) or a
``<locale>`` folder's ``README-<locale>.md`` beside the source translates ``<name>.md`` /
``README.md``. A translated question joins its source question only on strong evidence,
never on its number alone (numbering drifts): the same option count and right keys, and the
same numbers and code tokens where it has any, in the order of the file; see
``align_translation``. Whatever is not aligned or not read is reported as ``file:line``.
"""

from __future__ import annotations

import itertools
import re
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from qbank.bank.model import OPTION_KEYS, nfc
from qbank.bank.similarity import normalize_text
from qbank.tools.importers.source import (
    IMPORT_NAMESPACE,
    ImportedQuestion,
    Parsed,
    SourceError,
    clean,
    slug_key,
    topic_catalog,
)

LOCALES = ("en", "tr", "zh")  # the locales the importer places (others are reported)
# Language codes a translation's file name may end with (``python-quiz-fr.md``): a name
# ending so is a translation, of a locale qbank places or not (then reported).
LANGUAGES = frozenset(
    [
        "en",
        "tr",
        "zh",
        "fr",
        "es",
        "de",
        "it",
        "ja",
        "ko",
        "pt",
        "ru",
        "vi",
        "uk",
        "id",
        "ar",
        "th",
        "pl",
        "nl",
        "ro",
        "hi",
        "bn",
        "fa",
        "he",
        "ch",
    ]
)
DEFAULT_FIELD = "quizzes"
DIFFICULTY = 2  # a quiz gives none; a choice question needs one (seniority mid)

_HEADING = re.compile(r"^(#{1,6})[ \t]+(?:Q[ \t]?)?(\d{1,5})[ \t]*[.:)．：][ \t]*(.*?)[ \t#]*$")
_TITLE = re.compile(r"^#{1,2}[ \t]+(.+?)[ \t#]*$")
_CHECKBOX = re.compile(r"^[-*+][ \t]+\[([ xX])\][ \t]?(.*)$")
_LETTERED = re.compile(r"^[-*+][ \t]+([A-H])[ \t]*[:.)．：][ \t]?(.*)$")
_DETAILS_OPEN = re.compile(r"^\s*<details\b", re.I)
_DETAILS_CLOSE = re.compile(r"</details>\s*$", re.I)
_ANSWER_LINE = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:\*\*)?[^\n:：]{1,24}[:：]\s*(?:\*\*)?\s*"
    r"([A-H](?:\s*(?:,|、|&|and|ve|和|及)\s*[A-H])*)\s*(?:\*\*)?\s*$"
)
_HTML_WRAPPER = re.compile(
    r"^\s*</?(?:p|summary|details|b|br|div)\b[^>]*>\s*|\s*</?(?:p|summary|b|div)>\s*$", re.I
)
_REFERENCE = re.compile(r"^\s*(?:[-*+]\s+)?\[([^\]]*)\]\((https?://[^)\s]+)\)\s*\.?\s*$")
_EXPLANATION_LABEL = re.compile(
    r"^\s*(?:\*\*|__)?(?:Explanation|Açıklama|解释|解析)\s*[:：]?\s*(?:\*\*|__)?\s*[:：]?\s*", re.I
)
_IMAGE = re.compile(r"!\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REMOTE = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.I)
_FENCE_LINE = re.compile(r"^\s*(`{3,}|~{3,})")
_RULE = re.compile(r"^\s*(?:-{3,}|\*{3,}|_{3,})\s*$")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")
_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_WORD = re.compile(r"[A-Za-z_$][\w$]*|[^\s\w]{1,3}")
# Locale suffixes of translation file names and folders (zh-CN, zh_TW, tr-TR, …).
_SUFFIX = re.compile(r"^(?P<stem>.+?)[-_.](?P<locale>[a-z]{2})(?:[-_][A-Za-z]{2,4})?$")
_LOCALE_FOLDER = re.compile(r"^(?P<locale>[a-z]{2})(?:[-_][A-Za-z]{2,4})?$")


@dataclass
class QuizQuestion:
    """One question as read from a quiz file (texts cleaned, keys a, b, c …)."""

    line: int  # 1-based line of its heading
    number: int  # the number its heading gives (it may drift)
    prompt: str
    options: list[str]
    answer: list[str]
    explanation: str | None
    source: str | None
    images: dict[str, Path] = field(default_factory=dict)  # name beside the question -> file

    def evidence(self) -> tuple[str, ...]:
        """What a translation keeps of the question whatever its language: numbers and
        code tokens (code spans and blocks, split into words and operators)."""
        texts = [self.prompt, *self.options]
        found: list[str] = []
        for text in texts:
            code = [*_CODE_SPAN.findall(text), *_fenced(text)]
            for piece in code:
                found += _WORD.findall(piece)
            prose = _CODE_SPAN.sub(" ", _strip_fences(text))
            found += _NUMBER.findall(prose)
        return tuple(found)


@dataclass
class QuizFile:
    """A parsed quiz file: its questions and what could not be read, as ``file:line``."""

    display: str
    title: str | None
    questions: list[QuizQuestion]
    notes: list[str]


def parse_quiz(text: str, display: str, folder: Path | None = None) -> QuizFile:
    """Every numbered question of a quiz file; a heading whose block is not a question the
    importer can read is a note naming its line. ``folder``: the file's own, where its
    local images are."""
    # (not ``clean``: that drops leading blank lines, and the notes name lines of the file)
    lines = [line.rstrip() for line in nfc(text).replace("\r\n", "\n").split("\n")]
    title: str | None = None
    notes: list[str] = []
    starts = []
    fence = None
    for n, line in enumerate(lines):
        opened = _FENCE_LINE.match(line)
        if opened:
            mark = opened.group(1)[0]
            fence = None if fence == mark else (mark if fence is None else fence)
            continue
        if fence is not None:
            continue
        if _HEADING.match(line):
            starts.append(n)
        elif title is None and not starts and _TITLE.match(line):
            title = _TITLE.match(line).group(1).strip()  # type: ignore[union-attr]
    questions = []
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(lines)
        question = _question(lines, start, end, display, notes, folder)
        if question is not None:
            questions.append(question)
    return QuizFile(display, title, questions, notes)


def _question(
    lines: list[str], start: int, end: int, display: str, notes: list[str], folder: Path | None
) -> QuizQuestion | None:
    heading = _HEADING.match(lines[start])
    assert heading is not None
    where = f"{display}:{start + 1}"
    number = int(heading.group(2))
    body = lines[start + 1 : end]
    first_option = next(
        (i for i, line in enumerate(body) if _CHECKBOX.match(line) or _LETTERED.match(line)),
        None,
    )
    if first_option is None:
        notes.append(f"{where}: question {number}: no options (- [ ] … or - A: …); not imported")
        return None
    prompt = re.sub(r"\n{3,}", "\n\n", "\n".join([heading.group(3), "", *body[:first_option]]))
    prompt = prompt.strip()
    checkbox = bool(_CHECKBOX.match(body[first_option]))
    options: list[str] = []
    marked: list[str] = []
    i = first_option
    while i < len(body):
        line = body[i]
        found = _CHECKBOX.match(line) if checkbox else _LETTERED.match(line)
        if found is None:
            if line.startswith(("  ", "\t")) and options:
                options[-1] += "\n" + line
                i += 1
                continue
            if not line.strip() and i + 1 < len(body) and body[i + 1].startswith(("  ", "\t")):
                options[-1] += "\n"
                i += 1
                continue
            if not line.strip() and i + 1 < len(body) and _option(body[i + 1], checkbox):
                i += 1
                continue
            break
        if checkbox:
            if found.group(1) in "xX":
                marked.append(OPTION_KEYS[len(options)] if len(options) < 8 else "?")
        elif found.group(1).lower() != OPTION_KEYS[len(options) % 8]:
            notes.append(
                f"{display}:{start + 2 + i}: question {number}: option {found.group(1)} out of"
                " order; not imported"
            )
            return None
        options.append(found.group(2))
        i += 1
    rest = body[i:]
    if len(options) > len(OPTION_KEYS):
        notes.append(f"{where}: question {number}: {len(options)} options, at most 8; not imported")
        return None
    options = [_dedent(option) for option in options]
    if checkbox:
        answer, explanation, source = marked, *_explained(rest, where, notes)
    else:
        answer, explanation = _details(rest)
        source = None
    keys = OPTION_KEYS[: len(options)]
    if not answer:
        notes.append(f"{where}: question {number}: no right answer marked; not imported")
        return None
    wrong = [key for key in answer if key not in keys]
    if wrong:
        notes.append(
            f"{where}: question {number}: answer {', '.join(wrong)} is not an option; not imported"
        )
        return None
    question = QuizQuestion(start + 1, number, prompt, options, answer, explanation, source)
    question.prompt = _images(question.prompt, question, folder, where, notes)
    question.options = [_images(o, question, folder, where, notes) for o in question.options]
    if question.explanation:
        question.explanation = _images(question.explanation, question, folder, where, notes)
    return question


def _option(line: str, checkbox: bool) -> bool:
    return bool(_CHECKBOX.match(line) if checkbox else _LETTERED.match(line))


def _dedent(text: str) -> str:
    first, _, rest = text.partition("\n")
    if not rest:
        return first.strip()
    lines = rest.split("\n")
    indent = min((len(x) - len(x.lstrip()) for x in lines if x.strip()), default=0)
    body = "\n".join(x[indent:] for x in lines)
    joined = (
        f"{first.strip()}\n\n{body}"
        if _FENCE_LINE.match(body.lstrip("\n"))
        else (f"{first.strip()}\n{body}")
    )
    return clean(joined)


def _explained(rest: list[str], where: str, notes: list[str]) -> tuple[str | None, str | None]:
    """A check-box question's explanation and its first reference link (its source); the
    other links stay with the explanation (without one, they are left out and said so)."""
    kept: list[str] = []
    references: list[str] = []
    for line in rest:
        if _RULE.match(line):
            continue
        reference = _REFERENCE.match(line)
        if reference:
            references.append(line.strip())
            continue
        kept.append(line)
    text = clean(_EXPLANATION_LABEL.sub("", clean("\n".join(kept)), count=1))
    source = _REFERENCE.match(references[0]).group(2) if references else None  # type: ignore[union-attr]
    if text and len(references) > 1:  # the others stay with the explanation
        text += "\n\n" + "\n".join(f"- {line.lstrip('-*+ ')}" for line in references[1:])
    elif len(references) > 1:
        notes.append(f"{where}: {len(references) - 1} further reference link(s) left out")
    return (text or None), source


def _details(rest: list[str]) -> tuple[list[str], str | None]:
    """A lettered question's right keys and explanation, from its ``<details>`` block."""
    inside = False
    answer: list[str] = []
    explanation: list[str] = []
    for line in rest:
        if not inside:
            inside = bool(_DETAILS_OPEN.match(line))
            if not inside:
                continue
        if _DETAILS_CLOSE.search(line) and not _DETAILS_OPEN.match(line):
            break
        if not answer:
            found = _ANSWER_LINE.match(_HTML_WRAPPER.sub("", line))
            if found:
                answer = sorted({key.lower() for key in re.findall(r"[A-H]", found.group(1))})
            continue
        explanation.append(_HTML_WRAPPER.sub("", line) if line.strip().startswith("<") else line)
    text = clean("\n".join(explanation))
    return answer, (text or None)


def _images(
    text: str, question: QuizQuestion, folder: Path | None, where: str, notes: list[str]
) -> str:
    """``text`` with each local image named as the file copied beside the question and each
    remote image as a link (a page never loads another site's image)."""

    def replace(match: re.Match[str]) -> str:
        alt, target = match.group(1), match.group(2)
        if _REMOTE.match(target):
            notes.append(f"{where}: a remote image {target} is kept as a link")
            return f"[{alt or 'image'}]({target})"
        path = (folder / target) if folder is not None else None
        if path is None or not path.is_file():
            notes.append(f"{where}: image {target} not found beside the quiz; kept as text")
            return f"`{match.group(0)}`"
        name = slug_key(path.stem) + path.suffix.lower()
        question.images[name] = path
        return f"![{alt}]({name})"

    return _IMAGE.sub(replace, text) if "![" in text else text


def _fenced(text: str) -> list[str]:
    return re.findall(r"^\s*(?:`{3,}|~{3,})[^\n]*\n(.*?)^\s*(?:`{3,}|~{3,})", text, re.M | re.S)


def _strip_fences(text: str) -> str:
    return re.sub(
        r"^\s*(?:`{3,}|~{3,})[^\n]*\n.*?^\s*(?:`{3,}|~{3,})[^\n]*$", " ", text, flags=re.M | re.S
    )


# ---------------------------------------------------------------------------------------------
# Translations


def align_translation(
    source: list[QuizQuestion], translated: list[QuizQuestion]
) -> tuple[dict[int, int], list[QuizQuestion]]:
    """Which source question (index) each translated question (index) translates, and the
    translated questions left unaligned.

    Evidence, never the number alone: a pair must have the same option count and right
    keys. Anchors are the pairs whose numbers and code tokens agree (at least two, 80 % of
    them), unique on both sides and in file order (a longest increasing run of them); the
    questions between two anchors are paired in order when both gaps hold as many
    questions and every pair has the same shape, else each one whose shape is unique in
    both gaps. Anything else stays unaligned.
    """
    shape = [(len(q.options), tuple(q.answer)) for q in source]
    marks = [q.evidence() for q in source]
    candidates: list[tuple[int, int]] = []
    for t, question in enumerate(translated):
        mine = question.evidence()
        if len(mine) < 2:
            continue
        key = (len(question.options), tuple(question.answer))
        scores = sorted(
            ((_agreement(mine, marks[s]), s) for s in range(len(source)) if shape[s] == key),
            reverse=True,
        )
        if scores and scores[0][0] >= 0.8 and (len(scores) == 1 or scores[1][0] < scores[0][0]):
            candidates.append((t, scores[0][1]))
    taken = [s for _, s in candidates]
    candidates = [c for c in candidates if taken.count(c[1]) == 1]
    anchors = _increasing(candidates)
    pairs = dict(anchors)
    bounds = [(-1, -1), *anchors, (len(translated), len(source))]
    for (t0, s0), (t1, s1) in itertools.pairwise(bounds):
        gap_t, gap_s = range(t0 + 1, t1), range(s0 + 1, s1)
        if len(gap_t) == len(gap_s) and all(
            (len(translated[t].options), tuple(translated[t].answer)) == shape[s]
            for t, s in zip(gap_t, gap_s, strict=True)
        ):
            pairs.update(zip(gap_t, gap_s, strict=True))
            continue
        # Gaps of other lengths (a question missing on one side): a question pairs only
        # with the one question of its shape in the other gap, that shape being unique in
        # its own gap too, in order.
        here = [(len(translated[t].options), tuple(translated[t].answer)) for t in gap_t]
        there = [shape[s] for s in gap_s]
        unique = [
            (t, gap_s[there.index(key)])
            for t, key in zip(gap_t, here, strict=True)
            if here.count(key) == 1 and there.count(key) == 1
        ]
        pairs.update(_increasing(unique))
    unaligned = [q for t, q in enumerate(translated) if t not in pairs]
    return pairs, unaligned


def _agreement(a: tuple[str, ...], b: tuple[str, ...]) -> float:
    """How far two token sequences agree: the shared tokens over the longer sequence."""
    if not a or not b:
        return 0.0
    rest = list(b)
    shared = 0
    for token in a:
        if token in rest:
            rest.remove(token)
            shared += 1
    return shared / max(len(a), len(b))


def _increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest run of ``pairs`` (in translated order) whose source indexes increase."""
    best: list[list[tuple[int, int]]] = []
    for pair in pairs:
        longest = max((run for run in best if run[-1][1] < pair[1]), key=len, default=[])
        best.append([*longest, pair])
    return max(best, key=len, default=[])


# ---------------------------------------------------------------------------------------------
# A source: one quiz file, or a folder of them with their translations


@dataclass
class _Source:
    path: Path
    display: str
    locale: str
    translations: list[tuple[str, Path, str]] = field(default_factory=list)


def _locale_of(name: str) -> tuple[str, str | None]:
    """(the name without its locale suffix, the locale) of a file name's stem."""
    found = _SUFFIX.match(name)
    if found and found.group("locale") in LANGUAGES:
        return found.group("stem"), found.group("locale")
    return name, None


def sources(root: Path, display: str, notes: list[str]) -> list[_Source]:
    """The quiz files under ``root`` (itself when a file) in a stable order, each with the
    translation files that name it."""
    if root.is_file():
        return [_Source(root, display, "en")]
    files = sorted(p for p in root.rglob("*.md") if not any(x.startswith(".") for x in p.parts))
    by_place: dict[tuple[Path, str], _Source] = {}
    translations: list[tuple[Path, str, str]] = []
    for path in files:
        stem, locale = _locale_of(path.stem)
        folder = _LOCALE_FOLDER.match(path.parent.name) if path.parent != root else None
        if locale is None and folder is None:
            shown = f"{display.rstrip('/')}/{path.relative_to(root).as_posix()}"
            by_place[path.parent, stem.lower()] = _Source(path, shown, "en")
        else:
            translations.append((path, stem, locale or (folder.group("locale") if folder else "")))
    for path, stem, locale in translations:
        shown = f"{display.rstrip('/')}/{path.relative_to(root).as_posix()}"
        home = by_place.get((path.parent, stem.lower())) or by_place.get(
            (path.parent.parent, stem.lower())
        )
        if home is None:
            notes.append(f"{shown}:1: a translation of no quiz file here; not imported")
        elif locale not in LOCALES:
            notes.append(f"{shown}:1: locale {locale!r} is not one qbank places; not imported")
        else:
            home.translations.append((locale, path, shown))
    return [by_place[key] for key in sorted(by_place, key=lambda k: by_place[k].display)]


def _topic_of(path: Path) -> str:
    """A quiz file's topic key: its name without "-quiz" (a README: its folder's name)."""
    stem = path.parent.name if path.stem.lower() in ("readme", "index") else path.stem
    stem = re.sub(r"[-_](?:quiz|questions|test)$", "", stem, flags=re.I)
    return slug_key(stem) or "quiz"


def parse(
    root: Path, display: str, *, field_key: str | None = None, topic: str | None = None
) -> Parsed:
    """Every quiz of ``root`` (a file, or a folder of them) as questions of ``field_key``
    (default ``quizzes``), one topic per quiz file (``topic`` for a single file)."""
    notes: list[str] = []
    found = sources(root, display, notes)
    if not found:
        raise SourceError(f"{display}: no Markdown quiz file (*.md); expected a quiz or a folder")
    field_key = field_key or DEFAULT_FIELD
    parsed = Parsed(display)
    parsed.catalog = {"locales": ["en"]}
    seen: dict[str, str] = {}
    for source in found:
        quiz = parse_quiz(_read(source.path, source.display), source.display, source.path.parent)
        notes += quiz.notes
        if not quiz.questions:
            notes.append(f"{source.display}:1: no numbered question found; not imported")
            continue
        topic_key = topic if topic and root.is_file() else _topic_of(source.path)
        merged = [_data(q, field_key, topic_key) for q in quiz.questions]
        for locale, path, shown in source.translations:
            translated = parse_quiz(_read(path, shown), shown, path.parent)
            notes += translated.notes
            pairs, unaligned = align_translation(quiz.questions, translated.questions)
            for q in unaligned:
                notes.append(
                    f"{shown}:{q.line}: question {q.number}: no question of"
                    f" {source.display} it surely translates; not imported"
                )
            for t, s in sorted(pairs.items()):
                _translate(merged[s], translated.questions[t], locale, shown, notes)
            parsed.catalog["locales"] = sorted(
                {*parsed.catalog["locales"], locale}, key=LOCALES.index
            )
        catalog = topic_catalog(field_key, topic_key, "en", topic_name=quiz.title)
        _merge_into(parsed.catalog, catalog)
        for question, data in zip(quiz.questions, merged, strict=True):
            where = f"{source.display}:{question.line}"
            if data["id"] in seen:
                notes.append(f"{where}: the same question as {seen[data['id']]}; imported once")
                continue
            seen[data["id"]] = where
            parsed.questions.append(
                ImportedQuestion(where, field_key, topic_key, data, dict(question.images))
            )
    parsed.notes = notes
    return parsed


def _read(path: Path, display: str) -> str:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"{display}: cannot read the file: {exc.strerror}") from None
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise SourceError(f"{display}:{line}: invalid UTF-8; expected UTF-8 text") from None


def _data(q: QuizQuestion, field_key: str, topic_key: str) -> dict[str, Any]:
    """A question file's data for a quiz question; its id is derived from its place and
    text (the same quiz imported again gives the same ids)."""
    keys = OPTION_KEYS[: len(q.options)]
    fingerprint = "\n".join(
        [f"{field_key}/{topic_key}", normalize_text(q.prompt), *q.options, ",".join(q.answer)]
    )
    data: dict[str, Any] = {
        "id": str(uuid.uuid5(IMPORT_NAMESPACE, "markdown-quiz\n" + fingerprint)),
        "difficulty": DIFFICULTY,
        "prompt": {"en": q.prompt},
        "options": {key: {"en": text} for key, text in zip(keys, q.options, strict=True)},
        "answer": q.answer[0] if len(q.answer) == 1 else list(q.answer),
    }
    if q.explanation:
        data["explanation"] = {"en": q.explanation}
    if q.source:
        data["source"] = q.source
    return data


def _translate(
    data: dict[str, Any], q: QuizQuestion, locale: str, shown: str, notes: list[str]
) -> None:
    """Add a translated question's texts to its source question's data; a translation
    without the explanation its source has (or with one its source lacks) would be a
    half-translated question: its explanation is left out and said so."""
    data["prompt"][locale] = q.prompt
    for key, text in zip(data["options"], q.options, strict=True):
        data["options"][key][locale] = text
    if "explanation" in data and q.explanation:
        data["explanation"][locale] = q.explanation
    elif "explanation" in data:
        del data["prompt"][locale]
        for option in data["options"].values():
            del option[locale]
        notes.append(
            f"{shown}:{q.line}: question {q.number}: no explanation where the source has one;"
            " not imported (a half-translated question)"
        )
    elif q.explanation:
        notes.append(
            f"{shown}:{q.line}: question {q.number}: an explanation the source lacks; left out"
        )


def _merge_into(catalog: dict[str, Any], addition: dict[str, Any]) -> None:
    for field_key, field_ in addition["fields"].items():
        mine = catalog.setdefault("fields", {}).setdefault(
            field_key, {"name": field_["name"], "specializations": {}}
        )
        for spec_key, spec in field_["specializations"].items():
            target = mine["specializations"].setdefault(
                spec_key, {"name": spec["name"], "topics": {}}
            )
            target["topics"].update(spec["topics"])
