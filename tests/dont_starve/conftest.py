"""Helpers for the Don't Starve tests: a game driven move by move through the real engine."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.core import Advance, Event, Move, Pass, Verdict, apply, find_game, legal, start
from engine.core.box import Box, merged
from engine.dont_starve.state import DSData

GAME = find_game("dont_starve")


def owners_box(items: dict[str, Any]) -> Box:
    """The demo box with these items (``weather/card/autumn-1`` → its entry as the data file
    writes it) the owner's: a second box, as ``tablesight box import`` makes one."""
    return Box.of(GAME.name, merged(GAME.demo_box().files, items), owner=items)


class Play:
    """One game whose state the test may also set directly (to stage a situation).

    Its cards and tiles come from the engine's seeded decks (``draws="virtual"``) unless a
    test passes ``draws="table"`` (the table's draws: tests/dont_starve/test_table_draws.py).
    """

    def __init__(self, seed: int = 0, **options: Any) -> None:
        setup = {"players": 1, "draws": "virtual", **options}
        self.state, self.events = start(GAME, setup, seed)

    @property
    def data(self) -> DSData:
        """The game's own data."""
        return self.state.data

    def set(self, **changes: Any) -> None:
        """Stage a situation: replace fields of the game data."""
        self.state = replace(self.state, data=replace(self.state.data, **changes))

    def use_box(self, items: dict[str, Any]) -> None:
        """Stage a situation: the game is played with the demo box and these items of the
        owner's over it (``owners_box``) from now on."""
        options = replace(self.state.options, box=owners_box(items))
        self.state = replace(self.state, options=options)

    def set_char(self, seat: int, **changes: Any) -> None:
        """Stage a situation: replace fields of one character."""
        self.set(
            characters=self.data.with_char(
                seat, replace(self.data.char(seat), **changes)
            ).characters
        )

    def check(self, move: Move) -> Verdict:
        """The verdict on a move, without making it."""
        return legal(GAME, self.state, move)

    def do(self, move: Move) -> tuple[Event, ...]:
        """Make a move that must be accepted; its events."""
        self.state, events = apply(GAME, self.state, move)
        return events

    def events_of(self, kind: str, events: tuple[Event, ...]) -> list[Event]:
        """The events of one type."""
        return [e for e in events if e.type == kind]

    def finish_phase(self) -> tuple[Event, ...]:
        """Everyone passes (or the table advances) until the phase changes."""
        phase, round_ = self.state.flow.phase, self.state.flow.round
        out: list[Event] = []
        while self.state.outcome is None and (self.state.flow.phase, self.state.flow.round) == (
            phase,
            round_,
        ):
            flow = self.state.flow
            if GAME.phase(flow.phase).order.value == "table":
                out += self.do(Advance())
            else:
                seat = min(set(self.state.seats) - flow.done)
                out += self.do(Pass(seat=seat))
        return tuple(out)

    def go_to(self, phase: str, round_: int | None = None) -> tuple[Event, ...]:
        """Finish phases until ``phase`` (of ``round_``) begins."""
        out: list[Event] = []
        for _ in range(200):
            flow = self.state.flow
            if flow.phase == phase and round_ in (None, flow.round):
                return tuple(out)
            if self.state.outcome is not None:
                raise AssertionError(f"the game ended before {phase}: {self.state.outcome}")
            out += self.finish_phase()
        raise AssertionError(f"never reached {phase}")


@pytest.fixture(scope="session")
def play() -> type[Play]:
    """The Play class (make one per test with its options)."""
    return Play
