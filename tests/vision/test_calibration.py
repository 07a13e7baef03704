"""Calibration on rendered tables, read by the real detector."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from vision.calibration import (
    BoardLayout,
    Grid,
    TableCalibration,
    TagPlace,
    anchor_report,
    calibrate_table,
    draw_calibration,
    locate_board,
)
from vision.detection import Detector
from vision.errors import CalibrationError
from vision.registry import load_registry
from vision.synthetic import Camera, Component, Effects, Hand, SyntheticTable, render

ANCHORS = load_registry().anchors()
CAMERA = Camera.overhead(1280, 720, tilt_deg=5, yaw_deg=4, height_mm=900, over_mm=(450, 200))
DETECTOR = Detector()


def anchor_components(skip: tuple[int, ...] = ()) -> tuple[Component, ...]:
    """The anchors of the registry, as stuck on the synthetic table."""
    return tuple(
        Component(a.tag_id, a.x_mm, a.y_mm, a.rotation_deg, a.size_mm)
        for a in ANCHORS.values()
        if a.tag_id not in skip
    )


PIECES = (
    Component(tag_id=200, x_mm=250, y_mm=200, rotation_deg=30, tag_mm=12),
    Component(tag_id=201, x_mm=640, y_mm=420, rotation_deg=100, tag_mm=20),
    Component(tag_id=202, x_mm=450, y_mm=300, rotation_deg=0, tag_mm=25),
)


def shot_of(components, effects: Effects | None = None):
    shot = render(SyntheticTable(components), CAMERA, effects)
    return shot, DETECTOR.detect(shot.image)


def test_table_calibration_maps_pixels_to_true_millimetres() -> None:
    _, found = shot_of(anchor_components() + PIECES)
    cal = calibrate_table(found, ANCHORS, (1280, 720))
    assert cal.anchors == (0, 1, 2, 3)
    assert cal.reprojection_error_px < 1.0
    for d in found:
        if d.id in ANCHORS:
            continue
        truth = next(p for p in PIECES if p.tag_id == d.id)
        x, y = cal.to_table(np.array([d.center]))[0]
        assert math.hypot(x - truth.x_mm, y - truth.y_mm) < 1.5, d.id


def test_a_missing_anchor_is_named_with_where_it_belongs() -> None:
    hand = Hand(x_mm=860, y_mm=560, arm_to_mm=(1000, 700))
    shot, found = shot_of(anchor_components() + PIECES, Effects(hands=(hand,)))
    assert 2 in shot.hidden
    with pytest.raises(CalibrationError) as err:
        calibrate_table(found, ANCHORS, (1280, 720))
    message = str(err.value)
    assert "found 3" in message
    assert "missing anchor 2: it belongs at x=860 mm, y=560 mm" in message


def test_no_anchors_at_all_lists_every_one() -> None:
    _, found = shot_of(PIECES)
    report = anchor_report(found, ANCHORS)
    assert report.missing == (0, 1, 2, 3)
    assert report.others == (200, 201, 202)
    with pytest.raises(CalibrationError, match="found 0"):
        calibrate_table(found, ANCHORS, (1280, 720))


def test_an_anchor_stuck_twice_is_flagged_not_used() -> None:
    extra = Component(tag_id=1, x_mm=450, y_mm=200, tag_mm=30)
    _, found = shot_of((*anchor_components(), extra))
    with pytest.raises(CalibrationError, match="anchor 1 is seen more than once"):
        calibrate_table(found, ANCHORS, (1280, 720))


def test_saved_and_reloaded_unchanged(tmp_path: Path) -> None:
    _, found = shot_of(anchor_components())
    cal = calibrate_table(found, ANCHORS, (1280, 720))
    path = tmp_path / "data" / "calibration.json"
    cal.save(path)
    back = TableCalibration.load(path)
    assert np.allclose(back.table_to_image, cal.table_to_image)
    assert (back.image_size, back.anchors) == (cal.image_size, cal.anchors)
    assert back.reprojection_error_px == pytest.approx(cal.reprojection_error_px)


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (None, "no calibration yet"),
        ("{not json", "not a usable calibration"),
        (json.dumps({"format": 1, "table_to_image": [[1, 0], [0, 1]]}), "3×3"),
        (json.dumps({"format": 99}), "format 99"),
    ],
)
def test_a_missing_or_damaged_file_says_so(tmp_path: Path, content, reason: str) -> None:
    path = tmp_path / "calibration.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(CalibrationError, match=reason):
        TableCalibration.load(path)


def test_a_frame_of_another_size_is_refused() -> None:
    cal = TableCalibration(np.eye(3), (1280, 720), (0, 1, 2, 3), 0.1)
    cal.check_frame(np.zeros((720, 1280, 3), np.uint8))
    with pytest.raises(
        CalibrationError, match="calibrated at 1280×720 but this frame is 1920×1080"
    ):
        cal.check_frame(np.zeros((1080, 1920, 3), np.uint8))


BOARD = BoardLayout(
    "test board",
    (TagPlace(150, 15, 15, 20), TagPlace(151, 165, 125, 20)),
    Grid(origin_mm=(30, 10), cell_mm=(20, 20), cols=6, rows=6),
)


def board_scene(x_mm: float, y_mm: float, turn_deg: float, cell: tuple[int, int]):
    """The board's tags placed with the board's top-left at (x, y) turned by turn_deg, and a
    piece on ``cell``; returns the components and the piece's table position."""
    a = math.radians(turn_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])

    def on_table(bx: float, by: float) -> np.ndarray:
        return rot @ (bx, by) + (x_mm, y_mm)

    tags = tuple(
        Component(t.tag_id, *on_table(t.x_mm, t.y_mm), turn_deg, t.size_mm) for t in BOARD.tags
    )
    cx = 30 + (cell[0] + 0.5) * 20
    cy = 10 + (cell[1] + 0.5) * 20
    piece_at = on_table(cx, cy)
    piece = Component(260, *piece_at, turn_deg, 12)
    return (*anchor_components(), *tags, piece), piece_at


