"""The players' console in a real Chromium: games played only by clicking, as players would.

Each game is set up like its example in docs/examples, then every accepted line of the example is
made by clicking the console (tests/support/console_clicks.py: the offer, its choices, the cells,
the numbers, the dice faces, "Do it"); the test never posts a move. After each click the kiosk
must show the move accepted and counted.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from console_clicks import click_move, find, offers
from playwright.sync_api import expect
from serving import Server, post

from engine.core import Session, find_game, move_from_dict

pytestmark = pytest.mark.browser

WAIT_MS = 10_000  # a bound on waiting for the page, not a speed requirement
expect.set_options(timeout=WAIT_MS)
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()


def example(name: str) -> tuple[dict[str, Any], int, list[tuple[dict[str, Any], bool, bool]]]:
    """The example's set-up and seed, and each line: the move, whether the rules accept it,
    and whether it starts a new round."""
    lines = (EXAMPLES / name).read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    game = find_game(name.split("-")[0].removesuffix(".jsonl"))
    session = Session(game, head["setup"], head["seed"])
    steps = []
    for line in lines[1:]:
        move = json.loads(line)
        result = session.submit(move_from_dict(move))
        new_round = any(e.type == "round_started" for e in result.events)
        steps.append((move, result.accepted, new_round))
    return head["setup"], head["seed"], steps


def set_up(server: Server, game: str, setup: dict[str, Any], seed: int) -> None:
    options = {k: v for k, v in setup.items() if k != "players"}
    body = {"game": game, "players": setup["players"], "options": options, "seed": seed}
    post(server, "/api/new-game", body)


def status(server: Server) -> dict[str, Any]:
    return httpx.get(server.url + "/api/status", params={"lang": "en"}, timeout=10).json()


def play_by_clicking(server: Server, page, game: str, file: str, first_round: bool) -> int:
    """Click every accepted line of the example (up to the end of round 1 if ``first_round``);
    refused lines must not be offered. Returns how many moves were made."""
    setup, seed, steps = example(file)
    set_up(server, game, setup, seed)
    page.goto(server.url + "/?lang=en")
    expect(page.locator("#console .seat-group").first).to_be_visible()
    made = 0
    for number, (move, accepted, new_round) in enumerate(steps, 2):
        if not accepted:
            assert find(offers(server.url), move) is None, f"{file}:{number} offered but refused"
            continue
        answer = click_move(page, server.url, move)
        made += 1
        assert answer.endswith("accepted"), f"{file}:{number}: {answer}"
        expect(page.locator("#moves")).to_have_text(f"{made} moves saved")
        if first_round and new_round:
            break
    return made


def test_a_whole_game_of_greenwood_by_clicking_the_console(shared_server: Server, page) -> None:
    """greenwood.zh.md §三.1: three nights, then final scoring; every move made by a click."""
    made = play_by_clicking(shared_server, page, "greenwood", "greenwood.jsonl", False)
    assert made > 100
    expect(page.locator("#outcome")).to_be_visible()
    assert status(shared_server)["outcome"]["result"] == "win"
    expect(page.locator("#console .console-note")).to_have_text(
        "The game is over. Start a new one from the menu."
    )


@pytest.mark.parametrize(
    ("game", "file"),
    [("dont_starve", "dont_starve.jsonl"), ("stonesaga", "stonesaga.jsonl")],
)
def test_the_first_round_by_clicking_the_console(
    shared_server: Server, page, game: str, file: str
) -> None:
    made = play_by_clicking(shared_server, page, game, file, True)
    assert made > 3
    assert status(shared_server)["moves"] == made


def test_the_console_speaks_chinese_without_raw_ids(fresh: Server, page) -> None:
    page.goto(fresh.url + "/?lang=zh")
    expect(page.locator("#console .seat-group").first).to_be_visible()
    text = page.locator("#console").inner_text()
    assert "1号玩家" in text and "本阶段结束" in text
    for raw in ("greenwood.", "pass", "None", "True", "False", "[", "placeholder"):
        assert raw not in text, f"{raw!r} shown to players: {text}"
