"""Background work under ``mkdocs serve`` waits while a rebuild runs (``qbank.background``)."""

from __future__ import annotations

import threading

from qbank import background


def test_paced_work_waits_while_paused_and_goes_on_after() -> None:
    taken: list[int] = []
    background.pause()
    try:
        worker = threading.Thread(target=lambda: taken.extend(background.paced(range(200), 64)))
        worker.start()
        worker.join(timeout=0.3)
        assert worker.is_alive(), "paced work ran while paused"
        assert taken == []
        assert background.paused()
    finally:
        background.resume()
    worker.join(timeout=30)
    assert not worker.is_alive()
    assert taken == list(range(200))
    assert not background.paused()


def test_a_delayed_resume_gives_way_to_a_newer_pause() -> None:
    background.pause()
    background.resume(after=0.05)
    background.pause()  # a newer rebuild: the earlier resume must not end its pause
    gone_by = threading.Event()
    threading.Timer(0.3, gone_by.set).start()
    gone_by.wait(30)
    assert background.paused()
    background.resume(after=0.05)
    for _ in range(600):
        if not background.paused():
            break
        gone_by.clear()
        gone_by.wait(0.05)
    assert not background.paused()


def test_the_main_thread_is_never_held() -> None:
    """MkDocs builds in the main thread (the first search index too): it must not wait for
    its own rebuild to end."""
    background.pause()
    try:
        assert list(background.paced(range(300), 8)) == list(range(300))
    finally:
        background.resume()
