"""Don't Starve's draws come from the table (draws "table", DESIGN.md "Chance comes from the
table", engine/dont_starve/rules/draws.py): the weather card turned up, the needs tile lying
leftmost, the location card an explore draws, a face-down tile's biome. Each is an action in
progress the table completes at the console (or the camera, for a tile), checked by the rules;
the engine never announces a card or tile the table did not give. With draws "virtual" the
engine's seeded decks are unchanged."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from offer_walk import example_files, walk_example

from engine.core import Advance, Pass, Rng, Session, find_game, offered, offers, start
from engine.core.offers import sample
from engine.dont_starve.catalogue import catalogue
from engine.dont_starve.moves import (
    DrawLocation,
    DrawWeather,
    Explore,
    Gain,
    Interact,
    LayNeedsTile,
    MoveTo,
)
from engine.dont_starve.offers import seat_offers
from kiosk.cli import main

GAME = find_game("dont_starve")
EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "dont_starve-table.jsonl"
DRAWN = frozenset(
    {
        "dont_starve.weather_drawn",
        "dont_starve.needs_tile_laid",
        "dont_starve.location_explored",
        "dont_starve.tile_revealed",
        "box_item_entered",
    }
)
"""The events that announce a card or tile drawn."""


def _started(play, players: int = 1, **options):
    """A game with the table's draws, its first weather card and needs tile given."""
    p = play(players=players, draws="table", **options)
    p.do(DrawWeather(0, card="autumn-1"))
    p.do(LayNeedsTile(0, tile=1))
    return p


def _labels(state, seat: int = 0) -> list[tuple[str, str, str]]:
    return [(o.move, o.label.zh, o.label.en) for o in seat_offers(state, seat)]


# --- set-up and the round's draws --------------------------------------------------------------


def test_set_up_deals_and_draws_nothing_with_the_tables_draws() -> None:
    """§游戏设置 with draws "table": the table shuffles and deals; the engine draws no card,
    deals no needs tile, shuffles no deck, uses none of its seeded randomness, and announces
    no card."""
    state, events = start(GAME, {"players": 2, "draws": "table"}, seed=5)
    data = state.data
    assert state.rng == Rng(5)
    assert data.weather == "" and data.weather_due and data.weather_deck == ()
    assert [n for n, _ in data.needs] == [0] * 6  # the sides come from the season setup card
    assert [side for _, side in data.needs] == [
        side for _, side in catalogue().seasons["autumn"]["classic"].pattern
    ]
    assert all(cards == () for _, cards in data.decks)
    assert not [e for e in events if e.type in DRAWN]
    view = dict(GAME.view(state, "en")["summary"])
    assert view["Weather"] == view["Needs"] == "not entered yet"


def test_the_virtual_draws_are_the_seeded_decks_as_before() -> None:
    """draws "virtual": the same seed deals the same needs tiles, weather card and decks, and
    the table's draw moves are refused (nothing is owed)."""
    state, _ = start(GAME, {"players": 2, "draws": "virtual"}, seed=6)
    again, _ = start(GAME, {"players": 2, "draws": "virtual"}, seed=6)
    assert state.data == again.data and state.data.weather == "autumn-6"
    assert [n for n, _ in state.data.needs] == [2, 3, 5, 4, 6, 1]
    assert GAME.in_progress(state) is None
    codes = {
        GAME.legal(state, m).code
        for m in (DrawWeather(0, card="autumn-1"), LayNeedsTile(0, tile=1), DrawLocation(0))
    }
    assert codes == {
        "dont_starve.no_weather_due",
        "dont_starve.no_needs_due",
        "dont_starve.no_location_due",
    }


