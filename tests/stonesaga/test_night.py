"""The nine night steps, the behemoth phase and the save, through the engine (stonesaga.zh.md)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from stonesaga_play import Play, of

from engine.core import Advance, DicePoolAnnounced, Pass
from engine.core.records import event_from_dict, event_types, move_from_json, move_types
from engine.core.vocabulary import PhaseStarted, StepStarted
from engine.stonesaga import STONESAGA
from engine.stonesaga import moves as mv
from engine.stonesaga.state import Malady, OverlayPlacement, TilePlacement, ValleyRecord
from kiosk.presenter.sentences import describe


def test_the_nine_night_steps_are_walked_in_order_with_their_numbers() -> None:
    """§夜晚阶段: 每名角色依次完成下列步骤 1–9; each step is a phase of its own whose title
    carries the number and the step's words once, and the log says them once (issue 24: "第1步:
    第6步 清点背包")."""
    play = Play(1)
    events = play.to_night_step(9)
    started = [e.phase for e in of(events, PhaseStarted) if e.phase.startswith("night_")]
    assert started == [f"night_{n}" for n in range(1, 10)]
    assert not of(events, StepStarted)  # no "Step 1:" inside a night step
    pack = next(e for e in of(events, PhaseStarted) if e.phase == "night_6")
    line = describe(pack.to_dict(), STONESAGA, "zh")
    assert line == "夜晚 6/9 清点背包开始" and line.count("清点背包") == 1
    assert describe(pack.to_dict(), STONESAGA, "en") == "Night 6/9: Pack check begins"
    play.do(Advance())
    assert play.state.flow.phase == "day"  # no alert behemoth: its phase is skipped


def test_an_incapacitated_character_dies_at_step_one_and_the_clan_mourns() -> None:
    """§夜晚阶段.1: 失能角色在此步死亡; §角色死亡与传说.1: 哀悼掷一颗 d6, rolled at the table."""
    play = Play(1, [0, 0])
    play.edit(1, health=(Malady("injury", True),) * 5)
    events = play.to_night_step(1)
    (due,) = of(events, mv.MourningDue)
    assert due.character == 1 and not play.char(1).alive and play.char(0).alive
    assert of(events, DicePoolAnnounced)[-1].dice == ("d6",)
    assert not of(events, mv.CharacterDied)  # the engine rolls no die of the players
    events = play.do(Advance())
    assert play.state.flow.phase == "mourning"
    assert play.check(Pass(0)).code == "stonesaga.mourning_due"
    events = play.do(mv.Mourn(0, 1, 3))
    (died,) = of(events, mv.CharacterDied)
    assert (died.roll, died.effect, play.data.unrest) == (3, "unrest", 1)
    assert play.state.flow.phase == "night_2"


@pytest.mark.parametrize(
    ("roll", "effect", "population"), [(1, "population", 7), (5, "faith+1", 8), (6, "faith+1", 8)]
)
def test_the_mourning_roll_and_the_attribute_the_players_choose(roll, effect, population) -> None:
    """§角色死亡与传说.1: 1 人口 −1; 5–6 自选该角色的一项属性永久 +1（上限 6）."""
    play = Play(1, [0, 0])
    play.edit(1, health=(Malady("injury", True),) * 5)
    play.to_night_step(1)
    play.do(Advance())
    assert play.check(mv.Mourn(0, 1, 5, "strength")).code == "stonesaga.attribute_max"
    assert play.check(mv.Mourn(0, 1, 5)).code == "stonesaga.attribute_needed"
    assert play.check(mv.Mourn(0, 0, 5, "faith")).code == "stonesaga.no_mourning"
    (died,) = of(play.do(mv.Mourn(0, 1, roll, "faith")), mv.CharacterDied)
    assert died.effect == effect and play.data.population == population
    assert play.char(1).attribute("faith") == (5 if roll >= 5 else 4)


@pytest.mark.parametrize(("characters", "rest"), [([0], 2), ([0, 0], 2), ([0, 0, 0], 1)])
def test_rest_gives_two_with_one_or_two_characters_and_one_with_more(characters, rest) -> None:
    """§夜晚阶段.2 休息: 3–4 人局每人 +1；1–2 人局每人 +2."""
    play = Play(1, characters)
    play.edit(0, energy=0)
    events = play.to_night_step(2)
    assert of(events, mv.NightRecovered)[0].rest == rest
    assert play.char(0).energy == rest


def test_food_water_and_comfort_each_give_one_more_up_to_the_cap() -> None:
    """§夜晚阶段.2: 进食 +1，补水 +1，舒适（庇护所或火堆）+1; 每晚最多吃 1 份、喝 1 份."""
    play = Play(1)
    play.edit(0, energy=0, tile="102", pack=(("fish:fresh", 2), ("water", 2)))
    play.tile("102", shelter=1)
    play.to_night_step(2)
    assert play.char(0).energy == 5  # 2 + 1 + 1 + 1
    assert dict(play.char(0).pack) == {"fish:fresh": 1, "water": 1}


