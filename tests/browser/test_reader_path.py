# ruff: noqa: RUF001  (Turkish and Chinese expectations)
"""The reader's path on a real-shaped bank (issue 15), each point as a reader's task.

The site is the messy bank of ``tests/fixtures/messy_bank.py`` (generic titles, long code,
a 250-question topic, a one-question topic, a one-topic specialization, partial
translations, raw links) built by real MkDocs with the sample site's Material features
(conftest's ``messy``)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import pytest
from chrome_text import english_left, material_text
from fixtures.messy_bank import BIG, QUESTIONS, qid
from playwright.sync_api import expect

from qbank.site.parts import DEFAULT_PAGE_SIZE

pytestmark = pytest.mark.browser

CLOSURES = "en/javascript/closures/"


@pytest.fixture
def tab(
    browser: Any, messy: str, page_recorder: Callable[[Any, str], AbstractContextManager[Any]]
) -> Iterator[Any]:
    with page_recorder(browser, messy) as page:
        yield page


def _stored(page: Any) -> dict[str, Any]:
    return dict(json.loads(page.evaluate("localStorage.getItem('qbank:v1:progress')") or "{}"))


def _question(page: Any, n: int) -> Any:
    return page.locator(f"#q-{qid(n)}")


# -- 1. navigation ----------------------------------------------------------------------------


# (name in the menu, its page, the page whose menu shows it: with navigation.prune only the
# open section's entries are in the menu, as a reader opening that section sees them)
MENU = [
    ("The language", "javascript/topics/language/", "javascript/"),
    ("Tooling", "javascript/topics/tooling/", "javascript/"),
    ("Junior questions", "javascript/level-junior/", "javascript/"),
    ("Mid-level questions", "javascript/level-mid/", "javascript/"),
    ("Senior questions", "javascript/level-senior/", "javascript/"),
    ("Closures and scope", "javascript/closures/", "javascript/topics/language/"),
    ("Event loop", "javascript/event-loop/", "javascript/topics/language/"),
    ("Bundlers", "javascript/bundlers/", "javascript/topics/tooling/"),
    ("Databases", "backend/topics/databases/", "backend/"),
    ("Transactions and isolation", "backend/transactions/", "backend/topics/databases/"),
    ("Indexing and query plans", "backend/indexing/", "backend/topics/databases/"),
    ("Junior questions", "backend/level-junior/", "backend/"),
]


@pytest.mark.parametrize(("name", "path", "parent"), MENU)
def test_every_topic_and_seniority_page_has_its_own_menu_entry(
    tab: Any, messy: str, name: str, path: str, parent: str
) -> None:
    tab.goto(f"en/{parent}")
    nav = tab.locator(".md-nav--primary")
    expect(nav).to_be_attached()
    entries = nav.locator("a.md-nav__link").evaluate_all(
        "links => links.map(a => [a.textContent.trim(), a.href])"
    )
    assert [name, f"{messy}en/{path}"] in entries, f"no menu entry {name!r} for {path}"
    nav.locator("a.md-nav__link").evaluate_all(
        "(links, href) => links.find(a => a.href === href).click()", f"{messy}en/{path}"
    )
    tab.wait_for_url(f"{messy}en/{path}")
    expect(tab.locator("h1")).to_be_visible()


# -- 2. headings ------------------------------------------------------------------------------


def test_table_of_contents_entries_are_numbered_and_distinct(tab: Any) -> None:
    # The topic is cut into numbered pages (the default page size each): their tables of
    # contents together list every question once, numbered on from page to page.
    texts: list[str] = []
    for part in range(1, -(-BIG // DEFAULT_PAGE_SIZE) + 1):
        tab.goto(CLOSURES if part == 1 else CLOSURES.replace("closures/", f"closures--{part}/"))
        toc = tab.locator(".md-sidebar--secondary .md-nav--secondary a.md-nav__link")
        texts += [" ".join(t.split()) for t in toc.all_inner_texts()]
    tab.goto(CLOSURES)
    assert len(texts) == BIG
    assert len(set(texts)) == BIG, "two table-of-contents entries read the same"
    assert [int(t.split(".")[0]) for t in texts] == list(range(1, BIG + 1))
    heading = tab.locator(f"#h-{qid(3)}")
    expect(heading.locator("code")).to_have_count(1)  # the code line that tells it apart


def test_heading_keeps_inline_code_and_the_prompt_is_not_repeated(tab: Any) -> None:
    tab.goto("tr/javascript/bundlers/")
    heading = tab.locator(f"#h-{qid(2001)}")
    expect(heading).to_contain_text("sum'ın dönüş değeri nedir?")
    expect(heading.locator("code")).to_have_text("sum")
    tab.goto("en/javascript/event-loop/")
    expect(tab.locator(f"#h-{qid(1001)}")).to_contain_text("1. In which order do")
    expect(_question(tab, 1001)).not_to_contain_text("In which order")


# -- 3. deep links ----------------------------------------------------------------------------


def test_permalink_shows_heading_below_header_and_marks_the_question(tab: Any) -> None:
    n = 150  # translated into Turkish (n % 3 == 0)
    tab.goto(f"{CLOSURES}#q-{qid(n)}")
    question = _question(tab, n)
    expect(question).to_have_class(re.compile(r"\bqb-target\b"))
    tab.wait_for_timeout(300)
    header = tab.locator(".md-header").bounding_box()
    heading = tab.locator(f"#h-{qid(n)}").bounding_box()
    assert header
    assert heading
    assert heading["y"] >= header["y"] + header["height"] - 1, (heading, header)
    assert heading["y"] < 400, "the heading is not near the top of the window"
    # switching language keeps the question
    tab.hover(".md-header .md-select")
    tab.click('a.md-select__link[hreflang="tr"]')
    # the anchor of the question (or of its heading, which navigation.tracking may show)
    tab.wait_for_url(re.compile(rf"/tr/javascript/closures/#[qh]-{qid(n)}$"))
    expect(_question(tab, n)).to_have_class(re.compile(r"\bqb-target\b"))


def test_switching_language_on_an_untranslated_question_says_so_and_links_back(tab: Any) -> None:
    """Issue 33, point 11: question 1 of closures is in English only (n % 3 != 0). The
    switcher carries its anchor to the Turkish topic (cut into parts: none holds it); a notice
    there says it is not translated and links back to it in English."""
    n = 1
    tab.goto(f"{CLOSURES}#q-{qid(n)}")
    expect(_question(tab, n)).to_have_class(re.compile(r"\bqb-target\b"))
    origin = tab.url.split("#")[0]  # the part of the English topic that holds it
    tab.hover(".md-header .md-select")
    tab.click('a.md-select__link[hreflang="tr"]')
    tab.wait_for_url(re.compile(rf"/tr/javascript/closures/#[qh]-{qid(n)}$"))
    notice = tab.locator(".qb-not-here")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("Henüz çevrilmedi")
    expect(notice).to_contain_text("Bu soru henüz Türkçe diline çevrilmedi.")
    back = notice.locator("a")
    expect(back).to_have_count(1)  # the language the reader came from
    expect(back).to_have_text("English dilinde okuyun")
    assert back.evaluate("a => a.href") == f"{origin}#q-{qid(n)}"
    assert "/en/javascript/closures" in origin
    # the notice sits under the page's title, where the reader lands
    top = notice.bounding_box()
    assert top
    assert top["y"] < 600
    back.click()
    tab.wait_for_url(f"{origin}#q-{qid(n)}")
    expect(_question(tab, n)).to_have_class(re.compile(r"\bqb-target\b"))
    expect(tab.locator(".qb-not-here")).to_have_count(0)


def test_a_link_to_a_question_a_locale_lacks_links_to_the_other_languages(tab: Any) -> None:
    """Without a switch before it (a shared link), the notice on a small topic (no parts)
    links the question in each other language of the site, in the page's language."""
    side_effects = qid(2002)  # bundlers: English only
    tab.goto(f"zh/javascript/bundlers/#q-{side_effects}")
    notice = tab.locator(".qb-not-here")
    expect(notice).to_contain_text("这道题还没有翻译成中文。")
    links = notice.locator("a").evaluate_all("l => l.map(a => [a.textContent, a.href])")
    assert [text for text, _ in links] == ["用English阅读", "用Türkçe阅读"]
    assert all(href.endswith(f"/javascript/bundlers/#q-{side_effects}") for _, href in links)
    tab.goto(f"zh/javascript/bundlers/#q-{qid(2001)}")  # translated? no: tree-shaking is en, tr
    expect(tab.locator(".qb-not-here")).to_have_count(1)
    tab.goto(f"tr/javascript/bundlers/#q-{qid(2001)}")  # it is on this page: no notice
    expect(_question(tab, 2001)).to_have_class(re.compile(r"\bqb-target\b"))
    expect(tab.locator(".qb-not-here")).to_have_count(0)


