"""XSS in a real browser: every page of two real builds loaded in Chromium, where nothing runs.

Site 1: the valid payloads and hostile catalog names of tests/fixtures/hostile/xss.yaml,
built by ``mkdocs build --strict`` with the qbank plugin. Site 2: the unsafe payloads forced
past the validator and rendered by qbank.site.render/qbank.bank.markup directly (nh3 must hold).
A test fails on any dialog, any request to a host other than 127.0.0.1, any script that is
not a file of the site, and any event-handler attribute left in the live DOM.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from fixtures.hostile import xss_bank as xss
from sitebuild import build_site

import qbank.bank.rules

_LIVE_HANDLERS = """() => {
  const found = [];
  for (const el of document.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      const name = attr.name.toLowerCase();
      const value = attr.value.replace(/[\\u0000-\\u0020]/g, '').toLowerCase();
      if (name.startsWith('on') || name === 'srcdoc') found.push(el.tagName + ' ' + name);
      if (['href', 'src', 'action', 'formaction'].includes(name)
          && /^(javascript|vbscript|data):/.test(value)) found.push(el.tagName + ' ' + name);
    }
  }
  return found;
}"""


@pytest.fixture(scope="module")
def valid_site(
    tmp_path_factory: pytest.TempPathFactory, folder_server: Callable[[Path], Any]
) -> Iterator[tuple[str, Path]]:
    tmp = tmp_path_factory.mktemp("xss-browser-valid")
    content = tmp / "content"
    xss.write_bank(content, "valid")
    site = build_site(tmp, content, site_url="http://127.0.0.1/")
    with folder_server(site) as url:
        yield url, site


@pytest.fixture(scope="module")
def forced_site(
    tmp_path_factory: pytest.TempPathFactory, folder_server: Callable[[Path], Any]
) -> Iterator[tuple[str, Path]]:
    tmp = tmp_path_factory.mktemp("xss-browser-forced")
    content = tmp / "content"
    xss.write_bank(content, "unsafe", hostile_names=False)
    for path in (content / xss.TOPIC_DIR).glob("*.yaml"):
        if "tags:" in path.read_text("utf-8"):
            path.unlink()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(qbank.bank.rules, "unsafe_parts", lambda text: [])
        patch.setattr(qbank.bank.rules, "local_images", lambda text: [])
        site = xss.build_rendered(tmp, content)
    with folder_server(site) as url:
        yield url, site


def _visit_all(browser: Any, url: str, site: Path) -> list[str]:
    """Load every page; open every <details>; return everything that should not happen."""
    bad: list[str] = []
    context = browser.new_context()

    def route(request_route: Any) -> None:
        host = urlsplit(request_route.request.url).hostname
        if host != "127.0.0.1":
            bad.append(f"request to another host: {request_route.request.url}")
            request_route.abort()
            return
        request_route.continue_()

    context.route("**/*", route)
    page = context.new_page()

    def on_dialog(dialog: Any) -> None:
        bad.append(f"dialog: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", on_dialog)

    def on_request(request: Any) -> None:
        if request.resource_type == "script":
            path = urlsplit(request.url).path.lstrip("/")
            if not (site / path).is_file():
                bad.append(f"script the site did not ship: {request.url}")

    page.on("request", on_request)
    for html in sorted(site.rglob("*.html")):
        relative = html.relative_to(site).as_posix()
        page.goto(url + relative, wait_until="load")
        page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
        for summary in page.locator("details summary").all()[:5]:
            summary.hover()
        page.wait_for_timeout(50)
        bad += [f"{relative}: live {item}" for item in page.evaluate(_LIVE_HANDLERS)]
    context.close()
    return bad


def test_valid_payloads_run_nothing(browser: Any, valid_site: tuple[str, Path]) -> None:
    url, site = valid_site
    assert _visit_all(browser, url, site) == []


def test_forced_unsafe_payloads_run_nothing(browser: Any, forced_site: tuple[str, Path]) -> None:
    url, site = forced_site
    assert _visit_all(browser, url, site) == []
