"""The small bank's questions on a topic page, and the progress the widget stored."""

from __future__ import annotations

import json
from typing import Any

SINGLE = "01a05d13-8d21-739a-baa2-7dab67be4001"  # throughput, answer b, difficulty 2


MULTI = "01a05d13-8d21-739a-baa2-7dab67be4005"  # numerics, answers a and c


TOPIC = "en/ml-engineer/throughput/"


NUMERICS = "en/ml-engineer/numerics/"


def instant_navigation_ready(page: Any) -> None:
    """Wait until Material's instant navigation follows clicks: it intercepts them only once
    the sitemap it fetches after the page's load has arrived (a click before it is an
    ordinary page load, which a loaded CI machine made happen)."""
    page.wait_for_load_state("networkidle")


def question(page: Any, qid: str) -> Any:
    return page.locator(f"#q-{qid}")


def option(page: Any, qid: str, key: str) -> Any:
    return question(page, qid).locator(f'.qb-option[data-key="{key}"]')


def stored(page: Any) -> dict[str, Any]:
    raw = page.evaluate(f"localStorage.getItem('{PROGRESS}')")
    return json.loads(raw) if raw else {}


PROGRESS = "qbank:v1:progress"
