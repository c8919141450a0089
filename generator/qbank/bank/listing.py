"""The listing of a bank: every question file under the content root, in a stable order,
with a problem for each file that sits where no question may."""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from qbank.bank.catalog import CATALOG_FILE, catalog_topics, valid_topics_hint
from qbank.bank.model import SLUG_PATTERN, Catalog
from qbank.bank.problems import Problem, display_path
from qbank.bank.stamps import Stamp, stamp

QuestionFile = tuple[str, str, str, str]  # path, display path, field, topic
_SLUG = re.compile(SLUG_PATTERN)
RECENT_NS = 2_000_000_000  # a folder changed this recently is listed again next time


def display_prefix(root: Path) -> str:
    """What goes before a path relative to ``root`` to show it as the user would type it."""
    shown = display_path(root)
    return "" if shown == "." else shown.rstrip("/") + "/"


def question_files(
    root: Path,
    catalog: Catalog | None,
    problems: list[Problem],
    kept: Listing | None = None,
) -> tuple[list[QuestionFile], Listing]:
    """Every question file, in a stable order (``os.walk``'s, folders and names sorted),
    and the listing that found them; misplaced files become problems.

    With ``kept`` (the listing of a previous call, e.g. the last rebuild under ``mkdocs
    serve``) a folder whose stamp is unchanged since is not listed again (adding, removing
    or renaming an entry changes it): a rebuild then stats folders, not list them. A folder
    holding symbolic links, or changed in the last seconds (a change within the same clock
    tick would keep its stamp), is always listed again.
    """
    topics = {(f, t) for f, _s, t in catalog_topics(catalog)} if catalog else None
    prefix = display_prefix(root)
    if kept is None or kept.prefix != prefix:
        kept = Listing(prefix)
    listed = Listing(prefix)
    recent = time.time_ns() - RECENT_NS
    files: list[QuestionFile] = []

    def visit(dirpath: str, rel: tuple[str, ...]) -> None:
        current = stamp(dirpath)
        folder = kept.folders.get(dirpath)
        if folder is None or current is None or folder.stamp != current:
            folder = _list_folder(dirpath, rel, prefix, catalog, topics, current)
            if folder is None:
                return
        if folder.stamp is not None and folder.stamp[0] < recent:
            listed.folders[dirpath] = folder
        files.extend(folder.files)
        problems.extend(folder.problems)
        for name in folder.descend:
            visit(os.path.join(dirpath, name), (*rel, name))  # noqa: PTH118 (hot)

    visit(os.fspath(root), ())
    return files, listed


@dataclass
class Folder:
    """One folder's part of the listing."""

    stamp: Stamp | None  # None: listed again every time (it holds symbolic links)
    files: list[QuestionFile]
    problems: list[Problem]
    descend: list[str]  # the subfolders to list, in order


@dataclass
class Listing:
    """Every folder's part of the listing, by path."""

    prefix: str  # the display prefix the problems were written with
    folders: dict[str, Folder] = field(default_factory=dict)


def _list_folder(
    dirpath: str,
    rel: tuple[str, ...],
    prefix: str,
    catalog: Catalog | None,
    topics: set[tuple[str, str]] | None,
    current: Stamp | None,
) -> Folder | None:
    """One folder as ``os.walk`` sees it (None when it cannot be listed): its question
    files, the problems of misplaced ones, and the subfolders to enter."""
    dirnames: list[str] = []
    filenames: list[str] = []
    links = False
    try:
        with os.scandir(dirpath) as entries:
            for entry in entries:
                try:
                    is_dir = entry.is_dir()
                except OSError:
                    is_dir = False
                (dirnames if is_dir else filenames).append(entry.name)
                try:
                    links = links or entry.is_symlink()
                except OSError:
                    links = True
    except OSError:
        return None
    dirnames = sorted(d for d in dirnames if not d.startswith("."))
    files: list[QuestionFile] = []
    problems: list[Problem] = []
    for name in sorted(filenames):
        if name.startswith(".") or not name.endswith((".yaml", ".yml")):
            continue
        parts = (*rel, name)
        if parts == (CATALOG_FILE,):
            continue
        shown = prefix + "/".join(parts)
        if name.endswith(".yml"):
            problems.append(
                Problem(
                    shown,
                    1,
                    1,
                    "",
                    "question files end in .yaml",
                    f"rename to {name[:-4]}.yaml",
                )
            )
            continue
        if len(parts) != 3:
            problems.append(
                Problem(
                    shown,
                    1,
                    1,
                    "",
                    "a question file must sit in a topic folder",
                    valid_topics_hint(catalog),
                )
            )
            continue
        field_key, topic_key, _ = parts
        slug = name[:-5]
        if not _SLUG.match(slug):
            problems.append(
                Problem(
                    shown,
                    1,
                    1,
                    "",
                    f"file name {name!r} is not a slug",
                    "lowercase letters, digits and hyphens, e.g. gpu-step-phases.yaml",
                )
            )
            continue
        if topics is not None and catalog is not None and (field_key, topic_key) not in topics:
            what = (
                f"unknown topic folder {topic_key!r} in field {field_key!r}"
                if field_key in catalog.fields
                else f"unknown field folder {field_key!r}"
            )
            problems.append(Problem(shown, 1, 1, "", what, valid_topics_hint(catalog, field_key)))
            continue
        path = os.path.join(dirpath, name)  # noqa: PTH118 (hot)
        files.append((path, shown, field_key, topic_key))
    # A folder named like a YAML file is a file that went wrong.
    for d in dirnames:
        if d.endswith(".yaml"):
            problems.append(
                Problem(
                    display_path(Path(dirpath) / d),
                    1,
                    1,
                    "",
                    "a directory where a YAML file was expected",
                    "a file, not a folder, named <slug>.yaml",
                )
            )
    # os.walk does not enter linked folders.
    descend = [d for d in dirnames if not os.path.islink(os.path.join(dirpath, d))]  # noqa: PTH114, PTH118
    return Folder(None if links else current, files, problems, descend)
