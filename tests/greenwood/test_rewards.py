"""Rewards of the submarine and the tracks, and the token limits (greenwood.zh.md §三.10, §四.2,
§四.3, §四.7, §三.2), resolved by the real engine; a piece no cell can take is refused or lost,
never a dead end (§三.10, §四.8, §三.2)."""

from __future__ import annotations

from engine.core import EndTurn, Pass
from engine.greenwood.catalogue import catalogue
from engine.greenwood.moves import (
    Gain,
    Hike,
    Place,
    PlaceDuskMarker,
    PlacementAwaited,
    Rescue,
    RewardGained,
    RewardLost,
    Strengthen,
    TakeWisp,
)
from engine.greenwood.state import Placed

CAT = catalogue()


def at_dusk(gw, layout=0, **player):
    """Seat 0 in the first dusk of a fresh game, with some fields of its data set."""
    return gw.with_player(gw.Table(layout=layout).state, 0, **player)


def rewards(events) -> list[tuple[str, str]]:
    return [(e.reward, e.source) for e in events if isinstance(e, RewardGained)]


def place(gw, state, piece, cells):
    state = gw.with_player(state, 0, pending=(("test", f"place:{piece}"),))
    return gw.apply(state, Place(seat=0, piece=piece, cells=tuple(cells)))


def test_a_multi_cell_icon_pays_only_when_all_its_cells_are_covered(gw) -> None:
    """§三.10: 若一个奖励图标横跨多个格子,必须全部覆盖后才能领取 (layout 0: energy, 2 cells)."""
    state = at_dusk(gw, pieces=(Placed("x", frozenset({(0, 0), (0, 1)})),))
    state, events = place(gw, state, "domino", [(0, 2), (1, 2)])
    assert rewards(events) == []
    assert state.data.players[0].energy == 2
    state, events = place(gw, state, "wisp", [(2, 2)])
    assert rewards(events) == [("energy", "icon (1,2) (2,2)")]
    assert state.data.players[0].energy == 3


def test_an_area_counts_unusable_cells_as_covered(gw) -> None:
    """§三.10: 不可使用格子在计算区域完成时视为已经覆盖 (layout 1: column 6 has two unusable)."""
    covered = frozenset({(0, 2), (1, 2), (2, 2), (3, 2), (4, 2)})
    state = at_dusk(gw, layout=1, pieces=(Placed("x", covered),))
    state, events = place(gw, state, "bar3", [(5, 1), (5, 2), (5, 3)])
    assert ("vp:4", "area column 6") not in rewards(events)
    before = state.data.players[0].score
    state, events = place(gw, state, "wisp", [(5, 4)])
    assert ("vp:4", "area column 6") in rewards(events)
    assert state.data.players[0].score == before + 4


def test_chained_rewards_resolve_before_the_rest(gw) -> None:
    """§三.10: 若获得奖励后又触发其他奖励,必须先完成连锁触发的奖励 — the icon's wisp is placed
    (and pays its own icon) before the area's strength step, which pays its space before ending."""
    earlier = frozenset({(0, 0), (1, 0), (0, 1), (0, 2), (1, 2), (5, 0), (4, 1), (5, 1)})
    state = at_dusk(gw, pieces=(Placed("x", earlier),))
    state, events = place(gw, state, "tee4", [(2, 0), (3, 0), (4, 0), (3, 1)])
    assert rewards(events) == [("vp:2", "icon (2,0)"), ("wisp", "icon (3,1)")]
    assert events[-1] == PlacementAwaited(0, "wisp")
    me = state.data.players[0]
    assert me.awaiting == "wisp" and me.strength == 0  # the area's reward waits for the wisp
    state, events = gw.apply(state, Place(seat=0, piece="wisp", cells=((2, 2),)))
    assert rewards(events) == [
        ("energy", "icon (1,2) (2,2)"),  # the wisp's own reward first
        ("strength", "area bow"),
        ("slot", "strength track space 1"),  # chained from the strength step
    ]
    me = state.data.players[0]
    assert (me.energy, me.strength, me.slots, me.pending) == (3, 1, 3, ())