def test_a_shelter_of_one_comforts_only_one_character() -> None:
    """§备庇护所: 庇护所标记写着「1」和「2」，表示今晚能容纳几名角色获得舒适加成."""
    play = Play(1, [0, 0])
    play.edit(0, energy=0, tile="102")
    play.edit(1, energy=0, tile="102")
    play.tile("102", shelter=1)
    events = play.to_night_step(2)
    assert [e.comfort for e in of(events, mv.NightRecovered)] == [True, False]


def test_raw_hard_food_is_not_eaten() -> None:
    """§资源 食物: 未加工面…不能吃；必须用加工行动翻到已加工面才能食用."""
    play = Play(1)
    play.edit(0, pack=(("grain:raw", 1),))
    events = play.to_night_step(2)
    assert of(events, mv.NightRecovered)[0].food == ""


def test_fed_and_watered_degrades_a_malady_and_neither_gives_a_light_injury() -> None:
    """§夜晚阶段.3: 同时吃了又喝了 → 退化一枚疾苦；两者都没吃/喝 → 受 1 次轻伤."""
    play = Play(1, [0, 0])
    play.edit(0, pack=(("nut:processed", 1), ("water", 1)), health=(Malady("illness", True),))
    play.to_night_step(3)
    assert play.char(0).health == (Malady("illness"),)
    assert play.char(1).health == (Malady("injury"),)


def test_only_food_or_only_water_changes_no_malady() -> None:
    """§夜晚阶段.3: only the two named cases change the track."""
    play = Play(1)
    play.edit(0, pack=(("water", 1),), health=(Malady("illness"),))
    play.to_night_step(3)
    assert play.char(0).health == (Malady("illness"),)


def test_step_five_spoils_food_and_degrades_depletion_and_fires() -> None:
    """§夜晚阶段.5: 易腐食物退化；每个枯竭标记、火堆标记退化一级."""
    play = Play(1)
    play.edit(0, pack=(("root:fresh", 1), ("mushroom:fermented", 1)))
    play.tile("102", depletion=2, fire=1)
    play.tile("103", depletion=1)
    play.to_night_step(5)
    assert play.char(0).pack == (("root:fermented", 1),)
    assert (play.data.tile("102").depletion, play.data.tile("102").fire) == (1, 0)
    assert play.data.tile("103").depletion == 0


def test_a_calm_night_gives_energy_or_a_minor_boost_when_full() -> None:
    """§夜晚阶段.7 静夜: +1 精力；若精力已满，改为自选一个属性获得微幅增益."""
    play = Play(1, [0, 0])
    play.to_night_step(7)
    play.edit(0, energy=3)
    play.do(mv.NightCard(0, 0, False, "star"))
    assert play.char(0).energy == 4
    assert play.check(mv.NightCard(0, 1, False, "star")).code == "stonesaga.boost_needed"
    play.do(mv.NightCard(0, 1, False, "comet", boost="perception"))
    assert play.char(1).boost("perception") == 1


def test_the_last_night_card_resolved_sets_the_current_omen_once_per_character() -> None:
    """§夜晚阶段.7: 最后结算的那张卡底部的预兆，就是新的当前预兆; 每名角色各抽一张."""
    play = Play(1, [0, 0])
    play.to_night_step(7)
    play.do(mv.NightCard(0, 1, True, "star"))
    assert play.check(mv.NightCard(0, 1, True, "sun")).code == "stonesaga.night_card_done"
    play.do(mv.NightCard(0, 0, True, "cloud"))
    assert play.data.omens == ("cloud",) and play.state.flow.phase == "night_8"


def test_activity_rises_each_night_and_each_challenge_event_fires_once_in_order() -> None:
    """§夜晚阶段.8: 活跃度 +1，按阈值从低到高结算已达且未结算的事件；每个事件只结算一次."""
    play = Play(1)
    play.set(activity=2)
    events = play.to_night_step(8)
    assert of(events, mv.ActivityRaised)[0].activity == 3
    assert [e.threshold for e in of(events, mv.ChallengeEventDue)] == [1, 3]
    events = play.to_night_step(8)  # the next night: activity 4, nothing new
    assert of(events, mv.ChallengeEventDue) == []


def test_step_nine_reports_population_unrest_and_the_outposts_they_allow() -> None:
    """§夜晚阶段.9: 核查人口与动荡; §建前哨: 人口决定前哨上限."""
    play = Play(1)
    play.set(population=4, unrest=2)
    play.tile("101", outpost=True)
    (checked,) = of(play.to_night_step(9), mv.SocietyChecked)
    assert (checked.population, checked.unrest, checked.outposts) == (4, 2, 1)
    assert checked.outpost_limit == 1


