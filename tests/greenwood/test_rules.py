"""Greenwood's rules round by round (greenwood.zh.md §一, §三, §四, §五), through real sessions."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core import Advance, EndTurn, Pass
from engine.greenwood.moves import (
    CastSpell,
    FinalScores,
    Gain,
    GainAurora,
    Hike,
    Learn,
    Place,
    PlaceDuskMarker,
    Protect,
    Recruit,
    RemoveHiker,
    Rescue,
    RewardGained,
    SoloRated,
    SpiritAbility,
    Strengthen,
    SwapKnowledge,
    TakeWisp,
    ThreatRevealed,
    UseEnergy,
    UseSpy,
    VirtualCompanionsRevealed,
)
from engine.greenwood.phases import solo_band
from engine.greenwood.state import Placed

SPIRIT = 5


def test_setup_tokens_and_tracks(table) -> None:
    """§一.6: 2 energy, 1 spy, aurora 0, score 5; §四.3: 2 knowledge slots; §一.8: one companion."""
    me = table.player(0)
    assert (me.energy, me.spies, me.aurora, me.score, me.slots) == (2, 1, 0, 5, 2)
    assert me.companions == {0} and me.hikers == frozenset()


def test_clan_mode_sends_the_start_companion_hiking(gw) -> None:
    """§一.8: 氏族进阶模式中,在起始伙伴卡牌上放置1个徒步标记."""
    assert gw.Table(mode="clan").player(1).hikers == {0}


def test_the_dusk_marker_comes_first_and_blocks_its_effect(table) -> None:
    """§三.2: the marker gives up one of four effects; the other three once each."""
    assert table.refused(Strengthen(seat=0)) == "greenwood.marker_first"
    table.ok(PlaceDuskMarker(seat=0, effect="strengthen"))
    assert table.refused(PlaceDuskMarker(seat=0, effect="aurora")) == "greenwood.marker_placed"
    assert table.refused(Strengthen(seat=0)) == "greenwood.effect_blocked"
    table.ok(GainAurora(seat=0))
    assert table.refused(GainAurora(seat=0)) == "greenwood.effect_done"
    table.ok(Recruit(seat=0, place=1))
    table.ok(Protect(seat=0, threat=0))
    assert table.player(0).companions == {0, 1} and table.player(0).aurora == 1


def test_the_dusk_marker_must_move_in_rounds_2_and_3_and_may_go_back_in_round_3(table) -> None:
    """§三.2: 第二轮和第三轮必须移动到另一种效果,第三轮可以重新选择第一轮放置过的效果."""
    table.ok(PlaceDuskMarker(seat=0, effect="protect"))
    table.pass_until("dusk", 2)
    assert table.refused(PlaceDuskMarker(seat=0, effect="protect")) == "greenwood.marker_must_move"
    table.ok(PlaceDuskMarker(seat=0, effect="recruit"))
    table.pass_until("dusk", 3)
    assert table.refused(PlaceDuskMarker(seat=0, effect="recruit")) == "greenwood.marker_must_move"
    table.ok(PlaceDuskMarker(seat=0, effect="protect"))


def test_dusk_ends_for_a_player_only_once_the_marker_is_laid(table) -> None:
    """greenwood.zh.md §三.2: 每位玩家将自己的黄昏标记放在4种黄昏效果中的1种上 … 玩家可以放弃
    某项效果 — the effects may be given up, the marker may not: ``pass`` before it is refused
    with a reason that says what to do, and the console offers no pass until then."""
    from engine.core import find_game, match, offered, offers

    game = find_game("greenwood")
    assert table.refused(Pass(seat=0)) == "greenwood.marker_not_laid"
    assert offered(offers(game, table.state), Pass(seat=0)) is None
    _, option = match(offers(game, table.state), Pass(seat=0))
    assert option.verdict.message.en.startswith("Lay your dusk marker")
    assert "黄昏标记" in option.verdict.message.zh
    table.ok(PlaceDuskMarker(seat=0, effect="recruit"))  # no effect done: each may be forgone
    assert offered(offers(game, table.state), Pass(seat=0)) is not None
    table.ok(Pass(seat=0))
    table.pass_until("dusk", 2)  # round 2: last round's marker does not count
    assert table.player(0).marker == "recruit"
    assert table.refused(Pass(seat=0)) == "greenwood.marker_not_laid"


def test_recruiting_replaces_a_companion_only_when_every_place_is_full(table) -> None:
    """§三.2 招募伙伴: 若所有普通伙伴位置都已占满,必须选择一个已有伙伴替换."""
    table.ok(PlaceDuskMarker(seat=0, effect="aurora"))
    assert table.refused(Recruit(seat=0, place=0)) == "greenwood.replace_only_when_full"
    assert table.refused(Recruit(seat=0, place=5)) == "greenwood.no_such_place"


def test_aurora_gain_is_refused_at_5(gw) -> None:
    """§三.2: 极光最多累积至5个."""
    t = gw.Table()
    state = gw.with_player(t.state, 0, aurora=5)
    state, _ = gw.apply(state, PlaceDuskMarker(seat=0, effect="recruit"))
    assert gw.legal(state, GainAurora(seat=0)).code == "greenwood.aurora_full"


def test_protection_goes_on_revealed_threats_three_tokens_then_moves(gw) -> None:
    """§三.2 保护队伍, §一.3 (one threat face up in round 1): 3 tokens a player (21 for 7)."""
    t = gw.Table()
    t.ok(PlaceDuskMarker(seat=0, effect="aurora"))
    assert t.refused(Protect(seat=0, threat=1)) == "greenwood.threat_hidden"
    t.ok(Protect(seat=0, threat=0))
    assert [e.reward for e in t.events if isinstance(e, RewardGained)] == ["vp:2"]  # threat 1
    next_dusk = gw.with_player(t.state, 0, dusk_done=frozenset())
    assert gw.legal(next_dusk, Protect(seat=0, threat=0)).code == "greenwood.already_protected"
    early = gw.apply(t.state, PlaceDuskMarker(seat=1, effect="aurora"))[0]
    moving = Protect(seat=1, threat=0, move_from=1)
    assert gw.legal(early, moving).code == "greenwood.protection_left"
    state = gw.with_player(t.state, 1, protections=(0, 1, 2))
    state = gw.apply(state, PlaceDuskMarker(seat=1, effect="aurora"))[0]
    state = gw.with_player(state, 1, protections=(1, 2, 3))
    assert gw.legal(state, Protect(seat=1, threat=0)).code == "greenwood.no_protection_left"
    assert gw.legal(state, Protect(seat=1, threat=0, move_from=0)).code == "greenwood.not_protected"
    state, _ = gw.apply(state, Protect(seat=1, threat=0, move_from=2))
    assert state.data.players[1].protections == (1, 3, 0)


def test_departure_allows_one_choice_per_aurora_held_when_it_began(table, gw) -> None:
    """§三.3: 玩家每拥有1个极光,就可以选择一项; 启程阶段获得的极光不能在本阶段立即使用; 没有
    极光的玩家跳过本阶段 — and once its choices are used the player moves on by itself."""
    table.ok(PlaceDuskMarker(seat=0, effect="protect"))
    table.ok(GainAurora(seat=0))
    table.ok(Gain(seat=0, reward="aurora"))  # a card gives a second aurora at dusk
    table.pass_until("departure")
    assert 1 in table.state.flow.done  # player 2 holds no aurora: skipped, without a pass
    assert table.refused(CastSpell(seat=1, spell="stay_alert")) == "core.already_passed"
    assert table.refused(RemoveHiker(seat=0, companion=0)) == "greenwood.no_hiker"
    score = table.player(0).score
    table.ok(CastSpell(seat=0, spell="request_aid"))
    assert table.player(0).score == score + 1  # 请求援助: 1 point
    table.ok(Gain(seat=0, reward="aurora"))  # a card gives aurora now: not usable now
    assert table.player(0).aurora == 3 and table.state.flow.phase == "departure"
    events = table.ok(CastSpell(seat=0, spell="stay_alert"))  # the second and last choice
    assert [e.seat for e in events if e.type == "seat_passed"] == [0]
    assert table.state.flow.phase == "night"  # everyone moved on: no pass was needed
    assert table.player(0).pathfinding == 1  # 保持警觉: 1 pathfinding
    spent = gw.with_player(table.state, 1, departure_left=0)  # a player not moved on yet
    spent = replace(spent, flow=replace(spent.flow, phase="departure", done=frozenset()))
    verdict = gw.legal(spent, CastSpell(seat=1, spell="stay_alert"))
    assert verdict.code == "greenwood.no_aurora_left"


def test_an_aurora_takes_a_hike_token_off(gw) -> None:
    """§三.3: 移除自己1名普通伙伴身上的1个徒步标记."""
    t = gw.Table(mode="clan")
    t.session.state = gw.with_player(t.state, 0, aurora=1)  # prepared: one aurora held
    t.pass_until("departure")
    t.ok(RemoveHiker(seat=0, companion=0))
    assert t.player(0).hikers == frozenset()


def night(gw, **options):
    t = gw.Table(**options)
    t.pass_until("night")
    return t


def test_a_night_turn_uses_one_token_then_ends(gw) -> None:
    """§三.4: 轮到自己时,必须选择使用1个行动标记,或结束本轮夜晚行动 — one token a turn."""
    t = night(gw)
    assert t.refused(Gain(seat=0, reward="vp:1")) == "greenwood.token_first"
    t.ok(UseEnergy(seat=0, companion=0))
    assert t.refused(UseEnergy(seat=0, companion=SPIRIT)) == "greenwood.one_token_per_turn"
    t.ok(Gain(seat=0, reward="vp:1"))  # the companion's ability
    t.ok(EndTurn(seat=0))
    assert t.state.flow.current == 1
    t.ok(Pass(seat=1))
    assert t.refused(Gain(seat=0, reward="vp:1")) == "greenwood.token_first"  # a new turn
    t.ok(UseEnergy(seat=0, companion=SPIRIT))  # §四.1: the spirit takes energy
    t.ok(EndTurn(seat=0))
    assert t.refused(UseEnergy(seat=0, companion=SPIRIT)) == "greenwood.no_energy"


def test_energy_goes_on_a_free_own_companion_once_a_night(gw) -> None:
    """§三.5: 已经被能量标记或徒步标记占用的伙伴不能再次使用."""
    t = night(gw)
    assert t.refused(UseEnergy(seat=0, companion=3)) == "greenwood.no_companion"
    t.ok(Hike(seat=0, companion=0))
    t.ok(EndTurn(seat=0))
    t.ok(Pass(seat=1))
    assert t.refused(UseEnergy(seat=0, companion=0)) == "greenwood.companion_busy"


def test_a_spirit_ability_follows_a_token_on_a_spirit_and_is_chosen_once(gw) -> None:
    """§四.1: 每次激活原初之灵时,必须从其两个能力中选择一个执行 (draw 3 cards and 2 points, or
    the longer journey); a spy on another player's spirit copies it (§三.6)."""
    t = night(gw)
    t.ok(UseEnergy(seat=0, companion=0))
    ability = SpiritAbility(seat=0, ability="draw_three")
    assert t.refused(ability) == "greenwood.no_spirit_token"
    t.ok(EndTurn(seat=0))
    t.ok(Pass(seat=1))
    t.ok(UseEnergy(seat=0, companion=SPIRIT))
    score = t.player(0).score
    t.ok(ability)
    assert t.player(0).score == score + 2
    assert t.refused(SpiritAbility(seat=0, ability="journey")) == "greenwood.no_spirit_token"
    t2 = gw.Table(players=2)
    t2.pass_until("night")
    t2.ok(Pass(seat=0))
    t2.ok(UseSpy(seat=1, owner=0, companion=SPIRIT))
    t2.ok(SpiritAbility(seat=1, ability="journey"))


