"""Undo and redo: any sequence of moves, undos and redos equals replaying the surviving moves."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from toy_games import Take, Toy

from engine.core import Advance, NothingToUndoError, Pass, Session, apply_unchecked, start
from engine.core import session as session_module

GAME = Toy()

moves = st.one_of(
    st.builds(Take, seat=st.integers(0, 2), coins=st.integers(1, 3)),
    st.builds(Pass, seat=st.integers(0, 2)),
    st.just(Advance()),
)
ops = st.lists(st.one_of(moves, st.just("undo"), st.just("redo")), max_size=80)


def replay(moves_: list) -> object:
    state, _ = start(GAME, {"players": 3}, seed=5)
    for move in moves_:
        state, _ = apply_unchecked(GAME, state, move)
    return state


@settings(max_examples=150, deadline=None)
@given(ops)
def test_any_sequence_of_moves_undos_and_redos_equals_replaying_the_survivors(sequence) -> None:
    session = Session(GAME, {"players": 3}, seed=5)
    survivors: list = []
    redo: list = []
    for op in sequence:
        if op == "undo":
            if survivors:
                redo.append(survivors.pop())
                session.undo()
            else:
                with pytest.raises(NothingToUndoError):
                    session.undo()
        elif op == "redo":
            if redo:
                survivors.append(redo.pop())
                session.redo()
            else:
                with pytest.raises(NothingToUndoError):
                    session.redo()
        elif session.submit(op).accepted:
            survivors.append(op)
            redo.clear()
    assert session.moves == survivors
    assert session.state == replay(survivors)


def test_undo_across_checkpoints_restores_the_exact_state(monkeypatch) -> None:
    monkeypatch.setattr(session_module, "CHECKPOINT_EVERY", 4)
    session = Session(GAME, {"players": 3}, seed=5)
    history = [session.state]
    for _ in range(3):
        for seat in range(3):
            assert session.submit(Take(seat=seat)).accepted
            history.append(session.state)
    for expected in reversed(history[:-1]):
        session.undo()
        assert session.state == expected


def test_a_refused_move_changes_nothing_and_says_why() -> None:
    session = Session(GAME, {"players": 3})
    before = session.state
    result = session.submit(Take(seat=1))
    assert not result.accepted and session.state == before and session.moves == []
    (event,) = result.events
    assert event.type == "move_rejected" and event.code == "core.not_your_turn"
    assert event.message_zh and event.message_en


def test_a_new_move_clears_redo() -> None:
    session = Session(GAME, {"players": 3})
    session.submit(Take(seat=0))
    session.undo()
    session.submit(Take(seat=0, coins=2))
    with pytest.raises(NothingToUndoError):
        session.redo()
