"""The "Your box" page's list of printed items is seen and touched at the kiosk's screen sizes, in
both languages (docs/box.md "Copying at the kiosk"; issue 37: an owner picks there what to copy
next). On a touch screen with the demo box: each game chosen by touch in the top bar shows at least
six of its kinds whole inside the list (all of them where it has fewer), the page never scrolls, and
the last kind's "Copy", reached by scrolling the list within itself, opens its form with that kind
still in view and only its "Copy" pressed. The old page's narrow column showed no whole kind at
1280×720 in English (the game buttons, the long progress line and the two file buttons took its
height) and its "Copy" buttons could not be touched there; it pressed the "Copy" of every kind
copied by the same form."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect
from serving import Server, start_server

pytestmark = pytest.mark.browser

WAIT_MS = 10_000  # a bound on waiting for the page, not a speed requirement
expect.set_options(timeout=WAIT_MS)
ENOUGH = 6
"""Kinds a player must see at once to choose among them without hunting (the task's figure)."""
SIZES = [(1280, 720), (1920, 1080)]
GAMES = 3
"""The shipped games (Don't Starve, Greenwood, Stonesaga): a button each in the top bar."""
BY_FILE = {"zh": "从文件导入", "en": "by file"}
"""What a kind the page does not copy shows in place of its "Copy" button."""
ONLY_FILE = {
    "zh": "这个游戏的盒子只能用盒子文件录入",
    "en": "This game's box comes in as a box file only",
}
"""The next step of a game whose box the page copies nothing of."""
BRING_IN = {"zh": "“导入盒子文件”", "en": "“Bring in a box file”"}
"""The button that instructions name, as the page prints its label."""

WHOLE_ROWS = """() => {
  const list = document.getElementById("box-kinds").getBoundingClientRect();
  const bottom = Math.min(list.bottom, window.innerHeight);
  const rows = [...document.querySelectorAll("#box-kinds li")];
  const whole = rows.filter((li) => {
    const r = li.getBoundingClientRect();
    return r.height > 0 && r.top >= list.top - 0.5 && r.bottom <= bottom + 0.5;
  });
  return { whole: whole.length, rows: rows.length };
}"""
"""How many of the list's rows lie whole inside the list's box (and the window), of how many."""
WHOLE_IN_LIST = """(kind) => {
  const list = document.getElementById("box-kinds").getBoundingClientRect();
  const r = document.querySelector(`#box-kinds li[data-kind="${kind}"]`).getBoundingClientRect();
  return r.top >= list.top - 0.5 && r.bottom <= Math.min(list.bottom, window.innerHeight) + 0.5;
}"""
"""Whether the kind's row lies whole inside the list's box (and the window)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A kiosk on an empty data folder: every game's box is the demo box."""
    srv = start_server(tmp_path_factory.mktemp("box-list"))
    try:
        yield srv
    finally:
        srv.stop()


def page_scrolls(page: Any) -> bool:
    """Whether the page itself is taller or wider than the window."""
    return bool(
        page.evaluate(
            """() => document.scrollingElement.scrollHeight > window.innerHeight
                 || document.scrollingElement.scrollWidth > window.innerWidth"""
        )
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_list_of_printed_items_shows_enough_kinds_to_touch(
    server: Server, browser: Any, size: tuple[int, int], lang: str
) -> None:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"{server.url}/box?lang={lang}")
        games = page.locator("#box-games button")
        expect(games).to_have_count(GAMES)
        seen: dict[str, dict[str, int]] = {}
        for n in range(GAMES):
            button = games.nth(n)
            button.tap()
            expect(button).to_have_attribute("aria-pressed", "true")
            title = button.inner_text()
            # the list is the game's own (the line no longer repeats the game's name)
            expect(page.locator("#box-kinds")).to_have_attribute(
                "data-game", str(button.get_attribute("data-game"))
            )
            expect(page.locator("#box-line")).not_to_contain_text(title)
            seen[title] = page.evaluate(WHOLE_ROWS)
            assert not page_scrolls(page), (title, size, lang)
        short = {g: s for g, s in seen.items() if s["whole"] < min(ENOUGH, s["rows"])}
        assert not short, short
        # A game none of whose printed items the page copies (Stonesaga's) says at once that
        # its box comes in as a file and how, where it said "Touch a kind on the left".
        page.locator('#box-games button[data-game="stonesaga"]').tap()
        expect(page.locator("#box-kinds")).to_have_attribute("data-game", "stonesaga")
        expect(page.locator("#box-kinds li button")).to_have_count(0)
        expect(page.locator("#box-next")).to_have_text(ONLY_FILE[lang])
        expect(page.locator("#box-say")).to_contain_text(BRING_IN[lang])
        # A kind the page does not copy says where it comes from instead of showing no button
        # (Don't Starve's character cards come in with a box file), in the page's language.
        games.first.tap()
        expect(games.first).to_have_attribute("aria-pressed", "true")
        by_file = page.locator("#box-kinds li:not(:has(button))")
        expect(by_file.first).to_be_visible()
        hows = by_file.locator(".kind-how").all_inner_texts()
        assert len(hows) == by_file.count() and set(hows) == {BY_FILE[lang]}, hows
        # The last kind the page copies, reached by scrolling the list, is touched: its form
        # opens beside the list and the kind stays in view.
        games.first.tap()
        expect(games.first).to_have_attribute("aria-pressed", "true")
        last = page.locator("#box-kinds li:has(button)").last
        kind = last.get_attribute("data-kind")
        last.locator("button").tap()
        expect(page.locator("#box-work")).to_be_visible()
        expect(last.locator("button")).to_have_attribute("aria-pressed", "true")
        expect(page.locator('#box-kinds button[aria-pressed="true"]')).to_have_count(1)
        assert page.evaluate(WHOLE_IN_LIST, kind), (kind, size, lang)
        assert not page_scrolls(page), (kind, size, lang)
        page.locator("#box-giveup").tap()
        expect(page.locator("#box-work")).to_be_hidden()
    finally:
        context.close()
