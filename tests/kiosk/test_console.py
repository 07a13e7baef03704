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

import pytest
from console_clicks import answer_to, click_move, find, offers
from playwright.sync_api import expect
from serving import HTTP, Server, post

from engine.core import Session, find_game, move_from_dict

pytestmark = pytest.mark.browser

WAIT_MS = 10_000  # a bound on waiting for the page, not a speed requirement
expect.set_options(timeout=WAIT_MS)
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


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
    return HTTP.get(server.url + "/api/status", params={"lang": "en"}).json()


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
    expect(page.locator("#end")).to_be_visible()
    outcome = status(shared_server)["outcome"]
    assert outcome["result"] == "win" and len(outcome["winners"]) == 1
    winner = outcome["winners"][0] + 1
    expect(page.locator("#end-title")).to_have_text(f"Player {winner} wins!")
    first = page.locator("#end-scores li").first
    assert first.get_attribute("data-seat") == str(winner - 1)
    assert "★" in first.inner_text()
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


def test_touch_targets_are_large_and_a_greyed_offer_says_why(fresh: Server, page) -> None:
    """greenwood.zh.md §三.2: one dusk marker a round; once placed, the offer is greyed with
    the reason, and touching it says why instead of sending anything."""
    page.goto(fresh.url + "/?lang=en")
    marker = {"type": "greenwood.dusk_marker", "seat": 0, "effect": "recruit"}
    assert click_move(page, fresh.url, marker).endswith("accepted")
    heights = page.locator("#console .offer:not(.greyed)").evaluate_all(
        "nodes => nodes.map(n => n.getBoundingClientRect().height)"
    )
    assert heights and min(heights) >= 64
    greyed = page.locator(
        '.seat-group[data-seat="0"] .offer.greyed[data-move="greenwood.dusk_marker"]'
    )
    expect(greyed).to_have_attribute("aria-disabled", "true")
    reason = greyed.get_attribute("title")  # said on a touch: the row stays one look tall
    assert reason and "marker" in reason.lower()
    greyed.click(force=True)  # aria-disabled: Playwright would wait; a finger just touches it
    expect(page.locator("#console-answer")).to_contain_text(reason)
    expect(page.locator("#picker")).to_be_hidden()
    assert status(fresh)["moves"] == 1


def test_undo_is_one_touch_away_in_the_console(fresh: Server, page) -> None:
    page.goto(fresh.url + "/?lang=en")
    expect(page.locator("#console-undo")).to_be_disabled()
    marker = {"type": "greenwood.dusk_marker", "seat": 1, "effect": "aurora"}
    assert click_move(page, fresh.url, marker).endswith("accepted")
    expect(page.locator("#moves")).to_have_text("1 moves saved")
    page.locator("#console-undo").click()
    expect(page.locator("#moves")).to_have_text("0 moves saved")
    expect(page.locator("#console-undo")).to_be_disabled()


