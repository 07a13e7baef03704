"""Any well-formed Stonesaga move, however wrong, gets a verdict; a refused one changes nothing."""

from __future__ import annotations

import dataclasses
import typing

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from stonesaga_play import Play, create

from engine.core import IllegalMoveError, Pass, Session, apply, legal
from engine.core.records import move_types
from engine.stonesaga import STONESAGA

MOVES = sorted((n, c) for n, c in move_types().items() if n.startswith("stonesaga."))
NAMES = st.sampled_from(
    ["cave", "river", "forest", "moon", "sun", "clay", "sun_stone", "water", "wood", "fish",
     "faith", "dexterity", "heat", "cut", "102", "103", "106", "won", "", "x"]
)  # fmt: skip
SMALL = st.one_of(st.just(0), st.just(1), st.integers(-1, 3))


def plausible(cls):
    """Moves with small numbers and names from the game's vocabulary (and a few wrong ones)."""
    hints = typing.get_type_hints(cls)
    plain = {str: NAMES, int: SMALL}
    fields = {
        f.name: plain[hints[f.name]] for f in dataclasses.fields(cls) if hints[f.name] in plain
    }
    return st.builds(cls, **fields)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from([c for _, c in MOVES]).flatmap(plausible), max_size=12))
def test_random_moves_get_verdicts_and_refusals_change_nothing(moves) -> None:
    """DESIGN.md: a bad input gets a clear message and changes nothing: after a refusal the
    session's state is the one before and its log holds the same moves; ``apply`` raises."""
    play = Play(2, [0, 1, 1])
    play.edit(0, pack=(("clay:raw", 2), ("water", 1), ("wood:raw", 1)), tile="102")
    session = Session(STONESAGA, {"players": 2})
    setup = [*(create(seat, f"C{n}") for n, seat in enumerate([0, 1, 1])), Pass(0), Pass(1)]
    session.resume(setup, [], play.state)
    for move in moves:
        before, count = session.state, len(session.moves)
        verdict = legal(STONESAGA, before, move)
        result = session.submit(move)
        assert result.verdict == verdict
        if verdict.ok:
            assert len(session.moves) == count + 1 and session.moves[-1] == move
        else:
            assert verdict.code.startswith(("stonesaga.", "core."))
            assert verdict.message.zh and verdict.message.en
            assert session.state == before and len(session.moves) == count
            with pytest.raises(IllegalMoveError):
                apply(STONESAGA, before, move)