def test_before_the_first_action_the_table_gives_the_weather_card_and_needs_tile(play) -> None:
    """§季节与难度 (the weather card turned up at set-up), §需求板块: until both are given every
    other move is refused with what to enter first, ending the turn too; every seat may enter
    them and gets only them (and the greyed end of its turn)."""
    p = play(players=2, draws="table")
    for move in (MoveTo(0, "E", biome="forest"), Gain(1), Pass(1), Explore(0)):
        assert p.check(move).code == "dont_starve.weather_due"
    for seat in (0, 1):
        moves = [m for m, _, _ in _labels(p.state, seat)]
        assert moves == ["dont_starve.weather_card"] * 2 + ["dont_starve.needs_tile"] * 2 + ["pass"]
    p.do(DrawWeather(1, card="autumn-2"))
    assert p.check(MoveTo(0, "E", biome="forest")).code == "dont_starve.needs_due"
    p.do(LayNeedsTile(0, tile=3))
    assert p.check(MoveTo(0, "E", biome="forest")).ok
    assert GAME.in_progress(p.state) is None


def test_the_console_labels_of_the_weather_entry_read_in_both_languages(play) -> None:
    """What players touch to enter the weather card (the browser test's taps): two offers,
    one by title, one by symbols; the entry's fields by name, the world events one choice."""
    p = play(draws="table")
    drafts = [o for o in seat_offers(p.state, 0) if o.move == DrawWeather.type]
    pick, entry = drafts
    assert (pick.label.zh, pick.label.en) == (
        "抽到的天气卡:按卡名选",
        "Weather card drawn: pick its title",
    )
    assert (entry.label.zh, entry.label.en) == (
        "抽到的天气卡:按符号录入",
        "Weather card drawn: enter its symbols",
    )
    assert [f.name for f in pick.fields] == ["card"]
    titles = [c.label.zh for c in pick.fields[0].choices]
    assert titles[0] == "秋风(演示盒)" and len(titles) == 8
    assert entry.fixed == {"season": "autumn"}
    names = [f.name for f in entry.fields]
    assert names == [
        "left_wet",
        "left_overheat",
        "left_cold",
        "right_wet",
        "right_overheat",
        "right_cold",
        "health",
        "hunger",
        "sanity",
        "world",
    ]
    labels = {f.name: (f.label.zh, f.label.en) for f in entry.fields}
    assert labels["left_cold"] == ("风暴图标左侧:寒冷", "left of the storm icon: cold")
    assert labels["health"] == ("天气事件:失去生命", "weather event: lose health")
    world = entry.fields[-1]
    assert [c.label.zh for c in world.choices][:4] == ["无", "全部腐烂", "再生长", "怪物刷新"]
    # few taps: the offer, + on left cold, + on right cold, "none", Do it
    checked = next(o for g in offers(GAME, p.state) for o in g.offers if o.label == entry.label)
    move = checked.build([[]], numbers={"left_cold": 1, "right_cold": 1})
    assert offered(offers(GAME, p.state), move) is not None and p.check(move).ok
    assert len(checked.options) == 8  # one per world events choice: no runaway product


# --- the weather card ---------------------------------------------------------------------------


def test_a_weather_card_is_picked_by_title_and_its_losses_are_announced(play) -> None:
    """§准备阶段 抽取天气卡, §天气阶段: the card given is face up; the weather phase announces
    its symbols in force and costs its losses (the demo's autumn-3: cold | storm | cold, event
    1 sanity: before the storm one cold)."""
    p = play(draws="table")
    events = p.do(DrawWeather(0, card="autumn-3"))
    assert [e.to_dict() for e in events] == [
        {
            "type": "dont_starve.weather_drawn",
            "card": "autumn-3",
            "symbols": ["cold", "storm", "cold"],
        }
    ]
    p.do(LayNeedsTile(0, tile=1))
    p.set_char(0, health=9, hunger=8, sanity=9)
    announced = p.go_to("weather")
    (weather,) = p.events_of("dont_starve.weather_announced", announced)
    assert weather.to_dict()["symbols"] == ["cold"] and weather.to_dict()["losses"] == [1, 1, 1]
    said = GAME.event_text(weather.to_dict(), "zh", p.state) or ""
    assert said.startswith(
        "天气阶段:生效的符号 寒冷;每个角色失去生命1、饱食1、理智1(用物品或食物豁免前)"
    )
    p.set_char(0, health=9, hunger=8, sanity=9)
    p.finish_phase()
    c = p.data.char(0)
    assert (c.health, c.hunger, c.sanity) == (8, 7, 8)


