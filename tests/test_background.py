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
