# ruff: noqa: RUF001  (Turkish and Chinese expectations)
"""Real ``mkdocs build --strict`` of the small bank: page tree, anchors, switcher, counts."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
import yaml
from selectolax.lexbor import LexborHTMLParser as HTMLParser
from sitebuild import QUESTIONS, build_site, write_small_bank

from qbank.site.minify import asset_bytes
from qbank.site.strings import STRINGS_ASSETS
from qbank.site.templates import TEMPLATES
from qbank.site.theme import ASSETS, LAZY_ASSETS, static_graph

LOCALES = ("en", "tr", "zh")
SITE_URL = "https://example.org/bank/"
REPO = "https://github.com/qbank-dev/qbank"


@pytest.fixture(scope="module")
def site(small_site: tuple[Path, Path]) -> Path:
    return small_site[0]


def parse(site: Path, page: str) -> HTMLParser:
    return HTMLParser((site / page).read_text(encoding="utf-8"))


def ids_in(locale: str) -> set[str]:
    return {q["id"] for q in QUESTIONS.values() if locale in q["prompt"]}


def test_page_tree(site: Path) -> None:
    assert (site / "index.html").is_file()
    for locale in LOCALES:
        for page in (
            "index.html",
            "ml-engineer/index.html",
            "ml-engineer/throughput/index.html",
            "ml-engineer/numerics/index.html",
            "ml-engineer/level-junior/index.html",
            "ml-engineer/level-senior/index.html",
            "ml-engineer/practice/index.html",
            "backend/indexing/index.html",
        ):
            assert (site / locale / page).is_file(), f"{locale}/{page}"
    assert (site / "images/ml-engineer/numerics/bits.png").is_file()
    for asset in ("assets/qbank.js", "assets/qbank.css"):
        assert (site / asset).is_file()


def test_pages_are_in_their_language(site: Path) -> None:
    for locale in LOCALES:
        html = parse(site, f"{locale}/ml-engineer/throughput/index.html")
        assert html.css_first("html").attributes["lang"] == locale
    assert "Küçük Banka" in parse(site, "tr/index.html").css_first("title").text()
    assert parse(site, "zh/index.html").css_first("h1").text().startswith("小题库")


def test_every_question_is_canonical_exactly_once_per_locale(site: Path) -> None:
    for locale in LOCALES:
        seen: list[str] = []
        for page in (site / locale).rglob("*.html"):
            for node in parse(site, page.relative_to(site).as_posix()).css("div.qb-q"):
                if "qb-copy" not in (node.attributes.get("class") or "").split():
                    seen.append(node.attributes["data-qid"] or "")
        assert sorted(seen) == sorted(ids_in(locale)), locale


def test_anchors_and_headings(site: Path) -> None:
    html = parse(site, "en/backend/indexing/index.html")
    for qid in ("01a05d13-8d21-739a-baa2-7dab67be4007", "01a05d13-8d21-739a-baa2-7dab67be4008"):
        assert html.css_first(f"h2#h-{qid}") is not None
        wrapper = html.css_first(f"div#q-{qid}")
        assert wrapper is not None
        assert wrapper.css_first("details.qb-answer summary").text() == "Show answer"
        # on its topic page the heading's anchor is the question's link: no second one
        anchor = html.css_first(f"h2#h-{qid} a.headerlink").attributes["href"]
        assert anchor == f"#h-{qid}"
        assert wrapper.css_first("a.qb-permalink") is None
    toc = [a.text(strip=True) for a in html.css("nav.md-nav--secondary a")]
    # numbered by its place on the topic page (issue 15)
    wanted = re.compile(r"\d+\. When is a covering index worth its write cost\?")
    assert any(wanted.fullmatch(text) for text in toc), toc


def test_a_seniority_page_is_an_index_of_its_questions(site: Path) -> None:
    """Issue 30: a level's page lists its questions grouped by topic, each a link to its
    anchor on the topic page that holds it, and copies none of them."""
    page = "tr/ml-engineer/level-mid/index.html"
    html = parse(site, page)
    assert html.css("div.qb-q") == []
    links = html.css("ul.qb-level-list > li > a")
    assert links
    for link in links:
        target, _, qid = urljoin("/" + page, link.attributes["href"] or "").partition("#q-")
        home = parse(site, target.lstrip("/") + "index.html")
        question = home.css_first(f"div.qb-q#q-{qid}")
        assert question is not None, link.attributes["href"]
        assert "mid" in (question.attributes.get("data-level") or "").split()
    topics = [a.attributes["href"] for a in html.css("article h2 > a:not(.headerlink)")]
    assert topics
    assert all(href.endswith("/?level=mid") for href in topics), topics
    practice = [a.attributes["href"] for a in html.css("a.md-button")]
    assert "../practice/?level=mid" in practice


def test_language_switcher_keeps_the_page(site: Path) -> None:
    page = "en/ml-engineer/numerics/index.html"
    html = parse(site, page)
    links = {a.attributes["hreflang"]: a.attributes["href"] for a in html.css("a.md-select__link")}
    assert set(links) == set(LOCALES)
    for locale, href in links.items():
        target = urljoin("/" + page, href or "")
        assert target == f"/{locale}/ml-engineer/numerics/", (locale, href)
        assert (site / target.lstrip("/") / "index.html").is_file()


def test_counts(site: Path) -> None:
    html = parse(site, "zh/ml-engineer/index.html")
    rows = {
        tr.css("td")[0].text(strip=True): [td.text(strip=True) for td in tr.css("td")[1:]]
        for tr in html.css("table tbody tr")
    }
    # Throughput in zh: input-wait (mid, 2), pinned-memory (junior, 1), gpu-idle (mid).
    assert rows["吞吐量"] == ["1", "2", "0", "1", "1", "0", "3 (+1 尚未翻译)"]
    assert rows["数值"][-1] == "0 (+2 尚未翻译)"
    note = parse(site, "zh/ml-engineer/numerics/index.html").css_first(".admonition")
    assert "2" in note.text()
    targets = [a.attributes["href"] for a in note.css("a")]
    assert targets == ["../../../en/ml-engineer/numerics/", "../../../tr/ml-engineer/numerics/"]
    coverage = parse(site, "en/index.html").text()
    assert "6 / 8" in coverage
    assert "5 / 8" in coverage


def test_built_html_requests_nothing_outside_the_site(site: Path) -> None:
    selectors = {"script": "src", "link": "href", "img": "src", "iframe": "src", "source": "src"}
    for page in site.rglob("*.html"):
        html = HTMLParser(page.read_text(encoding="utf-8"))
        for tag, attribute in selectors.items():
            for node in html.css(tag):
                url = node.attributes.get(attribute) or ""
                if url.startswith(SITE_URL):
                    continue  # canonical links name the site itself
                assert not re.match(r"^(https?:)?//", url), f"{page}: <{tag}> {url}"
    text = "".join(p.read_text("utf-8") for p in site.rglob("*.html"))
    assert "fonts.googleapis.com" not in text
    assert "fonts.gstatic.com" not in text


def test_assets_are_files_not_inline(site: Path) -> None:
    html = parse(site, "tr/backend/indexing/index.html")
    scripts = [s.attributes.get("src") or "" for s in html.css("script")]
    assert any(s.endswith("assets/qbank.js") for s in scripts)
    sheets = [s.attributes.get("href") or "" for s in html.css("link[rel=stylesheet]")]
    assert any(s.endswith("assets/qbank.css") for s in sheets)


def test_the_head_runs_the_entry_module_and_preloads_what_it_imports(site: Path) -> None:
    """The entry and every module it imports statically are fetched from the head at once
    (no import waterfall); the entry runs as a module (its copy at the end of the body is the
    same module); the lazy parts are not preloaded on a page that does not use them."""
    html = parse(site, "tr/backend/indexing/index.html")
    head = html.css_first("head")
    entry = [s for s in head.css("script[src]") if s.attributes["src"].endswith("/qbank.js")]
    assert [s.attributes.get("type") for s in entry] == ["module"]
    preloaded = [n.attributes.get("href") or "" for n in head.css("link[rel=modulepreload]")]
    graph = static_graph()
    assert graph[0] == "assets/qbank.js"
    assert "assets/lib/storage.js" in graph
    # the graph, and the module of the page locale's interface text that text.js imports
    strings = head.css_first("link#qbank-strings[rel=modulepreload]")
    assert strings is not None
    assert strings.attributes["href"] == "../../../assets/strings/tr.js"
    assert sorted(p.split("../")[-1] for p in preloaded) == sorted(
        [*graph[1:], "assets/strings/tr.js"]
    )
    assert head.html.index('id="qbank-strings"') < head.html.index("/qbank.js")
    assert not any(p.endswith(("/practice.js", "/search.js", "/transfer.js")) for p in preloaded)
    body = [s.attributes for s in html.css("body script[src]") if "qbank.js" in s.attributes["src"]]
    assert [a.get("type") for a in body] == ["module"]
    for path in graph:  # every module of the graph ships, minified
        assert (site / path).is_file()


def test_edit_and_report_links(site: Path) -> None:
    html = parse(site, "tr/backend/indexing/index.html")
    edit = html.css_first("div#q-01a05d13-8d21-739a-baa2-7dab67be4007 a.qb-edit")
    assert (
        edit.attributes["href"] == f"{REPO}/edit/main/content/backend/indexing/composite-order.yaml"
    )
    report = html.css_first("div#q-01a05d13-8d21-739a-baa2-7dab67be4007 a.qb-report")
    query = urlsplit(report.attributes["href"] or "").query
    assert "question_id=01a05d13-8d21-739a-baa2-7dab67be4007" in query
    assert "locale=tr" in query
    assert "file=content%2Fbackend%2Findexing%2Fcomposite-order.yaml" in query
    # Material's own edit button opens the topic's folder, never generated Markdown.
    page_edit = html.css_first("a.md-content__button")
    assert page_edit.attributes["href"] == f"{REPO}/tree/main/content/backend/indexing/"
    assert parse(site, "tr/index.html").css_first("a.md-content__button") is None


def test_images_resolve(site: Path) -> None:
    page = "tr/ml-engineer/numerics/index.html"
    img = parse(site, page).css_first("div.qb-prompt img")
    target = urljoin("/" + page, img.attributes["src"] or "")
    assert (site / target.lstrip("/")).is_file()


def test_content_error_fails_the_build_with_file_and_line(tmp_path: Path) -> None:
    content = write_small_bank(tmp_path / "content")
    broken = content / "backend/indexing/composite-order.yaml"
    data = yaml.safe_load(broken.read_text("utf-8"))
    data["answer"] = "z"
    broken.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    with pytest.raises(subprocess.CalledProcessError) as failed:
        build_site(tmp_path, content)
    output = failed.value.stdout + failed.value.stderr
    assert re.search(r"backend/indexing/composite-order\.yaml:\d+:\d+: answer", output), output
    assert "Traceback" not in output
    assert not (tmp_path / "site" / "en").exists()


def test_sample_bank_questions_are_canonical_once_per_locale(tmp_path: Path) -> None:
    """The repository's own bank (content/) builds strictly, every question in its place."""
    from qbank.bank.load import load_bank

    content = Path(__file__).resolve().parent.parent / "content"
    bank = load_bank(content)
    site = build_site(tmp_path, content)
    for locale in bank.catalog.locales:
        seen: list[str] = []
        for page in (site / locale).rglob("*.html"):
            html = HTMLParser(page.read_text(encoding="utf-8"))
            seen += [
                n.attributes["data-qid"] or ""
                for n in html.css("div.qb-q")
                if "qb-copy" not in (n.attributes.get("class") or "").split()
            ]
        assert sorted(seen) == sorted(e.id for e in bank.entries if locale in e.locales)


