"""The day phase through the engine: free order, action costs, feature actions, tests, mining.

Sections cited are those of stonesaga.zh.md.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from stonesaga_play import Play, create, of

from engine.core import DicePoolAnnounced, EndTurn, IllegalMoveError, Pass, start
from engine.stonesaga import moves as mv
from engine.stonesaga.catalogue import catalogue
from engine.stonesaga.game import Stonesaga
from engine.stonesaga.state import Malady


def test_creation_lights_five_dice_and_refuses_a_roll_that_needed_a_reroll() -> None:
    """§创造角色.1: 掷五颗骰，反复重掷直到五骰之和 ≥ 14."""
    state, events = start(Stonesaga(), {"players": 1})
    assert of(events, DicePoolAnnounced)[0].dice == ("d6",) * 5
    play = Play.__new__(Play)
    play.state = state
    low = mv.CreateCharacter(0, "Ash", "wise", ((1, 2, 3, 2, 1),), 3, 2, 2, 1)
    assert play.check(low).code == "stonesaga.reroll_needed"
    wrong = mv.CreateCharacter(0, "Ash", "wise", ((1, 2, 3, 2, 1), (4, 5, 3, 2, 6)), 6, 5, 4, 2)
    assert play.check(wrong).code == "stonesaga.assignment"
    assert play.check(create(0, "Ash")).ok


def test_a_player_without_a_character_is_refused_done() -> None:
    """§开局设置.1: 每名玩家至少要有 1 名角色 — "done" is refused with what is left (issue 38:
    it was answered "accepted" and taken back at once)."""
    play = Play.__new__(Play)
    play.state, _ = start(Stonesaga(), {"players": 2})
    play.do(create(0, "Ash"))
    play.do(Pass(0))
    assert play.check(Pass(1)).code == "stonesaga.create_first"
    assert play.state.flow.phase == "creation" and play.state.flow.done == {0}
    play.do(create(1, "Birch"))
    play.do(Pass(1))
    assert play.state.flow.phase == "day"


def test_a_character_from_the_log_is_seated_but_not_a_dead_one() -> None:
    """§开局设置.1: 已死亡或已成传说的角色不能选; the living one is seated (issue 38)."""
    roster = [
        {"name": "Elder", "trait": "wise", "strength": 2, "dexterity": 3, "faith": 5,
         "perception": 4, "age": "old"},
        {"name": "Gone", "trait": "wise", "strength": 2, "dexterity": 3, "faith": 5,
         "perception": 4, "age": "dead"},
    ]  # fmt: skip
    play = Play.__new__(Play)
    play.state, _ = start(Stonesaga(), {"players": 1, "roster": roster})
    assert play.check(mv.ChooseCharacter(0, "Gone")).code == "stonesaga.not_in_roster"
    assert play.check(create(0, "Elder")).code == "stonesaga.name_taken"
    assert play.char(0).name == "Elder"  # the Log's living character, seated at once
    assert play.check(mv.ChooseCharacter(0, "Elder")).code == "stonesaga.already_yours"
    assert play.char(0).age == "old" and play.char(0).attribute("faith") == 5


@pytest.mark.parametrize(("characters", "energy"), [([0], 5), ([0, 0], 5), ([0, 0, 0], 4)])
def test_characters_start_with_the_energy_cap_of_the_party(characters, energy) -> None:
    """§开局设置.4: 1–2 名角色 → 各 5 点精力；3 名及以上 → 各 4 点."""
    play = Play(1, characters)
    assert [c.energy for c in play.data.characters] == [energy] * len(characters)


def test_the_day_is_free_order_one_action_per_turn_until_everyone_passes() -> None:
    """§白天阶段: 出手顺序完全自由，甚至可以连着动两次；所有人过牌 → 进入夜晚."""
    play = Play(2)
    play.do(mv.Pack(1, 1))
    play.do(mv.Pack(1, 1))  # player 2 twice in a row
    play.do(mv.Pack(0, 0))
    play.do(Pass(0))
    assert play.check(mv.Pack(0, 0)).code == "core.already_passed"
    play.do(Pass(1))
    assert play.state.flow.phase == "night_1"


def test_a_seat_acts_only_with_its_own_living_characters() -> None:
    """§开局设置.1: each player controls their own characters."""
    play = Play(2)
    assert play.check(mv.Pack(0, 1)).code == "stonesaga.not_your_character"
    play.edit(0, alive=False)
    assert play.check(mv.Pack(0, 0)).code == "stonesaga.dead"


def test_no_action_without_the_energy_it_costs() -> None:
    """§精力: 没有可用精力时就不能再花."""
    play = Play(1)
    play.edit(0, energy=1, tile="102")
    assert play.check(mv.Mine(0, 0, "cave")).code == "stonesaga.no_energy"
    assert play.check(mv.PrepareShelter(0, 0)).ok


def test_losing_energy_with_none_left_gives_a_light_injury_per_point() -> None:
    """§精力: 若某效果要求你失去精力而你已无可用标记，每差 1 点就受 1 次轻伤."""
    play = Play(1)
    play.edit(0, energy=1)
    play.do(mv.Effect(0, 0, "lose_energy", 3))
    assert play.char(0).energy == 0
    assert play.char(0).health == (Malady("injury", True),)  # two light injuries: the 2nd flips


def test_energy_gained_never_goes_above_the_cap() -> None:
    """§精力: 恢复 / 获得精力…不能超过上限."""
    play = Play(1)
    play.edit(0, energy=4)
    play.do(mv.Effect(0, 0, "gain_energy", 3))
    assert play.char(0).energy == 5


@pytest.mark.parametrize(
    ("start", "to", "resolved", "lost"),
    [("102", "103", False, 1), ("102", "103", True, 0), ("101", "102", False, 0)],
)
def test_hard_travel_costs_one_energy_only_across_a_blocked_edge(start, to, resolved, lost) -> None:
    """§艰难跋涉: 条件不满足 → 艰难跋涉；路径被阻挡 → 失去 1 点精力；否则无事发生."""
    play = Play(1)
    play.edit(0, tile=start)
    events = play.do(mv.Travel(0, 0, to, resolved))
    assert play.char(0).tile == to
    assert play.char(0).energy == 5 - lost
    assert of(events, mv.Travelled)[0].hard_travel == bool(lost)


def test_travel_goes_only_to_an_adjacent_crossable_tile_and_reveals_it() -> None:
    """§移动: 把模型移到相邻地块；移向未探索地块时先翻开它; §覆盖层: 不可通行."""
    play = Play(1)
    assert play.check(mv.Travel(0, 0, "103")).code == "stonesaga.not_adjacent"
    play.edit(0, tile="105")
    assert play.check(mv.Travel(0, 0, "106")).code == "stonesaga.impassable"
    play.edit(0, tile="103")
    assert not play.data.tile("106").explored
    events = play.do(mv.Travel(0, 0, "106"))
    assert of(events, mv.Travelled)[0].revealed and play.data.tile("106").explored


def test_exchange_costs_one_energy_and_nothing_at_an_outpost() -> None:
    """§交换（1 精力）: 若两人所在格有前哨，此行动免精力."""
    play = Play(2)
    play.edit(0, pack=(("water", 2),))
    give = mv.Exchange(0, 0, 1, give=(("water", 1),))
    play.do(give)
    assert (play.char(0).energy, play.char(0).pack, play.char(1).pack) == (
        4,
        (("water", 1),),
        (("water", 1),),
    )
    play.tile("101", outpost=True)
    play.do(give)
    assert play.char(0).energy == 4
    assert play.check(give).code == "stonesaga.not_held"


def test_exchange_needs_both_characters_on_one_tile() -> None:
    """§交换: 与同一格的另一名角色互换."""
    play = Play(2)
    play.edit(1, tile="102")
    assert play.check(mv.Exchange(0, 0, 1)).code == "stonesaga.not_same_tile"


def test_aid_degrades_a_malady_of_an_incapacitated_character_on_the_tile() -> None:
    """§救助（1 精力）: 选同一格内一名失能角色，让他退化一枚自选的疾苦标记."""
    play = Play(2)
    assert play.check(mv.Aid(0, 0, 1, 0)).code == "stonesaga.not_incapacitated"
    full = (Malady("injury", True),) + (Malady("illness", True),) * 4
    play.edit(1, health=full)
    play.do(mv.Aid(0, 0, 1, 0))
    assert play.char(1).health[0] == Malady("injury") and play.char(0).energy == 4


def test_processing_costs_one_plus_one_per_resource_and_flips_them() -> None:
    """§加工（1 精力 + 每个资源再 1 精力）: raw → processed, a different tool each."""
    play = Play(1)
    play.edit(0, pack=(("clay:raw", 2), ("grain:raw", 1)))
    assert play.check(mv.Process(0, 0, ("clay", "clay"), ("cut", "cut"))).code == (
        "stonesaga.same_tool"
    )
    play.do(mv.Process(0, 0, ("clay", "clay", "grain"), ("heat", "heat", "heat")))
    assert play.char(0).energy == 1
    assert dict(play.char(0).pack) == {"clay:processed": 2, "grain:processed": 1}


def test_crafting_costs_one_energy_and_uses_two_materials_only_when_it_makes_something() -> None:
    """§合成.1, .4: 花 1 精力挑两枚材料；没有条目 → 材料退回背包."""
    play = Play(1)
    play.edit(0, pack=(("clay:raw", 1), ("sun_stone:raw", 1)))
    play.do(mv.Craft(0, 0, ("clay", "sun_stone")))
    assert play.char(0).pack == (("clay:raw", 1), ("sun_stone:raw", 1))
    play.do(mv.Craft(0, 0, ("clay", "sun_stone"), item="sun spear"))
    assert play.char(0).pack == () and play.char(0).items == ("sun spear",)
    assert play.char(0).energy == 3


def test_an_outpost_costs_four_energy_shared_on_the_tile() -> None:
    """§建前哨.1: 花 4 点精力；同格其他角色可以自愿分摊；所在格不能已有前哨."""
    play = Play(2)
    play.do(mv.BuildOutpost(0, 0, shares=((1, 3),)))
    assert (play.char(0).energy, play.char(1).energy) == (4, 2)
    assert play.data.tile("101").outpost
    assert play.check(mv.BuildOutpost(1, 1)).code == "stonesaga.outpost_exists"


def test_outposts_are_limited_by_population() -> None:
    """§建前哨: 同时能存在几个前哨由人口决定 (人口 8 → 2)."""
    play = Play(1)
    play.tile("102", outpost=True)
    play.tile("103", outpost=True)
    assert play.check(mv.BuildOutpost(0, 0)).code == "stonesaga.outpost_limit"
    play.set(population=12)
    assert play.check(mv.BuildOutpost(0, 0)).ok


def test_collecting_water_gives_two_without_depleting() -> None:
    """§取水（1 精力，不枯竭）: 湖泊 / 河流 / 湿地；获得 2 份水."""
    play = Play(1)
    assert play.check(mv.CollectWater(0, 0, "lake")).code == "stonesaga.no_feature"
    play.do(mv.CollectWater(0, 0, "river"))
    assert play.char(0).pack == (("water", 2),) and play.char(0).energy == 4
    assert play.data.tile("101").depletion == 0


def test_a_shelter_is_prepared_at_a_cave_as_one_then_two_then_no_more() -> None:
    """§备庇护所: 没有 → 放「1」；「1」→ 翻成「2」；已经是「2」→ 不能执行."""
    play = Play(1)
    assert play.check(mv.PrepareShelter(0, 0)).code == "stonesaga.no_feature"
    play.edit(0, tile="102")
    play.do(mv.PrepareShelter(0, 0))
    play.do(mv.PrepareShelter(0, 0))
    assert play.data.tile("102").shelter == 2
    assert play.check(mv.PrepareShelter(0, 0)).code == "stonesaga.shelter_full"


def test_fishing_costs_two_depletes_and_lights_four_dice() -> None:
    """§钓鱼: 花 2 精力，并使地块枯竭；掷四颗骰."""
    play = Play(1)
    events = play.do(mv.Fish(0, 0, "river"))
    assert of(events, DicePoolAnnounced)[0].dice == ("d6",) * 4
    assert play.char(0).energy == 3 and play.data.tile("101").depletion == 2


def test_foraging_needs_a_forest_or_grassland_costs_two_and_depletes() -> None:
    """§采集: 所在格有森林或草原时可做；花 2 精力，并使地块枯竭."""
    play = Play(1)
    play.edit(0, tile="104")
    assert play.check(mv.Forage(0, 0, "grassland")).code == "stonesaga.no_feature"
    play.edit(0, tile="101")
    play.do(mv.Forage(0, 0, "grassland"))
    assert play.char(0).energy == 3 and play.data.tile("101").depletion == 2


# --- tests (判定) ---------------------------------------------------------------------------


def roll_test(play: Play, values: list[int], **call) -> list:
    events = list(play.do(mv.CallTest(0, 0, call.pop("attribute", "faith"), **call)))
    for value in values:
        events += play.do(mv.Roll(0, value))
    return events


def test_a_test_lights_one_die_and_one_more_on_each_heroic_effort() -> None:
    """§判定.1, §奋力一搏: 掷出 6 再掷一颗加进去，又是 6 就继续."""
    play = Play(1)
    events = roll_test(play, [6, 6, 3])
    lit = [e.dice for e in of(events, DicePoolAnnounced)]
    assert lit == [("d6",), ("d6",), ("d6",), ()]
    (result,) = of(events, mv.TestResolved)
    assert result.dice == (6, 6, 3)
    assert result.total == 6 + 6 + 3 + play.char(0).attribute("faith")


def test_a_test_adds_attribute_boost_and_modifiers_and_the_boost_degrades() -> None:
    """§判定.3–4, .6: 加属性值（有增益就加增益后的值）与修正；用后增益退化一级."""
    play = Play(1)
    play.edit(0, boosts=(("faith", 2),))
    (result,) = of(roll_test(play, [3], modifier=-1), mv.TestResolved)
    assert result.total == 3 + 4 + 2 - 1
    assert play.char(0).boost("faith") == 1


def test_a_die_change_is_clamped_and_heroic_effort_reads_the_die_as_rolled() -> None:
    """§随机化: 改点不能改出超过 6 或低于 1; §奋力一搏: 初始掷出 6 时触发."""
    play = Play(1)
    play.do(mv.CallTest(0, 0, "strength"))
    play.do(mv.Roll(0, 5, change=3))  # 5 changed to 6 (not 8): no heroic effort
    assert play.data.test is None
    play.do(mv.CallTest(0, 0, "strength"))
    events = play.do(mv.Roll(0, 6, change=-2))  # rolled 6: heroic effort although it shows 4
    assert of(events, DicePoolAnnounced)[0].reason == "heroic_effort"


def test_a_contest_has_one_die_and_wins_on_equal_or_more() -> None:
    """§角力: 角色掷一颗 d6 加上属性值；结果 ≥ 巨兽属性值即获胜."""
    play = Play(1)
    (won,) = of(roll_test(play, [6], attribute="strength", versus=12), mv.TestResolved)
    assert (won.dice, won.success) == ((6,), True)
    (lost,) = of(roll_test(play, [5], attribute="strength", versus=12), mv.TestResolved)
    assert lost.success is False


def test_dice_outside_one_to_six_and_rolls_without_a_test_are_refused() -> None:
    """§判定.1: a d6."""
    play = Play(1)
    assert play.check(mv.Roll(0, 3)).code == "stonesaga.no_test"
    play.do(mv.CallTest(0, 0, "faith"))
    assert play.check(mv.Roll(0, 7)).code == "stonesaga.bad_die"
    assert play.check(mv.Pack(0, 0)).code == "stonesaga.test_in_progress"


# --- mining (采矿) --------------------------------------------------------------------------


def mining_play(feature: str = "cave", tile: str = "102") -> Play:
    play = Play(2)
    play.edit(0, tile=tile)
    play.do(mv.Mine(0, 0, feature))
    return play


def test_mining_fills_the_bag_for_the_feature_costs_two_and_depletes() -> None:
    """§采矿: 花 2 精力，并使地块枯竭; 装袋按地物取固定数量."""
    play = Play(1)
    play.edit(0, tile="103")
    events = play.do(mv.Mine(0, 0, "mountain"))
    (filled,) = of(events, mv.MiningBagFilled)
    assert dict(filled.bag) == {"cloud_stone": 3, "sun_stone": 2}
    assert play.char(0).energy == 3 and play.data.tile("103").depletion == 2


def test_mining_needs_the_feature_on_the_tile() -> None:
    """§采矿: 所在格有洞穴 / 裂隙 / 干涸滩 / 冰碛 / 山脉时可做."""
    play = Play(1)
    assert play.check(mv.Mine(0, 0, "cave")).code == "stonesaga.no_feature"
    play.edit(0, tile="102")
    assert play.check(mv.Mine(0, 0, "forest")).code == "stonesaga.no_feature"
    assert play.check(mv.Mine(0, 0, "cave")).ok


def test_a_drawn_stone_must_still_be_in_the_bag() -> None:
    """§采矿.3: 洞穴：云石 ×1 — a second cloud stone cannot come out of a cave's bag."""
    play = mining_play()
    play.do(mv.DrawOre(0, "cloud_stone", "moon"))
    refused = play.check(mv.DrawOre(0, "cloud_stone", "star"))
    assert refused.code == "stonesaga.not_in_bag"
    assert play.check(mv.DrawOre(0, "clay", "star")).code == "stonesaga.not_in_bag"
    assert play.check(mv.DrawOre(0, "river_stone", "moon")).ok