def test_the_spirit_cannot_hike(gw) -> None:
    """§四.1, §四.6: 原初之灵不能放置徒步标记."""
    assert night(gw).refused(Hike(seat=0, companion=SPIRIT)) == "greenwood.spirit_cannot_hike"


def test_a_spy_copies_an_energised_unspied_companion_of_another_player(gw) -> None:
    """§三.6: the companion must carry energy and no spy; a spirit takes two spies a round."""
    t = gw.Table(players=3)
    t.pass_until("night")
    t.ok(UseEnergy(seat=0, companion=0))
    t.ok(EndTurn(seat=0))
    assert t.refused(UseSpy(seat=1, owner=1, companion=0)) == "greenwood.spy_own"
    assert t.refused(UseSpy(seat=1, owner=2, companion=0)) == "greenwood.spy_needs_energy"
    assert t.refused(UseSpy(seat=1, owner=None, companion=0)) == "greenwood.no_virtual_opponent"
    t.ok(UseSpy(seat=1, owner=0, companion=0))
    t.ok(EndTurn(seat=1))
    assert t.refused(UseSpy(seat=2, owner=0, companion=0)) == "greenwood.already_spied"
    t.ok(UseSpy(seat=2, owner=0, companion=SPIRIT))
    t.ok(EndTurn(seat=2))
    t.ok(Pass(seat=0))
    assert t.refused(UseSpy(seat=1, owner=0, companion=SPIRIT)) == "greenwood.no_spy"
    two_spies = gw.with_player(t.state, 1, spies=2)
    assert gw.legal(two_spies, UseSpy(seat=1, owner=0, companion=SPIRIT)).ok
    spirit_full = gw.with_player(two_spies, 0, spirit_spies=2)
    verdict = gw.legal(spirit_full, UseSpy(seat=1, owner=0, companion=SPIRIT))
    assert verdict.code == "greenwood.spirit_spied_twice"


