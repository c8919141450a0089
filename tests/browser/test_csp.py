"""The Content-Security-Policy every page carries (site_templates/overrides/partials/).

Static checks on the real build: one policy per page, placed before any script,
every inline script of every page allowed by hash, every listed hash accounted for by a file
it comes from, the README's header identical. Browser checks: the reader's actions (widget,
search, practice, palette toggle, instant navigation, language choice) raise no violation,
and a script injected into a built page is blocked.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import material
import pytest
from playwright.sync_api import expect
from selectolax.lexbor import LexborHTMLParser as HTMLParser
from sitebuild import build_site, write_small_bank
from support.widget import instant_navigation_ready

ROOT = Path(__file__).resolve().parents[2]
OVERRIDES = ROOT / "site_templates" / "overrides"
MATERIAL_SCRIPTS = Path(material.__file__).parent / "templates" / "partials" / "javascripts"
TOPIC = "en/ml-engineer/throughput/"
SINGLE = "01a05d13-8d21-739a-baa2-7dab67be4001"  # throughput, answer b
MULTI = "01a05d13-8d21-739a-baa2-7dab67be4005"  # numerics, answers a and c
OPEN = "01a05d13-8d21-739a-baa2-7dab67be4003"  # throughput, open
# An inline <script> in an HTML file: its text, as the browser hashes it.
INLINE_SCRIPT = re.compile(r"<script(?P<attrs>[^>]*)>(?P<text>.*?)</script>", re.S)
STYLE_ATTRIBUTE = re.compile(r"""\sstyle=(?:"([^"]*)"|'([^']*)')""")

# Listens before any page script runs; reaches Python through the exposed binding, so
# violations on every document of a session are kept (full loads and instant navigation).
LISTEN = """
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolation(e.violatedDirective + " " + e.blockedURI + " " +
    (e.sample || "") + " @ " + location.pathname);
});
"""


