"""`tablesight track` with a calibration that has a lens (issue #39): the places it prints in
table millimetres are taken through the lens, as the table loop's are, so a sticker near the
frame's edge of a bent, tilted camera is printed where it lies, and its TUIO place (0-1 across
the frame) is where the camera shows it."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.calibration import calibrate_table
from vision.detection import Detector
from vision.registry import load_registry
from vision.synthetic import Camera, Component, Rendering, SyntheticTable, render

TABLESIGHT = Path(sys.executable).with_name("tablesight")
TILT = 12.0
LENS = Camera.overhead(
    1280,
    720,
    height_mm=900,
    over_mm=(450, 300 - 900 * math.tan(math.radians(TILT))),
    tilt_deg=TILT,
    k1=-0.25,
)
"""A cheap wide lens (OpenCV's k1 = -0.25) 12° off vertical."""
ANCHORS = load_registry().anchors()
STICKERS = tuple(
    Component(150 + i, x, y, 15 * i, 30)
    for i, (x, y) in enumerate(
        [(120, 90), (450, 80), (780, 100), (100, 300), (800, 310), (130, 520), (460, 530),
         (790, 510), (300, 220), (610, 400)]
    )
)  # fmt: skip
"""Ten stickers of 30 mm over the play area, most near its edges where the lens bends most."""
FRAMES = 4


@pytest.fixture(scope="module")
def filmed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Rendering]:
    """A folder of frames of the still table (sensor noise each) and the rendering's truth."""
    folder = tmp_path_factory.mktemp("track_lens") / "frames"
    folder.mkdir()
    anchors = tuple(Component(a.tag_id, a.x_mm, a.y_mm, 0, a.size_mm) for a in ANCHORS.values())
    shot = render(SyntheticTable(anchors + STICKERS), LENS)
    rng = np.random.default_rng(39)
    for i in range(FRAMES):
        noisy = shot.image.astype(np.int16) + rng.normal(0, 2, shot.image.shape).round()
        cv2.imwrite(str(folder / f"{i:03d}.png"), np.clip(noisy, 0, 255).astype(np.uint8))
    return folder, shot


def tablesight(data: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    command = [str(TABLESIGHT)] if TABLESIGHT.exists() else [sys.executable, "-m", "kiosk.cli"]
    return subprocess.run(
        [*command, "--data-dir", str(data), *argv],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_track_prints_places_through_the_calibrations_lens(filmed, tmp_path: Path) -> None:
    folder, shot = filmed
    calibration = calibrate_table(Detector().detect(shot.image), ANCHORS, (1280, 720))
    assert calibration.lens.bends and calibration.lens_tags >= 6
    calibration.save(tmp_path / "calibration.json")  # where tablesight calibrate saves it
    result = tablesight(tmp_path, "track", f"folder:{folder}", "--json", "--fps", "10")
    assert result.returncode == 0, result.stderr
    assert "places in table millimetres (the saved calibration)" in result.stderr
    adds = {e["id"]: e for e in map(json.loads, result.stdout.splitlines()) if e["event"] == "add"}
    truth = shot.truth_by_id()
    assert set(adds) == set(truth)
    flat = calibration.image_to_table  # the anchors' flat plane: what track used before
    flat_off = []
    for tag, e in adds.items():
        t = truth[tag]
        assert math.hypot(e["mm"][0] - t.x_mm, e["mm"][1] - t.y_mm) < 1.0, e
        assert abs((e["angle"] - t.rotation_deg + 180) % 360 - 180) < 1.5, e
        x, y = t.center  # where the camera shows the sticker: TUIO's place is in the frame
        assert abs(e["x"] * 1280 - x) < 1.0 and abs(e["y"] * 720 - y) < 1.0, e
        seen = np.asarray(t.corners, float)
        p = np.column_stack([seen, np.ones(4)]) @ flat.T
        cx, cy = (p[:, :2] / p[:, 2:]).mean(axis=0)
        flat_off.append(math.hypot(cx - t.x_mm, cy - t.y_mm))
    assert max(flat_off) > 5.0, flat_off  # the picture is bent enough to need the lens
