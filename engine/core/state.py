"""The game state shared by every game: where the flow is, the seeded Rng, the game's data."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from engine.core.records import Seat
from engine.core.rng import Rng

D = TypeVar("D")


@dataclass(frozen=True)
class Flow:
    """Where the game is: round, phase, step, whose turn, who is done for this phase."""

    round: int
    phase: str
    step: int = 0
    start_seat: Seat = 0
    current: Seat | None = None
    """Whose turn it is (clockwise), or who has started a turn (free order); None: nobody yet."""
    done: frozenset[Seat] = frozenset()
    """Seats that have finished with this phase (passed)."""


@dataclass(frozen=True)
class TrackMarks:
    """What a game marks on the round track's LEDs, as codes (never words): the accent of the
    moment (``"day"`` or ``"night"``, None when the game has none) and a coming round to blink
    (Don't Starve's storm; None when none)."""

    accent: str | None = None
    mark_round: int | None = None


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``result`` is win, loss, shared_win or finished; reason is a code."""

    result: str
    winners: tuple[Seat, ...] = ()
    reason: str = ""


@dataclass(frozen=True)
class State(Generic[D]):
    """A whole game at one moment. Immutable: every change makes a new State."""

    game: str
    players: int
    options: Any
    flow: Flow
    rng: Rng
    data: D
    outcome: Outcome | None = None
    moves: int = field(default=0)
    """How many moves have been applied to reach this state."""

    @property
    def seats(self) -> range:
        """Every seat at the table."""
        return range(self.players)
