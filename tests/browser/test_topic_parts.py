"""A big topic cut into numbered pages (``qbank/parts.py``), in real Chromium on the messy
bank's 250-question topic: every question is on exactly one part and every way to a question
(an old link to the topic, a seniority page's list, search, practice data, the language
switcher, the sitemaps) leads to the part that holds it; progress counts the whole
topic. Both paths: the MkDocs plugin and ``qbank build`` with each publisher."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from fixtures.messy_bank import BIG, qid, write_messy_bank
from playwright.sync_api import expect
from sitebuild import PUBLISHERS, build_site, publish_tree, write_tree

from qbank.bank.load import load_bank
from qbank.tools.verify import verify_site

pytestmark = pytest.mark.browser

CLOSURES = "en/javascript/closures/"
EXTENSIONS = [{"toc": {"permalink": True}}, "attr_list", "admonition"]
THEME = {"name": "material", "font": False, "features": ["navigation.instant"]}


def part(n: int, locale: str = "en") -> str:
    """The page of the closures topic (50 questions a page) for a part number."""
    return f"{locale}/javascript/closures{'' if n == 1 else f'--{n}'}/"


@pytest.fixture(scope="module")
def built(
    tmp_path_factory: pytest.TempPathFactory,
    folder_server: Callable[[Path], AbstractContextManager[str]],
) -> Iterator[tuple[str, Path, Path]]:
    """The messy bank built by the plugin (50 questions a page: the numbers below are for
    that size, twice the default) and served; (URL, site, content)."""
    tmp = tmp_path_factory.mktemp("parts-site")
    with folder_server(tmp / "site") as url:
        content = write_messy_bank(tmp / "content")
        try:
            plugins = [{"qbank": {"content_dir": str(content), "page_size": 50}}]
            site = build_site(
                tmp,
                content,
                theme=THEME,
                site_url=url,
                plugins=plugins,
                markdown_extensions=EXTENSIONS,
            )
        except subprocess.CalledProcessError as error:
            pytest.fail(f"mkdocs build failed:\n{error.stdout}\n{error.stderr[-3000:]}")
        yield url, site, content


def parts(content: Path, locale: str = "en") -> list[list[str]]:
    """The ids of each part of closures in ``locale``: the display order in even runs of at
    most 50 (250 questions: five of 50)."""
    bank = load_bank(content)
    ids = [e.id for e in bank.by_topic["javascript", "closures"] if locale in e.locales]
    count = -(-len(ids) // 50)
    size, longer = divmod(len(ids), count)
    lengths = [size + 1] * longer + [size] * (count - longer)
    return [ids[sum(lengths[:n]) : sum(lengths[: n + 1])] for n in range(count)]


def part_of(content: Path, question: str, locale: str = "en") -> int:
    return next(n for n, ids in enumerate(parts(content, locale), 1) if question in ids)


@pytest.fixture
def tab(
    browser: Any,
    built: tuple[str, Path, Path],
    page_recorder: Callable[[Any, str], AbstractContextManager[Any]],
) -> Iterator[Any]:
    with page_recorder(browser, built[0]) as page:
        yield page


def test_every_question_is_on_one_part_and_the_site_verifies(
    built: tuple[str, Path, Path],
) -> None:
    _, site, content = built
    ids = []
    for n, expected in enumerate(parts(content), 1):
        html = (site / part(n) / "index.html").read_text("utf-8")
        found = re.findall(r'<div class="qb-q" id="q-([0-9a-f-]+)"', html)
        assert found == expected, n
        ids += found
    assert sorted(ids) == [qid(n) for n in range(1, BIG + 1)]
    assert not (site / part(BIG // 50 + 1)).exists()
    # Turkish has every third question (83): two parts; Chinese every tenth (25): one.
    assert (site / part(2, "tr") / "index.html").is_file()
    assert not (site / part(3, "tr")).exists()
    assert not (site / part(2, "zh")).exists()
    assert verify_site(site, load_bank(content)) == []


def test_nav_keeps_one_entry_and_the_pager_links_every_part(
    tab: Any, built: tuple[str, Path, Path]
) -> None:
    tab.goto(part(3))
    pager = tab.locator(".qb-pages-top")
    expect(pager).to_contain_text("Page 3 of 5")
    expect(pager.locator("[aria-current=page]")).to_have_text("3")
    links = pager.locator("a:not([rel])")
    assert [urlparse(str(a.evaluate("a => a.href"))).path for a in links.all()] == [
        f"/{part(n)}" for n in (1, 2, 4, 5)
    ]
    nav = tab.locator(".md-sidebar--primary .md-nav__link")
    hrefs = [a.get_attribute("href") or "" for a in nav.all()]
    assert not [h for h in hrefs if "closures--" in h], "a part got a menu entry of its own"
    tab.locator(".qb-pages-end a[rel=next]").click()
    tab.wait_for_url(re.compile(r"/closures--4/$"))
    expect(tab.locator(".qb-q").first).to_have_id(f"q-{parts(built[2])[3][0]}")
    headings = tab.locator(".md-sidebar--secondary .md-nav--secondary a.md-nav__link")
    expect(headings.first).to_contain_text("151.")  # numbered on from the earlier parts


@pytest.mark.parametrize("anchor", ["q", "h"])
def test_old_link_to_a_question_that_moved_lands_on_it(
    tab: Any, built: tuple[str, Path, Path], anchor: str
) -> None:
    question = parts(built[2])[3][7]  # on part 4
    tab.goto(f"{CLOSURES}#{anchor}-{question}")
    tab.wait_for_url(re.compile(rf"/closures--4/#q-{question}$"))
    expect(tab.locator(f"#q-{question}")).to_have_class(re.compile(r"\bqb-target\b"))


def test_permalinks_search_and_practice_point_at_the_part(
    tab: Any, built: tuple[str, Path, Path]
) -> None:
    _, site, content = built
    question = parts(content)[4][-1]  # on part 5
    # the seniority page lists its questions as links to the part that holds each (issue 30)
    checked = 0
    for page in sorted(site.glob("en/javascript/level-junior*/index.html")):
        html = page.read_text("utf-8")
        assert 'class="qb-q' not in html
        for folder, found in re.findall(r'<li><a href="\.\./([^/"]+)/#q-([^"]+)"', html):
            if int(found[-12:], 16) <= BIG:  # a closures question: the part that holds it
                assert f"en/javascript/{folder}/" == part(part_of(content, found))
                checked += 1
    assert checked > 50
    tab.goto("en/javascript/level-junior/")
    last = tab.locator(".qb-level-list a").last
    target = urlparse(str(last.evaluate("a => a.href"))).fragment
    last.click()
    expect(tab.locator(f"#{target}")).to_have_class(re.compile(r"\bqb-target\b"))
    # the search index's documents and the practice data name the part
    urls = []
    for path in (site / "en/api/search").rglob("*.json"):
        data = path.read_text("utf-8")
        urls += re.findall(r"/en/javascript/closures[^\"#]*#q-" + question, data)
    assert urls == [f"/en/javascript/closures--5/#q-{question}"]
    pages = set()
    for path in (site / "en/api/practice/javascript").glob("*.json"):
        listed = json.loads(path.read_bytes())
        pages |= {listed["pages"][n] for q, _, n in listed["questions"] if q == question}
    assert pages == {"closures--5"}


def test_an_old_link_into_a_seniority_page_lands_on_the_question(
    tab: Any, built: tuple[str, Path, Path]
) -> None:
    """Issue 35 made seniority pages of questions, issue 30 an index of links: a link to a
    question's anchor on a seniority page (another locale's switcher, an old bookmark) goes
    on to the question on its topic part."""
    _, _, content = built
    # a junior question of closures (difficulty 1: question n with n % 3 == 0) on a later part
    question = [q for ids in parts(content)[1:] for q in ids if int(q[-12:], 16) % 3 == 0][-1]
    number = part_of(content, question)
    assert number > 1
    tab.goto(f"en/javascript/level-junior/#q-{question}")
    tab.wait_for_url(re.compile(rf"/closures--{number}/#q-{question}$"))
    expect(tab.locator(f"#q-{question}")).to_have_class(re.compile(r"\bqb-target\b"))


def test_sitemaps_list_the_parts_of_each_locale(built: tuple[str, Path, Path]) -> None:
    _, site, _ = built
    en = (site / "en/sitemap.xml").read_text("utf-8")
    tr = (site / "tr/sitemap.xml").read_text("utf-8")
    assert all(f"/{part(n)}</loc>" in en for n in range(1, 6))
    assert "/en/javascript/closures--6/" not in en
    assert f"/{part(2, 'tr')}</loc>" in tr
    assert "closures--3" not in tr


def test_progress_counts_the_whole_topic(tab: Any, built: tuple[str, Path, Path]) -> None:
    question = parts(built[2])[4][0]
    tab.goto(part(5))
    tab.locator(f"#q-{question} .qb-option-text").first.click()
    tab.goto(part(1))
    topic = tab.locator('.qb-progress[data-key="javascript/closures"] .qb-count')
    expect(topic).to_contain_text(f"1 of {BIG}")  # every part's questions, on any part
    tab.goto("en/javascript/")  # the field's count
    expect(tab.locator('.qb-progress[data-key="javascript"] .qb-count')).to_contain_text("1 of ")
    stored = json.loads(tab.evaluate("localStorage.getItem('qbank:v1:progress')") or "{}")
    assert question in stored


def test_filters_count_every_part_and_the_pager_keeps_them(
    tab: Any, built: tuple[str, Path, Path]
) -> None:
    """Issue 33.7: on one part of five, a filter says how many pass on this page and on all
    the topic's pages, each pager number says how many of its own pass, and the next part
    opens with the same filters."""
    content = built[2]
    easy = {qid(n) for n in range(1, BIG + 1) if n % 3 == 0}  # difficulty 1 (messy bank)
    per_part = [sum(1 for q in ids if q in easy) for ids in parts(content)]
    answered = [q for q in parts(content)[0] if q in easy][:2]  # two, on part 1
    tab.goto(part(1))
    stored = {q: {"t": "javascript/closures", "ts": 1, "r": 1} for q in answered}
    tab.evaluate("(p) => localStorage.setItem('qbank:v1:progress', JSON.stringify(p))", stored)
    tab.goto(part(3))
    tab.locator(".qb-filters select[name=difficulty]").select_option("1")
    shown = tab.locator(".qb-shown")
    expect(shown).to_have_text(
        f"Questions shown: {per_part[2]} of 50 · {sum(per_part)} of {BIG} on all 5 pages"
    )
    pager = tab.locator(".qb-pages-top")
    for n in (1, 2, 4, 5):
        expect(pager.locator("a:not([rel])", has_text=re.compile(rf"^{n}\b"))).to_have_text(
            f"{n} ({per_part[n - 1]})"
        )
    tab.locator(".qb-filters input[name=hide]").check()
    expect(shown).to_have_text(
        f"Questions shown: {per_part[2]} of 50 · {sum(per_part) - 2} of {BIG} on all 5 pages"
    )
    expect(pager.locator("a:not([rel])").first).to_have_text(f"1 ({per_part[0] - 2})")
    tab.locator(".qb-pages-end a[rel=next]").click()
    tab.wait_for_url(
        re.compile(r"/closures--4/\?(difficulty=1&hide=answered|hide=answered&difficulty=1)$")
    )
    expect(tab.locator(".qb-filters select[name=difficulty]")).to_have_value("1")
    expect(tab.locator(".qb-filters input[name=hide]")).to_be_checked()
    expect(shown).to_contain_text(f"Questions shown: {per_part[3]} of 50")
    visible = tab.locator(".qb-q:not([hidden])")
    expect(visible).to_have_count(per_part[3])
    tab.locator(".qb-filters select[name=difficulty]").select_option("")
    tab.locator(".qb-filters input[name=hide]").uncheck()
    expect(shown).to_have_text("Questions shown: 50 of 50")  # no filter: no fetch, no badge
    expect(tab.locator(".qb-part-count")).to_have_count(0)
    assert "?" not in str(tab.locator(".qb-pages-end a[rel=next]").evaluate("a => a.href"))


def test_language_switcher_keeps_the_question(tab: Any, built: tuple[str, Path, Path]) -> None:
    content = built[2]
    # on Turkish part 2: the switcher links the Turkish topic's first page, which sends
    # the anchor on to the part that holds it
    question = parts(content, "tr")[1][-1]
    here = part_of(content, question)
    tab.goto(f"{part(here)}#q-{question}")
    expect(tab.locator(f"#q-{question}")).to_have_class(re.compile(r"\bqb-target\b"))
    tab.hover(".md-header .md-select")
    tab.click('a.md-select__link[hreflang="tr"]')
    tab.wait_for_url(re.compile(rf"/tr/javascript/closures--2/#q-{question}$"))
    expect(tab.locator(f"#q-{question}")).to_have_class(re.compile(r"\bqb-target\b"))


# -- qbank build, each publisher -----------------------------------------------------------------


@pytest.fixture(scope="module", params=PUBLISHERS)
def published(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    folder_server: Callable[[Path], AbstractContextManager[str]],
) -> Iterator[tuple[str, Path, Path]]:
    """The messy bank's tree (100 questions a page) published by one publisher, served."""
    folder = tmp_path_factory.mktemp(f"parts-{request.param}")
    site = folder / "tree" / "site"
    site.mkdir(parents=True)
    with folder_server(site) as url:
        content = write_messy_bank(folder / "content")
        plugins = [{"qbank": {"content_dir": str(content), "page_size": 100}}]
        try:
            tree = write_tree(
                folder, content, theme=THEME, plugins=plugins, markdown_extensions=EXTENSIONS
            )
            publish_tree(tree, str(request.param))
        except subprocess.CalledProcessError as error:
            pytest.fail(f"{request.param} failed:\n{error.stdout}\n{error.stderr[-3000:]}")
        yield url, site, content