def test_dawn_pays_unused_energy_and_spies_and_upkeep_takes_tokens_back(gw) -> None:
    """§三.14: 1 point per unused energy and spy token; §三.15 step 1 recalls them; step 3
    reveals the next two threats."""
    t = night(gw)
    t.ok(UseEnergy(seat=0, companion=0))
    t.ok(EndTurn(seat=0))
    t.ok(Pass(seat=1))
    t.ok(Pass(seat=0))
    assert t.state.flow.phase == "dawn"
    dawn = [e for e in t.events if isinstance(e, RewardGained) and e.source.startswith("dawn")]
    assert [(e.seat, e.reward) for e in dawn] == [(0, "vp:2"), (1, "vp:3")]
    assert (t.player(0).score, t.player(1).score) == (7, 8)
    t.ok(Advance())
    assert t.player(0).energised == frozenset() and t.player(0).energy_left == 2
    revealed = [e for e in t.events if isinstance(e, ThreatRevealed)]
    assert [e.index for e in revealed] == [1, 2] and t.state.data.revealed == 3


def test_learning_fills_unlocked_slots_and_a_full_store_returns_a_token_first(gw) -> None:
    """§三.8, §四.4: one token per unlocked slot; with none free, return one first."""
    t = night(gw)
    t.ok(Hike(seat=0, companion=0))
    t.ok(Learn(seat=0, knowledge="red"))
    t.ok(Learn(seat=0, knowledge="blue"))
    assert t.player(0).knowledge == ("red", "blue")
    t.ok(EndTurn(seat=0))
    t.ok(Pass(seat=1))
    t.ok(UseEnergy(seat=0, companion=SPIRIT))
    t.ok(SpiritAbility(seat=0, ability="journey"))  # one more forest action: learning
    assert t.refused(Learn(seat=0, knowledge="yellow")) == "greenwood.no_free_slot"
    assert t.refused(Learn(seat=0, knowledge="yellow", discard="yellow")) == "greenwood.not_held"
    t.ok(Learn(seat=0, knowledge="yellow", discard="red"))
    assert t.player(0).knowledge == ("blue", "yellow")