def test_at_most_three_draws_and_no_token_twice() -> None:
    """§采矿: 一次行动最多采 3 枚; 每枚标记只有一面预兆."""
    play = mining_play("moraine", "106")
    play.do(mv.DrawOre(0, "river_stone", "comet"))
    assert play.check(mv.DrawOre(0, "river_stone", "comet")).code == "stonesaga.token_drawn"
    play.do(mv.DrawOre(0, "river_stone", "star"))
    play.do(mv.DrawOre(0, "cloud_stone", "star"))
    assert play.check(mv.DrawOre(0, "sun_stone", "sun")).code == "stonesaga.draw_limit"
    assert dict(play.char(0).pack) == {"river_stone:raw": 2, "cloud_stone:raw": 1}


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["cave", "fissure", "dry_flat", "moraine", "mountain"]), st.randoms())
def test_any_three_draws_from_a_shuffled_bag_are_accepted(feature: str, rnd) -> None:
    """§采矿.2–4: whatever comes out of the real bag is accepted, up to three tokens."""
    tiles = {"cave": "102", "fissure": "103", "dry_flat": "105", "moraine": "106"}
    play = mining_play(feature, tiles.get(feature, "103"))
    tokens = [(s, o) for s, n in catalogue().bag(feature).items() for o in rnd.sample(
        ["cloud", "moon", "comet", "star", "sun"], n)]  # fmt: skip
    rnd.shuffle(tokens)
    for stone, omen in tokens[:3]:
        play.do(mv.DrawOre(0, stone, omen))
    assert len(play.data.mining.drawn) == 3


