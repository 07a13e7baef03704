"""The camera, calibration and sticker-sheet routes on the synthetic table, through the real
detector: the live view, the tags in view, a calibration from the kiosk, the downloads."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import httpx
import numpy as np
import pytest
from fastapi import FastAPI
from playwright.sync_api import expect
from serving import PHONE, Server, start_server
from serving import asgi_call as call
from worn_stickers import worn_frames

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


def test_sticker_sheets_from_the_kiosk_are_in_its_language(camera_app: FastAPI) -> None:
    """Issue 24 ("Language slips"): the camera page's sheets were English only. They are in the
    kiosk's language, and in the one a link asks for."""
    english = call(camera_app, "GET", "/api/sheets/greenwood.svg").text
    assert "tablesight stickers: Greenwood" in english and "贴纸" not in english
    chinese = call(camera_app, "GET", "/api/sheets/greenwood.svg?lang=zh").text
    assert "tablesight 贴纸:《苍林秘境》" in chinese
    camera_app.state.settings.lang = "zh"  # a Chinese kiosk: its sheets without ?lang
    assert "tablesight 贴纸:桌面定位标记" in call(camera_app, "GET", "/api/sheets/anchors.svg").text


def test_the_live_view_is_motion_jpeg_from_a_real_server(shared_server: Server) -> None:
    """A picture of the stream is followed at once by the boundary (here, with no camera, its
    one blank picture by the closing one): a browser shows a picture only once the stream goes
    on past it (`test_page`'s still table: the next part's head follows at once)."""
    with httpx.stream("GET", f"{shared_server.url}/camera.mjpg", timeout=WAIT_S) as stream:
        assert stream.headers["content-type"] == "multipart/x-mixed-replace; boundary=frame"
        buffer = b"".join(stream.iter_bytes())  # no camera: the stream ends after one picture
    start, end = buffer.find(b"\xff\xd8"), buffer.rfind(b"\xff\xd9")
    image = cv2.imdecode(np.frombuffer(buffer[start : end + 2], np.uint8), cv2.IMREAD_COLOR)
    assert image is not None and image.shape == (720, 1280, 3)
    assert buffer[:start] == b"--frame\r\nContent-Type: image/jpeg\r\n\r\n"
    assert buffer[end + 2 :] == b"\r\n--frame--\r\n"


def test_the_synthetic_tables_stickers_all_read_well(camera_app: FastAPI) -> None:
    first_frame(camera_app)
    deadline = time.monotonic() + WAIT_S
    while True:
        stickers = call(camera_app, "GET", "/api/camera?lang=zh").json()["stickers"]
        anchors = [s for s in stickers if s["id"] in (0, 1, 2, 3)]
        if len(anchors) == 4 and all(s["judged"] for s in anchors):
            break
        assert time.monotonic() < deadline, "no verdict on the anchors"
        time.sleep(0.2)
    assert [s["label"] for s in anchors] == [f"{i}（定位标记）" for i in range(4)]
    english = call(camera_app, "GET", "/api/camera?lang=en").json()["stickers"]
    labels = {s["id"]: s["label"] for s in english}
    assert [labels[i] for i in range(4)] == [f"{i} table anchor {i + 1}" for i in range(4)]
    assert all(s["share"] == 1.0 and s["corrected_bits"] == 0 for s in anchors)
    assert not any(s["weak"] for s in stickers)  # a clean rendered table: nothing to re-print


# --- sticker health (issue #16) ------------------------------------------------------------

BOARDS = (
    100,
    101,
    102,
    103,
    104,
)  # greenwood's submarine boards' tags (vision/tags/greenwood.toml)
WORN, SCRATCHED = 102, 104
HEALTH_WAIT_S = 120.0  # a bound on gathering enough looks, not a speed requirement
SCREENSHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"


