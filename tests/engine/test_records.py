"""Moves and events: exact JSON round trip for every registered type, clear parse errors."""

from __future__ import annotations

import json

import pytest
import toy_games  # noqa: F401  (registers the test games' move types)
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.greenwood  # noqa: F401  (registers Greenwood)
from engine.core import InvalidMoveError, event_from_dict, move_from_dict, move_from_json
from engine.core.records import event_types, move_types
from engine.core.vocabulary import Pass

ALL_MOVES = sorted(move_types().items())
ALL_EVENTS = sorted(event_types().items())


def test_the_core_vocabulary_is_registered() -> None:
    assert {"advance", "pass", "end_turn"} <= set(move_types())
    assert {"phase_started", "move_rejected", "game_ended"} <= set(event_types())


@pytest.mark.parametrize(("name", "cls"), ALL_MOVES, ids=[n for n, _ in ALL_MOVES])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_every_move_type_round_trips_exactly_through_json(name, cls, data) -> None:
    move = data.draw(st.builds(cls))
    text = move.to_json()
    assert json.loads(text)["type"] == name
    assert move_from_json(text) == move


@pytest.mark.parametrize(("name", "cls"), ALL_EVENTS, ids=[n for n, _ in ALL_EVENTS])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_every_event_type_round_trips_exactly_through_json(name, cls, data) -> None:
    event = data.draw(st.builds(cls))
    assert event_from_dict(json.loads(event.to_json())) == event


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{", "not JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"seat": 1}', "unknown move type None"),
        ('{"type": "teleport", "seat": 1}', "unknown move type 'teleport'"),
        ('{"type": "pass"}', "seat: Field required"),
        ('{"type": "pass", "seat": "1"}', "seat: Input should be a valid integer"),
        ('{"type": "pass", "seat": 1, "colour": "red"}', "no field 'colour'"),
    ],
)
def test_malformed_moves_are_refused_with_a_message_naming_the_problem(line, message) -> None:
    with pytest.raises(InvalidMoveError) as info:
        move_from_json(line)
    assert message in str(info.value)


def test_a_move_is_a_frozen_value() -> None:
    move = move_from_dict({"type": "pass", "seat": 2})
    assert move == Pass(seat=2) and hash(move) == hash(Pass(seat=2))
    with pytest.raises(AttributeError):
        move.seat = 3  # type: ignore[misc]
