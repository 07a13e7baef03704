"""Pictures of printed Greenwood submarine boards for the copying tests: a board whose printed
values the test chooses (unlike the demo box's), with its own stickers, a piece laid on it if
asked, seen by the synthetic overhead camera (``vision.synthetic``) as a kiosk's camera would.

The stickers are rendered by ``vision.synthetic`` itself (so the detector reads them as on any
synthetic table); the print around them (cells, unusable cells, the start cell, reward icons,
areas, a piece's body) is drawn on the board in its own millimetres and laid on the table by the
same map, the stickers' quiet zones left clear.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from engine.greenwood.board import turn
from vision.registry import load_registry
from vision.synthetic import Camera, Component, SyntheticTable, render

PX_PER_MM = 8
BOARD_COLOUR = (190, 214, 226)  # BGR: a pale print
CAMERA = Camera.overhead(1280, 720, height_mm=450.0, over_mm=(300.0, 200.0))
"""A camera close enough that a 14 mm piece sticker is about 30 pixels across."""
AT_MM = (215.0, 135.0)
"""Where the board's top-left corner lies on the table."""
TURN_DEG = 6.0
"""How far the board lies turned on the table (the page straightens it)."""


@dataclass(frozen=True)
class LaidPiece:
    """A piece laid on the board: its tag, its shape as printed (cells, tag cell), the board
    cell under its tag and its quarter turns clockwise."""

    tag_id: int
    cells: tuple[tuple[int, int], ...]
    tag_cell: tuple[int, int]
    at: tuple[int, int]
    quarter: int

    def covered(self) -> list[tuple[int, int]]:
        """The board cells the piece covers (as ``vision.readers.greenwood.read_piece``)."""
        tc, tr = self.tag_cell
        out = []
        for c, r in self.cells:
            dc, dr = turn((c - tc, r - tr), self.quarter)
            out.append((self.at[0] + dc, self.at[1] + dr))
        return sorted(out)


def _board() -> Any:
    registry = load_registry()
    return next(b for b in registry.boards["greenwood"] if b.name == "submarine board 1 front")


def board_to_table() -> np.ndarray:
    """The 3×3 map from the board's mm to the table's mm."""
    a = math.radians(TURN_DEG)
    return np.array(
        [[math.cos(a), -math.sin(a), AT_MM[0]], [math.sin(a), math.cos(a), AT_MM[1]], [0, 0, 1]]
    )