@pytest.mark.parametrize(
    ("card", "code"),
    [
        ("winter-1", "dont_starve.wrong_season"),
        ("spring-8", "dont_starve.wrong_season"),
        ("no-such-card", "dont_starve.unknown_card"),
    ],
)
def test_a_weather_card_of_another_season_or_none_of_the_box_is_refused(play, card, code) -> None:
    """§季节与难度: 将当前季节的所有天气卡洗混 … 将所有其他季节的天气卡放回游戏盒."""
    p = play(draws="table")
    verdict = p.check(DrawWeather(0, card=card))
    assert verdict.code == code and verdict.rule
    if code == "dont_starve.wrong_season":
        assert "Autumn" in verdict.message.en and "秋季" in verdict.message.zh
    assert p.check(DrawWeather(0, season="winter", left_cold=1)).code == "dont_starve.wrong_season"


def test_a_weather_card_drawn_already_is_refused_until_the_deck_is_used_up(play) -> None:
    """§准备阶段: 弃置当前的天气卡 — a card drawn this game lies in the discards, not the deck;
    once every card of the season the box knows was drawn, the discards are the deck again."""
    p = _started(play)
    p.go_to("action", 2)
    assert p.data.weather_due and p.data.weather == ""
    assert p.check(DrawWeather(0, card="autumn-1")).code == "dont_starve.weather_drawn"
    assert p.check(DrawWeather(0, card="autumn-2")).ok
    season = [c.id for c in catalogue().weather if c.season == "autumn"]
    p.set(weather_drawn=tuple(season))
    assert p.check(DrawWeather(0, card="autumn-1")).ok
    p.do(DrawWeather(0, card="autumn-1"))
    assert p.data.weather_drawn == ("autumn-1",)


def test_the_preparation_phase_announces_no_weather_card_with_the_tables_draws(play) -> None:
    """§准备阶段 with draws "table": the engine turns no card up (no "寒冷 | 风暴 | 寒冷" from an
    invented deck); the table gives it as the action phase begins."""
    p = _started(play)
    events = p.go_to("action", 2)
    assert not p.events_of("dont_starve.weather_drawn", events)
    assert p.check(Interact(0, target="scenario")).code == "dont_starve.weather_due"


def test_an_entered_weather_card_is_used_at_once_and_announced_for_the_box(play) -> None:
    """A card the box does not hold, entered by its symbols (two wet left of the storm icon,
    an overheat right of it), its event (1 hunger) and world events: the weather phase costs
    what it prints, and it is announced as the data file writes it."""
    p = play(draws="table")
    events = p.do(
        DrawWeather(0, left_wet=2, right_overheat=1, hunger=1, world=("monster_refresh",))
    )
    drawn, entered = events
    assert drawn.to_dict() == {
        "type": "dont_starve.weather_drawn",
        "card": "autumn-t1",
        "symbols": ["wet", "wet", "storm", "overheat"],
    }
    assert entered.to_dict()["item"] == "weather/card/autumn-t1"
    assert json.loads(entered.to_dict()["value"]) == {
        "id": "autumn-t1",
        "season": "autumn",
        "symbols": ["wet", "wet", "storm", "overheat"],
        "event": [0, 1, 0],
        "world": ["monster_refresh"],
    }
    said = GAME.event_text(drawn.to_dict(), "zh", p.state)
    assert said == "翻开天气牌:潮湿 | 潮湿 | 风暴 | 过热"  # the table's card: no demo note
    p.do(LayNeedsTile(0, tile=1))
    p.go_to("weather")
    p.set_char(0, health=9, hunger=8, sanity=9)
    events = p.finish_phase()
    c = p.data.char(0)
    assert (9 - c.health, 8 - c.hunger, 9 - c.sanity) == (0, 3, 2)  # wet ×2, event hunger
    assert p.events_of("dont_starve.world_event", events)[0].to_dict()["name"] == "monster_refresh"


