"""What starting a practice session downloads, gzipped, on a built site (PRODUCT.md §4: at
most 100 KB at 30,000 x 3).

A session fetches its field and seniority's list, then the topic pages (parts) of the
questions it draws; ``assets/lib/draw.js`` takes pages in a random order, a few questions
of each (a third of the session at most), until it has the questions wanted. This draws
as it does (seeded) and sums the gzipped bytes of the list and the pages drawn (gzip level
6, as static hosts serve them).

    python bench/bench_practice.py --site SITE [--locale en] [--field F] [--draws 500]
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import statistics
from functools import cache
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, required=True)
    parser.add_argument("--locale", default="en")
    parser.add_argument("--field", default=None, help="default: the first field")
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--draws", type=int, default=500)
    args = parser.parse_args()
    base = args.site / args.locale / "api" / "practice"
    field = args.field or sorted(p.name for p in base.iterdir() if p.is_dir() or p.suffix)[0]
    field = field.removesuffix(".json")

    @cache
    def gz(path: Path) -> int:
        return len(gzip.compress(path.read_bytes(), 6))

    rng = random.Random(30)
    each = max(1, -(-args.count // 3))  # draw.js's count / spread, rounded up
    print(f"{args.site} {args.locale}/{field}: {args.draws} sessions of {args.count}")
    for listed in sorted((base / field).glob("*.json")):
        data = json.loads(listed.read_bytes())
        by_page: dict[int, int] = {}
        for _, _, page in data["questions"]:
            by_page[page] = by_page.get(page, 0) + 1
        sizes = []
        for _ in range(args.draws):
            order = list(by_page)
            rng.shuffle(order)
            taken, held = [], 0
            for page in order:
                if held >= args.count:
                    break
                taken.append(page)
                held += min(each, by_page[page])
            pages = (
                args.site / args.locale / field / data["pages"][n] / "index.html" for n in taken
            )
            sizes.append(gz(listed) + sum(gz(p) for p in pages))
        print(
            f"  {listed.stem:8} {len(data['questions']):6} questions on {len(by_page):4} pages: "
            f"list {gz(listed) / 1000:.1f} kB, session start {statistics.mean(sizes) / 1000:.1f}"
            f" kB mean, {max(sizes) / 1000:.1f} kB max"
        )


if __name__ == "__main__":
    main()
