"""Stonesaga's actions in progress (issue 26): an open test, a mining bag, fishing dice are
states of the engine (``Stonesaga.in_progress``); while one is open only what continues or
closes it is legal, and the console offers exactly that. An exchange must exchange something.

Sections cited are those of stonesaga.zh.md.
"""

from __future__ import annotations

import random
from typing import Any

from stonesaga_play import GAME, Play, of

from engine.core import Advance, EndTurn, Pass, legal, offered, offers
from engine.core.offers import SeatOffers, sample
from engine.stonesaga import moves as mv


def open_offers(play: Play) -> tuple[SeatOffers, ...]:
    """What the console offers now."""
    return offers(GAME, play.state)


def offered_ok(play: Play) -> dict[str, bool]:
    """Each move type the seats are offered, and whether any offer of it is open."""
    out: dict[str, bool] = {}
    for group in open_offers(play):
        for offer in group.offers:
            out[offer.move] = out.get(offer.move, False) or offer.ok
    return out


def assert_console_offers_nothing_refused(play: Play, code: str, draws: int = 300) -> None:
    """Every open option, built with any numbers and dice, is legal; every greyed core move
    (end the turn, pass) carries the in-progress reason."""
    groups = open_offers(play)
    rnd = random.Random(5)
    for _ in range(draws):
        move = sample(groups, rnd)
        assert move is not None and offered(groups, move) is not None
        assert legal(GAME, play.state, move).ok, move
    core = [o for g in groups for o in g.offers if o.move in ("end_turn", "pass")]
    assert core and not any(o.ok for o in core)
    assert {o.refusal.code for o in core if o.refusal is not None} == {code}


# --- mining (采矿) --------------------------------------------------------------------------


def mining(draws: int = 1) -> Play:
    """Player 1's character mines the cave of tile 102 and draws ``draws`` tokens."""
    play = Play(2)
    play.edit(0, tile="102")
    play.do(mv.Mine(0, 0, "cave"))
    for stone, omen in (("sun_stone", "sun"), ("river_stone", "moon"), ("river_stone", "star"))[
        :draws
    ]:
        play.do(mv.DrawOre(0, stone, omen))
    return play


def test_a_mining_is_decided_on_before_the_turn_the_phase_or_the_day_ends() -> None:
    """stonesaga.zh.md §采矿.6: 决定继续还是收手（最多 3 枚）。完成后把所有矿石标记倒回供应堆.
    After a draw, ending the turn, passing (either player) and ending the challenge are refused
    with "decide first"; the miner may draw again or stop; stopping returns every token, ends
    the turn, and the bag is gone for good (no later turn reopens it)."""
    play = mining()
    for move in (EndTurn(0), Pass(0), Pass(1), mv.EndChallenge(0, "won"), mv.Pack(1, 1)):
        verdict = play.check(move)
        assert verdict.code == "stonesaga.mining_open", move
        assert verdict.rule == "stonesaga.zh.md §采矿.6"
        assert "先决定继续摸还是收手" in verdict.message.zh
        assert "decide first whether to draw again or stop" in verdict.message.en
    assert play.check(mv.DrawOre(0, "river_stone", "moon")).ok
    (returned,) = of(play.do(mv.FinishMining(0)), mv.OreReturned)
    assert returned.drawn == 1 and play.data.mining is None and play.state.flow.current is None
    play.do(mv.Effect(0, 0, "gain_energy", 1))  # the same player opens a turn
    assert play.check(mv.DrawOre(0, "cloud_stone", "moon")).code == "stonesaga.not_mining"
    assert play.check(mv.Pack(0, 0)).ok and play.check(EndTurn(0)).ok