def test_rescue_pays_its_knowledge_scores_and_asks_for_its_pieces(gw) -> None:
    """§三.9: all the knowledge shown (large creatures also the display's extra), then the
    points, then the piece(s) into the submarine — a pair is two pieces."""
    t = night(gw)
    t.session.state = gw.with_player(t.state, 0, knowledge=("blue",))
    t.ok(Hike(seat=0, companion=0))
    assert t.refused(Rescue(seat=0, creature="unicorn")) == "greenwood.unknown_creature"
    assert t.refused(Rescue(seat=0, creature="twin newts")) == "greenwood.missing_knowledge"
    t.session.state = gw.with_player(t.state, 0, knowledge=("blue", "blue"))
    t.ok(Rescue(seat=0, creature="twin newts"))
    me = t.player(0)
    assert me.knowledge == () and me.score == 5 + 4 and me.rescued == ("twin newts",)
    assert me.awaiting == "domino"
    assert t.refused(Learn(seat=0, knowledge="red")) == "greenwood.place_first"
    assert t.refused(Place(seat=0, piece="wisp", cells=((0, 0),))) == "greenwood.wrong_piece"
    t.ok(Place(seat=0, piece="domino", cells=((0, 0), (0, 1))))
    assert t.player(0).awaiting == "domino"
    t.ok(Place(seat=0, piece="domino", cells=((1, 0), (1, 1))))
    assert t.player(0).awaiting is None and len(t.player(0).pieces) == 2


def test_a_large_creature_also_costs_the_display_extra(gw) -> None:
    """§三.9: 大型囚禁生物除了板块本身显示的知识要求外,还必须支付其展示位置旁边额外标示的知识."""
    t = night(gw)
    t.session.state = gw.with_player(t.state, 0, knowledge=("red", "yellow"), slots=3)
    t.ok(Hike(seat=0, companion=0))
    assert t.refused(Rescue(seat=0, creature="stag")) == "greenwood.missing_knowledge"
    t.session.state = gw.with_player(t.state, 0, knowledge=("red", "yellow", "yellow"))
    t.ok(Rescue(seat=0, creature="stag"))
    assert t.player(0).knowledge == ()


