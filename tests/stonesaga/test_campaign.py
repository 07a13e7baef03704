"""The campaign between sessions (stonesaga.zh.md §战役, §角色死亡与传说, §废墟与迁移前哨,
§开局设置): the Log, the next session's options, the interval phase, and the two example files
that carry a campaign from one session to the next."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from offer_walk import random_walk

from engine.core import (
    DicePoolAnnounced,
    GameConfigError,
    IllegalMoveError,
    Pass,
    apply,
    legal,
    move_from_dict,
    start,
)
from engine.stonesaga import STONESAGA as GAME
from engine.stonesaga import campaign as camp
from engine.stonesaga import moves as mv
from engine.stonesaga.catalogue import catalogue
from engine.stonesaga.state import TilePlacement, ValleyRecord
from engine.stonesaga.texts import KIND_ORDER
from kiosk.campaigns import summary
from kiosk.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
FIRST = EXAMPLES / "stonesaga-campaign-1.jsonl"
SECOND = EXAMPLES / "stonesaga-campaign-2.jsonl"
EPOCH = EXAMPLES / "stonesaga-campaign-epoch.jsonl"
CAT = catalogue()
"""The demo box's catalogue, which these sessions are played with."""


def hero(name: str, age: str = "young", **attributes: int) -> dict[str, Any]:
    """A character of the Log as JSON."""
    values = {"strength": 4, "dexterity": 4, "faith": 4, "perception": 4, **attributes}
    return {"name": name, "trait": "wise", **values, "age": age, "legend": age == "dead"}