@pytest.mark.parametrize(
    ("move", "code"),
    [
        (DrawWeather(0, left_cold=5), "dont_starve.bad_entry"),
        (DrawWeather(0, sanity=6), "dont_starve.bad_entry"),
        (DrawWeather(0, world=("regrow", "regrow")), "dont_starve.world_twice"),
        (LayNeedsTile(0, kind="hard"), "dont_starve.needs_wrong_kind"),
        (LayNeedsTile(0, tile=7), "dont_starve.needs_wrong_kind"),
        (LayNeedsTile(0, tile=99), "dont_starve.unknown_tile"),
        (LayNeedsTile(0, day_light=6), "dont_starve.bad_entry"),
    ],
)
def test_entries_beyond_what_is_printed_are_refused(play, move, code) -> None:
    """§符号参考: an entry within what a card or tile prints; §季节与难度: a classic game lays
    normal tiles only (the demo box's tile 7 is hard)."""
    p = play(draws="table")
    verdict = p.check(move)
    assert verdict.code == code and verdict.message.zh and verdict.rule


# --- the needs tile -----------------------------------------------------------------------------


def test_the_needs_tile_given_is_the_rounds_and_cannot_be_laid_twice(play) -> None:
    """§需求板块: each round's needs are the leftmost tile's (the side the season setup card
    puts up); §季节与难度: each tile is laid once, so one given in an earlier round is refused;
    an entered tile is the game's and announced for the box."""
    p = play(draws="table")
    p.do(DrawWeather(0, card="autumn-1"))
    (laid,) = p.do(LayNeedsTile(0, tile=3))
    assert laid.to_dict() == {
        "type": "dont_starve.needs_tile_laid",
        "tile": 3,
        "side": "day",
        "light": 0,
        "hunger": 2,
        "sanity": 0,
    }
    events = p.go_to("daily_needs")
    assert p.events_of("dont_starve.needs_announced", events)[0].to_dict()["tile"] == 3
    p.go_to("action", 2)
    assert p.data.needs_due
    assert p.check(LayNeedsTile(0, tile=3)).code == "dont_starve.needs_tile_used"
    p.do(DrawWeather(0, card="autumn-2"))
    laid, entered = p.do(LayNeedsTile(0, day_light=1, day_hunger=4, night_sanity=2))
    assert laid.to_dict()["tile"] == 9 and (laid.light, laid.hunger, laid.sanity) == (1, 4, 0)
    assert json.loads(entered.value) == {
        "number": 9,
        "kind": "normal",
        "day": [1, 4, 0],
        "night": [0, 0, 2],
    }
    assert dict(GAME.view(p.state, "en")["summary"])["Needs"] == "light 1, hunger 4, sanity 0"


# --- the location card and the tile's biome ----------------------------------------------------


def test_an_explore_waits_for_the_card_the_explorer_drew(play) -> None:
    """§探索: the explorer draws from the tile's biome deck; until the card is given nothing
    else happens (the explorer's own action: only the explorer gives it, §自由行动), and then
    it lies face up, a hostile monster's die announced (§敌意)."""
    p = _started(play, players=2)
    p.do(MoveTo(0, "E", biome="forest"))
    assert p.do(Explore(0)) == ()
    assert p.data.exploring == (0, "E") and p.data.location("E") is None
    assert p.check(Gain(1)).code == "dont_starve.location_due"
    assert p.check(Pass(0)).code == "dont_starve.location_due"
    assert p.check(DrawLocation(1, card="forest-01")).code == "dont_starve.location_due"
    assert [m for m, _, _ in _labels(p.state, 1)] == ["pass"]
    assert [(m, en) for m, _, en in _labels(p.state, 0)][:2] == [
        ("dont_starve.location_card", "Forest location card drawn: pick its title"),
        ("dont_starve.location_card", "Location card drawn: enter what it shows"),
    ]
    hostile = next(c.id for c in catalogue().locations["forest"] if c.hostile)
    events = p.do(DrawLocation(0, card=hostile))
    assert [e.type for e in events] == [
        "dont_starve.location_explored",
        "dice_pool_announced",
        "seat_passed",
    ]
    assert p.data.location("E") == hostile and p.data.exploring is None


