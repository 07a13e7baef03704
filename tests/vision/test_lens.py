"""The lens model (issue #39): the project's renders through a barrel lens and a tilted camera,
the lens fitted by the calibration from the table's own stickers, kept with it, and table
millimetres read through it."""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from kiosk.cli import main
from vision.calibration import (
    MIN_LENS_TAGS,
    Lens,
    TableCalibration,
    calibrate_table,
    fit_lens,
)
from vision.detection import Detector
from vision.errors import CalibrationError
from vision.registry import load_registry
from vision.synthetic import Camera, Component, SyntheticTable, render, scattered_table

ANCHORS = load_registry().anchors()
SIZE = (1920, 1080)


def camera(k1: float, tilt: float = 10.0, k2: float = 0.0) -> Camera:
    """A 1920×1080 camera 900 mm above the table, tilted ``tilt``° and aimed at its middle."""
    back = 900 * math.tan(math.radians(tilt))
    return Camera.overhead(
        *SIZE, height_mm=900, over_mm=(450, 300 - back), tilt_deg=tilt, k1=k1, k2=k2
    )


def table(stickers: int = 30) -> SyntheticTable:
    anchors = [
        Component(a.tag_id, a.x_mm, a.y_mm, a.rotation_deg, a.size_mm) for a in ANCHORS.values()
    ]
    scattered = scattered_table(stickers, seed=2, first_id=100, tag_mm=(14, 25)).components
    return SyntheticTable((*anchors, *scattered))


@cache
def shot(cam: Camera, stickers: int = 30):
    """The table with ``stickers`` stickers besides the anchors through ``cam``, and what the
    detector reads in it (rendered once per module for each camera)."""
    rendering = render(table(stickers), cam)
    return rendering, Detector().detect(rendering.image)


def grid_mm() -> np.ndarray:
    xs, ys = np.meshgrid(np.linspace(40, 860, 12), np.linspace(40, 560, 9))
    return np.column_stack([xs.ravel(), ys.ravel()])


def test_the_renderer_bends_as_its_lens_says() -> None:
    """The renders' lens: a straight line of the table is bent (barrel: its middle bulges out
    from the frame's centre), distort and undistort undo each other, and every sticker the
    detector reads is where the renderer's own projection puts it."""
    cam = camera(-0.25)
    pts = np.column_stack([np.linspace(-300, 1200, 50), np.full(50, 100.0)])
    px = cam.table_homography() @ np.column_stack([pts, np.ones(50)]).T
    px = (px[:2] / px[2]).T
    assert np.allclose(cam.undistort(cam.distort(px)), px, atol=1e-6)
    line = cam.project(np.array([[40.0, 40.0], [450.0, 40.0], [860.0, 40.0]]))
    chord_mid = (line[0] + line[2]) / 2
    assert line[1, 1] < chord_mid[1] - 5  # the top edge's middle is nearer the frame's top
    rendering, found = shot(cam)
    truth = rendering.truth_by_id()
    assert len(found) == len(truth) >= 30
    for d in found:
        assert np.abs(np.asarray(d.corners) - np.asarray(truth[d.id].corners)).max() < 0.5


@pytest.mark.parametrize(("k1", "tilt"), [(-0.25, 10.0), (-0.1, 5.0), (-0.2, 15.0)])
def test_the_lens_is_fitted_from_the_tables_stickers(k1: float, tilt: float) -> None:
    """Through the held-out range of lenses (OpenCV's k1 −0.1 to −0.25) and tilts (5–15°):
    the calibration finds the lens the renderer used (k1 over half the diagonal is k1 times
    (half diagonal ÷ focal length)²) and reads the table to a fraction of a millimetre, where
    the flat plane of the anchors alone is millimetres off."""
    cam = camera(k1, tilt)
    _, found = shot(cam)
    cal = calibrate_table(found, ANCHORS, SIZE)
    flat = calibrate_table(found, ANCHORS, SIZE, lens=False)
    expected = k1 * (math.hypot(*SIZE) / 2 / cam.fx) ** 2
    assert cal.lens.k1 == pytest.approx(expected, rel=0.1)
    assert cal.lens_tags == 30
    pts = grid_mm()
    px = cam.project(pts)
    assert np.max(np.linalg.norm(cal.to_table(px) - pts, axis=1)) < 0.5
    assert np.max(np.linalg.norm(flat.to_table(px) - pts, axis=1)) > 4
    assert np.max(np.linalg.norm(cal.to_image(pts) - px, axis=1)) < 0.5
    assert cal.reprojection_error_px < 0.3


def test_a_straight_lens_stays_straight_and_too_few_stickers_fit_none() -> None:
    """No lens is invented: a camera without distortion gets (almost) none; with fewer than
    MIN_LENS_TAGS stickers besides the anchors none is fitted at all."""
    _, found = shot(camera(0.0, tilt=5))
    assert abs(calibrate_table(found, ANCHORS, SIZE).lens.k1) < 0.01
    _, few = shot(camera(-0.25), stickers=MIN_LENS_TAGS - 1)
    assert fit_lens(few, ANCHORS, SIZE) == (Lens(), 0)


def test_the_lens_is_kept_with_the_calibration_and_old_files_still_load(tmp_path: Path) -> None:
    _, found = shot(camera(-0.25))
    cal = calibrate_table(found, ANCHORS, SIZE)
    path = tmp_path / "calibration.json"
    cal.save(path)
    back = TableCalibration.load(path)
    assert back.lens == cal.lens and back.lens_tags == cal.lens_tags
    px = np.array([[100.0, 100.0], [1800.0, 1000.0]])
    assert np.allclose(back.to_table(px), cal.to_table(px))
    old = json.loads(path.read_text())
    old["format"] = 1
    del old["lens"], old["lens_tags"]
    path.write_text(json.dumps(old))
    assert TableCalibration.load(path).lens == Lens()


@pytest.mark.parametrize(
    ("lens", "reason"),
    [
        ({"k1": "bent", "centre_px": [959.5, 539.5], "scale_px": 1101}, "lens k1"),
        ({"k1": -0.1, "centre_px": [959.5, 539.5], "scale_px": 0}, "lens scale_px"),
        ({"k1": -0.1, "centre_px": [959.5, 539.5], "scale_px": 1101, "k3": 1}, "lens k3"),
        ({"k1": -0.9, "centre_px": [959.5, 539.5], "scale_px": 1101}, "folds the picture"),
    ],
)
def test_a_damaged_lens_is_refused_with_its_reason(tmp_path: Path, lens, reason: str) -> None:
    cal = TableCalibration(np.eye(3), SIZE, (0, 1, 2, 3), 0.1)
    path = tmp_path / "calibration.json"
    cal.save(path)
    data = json.loads(path.read_text())
    data["lens"] = lens
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match=reason):
        TableCalibration.load(path)


def test_tablesight_calibrate_says_what_the_lens_mends(tmp_path: Path, capsys) -> None:
    rendering, _ = shot(camera(-0.25))
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), rendering.image)
    assert main(["--data-dir", str(tmp_path / "data"), "calibrate", str(image)]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("lens: "))
    assert "from 30 stickers besides the anchors" in line
    shift = float(line.rsplit("up to ", 1)[1].split(" mm")[0])
    assert shift > 4
    saved = TableCalibration.load(tmp_path / "data" / "calibration.json")
    assert saved.lens.bends
