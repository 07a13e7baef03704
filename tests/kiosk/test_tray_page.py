"""The tray page in a real Chromium against a real `tablesight run` (issue 13, "the table
screen"): each tray says whose dice it holds and what for, each lit slot names its die, the round
track has a legend that follows ``kiosk.leds.track_layout``, a lit LED's number stays readable,
and the Chinese view has no Latin word. Screenshots at 1920×1080 in out/screenshots/tray-*.png."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect
from serving import Server, post

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "out" / "screenshots"
EXAMPLE = ROOT / "docs" / "examples" / "dont_starve.jsonl"
expect.set_options(timeout=10_000)


@pytest.fixture
def fight(shared_server: Server) -> Server:
    """Don't Starve, round 1, Wilson (player 1, purple) fighting: 1 character and 2 monster
    dice on the trays; the example game's moves up to that fight."""
    lines = [json.loads(line) for line in EXAMPLE.read_text(encoding="utf-8").splitlines()]
    setup = dict(lines[0]["setup"])
    players = setup.pop("players")
    post(
        shared_server,
        "/api/new-game",
        {
            "game": "dont_starve",
            "players": players,
            "options": setup,
            "seed": lines[0]["seed"],
            "seats": [{"colour": "purple"}, {"colour": "orange"}],
        },
    )
    for move in lines[1:7]:
        post(shared_server, "/api/move", move)  # one refused on the way, as in the example
    status = get_status(shared_server)
    assert status["dice"]["dice"] == ["character", "monster", "monster"]
    return shared_server


def get_status(server: Server) -> dict:
    return httpx.get(server.url + "/api/status?lang=en", timeout=10).json()


def rgb(css: str) -> tuple[int, ...]:
    return tuple(int(v) for v in re.findall(r"\d+", css)[:3])


def open_tray(page, server: Server, lang: str) -> None:
    page.goto(f"{server.url}/tray?lang={lang}")
    expect(page.locator("#legend .legend-item").first).to_be_visible()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_trays_say_whose_dice_and_what_for_and_each_slot_names_its_die(
    fight: Server, page, lang: str
) -> None:
    open_tray(page, fight, lang)
    trays = page.locator("#trays .tray")
    expect(trays).to_have_count(2)
    expect(trays.first.locator(".slot")).to_have_count(8)
    first, second = trays.nth(0), trays.nth(1)
    who, why = ("1号玩家(威尔逊)", "战斗") if lang == "zh" else ("Player 1 (Wilson)", "fight")
    assert who in first.locator(".tray-label").inner_text()
    assert why in first.locator(".tray-why").inner_text()
    names = first.locator(".die-name").all_inner_texts()
    dice = ["角色骰", "怪物骰", "怪物骰"] if lang == "zh" else ["character die", "monster die"]
    assert names[:3] == (dice if lang == "zh" else [dice[0], dice[1], dice[1]])
    assert names[3:] == [""] * 5
    assert second.locator(".tray-label").inner_text().endswith("空着" if lang == "zh" else "empty")


def test_the_legend_follows_the_track_and_names_the_games_phases(fight: Server, page) -> None:
    open_tray(page, fight, "en")
    expect(page.locator("#track .slot")).to_have_count(24)
    legend = page.locator("#legend")
    text = legend.inner_text()
    for phase in get_status(fight)["phases"]:
        assert phase["title"] in text  # every phase of the game, named
    assert "Round 1 of 6: now (pulsing)" in text
    assert "LED 5: the storm comes in round 5 (blinking)" in text
    assert "LED 7: day or night: now day (amber)" in text
    now = legend.locator(".legend-item.now").filter(has_text="LED 9: Action")
    assert "now, in Player 1 (Wilson)'s colour (purple)" in now.inner_text()
    assert "LEDs 14–24: not used (off)" in text
    pulse = page.locator("#track .led[data-effect=pulse]")
    assert pulse.inner_text() == "1"  # round 1 now
    kinds = page.locator("#track .slot").evaluate_all("els => els.map(e => e.dataset.kind)")
    assert kinds == ["round"] * 6 + ["accent"] + ["phase"] * 6 + ["unused"] * 11
    captions = page.locator("#track .track-caption").all_inner_texts()
    assert captions[:3] == ["Rounds", "Day", "Phases"]


