"""The players' console read and touched as a group meets it at the start of each game, in a
real Chromium at 1920×1080 and 1280×720, in Chinese and English (issue 38):

- every seat that may act now (everyone at once: several) has its moves open now inside the
  console's box, none under its fold (the third Greenwood player's and the second Don't Starve
  player's were);
- every button's words in at most two lines, never under 1rem (docs/kiosk.md: nothing a player
  reads is smaller; Don't Starve's wrapped to 3–4 lines in three columns);
- the creation dice each named once ("第1颗骰 · 第 1 颗" said it twice), and five 1s for a box
  that asks for 14 answered with what the rules say (stonesaga.zh.md §创造角色.1: 反复重掷直到五骰
  之和 ≥ 14) before "Do it" and after it, not a bare "accepted".

Screenshots go to out/screenshots/console-*.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from console_clicks import answer_to, click_move, offers
from playwright.sync_api import expect
from serving import Server, post

pytestmark = pytest.mark.browser

WAIT_MS = 10_000  # a bound on waiting for the page, not a speed requirement
expect.set_options(timeout=WAIT_MS)
SHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"
SIZES = [(1920, 1080), (1280, 720)]
DS = {"scenario": "a_new_beginning", "difficulty": "classic"}
STARTS = {
    "greenwood-3": ("greenwood", 3, {}),
    "greenwood-4-dusk": ("greenwood", 4, {"draws": "virtual", "start_seat": 0}),
    "dont_starve-2": ("dont_starve", 2, {}),
    "dont_starve-2-day": (
        "dont_starve",
        2,
        {**DS, "characters": ["wilson", "willow"], "draws": "virtual"},
    ),
    "dont_starve-1-day": ("dont_starve", 1, {**DS, "characters": ["wilson"], "draws": "virtual"}),
    "stonesaga-2": ("stonesaga", 2, {}),
}
"""The openings of the games as a group sets them up: the table's draws first (Greenwood's
threat card and start player, Don't Starve's weather card and needs tile: every seat may give
them), the day a virtual draw opens with (everyone at once), a solo day, Stonesaga's creation."""

READ = """
() => {
  // Each button of the console: its words, how many lines they take, their size against
  // 1rem, whose it is, whether it is open, and whether it lies inside the console's box.
  const box = document.getElementById("console").getBoundingClientRect();
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
  return [...document.querySelectorAll("#console .offer")].filter((b) => b.getClientRects().length)
    .map((b) => {
      const label = b.querySelector(".offer-label");
      const style = getComputedStyle(label);
      const r = b.getBoundingClientRect();
      return {
        words: b.getAttribute("aria-label") || label.textContent,
        offer: b.dataset.offer || "",
        lines: label.getBoundingClientRect().height / parseFloat(style.lineHeight),
        px: parseFloat(style.fontSize), rem,
        inside: r.top >= box.top - 1 && r.bottom <= box.bottom + 1,
      };
    });
}
"""


def open_table(browser: Any, server: Server, lang: str, size: tuple[int, int]) -> Any:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(f"{server.url}/?lang={lang}")
    page.locator("#console .offer").first.wait_for()
    # measured once the page's fonts are in and the panels are sized
    page.evaluate(
        "() => document.fonts.ready.then(() => new Promise((r) => "
        "requestAnimationFrame(() => requestAnimationFrame(r))))"
    )
    return page


def start(server: Server, name: str) -> None:
    game, players, options = STARTS[name]
    post(server, "/api/new-game", {"game": game, "players": players, "options": options, "seed": 6})


@pytest.mark.parametrize("name", list(STARTS))
def test_every_seat_that_may_act_has_its_moves_in_view_and_each_button_reads_in_two_lines(
    shared_server: Server, browser: Any, name: str
) -> None:
    start(shared_server, name)
    problems: list[str] = []
    for lang in ("zh", "en"):
        console = httpx.get(shared_server.url + "/api/offers", params={"lang": lang}, timeout=10)
        groups = console.json()["groups"]
        wanted = {  # every seat's moves open now (a greyed one may wait below: it says why)
            f"{gi}.{oi}": f"{g['name']}: {o['label']}"
            for gi, g in enumerate(groups)
            if g["seat"] is not None
            for oi, o in enumerate(g["offers"])
            if o["ok"] and o["kind"] in ("main", "dice")
        }
        assert wanted, f"{name}: nothing open to check"
        for size in SIZES:
            page = open_table(browser, shared_server, lang, size)
            try:
                where = f"{name} {lang} {size[0]}×{size[1]}"
                SHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SHOTS / f"console-{name}-{lang}-{size[0]}.png"))
                buttons = page.evaluate(READ)
                shown = {b["offer"]: b for b in buttons}
                for offer, words in wanted.items():
                    if offer not in shown:
                        problems.append(f"{where}: {words} not drawn")
                    elif not shown[offer]["inside"]:
                        problems.append(f"{where}: {words} under the console's fold")
                for b in buttons:
                    if b["lines"] > 2.2:
                        problems.append(f"{where}: {b['words']!r} in {b['lines']:.1f} lines")
                    if b["px"] < b["rem"] - 0.1:
                        problems.append(f"{where}: {b['words']!r} at {b['px']} px < 1rem")
            finally:
                page.context.close()
    assert problems == [], "\n".join(problems)


def test_the_last_seat_gives_the_table_draw_by_touch(shared_server: Server, browser: Any) -> None:
    """greenwood.zh.md §一.10 (the start player): the third seat's own button, in view at the
    start, makes the move (the console still spells each seat's moves as its own)."""
    start(shared_server, "greenwood-3")
    page = open_table(browser, shared_server, "en", (1280, 720))
    try:
        seats = [g["seat"] for g in offers(shared_server.url)["groups"]]
        assert seats == [0, 1, 2], seats  # everyone may give it
        move = {"type": "greenwood.start_player", "seat": 2, "player": 1}
        assert click_move(page, shared_server.url, move).endswith("accepted")
        expect(page.locator("#moves")).to_have_text("1 moves saved")
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_creation_dice_are_named_once_and_five_ones_are_told_to_roll_again(
    shared_server: Server, browser: Any, lang: str
) -> None:
    """stonesaga.zh.md §创造角色.1: 掷五颗骰,反复重掷直到五骰之和 ≥ 14. Five 1s are noted (the
    referee takes the roll), and the picker says before "Do it" and the answer after it that
    they sum to 5, under 14, and are all rolled again."""
    start(shared_server, "stonesaga-2")
    page = open_table(browser, shared_server, lang, (1280, 720))
    try:
        roll = page.locator(
            '#console .seat-group[data-seat="1"] .offer[data-move="stonesaga.creation_roll"]'
        )
        roll.click()
        expect(page.locator("#picker")).to_be_visible()
        names = page.locator("#picker .die-name").all_inner_texts()
        assert len(names) == 5
        for k, text in enumerate(names, 1):
            assert text.count(str(k)) == 1, f"die {k} named as {text!r}"
        for k in range(5):
            page.locator(f'#picker .die-row[data-index="{k}"] .face[data-face="0"]').click()
        why = page.locator("#picker-why")
        expect(why).to_contain_text("14")
        expect(why).to_contain_text("重掷" if lang == "zh" else "roll all five again")
        expect(page.locator("#picker-do")).to_be_enabled()
        answer = answer_to(page, page.locator("#picker-do"))
        assert "14" in answer and ("重掷" in answer if lang == "zh" else "again" in answer)
        expect(page.locator("#moves")).to_have_text(
            "已记录 1 步" if lang == "zh" else "1 moves saved"
        )
    finally:
        page.context.close()
