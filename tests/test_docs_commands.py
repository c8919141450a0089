"""Every shell command of README.md and CONTRIBUTING.md (en, tr, zh), run as written.

The ```sh blocks are taken from the documents themselves, so a command a document changes is
the command run here. They run in a copy of this repository (its ``.venv`` the dev one, as
after ``make``), or, for a bank of one's own, in an empty folder with the dev environment's
``qbank`` standing in for the installed release. A command that serves (``make serve``,
``mkdocs serve``) runs until its page answers, then is stopped; the port is the one change
(port 8000 is shared on this machine): ``PORT`` for make, ``--dev-addr`` for mkdocs. Lines
that cannot run here are in ``CANNOT_RUN``, each with why. Question examples (```yaml
blocks that start with ``id:``) are validated in a bank.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import yaml
from support.serving import fetch, free_port

ROOT = Path(__file__).resolve().parent.parent
DOCS = ["README.md", "CONTRIBUTING.md", "CONTRIBUTING.tr.md", "CONTRIBUTING.zh.md"]
CANNOT_RUN = {
    'pip install "qbank @ git+https://github.com/qbank-dev/qbank@v0.1.0"': (
        "the network: tests/test_wheel.py installs the wheel built from this checkout instead"
    ),
    "make test": "it runs the suite this test is part of",
}
SERVES = re.compile(r"^(make serve|mkdocs serve)\b")
# What the repository copy holds (everything a documented command reads).
COPIED = [
    "content",
    "docs",
    "schemas",
    "scripts",
    "site_templates",
    "mkdocs.yml",
    "Makefile",
    "pyproject.toml",
    "constraints.txt",
]
TIMEOUT = 600  # a bound for a busy machine, not a timing


def blocks(name: str, language: str = "sh") -> list[str]:
    """The fenced ``language`` blocks of a document, dedented (list items indent them)."""
    text = (ROOT / name).read_text(encoding="utf-8")
    found = re.finditer(rf"^( *)```{language}\n(.*?)^\1```", text, re.M | re.S)
    return [re.sub(rf"^{m[1]}", "", m[2], flags=re.M) for m in found]


def commands(block: str) -> list[str]:
    return [line.strip() for line in block.splitlines() if line.strip()]


def _copy_of_the_repository(where: Path) -> Path:
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, where / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, where / name)
    (where / ".venv").symlink_to(ROOT / ".venv")
    for name in ("pyproject.toml", "constraints.txt"):  # older than .venv's stamp: no install
        os.utime(where / name, (0, 0))
    return where


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(ROOT / ".venv" / "bin"), env.get("PATH", "")])
    return env


def _serve(command: str, cwd: Path, env: dict[str, str]) -> None:
    """Run a serving command until its site answers, then stop it."""
    port = free_port()
    env = {**env, "PORT": str(port)}
    if command.startswith("mkdocs serve"):
        command = command.split("#")[0].strip() + f" --dev-addr 127.0.0.1:{port}"
    server = subprocess.Popen(
        ["bash", "-c", f"exec {command}"],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + TIMEOUT
        while fetch(port, "/") is None:
            assert server.poll() is None, f"{command} stopped:\n{server.stdout.read()}"  # type: ignore[union-attr]
            assert time.monotonic() < deadline, f"{command}: nothing served"
            time.sleep(0.5)
        page = fetch(port, "/")
        assert page is not None
        assert "qb-" in page  # qbank's page, at the root: no redirect to a sub-path
    finally:
        os.killpg(server.pid, 15)
        server.wait(timeout=60)


def run_block(block: str, cwd: Path, env: dict[str, str]) -> Path:
    """Run a block's commands in order in ``cwd`` (a ``cd`` carries on to the next
    command); return the folder the block ended in."""
    for command in commands(block):
        if command.split("#")[0].strip() in CANNOT_RUN:
            continue
        if command.startswith("cd "):
            cwd = cwd / command[3:].strip()
            continue
        if SERVES.match(command):
            _serve(command, cwd, env)
            continue
        done = subprocess.run(
            ["bash", "-eo", "pipefail", "-c", command],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            check=False,
            timeout=TIMEOUT,
        )
        output = done.stdout + done.stderr
        assert done.returncode == 0, f"{command}\n{output}"
        assert "Traceback" not in output, f"{command}\n{output}"
    return cwd


def test_every_line_that_cannot_run_is_in_a_document() -> None:
    written = {c.split("#")[0].strip() for d in DOCS for b in blocks(d) for c in commands(b)}
    assert set(CANNOT_RUN) <= written


def test_readme_quick_start_and_publishing(tmp_path: Path) -> None:
    repository = _copy_of_the_repository(tmp_path / "qbank")
    quick_start, publishing = blocks("README.md")[:2]
    assert "make serve" in quick_start
    assert "qbank build" in publishing
    run_block(quick_start, repository, _env())
    run_block(publishing, repository, _env())
    assert (repository / "build" / "publish" / "site" / "en" / "index.html").is_file()


def test_readme_a_bank_of_your_own(tmp_path: Path) -> None:
    install, start = blocks("README.md")[2:4]
    assert "pip install" in install
    assert "qbank init" in start
    run_block(install, tmp_path, _env())  # the virtual environment; the install cannot run
    bank = run_block(start, tmp_path, _env())
    assert bank == tmp_path / "our-bank"
    assert (bank / "site" / "about" / "index.html").is_file()


def test_readme_screenshots(tmp_path: Path) -> None:
    if not Path("/usr/bin/chromium").is_file():
        if os.environ.get("CI"):
            pytest.fail("Chromium is missing (/usr/bin/chromium)")
        pytest.skip("Chromium is missing (/usr/bin/chromium)")
    repository = _copy_of_the_repository(tmp_path / "qbank")
    (shots,) = [b for b in blocks("README.md") if "screenshots.py" in b]
    before = {p.name: p.read_bytes() for p in (repository / "docs" / "screenshots").glob("*")}
    run_block(shots, repository, _env())
    after = {p.name: p.read_bytes() for p in (repository / "docs" / "screenshots").glob("*")}
    assert after.keys() == before.keys()


# What a contributor writes in step 2 ("Fill it in") between the documented commands.
FILLED = """\
difficulty: 2
prompt:
  {locale}: Which {n} change keeps the data loader from stalling the GPU?
