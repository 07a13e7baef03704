"""Don't Starve actions: moving and adjacency, exploring, fights and their dice, inventory."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import GameConfigError, Pass, find_game, move_from_json, start
from engine.core.records import event_from_dict, event_types, move_types
from engine.dont_starve.board import adjacent, overlap, shared_edge
from engine.dont_starve.catalogue import catalogue
from engine.dont_starve.moves import (
    Discard,
    Eat,
    Explore,
    Fight,
    Gain,
    GainEssence,
    Interact,
    Lose,
    MoveTo,
    Roll,
    SpendFocus,
    Trade,
    Transfer,
)

OWN_MOVES = sorted((n, c) for n, c in move_types().items() if n.startswith("dont_starve."))
OWN_EVENTS = sorted((n, c) for n, c in event_types().items() if n.startswith("dont_starve."))


def edge_overlap(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Shared boundary length of two 2×2 squares, measured on their outlines (independent of
    the engine's formula): the length of the intersection of the touching edges."""
    ax0, ay0, bx0, by0 = a[0], a[1], b[0], b[1]
    ax1, ay1, bx1, by1 = ax0 + 2, ay0 + 2, bx0 + 2, by0 + 2
    if ax1 == bx0 or bx1 == ax0:  # side by side
        return max(0, min(ay1, by1) - max(ay0, by0))
    if ay1 == by0 or by1 == ay0:  # one above the other
        return max(0, min(ax1, bx1) - max(ax0, bx0))
    return 0


places = st.tuples(st.integers(-6, 6), st.integers(-6, 6))


@settings(max_examples=300, deadline=None)
@given(a=places, b=places)
def test_adjacent_means_sharing_at_least_half_an_edge(a, b) -> None:
    """dont-starve.zh.md §相邻: two tiles sharing at least half an edge are adjacent; tiles
    touching only at a corner are not."""
    if overlap(a, b):
        return
    assert shared_edge(a, b) == edge_overlap(a, b)
    assert adjacent(a, b) == (edge_overlap(a, b) >= 1)
    assert adjacent(a, b) == adjacent(b, a)


def test_corners_do_not_count_as_adjacent() -> None:
    """§相邻: 仅在角落接触的板块不相邻."""
    assert not adjacent((0, 0), (2, 2)) and adjacent((0, 0), (2, 1)) and adjacent((0, 0), (1, 2))


def test_a_move_goes_only_to_an_adjacent_tile(play) -> None:
    """§移动: choose an adjacent map tile; from the portal (4,2) tile A (1,0) is not adjacent."""
    p = play()
    verdict = p.check(MoveTo(seat=0, to="A"))
    assert verdict.code == "dont_starve.not_adjacent"
    assert "相邻" in verdict.rule and "A" in verdict.message.en
    assert p.check(MoveTo(seat=0, to="Z")).code == "dont_starve.no_such_tile"
    assert p.check(MoveTo(seat=0, to="B")).ok  # (3,0): half an edge with the portal


def test_entering_a_face_down_tile_reveals_it(play) -> None:
    """§移动: if the chosen tile is face down, turn it over; §世界构建: its biome is one of the
    tiles shuffled together for the scenario."""
    p = play()
    pool = list(p.data.pool)
    events = p.do(MoveTo(seat=0, to="E", biome="marsh"))
    assert [e.to_dict() for e in p.events_of("dont_starve.tile_revealed", events)] == [
        {"type": "dont_starve.tile_revealed", "tile": "E", "biome": "marsh"}
    ]
    pool.remove("marsh")
    assert sorted(p.data.pool) == sorted(pool) and p.data.biome_of("E") == "marsh"
    # moving back onto a face-up tile reveals nothing
    events = p.do(MoveTo(seat=0, to="P", main=True))
    assert not p.events_of("dont_starve.tile_revealed", events)


def test_a_biome_no_face_down_tile_has_is_refused(play) -> None:
    """§世界构建: the face-down tiles are the scenario's biome counts; no more of one biome."""
    p = play()
    marsh = p.data.pool.count("marsh")
    p.set(pool=tuple(b for b in p.data.pool if b != "marsh"))
    assert marsh and p.check(MoveTo(seat=0, to="E", biome="marsh")).code == (
        "dont_starve.wrong_biome"
    )


def test_no_exploring_on_the_portal(play) -> None:
    """§探索: 你可以在除传送门板块外的任何地图板块上执行此行动."""
    p = play()
    assert p.check(Explore(seat=0)).code == "dont_starve.explore_portal"


