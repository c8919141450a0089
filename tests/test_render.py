"""The renderer: golden Markdown of the small bank, and the rules every page follows."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from qbank.bank.load import load_bank
from qbank.bank.problems import ContentError
from qbank.site.render import RenderedSite, RenderOptions, md_escape, render_site, source_html
from qbank.site.theme import branch_of, link_options

GOLDEN = Path(__file__).parent / "golden" / "render"
OPTIONS = RenderOptions(
    edit_url="https://github.com/qbank-dev/qbank/edit/main/content/",
    report_url="https://github.com/qbank-dev/qbank/issues/new",
)
WRAPPER = re.compile(r'<div class="qb-q( qb-copy)?" id="q-([0-9a-f-]+)"')


@pytest.fixture
def site(small_bank: Path) -> RenderedSite:
    return render_site(load_bank(small_bank), OPTIONS)


def test_generated_markdown_matches_goldens(
    site: RenderedSite, request: pytest.FixtureRequest
) -> None:
    """Run with --update-goldens to rewrite tests/golden/render/ and review the git diff.

    Practice pages are the widget's template and are tested with it.
    """
    pages = {p: t for p, t in site.pages.items() if not p.endswith("/practice/index.md")}
    if request.config.getoption("update_goldens"):
        for old in GOLDEN.rglob("*.md"):
            old.unlink()
        for path, text in pages.items():
            target = GOLDEN / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
    expected = {
        p.relative_to(GOLDEN).as_posix(): p.read_text(encoding="utf-8")
        for p in GOLDEN.rglob("*.md")
    }
    assert sorted(pages) == sorted(expected)
    for path, text in pages.items():
        assert text == expected[path], f"{path} differs from its golden file"


def test_every_question_is_canonical_once_per_locale_it_has(
    site: RenderedSite, small_bank: Path
) -> None:
    bank = load_bank(small_bank)
    for locale in bank.catalog.locales:
        canonical: list[str] = []
        for path, text in site.pages.items():
            if path.startswith(f"{locale}/"):
                canonical += [m.group(2) for m in WRAPPER.finditer(text) if not m.group(1)]
        expected = sorted(e.id for e in bank.entries if locale in e.locales)
        assert sorted(canonical) == expected


def test_a_seniority_page_links_its_questions_and_copies_none(site: RenderedSite) -> None:
    """A seniority page is an index: a link to each of its questions' anchors on the topic
    page that shows it (the question's one home), never a copy of the question."""
    level_page = site.pages["en/ml-engineer/level-mid/index.md"]
    assert 'class="qb-q' not in level_page
    links = re.findall(r'<li><a href="\.\./([^/]+)/#q-([^"]+)">', level_page)
    assert len(links) == 4
    for folder, qid in links:
        assert f'id="q-{qid}"' in site.pages[f"en/ml-engineer/{folder}/index.md"]
    topic_page = site.pages["en/ml-engineer/throughput/index.md"]
    assert "qb-copy" not in topic_page


def test_untranslated_questions_are_counted_and_linked(site: RenderedSite) -> None:
    page = site.pages["zh/ml-engineer/numerics/index.md"]
    assert "2" in page.split("\n!!! note", 1)[1].split("\n\n", 1)[0]
    assert "(../../../en/ml-engineer/numerics/index.md)" in page
    assert "(../../../tr/ml-engineer/numerics/index.md)" in page
    assert 'class="qb-q"' not in page


def test_each_question_has_a_heading_before_its_wrapper(site: RenderedSite) -> None:
    page = site.pages["en/backend/indexing/index.md"]
    for match in WRAPPER.finditer(page):
        before = page[: match.start()].rstrip().rsplit("\n", 1)[-1]
        assert before.startswith("## ")
        assert before.endswith(f"{{#h-{match.group(2)}}}")


def test_the_practice_list_names_the_page_that_shows_each_question(site: RenderedSite) -> None:
    """A practice session reads a question's texts from its topic page: the list names it."""
    listed = json.loads(site.files["tr/api/practice/backend/mid.json"])
    assert listed["questions"]
    for qid, _, page in listed["questions"]:
        assert f'id="q-{qid}"' in site.pages[f"tr/backend/{listed['pages'][page]}/index.md"]
    assert not any(p.startswith("tr/api/practice/backend/mid/") for p in site.files)


def test_images_are_shipped_beside_the_pages(site: RenderedSite) -> None:
    assert site.files["images/ml-engineer/numerics/bits.png"].startswith(b"\x89PNG")
    assert (
        'src="../../../images/ml-engineer/numerics/bits.png"'
        in (site.pages["tr/ml-engineer/numerics/index.md"])
    )


def test_report_link_is_prefilled(site: RenderedSite) -> None:
    page = site.pages["zh/backend/indexing/index.md"]
    assert (
        "question_id=01a05d13-8d21-739a-baa2-7dab67be4007&amp;locale=zh"
        "&amp;file=content%2Fbackend%2Findexing%2Fcomposite-order.yaml"
    ) in page
    assert "template=question-problem.yml" in page


def test_without_a_repository_there_are_no_edit_or_report_links(small_bank: Path) -> None:
    site = render_site(load_bank(small_bank))
    assert all("qb-edit" not in t and "qb-report" not in t for t in site.pages.values())


def test_only_the_requested_locales_are_rendered(small_bank: Path) -> None:
    bank = load_bank(small_bank)
    site = render_site(bank, RenderOptions(locales=("tr",)))
    assert {p.split("/")[0] for p in site.pages} == {"tr", "index.md"}
    assert set(site.nav) == {"tr"}
    # the site's images (outside every locale's folder) come with the default locale's pages,
    # the ones the root build writes: every locale's, a Turkish-only question's included
    assert bank.catalog.default_locale != "tr"
    assert not any(p.startswith("images/") for p in site.files)
    default = render_site(bank, RenderOptions(locales=(bank.catalog.default_locale,)))
    assert default.files["images/ml-engineer/numerics/bits.png"].startswith(b"\x89PNG")


def test_a_reserved_topic_key_is_a_content_error(small_bank: Path) -> None:
    catalog = small_bank / "catalog.yaml"
    catalog.write_text(catalog.read_text("utf-8").replace("indexing:", "practice:"), "utf-8")
    (small_bank / "backend/indexing").rename(small_bank / "backend/practice")
    with pytest.raises(ContentError) as caught:
        render_site(load_bank(small_bank))
    assert "reserves" in caught.value.format_text()


def test_md_escape() -> None:
    assert md_escape("a *b* [c](d) <e> & #f") == r"a \*b\* \[c\]\(d\) \<e\> &amp; \#f"


@pytest.mark.parametrize(
    ("edit_uri", "docs", "expected"),
    [
        # this repository's own mkdocs.yml: edit_uri names the bank's folder itself
        ("edit/main/content/", "pages", "https://github.com/o/r/edit/main/content/"),
        ("edit/main/docs/", "docs", "https://github.com/o/r/edit/main/content/"),
        ("edit/dev/", "docs", "https://github.com/o/r/edit/dev/content/"),
        ("", "docs", "https://github.com/o/r/edit/main/content/"),
        ("-/edit/main/docs/", "docs", "https://github.com/o/r/-/edit/main/content/"),
    ],
)
def test_edit_links_name_the_bank_folder_once(edit_uri: str, docs: str, expected: str) -> None:
    options = link_options(
        "https://github.com/o/r", edit_uri, docs, "content", branch_of(edit_uri, "main"), "t.yml"
    )
    assert options.edit_url == expected


def test_edit_link_of_a_question_under_the_sample_config(small_bank: Path) -> None:
    """mkdocs.yml of this repository (``edit_uri: edit/main/content/``) gives links that
    open the question's file, the bank's folder named once."""
    options = link_options(
        "https://github.com/qbank-dev/qbank", "edit/main/content/", "pages", "content", "main", ""
    )
    options = dataclasses.replace(options, placeholders=False)  # the page with its questions
    page = render_site(load_bank(small_bank), options).pages["en/backend/indexing/index.md"]
    assert (
        'class="qb-edit" href="https://github.com/qbank-dev/qbank/edit/main/content/'
        'backend/indexing/composite-order.yaml"'
    ) in page
    assert "content/content/" not in page


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "https://x.org/y (MIT)",
            '<a href="https://x.org/y" rel="noopener noreferrer">https://x.org/y</a> (MIT)',
        ),
        (
            "After (https://a.org/b?c=1&d=2), and https://e.org/f.",
            'After (<a href="https://a.org/b?c=1&amp;d=2" rel="noopener noreferrer">'
            "https://a.org/b?c=1&amp;d=2</a>), and "
            '<a href="https://e.org/f" rel="noopener noreferrer">https://e.org/f</a>.',
        ),
        (
            "见 https://x.org/a（MIT）",  # noqa: RUF001
            '见 <a href="https://x.org/a" rel="noopener noreferrer">https://x.org/a</a>（MIT）',  # noqa: RUF001
        ),
        ("Interview notes <b>2024</b>", "Interview notes &lt;b&gt;2024&lt;/b&gt;"),
        ("javascript:alert(1)", "javascript:alert(1)"),
    ],
)
def test_a_source_links_only_its_urls(source: str, expected: str) -> None:
    assert source_html(source) == expected
