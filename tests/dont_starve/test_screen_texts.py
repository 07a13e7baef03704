"""What Don't Starve puts on the rebuilt table screen (issue 13) is clean in both languages: the
picture, the view, the log line of every event of the example games, the set-up options and the
end screen's sentences pass ``problems()`` (tests/support/player_texts.py), and name things as
the table does (dont-starve.zh.md)."""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path
from typing import Any

import pytest
from offer_walk import example_files
from player_texts import problems
from screen_texts import bad, picture_texts, view_and_picture_problems, walk

from engine.core import DicePoolAnnounced, Text, find_game
from engine.core.box import DRAWS_TEXTS
from engine.core.records import event_types
from engine.dont_starve.catalogue import catalogue
from engine.dont_starve.game import DontStarveOptions
from engine.dont_starve.moves import (
    CharacterMoved,
    FightStarted,
    LocationExplored,
    ScenarioEnd,
    WeatherAnnounced,
    WeatherDrawn,
)
from engine.dont_starve.picture import layout_picture
from engine.dont_starve.texts import CATALOGUE_LINES, EVENT_LINES, OUTCOME_TEXTS, option_texts

GAME = find_game("dont_starve")
FILES = example_files("dont_starve")


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_picture_view_and_log_of_every_state_of_the_example_games_are_clean(path: Path) -> None:
    found: list[str] = []
    lines = 0
    for number, state, events in walk(path, "dont_starve"):
        where = f"{path.name}:{number}"
        found += view_and_picture_problems(GAME, state, where)
        for event in events:
            data = event.to_dict()
            zh, en = GAME.event_text(data, "zh"), GAME.event_text(data, "en")
            own = event.type.startswith("dont_starve.") or event.type == "dice_pool_announced"
            if own or event.type == "seat_passed":  # §结束回合: said in the game's own words
                assert zh and en, (where, event.type)
                lines += 1
                found += bad(iter([zh]), iter([en]), f"{where} {event.type}")
            else:
                assert zh is None and en is None, (where, event.type)
    assert lines > 20
    assert not found, "\n".join(found[:30])


def test_the_set_up_picture_is_clean() -> None:
    for scenario in ("a_new_beginning", "winter_is_coming"):
        verdicts = [("missing", "A"), ("wrong_biome", "B")]
        zh, en = (layout_picture(catalogue(), scenario, lang, verdicts) for lang in ("zh", "en"))
        found = bad(picture_texts(zh), picture_texts(en), scenario)
        assert not found, found


def test_every_event_of_the_game_has_a_line_of_its_own() -> None:
    """Each event type Don't Starve announces is said by ``event_text`` (not the raw template
    with ids such as ``autumn-3`` or ``True``)."""
    own = {t for t in event_types() if t.startswith("dont_starve.")}
    assert own <= set(EVENT_LINES) | set(CATALOGUE_LINES)
    # dont-starve.zh.md §结束回合: a pass in the action phase ends that player's turn (the
    # activation token turned over), not the phase; in another phase it is done with the phase.
    ended = GAME.event_text({"type": "seat_passed", "seat": 0, "phase": "action"}, "zh")
    assert ended is not None and "回合结束" in ended and "本阶段" not in ended
    done = GAME.event_text({"type": "seat_passed", "seat": 0, "phase": "weather"}, "zh")
    assert done is not None and "本阶段" in done and "回合" not in done


def test_the_dice_line_names_the_dice_and_why_they_are_rolled() -> None:
    """§投骰: the whole pool at once; §战斗结算: each dodge cancels a success, one success wins,
    each hit deals the monster's damage; §敌意: a hostile monster adds a monster die."""
    fight = DicePoolAnnounced(0, ("character", "monster", "monster"), "fight").to_dict()
    assert GAME.event_text(fight, "zh") == (
        "1号玩家掷1颗角色骰和2颗怪物骰:战斗(至少一个成功才能获胜,每个闪避抵消一个成功,"
        "每个命中造成怪物伤害)"
    )
    hostility = DicePoolAnnounced(1, ("monster",), "hostility").to_dict()
    assert GAME.event_text(hostility, "en") == (
        "Player 2 rolls 1 monster die for hostility (a hostile monster is on the tile)"
    )
    interact = DicePoolAnnounced(0, ("character", "monster"), "interact").to_dict()
    assert "互动,加上敌意的怪物骰" in (GAME.event_text(interact, "zh") or "")
    clear = DicePoolAnnounced(None, (), "clear").to_dict()
    assert GAME.event_text(clear, "zh") == "骰子已掷完,收起骰子"