def test_exploring_draws_from_the_tiles_biome_deck_and_discards_the_old_card(play) -> None:
    """§探索: discard the location card already there, draw the top (or bottom) card of the
    deck matching the tile's biome."""
    p = play(players=2)
    p.do(MoveTo(seat=0, to="E", biome="forest"))
    deck = dict(p.data.decks)["forest"]
    events = p.do(Explore(seat=0))
    assert p.data.location("E") == deck[0]
    assert p.events_of("dont_starve.location_explored", events)[0].to_dict()["card"] == deck[0]
    p.do(Pass(seat=1))  # the dial turns; seat 0 explores again, from the bottom
    p.do(Explore(seat=0, bottom=True))
    assert p.data.location("E") == deck[-1]
    assert dict(p.data.discards)["forest"] == (deck[0],)


def test_a_structure_is_used_from_the_portal_only(play) -> None:
    """§与建筑卡互动: only a character on the portal tile interacts with structures."""
    p = play(players=2, structures=("tent",))
    assert p.check(Interact(seat=0, target="structure")).ok
    p.do(MoveTo(seat=0, to="E"))
    assert p.check(Interact(seat=0, target="structure")).code == "dont_starve.structure_off_portal"
    assert p.check(Interact(seat=0, target="location")).code == "dont_starve.no_location"


def _explored(play, hostile: bool):
    """A game with Wilson on tile E of forest with a location whose hostility is ``hostile``."""
    p = play(players=3)
    p.set_char(0, tile="E")
    card = next(c.id for c in catalogue().locations["forest"] if c.hostile == hostile)
    p.set(locations=(("E", card),), revealed=(*p.data.revealed, ("E", "forest")))
    return p


@settings(max_examples=40, deadline=None)
@given(monster_cv=st.integers(0, 12), cv=st.integers(0, 12))
def test_monster_dice_are_the_monster_cv_minus_the_fighters_cv_at_least_one(
    play, monster_cv, cv
) -> None:
    """§战斗结算: 从怪物的战斗值中减去角色的总战斗值, 拿取该数量的怪物骰(最少1个); the dice
    tray is told exactly which dice to roll: one character die and the monster dice."""
    p = _explored(play, hostile=False)
    events = p.do(Fight(seat=0, monster_cv=monster_cv, cv=cv))
    pools = p.events_of("dice_pool_announced", events)
    n = max(1, monster_cv - cv)
    assert [e.to_dict() for e in pools] == [
        {
            "type": "dice_pool_announced",
            "seat": 0,
            "dice": ["character"] + ["monster"] * n,
            "reason": "fight",
        }
    ]


def test_scenario_tokens_not_engaged_add_a_die_each_that_cv_does_not_reduce(play) -> None:
    """§与剧本怪物战斗: CV of the engaged tokens minus the fighters' CV (at least 1), plus one
    die per token on the tile not engaged."""
    p = play()
    p.set_char(0, tile="G")
    spider = catalogue().scenarios["a_new_beginning"].tokens[0].cv
    events = p.do(Fight(seat=0, target="scenario", tokens=1, cv=spider + 5))
    assert p.events_of("dont_starve.fight_started", events)[0].to_dict()["monster_dice"] == 1 + 1
    p = play()
    p.set_char(0, tile="G")
    events = p.do(Fight(seat=0, target="scenario", tokens=2, cv=1))
    assert p.events_of("dont_starve.fight_started", events)[0].to_dict()["monster_dice"] == (
        2 * spider - 1
    )
    assert p.check(Fight(seat=0, target="scenario", tokens=3)).code == "dont_starve.fight_pending"
    q = play()
    q.set_char(0, tile="G")
    assert q.check(Fight(seat=0, target="scenario", tokens=3)).code == "dont_starve.no_tokens"


def test_success_cancels_dodge_and_one_success_must_remain(play) -> None:
    """§战斗结算: 每个[成功]可以抵消一个[闪避]; at least one success left wins; each hit costs
    the monster's damage."""
    for successes, dodges, won in ((1, 0, True), (1, 1, False), (2, 1, True), (0, 0, False)):
        p = _explored(play, hostile=False)
        p.do(Fight(seat=0, monster_cv=3, damage=2))
        health = p.data.char(0).health
        events = p.do(Roll(seat=0, fighter=0, successes=successes, dodges=dodges, hits=1))
        ended = p.events_of("dont_starve.fight_ended", events)[0].to_dict()
        assert ended["won"] is won
        assert p.data.char(0).health == health - 2
        assert ("E" in p.data.defeated_monsters) is won  # §与地点怪物战斗: defeated token
        assert 0 in p.state.flow.done  # the fight was the main action