VALLEY = ValleyRecord(
    "green_vale",
    tuple(TilePlacement(str(101 + k), 1 + k // 3, k % 3, 60 * (k % 2), k != 5) for k in range(6)),
)


def log_json(**changes: Any) -> dict[str, Any]:
    """A Log after the first session of a campaign (GI01 won), with changes."""
    log = {
        "epoch": 1,
        "session": 1,
        "population": 8,
        "unrest": 1,
        "roster": [hero("Elder", "old", faith=3), hero("Ash"), hero("Birch", "dead")],
        "kept": [{"name": "Elder", "items": ["bone needle"], "materials": ["wood", "clay"]}],
        "valley": None,
        "outposts": [{"tile": "101", "buildings": ["hearth", "workshop"]}],
        "ruins": [],
        "behemoths": [{"name": "Grumblehorn", "demeanor": 3, "lair": True}],
        "challenges": [{"id": "GI01", "result": "won"}],
        "pending": ["CR01", "CR02", "CR03"],
        "version": 1,
    }
    return {**log, **changes}


class Between:
    """A session set up from a Log, driven move by move."""

    def __init__(
        self, challenge: str, players: int = 2, seed: int = 0, draws: str = "virtual", **log: Any
    ) -> None:
        options = {"players": players, "challenge": challenge, "log": log_json(**log)}
        options["draws"] = draws  # the engine draws the alert behemoth, unless "table"
        self.state, self.events = start(GAME, options, seed)

    def do(self, move: Any) -> tuple[Any, ...]:
        self.state, events = apply(GAME, self.state, move)
        return events

    def refused(self, move: Any) -> str:
        verdict = legal(GAME, self.state, move)
        assert not verdict.ok
        return verdict.code

    @property
    def data(self) -> Any:
        return self.state.data


def replay(path: Path) -> tuple[Any, list[str]]:
    """The state after every line of an example file, and the codes of the refused lines."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    state, _ = start(GAME, rows[0]["setup"], rows[0]["seed"])
    refused = []
    for row in rows[1:]:
        move = move_from_dict(row)
        verdict = legal(GAME, state, move)
        if verdict.ok:
            state, _ = apply(GAME, state, move)
        else:
            refused.append(verdict.code)
    return state, refused


# --- the Log -------------------------------------------------------------------------------


def test_the_log_round_trips_exactly() -> None:
    """§局间保留与存档 存档六步: what is saved is read back as it was written."""
    data = log_json(valley=json.loads(json.dumps(mv.RecordValley(0, VALLEY).to_dict()))["record"])
    log = camp.Log.from_json(data, CAT)
    assert log.to_json() == data
    assert camp.Log.from_json(log.to_json(), CAT) == log
    assert log.valley == VALLEY and log.roster[0].age == "old" and log.roster[2].legend


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"epoch": 4}, "log.epoch: a campaign has epochs 1 to 3, not 4"),
        ({"roster": [hero("Ash", "ancient")]}, "log.roster[0].age: 'ancient' is not one of"),
        ({"roster": [{**hero("Ash"), "legend": True}]}, "log.roster[0].legend"),
        ({"roster": [hero("Ash"), hero("Ash")]}, "log.roster[1].name: 'Ash' is empty or used"),
        ({"roster": [{**hero("Ash"), "strength": "6"}]}, "log.roster[0].strength: Input should"),
        ({"kept": [{"name": "Nobody"}]}, "log.kept[0].name: 'Nobody' is not in the roster"),
        ({"kept": [{"name": "Ash", "items": ["x"] * 6}]}, "log.kept[0].items: a character keeps"),
        ({"challenges": [{"id": "GI01", "result": "tied"}]}, "log.challenges[0].result"),
        ({"challenges": []}, "log.challenges: a Log follows a session"),
        ({"pending": ["ZZ99"]}, "log.pending[0]: stonesaga has no challenge 'ZZ99'"),
        ({"populaton": 8}, "log.populaton: not a part of the Log (a typo?)"),
        ({"version": 2}, "this Log has version 2"),
    ],
)
def test_a_bad_log_is_one_clear_error(change: dict[str, Any], message: str) -> None:
    """A Log that could not have come from a session is refused naming the place, never a
    traceback (through the options, as the kiosk and the replay pass it)."""
    with pytest.raises(GameConfigError) as caught:
        GAME.parse_options({"players": 2, "challenge": "CR01", "log": log_json(**change)})
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_the_log_is_none_until_the_session_has_ended() -> None:
    """The Log is written at the save (§局间保留与存档): not before the game ends."""
    state, _ = start(GAME, {"players": 1}, 0)
    assert GAME.campaign_log(state) is None


# --- the next session's options (§开局设置.5, .9) -----------------------------------------------


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("population", 7, "the Log has population 8, not 7"),
        ("unrest", 0, "the Log has unrest 1, not 0"),
        ("epoch", 2, "the Log's next session is in epoch 1, not 2"),
        ("roster", [hero("Wren")], "the Log gives the roster"),
        ("behemoths", ["Mirewing"], "the Log gives the behemoths"),
    ],
)
def test_options_that_contradict_the_log_are_refused(option: str, value: Any, message: str) -> None:
    """§开局设置.9: 动荡与人口沿用上一局结束时的数值; the Log gives the roster and behemoths."""
    with pytest.raises(GameConfigError, match=message):
        GAME.parse_options({"players": 2, "challenge": "CR01", "log": log_json(), option: value})
    same = {"population": 8, "unrest": 1, "epoch": 1}
    GAME.parse_options({"players": 2, "challenge": "CR01", "log": log_json(), **same})


def played(*cards: tuple[str, str]) -> list[dict[str, str]]:
    return [{"id": c, "result": r} for c, r in cards]


@pytest.mark.parametrize(
    ("log", "allowed", "epoch", "session"),
    [
        ({}, {"CR01", "CR02", "CR03"}, 1, 2),
        ({"pending": ["CR03"]}, {"CR03"}, 1, 2),
        ({"session": 3, "pending": ["CR01"]}, {"CR01", "FI01", "FI02", "FI03"}, 1, 4),
        ({"session": 5, "pending": ["CR01"]}, {"FI01", "FI02", "FI03"}, 1, 6),
        (
            {"session": 4, "challenges": played(("GI01", "won"), ("FI01", "won"))},
            {"ES01", "ES02", "ES03"},
            2,
            1,
        ),
    ],
)
def test_the_challenge_is_one_the_rule_allows_for_the_next_session(
    log: dict[str, Any], allowed: set[str], epoch: int, session: int
) -> None:
    """§开局设置.5: 本纪元第 2–3 局选悬置的「危机」；第 4–5 局在「终局」与「危机」间选；第 6 局
    必须选「终局」; after a finale the next epoch begins with an 「纪元起始」 card."""
    cards = set(CAT.challenges)
    ok = set()
    for card in cards:
        try:
            GAME.parse_options({"players": 2, "challenge": card, "log": log_json(**log)})
        except GameConfigError as exc:
            assert "allowed: " + ", ".join(sorted(allowed)) in str(exc)
            continue
        ok.add(card)
    assert ok == allowed
    state, _ = start(GAME, {"players": 2, "challenge": min(ok), "log": log_json(**log)}, 0)
    assert (state.data.epoch, state.data.session) == (epoch, session)


def test_after_the_third_epochs_finale_the_campaign_is_over() -> None:
    """§三个纪元: 一场战役分三个纪元."""
    log = log_json(epoch=3, session=5, challenges=played(("FI01", "won")))
    with pytest.raises(GameConfigError, match="this campaign is over"):
        GAME.parse_options({"players": 2, "challenge": "ES01", "log": log})


def test_the_log_gives_the_tracks_the_outposts_the_roster_and_the_behemoths() -> None:
    """§开局设置.7–9: the map as the Log records it, population and unrest carried over; the
    alert behemoth is drawn from those whose lair is active (§巨兽 警觉)."""
    sleeping = [{"name": "Grumblehorn", "lair": False}, {"name": "Stonetusk", "demeanor": 2}]
    table = Between("CR01", behemoths=sleeping)
    data = table.data
    assert (data.population, data.unrest, data.epoch, data.session) == (8, 1, 1, 2)
    assert data.tile("101").outpost and data.tile("101").buildings == ("hearth", "workshop")
    assert [h.name for h in data.roster] == ["Elder", "Ash", "Birch"]
    assert data.alert == "Stonetusk"
    assert table.state.flow.phase == "interval"


# --- the interval (§间隔与变老) --------------------------------------------------------------


def test_a_season_changes_no_character_and_allows_one_free_outpost_move() -> None:
    """§间隔与变老 季 Season：对已有角色无影响; §废墟与迁移前哨: Season 间隔可迁 1 座."""
    table = Between("CR01", outposts=[{"tile": "101"}, {"tile": "104"}])
    assert [h.age for h in table.data.roster] == ["old", "young", "dead"]
    assert table.data.old_age == () and table.data.free_moves == 1
    table.do(mv.MoveOutpost(0, "101", "102"))
    assert table.data.tile("102").outpost and not table.data.tile("101").outpost
    assert table.refused(mv.MoveOutpost(1, "104", "105")) == "stonesaga.no_free_move"
    table.do(Pass(0))
    table.do(Pass(1))
    assert table.state.flow.phase == "creation"


def test_a_generation_ages_everyone_and_the_old_die_mourned_with_two_more() -> None:
    """§间隔与变老 世代: 年轻 → 变老；已老 → 死亡并成为传说 (含未上场的); §角色死亡与传说.1: 若因
    局间年老而死，结果 +2 — a roll of 3 makes 5: an attribute +1, the players' choice. Any
    player enters the die the tray lights for the table; nobody passes before it."""
    table = Between("CR02")
    assert [(h.name, h.age, h.legend) for h in table.data.roster] == [
        ("Elder", "dead", True),
        ("Ash", "old", False),
        ("Birch", "dead", True),
    ]
    pools = [e for e in table.events if isinstance(e, DicePoolAnnounced)]
    assert pools[-1].seat is None and pools[-1].dice == ("d6",)
    assert table.data.old_age == (0,)
    assert table.refused(Pass(0)) == "stonesaga.old_age_due"
    assert table.refused(mv.Mourn(1, 0, 3)) == "stonesaga.attribute_needed"
    assert table.refused(mv.Mourn(1, 2, 3, "faith")) == "stonesaga.no_mourning"  # died before
    events = table.do(mv.Mourn(1, 0, 3, "faith"))
    mourned = next(e for e in events if isinstance(e, mv.LegendMourned))
    assert (mourned.roll, mourned.total, mourned.effect) == (3, 5, "faith+1")
    assert table.data.roster[0].faith == 4 and table.data.population == 8
    assert table.data.free_moves == 1  # §废墟与迁移前哨: Generation: one per outpost


@pytest.mark.parametrize(("roll", "effect"), [(1, "unrest"), (2, "unrest"), (3, "faith+1")])
def test_old_age_adds_two_to_the_mourning_roll(roll: int, effect: str) -> None:
    """§角色死亡与传说.1: 1 人口 −1; 2–4 动荡 +1; 5–6 属性 +1 — with +2 for old age a 1 counts
    as 3 (unrest), never population −1."""
    table = Between("CR02")
    table.do(mv.Mourn(0, 0, roll, "faith" if effect == "faith+1" else ""))
    assert table.data.population == 8
    assert table.data.unrest == (2 if effect == "unrest" else 1)


def test_an_epoch_ends_every_character_mourned_between_sessions_with_plus_two() -> None:
    """§间隔与变老 纪元 Epoch：所有角色死亡并成为传说; §角色死亡与传说: 角色可能因疾病积累在局中
    死亡，也可能在局间老死 — 掷一颗 d6（若因局间年老而死，结果 +2）. An epoch's deaths come
    between sessions, of the passing of time, so the young are mourned with the +2 as the old
    are (the ruling of issue 26): a 1 counts 3 (unrest), never population −1. At an epoch's
    start each outpost may move once (§废墟与迁移前哨)."""
    log = {"session": 4, "challenges": played(("GI01", "won"), ("FI01", "won"))}
    table = Between("ES01", **log)
    assert [h.age for h in table.data.roster] == ["dead", "dead", "dead"]
    assert table.data.old_age == (0, 1) and table.data.epoch == 2
    events = table.do(mv.Mourn(0, 1, 1))  # Ash, young: 1 + 2 = 3
    assert (table.data.population, table.data.unrest) == (8, 2)
    assert events[0].to_dict()["total"] == 3
    table.do(mv.Mourn(1, 0, 3, "strength"))  # Elder, old: 3 + 2 = 5
    assert table.data.roster[0].strength == 5
    table.do(mv.MoveOutpost(0, "101", "102"))
    assert table.refused(mv.MoveOutpost(0, "102", "103")) == "stonesaga.no_free_move"


def test_at_a_new_epoch_outposts_beyond_the_population_become_ruins() -> None:
    """§建前哨: 开局人口 8 → 上限 2 个…若在新纪元开始时前哨数超过上限，必须自选若干个变成废墟;
    §废墟与迁移前哨: 其上所有建筑失效. The mourning comes first (it may change the tracks)."""
    outposts = [{"tile": "101", "buildings": ["hearth"]}, {"tile": "103"}, {"tile": "104"}]
    log = {"session": 4, "challenges": played(("GI01", "won"), ("FI01", "won"))}
    table = Between("ES01", outposts=outposts, population=7, **log)
    assert table.refused(mv.RuinOutpost(0, "101")) == "stonesaga.no_ruin_due"  # mourn first
    table.do(mv.Mourn(0, 0, 1))  # 1 + 2: unrest, population stays 7: one outpost allowed
    table.do(mv.Mourn(0, 1, 2))
    verdict = legal(GAME, table.state, Pass(0))
    assert (
        verdict.code == "stonesaga.ruins_due" and "choose 2 to become ruins" in verdict.message.en
    )
    table.do(mv.RuinOutpost(0, "101"))
    assert table.data.tile("101").ruin and table.data.tile("101").buildings == ()
    assert table.refused(mv.RuinOutpost(1, "102")) == "stonesaga.no_outpost"
    table.do(mv.RuinOutpost(1, "104"))
    assert table.refused(mv.RuinOutpost(1, "103")) == "stonesaga.no_ruin_due"
    table.do(Pass(0))
    table.do(Pass(1))
    assert table.state.flow.phase == "creation"


def test_no_ruins_are_asked_within_an_epoch() -> None:
    """§建前哨: only at a new epoch's start — within an epoch outposts over the limit stand."""
    outposts = [{"tile": "101"}, {"tile": "103"}, {"tile": "104"}]
    table = Between("CR01", outposts=outposts)
    assert table.refused(mv.RuinOutpost(0, "101")) == "stonesaga.no_ruin_due"
    table.do(Pass(0))


def test_an_outpost_moves_to_an_adjacent_tile_once_with_one_building() -> None:
    """§废墟与迁移前哨: 移到相邻的、没有前哨的地块; 至多保留 1 座不可移动建筑."""
    table = Between("CR02", outposts=[{"tile": "101", "buildings": ["hearth", "workshop"]}])
    table.do(mv.Mourn(0, 0, 6, "faith"))
    assert table.refused(mv.MoveOutpost(0, "101", "106")) == "stonesaga.not_adjacent"
    assert table.refused(mv.MoveOutpost(0, "103", "102")) == "stonesaga.no_outpost"
    table.do(mv.MoveOutpost(0, "101", "102"))
    assert table.data.tile("102").buildings == ("hearth",)


# --- the valley (§开局设置.7, §山谷扩张) -----------------------------------------------------


def valley_json(record: ValleyRecord) -> dict[str, Any]:
    return mv.RebuildValley(0, record).to_dict()["record"]


def test_the_rebuilt_valley_is_checked_against_the_logs_map() -> None:
    """§开局设置.7: 按《日志》「山谷地图」页记录的布局摆好地形托盘与地块: a tile missing or turned
    is refused with what to fix, in words; the valley as recorded is accepted, and nobody passes
    before it is checked."""
    table = Between("CR01", valley=valley_json(VALLEY))
    assert table.refused(Pass(0)) == "stonesaga.valley_unchecked"
    missing = replace(VALLEY, tiles=VALLEY.tiles[1:])
    verdict = legal(GAME, table.state, mv.RebuildValley(0, missing))
    assert verdict.code == "stonesaga.valley_mismatch"
    assert "缺地块101(放在托盘1第1格)" in verdict.message.zh
    assert "tile 101 is missing (it goes in tray 1 slot 1)" in verdict.message.en
    turned = replace(VALLEY, tiles=(replace(VALLEY.tiles[0], rotation=120), *VALLEY.tiles[1:]))
    verdict = legal(GAME, table.state, mv.RebuildValley(0, turned))
    assert "tile 101 is turned wrong; it goes at 0°" in verdict.message.en
    table.do(mv.RebuildValley(0, VALLEY))
    table.do(Pass(0))
    table.do(Pass(1))
    assert table.state.flow.phase == "creation"


def test_the_valley_grows_with_the_epoch() -> None:
    """§山谷扩张: 纪元 1 → 4 个；纪元 2 → 6 个；纪元 3 → 8 个; an expansion's tiles go face down
    (背面朝上) in new trays; beyond the epoch's trays the rebuild is refused."""
    log = {"session": 4, "challenges": played(("GI01", "won"), ("FI01", "won"))}
    table = Between("ES02", valley=valley_json(VALLEY), **log)

    def trays(n: int) -> ValleyRecord:
        new = tuple(
            TilePlacement(str(200 + 3 * t + s), t, s, explored=False)
            for t in range(3, n + 1)
            for s in range(3)
        )
        return replace(VALLEY, tiles=(*VALLEY.tiles, *new))

    assert table.refused(mv.RebuildValley(0, trays(7))) == "stonesaga.valley_capacity"
    shown = replace(
        trays(6), tiles=(*trays(6).tiles[:-1], replace(trays(6).tiles[-1], explored=True))
    )
    assert table.refused(mv.RebuildValley(0, shown)) == "stonesaga.valley_mismatch"
    events = table.do(mv.RebuildValley(0, trays(6)))
    rebuilt = next(e for e in events if isinstance(e, mv.ValleyRebuilt))
    assert (rebuilt.trays, rebuilt.capacity, rebuilt.expansion) == (6, 6, 12)
    assert table.data.valley_record == trays(6)


# --- relics and kept things (§角色死亡与传说 遗物, §局间保留与存档) ---------------------------


def test_a_death_between_sessions_hands_its_relics_to_one_new_character() -> None:
    """§角色死亡与传说 遗物: 局间死亡：可把任意 5 件物品 + 任意 5 份资源交给玩家新选的角色 —
    once: a second character cannot take them again. (Ash, who lives on, sits at player 1's
    seat from the start: §开局设置.1, issue 38.)"""
    table = Between("CR02")
    assert [(c.name, c.seat) for c in table.data.characters] == [("Ash", 0)]
    table.do(mv.Mourn(0, 0, 2))
    table.do(Pass(0))
    table.do(Pass(1))
    create = mv.CreateCharacter(1, "Fern", "wise", ((6, 6, 5, 4, 1),), 6, 5, 4, 6, "Elder")
    assert table.refused(replace(create, inherits="Ash")) == "stonesaga.no_relics"
    table.do(create)
    fern = table.data.characters[1]
    assert fern.items == ("bone needle",)
    assert dict(fern.pack) == {"wood:raw": 1, "clay:raw": 1}
    again = mv.ChooseCharacter(0, "Ash", "Elder")
    assert table.refused(again) == "stonesaga.no_relics"


def test_a_character_the_log_seated_takes_the_relics_when_its_player_chooses_it() -> None:
    """§角色死亡与传说 遗物 局间死亡: 交给玩家新选的角色 — the character the Log seated is the
    player's new choice: choosing it again with a dead one's relics hands them over, once;
    choosing it without relics would change nothing and is refused, as is another player's."""
    table = Between("CR02")
    table.do(mv.Mourn(0, 0, 2))
    table.do(Pass(0))
    table.do(Pass(1))
    assert table.refused(mv.ChooseCharacter(0, "Ash")) == "stonesaga.already_yours"
    assert table.refused(mv.ChooseCharacter(1, "Ash", "Elder")) == "stonesaga.not_your_character"
    events = table.do(mv.ChooseCharacter(0, "Ash", "Elder"))
    assert [type(e).__name__ for e in events] == ["RelicsInherited"]
    (ash,) = table.data.characters
    assert ash.items == ("bone needle",) and dict(ash.pack) == {"wood:raw": 1, "clay:raw": 1}
    assert table.refused(mv.ChooseCharacter(0, "Ash", "Elder")) == "stonesaga.no_relics"


def test_a_character_of_the_log_comes_with_what_it_kept() -> None:
    """§局间保留与存档: 保留物品与材料放进角色卡分隔盒 — they come back with the character,
    which the Log seats at once (§开局设置.1, issue 38)."""
    table = Between("CR01")
    elder = table.data.characters[0]
    assert (elder.name, elder.seat) == ("Elder", 0)
    assert elder.items == ("bone needle",) and dict(elder.pack) == {"wood:raw": 1, "clay:raw": 1}
    table.do(Pass(0))
    table.do(Pass(1))
    with pytest.raises(IllegalMoveError):
        table.do(mv.ChooseCharacter(1, "Birch"))  # §开局设置.1: 已死亡或已成传说的角色不能选


# --- the example campaign -------------------------------------------------------------------


def test_the_second_example_starts_from_the_log_the_first_one_ends_with() -> None:
    """The Log in stonesaga-campaign-2.jsonl's setup line is campaign_log of replaying
    stonesaga-campaign-1.jsonl, so neither example can drift from the other."""
    first, refused = replay(FIRST)
    assert refused == [] and first.outcome is not None
    setup = json.loads(SECOND.read_text(encoding="utf-8").splitlines()[0])["setup"]
    assert setup["log"] == GAME.campaign_log(first)


def test_the_second_example_plays_a_generation_with_a_death_of_old_age() -> None:
    """§间隔与变老 世代 and §角色死亡与传说.1: Elder (old) dies between sessions and is mourned
    3 + 2 = 5, faith +1 (3 → 4); Ash grows old; the outpost moves free; Flint takes Elder's
    relics; the next Log lists all three and both challenges."""
    second, refused = replay(SECOND)
    assert refused == ["stonesaga.old_age_due"]
    log = camp.Log.from_json(GAME.campaign_log(second), CAT)
    ages = {h.name: (h.age, h.legend, h.faith) for h in log.roster}
    assert ages == {
        "Elder": ("dead", True, 4),
        "Ash": ("old", False, 2),
        "Flint": ("young", False, 3),
    }
    assert [o.tile for o in log.outposts] == ["102"]
    assert [(p.id, p.result) for p in log.challenges] == [("GI01", "won"), ("CR02", "won")]
    assert "CR02" not in log.pending
    assert (log.epoch, log.session) == (1, 2)


def test_the_epoch_example_ends_every_character_and_ruins_the_outposts_over_the_limit() -> None:
    """§间隔与变老 纪元 and §建前哨: its Log is the second example's, two sessions on (a crisis
    and the finale, three outposts: written by hand); the epoch ends Ash and Flint, each mourned
    with the +2 (a 1 counts 3: unrest, population stays 8, two outposts allowed), one outpost
    becomes a ruin, another moves free, and two new characters take the relics."""
    setup = json.loads(EPOCH.read_text(encoding="utf-8").splitlines()[0])["setup"]
    before = GAME.campaign_log(replay(SECOND)[0])
    for key in ("roster", "kept", "population", "unrest", "behemoths", "epoch"):
        assert setup["log"][key] == before[key]
    assert setup["log"]["challenges"][:2] == before["challenges"]
    assert setup["log"]["valley"]["tiles"] == before["valley"]["tiles"]
    state, refused = replay(EPOCH)
    assert refused == ["stonesaga.ruins_due", "stonesaga.no_ruin_due"]
    log = camp.Log.from_json(GAME.campaign_log(state), CAT)
    assert (log.epoch, log.session, log.population, log.unrest) == (2, 1, 8, 1)
    assert {h.name: h.age for h in log.roster} == {
        "Elder": "dead",
        "Ash": "dead",
        "Flint": "dead",
        "Birch": "young",
        "Reed": "young",
    }
    assert [o.tile for o in log.outposts] == ["101", "104"]
    assert "103" in log.ruins
    ruined = {o.tile for o in log.valley.overlays if o.state == "ruin"}
    assert ruined == {"103"}


def test_replay_writes_the_log_with_campaign_out(tmp_path: Path, capsys) -> None:
    """`tablesight replay --campaign-out FILE` writes the Log a group carries to its next
    session; a session that has not ended has none (one line, exit 2)."""
    out = tmp_path / "log.json"
    assert main(["replay", "stonesaga", str(FIRST), "--campaign-out", str(out)]) == 0
    setup = json.loads(SECOND.read_text(encoding="utf-8").splitlines()[0])["setup"]
    assert json.loads(out.read_text(encoding="utf-8")) == setup["log"]
    capsys.readouterr()
    partial = tmp_path / "partial.jsonl"
    partial.write_text("\n".join(FIRST.read_text(encoding="utf-8").splitlines()[:5]))
    assert main(["replay", "stonesaga", str(partial), "--campaign-out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "tablesight replay: no campaign Log to write: the stonesaga session has not ended"


NEW_EPOCH = {
    "session": 4,
    "challenges": played(("GI01", "won"), ("FI01", "won")),
    "outposts": [{"tile": "101"}, {"tile": "103"}, {"tile": "104"}],
}


@pytest.mark.parametrize(
    ("seed", "challenge", "log"),
    [(1, "CR02", {}), (2, "CR02", {}), (3, "CR01", {}), (4, "ES01", NEW_EPOCH)],
)
def test_a_random_walk_from_a_log_is_never_refused_and_ends(
    seed: int, challenge: str, log: dict[str, Any]
) -> None:
    """Only the console's offers, from a Log with outposts and a valley, after a season, a
    generation or an epoch: the mourning, the ruins, the free moves, the rebuild and creation
    are all offered; nothing is refused and the session ends."""
    valley = valley_json(VALLEY)
    for outpost in log.get("outposts", [{"tile": "101"}]):
        valley["overlays"].append({"overlay": "outpost 1", "tile": outpost["tile"], "zone": 0})
    setup = {"players": 2, "challenge": challenge, "log": log_json(valley=valley, **log)}
    walk = random_walk(GAME, setup, seed, 1500)  # a bound: walks of 200–800 moves were seen
    assert walk.refused == [] and walk.ended
    assert "stonesaga.rebuild_valley" in walk.types
    if challenge != "CR01":
        assert "stonesaga.mourn" in walk.types
    if log:
        assert "stonesaga.ruin_outpost" in walk.types


@pytest.mark.parametrize(
    ("interval", "outposts", "epoch_start", "free"),
    [
        ("season", 3, False, 1),
        ("season", 0, False, 0),
        ("generation", 3, False, 3),
        ("epoch", 2, True, 2),
        ("season", 3, True, 3),
        ("introduction", 2, False, 0),
    ],
)
def test_the_free_outpost_moves_between_sessions(
    interval: str, outposts: int, epoch_start: bool, free: int
) -> None:
    """§废墟与迁移前哨: 局间也能免费迁移（Season 间隔可迁 1 座，Generation／纪元起始可各迁一座）."""
    assert camp.free_relocations(interval, outposts, epoch_start) == free


def test_the_campaign_card_names_the_characters_as_the_console_does() -> None:
    """The set-up page's campaign card (kiosk.campaigns.summary) names the Log's characters as
    the pickers and the log do: 灰烬 / 白桦 in Chinese, Ash / Birch in English (issue 24:
    "在世:Ash、Birch"); a name not in our list stays as the players wrote it."""
    log = {"epoch": 1, "session": 2, "roster": [hero("Ash"), hero("Birch"), hero("Elder", "dead"),
           hero("Quill")]}  # fmt: skip
    assert summary(log, "zh", GAME) == ["第1纪元 第2局之后", "在世:灰烬、白桦、Quill", "传说:长者"]
    assert summary(log, "en", GAME)[1:] == ["Living: Ash, Birch, Quill", "Legends: Elder"]


@pytest.mark.parametrize(("card", "epoch"), [("CR01", None), ("FI01", None), ("ES01", None),
                                              ("GI01", 2), ("CR01", 2)])  # fmt: skip
def test_a_new_campaigns_first_session_takes_the_opener_its_epoch_names(
    card: str, epoch: int | None
) -> None:
    """§开局设置.5: 第一个纪元的第一局必须选「战役起始」挑战;之后每个纪元的第一局选「纪元起始」.
    Without a Log a session is the first of its epoch, so a crisis or a finale is refused with
    the cards allowed (issue 24: a crisis was accepted as a new campaign's first session)."""
    options: dict[str, Any] = {"players": 2, "challenge": card}
    if epoch is not None:
        options["epoch"] = epoch
    with pytest.raises(GameConfigError, match=r"§开局设置\.5.*allowed: "):
        GAME.parse_options(options)


def test_a_refused_challenge_is_said_to_the_players_by_the_cards_titles() -> None:
    """§开局设置.5: 第一个纪元的第一局必须选「战役起始」挑战. The set-up page shows the refusal
    (issue 24: it was English only): which kind the session takes and the cards allowed, by the
    titles printed on them, never by our ids, in each language."""
    with pytest.raises(GameConfigError) as refused:
        GAME.parse_options({"players": 2, "challenge": "CR01"})
    said = refused.value.text
    opener, crisis = CAT.challenge("GI01").title, CAT.challenge("CR01").title
    assert said.zh.startswith("第1纪元第1局要选战役起始挑战")
    assert f"「{crisis.zh}」是危机挑战" in said.zh
    assert f"可选:「{opener.zh}」" in said.zh
    assert f"'{crisis.en}' is a crisis" in said.en and f"Allowed: {opener.en}" in said.en
    ids = re.compile(r"\b(GI|CR|FI|ES)\d\d\b")
    assert not ids.search(said.zh) and not ids.search(said.en), said
    assert not re.search(r"[A-Za-z]", said.zh), said.zh


def test_a_new_campaign_may_open_with_the_campaign_start_or_an_epochs_start() -> None:
    """§开局设置.5: GI01 (战役起始) opens epoch 1; ES01 (纪元起始) the first session of epoch 2."""
    assert GAME.parse_options({"players": 2}).challenge == "GI01"
    assert GAME.parse_options({"players": 2, "challenge": "ES01", "epoch": 2}).epoch == 2


def test_the_set_up_page_lists_the_challenges_in_the_order_an_epoch_takes_them() -> None:
    """§开局设置.5: 战役起始, 纪元起始, 危机, 终局 — the opener first, not last (issue 24)."""
    cards = [k.split("=")[1] for k in GAME.option_texts if k.startswith("challenge=")]
    kinds = [CAT.challenge(c).kind for c in cards]
    assert cards[0] == "GI01" and kinds == sorted(kinds, key=KIND_ORDER.index)


def test_a_mourning_one_at_population_zero_leaves_the_track_at_zero() -> None:
    """§角色死亡与传说.1: 1 → 人口 −1; the track ends at 0, so the session's Log stays one the
    next session takes (population −1 was refused as a Log, ending the campaign: issue 26's
    campaign walk found it)."""
    rows = [json.loads(line) for line in (EXAMPLES / "stonesaga-mourning.jsonl").open()]
    setup = {**rows[0]["setup"], "population": 0}
    state, _ = start(GAME, setup, rows[0]["seed"])
    for row in rows[1:]:
        if row["type"] == "stonesaga.mourn":
            row = {**row, "roll": 1, "attribute": ""}
        move = move_from_dict(row)
        if legal(GAME, state, move).ok:
            state, _ = apply(GAME, state, move)
    assert state.outcome is not None and state.data.population == 0
    assert camp.Log.from_json(GAME.campaign_log(state), CAT).population == 0


def test_replay_shows_the_interval_of_a_continued_session() -> None:
    """§间隔与变老, §建前哨: `tablesight replay` (the real command) prints the set-up line's
    events first: the interval applied, each character aged (Ash young → old, Elder dead of old
    age, after a generation) and the Log's outposts (issue 26: the interval was silent); at an
    epoch's start every character dies and the outposts over the limit are named as due."""

    def run(path: Path, *extra: str) -> list[str]:
        args = [sys.executable, "-m", "kiosk.cli", "--lang", "en", "replay", "stonesaga"]
        done = subprocess.run([*args, str(path), *extra], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines()

    text = run(SECOND)
    assert text[0] == "line 1: set up (seed 5)"
    head = text[1 : next(k for k, line in enumerate(text) if line.startswith("line 2:"))]
    shown = [json.loads(line) for line in head]
    aged = [(e["name"], e["age"]) for e in shown if e["type"] == "stonesaga.character_aged"]
    assert aged == [("Elder", "dead"), ("Ash", "old")]
    interval = next(e for e in shown if e["type"] == "stonesaga.interval_applied")
    assert (interval["challenge"], interval["interval"]) == ("CR02", "generation")
    outposts = next(e for e in shown if e["type"] == "stonesaga.outposts_reviewed")
    assert outposts == {
        "type": "stonesaga.outposts_reviewed", "tiles": ["101"], "limit": 2, "ruins_due": 0,
        "free_moves": 1,
    }  # fmt: skip
    rows = [json.loads(line) for line in run(EPOCH, "--json")]
    assert rows[0]["line"] == 1 and rows[0]["setup"] is True and rows[1]["line"] == 2
    events = {e["type"]: e for e in rows[0]["events"]}
    assert events["stonesaga.interval_applied"]["interval"] == "epoch"
    assert [e["age"] for e in rows[0]["events"] if e["type"] == "stonesaga.character_aged"] == [
        "dead",
        "dead",
    ]
    assert events["stonesaga.outposts_reviewed"]["ruins_due"] == 1
    assert events["dice_pool_announced"]["reason"] == "mourning_epoch"


CHAIN = [EXAMPLES / f"stonesaga-campaign-{n}.jsonl" for n in range(1, 9)]
"""A campaign from its start to the second epoch's finale, one session a file (issue 26)."""


@pytest.mark.parametrize("number", range(2, 9))
def test_each_example_session_starts_from_the_log_the_one_before_ends_with(number: int) -> None:
    """§局间保留与存档: every session of the example campaign is set up from the Log the
    session before handed on (`replay --campaign-out`), and each replays with nothing refused
    but what the first two show on purpose."""
    before, _ = replay(CHAIN[number - 2])
    setup = json.loads(CHAIN[number - 1].read_text(encoding="utf-8").splitlines()[0])["setup"]
    assert setup["log"] == GAME.campaign_log(before)
    state, refused = replay(CHAIN[number - 1])
    assert state.outcome is not None and (number <= 2 or refused == [])


def test_the_example_campaign_runs_from_gi01_through_an_epoch_start_to_a_finale() -> None:
    """§开局设置.5, §三个纪元: GI01, two crises, the first epoch's finale; an epoch start, two
    crises, the second epoch's finale — each session the kind the rule allows there."""
    log = GAME.campaign_log(replay(CHAIN[-1])[0])
    played = [(CAT.challenge(p["id"]).kind, p["id"]) for p in log["challenges"]]
    kinds = [kind for kind, _ in played]
    assert played[0] == ("campaign_start", "GI01")
    assert kinds == [
        "campaign_start", "crisis", "crisis", "finale", "epoch_start", "crisis", "crisis", "finale"
    ]  # fmt: skip
    assert (log["epoch"], log["session"]) == (2, 4)
    ages = {h["name"]: h["age"] for h in log["roster"]}
    assert all(ages[h] == "dead" for h in ("Elder", "Ash", "Flint", "Birch", "Reed"))


def test_an_epoch_start_refused_is_named_with_its_article() -> None:
    """§开局设置.5: an epoch start chosen for a crisis's session is refused as "an epoch start"
    (issue 26: the message said "ES01 is a epoch start"), in the log and to the players."""
    with pytest.raises(GameConfigError) as refused:
        GAME.parse_options({"players": 2, "challenge": "ES01", "log": log_json()})
    assert "ES01 is an epoch start;" in str(refused.value)
    title = CAT.challenge("ES01").title
    assert f"'{title.en}' is an epoch start." in refused.value.text.en
    assert f"「{title.zh}」是纪元起始挑战" in refused.value.text.zh