# -- 3b. a level's questions (issue 30) ------------------------------------------------------


def test_a_seniority_page_leads_to_each_question_and_marks_the_answered(tab: Any) -> None:
    """A reader studying for a junior post opens the field's junior questions: an index
    grouped by topic in catalog order (no question shown there), follows one to its home on
    the topic part that holds it, answers it, comes back and sees it marked."""
    tab.goto("en/javascript/")
    tab.locator("article a.qb-card-title", has_text="Junior questions").click()
    tab.wait_for_url(re.compile(r"/en/javascript/level-junior/$"))
    # (instant navigation shows the new address before it swaps the page's content in)
    expect(tab.locator(".qb-level-list").first).to_be_attached()
    expect(tab.locator(".qb-q")).to_have_count(0)  # an index: no question body
    topics = tab.locator("article h2 > a:not(.headerlink)")
    names = topics.all_inner_texts()
    order = ["Closures and scope", "Event loop", "Bundlers"]
    assert names[0] == "Closures and scope"
    assert names == [name for name in order if name in names]
    assert all(
        href.endswith("/?level=junior") for href in topics.evaluate_all("l => l.map(a => a.href)")
    )
    practice = tab.locator("article a.md-button", has_text="Practice Junior")
    assert str(practice.get_attribute("href")).endswith("/en/javascript/practice/?level=junior")
    n = 249  # closures: junior (difficulty 1), answer b
    item = tab.locator(".qb-level-list > li", has=tab.locator(f'a[href$="#q-{qid(n)}"]'))
    expect(item.locator("a")).to_contain_text("What's the output? — ")
    title = " ".join(item.locator("a").inner_text().split())
    expect(item.locator(".qb-difficulty")).to_have_text("Easy")
    expect(item.locator(".qb-status")).to_have_count(0)
    href = str(item.locator("a").evaluate("a => a.href"))
    assert re.search(rf"/en/javascript/closures--\d+/#q-{qid(n)}$", href), href  # a later part
    # The reader scrolls to it, then taps it. (Material's navigation.tracking writes the
    # anchor of the old page's current heading into the address up to half a second after
    # a scroll, even once the next page is shown: a tap sooner loses the question's anchor.)
    item.scroll_into_view_if_needed()
    tab.wait_for_timeout(700)
    item.locator("a").click()
    tab.wait_for_url(href)
    question = _question(tab, n)
    heading = " ".join(tab.locator(f"#h-{qid(n)}").inner_text().split()).rstrip("¶ ")
    assert heading == title  # the topic page's own heading: its number, its code line
    expect(question).to_have_class(re.compile(r"\bqb-target\b"))
    expect(tab.locator(f"#h-{qid(n)}")).to_be_in_viewport()
    question.locator('.qb-option[data-key="b"] .qb-option-text').click()
    expect(question.locator(".qb-status")).to_have_attribute("data-state", "right")
    tab.go_back()  # (to where the reader was: the page's heading there, navigation.tracking)
    tab.wait_for_url(re.compile(r"/en/javascript/level-junior/(#[\w-]+)?$"))
    mark = item.locator(".qb-status")
    expect(mark).to_have_attribute("data-state", "right")
    expect(mark).to_have_text("✓ right")
    group = tab.locator("article h2", has_text="Closures and scope")
    expect(group.locator(".qb-level-count")).to_contain_text("1 of ")
    tab.reload()  # the mark comes from the stored answers, not from this visit
    expect(item.locator(".qb-status")).to_have_attribute("data-state", "right")