def test_armour_blocks_hits_and_faces_must_fit_the_dice(play) -> None:
    """§投骰 / §战斗结算: a monster die shows one face; armour prevents hits."""
    p = _explored(play, hostile=False)
    p.do(Fight(seat=0, monster_cv=2))
    assert p.check(Roll(seat=0, fighter=0, hits=2, dodges=1)).code == "dont_starve.bad_dice"
    assert p.check(Roll(seat=0, fighter=0, hits=1, blocked=2)).code == "dont_starve.bad_dice"
    health = p.data.char(0).health
    p.do(Roll(seat=0, fighter=0, successes=1, hits=2, blocked=1))
    assert p.data.char(0).health == health - 1


def test_helpers_join_from_adjacent_tiles_and_share_the_dice(play) -> None:
    """§加入战斗: characters on adjacent tiles may join: they flip to inactive and move onto the
    fight's tile; the monster dice are shared; all must win for the fight to be won."""
    p = _explored(play, hostile=False)
    p.set_char(2, tile="A")  # (1,0) is not adjacent to E (2,2)? it shares half an edge
    p.set_char(1, tile="P")  # (4,2) is beside E
    p.set_char(2, tile="K")  # (5,4) touches E (2,2) nowhere
    assert p.check(Fight(seat=0, monster_cv=5, helpers=(2,))).code == "dont_starve.cannot_join"
    events = p.do(Fight(seat=0, monster_cv=5, helpers=(1,)))
    started = p.events_of("dont_starve.fight_started", events)[0].to_dict()
    assert started["fighters"] == [0, 1] and started["split"] == [3, 2]
    assert p.data.char(1).tile == "E" and 1 in p.state.flow.done
    assert [e.to_dict()["seat"] for e in p.events_of("dice_pool_announced", events)] == [0, 1]
    assert p.check(Explore(seat=0)).code == "dont_starve.fight_pending"
    p.do(Roll(seat=0, fighter=0, successes=1))
    events = p.do(Roll(seat=0, fighter=1, successes=1, dodges=1))
    assert p.events_of("dont_starve.fight_ended", events)[0].to_dict()["won"] is False


def test_a_turn_ends_only_once_every_fighters_dice_are_read(play) -> None:
    """§战斗结算 (a fight is the turn's main action, resolved by its dice) with §结束回合: while
    a fight waits for its dice, ending the turn is refused with what to finish and the console
    offers no end of turn; reading one fighter's dice keeps the initiator's turn open, the last
    one ends the fight and the turn; a helper does not enter the dice (the initiator does)."""
    from engine.core import offered, offers

    game = find_game("dont_starve")
    p = _explored(play, hostile=False)
    p.set_char(1, tile="P")  # beside E: may join
    p.do(Fight(seat=0, monster_cv=5, helpers=(1,)))
    assert p.state.flow.current == 0
    assert p.check(Pass(seat=0)).code == "dont_starve.fight_pending"
    assert offered(offers(game, p.state), Pass(seat=0)) is None
    assert p.check(Roll(seat=1, fighter=1)).code == "dont_starve.initiator_rolls"
    p.do(Roll(seat=0, fighter=1, successes=1))
    assert p.state.flow.current == 0 and p.data.fight is not None  # still Wilson's turn
    assert p.check(Pass(seat=0)).code == "dont_starve.fight_pending"
    p.do(Roll(seat=0, fighter=0, successes=1))
    assert p.data.fight is None and p.state.flow.current is None  # the turn is over
    assert 0 in p.state.flow.done  # its activation token flipped (§结束回合)


def test_an_inactive_character_cannot_join(play) -> None:
    """§加入战斗: joining gives up that character's turn, so it must still have one."""
    p = _explored(play, hostile=False)
    p.do(Pass(seat=1))
    assert p.check(Fight(seat=0, monster_cv=4, helpers=(1,))).code == "dont_starve.cannot_join"


def test_shadow_creatures_are_fought_alone_and_only_when_showing(play) -> None:
    """§加入战斗: 角色不能在对抗影怪的战斗中互相支援; §战斗: fight a shadow haunting you."""
    p = play(players=2)
    assert p.check(Fight(seat=0, target="shadow", tier=1)).code == "dont_starve.no_shadow"
    p.set_char(0, sanity=catalogue().characters["wilson"].sanity_thresholds[0] - 1)
    assert p.check(Fight(seat=0, target="shadow", tier=1, helpers=(1,))).code == (
        "dont_starve.shadow_alone"
    )
    events = p.do(Fight(seat=0, target="shadow", tier=1, cv=0))
    cv = catalogue().shadow_cv[1]
    assert p.events_of("dice_pool_announced", events)[0].to_dict()["dice"] == (
        ["character"] + ["monster"] * cv
    )