def test_the_log_names_tiles_biomes_and_symbols_in_words() -> None:
    """§天气阶段: the card's symbols, the storm icon among them; §探索: the biome's deck;
    the portal by its name, not its letter ``P``."""
    drawn = WeatherDrawn("autumn-3", ("cold", "storm", "cold")).to_dict()
    assert GAME.event_text(drawn, "zh") == (
        "翻开天气牌「初霜」:寒冷 | 风暴 | 寒冷(按演示盒的天气卡「初霜」判定:把你的盒子录入后才准确)"
    )
    announced = WeatherAnnounced("autumn-3", ("cold", "cold"), False).to_dict()
    assert GAME.event_text(announced, "en") == (
        "Weather: cold ×2 in force (judged by the demo box's weather card 'First Frost':"
        " copy your box to make this exact)"
    )
    revealed = {"type": "dont_starve.tile_revealed", "tile": "E", "biome": "marsh"}
    assert GAME.event_text(revealed, "en") == "Tile E turned over: marsh"
    moved = CharacterMoved(0, "P", "E").to_dict()
    assert GAME.event_text(moved, "zh") == "1号玩家从传送门移动到E格"
    explored = LocationExplored(1, "F", "badlands-03").to_dict()
    assert GAME.event_text(explored, "en") == (
        "Player 2 explores tile F: the badlands location card 'Gold Vein' (judged by the demo"
        " box's location card 'Gold Vein': copy your box to make this exact)"
    )
    fight = FightStarted(0, "location", "E", (0, 1), 3, (2, 1)).to_dict()
    assert (
        GAME.event_text(fight, "zh") == "1号玩家在E格与地点卡上的怪物战斗,2号玩家加入:共3颗怪物骰"
    )


def test_the_players_strip_is_the_characters_name_and_a_few_fields(play) -> None:
    """§属性: health, hunger, sanity first; a character's name as printed on its card."""
    p = play(players=2)
    for lang, names in (("zh", ["威尔逊", "薇洛"]), ("en", ["Wilson", "Willow"])):
        players = GAME.view(p.state, lang)["players"]
        assert [pl["name"] for pl in players] == names
        assert all(len(pl["fields"]) <= 6 for pl in players)
    zh = dict(map(tuple, GAME.view(p.state, "zh")["players"][0]["fields"]))
    assert list(zh)[:3] == ["生命", "饱食", "理智"]
    assert zh["位置"] == "传送门"
    p.set_char(0, sanity=3)  # below two thresholds (characters.toml): two shadows showing
    zh = dict(map(tuple, GAME.view(p.state, "zh")["players"][0]["fields"]))
    assert zh["理智"].endswith("(影怪2只)")


def test_the_view_names_difficulty_weather_and_result_in_words(play) -> None:
    """Seen on the screen before: ``survival``, ``cold storm cold``, a title marked placeholder.
    §季节与难度: 经典、生存、噩梦; §胜利与失败: the result."""
    p = play(players=1, difficulty="survival")
    summary = dict(map(tuple, GAME.view(p.state, "zh")["summary"]))
    assert summary["难度"] == "生存" and summary["剧本"] == "新的开始"
    assert "风暴" in summary["天气"] and "storm" not in summary["天气"]
    p.do(ScenarioEnd(0, "win"))
    assert ["结果", "胜利"] in GAME.view(p.state, "zh")["summary"]


def test_every_option_and_value_of_the_set_up_has_a_label() -> None:
    """§游戏设置: a scenario, the season of its card, a difficulty (经典、生存、噩梦), one
    character per player; §营地: up to three built structures."""
    texts = GAME.option_texts
    assert texts == {**option_texts(catalogue()), **DRAWS_TEXTS}
    for field in dataclasses.fields(DontStarveOptions):
        if field.name != "box":  # a record the set-up page shows apart (the box's state)
            assert field.name in texts, field.name
    hints = typing.get_type_hints(DontStarveOptions)
    for name, hint in hints.items():
        if name == "box":
            continue
        for arg in typing.get_args(hint) or (hint,):
            if typing.get_origin(arg) is typing.Literal:
                for value in typing.get_args(arg):
                    assert f"{name}={value}" in texts, (name, value)
    assert texts["characters=wendy"] == Text("温蒂", "Wendy")
    assert texts["difficulty=nightmare"] == Text("噩梦", "Nightmare")
    assert texts["scenario=winter_is_coming"] == Text("寒冬将至", "Winter Is Coming")
    assert texts["structures=fire pit"].zh == "火坑"
    for key in ("wilson", "willow", "wendy", "webber"):
        assert f"characters={key}" in texts
    found = [f"{k}: {problems(t)}" for k, t in texts.items() if problems(t)]
    assert not found, found


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_outcome_of_the_example_games_has_a_sentence(path: Path) -> None:
    """§胜利与失败: won when a scenario card says so; lost when the last needs tile goes, when a
    card says so, or when a defeated character cannot be revived."""
    *_, (_, state, _) = walk(path, "dont_starve")
    assert state.outcome is not None
    assert state.outcome.reason in GAME.outcome_texts


def test_every_outcome_reason_says_won_or_lost_and_why() -> None:
    """§胜利与失败: one sentence per reason, won or lost in both languages."""
    reasons = {
        "dont_starve.scenario_won": ("胜利", "Won", "剧本卡"),
        "dont_starve.out_of_time": ("失败", "Lost", "需求板块"),
        "dont_starve.no_effigy": ("失败", "Lost", "肉块雕像"),
        "dont_starve.scenario_lost": ("失败", "Lost", "剧本卡"),
    }
    assert set(GAME.outcome_texts) == set(reasons) and GAME.outcome_texts == OUTCOME_TEXTS
    for reason, (zh, en, why) in reasons.items():
        text = GAME.outcome_texts[reason]
        assert not problems(text), (reason, problems(text))
        assert text.zh.startswith(zh) and text.en.startswith(en) and why in text.zh


