"""How many examples a property test runs: today's count in CI, a tenth of it by default.

The counts follow the loaded Hypothesis profile (``tests/conftest.py``): ``ci`` (chosen when
``CI`` is set, as ``.ci/run`` and ``make test`` do) runs each test's full count; ``dev`` (the
default, and ``make test-fast``) a tenth, at least 10. ``--hypothesis-profile=ci`` gives the
full counts on a contributor's machine.
"""

from __future__ import annotations

from hypothesis import settings

FULL = 100  # the ci profile's max_examples: a test's count is written against it


def examples(count: int) -> int:
    """``count`` examples under the ci profile, scaled down under the others."""
    scaled = count * settings().max_examples // FULL
    return max(min(count, 10), scaled)
