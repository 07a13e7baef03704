"""Pixels per millimetre at the table and the smallest sticker that reads reliably (issue #16):
from a calibration of rendered photos, checked against the renderer's own camera."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from kiosk.cli import main
from vision.calibration import (
    RELIABLE_TAG_PX,
    anchors_area,
    calibrate_table,
    table_resolution,
)
from vision.detection import Detector
from vision.registry import load_registry
from vision.synthetic import Camera, Component, SyntheticTable, render

ANCHORS = load_registry().anchors()


def table_photo(camera: Camera) -> np.ndarray:
    parts = [Component(a.tag_id, a.x_mm, a.y_mm, 0, a.size_mm) for a in ANCHORS.values()]
    return render(SyntheticTable(tuple(parts)), camera).image


def shortest_millimetre_px(camera: Camera, x: float, y: float) -> float:
    """The shortest image, in pixels, of a 1 mm step from (x, y) in any direction (the
    renderer's own projection, not the calibration)."""
    angles = np.radians(np.arange(0, 180, 1.0))
    steps = np.column_stack([np.cos(angles), np.sin(angles)]) * 0.5
    centre = np.array([x, y])
    ends = camera.project(np.vstack([centre + steps, centre - steps]))
    half = len(angles)
    return float(np.linalg.norm(ends[:half] - ends[half:], axis=1).min())


@pytest.mark.parametrize(
    "camera",
    [
        Camera.overhead(1280, 720, height_mm=900, over_mm=(450, 300)),
        Camera.overhead(1920, 1080, tilt_deg=5, yaw_deg=4, height_mm=900, over_mm=(450, 200)),
    ],
)
def test_pixels_per_millimetre_match_the_camera(camera: Camera) -> None:
    image = table_photo(camera)
    size = (image.shape[1], image.shape[0])
    calibration = calibrate_table(Detector().detect(image), ANCHORS, size)
    area = anchors_area(ANCHORS)
    seen = table_resolution(calibration, area)
    x0, y0, x1, y1 = area
    middle = shortest_millimetre_px(camera, (x0 + x1) / 2, (y0 + y1) / 2)
    grid = [
        shortest_millimetre_px(camera, x, y)
        for x in np.linspace(x0, x1, 9)
        for y in np.linspace(y0, y1, 9)
    ]
    assert seen.px_per_mm_middle == pytest.approx(middle, rel=0.01)
    assert seen.px_per_mm_worst == pytest.approx(min(grid), rel=0.01)
    assert seen.px_per_mm_worst <= seen.px_per_mm_middle
    assert seen.smallest_tag_mm == math.ceil(RELIABLE_TAG_PX / min(grid) - 0.01)


def test_a_tilted_camera_sees_the_far_side_coarser() -> None:
    straight = Camera.overhead(1280, 720, height_mm=900, over_mm=(450, 300))
    tilted = Camera.overhead(1280, 720, tilt_deg=10, height_mm=1000, over_mm=(450, 200))
    results = []
    for camera in (straight, tilted):
        image = table_photo(camera)
        found = Detector().detect(image)
        calibration = calibrate_table(found, ANCHORS, (image.shape[1], image.shape[0]))
        results.append(table_resolution(calibration, anchors_area(ANCHORS)))
    spread = [r.px_per_mm_middle / r.px_per_mm_worst for r in results]
    assert spread[1] > spread[0] + 0.05  # the far side of a tilted view is the worst place


def write(camera: Camera, path: Path) -> Path:
    cv2.imwrite(str(path), table_photo(camera))
    return path


def test_calibrate_reports_the_resolution_and_warns_of_small_stickers(
    tmp_path: Path, capsys
) -> None:
    camera = Camera.overhead(1280, 720, height_mm=900, over_mm=(450, 300))
    photo = write(camera, tmp_path / "table.png")
    status = main(["--data-dir", str(tmp_path), "calibrate", str(photo)])
    out = capsys.readouterr().out
    assert status == 0
    x0, y0, x1, y1 = anchors_area(ANCHORS)
    middle = shortest_millimetre_px(camera, (x0 + x1) / 2, (y0 + y1) / 2)
    said = next(line for line in out.splitlines() if line.startswith("at the table: "))
    assert said.endswith(" at its worst place")
    assert float(said.split()[3]) == pytest.approx(middle, abs=0.015)
    smallest = math.ceil(RELIABLE_TAG_PX / middle)  # about 1.08 px/mm: 23-24 mm
    assert "read reliably here" in out
    lines = out.splitlines()
    said = next(line for line in lines if "read reliably here" in line)
    assert abs(int(said.split()[2]) - smallest) <= 1
    warning = next(line for line in lines if line.startswith("warning:"))
    # greenwood.toml: wisps are 12 mm, the rescued creatures 14 mm, the start marker 15 mm
    assert "greenwood's stickers are smaller" in warning
    assert "wisp 12 mm" in warning and "rescued creature 14 mm" in warning


def test_no_warning_when_the_camera_sees_the_smallest_sticker_well(tmp_path: Path, capsys) -> None:
    camera = Camera.overhead(2560, 1440, height_mm=900, over_mm=(450, 300))  # about 2.2 px/mm
    photo = write(camera, tmp_path / "table.png")
    status = main(["--data-dir", str(tmp_path), "--lang", "en", "calibrate", str(photo)])
    out = capsys.readouterr().out
    assert status == 0
    said = next(line for line in out.splitlines() if "read reliably here" in line)
    assert int(said.split()[2]) <= 12  # about 2.2 px per mm: greenwood's 12 mm wisps read
    assert not any(line.startswith("warning:") for line in out.splitlines())
