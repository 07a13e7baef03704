"""What every game reader is made of: the :class:`Prompt` it may say and the :class:`Reader`
protocol the table loop feeds. The game modules (``vision.readers.<game>``) build on this one;
``vision.readers`` gathers them in its registry and re-exports both names."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from engine.core import Move, State, Text
from vision.detection import Detection
from vision.stabiliser import Observation

Pose = tuple[float, float, float]
"""A tag's centre x, y in table mm and its turn in degrees (clockwise as the camera sees)."""
ToTable = Callable[[npt.NDArray[np.float64]], npt.NDArray[np.float64]]
"""Pixels (N×2) to table millimetres: a calibration's ``to_table`` (through the lens)."""

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

    def see_unread(self, outlines_mm: Sequence[npt.NDArray[np.float64]]) -> None:
        """The outlines (each 4×2, table mm) of stickers in view that the camera does not read,
        told before every :meth:`observe`: a piece is there, unread, and may be what a
        neighbour touches. By default ignored (only Greenwood's reader judges by them)."""
        return None


def tag_poses(detections: Sequence[Detection], to_table: ToTable) -> list[tuple[int, Pose]]:
    """Each tag's centre (table mm) and turn (clockwise degrees, as the stabiliser reports),
    its four corners taken to the table by ``to_table`` one by one (so a calibration's lens
    straightens them before any centre is taken)."""
    out = []
    for d in detections:
        c = to_table(np.asarray(d.corners, float))
        centre = c.mean(axis=0)
        up = (c[0] + c[1]) / 2 - centre
        angle = math.degrees(math.atan2(up[0], -up[1])) % 360
        out.append((d.id, (float(centre[0]), float(centre[1]), angle)))
    return out
