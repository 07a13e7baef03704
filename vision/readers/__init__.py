"""Per-game readers: from steady table observations to engine moves, one module per game.

Each ``vision.readers.<game>`` module provides ``scan(image_path, lang) -> dict`` and
``describe(result, lang) -> str`` for ``tablesight scan`` (and, where the players' wording
differs, ``describe_for_players`` for the camera page), and, for the table loop,
``table_reader(registry, calibration, detections) -> Reader``: an object whose
``observe(observations, state)`` returns, in order, the moves to submit and the
:class:`Prompt` s to show the players; a reader of a map the players lay (Don't Starve) also
overrides ``layout_seen(state)``: what is wrong with the layout in view, as (reason code, place)
pairs, which the table screen draws on the expected layout (:class:`Reader` declares both).

:data:`READERS` holds the three games' readers by game name; :func:`find_reader` looks one up
and :func:`table_reader` builds a game's table reader.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from engine.core.text import Language
from vision.calibration import TableCalibration
from vision.detection import Detection
from vision.errors import ReaderNotFoundError
from vision.readers import dont_starve, greenwood, stonesaga
from vision.readers.base import LayoutSeen, Prompt, Reader
from vision.registry import Registry

Result = dict[str, Any]
"""What a reader's ``scan`` makes of one image (JSON-ready; ``tablesight scan --json``)."""
Scan = Callable[..., Result]
"""``scan(image_path, lang, box=None)``: one photo read, judged by ``box`` (None: the demo's)."""
Describe = Callable[[Result, Language], str]
TableReaderFactory = Callable[[Registry, TableCalibration, Sequence[Detection]], Reader]


@dataclass(frozen=True)
class GameReader:
    """One game's reader, as the registry holds it.

    ``scan(image_path, lang)`` reads one photo; ``describe(result, lang)`` words its result for
    ``tablesight scan`` (with reason codes); ``describe_for_players`` words it for the camera
    page (names, no codes), ``describe`` when the game has no wording of its own for players;
    ``table_reader(registry, calibration, detections)`` builds the table loop's reader.
    """

    game: str
    scan: Scan
    describe: Describe
    table_reader: TableReaderFactory
    describe_for_players: Describe | None = None

    def for_players(self, result: Result, lang: Language) -> str:
        """``result`` worded for the players at the table."""
        return (self.describe_for_players or self.describe)(result, lang)


READERS: Mapping[str, GameReader] = MappingProxyType(
    {
        "dont_starve": GameReader(
            "dont_starve", dont_starve.scan, dont_starve.describe, dont_starve.table_reader
        ),
        "greenwood": GameReader(
            "greenwood",
            greenwood.scan,
            greenwood.describe,
            greenwood.table_reader,
            describe_for_players=greenwood.describe_for_players,
        ),
        "stonesaga": GameReader(
            "stonesaga", stonesaga.scan, stonesaga.describe, stonesaga.table_reader
        ),
    }
)
"""The games' readers by game name (``engine.core.find_game``'s names)."""


def find_reader(game: str) -> GameReader:
    """The reader of ``game``; :class:`ReaderNotFoundError` for a game without one."""
    try:
        return READERS[game]
    except KeyError:
        raise ReaderNotFoundError(f"the {game} reader is not available yet") from None


def table_reader(
    game: str,
    registry: Registry,
    calibration: TableCalibration,
    detections: Sequence[Detection] = (),
) -> Reader:
    """The table loop's reader of ``game`` (its :attr:`GameReader.table_reader`).

    ``detections`` are those of a first frame, for readers that locate a board once.
    """
    return find_reader(game).table_reader(registry, calibration, detections)


__all__ = [
    "READERS",
    "GameReader",
    "LayoutSeen",
    "Prompt",
    "Reader",
    "find_reader",
    "table_reader",
]
