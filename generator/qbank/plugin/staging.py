"""``mkdocs build``'s atomic output: the build writes into a staging folder beside the site
(``qbank.site.output`` does the folder work) and the finished site is swapped in at the end; a
failed build, or strict mode's warnings, leave the previous site exactly as it was."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.utils import CountHandler

from qbank.plugin import internals
from qbank.plugin.report import phase
from qbank.site import output as atomic


class StagedSite:
    """One build's output: staged in ``on_pre_build``, published or discarded at its end."""

    def __init__(self, config: MkDocsConfig) -> None:
        self.site_dir = Path(config.site_dir)
        self.staging = atomic.stage(self.site_dir)
        internals.point_build_at(config, self.staging)
        # MkDocs counts strict mode's warnings only after post_build: count them here.
        self.warnings: CountHandler | None = internals.count_warnings() if config.strict else None

    def publish(
        self, config: MkDocsConfig, started: float, meanwhile: Callable[[], None] = lambda: None
    ) -> None:
        """Swap the finished staging folder in as the site, in one step (``started``: when
        the build began, for the log); ``meanwhile()`` runs while the previous site is
        removed."""
        if self.warnings is not None:
            counts = internals.stop_counting(self.warnings)
            self.warnings = None
            if counts:
                found = ", ".join(f"{n} {level.lower()}s" for level, n in counts)
                raise PluginError(f"qbank: {found} in strict mode; the site was not replaced")

        def published() -> None:
            internals.point_build_at(config, self.site_dir)
            phase(started, "site published to %s", self.site_dir)
            meanwhile()

        atomic.publish(self.staging, self.site_dir, published)

    def discard(self) -> None:
        """Drop the staging folder after a failure (the site itself is not touched)."""
        if self.warnings is not None:
            internals.stop_counting(self.warnings)
            self.warnings = None
        atomic.discard(self.staging)
