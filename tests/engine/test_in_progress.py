"""An action in progress as a state of the engine (engine/core: ``Game.in_progress``,
``InProgress``; DESIGN.md "Actions in progress"), on a small game made for it: a dig opens a
hole, a dig further or filling it in continues or closes it; a coin may be taken meanwhile (a
free action its rules allow). While the hole is open nothing else is legal, ending the turn,
passing and the table's confirm included, each refused with what to finish first."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from engine.core import (
    ACCEPTED,
    END,
    Advance,
    EndTurn,
    Event,
    Game,
    InProgress,
    Move,
    Offer,
    Pass,
    Phase,
    Reason,
    Seat,
    Session,
    State,
    Text,
    TurnOrder,
    Verdict,
    legal,
    offers,
    register_game,
)


@dataclass(frozen=True)
class Dig(Move):
    """Open a hole, or dig the open one deeper: the turn stays open."""

    type: ClassVar[str] = "hole.dig"
    ends_turn: ClassVar[bool] = False
    seat: Seat


@dataclass(frozen=True)
class Fill(Move):
    """Fill the open hole in: it closes, and the turn ends."""

    type: ClassVar[str] = "hole.fill"
    seat: Seat


@dataclass(frozen=True)
class Coin(Move):
    """Pick up a coin: allowed while a hole is open (the rules let it through)."""

    type: ClassVar[str] = "hole.coin"
    ends_turn: ClassVar[bool] = False
    seat: Seat


HOLE_OPEN = Reason(
    "hole.open",
    Text("{player}号玩家的坑还开着:先挖深或者填上", "Player {player}'s hole is open: dig or fill"),
    "hole §1",
)
TOO_DEEP = Reason("hole.too_deep", Text("最多挖3层", "At most 3 deep"), "hole §2")


class Holes(Game):
    """A free-order phase of digging, a table phase with one step, then the end."""

    name: ClassVar[str] = "toy_holes"
    title: ClassVar[Text] = Text("挖坑", "holes")
    phases: ClassVar[tuple[Phase, ...]] = (
        Phase(
            "dig",
            Text("挖", "dig"),
            TurnOrder.FREE,
            moves=frozenset({Dig.type, Fill.type, Coin.type}),
        ),
        Phase("count", Text("数", "count"), next=END),
    )

    def setup(self, options: Any, rng: Any) -> tuple[Any, Any, Seat]:
        return (None, 0), rng, 0  # (whose hole is open, its depth)

    def in_progress(self, state: State[Any]) -> InProgress | None:
        seat, _ = state.data
        if seat is None:
            return None
        allowed = frozenset({Dig.type, Fill.type, Coin.type})
        return InProgress(seat, HOLE_OPEN.reject(player=seat + 1), allowed)

    def legal(self, state: State[Any], move: Move) -> Verdict:
        if isinstance(move, Dig) and state.data[1] >= 3:
            return TOO_DEEP.reject()
        return ACCEPTED

    def apply(self, state: State[Any], move: Move) -> tuple[State[Any], tuple[Event, ...]]:
        depth = state.data[1]
        if isinstance(move, Dig):
            return replace(state, data=(move.seat, depth + 1)), ()
        if isinstance(move, Fill):
            return replace(state, data=(None, 0)), ()
        return state, ()

    def offers(self, state: State[Any], seat: Seat) -> tuple[Offer, ...]:
        return (
            Offer(Dig.type, seat, Text("挖", "dig")),
            Offer(Fill.type, seat, Text("填", "fill")),
            Offer(Coin.type, seat, Text("捡", "coin")),
        )


HOLES = register_game(Holes())


def dug() -> State[Any]:
    """Two players; player 1 has opened a hole."""
    session = Session(HOLES, {"players": 2})
    assert session.submit(Dig(0)).accepted
    return session.state


def test_while_an_action_is_open_every_other_move_is_refused_with_what_to_finish() -> None:
    state = dug()
    for move in (EndTurn(0), Pass(0), Pass(1), Dig(1), Coin(1), Advance()):
        verdict = legal(HOLES, state, move)
        assert (verdict.code, verdict.rule) == ("hole.open", "hole §1"), move
        assert verdict.message.en == "Player 1's hole is open: dig or fill"
        assert verdict.message.zh == "1号玩家的坑还开着:先挖深或者填上"


def test_the_moves_that_continue_or_close_it_go_through_the_usual_checks() -> None:
    session = Session(HOLES, {"players": 2})
    session.submit(Dig(0))
    assert session.submit(Coin(0)).accepted  # a free action the rules allow meanwhile
    assert session.submit(Dig(0)).accepted and session.submit(Dig(0)).accepted
    assert session.check(Dig(0)).code == "hole.too_deep"  # the game still judges it
    assert session.submit(Fill(0)).accepted  # closes it; the turn ends
    assert session.state.flow.current is None
    assert session.check(Pass(0)).ok and session.check(Dig(1)).ok


def test_the_console_greys_end_turn_pass_and_other_seats_with_that_reason() -> None:
    """The offers are a view of legal(): no special case, the refusal carries the verdict."""
    groups = offers(HOLES, dug())
    (mine,) = [g for g in groups if g.seat == 0]
    state = {o.move: o.ok for o in mine.offers}
    assert state == {"hole.dig": True, "hole.fill": True, "hole.coin": True, "end_turn": False,
                     "pass": False}  # fmt: skip
    refused = [o.refusal for o in mine.offers if not o.ok]
    assert {v.code for v in refused if v is not None} == {"hole.open"}


def test_with_nothing_open_the_flow_is_as_before() -> None:
    session = Session(HOLES, {"players": 2})
    assert session.submit(Coin(1)).accepted and session.submit(EndTurn(1)).accepted
    assert session.submit(Pass(0)).accepted and session.submit(Pass(1)).accepted
    assert session.state.flow.phase == "count" and session.submit(Advance()).accepted
    assert session.state.outcome is not None
