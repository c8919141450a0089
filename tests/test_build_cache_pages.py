"""The page cache: a warm build takes unchanged pages from the cache or links them from the
site the last build published, ``mkdocs serve``'s first build included."""

from __future__ import annotations

import hashlib
import os
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from sitebuild import QUESTIONS, write_small_bank
from support.cachebuild import (
    CACHE,
    MARKDOWN_KEPT,
    add,
    build,
    checked_files,
    digests,
    entries,
    kept_and_rendered,
    own_page,
    questions,
    same_sites,
    topics,
    translate,
)

from qbank.live import store
from qbank.live.sitelinks import SiteDigests
from qbank.live.store import Store
from qbank.site.offline import offline_problems


def test_unchanged_pages_come_from_the_page_cache(tmp_path: Path) -> None:
    content = write_small_bank(tmp_path / "content")
    project = tmp_path / "project"
    kept, rendered = kept_and_rendered(build(project, content))
    assert kept == 0
    assert rendered == len(entries(project, "pages")) > 20
    log = build(project, content)
    assert kept_and_rendered(log) == (rendered, 0)
    # and every page's converted Markdown
    markdown_kept = re.findall(MARKDOWN_KEPT, log)
    assert sum(map(int, markdown_kept)) == rendered == len(entries(project, "markdown"))
    source = content / "backend/indexing/covering-index.yaml"
    data = yaml.safe_load(source.read_text("utf-8"))
    data["prompt"]["en"] += " Changed."
    source.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    kept, again = kept_and_rendered(build(project, content))
    # the topic's English page and the pages listing the question (its seniority's, its
    # field's...) rendered; every other page taken from the cache
    assert kept + again == rendered
    assert 1 <= again < rendered // 3
    # a page added to the site changes every menu, but no page's Markdown: each conversion
    # is kept with the files its links found, and none of those changed
    own_page((project,), 1)
    log = build(project, content)
    markdown_kept = re.findall(MARKDOWN_KEPT, log)
    assert sum(map(int, markdown_kept)) == rendered
    # a question added to a topic (one a page: a page added) renumbers the runs of
    # questions of the pages after it, and no more: only pages whose HTML changes have
    # their Markdown converted again
    one_a_page = {"qbank": {"page_size": 1}}
    build(project, content, **one_a_page)
    for folder in ("backend/indexing", "ml-engineer/throughput"):
        added = yaml.safe_load(source.read_text("utf-8"))
        added["id"] = f"01a05d13-8d21-739a-baa2-7dab67be49{len(folder):02d}"
        added["prompt"] = {loc: f"Added: {text}" for loc, text in added["prompt"].items()}
        (content / folder / "added.yaml").write_text(
            yaml.safe_dump(added, allow_unicode=True, sort_keys=False), "utf-8"
        )
        log = build(project, content, **one_a_page)
        kept, again = kept_and_rendered(log)
        markdown_kept = re.findall(MARKDOWN_KEPT, log)
        converted = kept + again - sum(map(int, markdown_kept))
        assert 1 <= converted <= again < (kept + again) // 2, log
    # a plugin qbank does not know of turns the page cache off, and says so
    hook = project / "hook.py"
    hook.write_text("def on_post_page(output, page, config):\n    return output\n")
    log = build(project, content, hooks=["hook.py"])
    assert log.count("page cache is off: the plugin(s) hook.py may change a page's HTML") == 1
    assert "from the page cache" not in log
    # an extension that can read other files than the page turns that off, and says so
    log = build(project, content, markdown_extensions=["pymdownx.snippets"])
    assert "converted Markdown is not kept: the extension(s) pymdownx.snippets may" in log
    assert "Markdown of" not in log


