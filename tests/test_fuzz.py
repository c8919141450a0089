"""Property tests: whatever a question file holds, validation reports problems and never
raises; and any valid question survives dump -> load unchanged."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.examples import examples

from qbank.bank.load import check_bank
from qbank.bank.model import OPTION_KEYS, Question, nfc
from qbank.bank.problems import Problem

BASE = Path(__file__).resolve().parent / "golden" / "validate" / "_base"
TOPIC = "ml-engineer/throughput"
FUZZ = settings(
    max_examples=int(os.environ.get("QBANK_FUZZ_EXAMPLES", examples(60))),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _bank(tmp: Path) -> Path:
    content = tmp / "content"
    if not content.exists():
        shutil.copytree(BASE, content)
    return content


def _check_file(content: Path, data: bytes) -> list[Problem]:
    path = content / TOPIC / "fuzzed.yaml"
    path.write_bytes(data)
    try:
        _, problems = check_bank(content)
    finally:
        path.unlink()
    return problems


def _assert_reported(problems: list[Problem]) -> None:
    """The fuzzed file is reported (it can never be a valid question: no valid id), every
    problem with a place and a message, and the rest of the bank is left alone."""
    assert problems, "a file that is not a question was not reported"
    for problem in problems:
        assert problem.path.endswith(f"{TOPIC}/fuzzed.yaml"), problem
        assert problem.line >= 1
        assert problem.col >= 1
        assert problem.message


@FUZZ
@given(data=st.binary(max_size=2048))
def test_arbitrary_bytes_are_problems_never_exceptions(tmp_path: Path, data: bytes) -> None:
    _assert_reported(_check_file(_bank(tmp_path), data))


YAML_CHARS = st.sampled_from(list("ab:- \n\t'\"{}[],&*!#|>%@`?\\\x00é中\r\ufeff"))


@FUZZ
@given(text=st.text(YAML_CHARS, max_size=300))
def test_yaml_punctuation_soup_is_reported_never_raises(tmp_path: Path, text: str) -> None:
    _assert_reported(_check_file(_bank(tmp_path), text.encode("utf-8", "surrogatepass")))


_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True),
    st.text(max_size=30),
    st.dates(),
)
_keys = st.one_of(
    st.sampled_from(
        [
            "id",
            "difficulty",
            "seniority",
            "prompt",
            "options",
            "answer",
            "explanation",
            "assesses",
            "model_answer",
            "tags",
            "source",
            "en",
            "tr",
            "zh",
            "a",
            "b",
            "c",
        ]
    ),
    st.text(max_size=8),
)
_structures = st.recursive(
    _scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5), st.dictionaries(_keys, children, max_size=6)
    ),
    max_leaves=30,
)


@FUZZ
@given(data=st.dictionaries(_keys, _structures, max_size=8) | _structures)
def test_random_yaml_structures_are_problems(tmp_path: Path, data: Any) -> None:
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    _assert_reported(_check_file(_bank(tmp_path), text.encode("utf-8", "surrogatepass")))


# --- dump -> load ------------------------------------------------------------------------

_text = (
    st.text(
        st.characters(
            codec="utf-8",
            exclude_categories=("Cs", "Cc", "Co", "Cn"),
            exclude_characters="<>[]`~$",  # (no HTML, links, code, fences or math)
        ),
        min_size=1,
        max_size=40,
    )
    .map(nfc)
    .filter(lambda s: s.strip() != "")
)


@st.composite
def questions(draw: st.DrawFn) -> Question:
    """A valid question in the golden bank's catalog (locales en, tr, zh)."""
    locales = draw(st.lists(st.sampled_from(["en", "tr", "zh"]), min_size=1, unique=True))

    def texts() -> dict[str, str]:
        return {loc: draw(_text) for loc in locales}

    data: dict[str, Any] = {
        "id": str(draw(st.uuids(version=4))),
        "prompt": texts(),
        "tags": draw(
            st.lists(st.from_regex(r"[a-z0-9][a-z0-9+#.-]{0,10}", fullmatch=True), max_size=3)
        ),
    }
    if draw(st.booleans()):
        count = draw(st.integers(2, 8))
        keys = OPTION_KEYS[:count]
        options: dict[str, dict[str, str]] = {}
        for i, key in enumerate(keys):
            # Distinct texts per locale: a prefix makes equal draws different.
            options[key] = {loc: f"{i}. {text}" for loc, text in texts().items()}
        data["options"] = options
        data["answer"] = sorted(
            draw(st.lists(st.sampled_from(list(keys)), min_size=1, max_size=count, unique=True))
        )
        data["explanation"] = texts()
        data["difficulty"] = draw(st.sampled_from([1, 2, 3]))
    else:
        data["seniority"] = draw(
            st.lists(st.sampled_from(["junior", "mid", "senior"]), min_size=1, unique=True)
        )
        if draw(st.booleans()):
            data["assesses"] = texts()
        if draw(st.booleans()):
            data["model_answer"] = texts()
    if draw(st.booleans()):
        data["source"] = draw(_text)
    return Question.model_validate(data, context={"default_locale": "en"})


@FUZZ
@given(question=questions())
def test_valid_question_survives_dump_and_load(tmp_path: Path, question: Question) -> None:
    content = _bank(tmp_path)
    # As a contributor writes it: keys left at their defaults are left out.
    dumped = question.model_dump(exclude_none=True, exclude_defaults=True)
    path = content / TOPIC / "round-trip.yaml"
    path.write_text(yaml.safe_dump(dumped, allow_unicode=True, sort_keys=False), "utf-8")
    try:
        bank, problems = check_bank(content)
    finally:
        path.unlink()
    assert [p for p in problems if p.path.endswith("round-trip.yaml")] == []
    assert bank is not None
    assert bank.by_id[question.id].question == question