@pytest.fixture(scope="module")
def worn_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """`tablesight run` whose camera is a folder of frames of five board tags, one worn and one
    scratched, with fresh sensor noise in each and a flickering lamp (so that the table loop's
    incremental detector reads every frame afresh; the folder loops)."""
    root = tmp_path_factory.mktemp("worn")
    frames = root / "frames"
    frames.mkdir()
    for i, (_, image) in enumerate(worn_frames(BOARDS, WORN, SCRATCHED, 12, flicker=12)):
        cv2.imwrite(str(frames / f"{i:03d}.png"), image)
    server = start_server(root / "data", env={"TABLESIGHT_CAMERA__SOURCE": f"folder:{frames}"})
    try:
        yield server
    finally:
        if server.process.poll() is None:
            server.stop()


def judged_stickers(server: Server, lang: str = "en") -> dict[int, dict]:
    """The camera's sticker health once every tag has had enough looks for a verdict."""
    deadline = time.monotonic() + HEALTH_WAIT_S
    while True:
        state = httpx.get(f"{server.url}/api/camera", params={"lang": lang}, timeout=10).json()
        stickers = {s["id"]: s for s in state["stickers"]}
        if set(BOARDS) <= set(stickers) and all(stickers[t]["judged"] for t in BOARDS):
            return stickers
        assert time.monotonic() < deadline, f"no verdict on every tag: {stickers}"
        time.sleep(0.5)


def test_the_camera_names_the_worn_and_scratched_stickers(worn_server: Server) -> None:
    stickers = judged_stickers(worn_server)
    worn, scratched = stickers[WORN], stickers[SCRATCHED]
    assert worn["weak"] and "rarely_found" in worn["reasons"]
    assert worn["found"] < 0.9 * worn["looks"]
    assert (
        worn["line"]
        == "Sticker “102 submarine board 1 back” reads poorly: re-print it or move the lamp"
    )
    assert scratched["weak"] and scratched["reasons"] == ["bits_corrected"]
    assert scratched["label"] == "104 submarine board 2 front"
    for tag in (100, 101, 103):
        assert not stickers[tag]["weak"] and stickers[tag]["share"] == 1.0
    first = [s["weak"] for s in stickers.values()]
    assert first == sorted(first, reverse=True)  # the weak ones first
    chinese = judged_stickers(worn_server, "zh")
    assert chinese[WORN]["line"] == "贴纸 102（版图）读得不稳：重新打印或移动灯光"


@pytest.mark.browser
@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1280, 720)])
def test_the_camera_page_marks_weak_stickers_in_both_languages(
    worn_server: Server, browser, width: int, height: int
) -> None:
    judged_stickers(worn_server)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        problems: list[str] = []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        for lang, line, summary in [
            (
                "en",
                "Sticker “102 submarine board 1 back” reads poorly: re-print it or move the lamp",
                "2 of 5",
            ),
            ("zh", "贴纸 102（版图）读得不稳：重新打印或移动灯光", "2 / 5"),
        ]:
            page.goto(f"{worn_server.url}/camera?lang={lang}")
            weak = page.locator("#health-weak li")
            expect(weak).to_have_count(2)
            expect(weak.first.locator("strong")).to_have_text(line)
            expect(page.locator("#health-summary")).to_contain_text(summary)
            expect(page.locator(f'#health-all [data-id="{WORN}"]')).to_have_attribute(
                "data-state", "weak"
            )
            expect(page.locator('#health-all [data-id="100"]')).to_have_attribute(
                "data-state", "good"
            )
            if lang == "zh":  # the printed labels are English: the Chinese view names kinds
                text = page.locator("#health").inner_text()
                assert re.search(r"[A-Za-z]{2,}", text) is None, text
            page.locator("#health").scroll_into_view_if_needed()
            path = SCREENSHOTS / f"camera-health-{lang}-{width}x{height}.png"
            page.screenshot(path=str(path), full_page=True)
            assert path.stat().st_size > 10_000
        assert problems == []
    finally:
        context.close()