def test_the_mining_table_may_ask_for_a_test_inside_the_mining() -> None:
    """§采矿.5: 按「预兆 × 地物」的交点结算 — an entry may ask for a test: it is called and
    rolled inside the mining (the test first, §判定), then the mining goes on to its stop."""
    play = mining()
    play.do(mv.CallTest(0, 0, "strength"))
    assert play.check(mv.FinishMining(0)).code == "stonesaga.test_in_progress"
    play.do(mv.Roll(0, 3))
    assert play.check(EndTurn(0)).code == "stonesaga.mining_open"
    play.do(mv.FinishMining(0))
    assert play.data.mining is None and play.data.test is None
    assert play.state.flow.current is None


def test_while_mining_the_console_offers_only_draws_stop_tests_and_effects() -> None:
    """§采矿.6: the console offers nothing the rules refuse while the bag is open; ending the
    turn and passing are shown greyed with what to finish first."""
    play = mining(2)
    ok = {move for move, is_ok in offered_ok(play).items() if is_ok}
    assert ok == {
        "stonesaga.draw_ore",
        "stonesaga.finish_mining",
        "stonesaga.call_test",
        "stonesaga.effect",
    }
    assert_console_offers_nothing_refused(play, "stonesaga.mining_open")
    play.do(mv.DrawOre(0, "cloud_stone", "star"))  # the third: only stopping is left to do
    ok = {move for move, is_ok in offered_ok(play).items() if is_ok}
    assert "stonesaga.draw_ore" not in ok and "stonesaga.finish_mining" in ok
    assert_console_offers_nothing_refused(play, "stonesaga.mining_open")


# --- tests (判定) ---------------------------------------------------------------------------


def test_a_test_is_one_flow_no_turn_or_day_ends_before_its_last_die() -> None:
    """stonesaga.zh.md §判定: 一名角色做一次判定的完整流程 — the die, each heroic effort's die
    (§奋力一搏), the outcome. While it is open, ending the turn and passing are refused with
    "enter the die first", so no extra die waits into the night."""
    play = Play(2)
    play.do(mv.CallTest(0, 0, "faith"))
    for move in (EndTurn(0), Pass(0), Pass(1), mv.Pack(0, 0), mv.Give(0, 0, 1, "water")):
        verdict = play.check(move)
        assert verdict.code == "stonesaga.test_in_progress", move
        assert verdict.rule == "stonesaga.zh.md §判定"
        assert "先输入掷出的骰子" in verdict.message.zh
    play.do(mv.Roll(0, 6))  # heroic effort: one more die
    assert play.check(EndTurn(0)).code == "stonesaga.test_in_progress"
    assert play.check(Pass(0)).code == "stonesaga.test_in_progress"
    assert_console_offers_nothing_refused(play, "stonesaga.test_in_progress")
    play.do(mv.Roll(0, 2))
    assert play.data.test is None and play.check(EndTurn(0)).ok


def test_a_night_card_test_holds_the_night_until_its_die() -> None:
    """§夜晚阶段.7 and §判定: a test a night card asks for is finished before anyone passes
    the step; its heroic effort's die is entered then, not later."""
    play = Play(2)
    play.to_night_step(7)
    play.do(mv.CallTest(0, 0, "faith"))
    play.do(mv.Roll(0, 6))
    for move in (Pass(0), Pass(1), mv.NightCard(1, 1, True, "moon")):
        assert play.check(move).code == "stonesaga.test_in_progress", move
    assert_console_offers_nothing_refused(play, "stonesaga.test_in_progress")
    play.do(mv.Roll(0, 1))
    assert play.check(mv.NightCard(1, 1, True, "moon")).ok


# --- fishing (钓鱼) -------------------------------------------------------------------------