def test_the_wisp_action_places_a_wisp_then_may_swap_one_knowledge(gw) -> None:
    """§三.11: place the wisp by the usual rules, then one knowledge may become another."""
    t = night(gw)
    t.session.state = gw.with_player(t.state, 0, knowledge=("red",))
    t.ok(Hike(seat=0, companion=0))
    assert t.refused(SwapKnowledge(seat=0, old="red", new="blue")) == "greenwood.no_swap"
    t.ok(TakeWisp(seat=0))
    assert t.refused(SwapKnowledge(seat=0, old="red", new="blue")) == "greenwood.place_first"
    assert t.refused(Place(seat=0, piece="wisp", cells=((3, 3),))) == "greenwood.must_cover_start"
    t.ok(Place(seat=0, piece="wisp", cells=((0, 0),)))
    t.ok(SwapKnowledge(seat=0, old="red", new="blue"))
    assert t.player(0).knowledge == ("blue",)
    assert t.refused(SwapKnowledge(seat=0, old="blue", new="red")) == "greenwood.no_swap"


def test_a_hike_allows_one_forest_action(gw) -> None:
    """§三.7 (移动结束后,执行所在位置的森林行动……完成后,本次行动结束) and §三.9: a hike ends
    in one forest action; learning (at most twice, §三.8) then no rescue, a rescue then no
    learning or wisp. The next hike has its own."""
    t = night(gw)
    t.session.state = gw.with_player(t.state, 0, companions=frozenset({0, 1}), slots=4)
    t.session.state = gw.with_player(t.state, 0, knowledge=("red",))
    t.ok(Hike(seat=0, companion=0))
    t.ok(Learn(seat=0, knowledge="blue"))
    refused = t.session.check(Rescue(seat=0, creature="moth"))
    assert refused.code == "greenwood.forest_action_done" and "§三.7" in (refused.rule or "")
    assert "learning" in refused.message.en and "学习行动" in refused.message.zh
    assert t.refused(TakeWisp(seat=0)) == "greenwood.forest_action_done"
    t.ok(Learn(seat=0, knowledge="yellow"))  # a learning action learns twice
    assert t.refused(Learn(seat=0, knowledge="red")) == "greenwood.learned_twice"
    t.ok(EndTurn(seat=0))
    t.ok(Pass(seat=1))
    t.ok(Hike(seat=0, companion=1))  # a new hike: a new forest action
    t.ok(Rescue(seat=0, creature="moth"))
    t.ok(Place(seat=0, piece="domino", cells=((0, 0), (1, 0))))
    assert t.refused(Learn(seat=0, knowledge="red")) == "greenwood.forest_action_done"
    assert t.refused(TakeWisp(seat=0)) == "greenwood.forest_action_done"
    assert t.refused(Rescue(seat=0, creature="glow snail")) == "greenwood.forest_action_done"


def test_the_spirits_journey_is_one_forest_action_and_energy_turns_are_not_limited(gw) -> None:
    """§四.1: the journey moves the spirit and does the forest action where it stops (one, as a
    hike, §三.7); a companion's ability (an energy token) may learn and rescue: the engine does
    not read the cards, so such a turn is not limited."""
    t = night(gw)
    t.ok(UseEnergy(seat=0, companion=SPIRIT))
    t.ok(SpiritAbility(seat=0, ability="journey"))
    t.ok(TakeWisp(seat=0))
    t.ok(Place(seat=0, piece="wisp", cells=((0, 0),)))
    assert t.refused(Learn(seat=0, knowledge="red")) == "greenwood.forest_action_done"
    t.ok(EndTurn(seat=0))
    t.ok(UseEnergy(seat=1, companion=0))
    t.ok(Learn(seat=1, knowledge="red"))
    t.ok(Rescue(seat=1, creature="moth"))  # the companion's card said so