def test_a_lit_leds_number_is_readable_whatever_its_colour(fight: Server, page) -> None:
    open_tray(page, fight, "en")
    lit = page.locator("#trays .led:not([data-effect=off]), #track .led:not([data-effect=off])")
    assert lit.count() >= 8  # the dice, the round, the storm, day, a phase done, the phase now
    for i in range(lit.count()):
        colours = lit.nth(i).evaluate(
            "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]"
        )
        text, background = (rgb(c) for c in colours)
        assert text != background
        assert contrast(text, background) >= 4.5, (lit.nth(i).inner_text(), colours)
    white_die = page.locator("#trays .led.on-light").first  # the white character die: dark digits
    assert rgb(white_die.evaluate("e => getComputedStyle(e).color")) == (0, 0, 0)
    purple = page.locator("#track .slot[data-state=current][data-kind=phase] .led")
    assert rgb(purple.evaluate("e => getComputedStyle(e).backgroundColor")) == (160, 60, 255)


def test_the_chinese_view_has_no_latin_word_and_screenshots_in_both_languages(
    fight: Server, page
) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for lang in ("zh", "en"):
        open_tray(page, fight, lang)
        sizes = page.locator("main *").evaluate_all(
            "els => els.filter(e => e.childNodes.length && [...e.childNodes].some("
            "n => n.nodeType === 3 && n.textContent.trim())).map(e => parseFloat("
            "getComputedStyle(e).fontSize))"
        )
        assert min(sizes) >= 28, sizes  # 1rem at 1920×1080
        if lang == "zh":
            words = re.findall(r"[A-Za-z]{2,}", page.locator("main").inner_text())
            assert words == []
        page.screenshot(path=str(SCREENSHOTS / f"tray-{lang}.png"), full_page=True)
        tall = page.evaluate("document.documentElement.scrollHeight")
        assert tall <= 1080, f"{lang}: the page scrolls ({tall} px tall)"
        # The legend spans the page (a style of another page once squeezed it into a column).
        widths = page.locator("#legend .legend-group").evaluate_all(
            "els => els.map(e => e.getBoundingClientRect().width)"
        )
        assert len(widths) == 3 and sum(widths) > 1920 * 0.8, widths


def test_with_no_dice_the_trays_say_so(fresh: Server, page) -> None:
    open_tray(page, fresh, "en")
    labels = page.locator("#trays .tray-label").all_inner_texts()
    assert [" ".join(label.split()) for label in labels] == [
        "Tray 1 No dice to roll now",
        "Tray 2 No dice to roll now",
    ]
    assert "LED 4: this game has no day and night (off)" in page.locator("#legend").inner_text()


def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    def lum(c: tuple[int, ...]) -> float:
        s = [v / 255 for v in c]
        s = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in s]
        return 0.2126 * s[0] + 0.7152 * s[1] + 0.0722 * s[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_a_page_opened_without_lang_speaks_the_kiosks_language(fight: Server, page) -> None:
    """Issue 24: /tray opened in English on a Chinese kiosk. Without ?lang the tray and the
    set-up pages take the kiosk's setting, not English, nor what this browser chose before."""
    post(fight, "/api/settings", {"lang": "zh"})
    try:
        page.goto(f"{fight.url}/tray?lang=en")
        page.evaluate("localStorage.setItem('lang', 'en')")  # the browser's own, earlier choice
        page.goto(f"{fight.url}/tray")
        expect(page.locator("#legend .legend-item").first).to_be_visible()
        assert "1号玩家(威尔逊)" in page.locator("#trays .tray-label").first.inner_text()
        assert re.findall(r"[A-Za-z]{2,}", page.locator("main").inner_text()) == []
        assert page.evaluate("document.documentElement.lang") == "zh-CN"
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SCREENSHOTS / "tray-zh-kiosk-1920.png")
        page.goto(f"{fight.url}/setup")
        expect(page.locator("h1")).to_have_text(re.compile(r"[\u4e00-\u9fff]"))
        assert page.evaluate("Kiosk.lang") == "zh"
        for other in ("/", "/camera", "/settings", "/calibrate"):  # every page, the same way
            page.goto(f"{fight.url}{other}")
            assert page.evaluate("Kiosk.lang") == "zh", other
            assert page.evaluate("document.documentElement.lang") == "zh-CN", other
        page.goto(f"{fight.url}/tray")
        page.locator("[data-lang=en]").click()  # a choice on this page holds for this page
        assert page.evaluate("Kiosk.lang") == "en" and "lang=en" in page.url
        page.goto(f"{fight.url}/camera")  # and a page opened next follows the kiosk again
        assert page.evaluate("Kiosk.lang") == "zh"
    finally:
        post(fight, "/api/settings", {"lang": "en"})
