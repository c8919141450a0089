"""A built site checked against its bank: every question once, intact, and nothing missing.

``verify_site`` streams every HTML page of a built site (selectolax, one page in memory at a
time) and reports, as ``SiteProblem`` values:

- a (question, locale) of the bank that is not on the site (``div.qb-q``, DESIGN.md), or is
  there more than once; and a
  question file of the content folder that is not in the bank (each locale of its prompt);
- a question whose options (keys and count) or answer key (``data-answer``) differ from the
  bank, or that the bank does not have;
- a question's edit link that does not open its file in the repository (the bank's folder
  relative to the repository root, then the file: ``<repo_url>/edit/<branch>/content/…``),
  and a source link that is not an http(s) URL;
- a local ``href``/``src`` (pages) or ``url()`` (stylesheets) that resolves to no file, and a
  link whose ``#anchor`` is not an id of the page it points at;
- a script, stylesheet, font or other sub-resource loaded from another host;
- the service worker's list of files and the field manifests against the site
  (``offline.offline_problems``).

Core module: no MkDocs import; usable on any folder of HTML.
"""

from __future__ import annotations

import os
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from selectolax.lexbor import LexborHTMLParser, LexborNode

from qbank.bank.listing import question_files
from qbank.bank.loaded import Bank, Entry
from qbank.bank.yamlfile import read_document
from qbank.site.offline import offline_problems
from qbank.site.theme import module_imports

# <link rel=…> values that make the browser fetch the target (canonical, alternate, … do not).
_FETCHING_RELS = frozenset(
    {"stylesheet", "preload", "modulepreload", "prefetch", "icon", "shortcut", "manifest"}
)
_CSS_URL = re.compile(r"""url\(\s*(['"]?)([^'")]+)\1\s*\)|@import\s+(['"])([^'"]+)\3""")


@dataclass(frozen=True, order=True)
class SiteProblem:
    """One thing wrong with a built site: on which page, about which question, and what."""

    page: str  # relative to the site folder, e.g. "en/ml-engineer/optimization/index.html"
    message: str
    question: str = ""  # the question's id, when the problem is about one
    file: str = ""  # the question's file in the bank

    def format_text(self) -> str:
        """``page: message (question ID, file FILE)``."""
        about = ""
        if self.question:
            about = f" (question {self.question}" + (f", {self.file}" if self.file else "") + ")"
        return f"{self.page}: {self.message}{about}"


