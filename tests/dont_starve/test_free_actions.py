"""Free actions outside one's own turn, and the end when the last needs tile is lost.

dont-starve.zh.md §自由行动: 在行动阶段的任何时候，角色都可以执行任意数量的自由行动……他们甚至
可以在自己的回合之外执行，只要不打断其他玩家正在进行的行动. §准备阶段 完成准备阶段: 若移除的是
最后一块需求板块，则你输掉游戏.
"""

from __future__ import annotations

from engine.core import Advance, EndTurn, Pass, find_game, offered, offers
from engine.dont_starve.catalogue import catalogue
from engine.dont_starve.moves import (
    Discard,
    Eat,
    Explore,
    Fight,
    Gain,
    Lose,
    MoveTo,
    ScenarioEnd,
    SpendFocus,
)

GAME = find_game("dont_starve")
FREE = {
    "dont_starve.gain",
    "dont_starve.discard",
    "dont_starve.eat",
    "dont_starve.lose",
    "dont_starve.focus",
    "dont_starve.essence",
    "dont_starve.scenario_end",
}
"""The free actions of the action phase (§自由行动; a scenario card's end is the table's)."""


def _group(state, seat: int):
    return next((g for g in offers(GAME, state) if g.seat == seat), None)


def test_free_actions_may_be_taken_while_another_players_turn_is_open(play) -> None:
    """dont-starve.zh.md §自由行动: outside one's own turn, between another player's optional
    move and main action; the turn stays the other player's, and a main action still waits."""
    p = play(players=2)
    p.do(MoveTo(seat=0, to="E"))  # Wilson's turn is open: the optional move is made
    assert p.state.flow.current == 0
    p.do(Gain(seat=1, kind="cooked_food", count=2))
    p.do(Eat(seat=1, kind="cooked_food", health=1, hunger=2))
    p.do(Discard(seat=1, kind="cooked_food", count=1))
    p.do(Lose(seat=1, sanity=1))
    p.do(SpendFocus(seat=1))
    willow = p.data.char(1)
    card = catalogue().characters["willow"]
    assert (willow.cooked_food, willow.focus) == (0, card.focus - 1)
    assert willow.sanity == card.sanity - 1
    assert p.state.flow.current == 0  # still Wilson's turn: free actions neither start nor end one
    assert p.check(Explore(seat=1)).code == "core.turn_in_progress"  # a main action waits
    assert p.check(MoveTo(seat=1, to="D")).code == "core.turn_in_progress"
    assert p.check(Pass(seat=1)).code == "core.turn_in_progress"
    p.do(MoveTo(seat=0, to="D", main=True))  # Wilson's turn goes on undisturbed
    assert 0 in p.state.flow.done and p.state.flow.current is None


def test_an_inactive_character_still_takes_free_actions(play) -> None:
    """§自由行动 (在行动阶段的任何时候): a character whose activation token is flipped has ended
    its turn, not the action phase; it stays inactive until the dial turns."""
    p = play(players=2)
    p.do(Pass(seat=1))
    assert 1 in p.state.flow.done
    p.do(Gain(seat=1, kind="raw_food", count=1))
    p.do(Eat(seat=1, kind="raw_food", hunger=1))
    assert p.data.char(1).raw_food == 0
    assert 1 in p.state.flow.done
    assert p.check(Explore(seat=1)).code == "core.already_passed"
    assert p.check(EndTurn(seat=1)).code == "core.already_passed"


def test_a_free_action_outside_a_turn_does_not_start_one(play) -> None:
    """§自由行动 and §行动阶段 执行回合: Wilson gaining resources before anyone's turn does not
    make it his turn, so Willow may still be the one to take the next turn."""
    p = play(players=2)
    p.do(Gain(seat=0, kind="basic", count=1))
    assert p.state.flow.current is None
    p.do(MoveTo(seat=1, to="E"))
    assert p.state.flow.current == 1
    p.do(Gain(seat=0, kind="basic", count=1))  # and Wilson keeps gathering during her turn
    assert p.data.char(0).basic == 2 and p.state.flow.current == 1


