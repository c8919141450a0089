# ruff: noqa: RUF001  (a Chinese interview record)
"""Check a built wheel as its users get it: install it into a fresh virtual environment with
no extra and run every command it ships in a bank that `qbank init` lays out there.

    python scripts/check_dist.py dist/qbank-0.1.0-py3-none-any.whl [-c constraints.txt]

The release workflow (.github/workflows/release.yml) runs it before publishing;
tests/test_wheel.py runs ``check_commands`` in its own fresh environment.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

# Every console script and subcommand the wheel ships, each run once for real below.
COMMANDS = [
    "init",
    "validate",
    "new",
    "stats",
    "schema",
    "translations",
    "import",
    "export",
    "verify",
    "build",
]


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    output = done.stdout + done.stderr
    if done.returncode != 0 or "Traceback" in output:
        raise SystemExit(f"check_dist: {' '.join(args)} failed ({done.returncode}):\n{output}")
    return output


def check_commands(bin_dir: Path, work: Path, env: dict[str, str]) -> None:
    """Run each shipped command of the environment in ``bin_dir`` in a new bank in ``work``."""
    qbank, mkdocs = str(bin_dir / "qbank"), str(bin_dir / "mkdocs")
    listed = _run([qbank, "--help"], work, env)
    missing = [c for c in COMMANDS if f"  {c} " not in listed]
    if missing:
        raise SystemExit(f"check_dist: qbank --help does not list {', '.join(missing)}")
    _run([qbank, "--version"], work, env)
    bank = work / "bank"
    _run([qbank, "init", str(bank), "--locales", "en,tr,zh"], work, env)
    steps = [
        [qbank, "validate", "--strict"],
        [qbank, "new", "example/getting-started", "--slug", "second"],
        [qbank, "stats"],
        [qbank, "schema"],
        [qbank, "translations", "status"],
        [qbank, "export", "json", "export"],
        [qbank, "export", "moodle", "export"],
        [mkdocs, "build", "--strict"],
        [qbank, "verify", "site"],
        [qbank, "build", "--out", "tree"],
        [mkdocs, "build", "--strict", "-q", "-f", "tree/mkdocs.yml"],
    ]
    (bank / "content" / "example" / "getting-started" / "second.yaml").unlink(missing_ok=True)
    for step in steps:
        output = _run(step, bank, env)
        if step[1] == "new":  # an empty question: the bank would not validate with it
            (bank / output.strip().splitlines()[0]).unlink()
        if "end of life" in output:
            raise SystemExit(f"check_dist: {' '.join(step)} printed Material's notice")
    seed = work / "interview.txt"
    seed.write_text("问题1：示例问题？\n考察目标：示例。\n回答：示例回答。\n", encoding="utf-8")
    topic = ["--field", "example", "--topic", "getting-started"]
    _run([qbank, "import", "interview", str(seed), *topic], bank, env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("wheel", type=Path)
    parser.add_argument("-c", "--constraint", type=Path, help="pip constraints for the install")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="qbank-check-") as folder:
        work = Path(folder)
        venv = work / "env"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
        env.pop("NO_MKDOCS_2_WARNING", None)  # the wheel's own .pth must set it
        env["PATH"] = os.pathsep.join([str(venv / "bin"), env.get("PATH", "")])
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
        constraint = ["-c", str(args.constraint.resolve())] if args.constraint else []
        subprocess.run([*pip, *constraint, str(args.wheel.resolve())], check=True, env=env)
        check_commands(venv / "bin", work, env)
    print(f"check_dist: {args.wheel.name}: every command ran in a fresh environment")  # noqa: T201


if __name__ == "__main__":
    main()