options:
  a: {{{locale}: More worker processes}}
  b: {{{locale}: A larger learning rate}}
answer: a
explanation:
  {locale}: Workers read batches ahead while the GPU computes; the learning rate does not.
"""


@pytest.mark.parametrize("name", ["CONTRIBUTING.md", "CONTRIBUTING.tr.md", "CONTRIBUTING.zh.md"])
def test_contributing_commands(name: str, tmp_path: Path) -> None:
    repository = _copy_of_the_repository(tmp_path / "qbank")
    create, check, mark = blocks(name)
    run_block(create, repository, _env())
    new = repository / "content" / "ml-engineer" / "throughput-profiling" / "dataloader-stalls.yaml"
    head = "\n".join(new.read_text(encoding="utf-8").splitlines()[:2])  # schema line, id
    new.write_text(f"{head}\n{FILLED.format(locale='en', n=name)}", encoding="utf-8")
    run_block(check, repository, _env())
    run_block(mark, repository, _env())


@pytest.mark.parametrize("name", DOCS)
def test_question_examples_validate(name: str, tmp_path: Path) -> None:
    examples = [b for b in blocks(name, "yaml") if b.startswith("id:")]
    if name == "CONTRIBUTING.md":  # (the Turkish and Chinese pages link to its examples)
        assert len(examples) == 2, name  # a choice and an open question
    subprocess.run(
        [str(ROOT / ".venv" / "bin" / "qbank"), "init", "bank", "--locales", "en,tr,zh"],
        cwd=tmp_path,
        capture_output=True,
        check=True,
    )
    topic = tmp_path / "bank" / "content" / "example" / "getting-started"
    for n, example in enumerate(examples):
        yaml.safe_load(example)
        (topic / f"example-{n}.yaml").write_text(example, encoding="utf-8")
    done = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "qbank"), "validate"],
        cwd=tmp_path / "bank",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
