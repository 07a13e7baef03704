"""The phase machine: turn orders, steps, rounds, skipped phases, endings, endless flows."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

import pytest
from toy_games import Council, Dial, Step_, Take, Toy

from engine.core import (
    ACCEPTED,
    Advance,
    EndTurn,
    FlowError,
    Game,
    GameConfigError,
    IllegalMoveError,
    Move,
    Pass,
    Phase,
    Reason,
    Text,
    TurnOrder,
    apply,
    legal,
    offers,
    register_game,
    start,
)
from engine.core.offers import free_seats
from engine.core.records import Seat

T = Text("x", "x")
STRICT = Reason("toy.strict", Text("还不能结束", "Not yet"), "toy §2")


def types(events: tuple[Any, ...]) -> list[str]:
    return [e.type for e in events]


def play(game: Game, state: Any, *moves: Any) -> tuple[Any, list[Any]]:
    events: list[Any] = []
    for move in moves:
        state, evs = apply(game, state, move)
        events.extend(evs)
    return state, events


def test_clockwise_turns_pass_on_and_skip_seats_that_passed() -> None:
    game = Toy()
    state, events = start(game, {"players": 3})
    assert state.flow.phase == "play"  # setup is skipped in round 1
    assert state.flow.current == 0 and types(events)[-1] == "turn_started"
    state, _ = apply(game, state, Take(seat=0))
    assert state.flow.current == 1
    verdict = legal(game, state, Take(seat=2))
    assert verdict.code == "core.not_your_turn" and "player 2" in verdict.message.en
    assert "2号" in verdict.message.zh
    state, _ = play(game, state, Pass(seat=1), Take(seat=2))
    assert state.flow.current == 0  # seat 1 passed: 2 → 0
    state, _ = play(game, state, Take(seat=0))
    assert state.flow.current == 2
    assert legal(game, state, Take(seat=1)).code == "core.already_passed"


def test_refused_move_raises_with_the_verdict_and_game_rule() -> None:
    game = Toy()
    state, _ = start(game, {"players": 2})
    with pytest.raises(IllegalMoveError) as info:
        apply(game, state, Take(seat=0, coins=3))
    assert info.value.verdict.code == "toy.too_many"
    assert info.value.verdict.rule == "toy §1"
    assert info.value.verdict.message.en == "Take at most 2"


def test_rounds_steps_skip_and_start_seat_passing_then_final_outcome() -> None:
    game = Toy()
    state, _ = start(game, {"players": 2})
    state, events = play(game, state, Take(seat=0, coins=2), Pass(seat=1), Pass(seat=0))
    assert state.flow.phase == "tally"
    assert legal(game, state, Take(seat=0)).code == "core.wrong_phase"
    state, events = play(game, state, Advance())
    # round 2 begins with setup (no longer skipped), and the start seat moved clockwise
    assert state.flow.round == 2 and state.flow.phase == "setup" and state.flow.start_seat == 1
    assert types(events)[-3:] == ["round_started", "phase_started", "step_started"]
    state, events = play(game, state, Advance())
    assert [(e.step, e.index) for e in events if e.type == "step_started"] == [("b", 2)]
    state, events = play(game, state, Advance())
    assert state.flow.phase == "play" and state.flow.current == 1
    state, _ = play(game, state, Pass(seat=1), Pass(seat=0), Advance(), Advance(), Advance())
    assert state.flow.round == 3 and state.flow.start_seat == 0
    state, events = play(game, state, Pass(seat=0), Pass(seat=1), Advance())
    assert types(events)[-1] == "game_ended"
    assert state.outcome is not None and state.outcome.winners == (0,)
    assert legal(game, state, Advance()).code == "core.game_over"


def test_free_order_lets_players_choose_and_holds_a_started_turn() -> None:
    game = Dial()
    state, _ = start(game, {"players": 2})
    assert legal(game, state, Take(seat=1)).ok and legal(game, state, Take(seat=0)).ok
    state, _ = apply(game, state, Step_(seat=1))  # a free movement keeps the turn
    assert legal(game, state, Take(seat=0)).code == "core.turn_in_progress"
    state, _ = apply(game, state, EndTurn(seat=1))
    assert legal(game, state, Take(seat=0)).ok


@dataclass(frozen=True)
class Tip(Move):
    """A free action any seat may take outside its turn (``out_of_turn``)."""

    type: ClassVar[str] = "toy.tip"
    ends_turn: ClassVar[bool] = False
    out_of_turn: ClassVar[bool] = True
    seat: Seat


class TippingDial(Dial):
    """The dial game with a free action in its action phase."""

    name: ClassVar[str] = "toy_tipping_dial"
    phases: ClassVar[tuple[Phase, ...]] = (
        replace(Dial.phases[0], moves=Dial.phases[0].moves | {"toy.tip"}),
        *Dial.phases[1:],
    )


def test_an_out_of_turn_move_is_taken_outside_the_turns_and_offered_to_the_others() -> None:
    """A free action (``Move.out_of_turn``) is allowed while another seat's turn is open and
    after the seat has passed; it neither starts nor ends a turn; the console offers it to
    those seats, and only it."""
    game = register_game(TippingDial())
    state, _ = start(game, {"players": 3})
    state, _ = play(game, state, Tip(seat=2))
    assert state.flow.current is None  # no turn was started by it
    state, _ = play(game, state, Pass(seat=2), Step_(seat=0))
    assert legal(game, state, Take(seat=1)).code == "core.turn_in_progress"
    assert legal(game, state, Tip(seat=1)).ok and legal(game, state, Tip(seat=2)).ok
    state, _ = play(game, state, Tip(seat=1), Tip(seat=2))
    assert state.flow.current == 0 and state.flow.done == {2}
    groups = offers(game, state)
    assert [(g.seat, g.acting) for g in groups] == [(0, True)]  # the toy offers nothing itself
    assert free_seats(game, state) == [1, 2]


def test_on_all_done_reactivates_everyone_until_the_dial_runs_out() -> None:
    game = Dial()
    state, _ = start(game, {"players": 2})
    state, _ = play(game, state, Pass(seat=0), Pass(seat=1))
    assert state.flow.phase == "action" and state.data == 1 and state.flow.done == frozenset()
    state, _ = play(game, state, Pass(seat=1), Pass(seat=0))
    assert state.flow.phase == "rest"


def test_simultaneous_phase_takes_any_order_and_has_no_turns() -> None:
    game = Council()
    state, _ = start(game, {"players": 3})
    state, _ = play(game, state, Take(seat=2), Take(seat=0), Take(seat=2))
    assert legal(game, state, EndTurn(seat=1)).code == "core.no_turns"
    state, _ = play(game, state, Pass(seat=2), Pass(seat=0))
    assert legal(game, state, Take(seat=2)).code == "core.already_passed"
    state, _ = play(game, state, Pass(seat=1))
    assert state.flow.phase == "done"


def test_advance_is_refused_in_a_phase_played_by_seats() -> None:
    game = Council()
    state, _ = start(game, {"players": 2})
    verdict = legal(game, state, Advance())
    assert verdict.code == "core.no_advance"
    assert "vote" in verdict.message.en


def test_seat_outside_the_table_is_refused() -> None:
    game = Council()
    state, _ = start(game, {"players": 2})
    assert legal(game, state, Take(seat=2)).code == "core.no_such_seat"
    assert legal(game, state, Take(seat=-1)).code == "core.no_such_seat"


class NeverEnds(Game):
    name: ClassVar[str] = "toy_never_ends"
    title: ClassVar[Text] = T
    phases: ClassVar[tuple[Phase, ...]] = (
        Phase("stuck", T, TurnOrder.SIMULTANEOUS, end_if=lambda s: False),
    )


class AlwaysEnds(Game):
    name: ClassVar[str] = "toy_always_ends"
    title: ClassVar[Text] = T
    phases: ClassVar[tuple[Phase, ...]] = (
        Phase("a", T, end_if=lambda s: True),
        Phase("b", T, end_if=lambda s: True),
    )


def test_a_phase_whose_end_condition_never_fires_is_a_clear_error_not_a_hang() -> None:
    game = NeverEnds()
    state, _ = start(game, {"players": 2})
    state, _ = apply(game, state, Pass(seat=0))
    with pytest.raises(FlowError, match=r"'stuck'.*cannot go on"):
        apply(game, state, Pass(seat=1))


def test_phases_that_always_end_are_stopped_with_the_trail() -> None:
    with pytest.raises(FlowError, match=r"keep changing.*a → b"):
        start(AlwaysEnds(), {"players": 1})


def test_phase_data_is_validated_when_registered() -> None:
    class BadNext(Game):
        name: ClassVar[str] = "toy_bad_next"
        title: ClassVar[Text] = T
        phases: ClassVar[tuple[Phase, ...]] = (Phase("a", T, next="nowhere"),)

    class BadMove(Game):
        name: ClassVar[str] = "toy_bad_move"
        title: ClassVar[Text] = T
        phases: ClassVar[tuple[Phase, ...]] = (
            Phase("a", T, TurnOrder.CLOCKWISE, moves=frozenset({"no.such.move"})),
        )

    class Twice(Game):
        name: ClassVar[str] = "toy_twice"
        title: ClassVar[Text] = T
        phases: ClassVar[tuple[Phase, ...]] = (Phase("a", T), Phase("a", T))

    with pytest.raises(GameConfigError, match="unknown phase 'nowhere'"):
        register_game(BadNext())
    with pytest.raises(GameConfigError, match=r"no\.such\.move"):
        register_game(BadMove())
    with pytest.raises(GameConfigError, match="twice"):
        register_game(Twice())


def test_setup_options_are_validated_with_clear_messages() -> None:
    with pytest.raises(GameConfigError, match="1 to 4 players, not 5"):
        start(Toy(), {"players": 5})
    with pytest.raises(GameConfigError, match="players"):
        start(Toy(), {"players": "many"})
    with pytest.raises(GameConfigError, match="colour"):
        start(Toy(), {"players": 2, "colour": "red"})


def test_states_are_immutable_values() -> None:
    game = Toy()
    state, _ = start(game, {"players": 2})
    after, _ = apply(game, state, Take(seat=0))
    assert state.data == (0, 0) and after.data == (1, 0)
    assert replace(after, moves=0) != state


def test_a_game_can_refuse_a_pass_with_its_own_rule() -> None:
    class Strict(Council):
        name: ClassVar[str] = "toy_strict"

        def legal_pass(self, state: Any, move: Any) -> Any:
            return STRICT.reject() if move.seat == 0 else ACCEPTED

    game = Strict()
    state, _ = start(game, {"players": 2})
    verdict = legal(game, state, Pass(seat=0))
    assert (verdict.code, verdict.rule) == ("toy.strict", "toy §2")
    assert legal(game, state, Pass(seat=1)).ok


def test_a_game_package_that_does_not_register_is_an_error_not_a_recursion(monkeypatch) -> None:
    import sys
    import types

    from engine.core import UnknownGameError, find_game
    from engine.core import game as registry

    monkeypatch.setitem(registry.GAME_MODULES, "half_written", "half_written_game")
    monkeypatch.setitem(sys.modules, "half_written_game", types.ModuleType("half_written_game"))
    with pytest.raises(UnknownGameError, match="no game called 'half_written'"):
        find_game("half_written")
