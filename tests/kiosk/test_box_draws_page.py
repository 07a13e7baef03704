"""The table's draws by touch in a real Chromium (docs/box.md): a one-player Don't Starve game
with draws "table" on a kiosk with no simulation, played by clicking the console through its
first weather phase (dont-starve.zh.md §准备阶段 抽取天气卡, §天气阶段, §天气与需求):

- its weather card entered on the console by its symbols: the losses announced are that card's,
  and the card is kept in the owner's box and picked by its title in the next game;
- its weather card picked by its title from a box brought in by `tablesight box import`: the
  losses announced are those printed on the owner's card, not the demo card of the same id."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
import tomli_w
from console_clicks import click_move, find, offers
from playwright.sync_api import expect
from serving import Server, post

from kiosk.cli import main

pytestmark = pytest.mark.browser

WAIT_MS = 10_000  # a bound on waiting for the page, not a speed requirement
expect.set_options(timeout=WAIT_MS)
REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "docs" / "examples" / "dont_starve-table.jsonl"
ROUND = [4, 6, 7, 9, 10, 11, 12, 13, 14, 15]
"""The example's accepted lines after the weather card, through the weather phase: the needs
tile, the move to E (a forest), explore, its location card, then the passes of the action
dial, the needs phase and the weather phase (the example's own refusals left out)."""
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
ENTERED_LOSSES = "loses 3 hunger, 2 sanity"
"""§天气与需求: before the storm marker the wets left of the storm icon count (wet: lose sanity
and hunger), ×2, and the card's event costs 1 hunger: 3 hunger, 2 sanity."""
FROST = {
    "id": "autumn-3",
    "title_zh": "霜降",
    "title_en": "Frost's Descent",
    "season": "autumn",
    "symbols": ["cold", "cold", "storm", "wet"],
    "event": [1, 0, 0],
    "world": [],
}
"""The owner's printed autumn-3 (the demo's is 'First Frost': cold | storm | cold, 1 sanity)."""
FROST_LOSSES = "loses 3 health, 2 hunger"
"""§天气与需求: cold ×2 before the storm icon (cold: lose health and hunger) and the event's
1 health: 3 health, 2 hunger."""


def new_game(server: Server) -> None:
    options = {"characters": ["wilson"], "scenario": "a_new_beginning", "draws": "table"}
    post(server, "/api/new-game", {"game": "dont_starve", "players": 1, "options": options})


def play_to_the_weather(page, server: Server, weather: dict, drawn: str) -> None:
    """Click the weather card's move (the log then says ``drawn``), then the example's first
    round through the weather phase; every move is answered "accepted"."""
    answer = click_move(page, server.url, weather)
    assert answer.endswith("accepted"), answer
    expect(page.locator("#log")).to_contain_text(drawn)
    moves = EXAMPLE.read_text(encoding="utf-8").splitlines()
    for move in (json.loads(moves[n - 1]) for n in ROUND):
        answer = click_move(page, server.url, move)
        assert answer.endswith("accepted"), (move, answer)


def test_a_weather_card_entered_by_touch_is_the_one_announced_and_kept(
    server: Server, page
) -> None:
    # Its own kiosk, not the shared one: the card it keeps is the owner's box from then on,
    # and the shared kiosk's later games (test_console's example round) would deal from it.
    new_game(server)
    page.goto(server.url + "/?lang=en")
    expect(page.locator("#console .seat-group").first).to_be_visible()
    assert find(offers(server.url), {**ENTERED}) is not None
    play_to_the_weather(page, server, ENTERED, "wet | wet | storm | overheat")
    expect(page.locator("#log")).to_contain_text(ENTERED_LOSSES)
    box = json.loads((server.data_dir / "boxes" / "dont_starve.json").read_text())
    (item,) = [k for k in box["items"] if k.startswith("weather/card/")]
    assert box["items"][item]["symbols"] == ["wet", "wet", "storm", "overheat"]
    # The next game's console offers it by its title, as the owner's card (no demo mark).
    new_game(server)
    page.reload()
    card = item.rsplit("/", 1)[1]
    picked = {"type": "dont_starve.weather_card", "seat": 0, "card": card}
    assert find(offers(server.url), picked) is not None
    answer = click_move(page, server.url, picked)
    assert answer.endswith("accepted"), answer
    expect(page.locator("#log")).to_contain_text("wet | wet | storm | overheat")
    expect(page.locator("#log")).not_to_contain_text("demo box")


def test_a_card_picked_by_title_from_an_imported_box_gives_its_printed_losses(
    server: Server, page, tmp_path: Path, capsys
) -> None:
    folder = tmp_path / "exported"
    assert (
        main(["--data-dir", str(server.data_dir), "box", "dont_starve", "export", str(folder)]) == 0
    )
    weather = tomllib.loads((folder / "weather.toml").read_text(encoding="utf-8"))
    weather["card"] = [FROST if c["id"] == "autumn-3" else c for c in weather["card"]]
    (folder / "weather.toml").write_text(tomli_w.dumps(weather), encoding="utf-8")
    assert (
        main(["--data-dir", str(server.data_dir), "box", "dont_starve", "import", str(folder)]) == 0
    )
    capsys.readouterr()
    new_game(server)
    page.goto(server.url + "/?lang=en")
    expect(page.locator("#console .seat-group").first).to_be_visible()
    picked = {"type": "dont_starve.weather_card", "seat": 0, "card": "autumn-3"}
    found = find(offers(server.url), picked)
    assert found is not None
    labels = [c["label"] for f in found[2]["fields"] for c in f.get("choices") or []]
    assert "Frost's Descent" in " ".join(labels), labels
    play_to_the_weather(page, server, picked, "'Frost's Descent': cold | cold | storm | wet")
    log = page.locator("#log")
    expect(log).to_contain_text("cold ×2")
    expect(log).to_contain_text(FROST_LOSSES)
    expect(log).not_to_contain_text("demo box's weather card")
