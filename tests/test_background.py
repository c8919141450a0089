"""Background work under ``mkdocs serve`` waits while a rebuild runs (``qbank.live.background``)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

from qbank.live import background


def test_paced_work_waits_while_paused_and_goes_on_after() -> None:
    taken: list[int] = []
    pulled = [threading.Event(), threading.Event()]  # items 0 and 1 taken from the source

    def source() -> Iterator[int]:
        for n in range(200):
            if n < 2:
                pulled[n].set()
            yield n

    held = background.hold()
    try:
        worker = threading.Thread(target=lambda: taken.extend(background.paced(source(), 64)))
        worker.start()
        # The worker has reached paced (it takes item 0, then waits before handing it on);
        # a generous bound: a busy machine may start the thread late.
        assert pulled[0].wait(30), "the worker never started"
        # While paused, item 0 is never handed on, so item 1 is never asked for.
        assert not pulled[1].wait(0.5), "paced work ran while paused"
        assert worker.is_alive()
        assert taken == []
        assert background.paused()
    finally:
        held.release()
    worker.join(timeout=30)
    assert not worker.is_alive()
    assert taken == list(range(200))
    assert not background.paused()


def test_a_delayed_release_leaves_a_newer_hold_in_force() -> None:
    first = background.hold()
    before = set(threading.enumerate())
    first.release(after=0.05)
    (timer,) = [t for t in threading.enumerate() if t not in before]
    second = background.hold()  # a newer rebuild: the earlier release must not end its hold
    timer.join(30)  # the earlier release has run (however slow the machine)
    assert not timer.is_alive()
    assert background.paused()
    second.release(after=0.05)
    deadline = time.monotonic() + 30
    while background.paused() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not background.paused()


def test_a_hold_released_twice_ends_once() -> None:
    outer = background.hold()
    inner = background.hold()
    inner.release()
    inner.release()
    assert background.paused(), "a second release of one hold ended another"
    outer.release()
    assert not background.paused()


def test_a_hold_ends_on_every_way_out_of_its_block() -> None:
    try:
        with background.hold():
            assert background.paused()
            raise KeyError("the rebuild failed")
    except KeyError:
        pass
    assert not background.paused()


def test_the_main_thread_is_never_held() -> None:
    """MkDocs builds in the main thread (the first search index too): it must not wait for
    its own rebuild to end."""
    with background.hold():
        assert list(background.paced(range(300), 8)) == list(range(300))


def test_match_counting_in_the_background_holds_while_a_rebuild_runs() -> None:
    """Serve's body cache counts a topic's match terms only past ``background.checkpoint``:
    a background writer counting every topic of a locale (one the forked process built
    first) waits while a rebuild runs; the main thread never does."""
    from qbank.plugin.serve import ServeSession
    from qbank.site.render import BodyCache

    bodies = ServeSession().bodies
    assert bodies.before_count is background.checkpoint
    assert BodyCache().before_count is not background.checkpoint  # (a one-shot build's)
    counted = threading.Event()

    def count() -> dict[str, float]:
        counted.set()
        return {"term": 1.0}

    with background.hold():
        worker = threading.Thread(
            target=lambda: bodies.match_counts("en", ("f", "s", "t"), [], count)
        )
        worker.start()
        assert not counted.wait(0.5), "counted while a rebuild runs"
        assert bodies.match_counts("tr", ("f", "s", "t"), [], count) == {"term": 1.0}
    worker.join(timeout=30)
    assert counted.is_set()
    # handed to the thread that renders (the cache's one writer), not written meanwhile
    assert ("en", ("f", "s", "t")) not in bodies.topics
    assert bodies.handed_topics["en", ("f", "s", "t")][1] == {"term": 1.0}