def test_a_token_matching_the_current_omen_names_the_mining_table_entry() -> None:
    """§采矿.5: 若与当前预兆相符 → 查采矿表「预兆 × 地物」；不符 → 无事发生."""
    play = mining_play()
    play.set(omens=("moon",))
    (hit,) = of(play.do(mv.DrawOre(0, "river_stone", "moon")), mv.OreDrawn)
    assert hit.matched and "cave × moon" in hit.entry_en
    (miss,) = of(play.do(mv.DrawOre(0, "river_stone", "sun")), mv.OreDrawn)
    assert not miss.matched and miss.entry_en == ""


def test_tokens_return_and_the_turn_ends_when_mining_finishes() -> None:
    """§采矿.6: 完成后把所有矿石标记倒回供应堆."""
    play = mining_play()
    play.do(mv.DrawOre(0, "sun_stone", "sun"))
    assert play.check(mv.Pack(1, 1)).code == "stonesaga.mining_open"
    assert play.check(mv.Pack(0, 0)).code == "stonesaga.mining_open"
    events = play.do(mv.FinishMining(0))
    assert of(events, mv.OreReturned)[0].drawn == 1 and play.data.mining is None
    assert play.check(mv.Pack(1, 1)).ok


def test_a_mining_turn_cannot_end_before_the_miner_stops() -> None:
    """stonesaga.zh.md §采矿.6: 决定继续还是收手（最多 3 枚）。完成后把所有矿石标记倒回供应堆 —
    ending the turn, passing, anyone else's move and ending the day are refused until the
    miner stops (or has drawn 3 and stops); then every token goes back and the bag is gone."""
    play = mining_play()
    play.do(mv.DrawOre(0, "sun_stone", "sun"))
    for move in (EndTurn(0), Pass(0), Pass(1), mv.Pack(0, 0), mv.EndChallenge(0, "won")):
        verdict = play.check(move)
        assert verdict.code == "stonesaga.mining_open", move
        assert "先决定继续摸还是收手" in verdict.message.zh
        assert verdict.rule == "stonesaga.zh.md §采矿.6"
    play.do(mv.DrawOre(0, "river_stone", "moon"))
    play.do(mv.DrawOre(0, "river_stone", "star"))
    assert play.check(EndTurn(0)).code == "stonesaga.mining_open"  # 3 drawn: stop, still
    assert of(play.do(mv.FinishMining(0)), mv.OreReturned)[0].drawn == 3
    assert play.data.mining is None and play.state.flow.current is None
    play.do(mv.Effect(0, 0, "gain", 1, "water"))  # the seat's next turn: no old bag reopens
    assert play.check(mv.DrawOre(0, "sun_stone", "moon")).code == "stonesaga.not_mining"
    assert play.check(mv.Pack(0, 0)).ok


