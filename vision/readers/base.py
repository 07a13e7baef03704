"""What every game reader is made of: the :class:`Prompt` it may say and the :class:`Reader`
protocol the table loop feeds. The game modules (``vision.readers.<game>``) build on this one;
``vision.readers`` gathers them in its registry and re-exports both names."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from engine.core import Move, State, Text
from vision.stabiliser import Observation

LayoutSeen = list[tuple[str, str | None]]
"""What is wrong with a layout in view: (reason code, place) pairs, empty when nothing is."""


@dataclass(frozen=True)
class Prompt:
    """Something the players must do or know before the camera can submit a move (shown on the
    kiosk in both languages), with a stable code; ``seat`` and ``tile`` say whose and where
    when the reader knows."""

    code: str
    message: Text
    seat: int | None = None
    tile: str | None = None


class Reader(Protocol):
    """What the table loop feeds: one batch of stabiliser observations and the engine state.

    Every game's table reader subclasses it, so the optional capabilities below come with their
    defaults and the loop calls them on any reader without probing for them.
    """

    def observe(
        self, observations: Iterable[Observation], state: State[Any]
    ) -> list[Move | Prompt]:
        """The moves to submit and the prompts to show, in order."""
        ...

    def layout_seen(self, state: State[Any]) -> LayoutSeen:
        """What is wrong with the layout the players lay, as the table screen marks it on the
        expected layout. By default empty: a game whose map the players do not lay (only Don't
        Starve's reader reads one)."""
        return []
