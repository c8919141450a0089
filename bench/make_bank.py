"""Write a deterministic synthetic question bank in the content format.

    python bench/make_bank.py OUT [--questions 30000] [--fields 12]
        [--specializations-per-field 3] [--topics-per-field 10] [--locales en,tr,zh] [--seed 1]
        [--lookalike]

With ``--lookalike`` the prompts are templated instead: each is one of a few fixed opening
lines, then every word of a small vocabulary (36 words) in a random order, then a short
code block with random numbers, so that all prompts share nearly all their words; every
300th question repeats the prompt before it with one word more (a true near-duplicate).

The same arguments always write the same bytes. Texts are synthetic but realistic in length:
prompts of 30-120 words, four options, explanations of 40-100 words; Turkish-looking words
with Turkish letters, and real CJK characters for Chinese so search segmentation is
realistic. Every 5th question has a fenced code block, about 10% are open questions and
about 10% of the choice questions have several right answers. Each prompt draws its words
at random from a large vocabulary, so prompts do not look alike (no near-duplicate storm).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import shutil
import sys
import uuid
from pathlib import Path

_CONSONANTS = "bcdfghjklmnprstvyz"
_VOWELS_EN = "aeiou"
_VOWELS_TR = "aeıioöuü"  # noqa: RUF001
_TR_CONSONANTS = "bcçdfgğhjklmnprsştvyz"
# Common CJK Unified Ideographs (a slice of the basic block: real characters).
_CJK = [chr(c) for c in range(0x4E00, 0x4E00 + 3000)]
_CJK_PUNCT = "，。；：？"  # noqa: RUF001
_POOL_WORDS = 1 << 20
_SENIORITIES = {
    "junior": {"en": "Junior", "tr": "Junior", "zh": "初级"},
    "mid": {"en": "Mid-level", "tr": "Orta seviye", "zh": "中级"},
    "senior": {"en": "Senior", "tr": "Kıdemli", "zh": "高级"},  # noqa: RUF001
}


def _word(rng: random.Random, consonants: str, vowels: str) -> str:
    syllables = rng.randint(1, 4)
    return "".join(rng.choice(consonants) + rng.choice(vowels) for _ in range(syllables))


def _vocabulary(rng: random.Random, size: int, consonants: str, vowels: str) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        words.add(_word(rng, consonants, vowels))
    return sorted(words)


class TextMaker:
    """Sentences in one synthetic language, drawn from a seeded generator."""

    def __init__(self, rng: random.Random, locale: str) -> None:
        self.rng = rng
        self.locale = locale
        if locale == "zh":
            self.words = list(_CJK)
        elif locale == "tr":
            self.words = _vocabulary(rng, 30000, _TR_CONSONANTS, _VOWELS_TR)
        else:
            self.words = _vocabulary(rng, 30000, _CONSONANTS, _VOWELS_EN)
        rng.shuffle(self.words)
        # Word frequencies follow Zipf's law, as in real text: a few very common words
        # and a long tail of rare ones (which is what keeps two prompts apart).
        cumulative = list(
            itertools.accumulate(1.0 / rank for rank in range(1, 1 + len(self.words)))
        )
        self.pool = rng.choices(self.words, cum_weights=cumulative, k=_POOL_WORDS)

    def words_text(self, n: int) -> str:
        """About ``n`` words of text (for Chinese: 1.5 characters a word, no spaces).

        Sentences are runs of 6-14 words taken at random offsets of a long Zipf-distributed
        word stream: cheap to draw, and no two texts share most of their sentences.
        """
        rng = self.rng
        pool = self.pool
        parts = []
        if self.locale == "zh":
            left = int(n * 1.5)
            while left > 0:
                size = min(left, rng.randint(9, 21))
                start = rng.randrange(len(pool) - size)
                parts.append("".join(pool[start : start + size]) + rng.choice(_CJK_PUNCT))
                left -= size
            return "".join(parts)
        left = n
        while left > 0:
            size = min(left, rng.randint(6, 14))
            start = rng.randrange(len(pool) - size)
            sentence = " ".join(pool[start : start + size])
            parts.append(sentence[:1].upper() + sentence[1:] + ".")
            left -= size
        return " ".join(parts)


def _code_block(rng: random.Random) -> str:
    name = "".join(rng.choices("abcdefghijklmnopqrstuvwxyz", k=6))
    n = rng.randint(2, 64)
    return (
        "```python\n"
        f"def {name}(xs):\n"
        f"    total = 0\n"
        f"    for i, x in enumerate(xs[:{n}]):\n"
        f"        total += x * i\n"
        f"    return total\n"
        "```\n"
    )


def _block(text: str, indent: str = "    ") -> str:
    """A YAML literal block scalar body."""
    return "".join(f"{indent}{line}\n" if line else "\n" for line in text.split("\n"))


def _inline(text: str) -> str:
    # JSON strings are valid YAML double-quoted scalars.
    return json.dumps(text, ensure_ascii=False)


def _uuid7(rng: random.Random, n: int) -> str:
    millis = 1_700_000_000_000 + n * 7
    rand = rng.getrandbits(74)
    value = (
        (millis << 80) | (0x7 << 76) | ((rand >> 62) << 64) | (0b10 << 62) | (rand & (2**62 - 1))
    )
    return str(uuid.UUID(int=value))


def _names(locale_makers: dict[str, TextMaker], words: int) -> str:
    parts = []
    for locale, maker in locale_makers.items():
        text = maker.words_text(words).rstrip("。.")
        parts.append(f"{locale}: {_inline(text)}")
    return "{" + ", ".join(parts) + "}"


def make_catalog(
    out: Path,
    fields: int,
    specs: int,
    topics: int,
    makers: dict[str, TextMaker],
) -> list[tuple[str, str]]:
    """Write catalog.yaml; return the (field, topic) folders in catalog order."""

    def fixed(names: dict[str, str]) -> str:
        return "{" + ", ".join(f"{loc}: {names[loc]}" for loc in makers) + "}"

    lines = [
        "title: " + fixed({"en": "Synthetic Bank", "tr": "Sentetik Banka", "zh": "合成题库"}),
        "locales: [" + ", ".join(makers) + "]",
        "seniorities:",
    ]
    for key, names in _SENIORITIES.items():
        lines.append(f"  {key}: {fixed(names)}")
    lines.append("fields:")
    folders: list[tuple[str, str]] = []
    for f in range(fields):
        field_key = f"field-{f + 1:02d}"
        lines += [f"  {field_key}:", f"    name: {_names(makers, 2)}", "    specializations:"]
        for s in range(specs):
            lines += [f"      spec-{s + 1:02d}:", f"        name: {_names(makers, 2)}"]
            lines.append("        topics:")
            for t in range(s, topics, specs):
                topic_key = f"topic-{t + 1:02d}"
                lines += [f"          {topic_key}:", f"            name: {_names(makers, 3)}"]
                folders.append((field_key, topic_key))
    (out / "catalog.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folders


class LookalikePrompts:
    """Templated prompts that share nearly all their words (``--lookalike``)."""

    OPENINGS = 3
    NEAR_EVERY = 300  # every 300th question: the prompt before it, one word more

    def __init__(self, rng: random.Random, makers: dict[str, TextMaker]) -> None:
        self.rng = rng
        self.vocabulary = {loc: maker.words[:36] for loc, maker in makers.items()}
        self.openings = {
            loc: [maker.words_text(8) for _ in range(self.OPENINGS)]
            for loc, maker in makers.items()
        }
        self.last: dict[str, tuple[str, str, str]] = {}

    def prompts(self, n: int, locales: list[str]) -> dict[str, str]:
        """The prompt of question ``n`` in every locale."""
        rng = self.rng
        if n % self.NEAR_EVERY == self.NEAR_EVERY // 2 and self.last:
            parts = {
                loc: (opening, body + self._gap(loc) + self.vocabulary[loc][n % 36], code)
                for loc, (opening, body, code) in self.last.items()
            }
        else:
            opening = n % self.OPENINGS
            a, b, op = rng.randrange(100), rng.randrange(100), rng.choice("+-*")
            code = f"```python\nx = {a}\ny = {b}\nprint(x {op} y)\n```"
            parts = {}
            for loc in locales:
                words = list(self.vocabulary[loc])
                rng.shuffle(words)
                parts[loc] = (self.openings[loc][opening], self._gap(loc).join(words), code)
            self.last = parts
        return {loc: "\n\n".join(parts[loc]) for loc in locales}

    @staticmethod
    def _gap(locale: str) -> str:
        return "" if locale == "zh" else " "


def question_text(
    n: int,
    rng: random.Random,
    makers: dict[str, TextMaker],
    locales: list[str],
    prompts: dict[str, str] | None = None,
) -> str:
    """One question file's YAML (with ``prompts``: these prompts)."""
    kind = "open" if n % 10 == 9 else "choice"
    multi = kind == "choice" and n % 10 == 4
    difficulty = 1 + n % 3
    code = _code_block(rng) if n % 5 == 0 and prompts is None else ""
    lines = [f"id: {_uuid7(rng, n)}"]
    if kind == "choice" or n % 20 == 9:
        lines.append(f"difficulty: {difficulty}")
    if kind == "open":
        lines.append(f"seniority: {['junior', 'mid', 'senior'][n % 3]}")
    lines.append(f"tags: [tag-{n % 50}, area-{n % 7}]")
    lines.append("prompt:")
    for loc in locales:
        body = prompts[loc] if prompts else makers[loc].words_text(rng.randint(30, 120))
        if code:
            body = body + "\n\n" + code
        lines.append(f"  {loc}: |")
        lines.append(_block(body).rstrip("\n"))
    if kind == "choice":
        lines.append("options:")
        for key in "abcd":
            texts = ", ".join(
                f"{loc}: {_inline(makers[loc].words_text(rng.randint(3, 12)))}" for loc in locales
            )
            lines.append(f"  {key}: {{{texts}}}")
        lines.append("answer: [a, c]" if multi else f"answer: {'abcd'[n % 4]}")
        lines.append("explanation:")
        for loc in locales:
            lines.append(f"  {loc}: |")
            lines.append(_block(makers[loc].words_text(rng.randint(40, 100))).rstrip("\n"))
    else:
        lines.append("assesses:")
        for loc in locales:
            lines.append(f"  {loc}: {_inline(makers[loc].words_text(rng.randint(8, 20)))}")
        if n % 20 != 19:
            lines.append("model_answer:")
            for loc in locales:
                lines.append(f"  {loc}: |")
                lines.append(_block(makers[loc].words_text(rng.randint(40, 100))).rstrip("\n"))
    return "\n".join(lines) + "\n"