def test_an_unknown_effect_is_refused_with_a_message() -> None:
    """A card's effect is recorded only in the vocabulary of §精力, §疾苦, §增益, §资源."""
    play = Play(1)
    verdict = play.check(mv.Effect(0, 0, "teleport"))
    assert verdict.code == "stonesaga.unknown_effect" and "teleport" in verdict.message.en
    assert play.check(mv.Effect(0, 0, "gain", 1, "unobtainium")).code == (
        "stonesaga.unknown_resource"
    )
    with pytest.raises(IllegalMoveError):
        play.do(mv.Effect(0, 0, "boost", 3, "faith"))


# --- advanced actions, buildings, free food and water ---------------------------------------


def test_making_fire_costs_energy_and_wood_and_ten_or_more_lights_it() -> None:
    """§生火: 花 1 精力 + 1 份木材，判定灵巧或信念；10+ 火堆标记；1–9 失败，返还 1 份木材."""
    play = Play(1)
    play.edit(0, pack=(("wood:raw", 1),))  # dexterity 5
    play.do(mv.MakeFire(0, 0, "dexterity"))
    assert play.char(0).energy == 4 and play.char(0).pack == ()
    play.do(mv.Roll(0, 4))  # 4 + 5 = 9: fails
    assert play.data.tile("101").fire == 0 and play.char(0).pack == (("wood:raw", 1),)
    play.do(EndTurn(0))
    play.do(mv.MakeFire(0, 0, "dexterity"))
    play.do(mv.Roll(0, 5))  # 10
    assert play.data.tile("101").fire == 2


