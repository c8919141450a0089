"""Browser fixtures: a real MkDocs + Material build of the small bank, served on 127.0.0.1,
and Debian's Chromium driven by Playwright (never a downloaded browser)."""

from __future__ import annotations

import os
import subprocess
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from fixtures.messy_bank import write_messy_bank
from sitebuild import build_site, write_small_bank
from support.review import START

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-gpu"]
THEME: dict[str, Any] = {
    "name": "material",
    "font": False,
    "features": ["navigation.instant"],
    "palette": [
        {"scheme": "default", "toggle": {"icon": "material/brightness-7", "name": "Dark"}},
        {"scheme": "slate", "toggle": {"icon": "material/brightness-4", "name": "Light"}},
    ],
}


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="session")
def served_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The small bank built by real MkDocs (Material, instant navigation) and served by
    ``http.server`` on 127.0.0.1; yields (base URL, site folder).

    The port is bound before the build so ``site_url`` is the served address: Material's
    instant navigation only follows links that its sitemap lists under that address.
    """
    tmp = tmp_path_factory.mktemp("browser-site")
    site = tmp / "site"
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=site))
    url = f"http://127.0.0.1:{httpd.server_address[1]}/"
    content = write_small_bank(tmp / "content")
    try:
        build_site(tmp, content, theme=THEME, site_url=url)
    except subprocess.CalledProcessError as error:
        pytest.fail(f"mkdocs build failed:\n{error.stdout}\n{error.stderr[-3000:]}")
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield url, site
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="session")
def server(served_site: tuple[str, Path]) -> str:
    """The base URL of the served site."""
    return served_site[0]


@pytest.fixture(scope="session")
def content_dir(served_site: tuple[str, Path]) -> Path:
    """The small bank's content folder the site was built from."""
    return served_site[1].parent / "content"


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Debian Chromium; skipped without it, except in CI where that is a failure."""
    if not Path(CHROMIUM).exists():
        message = f"{CHROMIUM} is not installed: the browser tests need Debian's chromium"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@contextmanager
def recorded_page(browser: Any, base_url: str) -> Iterator[Any]:
    """A fresh page (own storage) on ``base_url``; every request it makes is recorded in
    ``page.requests``."""
    context = browser.new_context(base_url=base_url)
    tab = context.new_page()
    requests: list[str] = []
    tab.on("request", lambda request: requests.append(request.url))
    tab.requests = requests
    try:
        yield tab
    finally:
        context.close()


@contextmanager
def serving(site: Path) -> Iterator[str]:
    """``http.server`` on 127.0.0.1 for the folder ``site``, which may not exist yet (bind
    first, build with the yielded base URL as ``site_url``, then browse)."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=site))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="session")
def folder_server() -> Callable[[Path], AbstractContextManager[str]]:
    """``serving``, for fixtures of other sites."""
    return serving


@pytest.fixture(scope="session")
def page_recorder() -> Callable[[Any, str], AbstractContextManager[Any]]:
    """``recorded_page`` for fixtures of other sites (the search tests')."""
    return recorded_page


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    """A fresh page of the small bank's site, its requests recorded."""
    with recorded_page(browser, server) as tab:
        yield tab


MESSY_THEME: dict[str, Any] = {
    "name": "material",
    "font": False,
    "features": [
        "navigation.instant",
        "navigation.tracking",
        "navigation.sections",
        "navigation.indexes",
        "navigation.prune",
        "navigation.top",
        "navigation.footer",
        "content.code.copy",
        "toc.follow",
    ],
    "palette": THEME["palette"],
}


@pytest.fixture(scope="session")
def messy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The messy bank (``tests/fixtures/messy_bank.py``) built with the sample site's Material
    features and ``edit_uri`` and served on 127.0.0.1; yields the base URL."""
    tmp = tmp_path_factory.mktemp("messy-site")
    with serving(tmp / "site") as url:
        content = write_messy_bank(tmp / "content")
        config = {
            "markdown_extensions": [{"toc": {"permalink": True}}, "attr_list", "admonition"],
            # as this repository's own mkdocs.yml: edit_uri names the bank's folder
            "edit_uri": "edit/main/content/",
        }
        try:
            build_site(tmp, content, theme=MESSY_THEME, site_url=url, **config)
        except subprocess.CalledProcessError as error:
            pytest.fail(f"mkdocs build failed:\n{error.stdout}\n{error.stderr[-3000:]}")
        yield url


@pytest.fixture
def messy_tab(
    browser: Any, messy: str, page_recorder: Callable[[Any, str], AbstractContextManager[Any]]
) -> Iterator[Any]:
    """A fresh page of the messy bank's site with Playwright's clock installed at the review
    tests' START."""
    with page_recorder(browser, messy) as page:
        page.clock.install(time=START)
        yield page