def test_a_free_action_may_not_interrupt_another_players_fight(play) -> None:
    """§自由行动 (只要不打断其他玩家正在进行的行动): while a fight waits for its dice, a character
    outside it waits; a fighter may still reroll, eat or lose (§战斗结算)."""
    p = play(players=3)
    card = next(c.id for c in catalogue().locations["forest"] if not c.hostile)
    p.set(locations=(("E", card),), revealed=(*p.data.revealed, ("E", "forest")))
    p.set_char(0, tile="E")
    p.do(Fight(seat=0, monster_cv=5, helpers=(1,)))
    refused = p.check(Gain(seat=2, kind="basic", count=1))
    assert refused.code == "dont_starve.interrupts" and "§自由行动" in (refused.rule or "")
    assert "1" in refused.message.en
    assert p.check(ScenarioEnd(seat=2, result="win")).code == "dont_starve.interrupts"
    p.do(SpendFocus(seat=1))  # Willow, a helper, rerolls with her own token
    assert p.data.char(1).focus == catalogue().characters["willow"].focus - 1
    assert p.check(Gain(seat=1, kind="basic", count=1)).code == "dont_starve.fight_pending"


def test_the_console_offers_the_other_seats_their_free_actions(play) -> None:
    """§自由行动: the players' console lists, after the acting seat, each other seat with the
    free actions it may take now (none of the main actions, no pass or end of turn); during
    another player's fight they show greyed with the reason."""
    p = play(players=3)
    p.do(Pass(seat=2))  # Wendy has taken her turn: inactive
    p.do(MoveTo(seat=0, to="E"))
    groups = offers(GAME, p.state)
    assert [(g.seat, g.acting) for g in groups] == [(0, True), (1, False), (2, False)]
    for seat in (1, 2):
        moves = {o.move for o in _group(p.state, seat).offers}
        assert moves and moves <= FREE, moves
        assert {"dont_starve.gain", "dont_starve.eat", "dont_starve.focus"} <= moves
    acting = {o.move for o in groups[0].offers}
    assert {"dont_starve.explore", "pass"} <= acting and "end_turn" not in acting  # §结束回合
    assert offered(groups, Gain(seat=1, kind="basic", count=1)) is not None
    assert offered(groups, Explore(seat=1)) is None

    card = next(c.id for c in catalogue().locations["forest"] if not c.hostile)
    p.set(locations=(("E", card),), revealed=(*p.data.revealed, ("E", "forest")))
    p.do(Fight(seat=0, monster_cv=3))
    outside = _group(p.state, 1)
    assert outside is not None and outside.offers
    assert all(not o.ok for o in outside.offers)
    assert {o.refusal.code for o in outside.offers} == {"dont_starve.interrupts"}


def test_losing_the_last_needs_tile_ends_the_game_without_a_new_action_phase(play) -> None:
    """§准备阶段 完成准备阶段 and §胜利与失败: removing the last needs tile loses the game then
    and there; no action phase is announced (no phase_started, no dial set) that will never be
    played."""
    p = play()
    p.set(needs=p.data.needs[:1])  # one needs tile: round 2's preparation removes the last one
    p.go_to("preparation", 2)
    events = p.do(Advance())
    types = [e.type for e in events]
    assert types[0] == "dont_starve.needs_tile_removed"
    assert types[-2:] == ["phase_ended", "game_ended"]
    assert "phase_started" not in types and "dont_starve.dial_set" not in types
    assert events[0].to_dict()["left"] == 0
    assert p.state.outcome is not None
    assert (p.state.outcome.result, p.state.outcome.reason) == ("loss", "dont_starve.out_of_time")
    assert p.state.flow.phase == "preparation"
