"""qbank as its users get it: the wheel, installed into a fresh virtual environment without
any extra, lays out a bank with `qbank init`; the bank, committed with git and cloned, passes
every step of its own GitHub workflows (README's "Using qbank in your own bank").

Every other test runs in the dev environment, where a runtime import of a dev-only package
(``selectolax`` once was) goes unnoticed; this one fails on it.
"""

from __future__ import annotations

import fnmatch
import os
import re
import subprocess
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from support.actionlint import actionlint
from support.serving import fetch, free_port

from qbank import RELEASE_TAG, __version__
from qbank.tools.starter import requirement

ROOT = Path(__file__).resolve().parent.parent
INSTALL_STEP = "Install qbank"
sys.path.insert(0, str(ROOT / "scripts"))
from check_dist import check_commands  # noqa: E402


def run(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, capture_output=True, text=True, check=False, **kwargs)  # type: ignore[call-overload]
    assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"
    return done  # type: ignore[no-any-return]


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
    env.pop("NO_MKDOCS_2_WARNING", None)  # (the Makefile's; the wheel sets it itself)
    dev_bin = str(Path(sys.executable).parent)
    path = [p for p in env.get("PATH", "").split(os.pathsep) if p and p != dev_bin]
    if venv is not None:
        path.insert(0, str(venv / "bin"))
        env["VIRTUAL_ENV"] = str(venv)
    env["PATH"] = os.pathsep.join(path)
    return env


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


GIT = ["git", "-c", "user.name=Maintainer", "-c", "user.email=maintainer@example.org"]


def _expand(text: str, outputs: dict[str, dict[str, str]]) -> str:
    """``${{ steps.ID.outputs.NAME }}`` as the runner fills it in; other expressions kept."""
    return re.sub(
        r"\$\{\{\s*steps\.([\w-]+)\.outputs\.([\w-]+)\s*\}\}",
        lambda m: outputs[m[1]][m[2]],
        text,
    )


def _uses(step: dict[str, Any], clone: Path, outputs: dict[str, dict[str, str]]) -> None:
    """What a ``uses:`` step does, reproduced, with the checks the runner would make."""
    action, _, version = step["uses"].partition("@")
    args = step.get("with", {})
    if action == "actions/checkout":
        assert (clone / ".git").is_dir()  # the workspace is the clone
    elif action == "actions/setup-python":
        assert args["python-version"]
        # setup-python fails when a cache-dependency-path matches no file of the repository.
        for pattern in str(args.get("cache-dependency-path", "")).split():
            assert list(clone.glob(pattern)), f"{action}: no file matches {pattern}"
    elif action == "actions/cache":
        key = _expand(args["key"], outputs)
        assert "${{" not in key.replace("${{ hashFiles('mkdocs.yml') }}", "").replace(
            "${{ github.run_id }}", ""
        ), key
        assert f"qbank-{__version__}-" in key  # qbank's version is part of the key
        for restore in str(args["restore-keys"]).splitlines():
            assert key.startswith(_expand(restore, outputs).rstrip("-"))
        assert args["path"] == ".cache/qbank"
    elif action == "actions/upload-pages-artifact":
        assert (clone / args["path"] / "index.html").is_file()
    else:
        raise AssertionError(f"{step['uses']}: no reproduction of this action in the test")
    assert re.fullmatch(r"v\d+", version), step["uses"]


def _run_workflow(path: Path, clone: Path, env: dict[str, str], log: list[str]) -> None:
    """Every job's steps in order, as a GitHub runner runs them on ubuntu-latest."""
    workflow = yaml.safe_load(path.read_text(encoding="utf-8"))
    for name, job in workflow["jobs"].items():
        outputs: dict[str, dict[str, str]] = {}
        job_env = {**env, **workflow.get("env", {}), **job.get("env", {}), "CI": "true"}
        for step in job["steps"]:
            if "uses" in step and "run" not in step:
                if step["uses"].startswith("actions/deploy-pages@"):
                    assert job["needs"] == "build", name  # deploys what the build uploaded
                    continue
                _uses(step, clone, outputs)
                continue
            assert "${{" not in step["run"], step  # (the step's text is run as it is)
            output_file = clone.parent / f"output-{path.stem}-{name}"
            output_file.write_text("", encoding="utf-8")
            step_env = {**job_env, **step.get("env", {}), "GITHUB_OUTPUT": str(output_file)}
            done = run(
                ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                env=step_env,
                cwd=clone,
            )
            output = done.stdout + done.stderr
            log.append(f"{path.name}: {step['run']}\n{output}")
            assert "Traceback" not in output, f"{step['run']}\n{output}"
            assert "::error" not in output, f"{step['run']}\n{output}"
            if "id" in step:
                lines = output_file.read_text(encoding="utf-8").splitlines()
                outputs[step["id"]] = dict(line.split("=", 1) for line in lines)