def test_a_warm_build_links_the_pages_the_last_one_published(tmp_path: Path) -> None:
    """A page the page cache keeps, which the published site still holds as the last build
    wrote it, is a hard link to that file in the new site (not written again); a page
    edited in the site since is written again, and so is every page when the site is gone.
    The site is a cold build's either way."""
    content = write_small_bank(tmp_path / "content")
    warm, cold = tmp_path / "warm", tmp_path / "cold"
    build(warm, content)
    site = warm / "site"
    before = {p: p.stat().st_ino for p in site.rglob("*.html")}
    edited = site / "en" / "backend" / "indexing" / "index.html"
    with edited.open("a", encoding="utf-8") as page:  # (in place: the same file)
        page.write("<!-- edited in the site -->")
    assert edited.stat().st_ino == before[edited]
    log = build(warm, content)
    kept, rendered = kept_and_rendered(log)
    linked = sum(map(int, re.findall(r"\((\d+) linked from the last site", log)))
    assert rendered == 0
    assert linked == kept - 1 > 20
    assert "Page skipped" not in log  # (MkDocs' note on a page it did not write)
    after = {p: p.stat().st_ino for p in site.rglob("*.html")}
    same = {p for p, inode in after.items() if before.get(p) == inode}
    assert len(same) == linked
    assert edited not in same
    assert "edited in the site" not in edited.read_text("utf-8")
    # the offline files' digests of the site's files are kept by inode, time and size (a
    # linked page's is not made again), and each is its file's
    digests = SiteDigests(Store(warm / CACHE), site.resolve()).before
    assert {site / path for path in digests} >= same
    for path, (inode, _time, size, digest) in digests.items():
        data = (site / path).read_bytes()
        assert (inode, size) == ((site / path).stat().st_ino, len(data))
        assert digest == hashlib.sha256(data).hexdigest()[:16]
    build(cold, content, qbank={"cache": False})
    same_sites(warm, cold)
    shutil.rmtree(site)
    log = build(warm, content)
    assert "linked from the last site" not in log
    assert kept_and_rendered(log) == (kept, 0)
    same_sites(warm, cold)


def test_a_warm_build_links_the_index_files_that_stayed_the_same(tmp_path: Path) -> None:
    """A search index file whose bytes did not change (or a field's share of the index, for
    the offline copy), which the published site still holds as the last build wrote it, is
    a hard link to that file in the new site; a changed one, or one edited in the site
    since, is written. A field's share whose questions did not change is not even cut
    again, unless the site's copy was edited. The offline copy's digests of them are the
    files' (kept as they are written, none read again), and the site is a cold build's."""
    content = write_small_bank(tmp_path / "content")
    warm, cold = tmp_path / "warm", tmp_path / "cold"
    build(warm, content)
    site = warm / "site"
    index = site / "en" / "api" / "search"
    before = {p: (p.stat().st_ino, p.read_bytes()) for p in index.rglob("*.json")}
    assert len(before) > 10
    shares = {p: p.stat().st_ino for p in (site / "zh" / "api" / "offline").glob("*.terms.json")}
    assert len(shares) > 1  # (the Chinese fields' shares of the index: no Chinese text changes)
    spoilt = sorted(shares)[0]  # (edited in the site: cut again)
    with spoilt.open("ab") as file:
        file.write(b" ")
    del shares[spoilt]
    edited = index / "f.json"  # (the filters: this pull request does not change them)
    with edited.open("ab") as file:  # (in place: the same file)
        file.write(b" ")
    translate(content, random.Random(3), 1)  # (a Turkish prompt: the English index stays)
    source = next(p for p in questions(content) if "bits.png" not in p.read_text("utf-8"))
    data = yaml.safe_load(source.read_text("utf-8"))
    data["prompt"]["en"] += " Zanzibar quokka."  # (two words no other question has)
    source.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    log = build(warm, content)
    kept = {
        locale: (int(taken), int(total))
        for locale, taken, total in re.findall(
            r"(\w+): search index written.*, (\d+) of (\d+) fields' offline shares kept", log
        )
    }
    fields = len(shares) + 1
    assert kept["zh"] == (fields - 1, fields), log
    # (the English index files new words otherwise, the Turkish one a new question: each
    # of their shares cut again)
    assert kept["en"] == kept["tr"] == (0, fields), log
    assert not spoilt.read_bytes().endswith(b" ")  # (cut again, and written)
    after = {p: (p.stat().st_ino, p.read_bytes()) for p in index.rglob("*.json")}
    linked = {p for p in after if p in before and after[p][0] == before[p][0]}
    same = {p for p in after if p in before and after[p][1] == before[p][1] and p != edited}
    assert linked == same
    assert len(same) > len(after) // 2
    assert any(b"quokka" in data for _, data in after.values())
    assert not any(b"quokka" in before[p][1] for p in before)
    assert after[edited][1] == before[edited][1]  # (written again: the site's edit is gone)
    assert after[edited][0] != before[edited][0]
    assert {p: p.stat().st_ino for p in shares} == shares  # (linked too)
    assert list(offline_problems(site)) == []
    digests_now = SiteDigests(Store(warm / CACHE), site.resolve()).before
    for path in after:
        inode, _time, size, digest = digests_now[path.relative_to(site).as_posix()]
        assert (inode, size) == (path.stat().st_ino, path.stat().st_size)
        assert digest == hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    build(cold, content, qbank={"cache": False})
    same_sites(warm, cold)


