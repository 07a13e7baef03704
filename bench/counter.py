"""The benchmark game that never ends (one clockwise phase with a counting move): it measures the
core itself (legality, the flow driver, the event log). Shared by the engine and resume benches."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from engine.core import Event, Game, Move, Phase, Seat, State, Text, TurnOrder, register_game


@dataclass(frozen=True)
class Tick(Move):
    """The benchmark game's only move: count one."""

    type: ClassVar[str] = "bench.tick"
    seat: Seat


class Counter(Game):
    """A game that never ends, for measuring the core."""

    name: ClassVar[str] = "bench_counter"
    title: ClassVar[Text] = Text("基准", "benchmark")
    phases: ClassVar[tuple[Phase, ...]] = (
        Phase("count", Text("计数", "count"), TurnOrder.CLOCKWISE, moves=frozenset({"bench.tick"})),
    )

    def setup(self, options: Any, rng: Any) -> tuple[Any, Any, Seat]:
        return 0, rng, 0

    def apply(self, state: State[Any], move: Move) -> tuple[State[Any], tuple[Event, ...]]:
        return replace(state, data=state.data + 1), ()


COUNTER = register_game(Counter())
OPTIONS = {"players": 4}
