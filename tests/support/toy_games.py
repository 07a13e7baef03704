"""Small games made for testing the phase machine; each exercises one turn order."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from engine.core import (
    END,
    Choice,
    Event,
    Field,
    Game,
    Move,
    Offer,
    Outcome,
    Phase,
    Reason,
    Seat,
    State,
    Step,
    Text,
    TurnOrder,
    Verdict,
)
from engine.core.text import ACCEPTED


@dataclass(frozen=True)
class Take(Move):
    """Take coins from the pile: uses the turn."""

    type: ClassVar[str] = "toy.take"
    seat: Seat
    coins: int = 1


@dataclass(frozen=True)
class Step_(Move):
    """A free movement that does not use up the turn (like Don't Starve's optional move)."""

    type: ClassVar[str] = "toy.step"
    ends_turn: ClassVar[bool] = False
    seat: Seat


@dataclass(frozen=True)
class Share(Move):
    """Hand out coins of several colours at once (a tally: ``[["gold", 2], ["red", 1]]``)."""

    type: ClassVar[str] = "toy.share"
    seat: Seat
    lots: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class CoinsTaken(Event):
    type: ClassVar[str] = "toy.coins_taken"
    seat: Seat
    coins: int


TOO_MANY = Reason("toy.too_many", Text("最多拿{limit}枚", "Take at most {limit}"), "toy §1")


def T(name: str) -> Text:
    return Text(name, name)


class Toy(Game):
    """Round = setup (table, 2 steps, skipped in round 1) → play (clockwise) → tally (table)."""

    name: ClassVar[str] = "toy"
    title: ClassVar[Text] = T("toy")
    phases: ClassVar[tuple[Phase, ...]] = (
        Phase(
            "setup",
            T("setup"),
            steps=(Step("a", T("a")), Step("b", T("b"))),
            starts_round=True,
            skip_if=lambda s: s.flow.round == 1,
        ),
        Phase("play", T("play"), TurnOrder.CLOCKWISE, moves=frozenset({"toy.take", "toy.share"})),
        Phase("tally", T("tally"), next=lambda s: END if s.flow.round == 3 else "setup"),
    )

    def setup(self, options: Any, rng: Any) -> tuple[Any, Any, Seat]:
        return (0,) * options.players, rng, 0

    def legal(self, state: State[Any], move: Move) -> Verdict:
        if isinstance(move, Take) and move.coins > 2:
            return TOO_MANY.reject(limit=2)
        if isinstance(move, Share) and sum(n for _, n in move.lots) > 3:
            return TOO_MANY.reject(limit=3)
        return ACCEPTED

    def apply(self, state: State[Any], move: Move) -> tuple[State[Any], tuple[Event, ...]]:
        if isinstance(move, Share):
            return state, ()
        assert isinstance(move, Take)
        coins = list(state.data)
        coins[move.seat] += move.coins
        return replace(state, data=tuple(coins)), (CoinsTaken(move.seat, move.coins),)

    def offers(self, state: State[Any], seat: Seat) -> tuple[Offer, ...]:
        coins = Field("coins", T("coins"), choices=tuple(Choice(n, T(str(n))) for n in (1, 2, 3)))
        return (Offer("toy.take", seat, T("take"), fields=(coins,)),)

    def final_outcome(self, state: State[Any]) -> Outcome:
        best = max(state.data)
        return Outcome("win", tuple(i for i, c in enumerate(state.data) if c == best), "coins")


class Dial(Game):
    """Co-operative free order with a dial, like Don't Starve's action phase."""

    name: ClassVar[str] = "toy_dial"
    title: ClassVar[Text] = T("dial")
    start_seat_passes: ClassVar[bool] = False
    phases: ClassVar[tuple[Phase, ...]] = (
        Phase(
            "action",
            T("action"),
            TurnOrder.FREE,
            moves=frozenset({"toy.take", "toy.step"}),
            end_if=lambda s: s.data == 0,
            on_all_done=lambda s: (
                replace(s, data=s.data - 1, flow=replace(s.flow, done=frozenset())),
                (),
            ),
        ),
        Phase("rest", T("rest"), next=END),
    )

    def setup(self, options: Any, rng: Any) -> tuple[Any, Any, Seat]:
        return 2, rng, 0

    def apply(self, state: State[Any], move: Move) -> tuple[State[Any], tuple[Event, ...]]:
        return state, ()


class Council(Game):
    """A simultaneous phase, then the end."""

    name: ClassVar[str] = "toy_council"
    title: ClassVar[Text] = T("council")
    phases: ClassVar[tuple[Phase, ...]] = (
        Phase("vote", T("vote"), TurnOrder.SIMULTANEOUS, moves=frozenset({"toy.take"})),
        Phase("done", T("done"), next=END),
    )

    def apply(self, state: State[Any], move: Move) -> tuple[State[Any], tuple[Event, ...]]:
        return state, ()