def mkdocs_build(project: Path) -> str:
    """``mkdocs build`` of ``project`` as it is configured; its log."""
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build"],
        cwd=project,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stderr


def serve_first_build(
    project: Path, run: str, port: int, find: str = "\0"
) -> tuple[str, dict[str, str]]:
    """Start ``mkdocs serve`` in ``project`` on ``port`` (part of the pages' canonical
    addresses), wait for its first build; its log and the digests of the HTML pages it
    served (with ``find``, of those that hold it), then stop it."""
    from support.serving import Served

    temporary = project / f"tmp-{run}"
    temporary.mkdir()
    log = project / f"serve-{run}.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"],
            cwd=project,
            env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "TMPDIR": str(temporary)},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    running = Served(port, project / "content", temporary.parent, log, server)
    try:
        running.wait_builds(1)
        (site,) = temporary.glob("mkdocs_*")
        pages = {k: v for k, v in digests(site).items() if k.endswith(".html")}
        if find != "\0":
            pages = {k: v for k, v in pages.items() if find in (site / k).read_text("utf-8")}
    finally:
        server.terminate()
        server.wait(30)
    return running.text(), pages


STALE_KINDS = ("served-pages", "pages", "checked")


@pytest.mark.slow  # (a running ``mkdocs serve``)
def test_serve_first_build_takes_pages_from_the_cache(tmp_path: Path) -> None:
    from sitebuild import write_serve_config
    from support.serving import free_port

    write_small_bank(tmp_path / "content")
    write_serve_config(tmp_path)
    port = free_port()
    content = tmp_path / "content"
    log, first = serve_first_build(tmp_path, "first", port)
    kept, rendered = kept_and_rendered(log)
    assert (kept, rendered) == (0, len(entries(tmp_path, "served-pages")))
    assert not entries(tmp_path, "pages")  # (serve's pages are its own kind)
    # the first build kept its checked files and question HTML too, as mkdocs build does
    checked = set(entries(tmp_path, "checked"))
    assert len(checked_files(tmp_path)) == len(QUESTIONS) - 1
    assert len(entries(tmp_path, "markup")) == len(topics(content))
    log, warm = serve_first_build(tmp_path, "warm", port)
    assert kept_and_rendered(log) == (rendered, 0)
    assert set(entries(tmp_path, "checked")) == checked  # (each used, none made again)
    # a build between two serves keeps serve's pages (and the next build its own)
    served = set(entries(tmp_path, "served-pages"))
    assert kept_and_rendered(mkdocs_build(tmp_path)) == (0, rendered)
    assert set(entries(tmp_path, "served-pages")) == served
    stale = {kind: tmp_path / CACHE / kind / "zz" / "zz-stale.json" for kind in STALE_KINDS}
    for path in stale.values():  # (entries no build uses: serve prunes its own pages only)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}")
        os.utime(path, (time.time() - 60, time.time() - 60))
    log, _ = serve_first_build(tmp_path, "after-build", port)
    assert kept_and_rendered(log) == (rendered, 0)
    assert [kind for kind, path in stale.items() if path.exists()] == ["pages", "checked"]
    assert kept_and_rendered(mkdocs_build(tmp_path)) == (rendered, 0)
    assert [kind for kind, path in stale.items() if path.exists()] == []
    # what the first build takes from the cache is what it shows: a topic's question HTML
    markup = entries(tmp_path, "markup")[0]
    kept = store._parse(markup.read_bytes(), "markup", markup.stem)[0]
    planted = [
        [digest, [f"<p>kept-{n}-{k}-from-the-cache</p>" for k in range(len(html))]]
        for n, (digest, html) in enumerate(kept)
    ]
    Store(tmp_path / CACHE).put("markup", markup.stem, planted)
    # (the page cache keys a page by its questions' inputs, not their HTML: without its
    # entries every page is rendered, from the planted HTML)
    shutil.rmtree(tmp_path / CACHE / "served-pages")
    _log, shown = serve_first_build(tmp_path, "planted", port, find="-from-the-cache</p>")
    assert shown
    markup.unlink()
    config = yaml.safe_load((tmp_path / "mkdocs.yml").read_text("utf-8"))
    config["plugins"][0]["qbank"]["cache"] = False
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config), "utf-8")
    log, cold = serve_first_build(tmp_path, "cold", port)
    assert "page cache" not in log
    assert len(cold) > 20
    assert warm == cold == first


