"""Synthetic Stonesaga tables: anchors, the draw pad, ore tokens, trays with tiles, overlays.

Ids follow vision/tags/stonesaga.toml: every ore copy has a plain-face tag then an omen-face
tag; copy k of a stone shows the k-th omen of mining.toml (cloud, moon, comet, star, sun).
"""

from __future__ import annotations

import math

from vision.registry import load_registry
from vision.synthetic import Camera, Component, SyntheticTable

REGISTRY = load_registry()
CAMERA = Camera.overhead(1280, 720, tilt_deg=5, yaw_deg=4, height_mm=900, over_mm=(450, 200))
ORE_FIRST = {"cloud_stone": 400, "river_stone": 410, "sun_stone": 420, "clay": 430}
OMEN_COPY = {"cloud": 1, "moon": 2, "comet": 3, "star": 4, "sun": 5}
PAD_AT = (90.0, 380.0, 8.0)
"""The draw pad's corner on the table (mm) and its turn (degrees)."""


def anchors() -> tuple[Component, ...]:
    """The four calibration anchors where the registry says they are."""
    return tuple(
        Component(a.tag_id, a.x_mm, a.y_mm, a.rotation_deg, a.size_mm)
        for a in REGISTRY.anchors().values()
    )


def on_board(origin: tuple[float, float, float], x: float, y: float) -> tuple[float, float]:
    """A point in a board's own mm to table mm, the board's corner at ``origin`` (x, y, turn)."""
    ox, oy, turn = origin
    a = math.radians(turn)
    return ox + x * math.cos(a) - y * math.sin(a), oy + x * math.sin(a) + y * math.cos(a)


def pad(origin: tuple[float, float, float] = PAD_AT) -> tuple[Component, ...]:
    """The draw pad's two tags (505 at board (15, 15), 506 at (145, 105))."""
    return tuple(
        Component(tag, *on_board(origin, x, y), origin[2], 20)
        for tag, (x, y) in ((505, (15, 15)), (506, (145, 105)))
    )


def ore_tag(stone: str, omen: str | None) -> int:
    """The tag id of an ore token's face: the omen face of the copy showing ``omen``, or with
    ``omen`` None the plain face of copy 1."""
    copy = OMEN_COPY[omen] if omen else 1
    return ORE_FIRST[stone] + 2 * (copy - 1) + (1 if omen else 0)


def token(stone: str, omen: str | None, x: float, y: float, turn: float = 0) -> Component:
    """An ore token (12 mm tag) lying at (x, y) on the table."""
    return Component(ore_tag(stone, omen), x, y, turn, 12, body_mm=(22, 22), colour=(200, 210, 220))


def on_pad(slot: int, origin: tuple[float, float, float] = PAD_AT) -> tuple[float, float]:
    """The table place of the ``slot``-th token laid on the pad (0–3)."""
    return on_board(origin, 45 + 35 * slot, 60)


def tray(number: int, origin: tuple[float, float, float]) -> Component:
    """A terrain tray's tag (tray n has tag 506 + n, at its board (20, 50))."""
    return Component(506 + number, *on_board(origin, 20, 50), origin[2], 20)


def tile(copy: int, origin: tuple[float, float, float], slot: int, rotation: float) -> Component:
    """Terrain tile copy ``copy`` (tag 447 + copy) in a tray's slot, turned ``rotation``°."""
    x, y = on_board(origin, 40 + 83 * slot + 41.5, 50)
    body = (78, 78)
    return Component(
        447 + copy, x, y, origin[2] + rotation, 25, body_mm=body, colour=(160, 190, 150)
    )


def overlay(copy: int, at: tuple[float, float]) -> Component:
    """Overlay copy ``copy`` (tag 492 + copy) at a table point."""
    return Component(492 + copy, *at, 0, 15, body_mm=(24, 24), colour=(120, 120, 200))


def table(*components: Component) -> SyntheticTable:
    """A table with the anchors and these components."""
    return SyntheticTable((*anchors(), *components))
