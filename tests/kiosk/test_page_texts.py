"""Every page of the kiosk, in both languages, reads as words players know (issue 13): no
snake_case id, bracket or brace, no True/False/None, no file name, and in the Chinese view no
Latin word (the language switch, which names English in English, aside); and axe-core finds no
text below WCAG AA contrast. The table page is checked at every moment of each scripted session
in tests/e2e/test_table_screen.py; here every page, on a game in progress."""

from __future__ import annotations

import re

import pytest
from serving import Server, post

pytestmark = pytest.mark.browser

PAGES = {
    "/": "#phase:not(:empty)",
    "/setup": "#games [data-game]",
    "/settings": "#brightness",
    "/tray": "#trays .tray",
    "/camera": "#sheets a",
    "/calibrate": "#run",
}
SNAKE = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")
RAW = re.compile(
    r"[\[\]{}]|\b(True|False|None|null|undefined|NaN)\b|\.(md|pdf|svg|png|toml|json)\b"
)
LATIN = re.compile(r"[A-Za-z]{2,}")


def visible_text(page) -> str:
    """What a player reads: the page's visible text without the language switch."""
    return page.evaluate(
        """() => {
          const langs = [...document.querySelectorAll(".langs")];
          for (const node of langs) node.style.setProperty("display", "none");
          const text = document.body.innerText;
          for (const node of langs) node.style.removeProperty("display");
          return text;
        }"""
    )


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_page_reads_as_words_in_each_language(fresh: Server, page, lang: str) -> None:
    for seat in (0, 1):  # a game under way: the night, with a log (§三.2: the marker first)
        marker = {"type": "greenwood.dusk_marker", "seat": seat, "effect": "recruit"}
        assert post(fresh, "/api/move", marker)["accepted"]
        assert post(fresh, "/api/move", {"type": "pass", "seat": seat})["accepted"]
    problems = []
    for path, ready in PAGES.items():
        page.goto(f"{fresh.url}{path}?lang={lang}")
        page.locator(ready).first.wait_for()
        page.wait_for_timeout(300)  # the page's second request (readings, camera) answered
        for line in visible_text(page).splitlines():
            if line.strip() in ("中文", "English"):  # a language named in itself (settings)
                continue
            if SNAKE.search(line) or RAW.search(line):
                problems.append(f"{path}: {line!r}")
            if lang == "zh" and LATIN.search(line):
                problems.append(f"{path} (zh): {line!r}")
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_page_has_text_below_aa_contrast(fresh: Server, page, lang: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    found = []
    for path, ready in PAGES.items():
        page.goto(f"{fresh.url}{path}?lang={lang}")
        page.locator(ready).first.wait_for()
        result = axe.run(page, options={"runOnly": ["color-contrast"]})
        found += [
            f"{path}: {node['target']} {node.get('failureSummary', '')[:200]}"
            for violation in result.response["violations"]
            for node in violation["nodes"]
        ]
    assert found == []
