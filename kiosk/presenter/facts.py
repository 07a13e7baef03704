"""The table's facts, as the presenter and the LEDs read them: one immutable copy taken under
the table's lock (``Table.facts()``), so that everything built from it is of one moment.

The engine's ``State`` is immutable already; the rest (links, prompts, the log's events, the
dice pool, the rounds' scores, notices) is copied into tuples and read-only mappings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from engine.core import Game, Move, State, Text, Verdict
from kiosk.seats import PlayerSeat

LINK_STATES = ("ok", "simulated", "lost", "not_connected")
"""What a link (camera, LED controller) can be: working, simulated, lost, never connected."""


@dataclass(frozen=True)
class Link:
    """The state of one link the table depends on (one of ``LINK_STATES``), with a short
    detail for the screen."""

    state: str = "not_connected"
    detail: str = ""

    def to_json(self) -> dict[str, str]:
        """As the status shows it: ``{"state", "detail"}``."""
        return {"state": self.state, "detail": self.detail}


Event = Mapping[str, Any]
"""One event of the log as plain, read-only data (``Event.to_dict()``; a narration line is
``{"type": "narration", "text": Text}``; a refusal ``{"type": "move_rejected", "move",
"seat", "why": Text}``; an undo by the table's buttons ``{"type": "move_undone", "move",
"seat", "taken": Taken}``)."""

HINT_KINDS = ("confirm_closed", "undo_again", "undo_end", "undone")
"""What a button's short notice is about: confirm pressed while it is not open; undo pressed
once where it would go back over a phase (a second press does it); what an undo took back."""


@dataclass(frozen=True)
class Taken:
    """A move the table's undo took back, as the console offered it: the offer's label and the
    labels of the choices it was made with (the engine's own texts, in both languages)."""

    seat: int | None
    label: Text | None
    """None: no offer spells the move (the presenter says "that move")."""
    choices: tuple[Text, ...] = ()


@dataclass(frozen=True)
class Hint:
    """A short notice after a touch of the table's confirm or undo (one of ``HINT_KINDS``),
    shown until the next move, undo or new game, or until it times out."""

    kind: str
    taken: Taken | None = None
    """``undone``: the move taken back."""
    back_to: tuple[int, str] | None = None
    """``undo_again``: the round and the phase (its code name) the undo would go back to."""


def frozen_event(data: Mapping[str, Any]) -> Event:
    """A read-only copy of an event's data."""
    return MappingProxyType(dict(data))


@dataclass(frozen=True)
class TableFacts:
    """What the table knows at one change (``seq``): the game and its state, and the facts of
    the table around it. Nothing here is worded for the screen but what the table was given in
    both languages (prompts, notices, narration)."""

    seq: int
    game: Game
    state: State[Any]
    save: str
    moves: int
    """How many moves the saved game holds (``can_undo`` when any)."""
    seats: tuple[PlayerSeat, ...]
    links: Mapping[str, Link]
    menu_open: bool
    prompts: tuple[tuple[str, Text], ...]
    """What the camera asks of the players: (code, message)."""
    layout_seen: tuple[tuple[str, str | None], ...]
    """What the camera finds wrong with the map laid on the table (reason code, place)."""
    refused: tuple[Move, Verdict] | None
    """The last refused move, while nothing has been accepted or undone since."""
    recent: tuple[Event, ...]
    """The log's latest events, oldest first."""
    dice: Event | None
    """The dice pool announced in this phase (``DicePoolAnnounced.to_dict()``), or None."""
    rounds: tuple[tuple[int, tuple[int, ...]], ...]
    """The scores at the end of each round played (round, scores per seat)."""
    notices: tuple[Text, ...]
    hint: Hint | None = None
    """The confirm or undo button's short notice now, or None."""


NO_GAME = Text(
    "还没有开局:请到开局页面选游戏和玩家,再开始",
    "No game yet: set one up on the set-up page (the game, the players), then start it",
)
"""What the screens and the answers say while the table waits for a game."""


class NoGameError(LookupError):
    """The table has no game yet (a kiosk started without one waits for the set-up page)."""

    code = "kiosk.no_game"

    def __init__(self, text: Text = NO_GAME) -> None:
        super().__init__(text.en)
        self.text = text


@dataclass(frozen=True)
class NoGameFacts:
    """The table's facts while it has no game (``Table.moment()``): what the screens show
    around the game that is not there yet."""

    seq: int
    links: Mapping[str, Link]
    menu_open: bool
    notices: tuple[Text, ...]


@dataclass(frozen=True)
class TimerFacts:
    """The table's timers at one moment (``kiosk.timers``): who is timed now and how much of
    their time is left, whether the clocks are paused, and each seat's time so far."""

    totals: tuple[float, ...]
    """Seconds each seat (from 0) has spent on its own turns this game."""
    paused: bool = False
    kind: str | None = None
    """``turn`` (seconds per turn), ``budget`` (a chess clock: each seat's time for the game),
    ``phase`` (a phase everyone plays at once), or None: nobody is timed now."""
    seat: int | None = None
    """The seat (from 0) timed, None for a phase timer."""
    left_s: float = 0.0
    """Seconds left; below 0 once the time is up (the table decides what then)."""
    limit_s: float = 0.0
    """The whole time of this turn, budget or phase."""