def make_bank(
    out: Path,
    questions: int = 30_000,
    fields: int = 12,
    specs: int = 3,
    topics: int = 10,
    locales: tuple[str, ...] = ("en", "tr", "zh"),
    seed: int = 1,
    lookalike: bool = False,
) -> int:
    """Write the bank into ``out`` (replaced when it exists); return the number of files.
    ``lookalike``: templated prompts (``LookalikePrompts``)."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    rng = random.Random(seed)
    makers = {loc: TextMaker(rng, loc) for loc in locales}
    folders = make_catalog(out, fields, specs, topics, makers)
    templated = LookalikePrompts(rng, makers) if lookalike else None
    for folder in {f"{f}/{t}" for f, t in folders}:
        (out / folder).mkdir(parents=True)
    for n in range(questions):
        field_key, topic_key = folders[n % len(folders)]
        path = out / field_key / topic_key / f"q-{n:06d}.yaml"
        prompts = templated.prompts(n, list(locales)) if templated else None
        text = question_text(n, rng, makers, list(locales), prompts)
        path.write_text(text, encoding="utf-8")
    return questions


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--questions", type=int, default=30_000)
    parser.add_argument("--fields", type=int, default=12)
    parser.add_argument("--specializations-per-field", type=int, default=3)
    parser.add_argument("--topics-per-field", type=int, default=10)
    parser.add_argument("--locales", default="en,tr,zh")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--lookalike", action="store_true", help="templated prompts sharing nearly all words"
    )
    args = parser.parse_args(argv)
    locales = tuple(loc for loc in args.locales.split(",") if loc)
    unknown = [loc for loc in locales if loc not in ("en", "tr", "zh")]
    if unknown:
        parser.error(f"unknown locale(s) {', '.join(unknown)}; expected some of en, tr, zh")
    specs = min(args.specializations_per_field, args.topics_per_field)
    count = make_bank(
        args.out,
        args.questions,
        args.fields,
        specs,
        args.topics_per_field,
        locales,
        args.seed,
        args.lookalike,
    )
    print(f"wrote {count} questions to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
