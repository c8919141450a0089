"""qbank as its users get it: the wheel, installed into a fresh virtual environment without
any extra, runs a bank repository laid out as the README's "Using qbank in your own bank"
says, through exactly the commands the shipped GitHub workflows run.

Every other test runs in the dev environment, where a runtime import of a dev-only package
(``selectolax`` once was) goes unnoticed; this one fails on it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml
from support.dependency_bank import CATALOG, QID, QUESTION

ROOT = Path(__file__).resolve().parent.parent
INSTALL_STEP = "Install qbank"  # the one step a bank repository changes (README)


def run(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, capture_output=True, text=True, check=False, **kwargs)  # type: ignore[call-overload]
    assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"
    return done  # type: ignore[no-any-return]


def readme_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"^## Using qbank in your own bank\n(.*?)(?=^## )", text, re.M | re.S)
    assert match, "README.md: no section 'Using qbank in your own bank'"
    return match.group(1)


def workflow_commands() -> list[str]:
    """The shell commands of every workflow's steps, in order, but the install step."""
    commands: list[str] = []
    for path in sorted((ROOT / ".github" / "workflows").glob("*.yml")):
        workflow = yaml.safe_load(path.read_text(encoding="utf-8"))
        for job in workflow["jobs"].values():
            steps = job.get("steps", [])
            if not any("run" in step for step in steps):
                continue  # (a deploy job: no command of ours)
            names = [step.get("name") for step in steps]
            assert INSTALL_STEP in names, f"{path.name}: no step named {INSTALL_STEP!r}"
            commands += [
                step["run"] for step in steps if "run" in step and step["name"] != INSTALL_STEP
            ]
    return commands


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    pip_wheel = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"]
    run([*pip_wheel, "-w", str(out), str(ROOT)])
    (built,) = out.glob("qbank-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel and its runtime dependencies only."""
    folder = tmp_path_factory.mktemp("venv") / "env"
    run([sys.executable, "-m", "venv", str(folder)])
    python = str(folder / "bin" / "python")
    constraints = str(ROOT / "constraints.txt")
    run([python, "-m", "pip", "install", "-q", "-c", constraints, str(wheel)], env=clean_env())
    return folder


def clean_env(venv: Path | None = None) -> dict[str, str]:
    """The environment of a user's shell: nothing of this checkout or of the dev venv."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "PYTEST"))
    }
    dev_bin = str(Path(sys.executable).parent)
    path = [p for p in env.get("PATH", "").split(os.pathsep) if p and p != dev_bin]
    if venv is not None:
        path.insert(0, str(venv / "bin"))
        env["VIRTUAL_ENV"] = str(venv)
    env["PATH"] = os.pathsep.join(path)
    return env


def bank_repository(root: Path) -> Path:
    """The README's layout: mkdocs.yml (its example), an empty docs/, content/, .github/."""
    section = readme_section()
    config = re.search(r"```yaml\n(# mkdocs\.yml\n.*?)```", section, re.S)
    assert config, "README: no ```yaml block starting with '# mkdocs.yml'"
    assert "docs/" in section
    assert "content/" in section
    root.mkdir(parents=True)
    (root / "mkdocs.yml").write_text(config.group(1), encoding="utf-8")
    (root / "docs").mkdir()
    topic = root / "content" / "data" / "formats"
    topic.mkdir(parents=True)
    (root / "content" / "catalog.yaml").write_text(CATALOG, encoding="utf-8")
    (topic / "columnar.yaml").write_text(QUESTION.format(qid=QID), encoding="utf-8")
    workflows = root / ".github" / "workflows"
    workflows.mkdir(parents=True)
    for path in (ROOT / ".github" / "workflows").glob("*.yml"):
        (workflows / path.name).write_bytes(path.read_bytes())
    return root


def test_the_wheel_ships_site_templates(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        shipped = {
            name.removeprefix("qbank/site_templates/")
            for name in archive.namelist()
            if name.startswith("qbank/site_templates/")
        }
    ours = {
        p.relative_to(ROOT / "site_templates").as_posix()
        for p in (ROOT / "site_templates").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert ours <= shipped
    assert {"strings/en.yaml", "assets/qbank.js", "overrides/partials/header.html"} <= shipped


def test_workflow_commands_pass_in_a_bank_with_the_installed_wheel(
    venv: Path, tmp_path: Path
) -> None:
    env = clean_env(venv)
    python = str(venv / "bin" / "python")
    # The templates resolver finds the folder inside the installed package.
    where = run(
        [python, "-c", "from qbank.site.templates import TEMPLATES; print(TEMPLATES)"],
        env=env,
        cwd=tmp_path,
    )
    templates = Path(where.stdout.strip())
    assert templates.is_relative_to(venv), templates
    assert templates.parts[-2:] == ("qbank", "site_templates")
    installed = run([python, "-m", "pip", "list", "--format=freeze"], env=env).stdout.lower()
    assert "pytest" not in installed  # no dev extra
    assert "genanki" not in installed  # no anki extra

    bank = bank_repository(tmp_path / "our-bank")
    commands = workflow_commands()
    assert {"qbank validate --format github", "mkdocs build --strict", "qbank verify site"} <= {
        c.strip() for c in commands
    }
    for command in commands:
        done = run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", command], env=env, cwd=bank
        )
        output = done.stdout + done.stderr
        assert "Traceback" not in output, f"{command}\n{output}"
        assert "::error" not in output, f"{command}\n{output}"
    assert (bank / "site" / "en" / "data" / "formats" / "index.html").is_file()


def test_the_anki_export_names_the_extra_to_install(venv: Path, tmp_path: Path) -> None:
    bank = bank_repository(tmp_path / "our-bank")
    done = subprocess.run(
        ["qbank", "export", "anki", "out"],
        env=clean_env(venv),
        cwd=bank,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert 'pip install "qbank[anki]"' in done.stderr
    assert "Traceback" not in done.stderr


IMPORT_ALL = """
import importlib, pkgutil, qbank
for module in pkgutil.walk_packages(qbank.__path__, "qbank."):
    try:
        importlib.import_module(module.name)
    except ModuleNotFoundError as error:
        if (module.name, error.name) != ("qbank.tools.exporters.anki", "genanki"):
            raise SystemExit(f"{module.name}: {error}")
"""


def test_every_module_imports_without_extras(venv: Path, tmp_path: Path) -> None:
    """A runtime import of an undeclared package fails here even when no workflow command
    reaches the module (the Moodle exporter's lxml, the scaffold's uuid6)."""
    run([str(venv / "bin" / "python"), "-c", IMPORT_ALL], env=clean_env(venv), cwd=tmp_path)