def test_fiber_adds_two_to_the_fire_test_and_only_dexterity_or_faith_test_it() -> None:
    """§生火: 可先花 1 份纤维给结果 +2; 判定灵巧或信念."""
    play = Play(1)
    play.edit(0, pack=(("fiber:raw", 1), ("wood:raw", 1)))
    assert play.check(mv.MakeFire(0, 0, "strength")).code == "stonesaga.unknown_name"
    play.do(mv.MakeFire(0, 0, "dexterity", fiber=True))
    (result,) = of(play.do(mv.Roll(0, 3)), mv.TestResolved)
    assert (result.total, result.success) == (3 + 5 + 2, True)
    assert play.char(0).pack == ()


def test_one_action_per_turn_even_when_the_action_leaves_the_turn_open() -> None:
    """§白天阶段: 轮到你时，做一个行动，或者过牌."""
    play = Play(1)
    play.edit(0, pack=(("wood:raw", 1),))
    play.do(mv.MakeFire(0, 0, "faith"))
    play.do(mv.Roll(0, 2))
    assert play.check(mv.Pack(0, 0)).code == "stonesaga.one_action"
    play.do(EndTurn(0))
    play.do(mv.Effect(0, 0, "gain", 1, "water"))  # a card's effect opens a turn, not an action
    assert play.check(mv.Pack(0, 0)).ok