def test_departure_moves_on_by_itself_when_no_one_has_aurora(table) -> None:
    """§三.3: 没有极光的玩家跳过本阶段 — nobody passes: the departure is announced, each player
    is done at once, and the night begins with the start player's turn."""
    table.ok(PlaceDuskMarker(seat=0, effect="aurora"))
    table.ok(PlaceDuskMarker(seat=1, effect="aurora"))
    table.ok(Pass(seat=0))
    events = table.ok(Pass(seat=1))
    types = [e.type for e in events]
    start = types.index("phase_started")
    assert [e.phase for e in events if e.type == "phase_started"] == ["departure", "night"]
    assert [e.seat for e in events if e.type == "seat_passed"][-2:] == [0, 1]
    assert types[start:].count("seat_passed") == 2
    assert table.state.flow.phase == "night" and table.state.flow.current == 0


def finish(t) -> None:
    t.pass_until("scoring")
    t.ok(Advance())


def test_most_points_wins(gw) -> None:
    """§五.5: 胜利点数最高的玩家获胜."""
    t = gw.Table()
    t.ok(Gain(seat=1, reward="vp:3"))
    finish(t)
    assert t.state.outcome.result == "win" and t.state.outcome.winners == (1,)
    scores = [e for e in t.events if isinstance(e, FinalScores)]
    assert scores[0].scores[1] - scores[0].scores[0] == 3


def test_a_tie_goes_to_more_rescued_creatures_wisps_excluded(gw) -> None:
    """§五.5: 比较潜艇顶部放置的已解救囚禁生物数量,不包括鬼火; 仍然相同则共同获胜."""
    t = gw.Table()
    t.session.state = gw.with_player(t.state, 0, rescued=("moth",), score=5)
    t.session.state = gw.with_player(t.state, 1, score=5)
    t.session.state = gw.with_player(t.state, 1, pieces=(Placed("wisp", frozenset({(0, 0)})),))
    finish(t)
    assert (t.state.outcome.result, t.state.outcome.winners) == ("win", (0,))
    assert t.state.outcome.reason == "greenwood.tie_most_rescued"
    t2 = gw.Table()
    finish(t2)
    assert (t2.state.outcome.result, t2.state.outcome.winners) == ("shared_win", (0, 1))


@pytest.mark.parametrize(
    ("score", "band"),
    [(0, 1), (45, 1), (46, 2), (65, 2), (66, 3), (85, 3), (86, 4), (104, 4), (105, 5), (300, 5)],
)
def test_solo_rating_bands(score, band) -> None:
    """§五.6: 45分及以下, 46至65, 66至85, 86至104, 105分及以上."""
    assert solo_band(score)[0] == band


def test_solo_virtual_opponent_shows_1_2_3_companions_that_spies_may_copy(gw) -> None:
    """§四.18: 第一轮翻开1张,第二轮2张,第三轮3张, each with energy, discarded after the night."""
    t = gw.Table(players=1)
    t.pass_until("night")
    assert t.state.data.virtual == 1
    assert t.refused(UseSpy(seat=0, owner=None, companion=1)) == "greenwood.spy_needs_energy"
    t.ok(UseSpy(seat=0, owner=None, companion=0))
    t.ok(EndTurn(seat=0))
    t.ok(Pass(seat=0))
    assert t.state.data.virtual == 0
    t.pass_until("night", 2)
    t.pass_until("night", 3)
    counts = [e.count for e in t.events if isinstance(e, VirtualCompanionsRevealed)]
    assert counts == [1, 2, 3]
    finish(t)
    rated = [e for e in t.events if isinstance(e, SoloRated)]
    assert rated[0].band == 1 and t.state.outcome.reason == "greenwood.solo_band_1"


def test_a_night_turn_cannot_end_without_a_token(gw) -> None:
    """§三.4: 轮到自己时,必须选择使用1个行动标记,或结束本轮夜晚行动 — no empty turns."""
    t = night(gw)
    assert t.refused(EndTurn(seat=0)) == "greenwood.turn_without_token"
    t.ok(UseEnergy(seat=0, companion=0))
    t.ok(EndTurn(seat=0))
    assert t.refused(EndTurn(seat=1)) == "greenwood.turn_without_token"
    t.ok(Pass(seat=1))  # ending the night is always allowed


def test_a_piece_to_place_comes_before_ending_a_turn_or_the_phase(gw) -> None:
    """§三.10: rewards that give a piece are resolved first: the piece is placed before going on."""
    t = night(gw)
    t.ok(UseEnergy(seat=0, companion=0))
    state = gw.with_player(t.state, 0, pending=(("test", "place:domino"),))
    assert gw.legal(state, EndTurn(seat=0)).code == "greenwood.place_first"
    assert gw.legal(state, Pass(seat=0)).code == "greenwood.place_first"
