"""A whole Greenwood table for scans: four submarine boards with a legal layout of pieces each,
as a still photo or as a second of video (frames with their own noise and a camera that shakes
a little), with small stickers at 1280 × 720 so that single frames miss some of them.

The cells each piece covers are written out by hand below (greenwood.zh.md §三.10: the first
piece covers the start cell (0, 0) of layout 0, each next one shares an edge with one before),
not computed by the reader's code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import table_frames

from vision.registry import load_registry
from vision.synthetic import Camera, Component, Effects, SyntheticTable

REGISTRY = load_registry()
BOARDS = {b.name: b for b in REGISTRY.boards["greenwood"]}
CELL_MM = 20.0
GRID_ORIGIN_MM = (30.0, 10.0)  # vision/tags/greenwood.toml: the grid on a board (board mm)

#: Where each board lies: its name (all show layout 0), its top-left corner on the table (mm)
#: and its turn (degrees clockwise).
BOARD_PLACES = (
    ("submarine board 1 front", (90.0, 80.0), 4.0),
    ("submarine board 2 front", (520.0, 90.0), -6.0),
    ("submarine board 3 front", (100.0, 320.0), -3.0),
    ("submarine board 4 front", (520.0, 310.0), 8.0),
)


@dataclass(frozen=True)
class Piece:
    """A piece on a board: its tag, the cell under its tag, its quarter turns, its sticker
    (mm) and the cells it covers (by hand)."""

    tag: int
    tag_cell: tuple[int, int]
    quarter: int
    tag_mm: float
    cells: tuple[tuple[int, int], ...]


def legal_pieces(first_creature: int, first_wisp: int) -> tuple[Piece, ...]:
    """One board's legal layout, in an order the rules allow: a domino on the start cell, a
    bar of three turned upright, a corner, two wisps. Creature tags from ``first_creature``
    (a domino's id, then bar3's is +10, corner3's +18: pieces.toml order), wisps from
    ``first_wisp``."""
    return (
        Piece(first_creature, (0, 0), 0, 14, ((0, 0), (1, 0))),
        Piece(first_creature + 10, (2, 1), 1, 14, ((2, 0), (2, 1), (2, 2))),
        Piece(first_creature + 18, (0, 1), 0, 14, ((0, 1), (0, 2), (1, 1))),
        Piece(first_wisp, (3, 2), 0, 12, ((3, 2),)),
        Piece(first_wisp + 1, (3, 3), 0, 12, ((3, 3),)),
    )


def board_pieces() -> dict[str, tuple[Piece, ...]]:
    """Each board's pieces (distinct tags across the table)."""
    return {name: legal_pieces(148 + i, 198 + 2 * i) for i, (name, _, _) in enumerate(BOARD_PLACES)}


def on_table(corner: tuple[float, float], turn: float, bx: float, by: float) -> tuple[float, float]:
    """A point of a board (board mm) on the table."""
    a = math.radians(turn)
    return (
        corner[0] + bx * math.cos(a) - by * math.sin(a),
        corner[1] + bx * math.sin(a) + by * math.cos(a),
    )


def table(
    pieces: dict[str, tuple[Piece, ...]] | None = None, leave_out: tuple[int, ...] = ()
) -> SyntheticTable:
    """The four boards (their tags, 20 mm) and their pieces, but those whose tags are in
    ``leave_out``."""
    pieces = board_pieces() if pieces is None else pieces
    comps = []
    for name, corner, turn in BOARD_PLACES:
        for t in BOARDS[name].tags:
            comps.append(Component(t.tag_id, *on_table(corner, turn, t.x_mm, t.y_mm), turn, 20))
        for p in pieces[name]:
            if p.tag in leave_out:
                continue
            bx = GRID_ORIGIN_MM[0] + (p.tag_cell[0] + 0.5) * CELL_MM
            by = GRID_ORIGIN_MM[1] + (p.tag_cell[1] + 0.5) * CELL_MM
            x, y = on_table(corner, turn, bx, by)
            comps.append(Component(p.tag, x, y, turn + 90 * p.quarter, p.tag_mm))
    return SyntheticTable(tuple(comps))


CAMERA_720 = Camera.overhead(1280, 720, height_mm=800, over_mm=(450, 300), tilt_deg=2)
"""About 1.2 px a millimetre: a wisp's 12 mm sticker is some 15 px, a creature's 17 px."""
FRAME_EFFECTS = Effects(blur=1.2, noise=3.0, uneven_light=0.3, glare=0.3, jpeg_quality=60)
"""One frame of a dim room: defocus, sensor noise, light falling off, a lamp, JPEG."""


def video_frames(
    scene: SyntheticTable, count: int = 30, *, seed: int = 0, shake_px: float = 0.7
) -> list[np.ndarray]:
    """``count`` frames of ``scene`` seen by `CAMERA_720` in `FRAME_EFFECTS`
    (`table_frames.video_frames`: the table drawn once, then each frame moved by its own shake
    of up to ``shake_px`` pixels and given its own noise and JPEG)."""
    return table_frames.video_frames(
        scene, CAMERA_720, count, seed=seed, shake_px=shake_px, fx=FRAME_EFFECTS
    )


def write_video(frames: list[np.ndarray], path: Path, fps: float = 30.0) -> Path:
    """The frames as a Motion-JPEG video at ``fps`` frames a second."""
    h, w = frames[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), fps, (w, h))
    assert writer.isOpened()
    for f in frames:
        writer.write(f)
    writer.release()
    return path
