# ruff: noqa: RUF001  (Chinese and Turkish fixture text)
"""``qbank import markdown-quiz`` (issue 35): GitHub Markdown quizzes in both layouts,
with translations joined only on strong evidence, round-trip: import, validate (warnings
only: the quizzes have questions without explanation), build, verify; a second import
changes nothing; whatever is not read or not aligned is reported as file:line.

The fixtures (tests/fixtures/markdown-quiz/, original text) hold drifted numbering (two
questions numbered 2, a gap after 3), translations that miss a question, code fences in
options, local and remote images, several right answers, a question without a right answer
and a translated question whose right keys differ from its source's."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from sitebuild import build_site

from qbank.bank.load import check_bank, load_bank
from qbank.bank.problems import Severity
from qbank.tools.cli import main
from qbank.tools.importers.markdown_quiz import QuizQuestion, align_translation, parse_quiz
from qbank.tools.verify import verify_site

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "markdown-quiz"
SHELL = "checkbox/shell-quiz.md"


def _import(content: Path, *extra: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(
        main, ["import", "markdown-quiz", str(FIXTURES), "--content", str(content), *extra]
    )
    return result.exit_code, result.stdout, result.stderr


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_both_layouts_are_read_question_by_question() -> None:
    shell = parse_quiz((FIXTURES / SHELL).read_text("utf-8"), SHELL, FIXTURES / "checkbox")
    numbers = [q.number for q in shell.questions]
    assert numbers == [1, 2, 2, 4, 5, 6, 8]  # drifted; 7 has no right answer
    assert shell.title == "Shell Scripting"
    grep_two = shell.questions[1]
    assert grep_two.answer == ["a", "c"]  # several right answers
    loop = shell.questions[3]
    assert loop.options[1].startswith("this one:\n\n```bash\nwhile IFS= read -r line")
    assert loop.source == "https://mywiki.wooledge.org/BashFAQ/001"
    assert shell.questions[0].explanation is not None
    assert shell.questions[0].explanation.startswith("`$$` expands")
    assert shell.questions[0].source is not None
    assert "![A terminal showing a prompt](call-stack.png)" in shell.questions[4].prompt
    assert shell.notes == [
        f"{SHELL}:33: 1 further reference link(s) left out",
        f"{SHELL}:61: question 7: no right answer marked; not imported",
    ]
    js = parse_quiz(
        (FIXTURES / "lettered/README.md").read_text("utf-8"), "js.md", FIXTURES / "lettered"
    )
    assert [q.number for q in js.questions] == [1, 2, 3, 5, 6]
    assert [q.answer for q in js.questions] == [["c"], ["a", "c"], ["c"], ["a"], ["b"]]
    assert js.questions[0].explanation is not None
    assert js.questions[0].explanation.startswith("Without a compare function")
    assert js.questions[3].options[0].startswith("`7`\n\n```javascript")
    assert "[Formats](https://example.org/formats.png)" in js.questions[4].prompt  # a link
    assert js.questions[2].images == {"event-loop.png": FIXTURES / "lettered/event-loop.png"}


def _question(number: int, prompt: str, options: list[str], answer: list[str]) -> QuizQuestion:
    return QuizQuestion(number, number, prompt, options, answer, None, None)


def test_a_translation_is_aligned_on_evidence_never_on_its_number() -> None:
    source = [
        _question(1, "What does `x = 7` set?", ["`x` to 7", "`y` to 7"], ["a"]),
        _question(2, "Why?", ["Because", "No"], ["b"]),
        _question(3, "What prints `42`?", ["`print(42)`", "`echo 24`", "`x`"], ["a"]),
    ]
    # The translation misses question 1 and numbers the others 1 and 2.
    translated = [
        _question(1, "Neden?", ["Çünkü", "Hayır"], ["b"]),
        _question(2, "Hangisi `42` yazar?", ["`print(42)`", "`echo 24`", "`x`"], ["a"]),
    ]
    pairs, unaligned = align_translation(source, translated)
    assert pairs == {0: 1, 1: 2}  # the code tokens anchor 2 -> 3; the gap before it pairs
    assert unaligned == []
    # Its number and shape alone do not make a pair: other right keys, other code.
    wrong = [_question(3, "Hangisi `43` yazar?", ["`print(43)`", "`echo`", "`y`"], ["b"])]
    assert align_translation(source, wrong) == ({}, wrong)
    # Two translated questions alike: neither is taken for the one source question.
    twins = [translated[1], translated[1]]
    pairs, unaligned = align_translation(source, twins)
    assert pairs == {}


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    tmp = tmp_path_factory.mktemp("markdown-quiz")
    content = tmp / "content"
    code, out, err = _import(content)
    assert code == 0, out + err
    assert not content.exists()  # a dry run writes nothing
    code, out, err = _import(content, "--write")
    assert code == 0, out + err
    return content, out, err


def test_the_import_reports_what_it_did_not_take(imported: tuple[Path, str, str]) -> None:
    _content, out, _err = imported
    shown = {line.split("fixtures/markdown-quiz/", 1)[-1] for line in out.splitlines()}
    for note in [
        f"{SHELL}:61: question 7: no right answer marked; not imported",
        "checkbox/shell-quiz-zh.md:49: question 7: no options (- [ ] … or - A: …); not imported",
        "lettered/README.md:98: a remote image https://example.org/formats.png is kept as a link",
    ]:
        assert note in shown, out
    assert any(
        line.startswith("lettered/zh-CN/README-zh_CN.md:26: question 2: no question of")
        for line in shown
    ), out


def test_translations_join_their_source_questions(imported: tuple[Path, str, str]) -> None:
    content, _out, _err = imported
    bank = load_bank(content)
    by_prompt = {e.question.prompt["en"].split("\n")[0]: e for e in bank.entries}
    assert len(bank.entries) == 14
    # shell: the Chinese file misses "Which two commands …" and numbers on from Q3
    zh = {p for p, e in by_prompt.items() if "zh" in e.locales and e.topic == "shell"}
    assert len(zh) == 5
    assert "Which two commands print the lines of `notes.txt` that contain `TODO`?" not in zh
    script = by_prompt["What does this script print?"]
    assert script.question.prompt["zh"].startswith("下面的脚本输出什么？")
    # javascript: Turkish misses question 2; Chinese question 2 has other right keys
    falsy = by_prompt["Which of these are falsy?"]
    assert falsy.locales == ("en",)
    assert falsy.question.answer == ["a", "c"]
    printed = by_prompt["What is printed first?"]
    assert printed.locales == ("en", "tr")
    assert (content / "quizzes/lettered/event-loop.png").is_file()
    assert by_prompt["What gets logged?"].locales == ("en", "tr", "zh")


def test_the_import_validates_builds_and_verifies(
    imported: tuple[Path, str, str], tmp_path: Path
) -> None:
    content, _out, _err = imported
    _bank, problems = check_bank(content)
    assert {p.severity for p in problems} == {Severity.WARNING}
    assert {p.message.split(":")[0] for p in problems} == {"no explanation"}
    site = build_site(tmp_path, content)
    bank = load_bank(content)
    assert verify_site(site, bank) == []
    page = (site / "en/quizzes/shell/index.html").read_text("utf-8")
    assert "No explanation yet." in page


def test_importing_again_changes_nothing(imported: tuple[Path, str, str]) -> None:
    content, _out, _err = imported
    before = _tree(content)
    stamps = {p: (content / p).stat().st_mtime_ns for p in before}
    code, out, err = _import(content, "--write")
    assert code == 0, out + err
    assert "14 question(s): 0 new, 14 already in the bank" in err
    assert _tree(content) == before
    assert {p: (content / p).stat().st_mtime_ns for p in before} == stamps