def test_an_alert_behemoth_gets_its_phase_after_the_night() -> None:
    """§巨兽: 警觉巨兽在巨兽阶段行动（在夜晚阶段之后）: aim, tread, encounter."""
    play = Play(1, behemoths=["Tusk", "Maw"])  # draws "table": the table gives the alert one
    play.do(mv.AlertBehemoth(0, "Maw"))
    assert play.data.alert == "Maw"
    play.to_night_step(9)
    events = play.do(Advance())
    assert play.state.flow.phase == "behemoth"
    assert of(events, StepStarted)[0].step == "aim"
    play.do(Advance())
    play.do(Advance())
    play.do(Advance())
    assert play.state.flow.phase == "day" and play.state.flow.round == 2


def test_the_challenge_ends_into_the_save_and_a_shared_win() -> None:
    """§局间保留与存档: keep 5 items + 5 materials; the valley map is recorded."""
    play = Play(1)
    play.edit(0, items=("spear",), pack=(("clay:processed", 2), ("water", 1)))
    play.do(mv.EndChallenge(0, "won"))
    assert play.state.flow.phase == "save"
    assert play.check(mv.Keep(0, 0, materials=("water",))).code == "stonesaga.not_held"
    assert play.check(mv.Keep(0, 0, items=("axe",))).code == "stonesaga.not_held"
    assert play.check(mv.Keep(0, 0, materials=("clay",) * 6)).code == "stonesaga.keep_limit"
    play.do(mv.Keep(0, 0, ("spear",), ("clay", "clay")))
    tiles = tuple(TilePlacement(str(100 + i), 1 + i // 3, i % 3) for i in range(15))
    too_big = ValleyRecord("green_vale", tiles)
    assert play.check(mv.RecordValley(0, too_big)).code == "stonesaga.valley_capacity"
    record = ValleyRecord("green_vale", tiles[:12], (OverlayPlacement("outpost", "101", 1),))
    play.do(mv.RecordValley(0, record))
    play.do(Pass(0))
    assert play.state.outcome is not None and play.state.outcome.result == "shared_win"
    assert play.data.valley_record == record


def test_a_lost_challenge_is_a_loss_and_bad_results_are_refused() -> None:
    """§挑战卡与目标卡: the challenge ends well or badly."""
    play = Play(1)
    assert play.check(mv.EndChallenge(0, "draw")).code == "stonesaga.bad_result"
    play.do(mv.EndChallenge(0, "lost"))
    play.do(Pass(0))
    assert play.state.outcome.result == "loss"


def test_the_view_shows_the_bag_and_every_character() -> None:
    """Game.view: the kiosk shows what is in the bag for the feature being mined (issue #7)."""
    play = Play(1)
    play.edit(0, tile="102")
    play.do(mv.Mine(0, 0, "cave"))
    play.do(mv.DrawOre(0, "river_stone", "moon"))
    view = STONESAGA.view(play.state, "zh")
    summary = dict(map(tuple, view["summary"]))
    assert summary["洞穴的袋子"] == "云石×1、河石×2、太阳石×2"
    assert summary["袋中还剩"] == "云石×1、河石×1、太阳石×2"
    assert summary["已摸出"] == "河石/月"
    assert view["players"][0]["name"] == "C0"


def test_dice_trays_are_cleared_when_a_test_resolves() -> None:
    """The trays light only the dice to roll now (DicePoolAnnounced with no dice clears)."""
    play = Play(1)
    play.do(mv.CallTest(0, 0, "faith"))
    assert of(play.do(mv.Roll(0, 2)), DicePoolAnnounced)[-1].dice == ()


OURS_MOVES = sorted((n, c) for n, c in move_types().items() if n.startswith("stonesaga."))
OURS_EVENTS = sorted((n, c) for n, c in event_types().items() if n.startswith("stonesaga."))


@pytest.mark.parametrize(("name", "cls"), OURS_MOVES, ids=[n for n, _ in OURS_MOVES])
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_every_stonesaga_move_round_trips_through_json(name, cls, data) -> None:
    """docs/engine.md: moves round-trip exactly (hypothesis builds them from their hints)."""
    move = data.draw(st.builds(cls))
    assert move_from_json(move.to_json()) == move


@pytest.mark.parametrize(("name", "cls"), OURS_EVENTS, ids=[n for n, _ in OURS_EVENTS])
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_every_stonesaga_event_round_trips_through_json(name, cls, data) -> None:
    """docs/engine.md: events round-trip exactly."""
    event = data.draw(st.builds(cls))
    assert event_from_dict(json.loads(event.to_json())) == event