def test_a_location_card_of_another_deck_or_out_of_the_deck_is_refused(play) -> None:
    """§探索: the card comes from the deck of the tile's biome; one lying on a tile, or in the
    discards (the old card of a tile explored again goes there), is not in the deck, unless
    the deck ran out: then the discards are shuffled into a new one."""
    p = _started(play, players=2)
    p.do(MoveTo(0, "E", biome="forest"))
    p.do(Explore(0))
    assert p.check(DrawLocation(0, card="marsh-01")).code == "dont_starve.wrong_deck"
    p.do(DrawLocation(0, card="forest-01"))
    p.do(MoveTo(1, "F", biome="forest"))
    p.do(Explore(1))
    out = p.check(DrawLocation(1, card="forest-01"))
    assert out.code == "dont_starve.location_out" and "tile E" in out.message.en
    p.do(DrawLocation(1, card="forest-02"))  # the dial turns: both active again
    p.do(Explore(0))  # E again: forest-01 goes to the discards
    discarded = p.check(DrawLocation(0, card="forest-01"))
    assert discarded.code == "dont_starve.location_out" and "discards" in discarded.message.en
    others = [
        c.id for c in catalogue().locations["forest"] if c.id not in ("forest-01", "forest-02")
    ]
    p.set(discards=(("forest", ("forest-01", *others)), *p.data.discards[1:]))
    assert p.check(DrawLocation(0, card="forest-01")).ok  # every other card is out: reshuffled
    p.do(DrawLocation(0, card="forest-01"))
    assert dict(p.data.discards)["forest"] == ()


def test_an_entered_location_card_is_used_at_once_and_announced_for_the_box(play) -> None:
    """§探索: a card the box does not hold, entered by its monster (neutral, CV 3) and mining
    track (1 interaction): no hostility die, the track allows one interaction, and it is
    announced for the owner's box."""
    p = _started(play)
    p.do(MoveTo(0, "F", biome="grassland"))
    p.do(Explore(0))
    events = p.do(DrawLocation(0, hostile=False, monster_cv=3, damage=2, mining=1))
    assert [e.type for e in events][:3] == [
        "dont_starve.location_explored",
        "box_item_entered",
        "seat_passed",
    ]
    assert events[1].to_dict()["item"] == "locations/grassland/grassland-t1"
    p.do(Interact(0))
    assert p.check(Interact(0)).code == "dont_starve.mined_out"


def test_a_face_down_tile_turned_over_shows_the_biome_the_table_says(play) -> None:
    """§移动: 若该板块未翻开，则将其翻开 — with the table's draws the move says which biome the
    tile shows (the camera reads it, or players pick it); one no face-down tile of the scenario
    still has is refused, and the console offers no "draw at random"."""
    p = _started(play)
    assert p.check(MoveTo(0, "E")).code == "dont_starve.biome_needed"
    p.set(pool=("forest",) * 3)
    assert p.check(MoveTo(0, "E", biome="marsh")).code == "dont_starve.wrong_biome"
    turned = next(
        o
        for o in seat_offers(p.state, 0)
        if o.move == MoveTo.type and any(f.name == "biome" for f in o.fields)
    )
    biomes = next(f for f in turned.fields if f.name == "biome")
    assert None not in [c.value for c in biomes.choices] and len(biomes.choices) == 4
    events = p.do(MoveTo(0, "E", biome="forest"))
    assert events[-1].to_dict() == {
        "type": "dont_starve.tile_revealed",
        "tile": "E",
        "biome": "forest",
    }