# -- 4. honest progress -----------------------------------------------------------------------


def test_wrong_pick_then_right_click_stays_wrong(tab: Any) -> None:
    tab.goto("en/javascript/event-loop/")
    question = _question(tab, 1001)
    question.locator('.qb-option[data-key="a"] .qb-option-text').click()
    question.locator('.qb-option[data-key="b"] .qb-option-text').click()
    record = _stored(tab)[qid(1001)]
    assert record["r"] == 0, "the first answer counts"
    assert record["rr"] == 1, "the retry is kept apart"
    expect(question.locator(".qb-status")).to_have_attribute("data-state", "wrong")
    tab.reload()
    expect(_question(tab, 1001).locator(".qb-status")).to_have_attribute("data-state", "wrong")


# -- 5. reset ---------------------------------------------------------------------------------


def test_reset_all_can_be_undone(tab: Any) -> None:
    tab.goto("en/backend/indexing/")
    _question(tab, 3002).locator('.qb-option[data-key="b"] .qb-option-text').click()
    before = _stored(tab)
    assert before
    tab.locator('.qb-reset[data-reset="all"]').click()
    assert _stored(tab) == {}
    tab.locator(".qb-undo").click()
    assert _stored(tab) == before


def test_toolbar_is_one_line_on_a_phone(browser: Any, messy: str) -> None:
    context = browser.new_context(base_url=messy, viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        page.goto(CLOSURES)
        tops = page.evaluate(
            "[...document.querySelectorAll('.qb-reset-row .qb-reset')]"
            ".map(b => b.getBoundingClientRect().top)"
        )
        assert len(tops) == 2
        assert abs(tops[0] - tops[1]) < 2, tops
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360
    finally:
        context.close()


# -- 6. reveal --------------------------------------------------------------------------------


def test_reveal_without_answering_marks_the_right_option(tab: Any) -> None:
    tab.goto("en/backend/transactions/")
    question = _question(tab, 3001)
    summary = question.locator("details.qb-answer > summary")
    expect(summary).to_have_text("Show answer")
    summary.click()
    expect(question.locator('.qb-option[data-key="b"]')).to_have_class(re.compile(r"\bqb-right\b"))
    expect(summary).to_have_text("Hide answer")
    summary.click()
    expect(summary).to_have_text("Show answer")
    assert qid(3001) not in _stored(tab), "revealing is not answering"


# -- 7. practice ------------------------------------------------------------------------------


def _start(page: Any, level: str = "junior", count: int = 3, misses: bool = False) -> None:
    page.locator("select.qb-practice-level").select_option(level)
    page.locator(".qb-practice-count").fill(str(count))
    if misses:
        page.locator(".qb-practice-misses").check()
    page.locator(".qb-start").click()
    expect(page.locator(".qb-practice-q")).to_be_visible()


def test_practice_asks_before_skipping_resumes_and_reviews_with_text(tab: Any) -> None:
    tab.goto("en/javascript/practice/")
    _start(tab)
    position = tab.locator(".qb-practice-pos")
    expect(position).to_contain_text("1 of 3")
    tab.locator(".qb-practice-answer").click()  # nothing chosen
    expect(tab.locator(".qb-practice > .qb-feedback")).to_contain_text("Choose an option first")
    expect(position).to_contain_text("1 of 3")
    card = tab.locator(".qb-practice-q")
    card.locator(".qb-option").first.locator(".qb-option-text").click()
    tab.locator(".qb-practice-answer").click()
    expect(position).to_contain_text("2 of 3")
    first_pid = card.get_attribute("data-pid")
    tab.reload()
    expect(tab.locator(".qb-practice-pos")).to_contain_text("2 of 3")
    assert tab.locator(".qb-practice-q").get_attribute("data-pid") == first_pid
    # coming back another way offers to resume it
    tab.goto("en/javascript/")
    tab.goto("en/javascript/practice/")
    tab.locator(".qb-resume").click()
    expect(tab.locator(".qb-practice-pos")).to_contain_text("2 of 3")
    for _ in range(2):
        tab.locator(".qb-practice-q .qb-option").first.locator(".qb-option-text").click()
        tab.locator(".qb-practice-answer").click()
    items = tab.locator(".qb-review-item")
    expect(items).to_have_count(3)
    yours = items.first.locator(".qb-yours")
    expect(yours).to_contain_text("Your answer: a")
    expect(yours.locator(".qb-review-options li")).to_have_count(1)
    assert re.search(r"a\.\s*\S", yours.locator("li").inner_text())


def test_practice_draws_from_misses(tab: Any) -> None:
    tab.goto("en/javascript/closures/")
    wrong = []
    for n in (3, 6, 9):  # difficulty 1: junior; answer "abcd"[n % 4], pick another key
        key = "a" if "abcd"[n % 4] != "a" else "b"
        _question(tab, n).locator(f'.qb-option[data-key="{key}"] .qb-option-text').click()
        wrong.append(qid(n))
    tab.goto("en/javascript/practice/")
    _start(tab, "junior", 20, misses=True)
    drawn = set()
    for _ in range(3):
        drawn.add(tab.locator(".qb-practice-q").get_attribute("data-pid"))
        tab.locator(".qb-practice-skip").click()
    assert drawn == set(wrong)


# -- 8. without JavaScript --------------------------------------------------------------------


def test_without_javascript_only_working_controls_show(browser: Any, messy: str) -> None:
    context = browser.new_context(base_url=messy, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(CLOSURES)
        for hidden in (".qb-progress", ".qb-search", ".qb-tools"):
            for i in range(page.locator(hidden).count()):
                expect(page.locator(hidden).nth(i)).to_be_hidden()
        expect(page.locator("details.qb-answer").first).to_be_visible()
        page.goto("en/javascript/practice/")
        expect(page.locator("select.qb-practice-level")).to_be_hidden()
        links = page.locator(".qb-nojs-links a")
        expect(links.first).to_be_visible()
        href = links.first.evaluate("a => a.href")
        page.goto(href)
        expect(page.locator("h1")).to_contain_text("Junior questions")
    finally:
        context.close()


# -- 9. text and accessibility ----------------------------------------------------------------


def test_chinese_uses_full_width_colons_and_footers_are_localized(tab: Any) -> None:
    tab.goto("zh/javascript/practice/")
    expect(tab.locator("h1")).to_contain_text("练习：")
    tab.goto("zh/backend/transactions/")
    expect(tab.locator(".qb-badge.qb-difficulty").first).to_contain_text("难度：")
    tab.goto("tr/javascript/")
    expect(tab.locator(".md-copyright")).to_contain_text("ile yapıldı")
    expect(tab.locator(".md-copyright")).not_to_contain_text("Made with")


@pytest.mark.parametrize("path", ["javascript/closures/", "javascript/level-junior/"])
def test_material_text_around_the_page_is_in_its_language(tab: Any, path: str) -> None:
    assert english_left(tab, path) == []
    assert material_text(tab)["palette toggles"] == "切换到深色模式 | 切换到浅色模式"


def test_one_question_topic_has_no_filter_bar(tab: Any) -> None:
    tab.goto("en/javascript/event-loop/")
    expect(tab.locator(".qb-page-progress")).to_be_visible()
    expect(tab.locator(".qb-filters")).to_have_count(0)
    tab.goto(CLOSURES)
    expect(tab.locator(".qb-filters")).to_have_count(1)


# -- 10. raw links ----------------------------------------------------------------------------


def test_raw_links_are_published_with_nofollow(tab: Any) -> None:
    tab.goto("en/backend/transactions/")
    link = _question(tab, 3001).locator(".qb-explanation a")
    expect(link).to_have_attribute("href", re.compile(r"^https://www\.postgresql\.org/"))
    rel = (link.get_attribute("rel") or "").split()
    assert "nofollow" in rel
    assert "noopener" in rel


# -- 11. edit and source links (issue 33, point 3) -------------------------------------------

REPO = "https://github.com/qbank-dev/qbank"
TOPICS = ["javascript/closures/", "javascript/event-loop/", "javascript/bundlers/",
          "backend/transactions/", "backend/indexing/"]  # fmt: skip


@pytest.mark.parametrize("locale", ["en", "tr", "zh"])
def test_every_edit_link_opens_the_question_file_and_every_source_is_a_url(
    tab: Any, locale: str
) -> None:
    """The site is built with this repository's own ``edit_uri`` (it names the bank's
    folder): each question's Edit opens its file, the folder named once; a source's link is
    its URL alone, the rest of the line ("(WHATWG, CC BY 4.0)") text beside it."""
    links: list[dict[str, Any]] = []
    for topic in TOPICS:
        tab.goto(f"{locale}/{topic}")
        links += tab.locator("div.qb-q").evaluate_all(
            """nodes => nodes.map(q => ({
                qid: q.dataset.qid,
                edit: q.querySelector('a.qb-edit')?.href,
                sources: [...q.querySelectorAll('.qb-source a')].map(a => a.getAttribute('href')),
                sourceText: q.querySelector('.qb-source')?.textContent || '',
            }))"""
        )
    assert len(links) >= 12
    files = {data["id"]: path for path, data in QUESTIONS.items()}  # the bank's own files
    for link in links:
        assert link["edit"] == f"{REPO}/edit/main/content/{files[link['qid']]}", link
    sources = [link for link in links if link["sources"]]
    assert len(sources) == 2  # microtasks and lost-update, in every locale
    for link in sources:
        for href in link["sources"]:
            assert re.fullmatch(r"https://[^\s()]+", href), href
    texts = " ".join(link["sourceText"] for link in sources)
    assert "(WHATWG, CC BY 4.0)" in texts
    assert "(PostgreSQL Licence)" in texts


# -- axe --------------------------------------------------------------------------------------

AXE_PAGES = [
    "en/",
    CLOSURES,
    "tr/javascript/closures/",  # with the "not yet translated" note
    "en/javascript/level-junior/",
    "en/javascript/practice/",
    "en/javascript/bundlers/",  # code with word operators (typeof: Pygments' .ow)
    "en/review/",
    "en/match/",
    "en/saved/",
    "en/progress/",
    "zh/javascript/",  # a field page: the topic tables with the progress column
]


@pytest.mark.parametrize("scheme", ["default", "slate"])
@pytest.mark.parametrize("path", AXE_PAGES)
def test_axe_finds_nothing_serious(tab: Any, path: str, scheme: str) -> None:
    from support.axe import scheme as _scheme
    from support.axe import serious as _serious

    tab.goto(path)
    if tab.locator(".qb-offline").count():  # (a field page: its box shows once the worker answers)
        expect(tab.locator(".qb-offline button")).to_be_visible(timeout=15_000)
    _scheme(tab, scheme)
    assert _serious(tab) == []


@pytest.mark.parametrize("locale", ["en", "tr", "zh"])
def test_menu_landmarks_have_distinct_names_in_the_page_language(tab: Any, locale: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    tab.goto(f"{locale}/javascript/closures/")
    names = tab.evaluate(
        """() => Array.from(document.querySelectorAll("nav"))
            .filter((n) => n.offsetParent !== null)
            .filter((n) => !["presentation", "none"].includes(n.getAttribute("role")))
            .map((n) => {
                const by = n.getAttribute("aria-labelledby");
                const label = by && document.getElementById(by);
                return label ? (label.getAttribute("aria-label") || label.textContent.trim())
                    : (n.getAttribute("aria-label") || "");
            })"""
    )
    assert all(names), names
    assert len(names) == len(set(names)), names
    # (each code block's copy button sits in a <nav> of Material's: not a landmark)
    assert tab.locator("nav.md-code__nav").count() > 0
    assert tab.locator('nav.md-code__nav:not([role="presentation"])').count() == 0
    field = {"en": "JavaScript Engineer", "tr": "JavaScript Mühendisi", "zh": "JavaScript 工程师"}
    assert field[locale] in names
    found = Axe().run(tab, options={"runOnly": ["landmark-unique", "region"]})
    assert [v["id"] for v in found.response["violations"]] == []


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_search_label_is_readable_at_rest_hovered_and_open(tab: Any, scheme: str) -> None:
    from axe_playwright_python.sync_playwright import Axe
    from support.axe import scheme as _scheme

    tab.set_viewport_size({"width": 1280, "height": 800})  # wide: the label shows
    tab.goto(CLOSURES)
    _scheme(tab, scheme)
    button = tab.locator(".qb-search__open")
    expect(button.locator(".qb-search__label")).to_be_visible()
    for step in ("at rest", "hovered", "open"):
        if step == "hovered":
            button.hover()
        elif step == "open":
            button.click()
            expect(tab.locator(".qb-search__panel")).to_be_visible()
            tab.locator(".qb-search__input").fill("closure")
            button.hover()
        tab.wait_for_timeout(400)  # Material's opacity transition on header buttons (0.25 s)
        found = Axe().run(tab, context=".qb-search", options={"runOnly": ["color-contrast"]})
        assert found.response["violations"] == [], (step, found.response["violations"])


def test_no_outside_request(tab: Any, messy: str) -> None:
    tab.goto(CLOSURES)
    tab.wait_for_load_state("networkidle")
    outside = [u for u in tab.requests if not u.startswith(messy)]
    assert outside == []


@pytest.mark.parametrize(
    ("locale", "query"), [("en", "closures scope"), ("tr", "kapsam"), ("zh", "闭包")]
)
def test_a_generic_question_is_found_by_its_topic_name(tab: Any, locale: str, query: str) -> None:
    """The closures topic's questions all share one generic prompt: its name finds them."""
    tab.goto(f"{locale}/")
    box = tab.locator(".qb-search")
    box.locator(".qb-search__open").click()
    box.locator(".qb-search__input").fill(query)
    first = box.locator(".qb-search__result a").first
    expect(first).to_have_attribute("href", re.compile(f"/{locale}/javascript/closures/"))


def test_progress_shows_mastery_per_topic_and_the_streak(tab: Any) -> None:
    """Issue 33.8: a miss answered right on a later day, or in a review, is no longer shown
    as wrong; a question the review schedule holds for weeks is mastered; the field's table
    says how far the reader is in each topic; the home page counts the days in a row."""
    day = 24 * 3600 * 1000
    now = int(tab.evaluate("Date.now()"))
    miss = {"t": "javascript/event-loop", "r": 0, "ts": now - 2 * day}
    progress = {
        qid(1001): {**miss, "rr": 1, "rts": now - day},  # right on a later day
        qid(3): {**miss, "t": "javascript/closures"},  # right in a review, for weeks
        qid(6): {"t": "javascript/closures", "r": 0, "ts": now, "rr": 1, "rts": now + 1},
    }
    review = {
        qid(3): {
            "t": "javascript/closures",
            "r": 1,
            "ts": now,
            "n": 3,
            "S": 30.0,
            "D": 5.0,
            "due": 99999,
            "l": 1,
        }
    }
    tab.goto("en/")
    tab.evaluate(
        """([p, r]) => { localStorage.setItem('qbank:v1:progress', JSON.stringify(p));
                         localStorage.setItem('qbank:v1:review', JSON.stringify(r)); }""",
        [progress, review],
    )
    tab.goto("en/javascript/event-loop/")
    status = _question(tab, 1001).locator(".qb-status")
    expect(status).to_have_attribute("data-state", "relearned")
    expect(status).to_have_text("✓ right on a later try")
    tab.goto(CLOSURES)
    expect(_question(tab, 3).locator(".qb-status")).to_have_text("★ mastered")
    # the retry a moment after the miss, the answer just shown: still wrong
    expect(_question(tab, 6).locator(".qb-status")).to_have_attribute("data-state", "wrong")
    tab.goto("en/javascript/")
    table = tab.locator("table[data-qb-progress]").first
    expect(table.locator("thead th").last).to_have_text("Progress")
    row = table.locator("tr", has=tab.locator('.qb-topic-row[data-key="javascript/closures"]'))
    expect(row.locator("td.qb-topic-cell")).to_have_text(f"2 of {BIG} answered · 1 right · ★ 1")
    tab.goto("en/")
    expect(tab.locator(".qb-streak")).to_have_text("Today: 2 answered · 3-day streak")
    tab.goto("tr/")
    expect(tab.locator(".qb-streak")).to_have_text("Bugün: 2 soru · 3 günlük seri")


# -- 4. search counts ---------------------------------------------------------------------------


def _searched(tab: Any, query: str) -> tuple[int, str]:
    """Type ``query`` into the open search box: (results counted, the status line)."""
    from support.search_box import typed

    typed(tab, query)
    box = tab.locator(".qb-search")
    return int(box.get_attribute("data-count") or 0), box.locator(".qb-search__status").inner_text()


def test_code_symbols_and_absent_words_get_honest_counts(tab: Any) -> None:
    """Every question of the closures topic has ``=>``, ``{`` and ``??`` in its code: a query
    of symbols alone says they cannot be searched instead of listing the whole bank; a word
    no question holds says so; two words count the questions with both apart."""
    tab.goto("en/")
    tab.locator(".qb-search__open").click()
    for query in ("===", "=> () {}", "??"):
        count, status = _searched(tab, query)
        assert count == 0, query
        assert status.startswith("Symbols such as"), (query, status)
    assert _searched(tab, "zyxwvut") == (0, "No question contains “zyxwvut”")
    count, status = _searched(tab, "setTimeout transactions")
    assert (count, status) == (2, "None with every word · 2 with some words")
    count, status = _searched(tab, "setTimeout Promise")
    assert (count, status) == (1, "1 question")
