"""The review queue's scheduler (``site_templates/assets/lib/schedule.js``: ts-fsrs, vendored,
FSRS-6 with its default parameters, no learning steps, no fuzz) against py-fsrs, the other
reference implementation: thousands of random review histories (same-day repeats, gaps of
days to a year, lapses) give the same due days and memory states (stability, difficulty).

The widget counts days in the reader's time zone (node runs here in New York's, daylight
saving time included); py-fsrs counts whole 24-hour spans, so it is handed each review at
the start of its local day, which makes both count the same days."""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from fsrs import Card, Rating, Scheduler
from support.node import node_or_skip

REPLAY = Path(__file__).resolve().parent / "js" / "fsrs_replay.mjs"
ZONE = "America/New_York"
HISTORIES = 3000
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
START = datetime(2026, 1, 5, 8, tzinfo=UTC)


def histories(seed: int) -> list[list[tuple[int, int]]]:
    """Random review histories: [(epoch ms, rating 1..4)], times increasing."""
    rng = random.Random(seed)
    out = []
    for _ in range(HISTORIES):
        at = START + timedelta(days=rng.randrange(365), seconds=rng.randrange(86400))
        history = []
        for _ in range(rng.randint(1, 14)):
            history.append((int(at.timestamp() * 1000), rng.choices([1, 2, 3, 4], [2, 2, 5, 1])[0]))
            kind = rng.random()
            if kind < 0.2:  # again the same day or just past midnight
                gap = timedelta(minutes=rng.randint(1, 600))
            elif kind < 0.9:
                gap = timedelta(days=rng.randint(1, 60), seconds=rng.randrange(86400))
            else:
                gap = timedelta(days=rng.randint(61, 400), seconds=rng.randrange(86400))
            at += gap
        out.append(history)
    return out


def local_day(ms: int) -> int:
    moment = datetime.fromtimestamp(ms / 1000, ZoneInfo(ZONE))
    return (moment.date() - EPOCH.date()).days


def py_fsrs(history: list[tuple[int, int]]) -> list[tuple[float, float, int]]:
    scheduler = Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)
    card = Card()
    out = []
    for ms, rating in history:
        card, _ = scheduler.review_card(card, Rating(rating), EPOCH + timedelta(days=local_day(ms)))
        assert card.stability is not None
        assert card.difficulty is not None
        out.append((card.stability, card.difficulty, (card.due - EPOCH).days))
    return out


def test_the_widget_scheduler_agrees_with_py_fsrs() -> None:
    node = node_or_skip("the widget's scheduler runs under node")
    cases = histories(36)
    result = subprocess.run(
        [node, str(REPLAY)],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
        env={**os.environ, "TZ": ZONE},
    )
    widget = json.loads(result.stdout)
    reviews = same_day = lapses = 0
    for history, ours in zip(cases, widget, strict=True):
        theirs = py_fsrs(history)
        for step, ((stability, difficulty, due), (s, d, day)) in enumerate(
            zip(ours, theirs, strict=True)
        ):
            where = f"history {history}, review {step + 1}"
            assert due == day, where
            assert stability == pytest.approx(s, rel=1e-6), where
            assert difficulty == pytest.approx(d, rel=1e-6), where
        reviews += len(history)
        same_day += sum(
            local_day(a) == local_day(b) for (a, _), (b, _) in itertools.pairwise(history)
        )
        lapses += sum(rating == 1 for _, rating in history[1:])
    # the histories hold what the test claims to cover
    assert reviews > 15_000
    assert same_day > 1_000
    assert lapses > 2_000
