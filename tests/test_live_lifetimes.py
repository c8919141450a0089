"""The live path's lifetimes (issue 29): background holds pair up however they nest, no
process is forked while another thread runs, a forked child that fails prints its
traceback, the loading process sends its near-duplicate warnings after the bank, and a cache
shared between threads has one writer."""

from __future__ import annotations

import dataclasses
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from sitebuild import plant_near_duplicates, write_small_bank

from qbank.bank.load import load_bank
from qbank.live import background
from qbank.site.render import BodyCache, RenderOptions, render_site

_FORKS: list[int] = []  # threading.active_count() at each fork while _COUNTING
_COUNTING = threading.Event()


def _before_fork() -> None:
    if _COUNTING.is_set():
        _FORKS.append(threading.active_count())


os.register_at_fork(before=_before_fork)


@pytest.fixture
def forks() -> Iterator[list[int]]:
    """The number of threads running at each fork made meanwhile."""
    _FORKS.clear()
    _COUNTING.set()
    try:
        yield _FORKS
    finally:
        _COUNTING.clear()


@pytest.fixture
def another_thread() -> Iterator[threading.Thread]:
    """A thread running beside the main one (as serve's watchers and writers do)."""
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, name="another", daemon=True)
    thread.start()
    try:
        yield thread
    finally:
        stop.set()
        thread.join(30)


def test_nested_holds_release_only_when_the_outer_one_ends() -> None:
    """A rebuild holds background work, and within it the first build's index work holds
    it again: ending the inner hold must leave the outer one in force."""
    with background.hold():
        with background.hold():
            pass
        assert background.paused(), "the inner release ended the outer hold"
    assert not background.paused()


def test_no_helper_process_is_forked_while_other_threads_run(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    forks: list[int],
    another_thread: threading.Thread,
) -> None:
    """A serve rebuild that checks many files runs beside serve's threads: forking then
    copies their locks in whatever state they are (a child may wait forever on one)."""
    content = write_small_bank(tmp_path / "content")
    monkeypatch.setattr("qbank.bank.parallel.PARALLEL_FROM", 2)
    monkeypatch.setattr("qbank.bank.parallel.spare_core", lambda cores: True)
    monkeypatch.setattr("qbank.bank.parallel.CHUNK", 3)
    bank = load_bank(content)
    assert len(bank.entries) == 8
    assert all(count == 1 for count in forks), f"forked beside {forks} threads"


def test_no_locale_process_is_forked_while_other_threads_run(
    tmp_path: Path, forks: list[int], another_thread: threading.Thread
) -> None:
    from qbank.plugin.locales import LocaleBuilds

    bank = load_bank(write_small_bank(tmp_path / "content"))
    config = MkDocsConfig()
    config["site_dir"] = str(tmp_path / "site")
    builds = LocaleBuilds()
    builds.start(config, bank, lambda locale, folder: None, None)
    try:
        assert all(count == 1 for count in forks), f"forked beside {forks} threads"
        assert not builds.running  # every locale is built in this process (``collect``)
    finally:
        builds.stop()


def test_a_failed_locale_process_prints_its_traceback(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """The locale process reports by its exit status: what went wrong must be on stderr."""
    from qbank.plugin.locales import LocaleBuilds

    bank = load_bank(write_small_bank(tmp_path / "content"))
    config = MkDocsConfig()
    config["site_dir"] = str(tmp_path / "site")

    def build(locale: str, folder: Path) -> None:
        raise RuntimeError(f"boom in {locale}")

    builds = LocaleBuilds()
    builds.start(config, bank, build, None)
    if not builds.running:
        pytest.skip("no fork on this machine (one core, or no os.fork)")
    failed = builds.collect(tmp_path / "site", ["tr", "zh"], {}, build, lambda locale: False)
    assert failed == ["tr", "zh"]
    err = capfd.readouterr().err
    assert "Traceback (most recent call last)" in err
    assert "RuntimeError: boom in tr" in err


def test_a_failed_load_in_its_process_prints_its_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """``mkdocs build`` loads the bank in a forked child: when it fails with anything but
    the bank's problems (a bug, no memory), its traceback is on stderr and the parent's
    error points at it."""
    from qbank.plugin import loading

    if not hasattr(os, "fork"):
        pytest.skip("no os.fork")
    content = write_small_bank(tmp_path / "content")

    def broken(root: Path, *_: object, **__: object) -> None:
        raise RuntimeError("boom in the load")

    monkeypatch.setattr(loading, "load_bank", broken)
    with pytest.raises(PluginError) as raised:
        loading.load_compact(content)
    err = capfd.readouterr().err
    assert "Traceback (most recent call last)" in err
    assert "RuntimeError: boom in the load" in err
    assert "traceback" in str(raised.value)


@pytest.mark.parametrize("idle", [False, True], ids=["compared-first", "compared-after"])
def test_the_loading_process_sends_the_near_duplicate_warnings_after_the_bank(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, idle: bool
) -> None:
    """The loading process of ``mkdocs build`` sends the bank, then the near-duplicate
    warnings: compared before the bank is sent on 2 cores, after it where a core would be
    idle (``idle_core``). Either way they are the warnings of a load in one process."""
    from qbank.plugin import loading

    if not hasattr(os, "fork"):
        pytest.skip("no os.fork")
    content = write_small_bank(tmp_path / "content")
    plant_near_duplicates(content)
    monkeypatch.setattr(loading, "idle_core", lambda locales: idle)
    expected = [p for p in load_bank(content).warnings if "nearly the same" in p.message]
    assert expected, "the bank has no near-duplicate warning to send"
    bank, loaded = loading.load_compact(content)
    assert loaded.pid is not None, "the bank was not loaded in its own process"
    assert not [p for p in bank.warnings if "nearly the same" in p.message]
    assert loaded.warnings() == expected
    assert loaded.pid is None  # (the process has ended)
    assert loaded.warnings() == []


def test_a_body_cache_is_written_only_by_the_thread_that_renders(tmp_path: Path) -> None:
    """Serve's background writer makes the bank.json files from the kept bodies: what it
    makes is handed to the rendering thread, never written into the cache meanwhile."""
    bank = load_bank(write_small_bank(tmp_path / "content"))
    cache = BodyCache()
    options = dataclasses.replace(RenderOptions(), defer_files=True, bank_json=True)
    site = render_site(bank, options, cache)
    bodies, topics = dict(cache.bodies), dict(cache.topics)

    def write_data_files() -> None:
        for locale in bank.catalog.locales:
            for _path, chunks in site.deferred[locale](fields=None, api=True):
                b"".join(chunks)

    writer = threading.Thread(target=write_data_files)
    writer.start()
    writer.join(60)
    assert cache.bodies == bodies, "the background writer wrote into the body cache"
    assert cache.topics == topics, "the background writer wrote into the match counts"
    handed = dict(cache.handed_bodies)
    assert handed, "the background writer handed nothing over"
    render_site(bank, options, cache)  # the thread that renders takes them in
    assert handed.items() <= cache.bodies.items()
    assert not cache.handed_bodies