# --- the whole game ----------------------------------------------------------------------------


def test_the_table_example_replays_with_each_draw_the_table_gave(capsys) -> None:
    """docs/examples/dont_starve-table.jsonl: every card and tile drawn is the table's (by title
    or entered), the refusals are those of the rules (a move before the weather card, a tile
    turned over without its biome, another deck's card, another season's card, a card drawn
    already, a needs tile laid before), and the entered ones are announced for the box."""
    code = main(["--lang", "en", "replay", "dont_starve", str(EXAMPLE), "--json"])
    rows = [json.loads(r) for r in capsys.readouterr().out.splitlines()]
    assert code == 0
    refused = [r["verdict"]["code"] for r in rows if not r.get("setup") and not r["accepted"]]
    assert refused == [
        "dont_starve.weather_due",
        "dont_starve.biome_needed",
        "dont_starve.wrong_deck",
        "dont_starve.wrong_season",
        "dont_starve.weather_drawn",
        "dont_starve.needs_tile_used",
    ]
    entered = [
        e["item"] for r in rows for e in r.get("events", []) if e["type"] == "box_item_entered"
    ]
    assert entered == ["weather/card/autumn-t1", "needs/tile/9", "locations/forest/forest-t1"]
    assert rows[-1]["events"][-1]["reason"] == "dont_starve.scenario_won"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_event_announces_a_card_or_tile_the_table_did_not_give(seed: int) -> None:
    """The issue's "done when": in a game with the table's draws, played at random through the
    offers, every weather card, needs tile, location card and biome announced is the one the
    move that announced it gave."""
    session = Session(GAME, {"players": 2, "draws": "table"}, seed)
    rnd = random.Random(seed)
    seen = set()
    for _ in range(600):
        if session.state.outcome is not None:
            break
        groups = offers(GAME, session.state)
        move = sample(groups, rnd)
        assert move is not None
        result = session.submit(move)
        assert result.accepted, result.verdict.code
        for e in result.events:
            if e.type not in DRAWN:
                continue
            seen.add(e.type)
            data = e.to_dict()
            if e.type == "dont_starve.weather_drawn":
                assert move.type == "dont_starve.weather_card"
                assert data["card"] == (move.card or data["card"])
                assert catalogue(session.state).weather_card(data["card"]).symbols == tuple(
                    data["symbols"]
                )
            elif e.type == "dont_starve.needs_tile_laid":
                assert move.type == "dont_starve.needs_tile"
                assert data["tile"] == (move.tile or data["tile"])
            elif e.type == "dont_starve.location_explored":
                assert move.type == "dont_starve.location_card"
                assert data["card"] == (move.card or data["card"])
            elif e.type == "dont_starve.tile_revealed":
                assert move.type == "dont_starve.move" and data["biome"] == move.biome
            else:
                assert move.type in (
                    "dont_starve.weather_card",
                    "dont_starve.needs_tile",
                    "dont_starve.location_card",
                )
    assert {"dont_starve.weather_drawn", "dont_starve.needs_tile_laid"} <= seen


def test_every_draw_move_is_offered_in_the_table_example() -> None:
    """Each line of the table example that the rules accept is one the console offers at its
    point; each refused one is not offered as legal (what a touch can make)."""
    (path,) = [p for p in example_files("dont_starve") if p.name.endswith("table.jsonl")]
    kinds = set()
    for step in walk_example(path):
        found = offered(step.open, step.move)
        assert (found is not None) == step.accepted, (step.line, step.code)
        kinds.add(step.move.type)
    assert {
        "dont_starve.weather_card",
        "dont_starve.needs_tile",
        "dont_starve.location_card",
    } <= kinds
    assert Advance().type in kinds
