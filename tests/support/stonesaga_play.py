"""A small driver for Stonesaga tests: set a table up, make moves, arrange the data directly."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.core import Advance, Event, Move, Pass, Verdict, apply, find_game, legal, start
from engine.stonesaga import moves as mv
from engine.stonesaga.state import Character

GAME = find_game("stonesaga")


def create(seat: int, name: str) -> mv.CreateCharacter:
    """A character created from one roll of 6 6 5 4 1 (sum 22): keeps 6 6 5 4."""
    return mv.CreateCharacter(seat, name, "wise", ((6, 6, 5, 4, 1),), 6, 5, 4, 6)


class Play:
    """One session: ``characters`` lists the seat of each character (default one per seat)."""

    def __init__(
        self, players: int = 1, characters: list[int] | None = None, seed: int = 0, **options: Any
    ) -> None:
        self.state, self.events = start(GAME, {"players": players, **options}, seed)
        for number, seat in enumerate(characters or list(range(players))):
            self.do(create(seat, f"C{number}"))
        for seat in range(players):
            self.do(Pass(seat))

    @property
    def data(self) -> Any:
        """The saga's data now."""
        return self.state.data

    def char(self, index: int) -> Character:
        """A character now."""
        return self.data.characters[index]

    def check(self, move: Move) -> Verdict:
        """The verdict on a move, without making it."""
        return legal(GAME, self.state, move)

    def do(self, move: Move) -> tuple[Event, ...]:
        """Make a move (IllegalMoveError if refused); returns its events."""
        self.state, events = apply(GAME, self.state, move)
        return events

    def edit(self, index: int, **changes: Any) -> None:
        """Arrange a character's data for a test."""
        self.state = replace(
            self.state, data=self.data.with_character(index, replace(self.char(index), **changes))
        )

    def tile(self, tile_id: str, **changes: Any) -> None:
        """Arrange a tile's markers for a test."""
        self.state = replace(self.state, data=self.data.with_tile(tile_id, **changes))

    def set(self, **changes: Any) -> None:
        """Arrange the saga's data for a test."""
        self.state = replace(self.state, data=replace(self.data, **changes))

    def to_night_step(self, number: int) -> list[Event]:
        """Every seat passes the day (the table first walks on to the next day if it is night),
        then the table advances to night step ``number``; night cards resolve as met, moon."""
        events: list[Event] = []
        while self.state.flow.phase != "day":
            events += self._step()
        for seat in range(self.state.players):
            if seat not in self.state.flow.done:
                events += self.do(Pass(seat))
        while self.state.flow.phase != f"night_{number}":
            events += self._step()
        return events

    def _step(self) -> tuple[Event, ...]:
        if self.state.flow.phase != "night_7":
            return self.do(Advance())
        index, c = next((i, c) for i, c in enumerate(self.data.characters) if not c.night_card)
        return self.do(mv.NightCard(c.seat, index, True, "moon"))


def of(events: tuple[Event, ...] | list[Event], kind: type) -> list[Any]:
    """The events of one type."""
    return [e for e in events if isinstance(e, kind)]