def test_a_lost_scenario_card_ends_with_its_sentence(play) -> None:
    """§胜利与失败: 剧本卡明确声明你失败."""
    p = play(players=1)
    p.do(ScenarioEnd(0, "lose"))
    assert p.state.outcome is not None
    assert GAME.outcome_texts[p.state.outcome.reason].en.startswith("Lost: the scenario card")


SAMPLES: dict[str, list[dict[str, Any]]] = {
    "dont_starve.dial_set": [{"value": 5, "time": "night"}],
    "dont_starve.needs_tile_removed": [{"left": 4, "time": "day"}, {"left": 0, "time": ""}],
    "dont_starve.weather_drawn": [{"card": "autumn-3", "symbols": ["cold", "storm", "cold"]}],
    "dont_starve.needs_announced": [
        {"light": 1, "hunger": 2, "sanity": 1},
        {"light": 1, "hunger": 2, "sanity": 1, "tile": 3},
    ],
    "dont_starve.needs_tile_laid": [
        {"tile": 3, "side": "day", "light": 0, "hunger": 2, "sanity": 0},
        {"tile": 9, "side": "night", "light": 2, "hunger": 1, "sanity": 1},
    ],
    "dont_starve.weather_announced": [
        {"card": "autumn-3", "symbols": ["wet"], "past_storm": True},
        {"card": "autumn-1", "symbols": [], "past_storm": False},
    ],
    "dont_starve.character_moved": [
        {"seat": 0, "from_tile": "P", "to_tile": "E"},
        {"seat": 1, "from_tile": "", "to_tile": "E"},
    ],
    "dont_starve.tile_revealed": [{"tile": "E", "biome": "marsh"}],
    "dont_starve.location_explored": [{"seat": 1, "tile": "F", "card": "forest-04"}],
    "dont_starve.fight_started": [
        {
            "seat": 0,
            "target": t,
            "tile": "E",
            "fighters": [0],
            "monster_dice": 1,
            "split": [1],
            "tier": 2 if t == "shadow" else 0,
        }
        for t in ("location", "scenario", "shadow")
    ],
    "dont_starve.fighter_resolved": [
        {"seat": 1, "won": False, "damage": 2},
        {"seat": 0, "won": True, "damage": 0},
    ],
    "dont_starve.fight_ended": [
        {"won": w, "target": "location", "tile": "P"} for w in (True, False)
    ],
    "dont_starve.stats_changed": [{"seat": 0, "health": 9, "hunger": 7, "sanity": 9}],
    "dont_starve.shadow_revealed": [{"seat": 0, "tier": 1}],
    "dont_starve.shadow_covered": [{"seat": 0, "tier": 2}],
    "dont_starve.character_defeated": [{"seat": 1}],
    "dont_starve.character_revived": [{"seat": 1, "effigies_left": 0}],
    "dont_starve.focus_changed": [
        {"seat": 0, "active": 2, "reason": r} for r in ("refreshed", "reroll", "revived")
    ],
    "dont_starve.inventory_changed": [
        {"seat": 0, "kind": k, "count": n}
        for k in ("basic", "raw_food", "cooked_food", "loot", "item")
        for n in (0, 1, 3)
    ],
    "dont_starve.world_event": [{"name": n} for n in ("spoil_all", "regrow", "monster_refresh")],
    "dont_starve.essence_changed": [{"essence": 9}],
    "dont_starve.scenario_won": [{"unlock_points": 4}],
    "dice_pool_announced": [
        {"seat": 0, "dice": ["monster", "monster"], "reason": "shadow"},
        {"seat": 2, "dice": ["character", "monster"], "reason": "reroll"},
        {"seat": 0, "dice": ["character"], "reason": "interact"},
    ],
}
"""Every event of the game with the values it may carry (moves.py, docs/dont_starve.md)."""


def test_every_event_with_each_value_it_may_carry_reads_cleanly() -> None:
    """The example games do not reach every event (a shadow covered, a revived character's
    focus, each world event): their lines are clean too, in both languages."""
    own = {t for t in event_types() if t.startswith("dont_starve.")}
    assert own <= set(SAMPLES)
    found = []
    for kind, samples in SAMPLES.items():
        for fields in samples:
            event = {"type": kind, **fields}
            zh, en = GAME.event_text(event, "zh"), GAME.event_text(event, "en")
            assert zh and en, event
            found += bad(iter([zh]), iter([en]), kind)
    assert not found, "\n".join(found)


def test_structures_offered_at_set_up_are_taken_as_typed_or_listed(play) -> None:
    """§营地: the set-up page offers structures by name (``structures=science machine``); a
    name with a space is one structure, listed or typed with commas."""
    for typed in (["science machine", "fire pit"], "Science Machine, fire pit"):
        p = play(players=1, structures=typed)
        assert p.data.structures == ("science machine", "fire pit")
    assert play(players=2, characters="wilson wendy").data.characters[1].key == "wendy"
