"""`tablesight run` with hardware settings: what it found, said in one report at start."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path

import cv2
import pytest
from serving import start_server

from kiosk.rig import find_camera
from vision.registry import load_registry
from vision.synthetic import Camera, Component, SyntheticTable, render

WAIT_S = 30.0  # a bound on the wait for the first frame, not a timing check


def status_of(url: str) -> dict:
    with urllib.request.urlopen(f"{url}/api/status?lang=en", timeout=10) as answer:
        return json.load(answer)


def test_a_configured_camera_and_a_missing_controller_are_reported_at_start(
    tmp_path: Path,
) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    anchors = load_registry([], anchors=True).anchors().values()
    table = SyntheticTable(
        tuple(Component(a.tag_id, a.x_mm, a.y_mm, 0, a.size_mm) for a in anchors)
    )
    cv2.imwrite(str(frames / "table.png"), render(table, Camera.overhead(960, 540)).image)
    env = {
        "TABLESIGHT_CAMERA__SOURCE": f"folder:{frames}",
        "TABLESIGHT_CONTROLLER": str(tmp_path / "no-such-port"),
    }
    server = start_server(tmp_path / "data", env=env)
    try:
        deadline = time.monotonic() + WAIT_S
        while True:
            with urllib.request.urlopen(f"{server.url}/api/status", timeout=5) as answer:
                links = json.load(answer)["links"]
            if links["camera"]["state"] == "ok" or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert links["camera"]["state"] == "ok", links
        assert links["controller"]["state"] != "simulated", "a configured port is not emulated"
    finally:
        code, err = server.stop()
    assert code == 0, err
    assert f"camera: folder:{frames}" in err
    assert "camera: first frame 960×540" in err
    assert "LED controller: " in err and "no-such-port" in err and "retrying" in err
    assert "GPIO: MockFactory (mock pins: no Pi found)" in err
    assert "Traceback" not in err


def test_a_camera_is_found_by_its_device_file(tmp_path: Path) -> None:
    assert find_camera(tmp_path) is None
    (tmp_path / "video0").touch()
    assert find_camera(tmp_path) == f"camera:{tmp_path / 'video0'}"


def test_with_no_simulation_and_no_camera_the_report_names_no_scripted_session(
    tmp_path: Path,
) -> None:
    """Issue 30: `run --no-simulation` said "the synthetic table plays the scripted session
    instead" before "camera: none"."""
    if find_camera() is not None:
        pytest.skip("this machine has a camera: the kiosk would read it")
    server = start_server(tmp_path, "--no-simulation")
    code, err = server.stop()
    assert code == 0, err
    assert "camera: none (the kiosk runs without reading the table)" in err, err
    assert "scripted" not in err and "synthetic" not in err, err


def test_the_start_up_report_says_which_save_plays_and_narrates_the_session(
    tmp_path: Path,
) -> None:
    """Issue 18: the report names the save that is really played (the scripted session's own,
    not the one opened before it), the script's narration follows it, and the end is said."""
    simulate = {"TABLESIGHT_SIMULATION": "true"}
    server = start_server(tmp_path, "--speed", "0", env=simulate)
    deadline = time.monotonic() + 90
    while status_of(server.url)["outcome"] is None:
        assert time.monotonic() < deadline, "the scripted session did not end"
        time.sleep(0.2)
    save = status_of(server.url)["save"]
    code, err = server.stop()
    assert code == 0, err
    lines = [line.removeprefix("tablesight: ") for line in err.splitlines()]
    assert f"the scripted session starts a new game saved as {save!r}" in lines
    assert not any("resumed" in line for line in lines), lines
    narration = lines.index("Submarine board 1 goes down in front of player 1")
    assert narration > lines.index(f"the scripted session starts a new game saved as {save!r}")
    ended = (
        "The scripted session has ended; the kiosk keeps running: start a new game from the menu"
    )
    assert ended in lines
    again = start_server(tmp_path, "--speed", "0", env=simulate)  # that game is over: a new one
    try:
        time.sleep(1)
    finally:
        _, err = again.stop()
    assert f"(the save {save!r} is kept as it was)" in err
