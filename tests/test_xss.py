"""XSS: the validator reports unsafe content on its line; valid content builds to inert pages.

The payloads live in tests/fixtures/hostile/xss.yaml (29 unsafe, 12 valid, 5 catalog names),
spread over prompt, options, explanation, model answer, tags and catalog names. Pages are
checked statically here; tests/browser/test_xss_browser.py loads them in Chromium.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from fixtures.hostile import xss_bank as xss
from sitebuild import build_site

import qbank.bank.rules
from qbank.bank.load import check_bank
from qbank.bank.problems import errors_in

WHERE = {p["where"] for kind in ("unsafe", "valid") for p in xss.PAYLOADS[kind]}


def test_the_suite_is_broad() -> None:
    total = len(xss.PAYLOADS["unsafe"]) + len(xss.PAYLOADS["valid"]) + len(xss.PAYLOADS["names"])
    assert total >= 30
    assert {"prompt", "option", "explanation", "model_answer", "tag"} == WHERE


def test_validator_reports_every_unsafe_payload_on_its_line(tmp_path: Path) -> None:
    content = tmp_path / "content"
    written = xss.write_bank(content, "unsafe")
    _bank, problems = check_bank(content)
    for file, (line, payload) in written.items():
        mine = [p for p in errors_in(problems) if p.path.endswith(file)]
        assert mine, f"{file}: {payload['text']!r} was not reported"
        assert any(payload["message"] in p.message and p.line == line for p in mine), (
            file,
            line,
            payload["text"],
            [(p.line, p.message) for p in mine],
        )


def test_build_refuses_unsafe_content(tmp_path: Path) -> None:
    content = tmp_path / "content"
    xss.write_bank(content, "unsafe")
    with pytest.raises(subprocess.CalledProcessError) as failure:
        build_site(tmp_path, content)
    assert "nothing was built" in failure.value.stderr
    assert not (tmp_path / "site").exists()


@pytest.fixture(scope="module")
def valid_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("xss-valid")
    content = tmp / "content"
    xss.write_bank(content, "valid")
    _bank, problems = check_bank(content)
    assert errors_in(problems) == []
    return build_site(tmp, content)


def test_valid_payloads_build_to_inert_pages(valid_site: Path) -> None:
    assert xss.inert_problems(valid_site) == []


def test_names_and_code_are_shown_as_text(valid_site: Path) -> None:
    page = (valid_site / "en/web/t/index.html").read_text("utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # code span and escaped text
    assert "Topic &gt;&lt;script&gt;alert(1)&lt;/script&gt;" in page  # the page title
    assert "<script>alert(1)" not in page
    home = (valid_site / "en/index.html").read_text("utf-8")
    assert "Field &lt;img src=x onerror=alert(1)&gt;" in home
    assert "<img src=x" not in home
    assert "{{ 7*7 }}" in page  # templates never evaluate content


def test_forced_unsafe_content_is_neutralised_by_the_renderer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Second line of defence: the validator bypassed, nh3 in qbank.bank.markup still holds."""
    content = tmp_path / "content"
    # Plain catalog names: MkDocs itself, not qbank.bank.markup, puts names into the theme.
    xss.write_bank(content, "unsafe", hostile_names=False)
    for path in (content / xss.TOPIC_DIR).glob("*.yaml"):
        if "tags:" in path.read_text("utf-8"):
            path.unlink()  # a tag outside the pattern cannot be forced past the model
    monkeypatch.setattr(qbank.bank.rules, "unsafe_parts", lambda text: [])
    monkeypatch.setattr(qbank.bank.rules, "local_images", lambda text: [])
    site = xss.build_rendered(tmp_path, content)
    assert len(list((site / "en/web/t").glob("index.html"))) == 1
    # the topic's page and its numbered parts (more questions than a page holds)
    pages = [site / "en/web/t/index.html", *sorted(site.glob("en/web/t--*/index.html"))]
    page = "".join(path.read_text("utf-8") for path in pages)
    assert page.count('class="qb-q"') == len(list((content / xss.TOPIC_DIR).glob("*.yaml")))
    assert xss.inert_problems(site) == []
    assert "evil.example" not in page  # no remote script, style or image survives


if __name__ == "__main__":  # pragma: no cover - a manual look at one bank
    xss.write_bank(Path(sys.argv[1]), sys.argv[2])