class _Verifier:
    def __init__(self, site: Path, bank: Bank, content_label: str, content_path: str) -> None:
        self.site = site
        self.bank = bank
        self.content_label = content_label.rstrip("/")
        self.content_path = content_path.strip("/")
        self.repo_url = ""  # the page's repository link (Material's header), "" without one
        self.locales = set(bank.catalog.locales)
        self.problems: list[SiteProblem] = []
        self.seen: dict[str, dict[str, list[str]]] = {}  # id → locale → pages
        self.ids: dict[str, set[str]] = {}  # page → ids, for pages that links point into
        self.anchor_links: list[tuple[str, str, str]] = []  # (page, target page, fragment)
        self.modules: dict[str, str] = {}  # module file → the first page that loads it
        self.base_path, self.site_url = _site_base(site)

    # -- helpers ---------------------------------------------------------------------------

    def file_of(self, entry: Entry) -> str:
        return f"{self.content_label}/{entry.file}" if self.content_label else entry.file

    def add(self, page: str, message: str, entry: Entry | None = None, qid: str = "") -> None:
        self.problems.append(
            SiteProblem(
                page, message, entry.id if entry else qid, self.file_of(entry) if entry else ""
            )
        )

    def resolve(self, page: str, url: str) -> tuple[str | None, str]:
        """The site-relative file a URL on ``page`` points at (None: not local) and its fragment."""
        url = url.strip()
        if not url or url.startswith(("mailto:", "tel:", "javascript:", "data:", "#")):
            fragment = url[1:] if url.startswith("#") else ""
            return (page if url.startswith("#") else None), fragment
        if self.site_url and url.startswith(self.site_url):
            url = "/" + url[len(self.site_url) :]
        parts = urlsplit(url)
        if parts.scheme or parts.netloc:
            return None, ""
        path = unquote(parts.path)
        if path.startswith("/"):
            if not path.startswith(self.base_path):
                return path.lstrip("/") or "index.html", parts.fragment
            joined = path[len(self.base_path) :]
        else:
            joined = posixpath.join(posixpath.dirname(page), path)
        target = posixpath.normpath(joined) if joined else "."
        if path.endswith("/") or target == ".":
            target = posixpath.join(target, "index.html") if target != "." else "index.html"
        return target.lstrip("/"), parts.fragment

    def exists(self, target: str) -> bool:
        if target.startswith("../"):
            return False
        candidate = self.site / target
        if candidate.is_dir():
            return (candidate / "index.html").is_file()
        return candidate.is_file()

    # -- pages -------------------------------------------------------------------------------

    def page(self, path: Path) -> None:
        page = path.relative_to(self.site).as_posix()
        tree = LexborHTMLParser(path.read_bytes())
        locale = page.split("/", 1)[0] if "/" in page else ""
        if locale not in self.locales:
            html = tree.css_first("html")
            lang = (html.attributes.get("lang") or "") if html else ""
            locale = lang if lang in self.locales else ""
        repository = tree.css_first("a.md-source")
        self.repo_url = (repository.attributes.get("href") or "") if repository else ""
        self.questions(tree, page, locale)
        self.references(tree, page)
        ids = {node.attributes.get("id") or "" for node in tree.css("[id]")}
        ids |= {node.attributes.get("name") or "" for node in tree.css("a[name]")}
        self.ids[page] = ids

    def questions(self, tree: LexborHTMLParser, page: str, locale: str) -> None:
        for node in tree.css("div.qb-q"):
            qid = node.attributes.get("data-qid") or ""
            entry = self.bank.by_id.get(qid)
            if entry is None:
                self.add(page, "a question that is not in the bank", qid=qid or "(no data-qid)")
                continue
            self.seen.setdefault(qid, {}).setdefault(locale, []).append(page)
            self.compare(node, page, locale, entry)

    def compare(self, node: LexborNode, page: str, locale: str, entry: Entry) -> None:
        q = entry.question
        if locale and locale not in entry.locales:
            self.add(page, f"shown in {locale}, a locale the question does not have", entry)
        expected_keys = list(q.options or {})
        keys = [li.attributes.get("data-key") or "" for li in node.css("li.qb-option")]
        if keys != expected_keys:
            self.add(
                page,
                f"options {' '.join(keys) or '(none)'} differ from the bank's "
                f"{' '.join(expected_keys) or '(none)'}",
                entry,
            )
        answer = sorted((node.attributes.get("data-answer") or "").split())
        expected = sorted(q.answer or [])
        if answer != expected:
            self.add(
                page,
                f"answer key {' '.join(answer) or '(none)'} differs from the bank's "
                f"{' '.join(expected) or '(none)'}",
                entry,
            )
        for link in node.css("a.qb-edit"):
            problem = self.edit_problem(link.attributes.get("href") or "", entry)
            if problem:
                self.add(page, problem, entry)
        for link in node.css(".qb-source a"):
            href = link.attributes.get("href") or ""
            if not _is_web_url(href):
                self.add(page, f"source link {href!r} is not an http(s) URL", entry)

    def edit_problem(self, href: str, entry: Entry) -> str | None:
        """Why a question's edit link would not open its file, or None when it does: after
        the repository's URL come the action and the branch (``edit/main``; GitLab's
        ``-/edit/main``), then the file's path in the repository."""
        file = "/".join(part for part in (self.content_path, entry.file) if part)
        repo = self.repo_url.rstrip("/") + "/" if self.repo_url else ""
        expected = f"{repo or '<repo_url>/'}edit/<branch>/{file}"
        if not _is_web_url(href):
            return f"edit link {href!r} is not an http(s) URL; expected {expected}"
        if repo and not href.startswith(repo):
            return f"edit link {href!r} is not into the repository {repo}; expected {expected}"
        if not repo:
            return (
                None
                if unquote(urlsplit(href).path).endswith("/" + file)
                else (
                    f"edit link {href!r} does not open the question's file {file}; "
                    f"expected {expected}"
                )
            )
        rest = unquote(urlsplit(href[len(repo) :]).path).split("/")
        action = 3 if rest[:1] == ["-"] else 2
        if "/".join(rest[action:]) != file:
            return (
                f"edit link {href!r} does not open the question's file {file}; expected {expected}"
            )
        return None

    def references(self, tree: LexborHTMLParser, page: str) -> None:
        for node in tree.css("script[src], img[src], iframe[src], source[src], audio, video"):
            self.resource(page, node.attributes.get("src") or "", node.tag or "")
            if node.tag == "script" and node.attributes.get("type") == "module":
                self.module(page, node.attributes.get("src") or "")
        for node in tree.css("link[href]"):
            rel = set((node.attributes.get("rel") or "").lower().split())
            if rel & _FETCHING_RELS:
                self.resource(page, node.attributes.get("href") or "", f"link rel={' '.join(rel)}")
            if "modulepreload" in rel:
                self.module(page, node.attributes.get("href") or "")
        for node in tree.css("style"):
            self.css_urls(page, node.text(), page)
        for node in tree.css("[style]"):
            self.css_urls(page, node.attributes.get("style") or "", page)
        for node in tree.css("a[href]"):
            href = node.attributes.get("href") or ""
            target, fragment = self.resolve(page, href)
            if target is None:
                continue
            if not self.exists(target):
                self.add(page, f"link {href!r} points at no file of the site")
            elif fragment and target.endswith(".html"):
                self.anchor_links.append((page, target, unquote(fragment)))

    def resource(self, page: str, url: str, what: str) -> None:
        if not url:
            return
        target, _ = self.resolve(page, url)
        if target is None:
            if not url.startswith("data:"):
                self.add(page, f"{what} loads {url!r} from another host")
            return
        if not self.exists(target):
            self.add(page, f"{what} {url!r} is missing from the site")

    def module(self, page: str, url: str) -> None:
        target, _ = self.resolve(page, url)
        if target is not None and self.exists(target):
            self.modules.setdefault(target, page)

    def module_graph(self) -> None:
        """Every module a page loads imports only files of the site (statically or with
        ``import()`` of a literal path), however deep."""
        pending = list(self.modules)
        while pending:
            path = pending.pop()
            static, dynamic = module_imports((self.site / path).read_text("utf-8", "replace"))
            for spec in (*static, *dynamic):
                target, _ = self.resolve(path, spec)
                if target is None or not self.exists(target):
                    self.add(self.modules[path], f"module {path} imports {spec!r}: not in the site")
                elif target not in self.modules:
                    self.modules[target] = self.modules[path]
                    pending.append(target)

    def css_urls(self, page: str, text: str, base: str) -> None:
        for match in _CSS_URL.finditer(text):
            url = (match.group(2) or match.group(4) or "").strip()
            if not url or url.startswith(("data:", "#")):
                continue
            target, _ = self.resolve(base, url)
            if target is None:
                self.add(page, f"stylesheet loads {url!r} from another host")
            elif not self.exists(target.split("?")[0]):
                self.add(page, f"stylesheet asset {url!r} is missing from the site")

    # -- whole site --------------------------------------------------------------------------

    def run(self) -> list[SiteProblem]:
        for path in sorted(self.site.rglob("*.html")):
            self.page(path)
        for path in sorted(self.site.rglob("*.css")):
            relative = path.relative_to(self.site).as_posix()
            self.css_urls(relative, path.read_text(encoding="utf-8", errors="replace"), relative)
        self.module_graph()
        for page, target, fragment in self.anchor_links:
            ids = self.ids.get(target)
            if ids is not None and fragment not in ids:
                self.add(page, f"link to {target}#{fragment}: no such anchor on that page")
        self.coverage()
        for page, message in offline_problems(self.site):
            self.add(page, f"offline: {message}")
        return sorted(set(self.problems))

    def coverage(self) -> None:
        self.files_in_bank()
        for entry in self.bank.entries:
            by_locale = self.seen.get(entry.id, {})
            for locale in entry.locales:
                pages = by_locale.get(locale, [])
                home = f"{locale}/{entry.field}/{entry.topic}/index.html"
                if not pages:
                    self.add(home, f"missing: the question is not on the site in {locale}", entry)
                elif len(pages) > 1:
                    self.add(
                        pages[1],
                        f"duplicate: shown {len(pages)} times as a canonical question in "
                        f"{locale} ({', '.join(sorted(set(pages)))})",
                        entry,
                    )

    def files_in_bank(self) -> None:
        """Every question file of the content folder is a question of the bank: a file the
        load left out (whatever the reason) is missing from the site in each locale its
        prompt has, and said so (PRODUCT.md: a question is never silently dropped)."""
        in_bank = {entry.file for entry in self.bank.entries}
        files, _listing = question_files(self.bank.root, self.bank.catalog, [])
        for path, _shown, field_key, topic_key in files:
            file = f"{field_key}/{topic_key}/{os.path.basename(path)}"  # noqa: PTH119
            if file in in_bank:
                continue
            shown = f"{self.content_label}/{file}" if self.content_label else file
            for locale in _prompt_locales(path, self.bank.catalog.default_locale):
                self.problems.append(
                    SiteProblem(
                        f"{locale}/{field_key}/{topic_key}/index.html",
                        f"missing: the question file is not in the bank, so not on the site"
                        f" in {locale}",
                        file=shown,
                    )
                )


