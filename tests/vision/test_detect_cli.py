"""`tablesight detect`: the JSON contract of DESIGN.md, the readable output and bad files."""

from __future__ import annotations

import json
import subprocess
import sys

import cv2
import numpy as np

from kiosk.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["detect", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_json_gives_one_object_per_image_in_the_contract_shape(capsys, apriltag_photos):
    images = [
        apriltag_photos / "mapping_feb_2014" / "IMG_1368.JPG",
        apriltag_photos / "mapping_feb_2014" / "IMG_1451.JPG",
    ]
    status, out, err = run(capsys, *map(str, images), "--json")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 2
    records = [json.loads(line) for line in lines]
    assert [r["image"] for r in records] == [str(p) for p in images]
    assert [(r["width"], r["height"]) for r in records] == [(816, 612), (816, 612)]
    # The ground truth of these two photographs (groundtruth.txt).
    assert sorted(d["id"] for d in records[0]["detections"]) == [13, 19]
    second = {d["id"] for d in records[1]["detections"]}
    assert {4, 5, 6, 7, 8, 10, 12, 14} <= second <= {4, 5, 6, 7, 8, 9, 10, 12, 14}
    for record in records:
        assert set(record) == {"image", "width", "height", "detections"}
        for d in record["detections"]:
            assert set(d) == {"family", "id", "center", "corners"}
            assert d["family"] == "tag36h11"
            assert len(d["center"]) == 2 and len(d["corners"]) == 4
            assert all(len(c) == 2 for c in d["corners"])
            xs = [c[0] for c in d["corners"]]
            assert 0 <= min(xs) < d["center"][0] < max(xs) < record["width"]


def test_an_unreadable_image_is_reported_and_the_others_still_read(
    capsys, tmp_path, apriltag_photos
):
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    garbage = tmp_path / "garbage.jpg"
    garbage.write_bytes(b"\xff\xd8 this is not a JPEG")
    good = apriltag_photos / "mapping_feb_2014" / "IMG_1368.JPG"
    missing = tmp_path / "missing.png"
    status, out, err = run(capsys, str(empty), str(good), str(garbage), str(missing), "--json")
    assert status == 2
    assert [json.loads(line)["image"] for line in out.splitlines()] == [str(good)]
    messages = err.splitlines()
    assert len(messages) == 3
    assert f"{empty}: the file is empty" in messages[0]
    assert f"{garbage}: not an image" in messages[1]
    assert f"{missing}: no such file" in messages[2]
    assert "Traceback" not in err


def test_a_grey_image_gives_an_empty_list(capsys, tmp_path):
    grey = tmp_path / "grey.png"
    cv2.imwrite(str(grey), np.full((480, 640), 128, np.uint8))
    status, out, _ = run(capsys, str(grey), "--json")
    assert status == 0
    assert json.loads(out) == {"image": str(grey), "width": 640, "height": 480, "detections": []}
    status, out, _ = run(capsys, str(grey))
    assert status == 0 and out.strip() == f"{grey}: 640×480, no tags"


def test_the_same_id_twice_is_flagged_not_guessed(capsys, tmp_path):
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11)
    tag = cv2.copyMakeBorder(
        cv2.aruco.generateImageMarker(dictionary, 21, 80), *[20] * 4, cv2.BORDER_CONSTANT, value=255
    )
    canvas = np.full((200, 400), 180, np.uint8)
    canvas[40:160, 20:140] = tag
    canvas[40:160, 250:370] = tag
    path = tmp_path / "twice.png"
    cv2.imwrite(str(path), canvas)
    status, out, err = run(capsys, str(path), "--json")
    assert status == 0
    assert [d["id"] for d in json.loads(out)["detections"]] == [21, 21]
    assert "tag36h11 id 21 is seen more than once" in err
    status, out, _ = run(capsys, str(path))
    assert "2 tags" in out and "id 21 is seen more than once" in out


def test_readable_output_lists_each_tag(capsys, apriltag_photos):
    path = apriltag_photos / "mapping_feb_2014" / "IMG_1368.JPG"
    status, out, _ = run(capsys, str(path))
    lines = out.splitlines()
    assert status == 0
    assert lines[0] == f"{path}: 816×612, 2 tags"
    assert [line.split()[:2] for line in lines[1:]] == [["tag36h11", "13"], ["tag36h11", "19"]]


def test_the_installed_command_runs(tmp_path):
    grey = tmp_path / "grey.png"
    cv2.imwrite(str(grey), np.full((48, 64), 90, np.uint8))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "kiosk.cli",
            "detect",
            str(grey),
            str(tmp_path / "nope.png"),
            "--json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert json.loads(result.stdout)["detections"] == []
    assert "nope.png: no such file" in result.stderr


def test_a_folder_is_named_as_such(capsys, tmp_path):
    status, out, err = run(capsys, str(tmp_path), "--json")
    assert status == 2 and out == ""
    assert f"{tmp_path}: is a folder, not an image file" in err


def test_the_detector_settings_and_flags_are_used(capsys, monkeypatch, apriltag_photos):
    path = str(apriltag_photos / "mapping_feb_2014" / "IMG_1368.JPG")
    assert json.loads(run(capsys, path, "--json")[1])["detections"]
    # Another family: these are tag36h11 stickers.
    assert json.loads(run(capsys, path, "--json", "--family", "tag25h9")[1])["detections"] == []
    # The settings' detector section (here from the environment) is the detector's config.
    monkeypatch.setenv("TABLESIGHT_DETECTOR__MIN_DECISION_MARGIN", "10000")
    assert json.loads(run(capsys, path, "--json")[1])["detections"] == []
    monkeypatch.setenv("TABLESIGHT_DETECTOR__QUAD_SIGMA", "-4")
    status, out, err = run(capsys, path, "--json")
    assert status == 2 and out == ""
    assert "quad_sigma: must be -3 to 3" in err
    # The setting it replaced is named, with what to write instead.
    monkeypatch.delenv("TABLESIGHT_DETECTOR__QUAD_SIGMA")
    monkeypatch.setenv("TABLESIGHT_DETECTOR__SHARPENING", "1.0")
    status, out, err = run(capsys, path, "--json")
    assert status == 2 and out == ""
    assert "TABLESIGHT_DETECTOR__SHARPENING: no longer a setting: use detector.quad_sigma" in err


def test_plain_is_one_apriltag_call(capsys, apriltag_photos):
    path = str(apriltag_photos / "mapping_feb_2014" / "IMG_1451.JPG")
    fused = {d["id"] for d in json.loads(run(capsys, path, "--json")[1])["detections"]}
    plain = {d["id"] for d in json.loads(run(capsys, path, "--json", "--plain")[1])["detections"]}
    assert plain < fused
    assert 8 in fused - plain  # about 14 px wide: only the second pass reads it
