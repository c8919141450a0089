"""Topic parts: a big topic's questions in one locale cut into numbered pages.

A topic page holds at most ``page_size`` questions (0: no limit); a topic with more is shown
on several pages, its first part in the topic's own folder (``<topic>/``, the nav's entry and
the address every earlier link points at) and part n in ``<topic>--n/`` beside it (a slug
never holds "--", so no topic key can name such a folder; every part sits three folders
deep like the other question pages, so relative links are the same on all of them).

Which part a question is on depends on its place among the topic's questions in that
locale. Every URL of a question (permalinks, search, practice, sitemaps) is made here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from qbank.bank.loaded import Bank, Entry

# 25: on a slow phone a page of 50 questions was still being parsed when the reader's
# first tap came, which then waited for the theme's start-up (bench/bench_phone.py).
DEFAULT_PAGE_SIZE = 25
# A seniority page lists its level's questions (a link, a title and a difficulty badge each:
# about 250 bytes, where a question on its topic page weighs about 3.5 KB): its parts hold
# this many times a topic part's questions, so a part weighs about what a topic part weighs
# and a big level takes a tenth of the files (each with the whole page chrome).
LEVEL_PART_FACTOR = 10
SEPARATOR = "--"
T = TypeVar("T")


def is_part_page(path: str) -> bool:
    """Whether a generated page path is part 2 or later of a topic (``<topic>--n/``): a page
    outside the menu, so its coming and going changes no other page."""
    return SEPARATOR in path


def split(items: Sequence[T], page_size: int) -> list[Sequence[T]]:
    """``items`` in as few parts of at most ``page_size`` as hold them, as even as can be
    (75 at 50 a page: 38 and 37, not 50 and 25; one part, maybe empty, when they fit)."""
    count = part_count(len(items), page_size)
    if count == 1:
        return [items]
    starts = [part_start(n, len(items), count) for n in range(count + 1)]
    return [items[starts[n] : starts[n + 1]] for n in range(count)]


def part_start(n: int, total: int, count: int) -> int:
    """Where the (0-based) part ``n`` of ``total`` items in ``count`` even parts starts: the
    first ``total % count`` parts hold one more than the rest."""
    size, longer = divmod(total, count)
    return n * size + min(n, longer)


def part_of(at: int, total: int, count: int) -> int:
    """The (1-based) part of the item at ``at`` among ``total`` in ``count`` even parts."""
    size, longer = divmod(total, count)
    edge = longer * (size + 1)
    return at // (size + 1) + 1 if at < edge else longer + (at - edge) // size + 1


def part_count(count: int, page_size: int) -> int:
    """How many pages a topic of ``count`` questions takes."""
    return 1 if page_size <= 0 or count <= page_size else -(-count // page_size)


def level_page_size(page_size: int) -> int:
    """At most this many questions listed on a seniority page (part) when a topic part
    holds ``page_size`` (0: no limit either)."""
    return page_size * LEVEL_PART_FACTOR


def part_folder(topic: str, part: int) -> str:
    """The folder (beside the topic's own) of a topic's ``part`` (1-based)."""
    return topic if part <= 1 else f"{topic}{SEPARATOR}{part}"


def topic_folders(topic: str, count: int, page_size: int) -> list[str]:
    """The folders of every part of a topic of ``count`` questions, in order."""
    return [part_folder(topic, n) for n in range(1, part_count(count, page_size) + 1)]


def parts_by_id(bank: Bank, locale: str, page_size: int) -> Mapping[str, int]:
    """The part (1-based) of each of ``locale``'s questions, by id (made once per bank)."""
    key = f"parts:{locale}:{page_size}"
    found = bank._cache.get(key)
    if found is None:
        found = {}
        for entries in bank.by_topic.values():
            here = [e for e in entries if locale in e.locales]
            count = part_count(len(here), page_size)
            if count == 1:
                continue
            for at, entry in enumerate(here):
                found[entry.id] = part_of(at, len(here), count)
        bank._cache[key] = found
    return found


def question_folder(bank: Bank, entry: Entry, locale: str, page_size: int) -> str:
    """The folder of the topic part that shows ``entry`` in ``locale``."""
    return part_folder(entry.topic, parts_by_id(bank, locale, page_size).get(entry.id, 1))


def question_url(bank: Bank, page_size: int, suffix: str = "") -> Callable[[str, Entry], str]:
    """(locale, entry) → the site-root URL of the topic page (part) that shows the entry
    (``suffix``: ``index.html`` where pages are not folders)."""

    def url(locale: str, entry: Entry) -> str:
        folder = question_folder(bank, entry, locale, page_size)
        return f"/{locale}/{entry.field}/{folder}/{suffix}"

    return url
