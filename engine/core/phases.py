"""Phases as declarative data (boardgame.io style), read by the one driver in ``flow``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from engine.core.records import Event
from engine.core.text import Text

Hook = Callable[[Any], tuple[Any, tuple[Event, ...]]]
"""A pure function of the state that returns the new state and the events it caused."""

Condition = Callable[[Any], bool]

END = "__end__"
"""The name to give as a phase's ``next`` when the game ends after it."""


class TurnOrder(Enum):
    """Who may act during a phase."""

    TABLE = "table"
    """Nobody in particular: the table walks the phase's steps with the confirm button."""
    CLOCKWISE = "clockwise"
    """One seat at a time, from the start seat clockwise, skipping seats that have passed."""
    FREE = "free"
    """Any seat that has not passed starts the next turn: the players choose (co-operative)."""
    SIMULTANEOUS = "simultaneous"
    """Every seat acts in any order until it passes; there are no turns."""


@dataclass(frozen=True)
class Step:
    """One numbered step of a phase, announced on the kiosk and walked with the confirm button."""

    name: str
    title: Text
    rule: str | None = None
    skip_if: Condition | None = None
    """When this holds (as the step would begin), the step is passed over unannounced (a step
    the rules do only in some rounds)."""


@dataclass(frozen=True)
class Phase:
    """One phase of a round.

    The phase ends when ``end_if`` says so; without ``end_if``, a TABLE phase ends when the table
    advances past its last step, and a phase played by seats ends when every seat has passed.
    When every seat has passed but ``end_if`` is still false, ``on_all_done`` must change the
    state (for example make everyone active again); without it the flow stops with a FlowError.
    """

    name: str
    title: Text
    order: TurnOrder = TurnOrder.TABLE
    moves: frozenset[str] = frozenset()
    """Game move types allowed in this phase (the core's Pass/EndTurn/Advance follow ``order``)."""
    steps: tuple[Step, ...] = ()
    next: str | Callable[[Any], str] | None = None
    """The phase after this one (a name, or a function of the state); None: the next listed."""
    starts_round: bool = False
    """Entering this phase (other than at the start of the game) begins a new round."""
    skip_if: Condition | None = None
    on_begin: Hook | None = None
    on_end: Hook | None = None
    end_if: Condition | None = None
    on_all_done: Hook | None = None
    rule: str | None = None
    guide: Text | None = None
    """One or two sentences players read while the phase lasts: what the table does in it
    (the table screen shows it under the line of what to do now); None: the moves say enough."""