def test_a_bank_from_qbank_init_passes_its_own_workflows_in_a_clone(
    venv: Path, wheel: Path, tmp_path: Path
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
    bank = tmp_path / "our-bank"
    run(["qbank", "init", str(bank), "--locales", "en,tr,zh"], env=env, cwd=tmp_path)
    run(["git", "init", "-q", "-b", "main", str(bank)], env=env)
    run([*GIT, "add", "-A"], env=env, cwd=bank)
    run([*GIT, "commit", "-q", "-m", "A bank from qbank init"], env=env, cwd=bank)
    clone = tmp_path / "clone"
    run(["git", "clone", "-q", str(bank), str(clone)], env=env)
    assert (clone / "docs" / "about.md").is_file()  # docs/ survives git

    # The bank installs this release from its tag; here (no network) the wheel built from
    # this checkout stands in for it.
    requirements = clone / "requirements.txt"
    assert requirement() in requirements.read_text(encoding="utf-8").splitlines()
    assert requirement() == f"qbank @ git+https://github.com/qbank-dev/qbank@{RELEASE_TAG}"
    requirements.write_text(f"{wheel}\n", encoding="utf-8")

    workflows = sorted((clone / ".github" / "workflows").glob("*.yml"))
    assert [p.name for p in workflows] == ["deploy.yml", "pull-request.yml"]
    found = actionlint(workflows)
    assert found == [], found
    log: list[str] = []
    for path in workflows:
        _run_workflow(path, clone, env, log)
    text = "\n".join(log)
    assert "end of life" not in text  # Material's notice (the wheel's .pth sets its switch)
    assert "not included in the" not in text  # MkDocs' note on qbank's own pages
    assert "ok: 3 question(s) verified in site" in text

    # The hand-written page is in every locale's menu, and built once.
    for locale in ("en", "tr", "zh"):
        home = (clone / "site" / locale / "index.html").read_text(encoding="utf-8")
        assert '<a href="../about/" class="md-nav__link">' in home, locale
    assert "About this bank" in (clone / "site" / "about" / "index.html").read_text("utf-8")

    # The pull-request template and issue form are a bank's; pre-commit names the release.
    template = (clone / ".github" / "pull_request_template.md").read_text(encoding="utf-8")
    assert "make " not in template
    form = yaml.safe_load((clone / ".github/ISSUE_TEMPLATE/question-problem.yml").read_text())
    assert "labels" not in form  # a label the bank has not made would fail the form
    hooks = yaml.safe_load((clone / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    assert hooks["repos"][0]["rev"] == RELEASE_TAG
    release = yaml.safe_load((ROOT / ".github" / "workflows" / "release.yml").read_text())
    assert any(fnmatch.fnmatch(RELEASE_TAG, tag) for tag in release[True]["push"]["tags"])

    # mkdocs serve works in the clone, at the root, with the hand-written page.
    port = free_port()
    server = subprocess.Popen(
        [str(venv / "bin" / "mkdocs"), "serve", "--dev-addr", f"127.0.0.1:{port}"],
        cwd=clone,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(600):
            if fetch(port, "/about/") is not None or server.poll() is not None:
                break
            time.sleep(0.5)
        page = fetch(port, "/about/")
        assert page is not None
        assert "About this bank" in page
        assert "qb-" in (fetch(port, "/en/example/getting-started/") or "")
    finally:
        server.terminate()
        server.wait(timeout=60)


def test_every_shipped_command_runs_from_the_wheel(venv: Path, tmp_path: Path) -> None:
    """What the release workflow's check runs (scripts/check_dist.py), here in the fixture's
    fresh environment."""
    check_commands(venv / "bin", tmp_path, clean_env(venv))


def test_release_version_has_one_place(wheel: Path) -> None:
    assert wheel.name == f"qbank-{__version__}-py3-none-any.whl"
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert "\nversion =" not in pyproject
    assert 'dynamic = ["version"]' in pyproject
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        assert "qbank-material-notice.pth" in names
        assert "qbank/site/bank-export.schema.json" in names
        assert "qbank/site_templates/starter/github/workflows/deploy.yml" in names


def test_the_anki_export_names_the_extra_to_install(venv: Path, tmp_path: Path) -> None:
    bank = tmp_path / "our-bank"
    run(["qbank", "init", str(bank)], env=clean_env(venv), cwd=tmp_path)
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