def test_the_fishing_dice_come_before_anything_else() -> None:
    """stonesaga.zh.md §钓鱼.3: 掷四颗骰 — after ``fish`` the turn stays open for the four
    dice; ending it, passing or another move is refused until they are entered; the catch is
    then recorded with effects and the turn ended."""
    play = Play(2)
    play.do(mv.Fish(0, 0, "river"))
    for move in (EndTurn(0), Pass(0), Pass(1), mv.Effect(0, 0, "gain", 1, "fish")):
        verdict = play.check(move)
        assert verdict.code == "stonesaga.fishing_open", move
        assert verdict.rule == "stonesaga.zh.md §钓鱼.3"
    assert_console_offers_nothing_refused(play, "stonesaga.fishing_open")
    play.do(mv.FishingRoll(0, 5, 2, 6, 3))
    assert play.state.flow.current == 0
    play.do(mv.Effect(0, 0, "gain", 1, "fish"))
    assert play.check(mv.Pack(0, 0)).code == "stonesaga.one_action"
    play.do(EndTurn(0))
    assert play.state.flow.current is None


# --- exchange (交换) ------------------------------------------------------------------------


def test_an_exchange_must_exchange_something() -> None:
    """stonesaga.zh.md §交换: 与同一格的另一名角色互换任意数量的资源与物品卡 — an exchange of
    nothing is refused (and costs nothing), at an outpost too; giving alone or receiving alone
    is an exchange."""
    play = Play(2)
    play.edit(0, pack=(("water", 1),))
    play.edit(1, pack=(("fish:fresh", 1),))
    verdict = play.check(mv.Exchange(0, 0, 1))
    assert (verdict.code, verdict.rule) == ("stonesaga.nothing_exchanged", "stonesaga.zh.md §交换")
    play.tile("101", outpost=True)
    assert play.check(mv.Exchange(0, 0, 1)).code == "stonesaga.nothing_exchanged"
    assert play.check(mv.Exchange(0, 0, 1, give=(("water", 1),))).ok
    assert play.check(mv.Exchange(0, 0, 1, receive=(("fish:fresh", 1),))).ok


def _exchanges(play: Play) -> list[Any]:
    """Player 1's exchange offers."""
    groups = open_offers(play)
    return [o for g in groups for o in g.offers if o.move == "stonesaga.exchange" and o.seat == 0]


def test_the_console_offers_no_exchange_of_nothing() -> None:
    """§交换: the console's exchange needs one resource counted (``low`` 1): giving (and
    receiving any), or only receiving while the partner holds something; with nothing in
    either pack the exchange is greyed with the reason; every move it makes is legal."""
    play = Play(2)
    (empty,) = _exchanges(play)
    assert not empty.ok and empty.refusal.code == "stonesaga.nothing_exchanged"
    assert offered(open_offers(play), mv.Exchange(0, 0, 1)) is None
    play.edit(0, pack=(("water", 2),))
    play.edit(1, pack=(("fish:fresh", 1),))
    offers_now = _exchanges(play)
    assert [[f.low for f in o.fields] for o in offers_now] == [[1, 0], [1]]
    assert all(o.ok for o in offers_now)
    groups = open_offers(play)
    assert offered(groups, mv.Exchange(0, 0, 1)) is None
    assert offered(groups, mv.Exchange(0, 0, 1, give=(("water", 2),))) is not None
    assert offered(groups, mv.Exchange(0, 0, 1, receive=(("fish:fresh", 1),))) is not None
    only = (SeatOffers(0, True, tuple(offers_now)),)
    rnd = random.Random(3)
    for _ in range(100):
        move = sample(only, rnd)
        assert isinstance(move, mv.Exchange) and (move.give or move.receive)
        assert legal(GAME, play.state, move).ok


def test_a_bag_left_open_by_an_old_save_holds_no_night_up() -> None:
    """A save made before these rules may replay into a night with a bag, a test or fishing
    dice still open (replays are not checked again): the table walks on, and the next day
    begins with nothing open, so no saved game reaches a dead end."""
    play = Play(1)
    play.edit(0, tile="102")
    play.do(mv.Mine(0, 0, "cave"))
    mine = play.data.mining
    play.do(mv.FinishMining(0))
    play.to_night_step(2)
    play.set(mining=mine, fishing=(0, 0))
    assert play.check(Advance()).ok
    play.to_night_step(1)  # walks on through the night into the next day, then to night 1
    assert play.data.mining is None and play.data.fishing is None
