"""The practice lists (``qbank.site.practice``) on the small bank, and the questions a session
reads from the topic pages they name (``assets/lib/questions.js`` in Chromium)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fixtures.messy_bank import qid
from selectolax.lexbor import LexborHTMLParser

from qbank.bank.load import load_bank
from qbank.bank.markup import to_html
from qbank.site.parts import question_folder
from qbank.site.practice import practice_files
from qbank.site.render import image_prefix

SIZE = 25  # the page size the served site is built with (the plugin's default)


def _files(content: Path) -> dict[str, bytes]:
    bank = load_bank(content)
    return practice_files(bank, lambda e, locale: question_folder(bank, e, locale, SIZE))


def test_a_list_per_locale_field_and_seniority_and_no_texts(small_bank: Path) -> None:
    files = _files(small_bank)
    assert len(files) == 3 * 2 * 3
    assert all(p.count("/") == 4 and p.endswith(".json") for p in files)
    assert "zh/api/practice/backend/senior.json" in files
    assert files == _files(small_bank), "output is deterministic"
    assert not any(b'"prompt"' in data for data in files.values()), "the texts are the pages'"


def test_questions_match_field_seniority_and_locale_and_name_their_page(
    small_bank: Path,
) -> None:
    bank = load_bank(small_bank)
    for path, data in _files(small_bank).items():
        locale, _api, _practice, field, name = path.split("/")
        payload = json.loads(data)
        seniority = name.removesuffix(".json")
        assert (payload["locale"], payload["field"], payload["seniority"]) == (
            locale,
            field,
            seniority,
        )
        want = [
            e.id
            for e in bank.field_entries(field)
            if seniority in e.seniorities and locale in e.locales
        ]
        assert [q for q, _, _ in payload["questions"]] == want
        assert len(set(payload["pages"])) == len(payload["pages"])
        for question, topic, page in payload["questions"]:
            entry = bank.by_id[question]
            assert payload["topics"][topic] == f"{field}/{entry.topic}"
            assert payload["pages"][page] == question_folder(bank, entry, locale, SIZE)


# A session's reading of the lists and pages, with the page's own module instance.
READ = """async ([locale, field, level]) => {
  const entry = document.querySelector("script[type=module][src$='/qbank.js']");
  const { listed, texts } = await import(new URL("lib/questions.js", entry.src).href);
  const stubs = await listed(locale, field, level);
  return { stubs, items: await texts(stubs) };
}"""


def _read(page: Any, server: str, locale: str, field: str, level: str) -> dict[str, Any]:
    page.goto(f"{server}{locale}/")
    return page.evaluate(READ, [locale, field, level])


def test_a_session_reads_every_question_of_a_list_from_its_page(
    page: Any, served_site: tuple[str, Path], content_dir: Path
) -> None:
    """Each text of each question, as its page shows it, for every list of the small bank:
    the same HTML the build made of the question's Markdown (its images' links made
    absolute, so they hold on any page that shows it)."""
    server, site = served_site
    bank = load_bank(content_dir)
    for path in sorted((site / "en/api/practice").rglob("*.json")):
        field, level = path.parent.name, path.stem
        found = _read(page, server, "en", field, level)
        ids = [q for q, _, _ in json.loads(path.read_bytes())["questions"]]
        assert [s["id"] for s in found["stubs"]] == ids
        assert [i["id"] for i in found["items"]] == ids, "every question is on its page"
        for item in found["items"]:
            entry = bank.by_id[item["id"]]
            q = entry.question
            absolute = f"{server}images/{entry.field}/{entry.topic}/"

            def html(texts: Any, entry: Any = entry, absolute: str = absolute) -> Any:
                if not texts or "en" not in texts:
                    return None
                made = to_html(texts["en"], image_prefix(entry)).strip()
                return made.replace(image_prefix(entry), absolute)

            assert item["kind"] == ("choice" if q.is_choice else "open")
            assert item["topic"] == f"{entry.field}/{entry.topic}"
            folder = question_folder(bank, entry, "en", SIZE)
            assert item["url"] == f"en/{entry.field}/{folder}/#q-{entry.id}"
            assert item["answer"] == list(q.answer or [])
            assert [o["key"] for o in item["options"]] == list(q.options or {})
            for option in item["options"]:
                assert option["html"] == html(q.options[option["key"]])
            for key in ("explanation", "assesses", "model_answer"):
                assert item[key] == html(getattr(q, key)), (item["id"], key)
            assert item.get("hint") == html(q.hint)
            # the prompt: the page's box, or the heading's first paragraph and the box's rest
            words = [w for w in _text(html(q.prompt)).split() if len(w) > 3]
            assert all(w in _text(item["prompt"]) for w in words), (item["id"], item["prompt"])


def _text(html: str) -> str:
    return LexborHTMLParser(html).text(separator=" ")


def test_question_fields(page: Any, server: str) -> None:
    items = _read(page, server, "en", "ml-engineer", "senior")["items"]
    by_id = {q["id"]: q for q in items}
    multi = by_id["01a05d13-8d21-739a-baa2-7dab67be4005"]
    assert multi["kind"] == "choice"
    assert multi["answer"] == ["a", "c"]
    assert [o["key"] for o in multi["options"]] == ["a", "b", "c", "d"]
    assert multi["explanation"] == "<p>Both keep 8 exponent bits.</p>"
    assert "<math" in multi["prompt"]


def test_a_hint_comes_with_its_question(browser: Any, messy: str, page_recorder: Any) -> None:
    """The messy bank's hinted question (tests/test_hint.py) in its practice list, its hint
    read from its page in each locale; a question without one has none."""
    for locale, words in (("en", "one by one"), ("zh", "逐个执行")):
        items: dict[str, Any] = {}
        with page_recorder(browser, messy) as tab:
            for level in ("junior", "mid", "senior"):
                found = _read(tab, messy, locale, "backend", level)["items"]
                items.update({i["id"]: i for i in found})
        assert words in items[qid(3001)]["hint"]
        assert "hint" not in items[qid(3002)]