def submarine_frame(layout: dict[str, Any], piece: LaidPiece | None = None) -> np.ndarray:
    """The camera's frame of submarine board 1 (front) printed with ``layout`` (the keys of
    ``submarines.toml``), with ``piece`` laid on it."""
    board = _board()
    grid = board.grid
    w_mm, h_mm = 180.0, 140.0
    s = PX_PER_MM
    art = np.zeros((round(h_mm * s), round(w_mm * s), 3), np.uint8)
    art[:] = BOARD_COLOUR
    mask = np.full(art.shape[:2], 255, np.uint8)

    def cell_box(c: int, r: int, inset: float = 0) -> tuple[tuple[int, int], tuple[int, int]]:
        x0 = (grid.origin_mm[0] + c * grid.cell_mm[0] + inset) * s
        y0 = (grid.origin_mm[1] + r * grid.cell_mm[1] + inset) * s
        x1 = (grid.origin_mm[0] + (c + 1) * grid.cell_mm[0] - inset) * s
        y1 = (grid.origin_mm[1] + (r + 1) * grid.cell_mm[1] - inset) * s
        return (round(x0), round(y0)), (round(x1), round(y1))

    for c in range(grid.cols):
        for r in range(grid.rows):
            cv2.rectangle(art, *cell_box(c, r), (90, 90, 90), 2)
    for c, r in layout["unusable"]:
        cv2.rectangle(art, *cell_box(c, r, 1), (45, 45, 45), -1)
    colours = [(0, 140, 255), (200, 60, 200), (255, 180, 0)]
    for i, area in enumerate(layout["areas"]):
        for c, r in area["cells"]:
            cv2.rectangle(art, *cell_box(c, r, 1.5 + 1.5 * i), colours[i % 3], 5)
    for icon in layout["rewards"]:
        for c, r in icon["cells"]:
            (x0, y0), (x1, y1) = cell_box(c, r)
            label = icon["reward"].replace("vp:", "")[:2].upper()
            font = cv2.FONT_HERSHEY_SIMPLEX
            cv2.putText(art, label, (x0 + 30, y1 - 50), font, 2.2, (20, 20, 160), 5)
    (x0, y0), (x1, y1) = cell_box(*layout["start"], 4)
    triangle = np.array([[x0, y0], [x1, (y0 + y1) // 2], [x0, y1]])
    cv2.polylines(art, [triangle], True, (40, 160, 40), 8)

    components = []
    to_table = board_to_table()
    places = [(t.tag_id, t.x_mm, t.y_mm, t.size_mm, t.rotation_deg) for t in board.tags]
    if piece is not None:
        for c, r in piece.covered():
            cv2.rectangle(art, *cell_box(c, r, 0.8), (70, 120, 170), -1)
        cx = grid.origin_mm[0] + (piece.at[0] + 0.5) * grid.cell_mm[0]
        cy = grid.origin_mm[1] + (piece.at[1] + 0.5) * grid.cell_mm[1]
        places.append((piece.tag_id, cx, cy, 14.0, 90.0 * piece.quarter))
    for tag_id, x, y, size, rotation in places:
        half = size * 0.75  # the tag with its quiet zone: left to the rendered sticker
        cv2.rectangle(mask, (round((x - half) * s), round((y - half) * s)),
                      (round((x + half) * s), round((y + half) * s)), 0, -1)  # fmt: skip
        tx, ty, _ = to_table @ (x, y, 1)
        components.append(
            Component(tag_id, float(tx), float(ty), rotation + TURN_DEG, size, colour=BOARD_COLOUR)
        )
    stickers = render(SyntheticTable(tuple(components)), CAMERA).image
    to_frame = CAMERA.table_homography() @ to_table @ np.diag([1 / s, 1 / s, 1])
    size = (CAMERA.width, CAMERA.height)
    printed = cv2.warpPerspective(art, to_frame, size, flags=cv2.INTER_AREA)
    where = cv2.warpPerspective(mask, to_frame, size, flags=cv2.INTER_NEAREST) > 127
    return np.where(where[..., None], printed, stickers).astype(np.uint8)


MAP_TILE_MM = 110.0
"""A Don't Starve map tile's edge, as the demo box's tiles.toml gives it."""


def map_tiles_frame(numbers: tuple[int, ...]) -> np.ndarray:
    """The camera's frame of Don't Starve map tiles ``numbers`` laid side by side, biome side
    up (their revealed face's sticker, ``vision/tags/dont_starve.toml``)."""
    tiles = tuple(
        Component(
            300 + 2 * (n - 1),
            130.0 + i * (MAP_TILE_MM + 15),
            200.0,
            tag_mm=25.0,
            body_mm=(MAP_TILE_MM, MAP_TILE_MM),
            colour=(120, 170, 120),
        )
        for i, n in enumerate(numbers)
    )
    return render(SyntheticTable(tiles), CAMERA).image


def laid_map_frame(portal: tuple[int, int], places: dict[int, tuple[int, int]]) -> np.ndarray:
    """The camera's frame of a Don't Starve map laid as a scenario card shows it: the portal
    (tile 1, face up) and face-down tiles (number → place), each place in half-tile units of
    the tile's top-left corner, seen by a camera high enough for the whole map."""
    camera = Camera.overhead(1280, 720, height_mm=650.0, over_mm=(330.0, 260.0))
    half = MAP_TILE_MM / 2

    def tile(tag_id: int, at: tuple[int, int]) -> Component:
        x, y = 110.0 + at[0] * half + half, 95.0 + at[1] * half + half
        return Component(tag_id, x, y, tag_mm=25.0, body_mm=(MAP_TILE_MM - 4, MAP_TILE_MM - 4))

    laid = [tile(300, portal)] + [tile(301 + 2 * (n - 1), at) for n, at in places.items()]
    return render(SyntheticTable(tuple(laid)), camera).image
