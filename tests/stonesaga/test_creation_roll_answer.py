"""stonesaga.zh.md §创造角色.1: 掷五颗骰,反复重掷直到五骰之和 ≥ 14. A roll under 14 is noted
(the character's rolls carry it) and the referee's answer says that all five are rolled again,
not a bare "accepted" (issue 38: five 1s were answered "accepted", then a re-roll offered)."""

from __future__ import annotations

from engine.core import Session, find_game
from engine.stonesaga import moves as mv

GAME = find_game("stonesaga")


def test_a_roll_under_14_is_noted_and_the_answer_says_roll_again() -> None:
    session = Session(GAME, {"players": 2})
    low = mv.CreationRoll(0, 1, 1, 1, 1, 1)
    verdict = session.check(low)
    assert verdict.ok  # the roll happened: it is noted, as the example games note theirs
    assert verdict.code == "stonesaga.roll_again"
    assert "5" in verdict.message.en and "14" in verdict.message.en
    assert "重掷" in verdict.message.zh and "14" in verdict.message.zh
    assert verdict.rule is not None and "创造角色.1" in verdict.rule
    result = session.submit(low)
    assert result.verdict.code == "stonesaga.roll_again"
    assert session.state.data.rolls(0) == ((1, 1, 1, 1, 1),)
    again = mv.CreationRoll(0, 6, 5, 4, 3, 1)  # 19: the roll that counts
    assert session.check(again).code == "ok"
