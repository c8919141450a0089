"""axe-core's serious and critical findings, and switching the colour scheme."""

from __future__ import annotations

from typing import Any


def serious(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    # Material's floating "Back to top" button covers whatever content is under it while the
    # reader scrolls up; axe then measures that content against the button's colours, and the
    # result depends on the scroll position. Audit the page at rest, at the top.
    # Scrolling back up makes Material's header swap the page title for the site's, which
    # fades: wait until that and any other colour transition has ended (axe would read a
    # colour halfway between the two).
    page.evaluate(
        """async () => {
            window.scrollTo(0, 0);
            const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
            for (let round = 0; round < 20; round++) {
                await frame();
                await frame();
                const running = document.getAnimations()
                    .filter((a) => a instanceof CSSTransition && a.playState === "running");
                if (!running.length && round >= 2) return;  // (and none started late)
                await Promise.all(running.map((a) => a.finished.catch(() => null)));
            }
        }"""
    )
    # (through element.style: the page's Content-Security-Policy refuses an added <style>)
    page.evaluate(
        "document.querySelectorAll('.md-top')"
        ".forEach((e) => e.style.setProperty('display', 'none', 'important'))"
    )
    results = Axe().run(page)
    found = [
        f"{v['id']} ({v['impact']}): "
        f"{[(n['target'], n.get('failureSummary', '')) for n in v['nodes']][:5]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    # axe gives a <label> Chromium's role for it, which may be named, and so passes an
    # aria-label there; ARIA in HTML gives a <label> no role, which prohibits naming it
    # (axe without Chromium's roles, and other checkers, report aria-prohibited-attr).
    named = page.evaluate(
        "() => [...document.querySelectorAll('label[aria-label], label[aria-labelledby]')]"
        ".map((e) => e.outerHTML.slice(0, 160))"
    )
    if named:
        found.append(f"aria-prohibited-attr (serious): {named[:5]}")
    return found


def scheme(page: Any, scheme: str) -> None:
    """Switch the palette and wait until the colour transitions it starts have ended (axe
    would otherwise read a colour halfway between the two palettes). Questions away from the
    viewport are not rendered (qbank.css: content-visibility), so they would change palette,
    transitions and all, only when axe reads them: every question is rendered first."""
    page.evaluate(
        """(scheme) => {
            document.querySelectorAll('.qb-q').forEach(
                (q) => q.style.setProperty('content-visibility', 'visible'));
            document.body.getBoundingClientRect();
            document.body.setAttribute('data-md-color-scheme', scheme);
            return Promise.all(document.getAnimations()
                .filter((a) => a instanceof CSSTransition)
                .map((a) => a.finished.catch(() => null)));
        }""",
        scheme,
    )
