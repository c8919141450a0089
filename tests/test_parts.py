"""Big topics cut into numbered pages (``qbank.site.parts``): which part shows a question, the
pages the renderer writes for each part, every URL of a question naming its part, updates
after edits, and the ``page_size`` setting of ``qbank build``."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from support.rendered import expanded

from qbank.bank.load import load_bank
from qbank.bank.loaded import Bank
from qbank.bank.problems import ContentError
from qbank.live.reload import BankCache
from qbank.site.parts import (
    level_page_size,
    part_count,
    part_folder,
    question_folder,
    question_url,
    split,
    topic_folders,
)
from qbank.site.render import (
    BodyCache,
    RenderedSite,
    RenderOptions,
    page_paths,
    render_site,
    update_site,
)
from qbank.site.sitemaps import locale_sitemap
from qbank.tree.build import page_size_of, read_user_config

SAMPLE = Path(__file__).resolve().parent.parent / "content"
TOPIC = ("backend-engineer", "caching")
SIZE = 4


def test_split_counts_and_folders() -> None:
    assert split([], SIZE) == [[]]
    assert split(list(range(4)), SIZE) == [[0, 1, 2, 3]]
    # as few parts as hold them, as even as can be (not 4, 4, 1)
    assert split(list(range(9)), SIZE) == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    assert split(list(range(10)), SIZE) == [[0, 1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert [len(p) for p in split(list(range(75)), 50)] == [38, 37]
    assert [len(p) for p in split(list(range(250)), 50)] == [50] * 5
    assert [len(p) for p in split(list(range(251)), 50)] == [42] * 5 + [41]
    assert split(list(range(9)), 0) == [list(range(9))]
    assert [part_count(n, SIZE) for n in (0, 4, 5, 8, 9)] == [1, 1, 2, 2, 3]
    assert part_count(500, 0) == 1
    assert part_folder("caching", 1) == "caching"
    assert topic_folders("caching", 9, SIZE) == ["caching", "caching--2", "caching--3"]


@pytest.fixture
def content(tmp_path: Path) -> Path:
    shutil.copytree(SAMPLE, tmp_path / "content")
    return tmp_path / "content"


def test_each_part_shows_its_questions_and_links_name_the_part(content: Path) -> None:
    bank = load_bank(content)
    options = RenderOptions(page_size=SIZE)
    site = render_site(bank, options)
    entries = bank.by_topic[TOPIC]
    assert len(entries) > 2 * SIZE  # three parts at least
    for locale in bank.catalog.locales:
        # the pages written are exactly the ones page_paths names (sitemaps, link targets)
        written = {path for path in site.pages if path.startswith(f"{locale}/")}
        assert written == set(page_paths(bank, locale, SIZE))
        here = [e for e in entries if locale in e.locales]
        folders = topic_folders(TOPIC[1], len(here), SIZE)
        size, longer = divmod(len(here), len(folders))  # even parts, the first ones longer
        lengths = [size + 1] * longer + [size] * (len(folders) - longer)
        starts = [sum(lengths[:n]) for n in range(len(folders) + 1)]
        for number, folder in enumerate(folders, 1):
            page = site.pages[f"{locale}/{TOPIC[0]}/{folder}/index.md"]
            shown = re.findall(r'<div class="qb-q" id="q-([^"]+)"', page)
            assert shown == [e.id for e in here[starts[number - 1] : starts[number]]]
            assert f'data-total="{len(here)}"' in page  # the whole topic's progress
            assert f"Page {number} of {len(folders)}" in page or locale != "en"
            for qid in shown:  # every URL of the question (search, practice) names this part
                assert question_folder(bank, bank.by_id[qid], locale, SIZE) == folder
                assert f"{{#h-{qid}}}" in page  # its permalink: its heading's anchor
        for at, entry in enumerate(here):
            number = max(n for n in range(len(folders)) if starts[n] <= at)
            assert question_folder(bank, entry, locale, SIZE) == folders[number]
    # the headings number on from part to part
    first = site.pages[f"en/{TOPIC[0]}/{TOPIC[1]}/index.md"]
    second = site.pages[f"en/{TOPIC[0]}/{TOPIC[1]}--2/index.md"]
    on_first = len(re.findall(r'<div class="qb-q" id="q-', first))
    assert re.search(rf"^## {on_first + 1}\. ", second, re.MULTILINE)
    # the sitemap lists every part
    last = [e for e in entries if "en" in e.locales][-1]
    folder = question_folder(bank, last, "en", SIZE)
    assert folder != TOPIC[1]
    sitemap = locale_sitemap(bank, "en", "https://example.org/", page_size=SIZE)
    assert f"https://example.org/en/{TOPIC[0]}/{folder}/</loc>" in sitemap
    for locale in bank.catalog.locales:  # (serve's: from the pages it rendered, the same)
        listed = locale_sitemap(bank, locale, "https://example.org/", page_size=SIZE)
        rendered = site.pages.keys()
        assert locale_sitemap(bank, locale, "https://example.org/", True, SIZE, rendered) == listed


def test_practice_lists_name_the_part(content: Path) -> None:
    bank = load_bank(content)
    site = render_site(bank, RenderOptions(page_size=SIZE))
    for entry in bank.by_topic[TOPIC]:
        for locale in entry.locales:
            folder = question_folder(bank, entry, locale, SIZE)
            for level in entry.seniorities:
                listed = json.loads(site.files[f"{locale}/api/practice/{TOPIC[0]}/{level}.json"])
                pages = {qid: listed["pages"][n] for qid, _, n in listed["questions"]}
                assert pages[entry.id] == folder


@pytest.mark.parametrize("value", ["-1", "many", "true"])
def test_a_wrong_page_size_names_file_line_and_key(tmp_path: Path, value: str) -> None:
    config = tmp_path / "mkdocs.yml"
    config.write_text(
        f"site_name: x\nplugins:\n  - search\n  - qbank:\n      page_size: {value}\n", "utf-8"
    )
    with pytest.raises(ContentError) as caught:
        page_size_of(read_user_config(config), config)
    problem = caught.value.problems[0]
    assert (problem.line, problem.key) == (5, "plugins.qbank.page_size")
    assert "0 or more" in problem.hint


def test_page_size_of_reads_the_plugin_setting(tmp_path: Path) -> None:
    config = tmp_path / "mkdocs.yml"
    config.write_text("plugins:\n  - qbank:\n      page_size: 0\n", "utf-8")
    assert page_size_of(read_user_config(config), config) == 0
    config.write_text("plugins:\n  - qbank\n", "utf-8")
    assert page_size_of(read_user_config(config), config) == 25


def add_first_question(content: Path) -> str:
    """A new question that comes first in the topic (the first one's seniority and
    difficulty, a slug that sorts first): every other question moves on by one; its id."""
    first = load_bank(content).by_topic[TOPIC][0]
    data = yaml.safe_load((content / first.file).read_text("utf-8"))
    data["id"] = "01a228f4-40ee-76ca-8a2b-285b91c1f0aa"
    data["prompt"] = {locale: f"A new first question ({locale})?" for locale in data["prompt"]}
    (content / "/".join(TOPIC) / "0-first.yaml").write_text(
        yaml.safe_dump(data, allow_unicode=True), "utf-8"
    )
    return str(data["id"])


def test_updates_that_shift_and_shrink_a_topic_match_a_full_render(content: Path) -> None:
    files: BankCache = BankCache()
    options = RenderOptions(page_size=SIZE, placeholders=True, defer_files=True)
    bodies = BodyCache()
    bank = load_bank(content, files)  # type: ignore[arg-type]
    site = render_site(bank, options, bodies)
    expanded(site)  # the pages written out, as a build does: the bodies are kept

    def update(bank: Bank) -> tuple[Bank, RenderedSite]:
        after = load_bank(content, files)  # type: ignore[arg-type]
        done = update_site(bank, site, after, options, bodies)
        assert done is not None
        assert expanded(done.site) == expanded(render_site(after, options, BodyCache()))
        return after, done.site

    # every question moves on by one: the kept bodies of those on another part are redone
    qid = add_first_question(content)
    bank, site = update(bank)
    assert bank.by_topic[TOPIC][0].id == qid
    # the topic loses questions: its last part is gone
    count = len([e for e in bank.by_topic[TOPIC] if "en" in e.locales])
    last = f"en/{TOPIC[0]}/{part_folder(TOPIC[1], part_count(count, SIZE))}/index.md"
    assert last in site.pages
    for path in sorted((content / "/".join(TOPIC)).glob("*.yaml"))[: count - 2 * SIZE]:
        path.unlink()
    bank, site = update(bank)
    assert last not in site.pages


def test_serve_moves_the_search_links_of_questions_on_another_part(content: Path) -> None:
    from qbank.live.session import SearchDocs  # (serve's and the watch's search documents)

    files: BankCache = BankCache()
    docs = SearchDocs()
    bank = load_bank(content, files)  # type: ignore[arg-type]
    before = {d.url for d in docs.of(bank, "en", question_url(bank, SIZE))}
    add_first_question(content)
    after = load_bank(content, files)  # type: ignore[arg-type]
    urls = {d.url for d in docs.of(after, "en", question_url(after, SIZE))}
    for entry in after.by_topic[TOPIC]:
        if "en" in entry.locales:
            folder = question_folder(after, entry, "en", SIZE)
            assert f"/en/{TOPIC[0]}/{folder}/#q-{entry.id}" in urls
    assert urls != before


def test_seniority_pages_are_cut_into_parts_grouped_by_topic(content: Path) -> None:
    """Issues 35, 30: a seniority page lists at most ``level_page_size(page_size)``
    questions, each a link to its anchor on the topic part that shows it; its parts follow
    one another in the level's order (topics in catalog order), a topic going on over a
    part's end keeps its heading on the next part, and each part has the pager."""
    bank = load_bank(content)
    small = 2  # (the sample bank's levels hold a few dozen questions)
    size = level_page_size(small)
    site = render_site(bank, RenderOptions(page_size=small))
    cut = 0
    for locale in bank.catalog.locales:
        for field_key in bank.catalog.fields:
            for level in bank.catalog.seniorities:
                here = [
                    e
                    for e in bank.field_entries(field_key)
                    if locale in e.locales and level in e.seniorities
                ]
                folders = topic_folders(f"level-{level}", len(here), size)
                shown: list[str] = []
                topics: list[str] = []
                for number, folder in enumerate(folders, 1):
                    page = site.pages[f"{locale}/{field_key}/{folder}/index.md"]
                    assert 'class="qb-q' not in page
                    links = re.findall(r'<li><a href="\.\./([^/]+)/#q-([^"]+)">', page)
                    assert 0 < len(links) <= size or len(here) == 0
                    for folder_of, qid in links:
                        assert folder_of == question_folder(bank, bank.by_id[qid], locale, small)
                    shown += [qid for _, qid in links]
                    topics += re.findall(
                        rf"^## \[[^\]]*\]\(\.\./([^/]+)/index\.md\?level={level}\)", page, re.M
                    )
                    if len(folders) > 1:
                        assert 'class="qb-pages' not in page  # (attribute lists, as Markdown)
                        assert ".qb-pages .qb-pages-top" in page
                        for other in folders:
                            assert f"(../{other}/index.md)" in page or other == folder
                    if number > 1:
                        assert f"qbank_first_part: {field_key}/level-{level}/" in page
                cut += len(folders) > 1
                assert shown == [e.id for e in here]
                # grouped by topic, in catalog order; a topic heading again on a new part only
                distinct = list(dict.fromkeys(topics))
                assert distinct == list(dict.fromkeys(e.topic for e in here))
                assert len(topics) <= len(distinct) + len(folders) - 1
    assert cut  # the sample bank has levels of more than ``size`` questions