def test_a_further_energy_or_spy_gives_4_points(gw) -> None:
    """§四.7: at 4 energy (2 spies) a further gain gives 4 points instead."""
    state = at_dusk(gw, energy=3, spies=1, score=5)
    for reward in ("energy", "energy", "spy", "spy"):
        state, _ = gw.apply(state, Gain(seat=0, reward=reward))
    me = state.data.players[0]
    assert (me.energy, me.spies, me.score) == (4, 2, 5 + 4 + 4)


def test_aurora_stops_at_5(gw) -> None:
    """§三.2: 极光最多累积至5个 — a card's aurora at 5 is refused, as it would change nothing
    (issue 38: it was answered "accepted")."""
    state = at_dusk(gw, aurora=4)
    state, _ = gw.apply(state, Gain(seat=0, reward="aurora"))
    assert state.data.players[0].aurora == 5
    assert gw.legal(state, Gain(seat=0, reward="aurora")).code == "greenwood.aurora_full"


def test_the_score_never_goes_below_zero(gw) -> None:
    """§四.8: 玩家不能通过支付胜利点数使自己的分数低于0."""
    state = at_dusk(gw, score=3)
    assert gw.legal(state, Gain(seat=0, reward="vp:-4")).code == "greenwood.score_below_zero"
    state, _ = gw.apply(state, Gain(seat=0, reward="vp:-3"))
    assert state.data.players[0].score == 0
    assert gw.legal(state, Gain(seat=0, reward="teleport")).code == "greenwood.unknown_reward"
    assert gw.legal(state, Gain(seat=0, reward="energy:-1")).code == "greenwood.unknown_reward"


def test_strength_track_pays_each_space_and_its_end_reward_at_the_end(table) -> None:
    """§三.2 (抵达…即时奖励的格子时,立即获得), §四.3 (到达最后一格…获得轨道末端指定的奖励)."""
    last = len(CAT.strength.spaces) - 1
    table.ok(Gain(seat=0, reward=f"strength:{last}"))
    me = table.player(0)
    assert me.strength == last
    paid = [e.reward for e in table.events if isinstance(e, RewardGained)][1:]
    assert paid == [r for space in CAT.strength.spaces[1:] for r in space]
    table.events.clear()
    score = me.score
    table.ok(Gain(seat=0, reward="strength"))
    assert table.player(0).strength == last
    assert table.player(0).score == score + 3  # end_reward vp:3 in tracks.toml


def test_pathfinding_loops_at_its_end_and_pays_again(gw) -> None:
    """§四.2: 轨道末端设有循环奖励区域,玩家再次经过时可以重复获得这些奖励."""
    track = CAT.pathfinding
    last = len(track.spaces) - 1
    state = at_dusk(gw, pathfinding=last)
    state, events = gw.apply(state, Gain(seat=0, reward="pathfinding"))
    assert state.data.players[0].pathfinding == track.loop_from
    paid = [e.reward for e in events if isinstance(e, RewardGained)][1:]
    assert paid == list(track.spaces[track.loop_from])


def test_strengthen_at_dusk_moves_one_space(table) -> None:
    """§三.2 强化伙伴队伍: 将力量标记沿力量轨道向前移动1格."""
    from engine.greenwood.moves import PlaceDuskMarker

    table.ok(PlaceDuskMarker(seat=0, effect="aurora"))
    table.ok(Strengthen(seat=0))
    assert table.player(0).strength == 1 and table.player(0).slots == 3  # space 1: a slot


# --- a piece no cell can take is never a dead end (issue 26) ----------------------------------

ALL = frozenset((c, r) for c in range(6) for r in range(6))
"""Every cell of layout 0 (6 × 6, no unusable cell)."""


def lost(events) -> list[tuple[str, str]]:
    return [(e.piece, e.source) for e in events if isinstance(e, RewardLost)]