def test_buildings_stand_at_an_outpost_at_most_five_with_shared_energy() -> None:
    """§建建筑: 在有前哨的地块花建筑卡背面的精力；同格角色可分摊；每个前哨最多 5 座建筑."""
    play = Play(2)
    assert play.check(mv.Build(0, 0, "rack", 1)).code == "stonesaga.no_outpost"
    play.tile("101", outpost=True, buildings=("a", "b", "c", "d"))
    play.do(mv.Build(0, 0, "rack", 3, shares=((1, 2),)))
    assert (play.char(0).energy, play.char(1).energy) == (4, 3)
    assert play.data.tile("101").buildings[-1] == "rack"
    assert play.check(mv.Build(1, 1, "hut", 0)).code == "stonesaga.buildings_full"


def test_an_outpost_moves_to_an_adjacent_tile_for_three_energy() -> None:
    """§废墟与迁移前哨: 迁移前哨（3 精力）移到相邻的、没有前哨的地块."""
    play = Play(1)
    play.tile("101", outpost=True)
    assert play.check(mv.RelocateOutpost(0, 0, "103")).code == "stonesaga.not_adjacent"
    play.do(mv.RelocateOutpost(0, 0, "102"))
    assert not play.data.tile("101").outpost and play.data.tile("102").outpost
    assert play.char(0).energy == 2