def test_a_defeated_monster_token_stops_fights_there_until_monster_refresh(play) -> None:
    """§符号参考 地点效果: a location with a defeated-monster token allows no fight."""
    p = _explored(play, hostile=False)
    p.set(defeated_monsters=frozenset({"E"}))
    assert p.check(Fight(seat=0, monster_cv=3)).code == "dont_starve.monster_defeated"


def test_hostile_monsters_add_a_die_to_interacting_and_exploring(play) -> None:
    """§敌意: on a tile with a hostile monster, interacting or exploring adds one monster die
    to the roll."""
    p = _explored(play, hostile=True)
    events = p.do(Interact(seat=0))
    assert p.events_of("dice_pool_announced", events)[0].to_dict()["dice"] == [
        "character",
        "monster",
    ]
    q = _explored(play, hostile=False)
    events = q.do(Interact(seat=0))
    assert q.events_of("dice_pool_announced", events)[0].to_dict()["dice"] == ["character"]


def test_a_backpack_holds_ten_resources_and_a_hand_eight_items(play) -> None:
    """§上限 物品栏上限: 背包最多可存放10个资源指示物, 手中最多可持有8张物品卡."""
    p = play()
    p.do(Gain(seat=0, kind="basic", count=6))
    p.do(Gain(seat=0, kind="raw_food", count=4))
    verdict = p.check(Gain(seat=0, kind="cooked_food"))
    assert verdict.code == "dont_starve.backpack_full" and "11" in verdict.message.en
    p.do(Discard(seat=0, kind="basic"))
    assert p.check(Gain(seat=0, kind="cooked_food")).ok
    p.do(Gain(seat=0, kind="item", count=8))
    assert p.check(Gain(seat=0, kind="item")).code == "dont_starve.hand_full"
    assert p.check(Discard(seat=0, kind="loot")).code == "dont_starve.not_in_inventory"
    assert p.check(Eat(seat=0, kind="cooked_food")).code == "dont_starve.not_in_inventory"


def test_trade_is_between_characters_on_the_same_tile(play) -> None:
    """§交易: all characters on the same tile may give each other tokens and cards."""
    p = play(players=3)
    p.do(Gain(seat=0, kind="basic", count=3))
    p.set_char(2, tile="E")
    apart = Trade(seat=0, transfers=(Transfer(0, 2, "basic", 1),))
    assert p.check(apart).code == "dont_starve.trade_apart"
    p.set_char(1, basic=9)
    full = Trade(seat=0, transfers=(Transfer(0, 1, "basic", 2),))
    assert p.check(full).code == "dont_starve.backpack_full"
    p.do(Trade(seat=0, transfers=(Transfer(0, 1, "basic", 1),)))
    assert (p.data.char(0).basic, p.data.char(1).basic) == (2, 10)


@pytest.mark.parametrize(("name", "cls"), OWN_MOVES, ids=[n for n, _ in OWN_MOVES])
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_every_dont_starve_move_round_trips_through_json(name, cls, data) -> None:
    move = data.draw(st.builds(cls))
    assert move_from_json(move.to_json()) == move


@pytest.mark.parametrize(("name", "cls"), OWN_EVENTS, ids=[n for n, _ in OWN_EVENTS])
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_every_dont_starve_event_round_trips_through_json(name, cls, data) -> None:
    event = data.draw(st.builds(cls))
    assert event_from_dict(json.loads(event.to_json())) == event


def test_a_focus_reroll_in_a_fight_shows_the_fighters_dice_again(play) -> None:
    """§专注点: flip an active focus token to reroll any dice; the tray shows the reroll. A
    helper's token is entered by the initiator (helpers have given up their turn)."""
    p = _explored(play, hostile=False)
    p.set_char(1, tile="P")
    p.do(Fight(seat=0, monster_cv=4, helpers=(1,)))
    focus = p.data.char(1).focus
    events = p.do(SpendFocus(seat=0, for_seat=1))
    assert p.data.char(1).focus == focus - 1
    pools = [e.to_dict() for e in p.events_of("dice_pool_announced", events)]
    assert pools == [
        {
            "type": "dice_pool_announced",
            "seat": 1,
            "dice": ["character", "monster", "monster"],  # 4 dice dealt: 2 each
            "reason": "reroll",
        }
    ]
    assert p.check(SpendFocus(seat=0, for_seat=2)).code == "dont_starve.not_fighting"


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_revealing_every_tile_turns_up_exactly_the_scenarios_biomes(seed) -> None:
    """§世界构建 B–C: the tiles of each biome the scenario lists are shuffled together and laid
    face down, so revealing them all shows exactly those counts, whatever the seed."""
    game = find_game("dont_starve")
    state, _ = start(game, {"players": 1, "draws": "virtual"}, seed=seed)
    scenario = catalogue(state).scenarios[state.data.scenario]
    for slot in scenario.slots:  # the effect of entering each tile, one after the other
        state, events = game.apply(state, MoveTo(seat=0, to=slot.name))
        assert [e.type for e in events][:2] == [
            "dont_starve.character_moved",
            "dont_starve.tile_revealed",
        ]
    revealed = [b for t, b in state.data.revealed if t != "P"]
    assert {b: revealed.count(b) for b in set(revealed)} == scenario.biomes
    assert state.data.pool == ()


