"""The camera, calibration and sticker-sheet routes on the synthetic table, through the real
detector: the live view, the tags in view, a calibration from the kiosk, the downloads."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import httpx
import numpy as np
import pytest
from fastapi import FastAPI
from serving import PHONE, Server
from serving import asgi_call as call

from kiosk.app import create_app
from kiosk.settings import load_settings
from kiosk.table import open_table
from vision.calibration import TableCalibration

WAIT_S = 30.0  # a bound on waiting for the first frames, not a speed requirement


@pytest.fixture
def camera_app(tmp_path: Path) -> Iterator[FastAPI]:
    settings = load_settings(data_dir=tmp_path, lang="en")
    table, store = open_table(settings)
    app = create_app(settings, table)
    try:
        yield app
    finally:
        app.state.camera.close()
        store.close()


def first_frame(app: FastAPI) -> dict:
    deadline = time.monotonic() + WAIT_S
    while True:
        state = call(app, "GET", "/api/camera").json()
        if state["frames"]:
            return state
        assert time.monotonic() < deadline, "no frame from the synthetic camera"
        time.sleep(0.1)


def test_the_camera_sees_the_synthetic_tables_tags(camera_app: FastAPI) -> None:
    state = first_frame(camera_app)
    assert state["size"] == [1280, 720]
    assert state["link"] == {"state": "simulated", "detail": "synthetic table"}
    ids = {d["id"] for d in state["detections"]}
    assert {0, 1, 2, 3} <= ids  # the four calibration anchors
    assert len(ids) >= 30  # and most of the scattered tiles (40 on the table)


def test_the_games_reader_tells_what_it_makes_of_the_table(camera_app: FastAPI) -> None:
    first_frame(camera_app)
    reading = call(camera_app, "GET", "/api/camera/reading").json()
    assert reading["game"] == "greenwood" and reading["available"]
    assert reading["text"].strip() and "not available" not in reading["text"]
    assert "frame.png" not in reading["text"]  # no temporary path leaks to the page


def test_calibration_from_the_kiosk_saves_a_calibration(camera_app: FastAPI) -> None:
    first_frame(camera_app)
    refused = call(camera_app, "POST", "/api/calibrate", client=PHONE)
    assert refused.status_code == 403  # a control action like the others
    answer = call(camera_app, "POST", "/api/calibrate").json()
    assert answer["calibrated"] and answer["missing"] == []
    assert 0 <= answer["error_px"] < 1.0
    saved = TableCalibration.load(camera_app.state.settings.data_dir / "calibration.json")
    assert saved.reprojection_error_px == pytest.approx(answer["error_px"], abs=1e-3)
    picture = call(camera_app, "GET", "/api/calibration.png")
    image = cv2.imdecode(np.frombuffer(picture.content, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (720, 1280, 3)


def test_sticker_sheets_download_as_svg_and_pdf(camera_app: FastAPI) -> None:
    svg = call(camera_app, "GET", "/api/sheets/greenwood.svg")
    assert svg.headers["content-type"].startswith("image/svg+xml")
    assert 'filename="tablesight-greenwood.svg"' in svg.headers["content-disposition"]
    assert svg.text.lstrip().startswith("<?xml") and "<svg" in svg.text
    pdf = call(camera_app, "GET", "/api/sheets/anchors.pdf")
    assert pdf.content.startswith(b"%PDF")
    missing = call(camera_app, "GET", "/api/sheets/chess.pdf")
    assert missing.status_code == 404 and "the games are" in missing.json()["detail"]


def test_the_live_view_is_motion_jpeg_from_a_real_server(shared_server: Server) -> None:
    with httpx.stream("GET", f"{shared_server.url}/camera.mjpg", timeout=WAIT_S) as stream:
        assert stream.headers["content-type"].startswith("multipart/x-mixed-replace")
        buffer = b""
        for chunk in stream.iter_bytes():
            buffer += chunk
            start, end = buffer.find(b"\xff\xd8"), buffer.find(b"\xff\xd9")
            if start >= 0 and end > start:
                break
    image = cv2.imdecode(np.frombuffer(buffer[start : end + 2], np.uint8), cv2.IMREAD_COLOR)
    assert image is not None and image.shape == (720, 1280, 3)
