"""The table's snapshot: one typed, immutable value per change and language.

Every screen reads it (``/api/status``, the live stream, the café publisher, the tray page);
``Snapshot.to_json()`` is the status's JSON, documented in docs/kiosk.md ("Snapshot"). What a
game draws itself (``view``, ``picture``, the console's offers) is the game's own JSON, kept
read-only here (mappings are ``MappingProxyType``, lists are tuples): ``thaw`` gives it back
as plain JSON.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

Json = Any
"""A game's own JSON, frozen (``freeze``): read-only mappings, tuples for lists."""


_SCALARS = (str, int, float, bool, type(None))


def freeze(value: Any) -> Json:
    """A read-only deep copy of plain JSON data (dicts → ``MappingProxyType``, lists → tuples)."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is dict or isinstance(value, Mapping):
        return MappingProxyType(
            {str(k): v if type(v) in _SCALARS else freeze(v) for k, v in value.items()}
        )
    if kind is list or kind is tuple or isinstance(value, list | tuple):
        return tuple(v if type(v) in _SCALARS else freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """Plain JSON data (dicts and lists) of a snapshot's part: a frozen value or a dataclass
    of the snapshot, fields in their order."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is MappingProxyType or kind is dict:
        return {k: v if type(v) in _SCALARS else thaw(v) for k, v in value.items()}
    if kind is tuple or kind is list:
        return [v if type(v) in _SCALARS else thaw(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: thaw(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class SeatView:
    """A seat as the screen draws it."""

    seat: int
    """From 0."""
    name: str
    """How the screen names it: the player's name, with the game's character."""
    chosen: str | None
    """The name the player gave at set-up, or None."""
    colour: str
    """A key of ``kiosk.seats.COLOURS``."""
    colour_name: str
    hex: str


@dataclass(frozen=True)
class PhaseOfGame:
    """One phase of the game's round (``phases``)."""

    name: str
    title: str
    steps: int


@dataclass(frozen=True)
class PhaseNow:
    """The current phase: its code name, title, rule reference and the game's guide to it."""

    name: str
    title: str
    rule: str | None
    guide: str | None
    """What the players do in this phase, in a sentence or two (``Phase.guide``), or None."""


@dataclass(frozen=True)
class StepNow:
    """The current step of a phase that has steps."""

    name: str
    title: str
    index: int
    """From 1."""
    of: int


@dataclass(frozen=True)
class OutcomeView:
    """How the game ended (``engine.core.Outcome``)."""

    result: str
    winners: tuple[int, ...]
    reason: str


@dataclass(frozen=True)
class ScoreRow:
    """A seat's final score on the end screen (the seat's fields, its score, whether it won)."""

    seat: int
    name: str
    chosen: str | None
    colour: str
    colour_name: str
    hex: str
    score: int
    winner: bool


@dataclass(frozen=True)
class Series:
    """A seat's points round by round on the end screen's chart."""

    seat: int
    name: str
    chosen: str | None
    colour: str
    colour_name: str
    hex: str
    points: tuple[int, ...]


@dataclass(frozen=True)
class Chart:
    """The scores of each round played."""

    rounds: tuple[int, ...]
    series: tuple[Series, ...]


@dataclass(frozen=True)
class End:
    """The end screen: a title naming the winners, why, the scores and the per-round chart."""

    result: str
    title: str
    why: str
    scores: tuple[ScoreRow, ...] | None
    chart: Chart | None


@dataclass(frozen=True)
class Refusal:
    """The banner of a refused move: whose, what was tried, why, the rule, and what to do."""

    who: str
    what: str
    why: str
    rule: str | None
    todo: str


@dataclass(frozen=True)
class ConfirmView:
    """The table's confirm button: whether it is open (the core ``advance`` offered open to
    the whole table now) and, when not, why, in words for players (the engine's verdict)."""

    open: bool
    why: str | None
    code: str | None
    """The reason's code (``core.no_advance``, a game's own), None when open."""


@dataclass(frozen=True)
class HintView:
    """A button's short notice: ``confirm_closed`` (confirm touched while not open: why),
    ``undo_again`` (undo would go back over a phase: press again), ``undo_end`` (undo would
    take the game out of its end: press again), ``undone`` (what an undo took back)."""

    kind: str
    text: str


@dataclass(frozen=True)
class Dice:
    """The dice pool to roll: whose (``seat`` from 0, None: the whole table), the dice, the
    log's sentence for it."""

    seat: int | None
    dice: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class LogLine:
    """One line of the log: the event's type and its sentence."""

    type: str
    text: str


@dataclass(frozen=True)
class LinkView:
    """A link's state (``ok``, ``simulated``, ``lost``, ``not_connected``) and detail."""

    state: str
    detail: str


@dataclass(frozen=True)
class Prompt:
    """What the camera asks of the players: a code, the message in this language and both."""

    code: str
    message: str
    zh: str
    en: str


@dataclass(frozen=True)
class ConsoleGroup:
    """What one seat (None: the whole table) may do now."""

    seat: int | None
    name: str
    hex: str | None
    acting: bool
    offers: tuple[Json, ...]
    """The game's offers as JSON (``Offer.to_dict``), seats named as on the screen."""


@dataclass(frozen=True)
class Console:
    """The players' console: the saved game's number of moves and the groups of offers, the
    acting seat first (``GET /api/offers``)."""

    moves: int
    groups: tuple[ConsoleGroup, ...]

    def to_json(self) -> dict[str, Any]:
        """As ``GET /api/offers`` answers."""
        return thaw(self)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class TimeRow:
    """A seat's time on its own turns so far (the timers)."""

    seat: int
    name: str
    hex: str
    seconds: int
    text: str
    """As shown: ``12:05``."""


@dataclass(frozen=True)
class TimerView:
    """The timers (``kiosk.timers``), when the game has one: who is timed and the time left
    for them, whether paused, and each seat's time so far."""

    kind: str | None
    """``turn``, ``budget``, ``phase``, or None: nobody is timed now."""
    seat: int | None
    """The seat timed (from 0); None for the whole table (a phase) or nobody."""
    who: str
    """Whose time it is, as the screen names them ("" when nobody is timed)."""
    hex: str | None
    left_s: int
    """Whole seconds left (rounded up); below 0 once the time is up."""
    limit_s: int
    left: str
    """As shown: ``1:05``, ``−0:12`` once the time is up."""
    text: str
    """The line beside it: what the time is (this turn, the game's budget, the phase), paused."""
    paused: bool
    last: bool
    """In the last 10 seconds (or up)."""
    over: bool
    totals: tuple[TimeRow, ...]


@dataclass(frozen=True)
class Snapshot:
    """Where the game is, in one language, at one change of the table (``seq``)."""

    seq: int
    game: str | None
    """The game's code name; None while the table has no game (a kiosk waiting for the
    set-up page: ``kiosk.presenter.build.no_game``)."""
    title: str
    save: str
    players: int
    seats: tuple[SeatView, ...]
    round: int
    rounds: int | None
    phases: tuple[PhaseOfGame, ...]
    phase: PhaseNow
    step: StepNow | None
    order: str
    current_player: int | None
    """The acting seat from 1, or None."""
    start_player: int
    passed_players: tuple[int, ...]
    """Seats from 1 that are done with this phase."""
    moves: int
    can_undo: bool
    confirm: ConfirmView
    """Whether the table's confirm is open now, and why not."""
    outcome: OutcomeView | None
    end: End | None
    next: str
    """The one line of what to do now."""
    refusal: Refusal | None
    hint: HintView | None
    """The confirm or undo button's short notice, or None."""
    view: Json
    """The game's own view (``Game.view``)."""
    picture: Json
    """The game's picture of the board (``Game.picture``), or None."""
    dice: Dice | None
    recent: tuple[LogLine, ...]
    """The log, newest first."""
    links: Mapping[str, LinkView]
    menu: bool
    prompts: tuple[Prompt, ...]
    notices: tuple[str, ...]
    console: Console
    timer: TimerView | None = None
    """The timers, when the game has one (chosen at set-up)."""

    def to_json(self) -> dict[str, Any]:
        """The status as JSON (plain dicts and lists, fresh at every call)."""
        return {f.name: thaw(getattr(self, f.name)) for f in FIELDS}


FIELDS = dataclasses.fields(Snapshot)
"""The snapshot's fields in order: the top-level keys of its JSON."""