def sha256(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


def policy_of(html: str) -> str:
    metas = HTMLParser(html).css('meta[http-equiv="Content-Security-Policy"]')
    assert len(metas) == 1, f"{len(metas)} CSP meta tags"
    return metas[0].attributes["content"] or ""


def directives(policy: str) -> dict[str, list[str]]:
    parsed: dict[str, list[str]] = {}
    for part in policy.split(";"):
        name, *values = part.split()
        assert name not in parsed, f"{name} twice"
        parsed[name] = values
    return parsed


def executable_scripts(html: str) -> list[str]:
    """The texts of the inline scripts a browser runs (not JSON data blocks)."""
    scripts = []
    for match in INLINE_SCRIPT.finditer(html):
        attrs = match.group("attrs")
        if re.search(r"\bsrc=", attrs):
            continue
        kind = re.search(r"""\btype=["']?([^"'\s>]+)""", attrs)
        if kind and kind.group(1).lower() not in {"text/javascript", "module"}:
            continue
        scripts.append(match.group("text"))
    return scripts


def pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


# -------------------------------------------------------------------- the policy on disk


def test_every_page_has_one_policy_before_any_script(
    served_site: tuple[str, Path],
) -> None:
    site = served_site[1]
    policies = set()
    for path in pages(site):
        html = path.read_text("utf-8")
        policies.add(policy_of(html))
        meta = html.index('http-equiv="Content-Security-Policy"')
        first = html.find("<script")
        assert 0 < meta < first, f"{path}: the policy comes after a script"
    assert len(policies) == 1, "every page carries the same policy"
    rules = directives(policies.pop())
    assert rules["default-src"] == ["'self'"]
    assert rules["script-src"][0] == "'self'"
    assert all(value.startswith("'sha256-") for value in rules["script-src"][1:])
    assert rules["style-src"] == ["'self'"]
    assert rules["style-src-attr"][0] == "'unsafe-hashes'"
    assert rules["object-src"] == ["'none'"]
    assert rules["base-uri"] == ["'self'"]
    assert rules["form-action"] == ["'self'"]
    everything = " ".join(" ".join(values) for values in rules.values())
    assert "unsafe-inline" not in everything
    assert "unsafe-eval" not in everything


def test_every_inline_script_and_style_attribute_is_allowed(
    served_site: tuple[str, Path],
) -> None:
    site = served_site[1]
    seen_scripts: set[str] = set()
    for path in pages(site):
        html = path.read_text("utf-8")
        rules = directives(policy_of(html))
        for text in executable_scripts(html):
            assert f"'{sha256(text)}'" in rules["script-src"], f"{path}: {text[:80]!r}"
            seen_scripts.add(sha256(text))
        for match in STYLE_ATTRIBUTE.finditer(html):
            value = match.group(1) if match.group(1) is not None else match.group(2)
            assert f"'{sha256(value)}'" in rules["style-src-attr"], f"{path}: {value!r}"
    # Material's two scripts on every page, qbank's __md_scope and root scripts
    assert len(seen_scripts) >= 4


def test_no_data_block_inside_the_content_container(served_site: tuple[str, Path]) -> None:
    """Material's instant navigation re-creates each inline script of the new page's content
    container as a plain <script> with the same text and no attributes, so a JSON data block
    there would be run as code (and refused by the policy). Data blocks belong outside it,
    as Material's own #__config is."""
    for path in pages(served_site[1]):
        tree = HTMLParser(path.read_text("utf-8"))
        for script in tree.css("[data-md-component=container] script[type]"):
            kind = (script.attributes.get("type") or "").lower()
            assert kind in {"text/javascript", "module"}, f"{path}: {script.html[:120]}"


def test_every_listed_hash_comes_from_a_script_the_site_can_write(
    served_site: tuple[str, Path],
) -> None:
    """The hashes are recomputed from their sources, so an upgrade of Material or an edit of
    a qbank script that changes a text fails here instead of on a reader's page."""
    material_files = ["palette.html", "content.html", "announce.html", "consent.html"]
    sources = [(MATERIAL_SCRIPTS / name).read_text("utf-8") for name in material_files]
    sources.append((OVERRIDES / "partials" / "javascripts" / "base.html").read_text("utf-8"))
    expected = set()
    for source in sources:
        for match in INLINE_SCRIPT.finditer(source):
            if re.search(r"\bsrc=", match.group("attrs")):
                continue  # a file (qbank.js from the head), not an inline script
            assert "{{" not in match.group("text"), "a script text varies per page"
            expected.add(f"'{sha256(match.group('text'))}'")
    root_page = (served_site[1] / "index.html").read_text("utf-8")
    root_scripts = [s for s in executable_scripts(root_page) if "qb-locale-choice" in s]
    assert len(root_scripts) == 1
    expected.add(f"'{sha256(root_scripts[0])}'")
    rules = directives(policy_of(root_page))
    assert set(rules["script-src"][1:]) == expected
    alignments = {f"'{sha256(f'text-align: {side};')}'" for side in ("left", "right", "center")}
    assert set(rules["style-src-attr"][1:]) == alignments


def test_readme_gives_the_same_policy_as_a_header(served_site: tuple[str, Path]) -> None:
    policy = policy_of((served_site[1] / "en" / "index.html").read_text("utf-8"))
    readme = (ROOT / "README.md").read_text("utf-8")
    assert f"Content-Security-Policy: {policy}" in readme


# -------------------------------------------------------------------- in the browser


@pytest.fixture
def watched(
    browser: Any, page_recorder: Callable[[Any, str], AbstractContextManager[Any]]
) -> Callable[[str], AbstractContextManager[tuple[Any, list[str]]]]:
    """Opens fresh pages whose CSP violations (events and console reports) are collected."""

    @contextmanager
    def watch(server: str) -> Iterator[tuple[Any, list[str]]]:
        with page_recorder(browser, server) as tab:
            yield tab, listen(tab)

    return watch


def listen(tab: Any) -> list[str]:
    """Collect ``tab``'s CSP violations, page errors included, into the returned list."""
    violations: list[str] = []
    tab.context.expose_binding("__cspViolation", lambda _source, text: violations.append(text))
    tab.context.add_init_script(LISTEN)

    def console(message: Any) -> None:
        if "Content Security Policy" in message.text or "Refused to" in message.text:
            violations.append("console: " + message.text)

    tab.on("console", console)
    tab.on("pageerror", lambda error: violations.append(f"pageerror: {error}"))
    return violations


@pytest.mark.browser
def test_reader_actions_raise_no_violation(watched: Any, server: str) -> None:
    with watched(server) as (tab, violations):
        # the root page's language choice (an inline script) sends the reader on
        tab.goto("")
        tab.wait_for_url(re.compile(r"/en/$"))
        # the widget: a single answer, several answers, a self-rating
        tab.goto(TOPIC)
        tab.locator(f'#q-{SINGLE} .qb-option[data-key="a"]').click()
        expect(tab.locator(f"#q-{SINGLE} .qb-feedback")).to_have_text(re.compile("Wrong"))
        tab.locator(f"#q-{OPEN} details.qb-answer > summary").click()
        tab.locator(f'#q-{OPEN} .qb-rate-btn[data-rate="know"]').click()
        expect(tab.locator(f"#q-{OPEN} .qb-status")).to_have_attribute("data-state", "rated")
        tab.locator(".qb-filters select[name=difficulty]").select_option("2")
        # the palette toggle, twice
        scheme = tab.evaluate("document.body.getAttribute('data-md-color-scheme')")
        tab.locator("form[data-md-component=palette] label:visible").first.click()
        expect(tab.locator("body")).not_to_have_attribute("data-md-color-scheme", scheme)
        tab.locator("form[data-md-component=palette] label:visible").first.click()
        expect(tab.locator("body")).to_have_attribute("data-md-color-scheme", scheme)
        # instant navigation to another topic, where the widget still answers
        instant_navigation_ready(tab)
        tab.evaluate("window.__sameDocument = true")
        tab.locator(".md-nav a[href$='numerics/']").first.click()
        tab.wait_for_url(re.compile("numerics/$"))
        tab.locator(f'#q-{MULTI} .qb-option[data-key="a"] input.qb-check').check()
        tab.locator(f"#q-{MULTI} .qb-check-btn").click()
        expect(tab.locator(f"#q-{MULTI} .qb-feedback")).to_have_text(re.compile("Not quite"))
        assert tab.evaluate("window.__sameDocument === true"), "not an instant navigation"
        # instant navigation to the field page (tables with aligned columns) and the root
        tab.locator(".md-nav a[href$='ml-engineer/']").first.click()
        tab.wait_for_url(re.compile("ml-engineer/$"))
        expect(tab.locator(".qb-progress").first).to_contain_text("answered")
        # search: open, type, follow a result
        tab.locator(".qb-search__open").click()
        tab.locator(".qb-search__input").fill("loss scaling")
        result = tab.locator(".qb-search__result a").first
        expect(result).to_be_visible()
        result.click()
        tab.wait_for_url(re.compile("numerics/"))
        # practice: a whole session
        tab.goto("en/ml-engineer/practice/")
        tab.locator("select.qb-practice-level").select_option("junior")
        tab.locator(".qb-start").click()
        card = tab.locator(".qb-practice-q")
        expect(card).to_be_visible()
        total = int(re.findall(r"\d+", tab.locator(".qb-practice-pos").inner_text())[-1])
        for _ in range(total):
            if card.get_attribute("data-kind") == "choice":
                card.locator(".qb-option").first.locator(".qb-option-text").click()
                tab.locator(".qb-practice-answer").click()
            else:
                tab.locator(".qb-practice-skip").click()
        expect(tab.locator(".qb-summary h2")).to_contain_text("Score")
        # the language switcher
        tab.goto(TOPIC)
        tab.hover(".md-header .md-select")
        tab.click('a.md-select__link[hreflang="tr"]')
        tab.wait_for_url(re.compile("/tr/ml-engineer/throughput/"))
        expect(tab.locator(".qb-q").first).to_be_visible()
        tab.wait_for_load_state("networkidle")
        # the widget's strings came from the locale's module, a file of the site's own
        strings = tab.locator("head link#qbank-strings[rel=modulepreload]")
        assert (strings.get_attribute("href") or "").endswith("/assets/strings/tr.js")
        tab.locator(f'#q-{SINGLE} .qb-option[data-key="b"]').click()
        expect(tab.locator(f"#q-{SINGLE} .qb-feedback")).to_have_text(re.compile("Doğru"))
    assert violations == []


INJECTED = (
    "<script>window.__injectedScript = 1</script>"
    '<img src="no-such-image.png" onerror="window.__injectedHandler = 1">'
    '<a id="injected-link" href="javascript:window.__injectedUrl = 1">x</a>'
)


def injected_copy(site: Path, name: str, keep_policy: bool) -> str:
    """A built topic page with a script, an event handler and a javascript: URL added to its
    content, written beside the original; returns its URL path."""
    html = (site / TOPIC / "index.html").read_text("utf-8")
    if not keep_policy:
        html = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
        assert "Content-Security-Policy" not in html
    marker = '<article class="md-content__inner md-typeset">'
    assert marker in html
    html = html.replace(marker, marker + INJECTED, 1)
    (site / TOPIC / name).write_text(html, "utf-8")
    return TOPIC + name


@pytest.fixture
def scratch(served_site: tuple[str, Path]) -> Iterator[Path]:
    """The served site's topic folder; the pages a test writes there are removed after it,
    so the other tests see the site as built."""
    folder = served_site[1] / TOPIC
    before = set(folder.iterdir())
    yield folder
    for path in set(folder.iterdir()) - before:
        path.unlink()


@pytest.mark.browser
def test_script_injected_into_a_built_page_is_blocked(
    watched: Any, served_site: tuple[str, Path], scratch: Path
) -> None:
    server, site = served_site
    probe = (
        "[window.__injectedScript, window.__injectedHandler, window.__injectedUrl]"
        ".map(v => v === 1)"
    )
    # Without the policy the payloads run: the probe can tell.
    with watched(server) as (tab, violations):
        tab.goto(injected_copy(site, "injected-open.html", keep_policy=False))
        tab.locator("#injected-link").click()
        tab.wait_for_function("window.__injectedUrl === 1")
        assert tab.evaluate(probe) == [True, True, True]
        assert violations == []
    # With it, none does, each is reported, and the widget on the page still answers.
    with watched(server) as (tab, violations):
        tab.goto(injected_copy(site, "injected.html", keep_policy=True))
        tab.locator("#injected-link").click()
        tab.locator(f'#q-{SINGLE} .qb-option[data-key="b"]').click()
        expect(tab.locator(f"#q-{SINGLE} .qb-feedback")).to_have_text(re.compile("Right"))
        tab.wait_for_load_state("networkidle")
        assert tab.evaluate(probe) == [False, False, False]
    events = [v.split(" @ ")[0].strip() for v in violations if not v.startswith("console:")]
    # the <script> and the javascript: URL, then the onerror handler
    assert sorted(events) == ["script-src-attr inline"] + ["script-src-elem inline"] * 2, violations
    assert any("JavaScript URL" in v for v in violations), violations


@pytest.mark.browser
def test_json_data_block_is_not_a_violation(
    watched: Any, served_site: tuple[str, Path], scratch: Path
) -> None:
    """A ``<script type="application/json">`` data block outside the content container (as
    Material's #__config) is never run, so the policy does
    not govern it: one more at the end of the body changes nothing."""
    server, site = served_site
    block = '<script type="application/json" id="qbank-test-data">{"en": {"x": "y"}}</script>'
    html = (site / TOPIC / "index.html").read_text("utf-8")
    html = html.replace("</body>", block + "</body>", 1)
    (site / TOPIC / "with-data.html").write_text(html, "utf-8")
    with watched(server) as (tab, violations):
        tab.goto(TOPIC + "with-data.html")
        assert tab.evaluate("JSON.parse(document.getElementById('qbank-test-data').text).en.x")
        tab.locator(f'#q-{SINGLE} .qb-option[data-key="b"]').click()
        expect(tab.locator(f"#q-{SINGLE} .qb-feedback")).to_have_text(re.compile("Right"))
        tab.wait_for_load_state("networkidle")
    assert violations == []


@pytest.mark.browser
def test_storage_notice_and_its_download_raise_no_violation(watched: Any, server: str) -> None:
    with watched(server) as (tab, violations):
        tab.goto("sitemap.xml")
        tab.evaluate("localStorage.setItem('qbank:v1:progress', '{cut short')")
        tab.goto(TOPIC)
        notice = tab.locator(".qb-storage-notice")
        expect(notice).to_be_visible()
        with tab.expect_download() as info:
            notice.locator(".qb-storage-export").click()
        assert info.value.suggested_filename.endswith(".json")
        tab.locator(f'#q-{SINGLE} .qb-option[data-key="b"]').click()
        expect(tab.locator(f"#q-{SINGLE} .qb-feedback")).to_have_text(re.compile("Right"))
    assert violations == []


def test_a_site_adds_script_hashes_or_turns_the_policy_off(tmp_path: Path) -> None:
    content = write_small_bank(tmp_path / "content")
    extra_hash = sha256("window.siteOwnScript = 1")
    site = build_site(tmp_path, content, extra={"qbank_csp_script_hashes": [extra_hash]})
    rules = directives(policy_of((site / "en" / "index.html").read_text("utf-8")))
    assert f"'{extra_hash}'" in rules["script-src"]
    site = build_site(tmp_path, content, extra={"qbank_csp": False})
    assert "Content-Security-Policy" not in (site / "en" / "index.html").read_text("utf-8")
