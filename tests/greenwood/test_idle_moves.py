"""Greenwood's moves that would change nothing are refused with why (issue 38: a move answered
"accepted" changes something), as the offers walks (``tests/greenwood/test_walks.py``) check
of every accepted move."""

from __future__ import annotations

from engine.core import find_game, legal
from engine.greenwood.moves import Gain, Hike, Learn, Place, SwapKnowledge, TakeWisp

GAME = find_game("greenwood")


def test_learning_the_knowledge_one_returns_is_refused(gw) -> None:
    """greenwood.zh.md §三.8: 若没有空位,可以弃掉已有知识为新知识腾出位置 — returning the very
    knowledge one learns makes no room and changes nothing (the walks found it accepted, with a
    log line "knowledge changed")."""
    t = gw.Table()
    t.pass_until("night")
    t.session.state = gw.with_player(t.state, 0, knowledge=("red", "blue"))
    t.ok(Hike(seat=0, companion=0))
    verdict = legal(GAME, t.state, Learn(seat=0, knowledge="blue", discard="blue"))
    assert verdict.code == "greenwood.learn_same" and verdict.rule.endswith("§三.8")
    assert verdict.message.zh == "学到的和退回的是同一种知识(蓝):什么也不会改变"
    assert "returns the very knowledge it learns (blue)" in verdict.message.en
    t.ok(Learn(seat=0, knowledge="yellow", discard="blue"))
    assert t.player(0).knowledge == ("red", "yellow")


def test_a_knowledge_swap_is_for_another_kind(gw) -> None:
    """greenwood.zh.md §三.11: 将1个知识标记替换为任意另一种知识 — not the same one."""
    t = gw.Table()
    t.pass_until("night")
    t.session.state = gw.with_player(t.state, 0, knowledge=("red",))
    t.ok(Hike(seat=0, companion=0))
    t.ok(TakeWisp(seat=0))
    t.ok(Place(seat=0, piece="wisp", cells=((0, 0),)))
    verdict = legal(GAME, t.state, SwapKnowledge(seat=0, old="red", new="red"))
    assert verdict.code == "greenwood.swap_same" and verdict.rule.endswith("§三.11")
    assert verdict.message.en == "Swap it for another kind of knowledge, not the same (red)"
    t.ok(SwapKnowledge(seat=0, old="red", new="yellow"))
    assert t.player(0).knowledge == ("yellow",)


def test_aurora_gained_at_five_is_refused(gw) -> None:
    """greenwood.zh.md §三.2 (极光最多累积至5个): a card's aurora at 5 changes nothing (the
    walks found it answered "accepted", logged as a reward gained)."""
    t = gw.Table()
    t.session.state = gw.with_player(t.state, 0, aurora=5)
    verdict = legal(GAME, t.state, Gain(seat=0, reward="aurora"))
    assert verdict.code == "greenwood.aurora_full" and verdict.rule.endswith("§三.2")
    t.session.state = gw.with_player(t.state, 0, aurora=4)
    t.ok(Gain(seat=0, reward="aurora"))
    assert t.player(0).aurora == 5
