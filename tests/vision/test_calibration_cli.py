"""`tablesight calibrate` end to end: a rendered photo in, a calibration and a picture out."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from kiosk.cli import main
from vision.calibration import TableCalibration
from vision.registry import load_registry
from vision.synthetic import Camera, Component, SyntheticTable, render

CAMERA = Camera.overhead(1280, 720, tilt_deg=5, yaw_deg=4, height_mm=900, over_mm=(450, 200))
ANCHORS = load_registry().anchors()


def photo(path: Path, without: tuple[int, ...] = ()) -> Path:
    """Render the table with its anchors (but ``without``) and two pieces to ``path``."""
    parts = [
        Component(a.tag_id, a.x_mm, a.y_mm, 0, a.size_mm)
        for a in ANCHORS.values()
        if a.tag_id not in without
    ]
    parts += [Component(150, 300, 250, 20, 20), Component(151, 600, 350, 70, 14)]
    cv2.imwrite(str(path), render(SyntheticTable(tuple(parts)), CAMERA).image)
    return path


def test_a_good_photo_is_calibrated_saved_and_drawn(tmp_path: Path, capsys) -> None:
    image = photo(tmp_path / "table.png")
    status = main(["--data-dir", str(tmp_path / "data"), "calibrate", str(image)])
    out = capsys.readouterr().out
    assert status == 0
    assert "6 tag(s) in view" in out
    assert "anchors in view: 0, 1, 2, 3 (4 of 4)" in out
    assert "calibrated: reprojection error" in out
    saved = TableCalibration.load(tmp_path / "data" / "calibration.json")
    x, y = saved.to_table(CAMERA.project(np.array([[300.0, 250.0]])))[0]
    assert abs(x - 300) < 1.5 and abs(y - 250) < 1.5
    picture = cv2.imread(str(tmp_path / "data" / "calibration.png"))
    assert picture.shape == (720, 1280, 3)


def test_a_missing_anchor_is_named_and_nothing_is_saved(tmp_path: Path, capsys) -> None:
    image = photo(tmp_path / "table.png", without=(3,))
    picture = tmp_path / "seen.jpg"
    status = main(
        ["--data-dir", str(tmp_path / "data"), "calibrate", str(image), "--picture", str(picture)]
    )
    captured = capsys.readouterr()
    assert status == 2
    assert "missing anchor 3: it belongs at x=40 mm, y=560 mm" in captured.out
    # the report (above) says what is missing, once; the error is one short line
    assert captured.out.count("missing anchor 3") == 1
    assert (
        captured.err
        == "tablesight calibrate: not calibrated: 3 of the 4 anchors in view, see above\n"
    )
    assert cv2.imread(str(picture)) is not None  # the picture shows what it did see
    assert not (tmp_path / "data" / "calibration.json").exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["calibrate", "missing.png"], "missing.png: no such file"),
        (["calibrate", "x.png", "--source", "synthetic"], "either an IMAGE or --source"),
        (["calibrate", "--source", "webcam"], "unknown source 'webcam'"),
        (["calibrate", "--source", "folder:nowhere", "--wait", "0.2"], "no frame from folder"),
    ],
)
def test_bad_input_gives_one_clear_line(tmp_path: Path, capsys, argv, message: str) -> None:
    status = main(["--data-dir", str(tmp_path), *argv])
    err = capsys.readouterr().err
    assert status == 2
    assert message in err
    assert "Traceback" not in err


def test_the_synthetic_camera_calibrates(tmp_path: Path, capsys) -> None:
    status = main(["--data-dir", str(tmp_path), "calibrate", "--source", "synthetic"])
    out = capsys.readouterr().out
    assert status == 0
    assert "synthetic: 1280×720, 44 tag(s) in view" in out
    assert "anchors in view: 0, 1, 2, 3 (4 of 4)" in out
    assert TableCalibration.load(tmp_path / "calibration.json").anchors == (0, 1, 2, 3)


def test_a_camera_frame_without_anchors_lists_all_four(tmp_path: Path, capsys) -> None:
    shots = tmp_path / "shots"
    shots.mkdir()
    parts = (Component(150, 300, 250, 20, 20), Component(151, 600, 350, 70, 14))
    cv2.imwrite(str(shots / "a.png"), render(SyntheticTable(parts), CAMERA).image)
    status = main(["--data-dir", str(tmp_path), "calibrate", "--source", f"folder:{shots}"])
    captured = capsys.readouterr()
    assert status == 2
    assert f"folder:{shots}: 1280×720, 2 tag(s) in view" in captured.out
    assert all(f"missing anchor {i}" in captured.out for i in range(4))
