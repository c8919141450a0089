"""One table of interface text (``site_templates/strings/<locale>.yaml``), read by the pages,
the widget, the search box, the exporters and the importers."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from selectolax.lexbor import LexborHTMLParser as HTMLParser
from sitebuild import write_small_bank

from qbank.site import strings
from qbank.site.strings import STRINGS_DIR, interface_strings, strings_for

LOCALES = ("en", "tr", "zh")


def key_paths(table: dict[str, Any], prefix: str = "") -> set[str]:
    paths: set[str] = set()
    for key, value in table.items():
        path = f"{prefix}{key}"
        paths.add(path)
        if isinstance(value, dict):
            paths |= key_paths(value, path + ".")
    return paths


@pytest.fixture
def strings_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the shipped table that a test may add locale files to."""
    folder = tmp_path / "strings"
    shutil.copytree(STRINGS_DIR, folder)
    monkeypatch.setattr(strings, "STRINGS_DIR", folder)
    interface_strings.cache_clear()
    strings._strings_for.cache_clear()
    yield folder
    interface_strings.cache_clear()
    strings._strings_for.cache_clear()


def test_each_shipped_locale_translates_every_english_key() -> None:
    table = interface_strings()
    assert next(iter(table)) == "en"
    assert set(LOCALES) <= set(table)
    english = key_paths(table["en"])
    for locale, own in table.items():
        assert key_paths(own) == english, locale


def test_a_locale_without_a_file_reads_english() -> None:
    assert strings_for("de") == strings_for("en")


def test_adding_a_locale_is_one_file_and_missing_keys_fall_back(strings_dir: Path) -> None:
    (strings_dir / "de.yaml").write_text(
        "language_name: Deutsch\nsearch: {search: Fragen suchen}\n"
        "widget: {status: {right: richtig}}\ncatalog_names: {senior: Senior (de)}\n",
        encoding="utf-8",
    )
    german = strings_for("de")
    english = strings_for("en")
    assert german["language_name"] == "Deutsch"
    assert german["home"] == english["home"]
    assert german["search"]["search"] == "Fragen suchen"
    assert german["search"]["close"] == english["search"]["close"]
    assert german["widget"]["status"]["right"] == "richtig"
    assert german["widget"]["status"]["no"] == english["widget"]["status"]["no"]
    assert german["widget"]["check"] == english["widget"]["check"]
    assert list(interface_strings()) == ["en", "de", "tr", "zh"]


def test_a_locale_file_that_is_not_a_mapping_names_the_file(strings_dir: Path) -> None:
    (strings_dir / "de.yaml").write_text("- a list\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"de\.yaml: expected a mapping"):
        interface_strings()


def test_yaml_keys_stay_text() -> None:
    """``no`` is a YAML 1.1 boolean: the widget's ``no`` keys must be quoted in every file."""
    for path in STRINGS_DIR.glob("*.yaml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert "no" in data["widget"], path.name
        assert "no" in data["widget"]["status"], path.name


@pytest.fixture(scope="module")
def site(small_site: tuple[Path, Path]) -> Path:
    return small_site[0]


def test_pages_carry_the_widget_and_search_text_of_their_locale(site: Path) -> None:
    for locale in LOCALES:
        page = HTMLParser(
            (site / locale / "ml-engineer" / "throughput" / "index.html").read_text("utf-8")
        )
        # the widget's table: a module of the locale's that the page names, not a copy in it
        assert page.css_first("script#qbank-strings") is None
        link = page.css_first("head link#qbank-strings")
        assert link is not None, locale
        assert link.attributes.get("rel") == "modulepreload"
        assert link.attributes["href"] == f"../../../assets/strings/{locale}.js"
        module = (site / "assets" / "strings" / f"{locale}.js").read_text("utf-8")
        assert module.startswith("export default {")
        table = json.loads(module.removeprefix("export default ").rstrip().removesuffix(";"))
        assert table == strings_for(locale)["widget"]
        box = page.css_first(".qb-search")
        assert box is not None
        settings = json.loads(box.attributes.get("data-qb-search") or "{}")
        assert list(settings["text"]) == [locale]  # the page's alone (another loads in full)
        for key, text in strings_for(locale)["search"].items():
            assert settings["text"][locale][key] == text, (locale, key)
        button = box.css_first(".qb-search__open")
        assert button is not None
        assert button.attributes.get("aria-label") == strings_for(locale)["search"]["search"]


def test_the_moodle_feedback_and_importer_names_come_from_the_table(tmp_path: Path) -> None:
    from lxml import etree

    from qbank.bank.load import load_bank
    from qbank.tools.exporters.moodle import moodle_xml
    from qbank.tools.importers.source import KNOWN_NAMES

    bank = load_bank(write_small_bank(tmp_path / "content"))
    for locale in LOCALES:
        t = strings_for(locale)
        quiz = etree.fromstring(moodle_xml(bank, locale))
        feedback = set(quiz.xpath("//answer/feedback/text/text()"))
        assert feedback == {f"<p>{t['option_right']}</p>", f"<p>{t['option_wrong']}</p>"}
        for key, name in t["catalog_names"].items():
            assert KNOWN_NAMES[key][locale] == name
    assert strings_for("tr")["option_wrong"] != strings_for("en")["option_wrong"]
