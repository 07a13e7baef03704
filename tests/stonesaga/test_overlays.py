"""Stonesaga overlays read wherever they lie on a tile, even over the tile's own sticker
(issue #39), through the real detector on the project's renders."""

from __future__ import annotations

import math

import numpy as np
import stonesaga_scene as sc

from engine.stonesaga.state import OverlayPlacement, TilePlacement, ValleyRecord
from vision.calibration import calibrate_table
from vision.detection import Detector
from vision.readers import stonesaga as reader
from vision.synthetic import Effects, render

TRAY_1 = (400.0, 300.0, 3.0)
TRAY_2 = (405.0, 420.0, -4.0)
ROTATIONS = {1: 0, 2: 60, 3: 0, 4: 120, 5: 0, 6: 300}


def on_tile(tray: tuple[float, float, float], slot: int, bearing: float, out_mm: float):
    """The table point ``out_mm`` from the middle of a tray's slot, at ``bearing``° clockwise
    from the tray's up (the slot grid of vision/tags/stonesaga.toml: 83 mm slots from 40 mm)."""
    b = math.radians(bearing)
    return sc.on_board(
        tray, 40 + 83 * slot + 41.5 + out_mm * math.sin(b), 50 - out_mm * math.cos(b)
    )


def valley(*overlays) -> list:
    comps = [sc.tray(1, TRAY_1), sc.tray(2, TRAY_2)]
    comps += [sc.tile(c, TRAY_1, c - 1, ROTATIONS[c]) for c in (1, 2, 3)]
    comps += [sc.tile(c, TRAY_2, c - 4, ROTATIONS[c]) for c in (4, 5, 6)]
    return comps + list(overlays)


TILES = (
    TilePlacement("101", 1, 0, 0),
    TilePlacement("102", 1, 1, 60),
    TilePlacement("103", 1, 2, 0),
    TilePlacement("104", 2, 0, 120),
    TilePlacement("105", 2, 1, 0),
    TilePlacement("106", 2, 2, 300),
)
# Overlay copy 2 (an outpost) over the top-right of tile 101's sticker: 14 mm out at 60°, in
# zone 1 of the tile (0–120° from its up). Overlay copy 5 (a ruin) near the bottom-left corner
# of tile 105, 40 mm out at 225° (zone 2), nearer the corner than any sticker.
COVERING = sc.overlay(2, on_tile(TRAY_1, 0, 60, 14))
IN_A_CORNER = sc.overlay(5, on_tile(TRAY_2, 1, 225, 40))
RECORD = ValleyRecord(
    "valley",
    TILES,
    (OverlayPlacement("outpost 2", "101", 0), OverlayPlacement("ruin 5", "105", 1)),
)
"""The valley the scene lays, written from its description (zones counted from 0)."""


def read(components, known: ValleyRecord | None = None):
    shot = render(sc.table(*components), sc.CAMERA, Effects(noise=2), seed=5)
    found = Detector().detect(shot.image)
    calibration = calibrate_table(found, sc.REGISTRY.anchors(), (1280, 720))
    ids = {d.id for d in found}
    return reader.read_valley(found, calibration, sc.REGISTRY, "valley", known), ids


def test_an_overlay_over_a_tiles_sticker_keeps_the_tile_of_the_record() -> None:
    """stonesaga.zh.md §覆盖层: 大多数覆盖层占三分之一格,必须完整对齐一个区 — an overlay
    may lie over the middle of a tile, where its sticker is; §开局设置.7 the valley rebuilt
    from the Log: the tile under it is the record's, and the rebuild matches."""
    (seen, problems), ids = read(valley(COVERING, IN_A_CORNER), known=RECORD)
    assert 448 not in ids  # the tile's sticker is really unread under the overlay
    assert (seen, problems) == (RECORD, [])
    assert reader.check_rebuild(RECORD, seen) == []


def test_without_a_record_the_covered_tile_is_named_not_lost_nor_guessed() -> None:
    """With nothing to say which tile lies under the overlay, the players are told to lift
    it; no other tile gets the overlay, and the overlay in a corner is read on its tile."""
    (seen, problems), _ = read(valley(COVERING, IN_A_CORNER))
    assert problems == [
        "overlay outpost 2 covers the sticker of the tile in tray 1 slot 1: lift it so the "
        "camera reads the tile, then put it back"
    ]
    assert seen.tiles == TILES[1:]
    assert seen.overlays == (OverlayPlacement("ruin 5", "105", 1),)


def test_overlays_anywhere_on_a_tile_are_in_the_zone_they_lie_in() -> None:
    """§覆盖层: each tile has three zones; an overlay at the tile's edge, beside the next
    tile, is on its own tile: each zone of tile 103 (turned 0°) and 104 (turned 120°)."""
    placed = []
    expected = []
    for copy, (tray, slot, tile, turn) in enumerate(
        [(TRAY_1, 2, "103", 0), (TRAY_2, 0, "104", 120)], start=1
    ):
        for zone in range(3):
            bearing = turn + 120 * zone + 60
            copy_no = 3 * (copy - 1) + zone + 1
            placed.append(sc.overlay(copy_no, on_tile(tray, slot, bearing, 30)))
            kind = ["outpost"] * 4 + ["ruin"] * 2
            expected.append(OverlayPlacement(f"{kind[copy_no - 1]} {copy_no}", tile, zone))
    (seen, problems), _ = read(valley(*placed))
    assert problems == []
    assert sorted(seen.overlays, key=lambda o: o.overlay) == sorted(
        expected, key=lambda o: o.overlay
    )
    assert np.all([t in seen.tiles for t in TILES])