def test_delving_needs_a_cave_or_fissure_and_scavenging_a_ruin() -> None:
    """§探穴（1 精力）: 有洞穴或裂隙的地块; §拾荒（2 精力 + 枯竭）: 有废墟覆盖层的地块."""
    play = Play(1)
    assert play.check(mv.Delve(0, 0)).code == "stonesaga.no_feature"
    assert play.check(mv.Scavenge(0, 0)).code == "stonesaga.no_ruin"
    play.edit(0, tile="103")
    play.do(mv.Delve(0, 0))
    assert play.char(0).energy == 4
    play.edit(0, tile="105")  # the placeholder valley's ruin
    play.do(mv.Scavenge(0, 0))
    assert play.char(0).energy == 2 and play.data.tile("105").depletion == 2


def test_food_and_water_change_hands_freely_but_not_during_an_action() -> None:
    """§白天阶段: 任何行动之前与之后（不是行动中），同处一格的角色可以自由互送食物和水."""
    play = Play(2)
    play.edit(0, pack=(("water", 1), ("clay:raw", 1), ("fish:fresh", 1)), tile="102")
    play.edit(1, tile="102")
    assert play.check(mv.Give(0, 0, 1, "clay")).code == "stonesaga.not_food_or_water"
    play.do(mv.Give(0, 0, 1, "water"))
    assert play.char(1).pack == (("water", 1),) and play.char(0).energy == 5
    play.do(mv.Mine(0, 0, "cave"))
    assert play.check(mv.Give(0, 0, 1, "fish")).code == "stonesaga.mining_open"
