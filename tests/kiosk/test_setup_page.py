"""The setup page in a real Chromium against a real `tablesight run`: a game set up by tapping
(game → players → options → the table check → Start), in both languages, on the table's screen
sizes; screenshots of each step go to out/screenshots/setup-*.png."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect
from serving import Server

from kiosk.seats import MAX_NAME

pytestmark = pytest.mark.browser

WAIT_MS = 10_000  # a bound on waiting for the page, not a speed requirement
expect.set_options(timeout=WAIT_MS)
SCREENSHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"
SNAKE = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")
RAW = re.compile(r"[\[\]{}]|\b(True|False|None|null|undefined|NaN)\b")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


@pytest.fixture
def server(fresh: Server) -> Server:
    """The shared server, with a new game for each test (one start for the module)."""
    return fresh


def new_page(browser: Any, width: int = 1920, height: int = 1080, lang: str = "en") -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.problems = problems
    return page


@pytest.fixture
def page(browser):
    page = new_page(browser)
    try:
        yield page
    finally:
        page.context.close()


def status(server: Server) -> dict[str, Any]:
    return httpx.get(server.url + "/api/status", params={"lang": "en"}, timeout=10).json()


def visible_text(page: Any) -> str:
    """What a player reads on the page, without the language switch (each language's own name)."""
    return page.evaluate(
        """() => [document.querySelector('header h1'), document.querySelector('header a'),
                   document.querySelector('main')].map((n) => n.innerText).join('\\n')"""
    )


def option(page: Any, name: str) -> Any:
    return page.locator(f'#options [data-option="{name}"]')


def tap(locator: Any) -> None:
    locator.tap()


def next_step(page: Any, step: str) -> None:
    tap(page.locator("#next"))
    expect(page.locator(f'[data-go="{step}"]')).to_have_attribute("aria-current", "step")


def test_three_players_set_up_greenwood_by_tapping(server: Server, page) -> None:
    page.goto(server.url + "/setup?lang=en")
    expect(page.locator("#next")).to_be_disabled()  # no game chosen yet
    tap(page.locator('[data-game="greenwood"]'))
    next_step(page, "players")
    tap(page.locator('#counts [data-players="3"]'))
    expect(page.locator("#seats .seat")).to_have_count(3)
    for i, (name, colour) in enumerate([("Ann", "purple"), ("Bo", "orange"), ("", "yellow")]):
        if name:
            page.locator(f"#seat-name-{i}").fill(name)
        tap(page.locator(f'#seats [data-seat="{i}"] [data-colour="{colour}"]'))
    next_step(page, "options")
    tap(option(page, "mode").get_by_role("button", name="clan mode"))
    tap(option(page, "start_seat").get_by_role("button", name="Bo"))
    tap(option(page, "tutorial_threats").get_by_role("button", name="Yes"))
    next_step(page, "check")
    with page.expect_request("**/api/new-game?*") as sent:
        tap(page.locator("#start"))
    body = json.loads(sent.value.post_data)
    assert body["options"] == {
        "draws": "table",
        "mode": "clan",
        "layout": 0,
        "start_seat": 1,
        "tutorial_threats": True,
    }
    page.wait_for_url(server.url + "/")
    now = status(server)
    assert now["game"] == "greenwood" and now["players"] == 3 and now["start_player"] == 2
    assert [(s["chosen"], s["colour"]) for s in now["seats"]] == [
        ("Ann", "purple"),
        ("Bo", "orange"),
        (None, "yellow"),
    ]
    assert page.problems == []


def test_dont_starve_characters_are_chips_and_the_scenario_a_list(server: Server, page) -> None:
    page.goto(server.url + "/setup?lang=en")
    tap(page.locator('[data-game="dont_starve"]'))
    next_step(page, "players")
    tap(page.locator('#counts [data-players="2"]'))
    next_step(page, "options")
    characters = option(page, "characters")
    assert characters.locator("input").count() == 0  # chips, not a text box
    expect(characters.locator(".chip")).to_have_text(["Wilson", "Willow", "Wendy", "Webber"])
    tap(characters.get_by_role("button", name="Wendy"))
    tap(characters.get_by_role("button", name="Wilson"))
    expect(characters.locator('[aria-pressed="true"]')).to_have_count(2)
    tap(characters.get_by_role("button", name="Wendy", exact=False))  # a second tap takes it back
    tap(characters.get_by_role("button", name="Webber"))
    tap(option(page, "scenario").get_by_role("button", name="Winter Is Coming"))
    tap(option(page, "structures").get_by_role("button", name="Fire Pit"))
    next_step(page, "check")
    expect(page.locator("#summary")).to_contain_text("Wilson, Webber")
    with page.expect_request("**/api/new-game?*") as sent:
        tap(page.locator("#start"))
    body = json.loads(sent.value.post_data)
    assert body["options"]["characters"] == ["wilson", "webber"]
    assert body["options"]["scenario"] == "winter_is_coming"
    assert body["options"]["structures"] == ["fire pit"]
    page.wait_for_url(server.url + "/")
    assert status(server)["game"] == "dont_starve"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_id_or_raw_value_is_shown_and_each_step_is_photographed(
    server: Server, browser, lang: str
) -> None:
    """Every step of both games in ``lang``: no snake_case id, bracket or True/False/None, and
    in Chinese no Latin word but the players' names; a screenshot of each step at 1920×1080."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page = new_page(browser)
    try:
        for game in ("greenwood", "dont_starve"):
            page.goto(server.url + f"/setup?lang={lang}")
            expect(page.locator(f'[data-game="{game}"]')).to_be_visible()
            texts = [("game", visible_text(page))]
            if game == "greenwood":
                page.screenshot(path=str(SCREENSHOTS / f"setup-1-game-{lang}.png"))
            tap(page.locator(f'[data-game="{game}"]'))
            next_step(page, "players")
            tap(page.locator('#counts [data-players="3"]'))
            page.locator("#seat-name-0").fill("Ann")
            texts.append(("players", visible_text(page)))
            page.screenshot(path=str(SCREENSHOTS / f"setup-2-players-{game}-{lang}.png"))
            next_step(page, "options")
            texts.append(("options", visible_text(page)))
            page.screenshot(path=str(SCREENSHOTS / f"setup-3-options-{game}-{lang}.png"))
            next_step(page, "check")
            expect(page.locator("#checklist .check").first).to_be_visible()
            expect(page.locator("#camera-line")).not_to_have_text(
                "No camera picture yet: check everything by eye"
                if lang == "en"
                else "摄像头还没有画面:全部请目测核对"
            )
            texts.append(("check", visible_text(page)))
            page.screenshot(path=str(SCREENSHOTS / f"setup-4-check-{game}-{lang}.png"))
            for step, text in texts:
                where = f"{game} {step} ({lang})"
                assert not SNAKE.findall(text), f"{where}: {SNAKE.findall(text)}"
                assert not RAW.findall(text), f"{where}: {RAW.findall(text)}"
                if lang == "zh":
                    latin = set(LATIN_WORD.findall(text.replace("Ann", ""))) - {"Ann"}
                    assert not latin, f"{where}: {sorted(latin)}"
        assert page.problems == []
    finally:
        page.context.close()


def test_two_players_cannot_take_one_colour_and_a_long_name_is_refused(
    server: Server, page
) -> None:
    page.goto(server.url + "/setup?lang=en")
    tap(page.locator('[data-game="greenwood"]'))
    next_step(page, "players")
    tap(page.locator('#counts [data-players="2"]'))
    first, second = page.locator('#seats [data-seat="0"]'), page.locator('#seats [data-seat="1"]')
    tap(first.locator('[data-colour="yellow"]'))
    taken = second.locator('[data-colour="yellow"]')
    expect(taken).to_have_attribute("aria-disabled", "true")
    assert taken.get_attribute("title") == "taken by Player 1"
    expect(second.locator(".seat-why")).to_be_hidden()
    # A touch screen shows no tooltip: the touch says why, under the row (force: Playwright
    # will not touch an aria-disabled button by itself; the touch is a real one all the same).
    taken.tap(force=True)
    expect(second.locator(".seat-why")).to_be_visible()
    expect(second.locator(".seat-why")).to_have_text(
        "Player 1 has taken yellow: choose another colour, or ask them to change first"
    )
    expect(second.locator('[aria-pressed="true"]')).not_to_have_attribute("data-colour", "yellow")
    expect(first.locator(".seat-why")).to_be_hidden()
    page.locator("#seat-name-1").fill("x" * (MAX_NAME + 1))
    expect(page.locator("#message")).to_have_text(
        f"Player 2: the name is too long, at most {MAX_NAME} characters (now {MAX_NAME + 1})"
    )
    expect(page.locator("#next")).to_be_disabled()
    expect(page.locator('[data-go="options"]')).to_be_disabled()  # nor can it be jumped over
    page.locator("#seat-name-1").fill("x" * MAX_NAME)
    expect(page.locator("#message")).to_have_text("")
    expect(page.locator("#next")).to_be_enabled()


def test_the_setup_page_starts_a_game_with_the_options_chosen(server: Server, page) -> None:
    """Moved from test_page.py: the options and the save name reach the new game."""
    page.goto(server.url + "/setup")
    tap(page.locator('[data-game="greenwood"]'))
    next_step(page, "players")
    tap(page.locator('#counts [data-players="3"]'))
    next_step(page, "options")
    tap(option(page, "mode").locator("[data-value='\"clan\"']"))
    tap(option(page, "start_seat").locator('[data-value="2"]'))
    next_step(page, "check")
    page.fill("#name", "from the form")
    tap(page.locator("#start"))
    expect(page.locator("#save")).to_contain_text("from the form")
    now = status(server)
    assert now["players"] == 3 and now["start_player"] == 3
    assert "kiosk_demo" not in page.content()


@pytest.mark.parametrize(("width", "height"), [(1280, 720), (1024, 600), (390, 844)])
def test_every_step_fits_the_width_without_scrolling_sideways(
    server: Server, browser, width: int, height: int
) -> None:
    page = new_page(browser, width, height)
    try:
        page.goto(server.url + "/setup?lang=zh")
        tap(page.locator('[data-game="dont_starve"]'))
        tap(page.locator("#next"))
        tap(page.locator('#counts [data-players="4"]'))
        for step in ("players", "options", "check"):
            if step != "players":
                next_step(page, step)
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width, f"{step} at {width}×{height}: {wide} px wide"
            small = page.evaluate(
                """() => [...document.querySelectorAll('main button:not([hidden])')]
                     .filter((b) => b.offsetParent && b.getBoundingClientRect().height < 63.5)
                     .map((b) => b.innerText)"""
            )
            assert small == [], f"{step}: targets under 64 px: {small}"
        if (width, height) == (1280, 720):
            page.screenshot(path=str(SCREENSHOTS / "setup-4-check-1280x720-zh.png"))
    finally:
        page.context.close()


def test_names_are_typed_on_the_on_screen_keyboard_in_latin_and_chinese(
    server: Server, browser
) -> None:
    """No keyboard at the table: touching a name field opens the page's own keys (A–Z, space,
    delete, done, and a page of common Chinese name characters); what is typed reaches the
    seat of the game started; the field asks no system keyboard on a touch screen."""
    page = new_page(browser, 1280, 720, lang="zh")
    try:
        page.goto(server.url + "/setup?lang=zh")
        tap(page.locator('[data-game="greenwood"]'))
        next_step(page, "players")
        keyboard = page.locator("#keyboard")
        expect(keyboard).to_be_hidden()
        tap(page.locator("#seat-name-0"))
        expect(keyboard).to_be_visible()
        assert page.locator("#seat-name-0").get_attribute("inputmode") == "none"
        for key in ["A", "N", "X", "back", "N", "space", "L", "I"]:
            tap(keyboard.locator(f'[data-key="{key}"]'))
        expect(page.locator("#seat-name-0")).to_have_value("ANN LI")
        tap(page.locator("#seat-name-1"))
        tap(keyboard.locator('[data-key="page"]'))
        expect(keyboard.locator('[data-key="page"]')).to_have_text("ABC 字母")
        for key in ["小", "明"]:
            tap(keyboard.locator(f'[data-key="{key}"]'))
        expect(page.locator("#seat-name-1")).to_have_value("小明")
        tap(keyboard.locator('[data-key="done"]'))
        expect(keyboard).to_be_hidden()
        next_step(page, "options")
        expect(option(page, "start_seat").get_by_role("button", name="小明")).to_be_visible()
        next_step(page, "check")
        tap(page.locator("#start"))
        page.wait_for_url(server.url + "/?lang=zh")  # the set-up page's language (issue 38)
        assert [s["chosen"] for s in status(server)["seats"]] == ["ANN LI", "小明"]
        assert page.problems == []
    finally:
        page.context.close()


def test_a_refused_start_says_why_in_the_pages_language(server: Server, browser) -> None:
    """A save name typed on the keys that is taken already: the page says so in Chinese on a
    Chinese page (no English, no raw text), and in English on an English one; no game starts."""

    def start_named(lang: str) -> Any:
        page = new_page(browser, 1280, 720, lang=lang)
        page.goto(server.url + f"/setup?lang={lang}")
        tap(page.locator('[data-game="greenwood"]'))
        for step in ("players", "options", "check"):
            next_step(page, step)
        tap(page.locator("#name"))
        keyboard = page.locator("#keyboard")
        for key in ["T", "E", "A"]:
            tap(keyboard.locator(f'[data-key="{key}"]'))
        tap(keyboard.locator('[data-key="done"]'))
        tap(page.locator("#start"))
        return page

    first = start_named("zh")
    try:
        first.wait_for_url(server.url + "/?lang=zh")  # the set-up page's language (issue 38)
        assert status(server)["save"] == "TEA"
    finally:
        first.context.close()
    for lang, words in (("zh", "已经有叫「TEA」的存档了"), ("en", "A saved game called 'TEA'")):
        page = start_named(lang)
        try:
            expect(page.locator("#message")).to_contain_text(words)
            said = page.locator("#message").inner_text()
            if lang == "zh":
                assert not LATIN_WORD.search(said.replace("TEA", "")), said
            assert not RAW.search(said), said
            assert page.url.startswith(server.url + "/setup")
        finally:
            page.context.close()


def test_an_optional_number_says_not_set_once_and_is_cleared_by_a_touch(
    server: Server, page
) -> None:
    """Stonesaga's population (stonesaga.zh.md §战役: blank is a campaign's start): the stepper
    read "人口 − 不指定 + ✔不指定", the value twice (issue 38)."""
    page.goto(server.url + "/setup?lang=zh")
    tap(page.locator('[data-game="stonesaga"]'))
    if page.locator('[data-go="campaign"]').is_visible():  # a campaign was played before
        next_step(page, "campaign")
        tap(page.locator('[data-campaign=""]'))  # a new one
    next_step(page, "players")
    next_step(page, "options")
    population = option(page, "population")
    expect(population.locator("output")).to_have_text("不指定")
    assert population.inner_text().count("不指定") == 1
    tap(population.locator('[data-step="1"]'))
    expect(population.locator("output")).to_have_text("0")  # a first step sets it from 0
    clear = population.locator('[data-value="null"]')
    expect(clear).to_have_text("不指定")
    tap(clear)
    expect(population.locator("output")).to_have_text("不指定")
    expect(clear).to_have_count(0)
    assert page.problems == []