def test_a_wisp_a_reward_chains_into_is_lost_when_no_cell_can_take_it(gw) -> None:
    """greenwood.zh.md §三.10: 被解救生物和鬼火都必须放入自己的潜艇 … 每次放置都必须遵守以下
    限制; §三.2: 若无法满足效果的条件,该效果直接失去 — the wisp of pathfinding space 6 on a
    full submarine is lost, nothing waits, and the player's turn can end."""
    state = at_dusk(gw, pieces=(Placed("x", ALL),), pathfinding=5)
    state, events = gw.apply(state, Gain(seat=0, reward="pathfinding"))
    assert rewards(events) == [("pathfinding", "card"), ("wisp", "pathfinding track space 6")]
    assert lost(events) == [("wisp", "pathfinding track space 6")]
    assert not any(isinstance(e, PlacementAwaited) for e in events)
    me = state.data.players[0]
    assert (me.pathfinding, me.pending, me.awaiting) == (6, (), None)
    state, _ = gw.apply(state, PlaceDuskMarker(seat=0, effect="recruit"))
    assert gw.legal(state, Pass(seat=0)).ok  # no dead end: the dusk can end


def test_a_lost_wisp_lets_the_rewards_after_it_go_on(gw) -> None:
    """§三.10 chains first, §三.2 the lost wisp: the last free cell is the wisp icon's; the wisp
    that covers it brings a second wisp no cell can take, which is lost, and the bow's strength
    step after it is still paid, with the space it reaches."""
    state = at_dusk(gw, pieces=(Placed("x", ALL - {(3, 1)}),))
    state, events = place(gw, state, "wisp", [(3, 1)])
    assert lost(events) == [("wisp", "icon (3,1)")]
    assert ("strength", "area bow") in rewards(events)
    me = state.data.players[0]
    assert (me.strength, me.pending) == (1, ())


def test_the_second_piece_of_a_pair_is_lost_once_the_first_took_the_room(gw) -> None:
    """§三.9: 若解救的是成对生物,则必须放置两块对应板块; §三.2: four free cells in a row take
    both dominoes, but a first one laid in the middle leaves two lone cells: the second is
    lost instead of waiting for ever."""
    row = {(2, 5), (3, 5), (4, 5), (5, 5)}
    state = at_dusk(gw, pieces=(Placed("x", ALL - row),))
    state = gw.with_player(state, 0, pending=(("rescue: twin newts", "place:domino"),) * 2)
    state, events = gw.apply(state, Place(seat=0, piece="domino", cells=((3, 5), (4, 5))))
    assert lost(events) == [("domino", "rescue: twin newts")]
    assert state.data.players[0].pending == ()


def test_a_move_that_brings_a_piece_no_cell_can_take_is_refused(gw) -> None:
    """§三.10 with §四.8: 支付或弃置费用后必须满足对应规则要求,否则不能执行该效果 — on a full
    submarine a wisp action, a rescue and a wisp entered from a card are refused with the
    reason (nothing changes), and the console shows them greyed with it."""
    from engine.core import find_game, match, offered, offers

    t = gw.Table(1, layout=0)
    t.pass_until("night")
    t.session.state = gw.with_player(
        t.state, 0, pieces=(Placed("x", ALL),), knowledge=("red", "blue")
    )
    t.ok(Hike(seat=0, companion=0))
    for move in (TakeWisp(seat=0), Rescue(seat=0, creature="moth"), Gain(seat=0, reward="wisp")):
        assert t.refused(move) == "greenwood.no_room"
        open_now = offers(find_game("greenwood"), t.state)
        assert offered(open_now, move) is None
        assert match(open_now, move)[1].verdict.code == "greenwood.no_room"
    assert t.refused(Rescue(seat=0, creature="moth")) == "greenwood.no_room"
    t.ok(Gain(seat=0, reward="vp:1"))
    t.ok(EndTurn(seat=0))