def _is_web_url(url: str) -> bool:
    """An absolute http(s) URL with a host and no space in it."""
    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and bool(parts.netloc) and not re.search(r"\s", url)


def _prompt_locales(path: str, default_locale: str) -> list[str]:
    """The locales a question file's prompt is written in, as far as it can be read."""
    doc = read_document(path, path)
    prompt = doc.data.get("prompt") if isinstance(doc.data, dict) else None
    if isinstance(prompt, dict):
        return sorted(str(key) for key in prompt)
    return [default_locale]


def _site_base(site: Path) -> tuple[str, str]:
    """The site's URL path and full URL, from a page's canonical link (``/`` and "" if none).

    MkDocs writes root-relative URLs (``/bank/assets/…``) on its 404 page; they resolve
    under the path of ``site_url``, which a canonical link gives away.
    """
    for path in sorted(site.rglob("index.html"))[:50]:
        node = LexborHTMLParser(path.read_bytes()).css_first("link[rel=canonical]")
        canonical = (node.attributes.get("href") or "") if node else ""
        folder = path.parent.relative_to(site).as_posix()
        suffix = "" if folder == "." else folder + "/"
        if canonical.endswith("/" + suffix) or (not suffix and canonical.endswith("/")):
            url = canonical[: len(canonical) - len(suffix)]
            return urlsplit(url).path or "/", url
    return "/", ""


def verify_site(
    site: Path, bank: Bank, content_label: str = "", content_path: str | None = None
) -> list[SiteProblem]:
    """Every problem of the built ``site`` measured against ``bank`` (empty: the site is sound).

    ``content_label`` prefixes question files in messages (e.g. ``content``);
    ``content_path`` is the bank's folder relative to the repository root, which edit links
    name before the file (default: the folder's name, a bank beside mkdocs.yml).
    """
    path = bank.root.resolve().name if content_path is None else content_path
    return _Verifier(site, bank, content_label, path).run()