@pytest.mark.parametrize(("nudge", "turn"), [((0, 0), 0.0), ((9, -6), 7.0)])
def test_a_nudged_board_still_reads_the_right_cell(nudge, turn: float) -> None:
    components, _ = board_scene(300 + nudge[0], 180 + nudge[1], turn, cell=(4, 2))
    _, found = shot_of(components)
    cal = calibrate_table(found, ANCHORS, (1280, 720))
    pose = locate_board(BOARD, found, cal)
    assert pose.tags_used == (150, 151)
    assert pose.residual_mm < 1.0
    assert pose.angle_deg == pytest.approx(turn, abs=0.5)
    piece = next(d for d in found if d.id == 260)
    assert pose.cell_at(*cal.to_table(np.array([piece.center]))[0]) == (4, 2)


def test_a_board_with_none_of_its_tags_in_view_says_which_it_wants() -> None:
    _, found = shot_of(anchor_components())
    cal = calibrate_table(found, ANCHORS, (1280, 720))
    with pytest.raises(CalibrationError, match="none of its tags \\(150, 151\\)"):
        locate_board(BOARD, found, cal)


def test_the_result_picture_shows_the_tags_and_the_grid() -> None:
    shot, found = shot_of(anchor_components() + PIECES)
    cal = calibrate_table(found, ANCHORS, (1280, 720))
    picture = draw_calibration(shot.image, found, ANCHORS, cal)
    assert picture.shape == shot.image.shape
    changed = np.any(picture != shot.image, axis=2)
    assert changed.mean() > 0.005  # outlines, grid lines and the status text were drawn
    centre = np.round(cal.to_image(np.array([[500.0, 300.0]]))[0]).astype(int)
    assert changed[centre[1] - 2 : centre[1] + 3, centre[0] - 2 : centre[0] + 3].any()
