"""First ``mkdocs serve`` build against ``mkdocs build`` of the same bank, in one run.

    python bench/bench_serve_start.py [--questions 3000] [--runs 1] [--work /tmp/qbank-serve-start]

On one bank written by ``bench/make_bank.py`` (three locales) it times ``mkdocs build`` (the
whole process: the site published) and the first build of ``mkdocs serve`` (from starting
the process until the last locale's home page and a topic page of every locale answer over
HTTP: serve publishes its first build whole, then starts its server), and prints the
medians and their ratio (goal, issue 17: serve / build ≤ 1).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from make_bank import make_bank  # noqa: E402
from run import _free_port, _get, run_mkdocs, start_serve, write_qbank  # noqa: E402

LOCALES = ("en", "tr", "zh")


def first_serve(project: Path, pages: list[str]) -> float:
    """Seconds from starting ``mkdocs serve`` until every one of ``pages`` is served."""
    port = _free_port()
    log = (project / "serve.log").open("wb")
    start = time.perf_counter()
    server = start_serve(project, port, log)
    try:
        waiting = list(pages)
        while waiting:
            if server.poll() is not None or time.perf_counter() - start > 3600:
                raise SystemExit(f"mkdocs serve did not start; see {project / 'serve.log'}")
            if _get(port, waiting[0]) is not None:
                waiting.pop(0)
            else:
                time.sleep(0.1)
        return time.perf_counter() - start
    finally:
        server.terminate()
        server.wait(60)
        log.close()


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--work", type=Path, default=Path("/tmp/qbank-serve-start"))
    args = parser.parse_args(argv)
    work: Path = args.work.resolve()
    content = work / f"bank-{args.questions}"
    if not (content / ".bench-stamp").is_file():
        make_bank(content, args.questions, locales=LOCALES)
        (content / ".bench-stamp").write_text("ok")
    project = work / f"qbank-{args.questions}"
    write_qbank(content, project)
    first = min(content.glob("*/*/*.yaml"))
    topic = f"{first.parent.parent.name}/{first.parent.name}/"
    pages = [f"/{locale}/{topic}" for locale in LOCALES] + [f"/{LOCALES[-1]}/"]
    builds, serves = [], []
    for _ in range(args.runs):
        builds.append(run_mkdocs(project)["seconds"])
        serves.append(first_serve(project, pages))
    build, serve = statistics.median(builds), statistics.median(serves)
    print(f"bank: {args.questions} questions x {len(LOCALES)} locales; runs: {args.runs}")
    print(f"  mkdocs build                {build:8.2f} s ({', '.join(f'{s:.2f}' for s in builds)})")
    print(f"  first mkdocs serve build    {serve:8.2f} s ({', '.join(f'{s:.2f}' for s in serves)})")
    print(f"  ratio serve / build         {serve / build:8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