def test_a_choice_the_rules_refuse_is_greyed_in_the_picker(shared_server: Server, page) -> None:
    """greenwood.zh.md §三.2: a companion replaces another only when every place is taken, so
    place 1 (occupied) is greyed in the recruit picker with the reason; place 2 is chosen."""
    setup, seed, steps = example("greenwood.jsonl")
    set_up(shared_server, "greenwood", setup, seed)
    page.goto(shared_server.url + "/?lang=en")
    for move, accepted, _ in steps[:6]:  # up to player 2's dusk marker
        assert accepted and click_move(page, shared_server.url, move).endswith("accepted")
    page.locator('.seat-group[data-seat="1"] .offer[data-move="greenwood.recruit"]').click()
    expect(page.locator("#picker")).to_be_visible()
    occupied = page.locator('#picker .choice[data-value="0"]')
    expect(occupied).to_have_attribute("aria-disabled", "true")
    reason = occupied.locator(".why").inner_text()
    assert reason
    occupied.click(force=True)
    expect(page.locator("#picker-why")).to_contain_text(reason)
    expect(page.locator("#picker-do")).to_be_disabled()
    page.locator('#picker .choice[data-value="1"]').click()
    expect(page.locator('#picker .choice[data-value="1"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    assert answer_to(page, page.locator("#picker-do")).endswith("accepted")
    expect(page.locator("#picker")).to_be_hidden()
    assert status(shared_server)["moves"] == 7


def test_a_trade_counts_each_kind_and_asks_the_rules_before_it_is_made(
    shared_server: Server, page
) -> None:
    """dont-starve.zh.md §交易: characters on one tile hand over any number of tokens in one
    trade; the console counts them with − / +, and "Do it" waits for one to be counted."""
    setup, seed, steps = example("dont_starve-basecamp.jsonl")
    set_up(shared_server, "dont_starve", setup, seed)
    page.goto(shared_server.url + "/?lang=en")
    for move, accepted, _ in steps[:4]:  # essence, structures, Wendy gains 3 basic resources
        if accepted:
            assert click_move(page, shared_server.url, move).endswith("accepted")
    page.locator('.seat-group[data-seat="1"] .offer[data-move="dont_starve.trade"]').click()
    rows = page.locator("#picker .tally-row")
    assert rows.count() >= 1
    expect(page.locator("#picker-do")).to_be_disabled()
    expect(page.locator("#picker-why")).to_have_text("Count what changes hands with +")
    wendy = rows.filter(has_text="Wendy → Wilson: basic")
    plus = wendy.locator('.step-button[data-step="+1"]')
    plus.click()
    plus.click()
    expect(wendy.locator("output")).to_have_text("2")
    expect(page.locator("#picker-do")).to_be_enabled()  # the rules said yes (POST /api/check)
    assert status(shared_server)["moves"] == 3  # asking changed nothing
    assert answer_to(page, page.locator("#picker-do")).endswith("accepted")
    assert status(shared_server)["moves"] == 4


def test_a_piece_waiting_to_be_placed_comes_first_with_one_reason(
    shared_server: Server, page
) -> None:
    """greenwood.zh.md §三.10: a rescued creature's piece goes into the submarine before
    anything else; the console says so once and puts the placement (the camera's fallback,
    on the board's grid) before the greyed rest."""
    setup, seed, steps = example("greenwood.jsonl")
    set_up(shared_server, "greenwood", setup, seed)
    page.goto(shared_server.url + "/?lang=en")
    moth = next(i for i, (move, _, _) in enumerate(steps) if move.get("creature") == "moth")
    for move, accepted, _ in steps[: moth + 1]:  # up to the rescue of the moth
        assert accepted and click_move(page, shared_server.url, move).endswith("accepted")
    group = page.locator('.seat-group[data-seat="0"]')
    expect(group.locator(".shared-why")).to_contain_text("domino")
    place = group.locator('.camera-offers .offer[data-move="greenwood.place"]')
    first_greyed = group.locator(".offer.greyed").first
    assert place.bounding_box()["y"] < first_greyed.bounding_box()["y"]
    assert first_greyed.locator(".why").count() == 0  # the reason is said once, above


def test_a_scenario_end_needs_a_second_touch(shared_server: Server, page) -> None:
    """dont-starve.zh.md §胜利与失败: a scenario card that says the scenario is won ends the game;
    its button stands in a row of its own at the end of the seat's moves, and one touch only
    turns it into "touch again…" (nothing is sent: the move count stays); the second ends it."""
    setup, seed, _ = example("dont_starve.jsonl")
    set_up(shared_server, "dont_starve", setup, seed)
    page.goto(shared_server.url + "/?lang=en")
    group = page.locator('#console .seat-group[data-seat="0"]')
    won = group.locator('.final-offers .offer[data-move="dont_starve.scenario_end"]').first
    expect(won).to_have_text("The scenario card says: won")
    buttons = group.locator(".offer").evaluate_all(
        "nodes => nodes.map(n => n.dataset.kind || 'toggle')"
    )
    assert buttons[-2:] == ["final", "final"]  # the last of the seat's moves
    won.click()
    expect(won).to_have_text("Touch again to end the scenario: won")
    page.wait_for_timeout(500)  # a late move would show by now
    assert status(shared_server)["moves"] == 0 and status(shared_server)["outcome"] is None
    won.click()
    expect(page.locator("#moves")).to_have_text("1 moves saved")
    assert status(shared_server)["outcome"]["result"] == "shared_win"


def test_main_actions_come_first_and_card_effects_open_behind_one_entry(
    shared_server: Server, page
) -> None:
    """dont-starve.zh.md §执行回合 (可选移动,然后是主要行动) and §结束回合: the acting seat's row
    starts with its main actions open now, then "End my turn", then the main actions greyed now
    (issue 24: what a player can do first, in view); what a card says (gain, lose) is behind
    one "Card effect…" entry, before the greyed actions, that opens on a touch; the order of
    the row does not change when a card effect is made. The Chinese view shows no raw id."""
    setup, seed, _ = example("dont_starve.jsonl")
    set_up(shared_server, "dont_starve", setup, seed)
    page.goto(shared_server.url + "/?lang=en")
    group = page.locator('#console .seat-group[data-seat="0"]')
    expect(group).to_be_visible()

    def row() -> list[list[str]]:
        return (
            group.locator(".offers")
            .first.locator(".offer")
            .evaluate_all(
                "nodes => nodes.map(n => [(n.dataset.kind || 'toggle') + (n.classList"
                ".contains('greyed') ? ' greyed' : ''), n.dataset.move, n.innerText])"
            )
        )

    before = row()
    kinds = [kind for kind, _, _ in before]
    assert kinds[0] == "main" and "core" in kinds and "toggle" in kinds
    assert kinds.index("core") > max(i for i, k in enumerate(kinds) if k == "main")
    assert "main greyed" in kinds  # some main actions are not open at the start
    assert kinds.index("core") < min(i for i, k in enumerate(kinds) if k == "main greyed")
    # the card effects' entry before the greyed actions: behind a column of them, at 1280×720,
    # it was out of view
    assert kinds.index("toggle") < min(i for i, k in enumerate(kinds) if k == "main greyed")
    assert any("End my turn" in text for _, _, text in before)
    # one arrow says it opens: "▸ Card effect ›" had two
    assert [text.strip() for kind, _, text in before if kind == "toggle"] == ["▸ Card effect"]
    assert group.locator('.offer[data-move="dont_starve.gain"]').count() == 0
    gain = {"type": "dont_starve.gain", "seat": 0, "kind": "basic", "count": 1}
    assert click_move(page, shared_server.url, gain).endswith("accepted")  # opens the group
    expect(group.locator(".effects-toggle")).to_have_attribute("aria-expanded", "true")
    shown = group.locator('.effect-offers .offer[data-move="dont_starve.gain"]')
    expect(shown.first).to_be_visible()
    after = row()  # the same buttons; open ones, then core, then greyed, each in the engine's order
    assert sorted(str(entry[1]) for entry in after) == sorted(str(entry[1]) for entry in before)
    engine = [o["move"] for o in offers(shared_server.url)["groups"][0]["offers"]]
    for part in ("main", "main greyed"):
        moves = [move for kind, move, _ in after if kind == part]
        assert moves == sorted(moves, key=engine.index), part
    page.goto(shared_server.url + "/?lang=zh")
    expect(page.locator("#console .effects-toggle").first).to_be_visible()
    text = page.locator("#console").inner_text()
    assert "结束回合" in text and "卡牌效果" in text
    for raw in ("dont_starve.", "card_effect", "final", "None", "True", "False"):
        assert raw not in text, f"{raw!r} shown to players: {text}"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_stonesaga_character_is_made_by_touching_a_die_then_an_attribute(
    shared_server: Server, page, lang: str, tmp_path: Path
) -> None:
    """stonesaga.zh.md §创造角色.2: 剩下四颗的点数,一颗对一个,分配到力量 / 灵巧 / 信念 / 觉察.
    One create offer (not one button per ordering, issue 24): the picker draws the four kept
    dice and the four attributes; a touch on a die then on an attribute places it, and the
    move made carries the values where they were placed. §创造角色.4: the names are a list."""
    set_up(shared_server, "stonesaga", {"players": 1}, 0)
    page.goto(shared_server.url + f"/?lang={lang}")
    expect(page.locator("#console .seat-group").first).to_be_visible()
    roll = {"type": "stonesaga.creation_roll", "seat": 0, "d1": 6, "d2": 5, "d3": 4}
    answer = click_move(page, shared_server.url, {**roll, "d4": 3, "d5": 1})
    assert answer.endswith("已接受" if lang == "zh" else "accepted"), answer
    creates = page.locator('#console .offer[data-move="stonesaga.create_character"]')
    expect(creates).to_have_count(1)
    creates.click()
    box = page.locator('#picker fieldset[data-field="attributes"]')
    dice = box.locator(".assign-die")
    expect(dice).to_have_count(4)
    assert [d.inner_text().split()[-1] for d in dice.all()] == ["6", "5", "4", "3"]
    names = {
        "zh": ["力量", "灵巧", "信念", "觉察"],
        "en": ["Strength", "Dexterity", "Faith", "Perception"],
    }
    targets = box.locator(".assign-target")
    assert [t.locator(".assign-name").inner_text() for t in targets.all()] == names[lang]
    expect(page.locator("#picker-do")).to_be_disabled()  # nothing placed yet
    placed = {"strength": 3, "dexterity": 6, "faith": 5, "perception": 4}
    for attribute, value in placed.items():
        box.locator(f'.assign-die[data-die="{[6, 5, 4, 3].index(value)}"]').click()
        box.locator(f".assign-target[data-value='\"{attribute}\"']").click()
    expect(targets.nth(0)).to_contain_text("3")
    name_choices = page.locator('#picker fieldset[data-field="name"] .choice')
    assert name_choices.count() >= 10  # a list of names, not two presets
    page.locator('#picker fieldset[data-field="name"] .choice[data-value=\'"Reed"\']').click()
    page.locator('#picker fieldset[data-field="trait"] .choice').first.click()
    page.screenshot(path=str(tmp_path / f"creation-{lang}.png"))
    expect(page.locator("#picker-do")).to_be_enabled()
    page.screenshot(path=str(tmp_path / f"creation-{lang}.png"))
    if lang == "zh":
        text = page.locator("#picker").inner_text()
        assert "芦苇" in text and "Reed" not in text
        for raw in ("strength", "Strength", "stonesaga", "None", "["):
            assert raw not in text, f"{raw!r} shown to players: {text}"
    # The answer of the move sent (the line under the console still shows the roll's).
    with page.expect_response("**/api/move*") as sent:
        page.locator("#picker-do").click()
    made = json.loads(sent.value.request.post_data or "{}")
    assert {a: made[a] for a in placed} == placed and made["name"] == "Reed"
    assert made["rolls"] == [[6, 5, 4, 3, 1]]  # the move as before: saves replay unchanged
    assert sent.value.json()["accepted"], sent.value.json()
    assert status(shared_server)["moves"] == 2
    page.screenshot(path=str(tmp_path / f"created-{lang}.png"))