def test_publishers_show_the_parts_and_send_old_links_on(
    browser: Any, published: tuple[str, Path, Path]
) -> None:
    url, site, content = published
    assert (site / "en/javascript/closures--3/index.html").is_file()
    assert not (site / "en/javascript/closures--4").exists()
    assert verify_site(site, load_bank(content)) == []
    context = browser.new_context(base_url=url)
    try:
        page = context.new_page()
        question = parts(content)[4][0]  # 100 a page here: on part 3
        page.goto(f"{CLOSURES}#q-{question}")
        page.wait_for_url(re.compile(rf"/closures--3/(index\.html)?#q-{question}$"))
        expect(page.locator(f"#q-{question}")).to_have_class(re.compile(r"\bqb-target\b"))
        expect(page.locator(".qb-pages-top")).to_contain_text("3")
    finally:
        context.close()


# -- the search box loads on demand ----------------------------------------------------------

NO_IDLE = "window.requestIdleCallback = function () { return 0; };"


@pytest.mark.parametrize("how", ["click", "slash"])
def test_search_box_loads_when_reached_for_and_finds_the_part(
    tab: Any, built: tuple[str, Path, Path], how: str
) -> None:
    tab.add_init_script(NO_IDLE)  # no idle time: only the reader loads the box's script
    tab.goto(part(1))
    tab.wait_for_load_state("load")
    tab.wait_for_timeout(300)
    assert tab.evaluate("typeof document.querySelector('.qb-search').qbSearch") == "undefined"
    assert not [u for u in tab.requests if u.endswith("/assets/search.js")]
    if how == "click":
        tab.locator(".qb-search__open").click()
    else:
        tab.locator("body").press("/")
    panel = tab.locator(".qb-search__panel")
    expect(panel).to_be_visible()
    # a question of part 4, found by the number only its explanation holds
    question = parts(built[2])[3][7]
    number = int(question[-12:], 16)
    box = tab.locator(".qb-search")
    box.locator(".qb-search__input").fill(f"counter starts at {number}")
    first = box.locator(".qb-search__result a").first
    expect(first).to_have_attribute("href", re.compile(rf"closures--4/#q-{question}$"))