def unread(log: str) -> dict[str, tuple[int, int]]:
    """Per locale: the pages a build left out of MkDocs' page build whole, of all it wrote."""
    found = re.findall(
        r"(\w+): pages built, \d+ of (\d+) from the page cache"
        r"(?: \(\d+ linked from the last site(?:, (\d+) unread)?\))?",
        log,
    )
    return {locale: (int(n or 0), int(total)) for locale, total, n in found}


def test_a_warm_build_leaves_out_whole_the_pages_made_of_what_they_were(tmp_path: Path) -> None:
    """A page made of what the last build made it of, whose file the published site still
    holds, is linked and never read (``plugin/pageskip.py``); its site is a cold build's."""
    content = write_small_bank(tmp_path / "content")
    warm, cold = tmp_path / "warm", tmp_path / "cold"
    assert all(n == 0 for n, _ in unread(build(warm, content)).values())
    # nothing changed: every page but each build's first (always read) left out
    counts = unread(build(warm, content))
    assert set(counts) == {"en", "tr", "zh"}
    assert all(n == total - 1 for n, total in counts.values()), counts
    # a Turkish prompt: the pages showing the question read again (in every locale its
    # file's bytes are its HTML's inputs; in Turkish the pages listing its title too)
    translate(content, random.Random(3), 1)
    counts = unread(build(warm, content))
    assert counts["en"][0] == counts["en"][1] - 2, counts
    assert 0 < counts["tr"][0] < counts["tr"][1] - 2, counts
    build(cold, content, qbank={"cache": False})
    same_sites(warm, cold)  # (sitemap.xml and its .gz too: they list the pages left out)
    # a page of one's own changes every menu: none left out, and the site is still a cold
    # build's
    own_page((warm, cold), 1)
    assert all(n == 0 for n, _ in unread(build(warm, content)).values())
    build(cold, content, qbank={"cache": False})
    same_sites(warm, cold)
    # a question added: the pages that count or show it read again, the others left out
    # (a field's page names itself by its front matter, whatever its counts), and a page
    # edited in the published site is written again, not linked
    add(content, random.Random(5), 99)
    edited = warm / "site" / "en" / "ml-engineer" / "numerics" / "index.html"
    edited.write_text(edited.read_text("utf-8") + "<!-- edited -->", "utf-8")
    counts = unread(build(warm, content))
    assert all(0 < n < total - 2 for n, total in counts.values()), counts
    build(cold, content, qbank={"cache": False})
    same_sites(warm, cold)
    # a question added where a topic shows one a page: a page added to the site, which
    # only its topic's pages (and those listing its questions) link to
    one_a_page = {"qbank": {"page_size": 1}}
    build(warm, content, **one_a_page)
    add(content, random.Random(6), 98)
    counts = unread(build(warm, content, **one_a_page))
    assert all(0 < n < total - 2 for n, total in counts.values()), counts
    build(cold, content, qbank={"cache": False, "page_size": 1})
    same_sites(warm, cold)
