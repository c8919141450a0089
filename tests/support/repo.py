"""A repository with a bank holding one mistake of each kind (annotations and progress tests)."""

from __future__ import annotations

from pathlib import Path


def write_repo(root: Path) -> Path:
    content = root / "content"
    (content / "ml" / "gpu").mkdir(parents=True)
    (content / "ml" / "no-such-topic").mkdir(parents=True)
    (content / "catalog.yaml").write_text(CATALOG, encoding="utf-8")
    (content / GOOD).write_text(choice("01a05d13-8d21-739a-baa2-000000000000"), encoding="utf-8")
    for name, (text, *_rest) in MISTAKES.items():
        (content / name).write_text(text, encoding="utf-8")
    return content


CATALOG = """\
title: {en: Bank, tr: Banka}
locales: [en, tr]
seniorities:
  junior: {en: Junior}
  mid: {en: Mid}
  senior: {en: Senior}
fields:
  ml:
    name: {en: ML}
    specializations:
      infra:
        name: {en: Infra}
        topics:
          gpu:
            name: {en: GPU}
"""


def choice(qid: str, *, answer: str = "b", option_c: str = "{en: Three, tr: Üç}") -> str:
    return (
        f"id: {qid}\n"
        "difficulty: 1\n"
        "prompt:\n"
        "  en: How many?\n"
        "  tr: Kaç tane?\n"
        "options:\n"
        "  a: {en: One, tr: Bir}\n"
        "  b: {en: Two, tr: İki}\n"
        f"  c: {option_c}\n"
        f"answer: {answer}\n"
        "explanation:\n"
        "  en: Two, because of the pair.\n"
        "  tr: İki, çünkü bir çift var.\n"
    )


GOOD = "ml/gpu/good.yaml"


MISTAKES = {
    # file → (text, expected line, expected column, words of the message)
    "ml/gpu/wrong-answer-key.yaml": (
        choice("01a05d13-8d21-739a-baa2-000000000001", answer="d"),
        10,
        9,
        "answer: answer 'd' is not an option",
    ),
    "ml/gpu/missing-translation.yaml": (
        choice("01a05d13-8d21-739a-baa2-000000000002", option_c="{en: Three}"),
        9,
        3,
        "options.c: half-translated",
    ),
    "ml/gpu/tab-indented.yaml": (
        choice("01a05d13-8d21-739a-baa2-000000000003").replace("  en: How", "\ten: How"),
        4,
        1,
        "not valid YAML",
    ),
    "ml/no-such-topic/misplaced.yaml": (
        choice("01a05d13-8d21-739a-baa2-000000000004"),
        1,
        1,
        "unknown topic folder 'no-such-topic'",
    ),
}
