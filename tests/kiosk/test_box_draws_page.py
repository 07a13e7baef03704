"""The table's draws by touch in a real Chromium (docs/box.md): a Don't Starve game with
draws "table" on a kiosk with no simulation, its weather card entered on the console by its
symbols, then kept in the owner's box and picked by its title in the next game
(dont-starve.zh.md §准备阶段 抽取天气卡, §天气阶段)."""

from __future__ import annotations

import json

import pytest
from console_clicks import click_move, find, offers
from playwright.sync_api import expect
from serving import Server, post

pytestmark = pytest.mark.browser

WAIT_MS = 10_000  # a bound on waiting for the page, not a speed requirement
expect.set_options(timeout=WAIT_MS)
ENTERED = {
    "type": "dont_starve.weather_card",
    "seat": 0,
    "season": "autumn",
    "left_wet": 2,
    "right_overheat": 1,
    "hunger": 1,
    "world": ["monster_refresh"],
}
"""A card the demo box does not hold: wet wet | storm | overheat, its event 1 hunger."""


def new_game(server: Server) -> None:
    options = {"characters": ["wilson", "wendy"], "scenario": "a_new_beginning"}
    post(server, "/api/new-game", {"game": "dont_starve", "players": 2, "options": options})


def test_a_weather_card_entered_by_touch_is_the_one_announced_and_kept(
    shared_server: Server, page
) -> None:
    new_game(shared_server)
    page.goto(shared_server.url + "/?lang=en")
    expect(page.locator("#console .seat-group").first).to_be_visible()
    assert find(offers(shared_server.url), {**ENTERED}) is not None
    answer = click_move(page, shared_server.url, ENTERED)
    assert answer.endswith("accepted"), answer
    expect(page.locator("#log")).to_contain_text("wet | wet | storm | overheat")
    box = json.loads((shared_server.data_dir / "boxes" / "dont_starve.json").read_text())
    (item,) = [k for k in box["items"] if k.startswith("weather/card/")]
    assert json.loads(json.dumps(box["items"][item]))["symbols"] == [
        "wet",
        "wet",
        "storm",
        "overheat",
    ]
    # The next game's console offers it by its title, as the owner's card (no demo mark).
    new_game(shared_server)
    page.reload()
    card = item.rsplit("/", 1)[1]
    picked = {"type": "dont_starve.weather_card", "seat": 0, "card": card}
    found = find(offers(shared_server.url), picked)
    assert found is not None
    answer = click_move(page, shared_server.url, picked)
    assert answer.endswith("accepted"), answer
    expect(page.locator("#log")).to_contain_text("wet | wet | storm | overheat")
