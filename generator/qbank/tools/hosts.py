"""A built site's weight against what static hosts take.

``site_weight`` measures a site folder (total bytes, file count, largest file);
``host_report`` says, host by host, whether it takes the site. The limits are the hosts'
published ones: GitHub Pages refuses a published site over 1 GB, Cloudflare Pages takes at
most 20,000 files and 25 MiB a file, GitLab Pages 1 GB (its default; an instance may set
another). ``qbank verify`` fails when GitHub Pages would refuse the site (the shipped deploy
workflow publishes there), so the workflow stops before it uploads.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

GB = 1_000_000_000
MIB = 1024 * 1024


@dataclass(frozen=True)
class Host:
    """A static host's limits (None: no limit of that kind)."""

    name: str
    total: int | None = None  # bytes of the whole site
    files: int | None = None  # number of files
    per_file: int | None = None  # bytes of one file


GITHUB_PAGES = Host("GitHub Pages", total=GB)
HOSTS = (
    GITHUB_PAGES,
    Host("Cloudflare Pages", files=20_000, per_file=25 * MIB),
    Host("GitLab Pages", total=GB),
)


@dataclass(frozen=True)
class Weight:
    """What a site folder weighs."""

    total: int
    files: int
    largest: int
    largest_path: str  # relative to the site folder, "" for an empty site


def site_weight(site: Path) -> Weight:
    """The total size (``st_size``, what a host counts), file count and largest file of ``site``."""
    total = files = largest = 0
    largest_path = ""
    for folder, _dirs, names in os.walk(site):
        for name in names:
            path = Path(folder) / name
            size = path.stat().st_size
            total += size
            files += 1
            if size > largest:
                largest, largest_path = size, path.relative_to(site).as_posix()
    return Weight(total, files, largest, largest_path)


def _size(n: int) -> str:
    return f"{n / MIB:,.1f} MiB" if n < GB else f"{n / GB:,.2f} GB"


def refusals(weight: Weight, host: Host) -> list[str]:
    """Why ``host`` would refuse a site of ``weight`` (empty: it takes it)."""
    found = []
    if host.total is not None and weight.total > host.total:
        found.append(f"{_size(weight.total)} is over its {_size(host.total)} a site")
    if host.files is not None and weight.files > host.files:
        found.append(f"{weight.files:,} files is over its {host.files:,} files")
    if host.per_file is not None and weight.largest > host.per_file:
        found.append(
            f"{weight.largest_path} ({_size(weight.largest)})"
            f" is over its {_size(host.per_file)} a file"
        )
    return found


def host_report(weight: Weight) -> list[str]:
    """The lines ``qbank verify`` prints: the site's weight, then each host's verdict."""
    lines = [
        f"site: {_size(weight.total)} in {weight.files:,} files; largest file"
        f" {weight.largest_path or '-'} ({_size(weight.largest)})"
    ]
    for host in HOSTS:
        why = refusals(weight, host)
        lines.append(f"  {host.name}: " + ("refuses it: " + "; ".join(why) if why else "takes it"))
    return lines