def test_material_tags_list_the_bank_tags_per_locale(tmp_path: Path) -> None:
    content = write_small_bank(tmp_path / "content")
    plugins = [{"qbank": {"content_dir": str(content)}}, "tags"]
    built = build_site(tmp_path, content, plugins=plugins)
    bank_tags = {tag for data in QUESTIONS.values() for tag in data.get("tags", [])}
    for locale in ("en", "tr", "zh"):
        index = HTMLParser((built / locale / "tags" / "index.html").read_text("utf-8"))
        listed = {node.text(strip=True) for node in index.css(".md-content .md-tag")}
        # Every tag of a question in this locale is listed, and nothing else.
        in_locale = {
            tag
            for data in QUESTIONS.values()
            if locale in (data["prompt"] if isinstance(data["prompt"], dict) else {"en": 1})
            for tag in data.get("tags", [])
        }
        assert in_locale <= listed <= bank_tags, locale
    topic = HTMLParser(
        (built / "en" / "ml-engineer" / "throughput" / "index.html").read_text("utf-8")
    )
    links = {a.attributes.get("href") for a in topic.css("a.md-tag")}
    assert "../../tags/#tag:gpu" in links


def test_assets_ship_minified_and_the_theme_markup_compact(site: Path) -> None:
    """What every page loads is the minified widget (``qbank.site.minify``); the readable
    sources stay in site_templates; the theme's markup has no runs of spaces left."""
    for asset in (*ASSETS, *LAZY_ASSETS):
        shipped = (site / asset).read_bytes()
        assert shipped == asset_bytes(asset), asset
        if asset.startswith(STRINGS_ASSETS):  # made from strings/<locale>.yaml, no source
            assert shipped.startswith(b"export default {"), asset
            continue
        assert len(shipped) < 0.85 * len((TEMPLATES / asset).read_bytes()), asset
    page = (site / "en/ml-engineer/throughput/index.html").read_text("utf-8")
    kept = r"<(script|pre|textarea|style)\b.*?</\1>|<article\b.*?</article>"
    chrome = re.sub(kept, "(kept)", page, flags=re.S)
    assert 'class="md-nav' in chrome
    assert "qb-q" in page
    assert not re.search(r"\n[ \t\n\r\f]|[ \t\r\f]{2,}", chrome)


