"""Material's copy button on a question's code block (the default features' content.code.copy)
in real Chromium over a real build of the small bank with qbank's default features: the button
is there, named, reachable by keyboard, and clicking it puts the code on the clipboard without
a Content-Security-Policy violation."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import yaml
from playwright.sync_api import expect
from sitebuild import build_site, write_small_bank

pytestmark = pytest.mark.browser

TOPIC = "en/ml-engineer/throughput/"
PINNED = "01a05d13-8d21-739a-baa2-7dab67be4002"  # its prompt holds a Python code block
CODE = "loader = DataLoader(ds, pin_memory=True)"
TWO = "01a05d13-8d21-739a-baa2-7dab67be40c0"  # code in its prompt and in its explanation
TWO_QUESTION = {
    "id": TWO,
    "difficulty": 1,
    "prompt": {"en": "What does this print?\n\n```python\nprint(len([1, 2]))\n```"},
    "options": {"a": {"en": "2"}, "b": {"en": "1"}},
    "answer": "a",
    "explanation": {"en": "The list has two items:\n\n```python\nassert len([1, 2]) == 2\n```"},
}

# Kept before any page script runs, across the documents of the page.
LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`);
});
"""


@pytest.fixture(scope="module")
def default_site(
    tmp_path_factory: pytest.TempPathFactory, folder_server: Callable[..., Any]
) -> Iterator[str]:
    """The small bank built with no theme features of its own (qbank's defaults)."""
    tmp = tmp_path_factory.mktemp("copy-site")
    with folder_server(tmp / "site") as url:
        try:
            content = write_small_bank(tmp / "content")
            extra = content / "ml-engineer" / "throughput" / "two-blocks.yaml"
            extra.write_text(yaml.safe_dump(TWO_QUESTION), "utf-8")
            build_site(
                tmp,
                content,
                theme={"name": "material", "font": False},
                site_url=url,
            )
        except subprocess.CalledProcessError as error:
            pytest.fail(f"mkdocs build failed:\n{error.stdout}\n{error.stderr[-3000:]}")
        yield url


def test_copy_button_puts_the_question_code_on_the_clipboard(
    browser: Any, default_site: str
) -> None:
    context = browser.new_context(base_url=default_site)
    origin = default_site.rstrip("/")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin)
    context.add_init_script(LISTEN)
    page = context.new_page()
    try:
        page.goto(TOPIC)
        block = page.locator(f"#q-{PINNED} .highlight").first
        expect(block).to_contain_text(CODE)
        button = block.locator('button.md-code__button[data-md-type="copy"]')
        expect(button).to_have_count(1)
        assert button.get_attribute("title")  # "Copy to clipboard", in the page's language
        button.focus()  # a button: reachable and operable by keyboard
        page.keyboard.press("Enter")
        page.wait_for_function("navigator.clipboard.readText().then((t) => t.length > 0)")
        assert page.evaluate("navigator.clipboard.readText()").strip() == CODE
        page.evaluate("navigator.clipboard.writeText('')")
        button.click()
        page.wait_for_function("navigator.clipboard.readText().then((t) => t.length > 0)")
        assert page.evaluate("navigator.clipboard.readText()").strip() == CODE
        # a question with two blocks: each button copies its own block
        question = page.locator(f"#q-{TWO}")
        question.locator("details.qb-answer > summary").click()
        buttons = question.locator('button.md-code__button[data-md-type="copy"]')
        expect(buttons).to_have_count(2)
        for n, code in enumerate(("print(len([1, 2]))", "assert len([1, 2]) == 2")):
            page.evaluate("navigator.clipboard.writeText('')")
            buttons.nth(n).click()
            page.wait_for_function("navigator.clipboard.readText().then((t) => t.length > 0)")
            assert page.evaluate("navigator.clipboard.readText()").strip() == code
        assert page.evaluate("window.__violations") == []
    finally:
        context.close()


def test_code_drawn_by_a_practice_session_has_a_copy_button_too(
    browser: Any, default_site: str
) -> None:
    """Material mounts its buttons on the code a page loads with; a practice session draws its
    questions later, from the practice data: their code gets the same button, which works."""
    context = browser.new_context(base_url=default_site)
    context.grant_permissions(
        ["clipboard-read", "clipboard-write"], origin=default_site.rstrip("/")
    )
    context.add_init_script(LISTEN)
    page = context.new_page()
    try:
        page.goto("en/ml-engineer/practice/")
        page.locator(".qb-practice-count").fill("100")
        page.locator(".qb-start").click()
        card = page.locator(".qb-practice-q")
        expect(card).to_be_visible()
        copied = []
        for _ in range(60):  # skip through the session (every junior question of the field)
            if not card.is_visible():
                break
            blocks = card.locator("div.highlight")
            for n in range(blocks.count()):
                block = blocks.nth(n)
                if not block.is_visible():
                    continue
                button = block.locator('button.md-code__button[data-md-type="copy"]')
                expect(button).to_have_count(1)
                assert button.get_attribute("title") == "Copy to clipboard"
                page.evaluate("navigator.clipboard.writeText('')")
                button.click()
                page.wait_for_function("navigator.clipboard.readText().then((t) => t.length > 0)")
                text = page.evaluate("navigator.clipboard.readText()").strip()
                assert text == block.locator("code").inner_text().strip()
                copied.append(text)
            skip = page.locator(".qb-practice-actions button", has_text="Skip")
            if not skip.is_visible():
                break
            skip.click()
        assert CODE in copied, copied
        assert page.evaluate("window.__violations") == []
    finally:
        context.close()
