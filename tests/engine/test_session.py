"""Undo and redo: any sequence of moves, undos and redos equals replaying the surviving moves."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from toy_games import Take, Toy

from engine.core import (
    Advance,
    NothingToUndoError,
    Pass,
    Result,
    Session,
    apply_unchecked,
    flow,
    start,
)
from engine.core import session as session_module
from engine.core.vocabulary import MoveRejected

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
    assert isinstance(event, MoveRejected) and event.type == "move_rejected"
    assert event.code == "core.not_your_turn"
    assert event.message_zh and event.message_en


def test_a_new_move_clears_redo() -> None:
    session = Session(GAME, {"players": 3})
    session.submit(Take(seat=0))
    session.undo()
    session.submit(Take(seat=0, coins=2))
    with pytest.raises(NothingToUndoError):
        session.redo()


def test_push_applies_without_checking_and_gives_the_events_submit_gives() -> None:
    checked = Session(GAME, {"players": 3}, seed=5)
    pushed = Session(GAME, {"players": 3}, seed=5)
    for move in (Take(seat=0), Take(seat=1, coins=2), Pass(seat=2)):
        assert pushed.check(move).ok
        assert pushed.push(move) == checked.submit(move).events
    assert pushed.state == checked.state and pushed.moves == checked.moves


def test_push_does_not_check(monkeypatch) -> None:
    session = Session(GAME, {"players": 3}, seed=5)
    monkeypatch.setattr(flow, "legal", _no_check)
    session.push(Take(seat=0))
    assert session.moves == [Take(seat=0)]
    with pytest.raises(AssertionError, match="checked"):
        session.submit(Take(seat=1))


def _no_check(*_: object) -> None:
    raise AssertionError("checked")


def test_push_clears_redo_as_submit_does() -> None:
    session = Session(GAME, {"players": 3})
    session.submit(Take(seat=0))
    session.undo()
    session.push(Take(seat=0, coins=2))
    with pytest.raises(NothingToUndoError):
        session.redo()


def test_a_refused_result_is_what_submit_gives_for_a_refused_move() -> None:
    session = Session(GAME, {"players": 3})
    move = Take(seat=1)
    assert Result.refused(move, session.check(move)) == session.submit(move)


def test_checkpoints_are_read_through_a_view_and_the_latest_at_most_k(monkeypatch) -> None:
    monkeypatch.setattr(session_module, "CHECKPOINT_EVERY", 2)
    session = Session(GAME, {"players": 3}, seed=5)
    history = [session.state]
    for seat in (0, 1, 2, 0, 1):
        session.submit(Take(seat=seat))
        history.append(session.state)
    assert sorted(session.checkpoints) == [0, 2, 4]
    assert session.checkpoints[4] == history[4]
    with pytest.raises(TypeError):
        session.checkpoints[1] = history[1]  # type: ignore[index]
    assert session.latest_checkpoint(3) == (2, history[2])
    assert session.latest_checkpoint(99) == (4, history[4])
    assert session.latest_checkpoint(-5) == (0, history[0])


def test_resume_and_kept_checkpoints_serve_undo_as_the_session_own() -> None:
    played = Session(GAME, {"players": 3}, seed=5)
    history = [played.state]
    for seat in (0, 1, 2, 0):
        played.submit(Take(seat=seat))
        history.append(played.state)
    played.undo()
    resumed = Session(GAME, {"players": 3}, seed=5)
    resumed.resume(played.moves, played.undone, played.state)
    resumed.keep_checkpoint(1, history[1])
    assert resumed.state == played.state and resumed.checkpoints[3] == played.state
    assert resumed.latest_checkpoint(2) == (1, history[1])
    resumed.redo()
    assert resumed.state == history[4]
    for expected in reversed(history[:-1]):
        resumed.undo()
        assert resumed.state == expected


def test_resume_and_keep_checkpoint_refuse_a_state_of_another_length() -> None:
    played = Session(GAME, {"players": 3}, seed=5)
    played.submit(Take(seat=0))
    after_one = played.state
    played.submit(Take(seat=1))
    session = Session(GAME, {"players": 3}, seed=5)
    with pytest.raises(ValueError):
        session.resume(played.moves, [], after_one)
    session.resume(played.moves, [], played.state)
    with pytest.raises(ValueError):
        session.keep_checkpoint(2, after_one)
    with pytest.raises(ValueError):
        session.keep_checkpoint(3, played.state)
    assert sorted(session.checkpoints) == [0, 2]


def test_resume_drops_the_checkpoints_past_it(monkeypatch) -> None:
    monkeypatch.setattr(session_module, "CHECKPOINT_EVERY", 1)
    session = Session(GAME, {"players": 3}, seed=5)
    session.submit(Take(seat=0))
    after_one = session.state
    session.submit(Take(seat=1))
    session.resume(session.moves[:1], [], after_one)
    assert sorted(session.checkpoints) == [0, 1]