def test_material_search_files_are_left_out(site: Path, tmp_path: Path) -> None:
    """qbank's search replaces Material's: no lunr, no search worker in the site, and no page
    names them (Material's __config held the worker's address); a site that turns Material's
    search plugin on keeps them."""
    shipped = [p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()]
    assert not [p for p in shipped if "/lunr/" in p or "workers/search." in p]
    assert any(p.startswith("assets/javascripts/bundle.") for p in shipped)  # the rest stays
    for page in site.rglob("*.html"):
        text = page.read_text("utf-8")
        assert "lunr" not in text, page
        assert "workers/search" not in text, page
        assert 'id="__config"' in text or page.name != "index.html", page
    # with Material's search on, its files and the worker's address stay
    content = write_small_bank(tmp_path / "content")
    plugins = ["search", {"qbank": {"content_dir": str(content)}}]
    kept = build_site(tmp_path, content, plugins=plugins)
    assert list((kept / "assets/javascripts/lunr").glob("*.js"))
    assert "workers/search." in (kept / "en/index.html").read_text("utf-8")


@pytest.mark.parametrize(
    ("page", "title", "description"),
    [
        ("en/ml-engineer/throughput/index.html", "Throughput",
         "4 questions on Throughput, with answers and explanations."),
        ("tr/ml-engineer/throughput/index.html", "Verim",
         "Verim: 2 soru, cevapları ve açıklamalarıyla."),
        ("zh/ml-engineer/index.html", "机器学习工程师", "机器学习工程师：3 道题，附答案与解析。"),
        ("en/ml-engineer/level-senior/index.html", "Senior questions: ML Engineer",
         "Senior questions: ML Engineer: interview questions with answers and explanations."),
    ],
)  # fmt: skip
def test_pages_carry_a_description_and_open_graph_tags(
    site: Path, page: str, title: str, description: str
) -> None:
    """A shared link previews with the page's title and what it holds, in its language."""
    html = parse(site, page)

    def meta(selector: str) -> str:
        node = html.css_first(f"head meta[{selector}]")
        assert node is not None, (page, selector)
        return node.attributes.get("content") or ""

    assert meta('name="description"') == description
    assert meta('property="og:description"') == description
    assert meta('property="og:title"') == title
    assert meta('property="og:type"') == "website"
    assert meta('property="og:url"') == SITE_URL + page.removesuffix("index.html")
    site_name = {"en": "Small Bank", "tr": "Küçük Banka", "zh": "小题库"}[page[:2]]
    assert meta('property="og:site_name"') == site_name
