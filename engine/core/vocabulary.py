"""The moves and events that every game shares (the core vocabulary)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.core.records import Event, Move, Seat

# --- moves ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Advance(Move):
    """The confirm button: go to the next step of a table phase, or end that phase."""

    type: ClassVar[str] = "advance"
    seat: Seat | None = None


@dataclass(frozen=True)
class EndTurn(Move):
    """A seat ends its turn without another action (the turn passes on)."""

    type: ClassVar[str] = "end_turn"
    seat: Seat


@dataclass(frozen=True)
class Pass(Move):
    """A seat is done with this phase (in Greenwood: ends its night)."""

    type: ClassVar[str] = "pass"
    seat: Seat


# --- events --------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameStarted(Event):
    """A new game was set up."""

    type: ClassVar[str] = "game_started"
    game: str
    players: int
    start_seat: Seat


@dataclass(frozen=True)
class RoundStarted(Event):
    """A round began; ``start_seat`` holds the start-player marker."""

    type: ClassVar[str] = "round_started"
    round: int
    start_seat: Seat


@dataclass(frozen=True)
class PhaseStarted(Event):
    """A phase began."""

    type: ClassVar[str] = "phase_started"
    round: int
    phase: str


@dataclass(frozen=True)
class StepStarted(Event):
    """A numbered step of the current phase began (``index`` counts from 1)."""

    type: ClassVar[str] = "step_started"
    phase: str
    step: str
    index: int


@dataclass(frozen=True)
class TurnStarted(Event):
    """It is now this seat's turn."""

    type: ClassVar[str] = "turn_started"
    seat: Seat


@dataclass(frozen=True)
class SeatPassed(Event):
    """A seat finished with the current phase."""

    type: ClassVar[str] = "seat_passed"
    seat: Seat
    phase: str


@dataclass(frozen=True)
class PhaseEnded(Event):
    """A phase ended."""

    type: ClassVar[str] = "phase_ended"
    round: int
    phase: str


@dataclass(frozen=True)
class GameEnded(Event):
    """The game is over."""

    type: ClassVar[str] = "game_ended"
    result: str
    winners: tuple[Seat, ...]
    reason: str


@dataclass(frozen=True)
class DicePoolAnnounced(Event):
    """Which dice to roll now: one name per die (e.g. ``"monster"``, ``"d6"``), for the trays.

    ``seat`` is who rolls (None: the table); an empty ``dice`` clears the trays.
    """

    type: ClassVar[str] = "dice_pool_announced"
    seat: Seat | None
    dice: tuple[str, ...]
    reason: str = ""


@dataclass(frozen=True)
class MoveRejected(Event):
    """A move was refused: it changed nothing. Carries the verdict for the screen and buzzer."""

    type: ClassVar[str] = "move_rejected"
    move: str
    seat: Seat | None
    code: str
    message_zh: str
    message_en: str
    rule: str | None


@dataclass(frozen=True)
class MoveUndone(Event):
    """The last accepted move was taken back; ``moves`` is how many remain."""

    type: ClassVar[str] = "move_undone"
    move: str
    moves: int


@dataclass(frozen=True)
class MoveRedone(Event):
    """An undone move was applied again."""

    type: ClassVar[str] = "move_redone"
    move: str
    moves: int


@dataclass(frozen=True)
class BoxItemEntered(Event):
    """The table entered a printed component the box did not hold (a card drawn, read aloud
    and entered at the console in the rules' vocabulary): ``item`` is its item id in the box
    (``weather/card/w17``, ``engine.core.box``) and ``value`` its entry as the data file
    writes it, as JSON text. The kiosk keeps it in the owner's box for next time; the game
    already uses it."""

    type: ClassVar[str] = "box_item_entered"
    game: str
    item: str
    value: str