def test_a_mined_out_location_allows_no_interaction_until_explored_again(play) -> None:
    """§与地点卡互动: only while the mining marker is not on 已开采; each interaction moves it
    one space; §探索 a new card starts a new track (再生长: see the weather tests)."""
    p = _explored(play, hostile=False)
    card = p.data.location("E")
    for _ in range(catalogue(p.state).mining(card)):
        assert p.check(Interact(seat=0)).ok
        p.do(Interact(seat=0))
        p.do(Pass(seat=1))
        p.do(Pass(seat=2))
    assert p.check(Interact(seat=0)).code == "dont_starve.mined_out"
    assert p.check(Interact(seat=0, target="scenario")).ok  # other elements stay open
    assert p.check(Explore(seat=0)).ok
    p.do(Explore(seat=0))
    p.do(Pass(seat=1))
    p.do(Pass(seat=2))
    assert p.check(Interact(seat=0)).ok


def test_a_helpers_loss_is_entered_by_the_fights_initiator(play) -> None:
    """§加入战斗: a helper has flipped to inactive, yet a monster ability may still hurt it
    (§怪物 怪物能力): the initiator enters the loss for it; nobody loses for a defeated one."""
    p = _explored(play, hostile=False)
    p.set_char(1, tile="P", health=5)
    p.do(Fight(seat=0, monster_cv=4, helpers=(1,)))
    p.do(Lose(seat=0, health=2, for_seat=1))
    assert p.data.char(1).health == 3
    assert p.check(Lose(seat=0, health=1, for_seat=7)).code == "dont_starve.no_such_player"
    p.set_char(2, defeated=True, tile=None)
    assert p.check(Lose(seat=0, health=1, for_seat=2)).code == "dont_starve.defeated"


def test_structures_cost_essence_and_sanity_buys_essence_on_the_portal(play) -> None:
    """§营地: essence starts on 6, at most 3 structures; §精华: a structure's cost is paid in
    essence (none left, no effect); on the portal 1 sanity buys 3 essence."""
    with pytest.raises(GameConfigError, match="at most 3 structures"):
        play(structures=("a", "b", "c", "d"))
    p = play(players=2)
    assert p.check(Interact(seat=0, target="structure")).code == "dont_starve.no_base_camp"
    p = play(players=2, structures=("science machine",))
    assert p.data.essence == 6
    verdict = p.check(Interact(seat=0, target="structure", essence=7))
    assert verdict.code == "dont_starve.no_essence" and "7 needed, 6 left" in verdict.message.en
    sanity = p.data.char(0).sanity
    events = p.do(GainEssence(seat=0))
    assert (p.data.essence, p.data.char(0).sanity) == (9, sanity - 1)
    assert p.events_of("dont_starve.essence_changed", events)[0].to_dict()["essence"] == 9
    p.do(Interact(seat=0, target="structure", essence=7))
    assert p.data.essence == 2
    p.set_char(1, tile="E")
    assert p.check(GainEssence(seat=1)).code == "dont_starve.off_portal"


def test_a_fighter_dealt_no_die_wins_its_part_without_rolling(play) -> None:
    """§战斗结算: 可能会有角色被分配到0个骰子。此时，该角色自动赢得他的战斗."""
    p = _explored(play, hostile=False)
    p.set_char(1, tile="P")
    events = p.do(Fight(seat=0, monster_cv=1, helpers=(1,)))
    assert p.events_of("dont_starve.fight_started", events)[0].to_dict()["split"] == [1, 0]
    assert [e.to_dict()["seat"] for e in p.events_of("dice_pool_announced", events)] == [0]
    assert p.check(Roll(seat=0, fighter=1)).code == "dont_starve.not_fighting"
    events = p.do(Roll(seat=0, fighter=0, successes=1))
    assert p.events_of("dont_starve.fight_ended", events)[0].to_dict()["won"] is True
