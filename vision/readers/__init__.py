"""Per-game readers: from steady table observations to engine moves, one module per game.

Each ``vision.readers.<game>`` module provides ``scan(image_path, lang) -> dict`` and
``describe(result, lang) -> str`` for ``tablesight scan``, and, for the table loop,
``table_reader(registry, calibration, detections) -> Reader``: an object whose
``observe(observations, state)`` returns, in order, the moves to submit and the
:class:`Prompt` s to show the players; a reader of a map the players lay (Don't Starve) also has
``layout_seen(state)``: what is wrong with the layout in view, as (reason code, place) pairs,
which the table screen draws on the expected layout. :func:`table_reader` finds a game's factory
by name.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.core import Move, State, Text
from vision.calibration import TableCalibration
from vision.detection import Detection
from vision.registry import Registry
from vision.stabiliser import Observation


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
    """What the table loop feeds: one batch of stabiliser observations and the engine state."""

    def observe(
        self, observations: Iterable[Observation], state: State[Any]
    ) -> list[Move | Prompt]:
        """The moves to submit and the prompts to show, in order."""
        ...


def table_reader(
    game: str,
    registry: Registry,
    calibration: TableCalibration,
    detections: Sequence[Detection] = (),
) -> Reader:
    """The table loop's reader of ``game`` (``vision.readers.<game>.table_reader``).

    ``detections`` are those of a first frame, for readers that locate a board once.
    """
    module = importlib.import_module(f"vision.readers.{game}")
    factory = module.table_reader
    return factory(registry, calibration, detections)  # type: ignore[no-any-return]
