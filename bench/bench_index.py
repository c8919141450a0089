"""Index bench: the CPU of a locale's search index and match data, the bank loaded once.

    python bench/bench_index.py [--bank DIR | --questions 3000] [--locales en,tr,zh]
        [--index-only] [--profile N] [--generator DIR] [--json FILE]

The bank (``--bank``, read only; else ``bench/make_bank.py --questions N`` into a scratch
folder) is loaded once; then, per locale, in this order:

- **index**: ``write_index`` over ``iter_docs`` into a scratch folder, as the build's
  ``write_search_index`` does (the documents made as they are consumed); the files are
  hashed after the clock stops;
- **match**: ``match_file`` (skipped with ``--index-only``).

Each is timed alone (wall and CPU of this process, ``time.process_time``), and the digest of
its output is printed, so two checkouts compare byte for byte: ``--generator DIR`` runs the
bench against another checkout's ``generator`` folder (``git archive main | tar x -C DIR``).
``--profile N`` prints cProfile's N costliest functions (cumulative) of each step.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import pstats
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _timed(step: Any, profile: int) -> tuple[Any, float, float]:
    profiler = cProfile.Profile() if profile else None
    wall, cpu = time.perf_counter(), time.process_time()
    if profiler:
        profiler.enable()
    result = step()
    if profiler:
        profiler.disable()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if profiler:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(profile)
    return result, wall, cpu


def run(
    bank_dir: Path, locales: list[str] | None, index_only: bool, profile: int
) -> dict[str, Any]:
    """Time every locale's index (and match data) of the bank in ``bank_dir``."""
    from qbank.bank.load import load_bank
    from qbank.search import iter_docs, write_index
    from qbank.site.match import match_file

    started = time.perf_counter()
    bank = load_bank(bank_dir)
    print(f"bank loaded: {len(bank.entries)} questions, {time.perf_counter() - started:.1f} s")

    def url(locale: str, entry: Any) -> str:
        return f"/{locale}/{entry.field}/{entry.topic}/"

    figures: dict[str, Any] = {}
    for locale in locales or bank.catalog.locales:
        folder = Path(tempfile.mkdtemp(prefix=f"bench-index-{locale}-"))
        _, wall, cpu = _timed(
            lambda locale=locale, out=folder / "index": write_index(
                iter_docs(bank, locale, url), out, locale
            ),
            profile,
        )
        found = hashlib.blake2b(digest_size=16)
        files = sorted(path for path in (folder / "index").rglob("*") if path.is_file())
        size = 0
        for path in files:
            data = path.read_bytes()
            found.update(str(path.relative_to(folder)).encode() + b"\0" + data)
            size += len(data)
        shutil.rmtree(folder)
        digest = found.hexdigest()
        row: dict[str, Any] = {"index_wall": wall, "index_cpu": cpu, "index_digest": digest}
        print(
            f"{locale} index: {wall:.2f} s wall, {cpu:.2f} s CPU, {len(files)} files,"
            f" {size / 1e6:.2f} MB, digest {digest}"
        )
        if not index_only:
            data, wall, cpu = _timed(lambda locale=locale: match_file(bank, locale), profile)
            digest = hashlib.blake2b(data, digest_size=16).hexdigest()
            row.update(match_wall=wall, match_cpu=cpu, match_digest=digest)
            print(f"{locale} match: {wall:.2f} s wall, {cpu:.2f} s CPU, digest {digest}")
        figures[locale] = row
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bank", type=Path, help="an existing bank (read only)")
    parser.add_argument("--questions", type=int, default=3000)
    parser.add_argument("--locales", help="comma-separated (default: every locale of the bank)")
    parser.add_argument("--index-only", action="store_true")
    parser.add_argument("--profile", type=int, default=0, metavar="N")
    parser.add_argument("--generator", type=Path, help="another checkout's generator folder")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if args.generator:  # import qbank from there
        sys.path.insert(0, str(args.generator.resolve()))
    with tempfile.TemporaryDirectory() as scratch:
        bank_dir = args.bank
        if bank_dir is None:
            bank_dir = Path(scratch) / "bank"
            subprocess.run(
                [
                    sys.executable,
                    str(HERE / "make_bank.py"),
                    str(bank_dir),
                    "--questions",
                    str(args.questions),
                ],
                check=True,
                stdout=subprocess.DEVNULL,
            )
        locales = args.locales.split(",") if args.locales else None
        figures = run(bank_dir, locales, args.index_only, args.profile)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
