"""One language from the set-up page to every page and line, the start-up report included
(issue 38): a game set up in English opens the table page in English on a Chinese kiosk, and
its Confirm is answered in English; the camera page's reading and the calibration page's report,
problem and picture caption are in the page's language; `tablesight run --lang en` (the flag
after the verb) gives an English start-up report; `run --help` is written for users and names
the data folder."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from playwright.sync_api import expect
from serving import Server, free_port
from serving import asgi_call as call

from kiosk.app import create_app
from kiosk.cli import build_parser, main
from kiosk.routers.camera import _read
from kiosk.settings import load_settings
from kiosk.table import open_table
from vision.calibration import anchor_report
from vision.registry import load_registry

WAIT_S = 60.0
"""A bound on waiting for a process, a page or a frame, not a speed requirement."""
WAIT_MS = int(WAIT_S * 1000)
CJK = re.compile(r"[\u4e00-\u9fff]")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def start_kiosk(data_dir: Path, lang: str) -> Server:
    """`tablesight --lang LANG run` on a free port (the kiosk's own language is LANG)."""
    port = free_port()
    cmd = [sys.executable, "-m", "kiosk.cli", "--data-dir", str(data_dir), "--lang", lang]
    cmd += ["run", "--port", str(port)]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(sys.path),
        "TABLESIGHT_SIMULATION": "false",
    }
    process = subprocess.Popen(
        cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + WAIT_S
    while True:  # a start-up wait, not an assertion of speed
        assert process.poll() is None, process.communicate()[1]
        try:
            urllib.request.urlopen(f"{url}/healthz", timeout=1).close()
            return Server(process, url, data_dir)
        except OSError:
            assert time.monotonic() < deadline, "tablesight run did not answer"
            time.sleep(0.1)


@pytest.fixture
def chinese_kiosk(tmp_path: Path) -> Iterator[Server]:
    server = start_kiosk(tmp_path / "data", "zh")
    try:
        yield server
    finally:
        if server.process.poll() is None:
            server.stop()


def post(server: Server, path: str, body: dict[str, Any]) -> dict[str, Any]:
    answer = httpx.post(server.url + path, json=body, timeout=10)
    answer.raise_for_status()
    return answer.json()


@pytest.mark.browser
def test_a_game_set_up_in_english_opens_the_table_in_english(
    chinese_kiosk: Server, browser: Any
) -> None:
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{chinese_kiosk.url}/setup?lang=en")
        page.locator('[data-game="greenwood"]').tap()
        for step in ("players", "options", "check"):
            page.locator("#next").tap()
            expect(page.locator(f'[data-go="{step}"]')).to_have_attribute(
                "aria-current", "step", timeout=WAIT_MS
            )
        page.locator("#start").tap()
        page.wait_for_url(f"{chinese_kiosk.url}/?lang=en", timeout=WAIT_MS)
        expect(page.locator("#phase")).not_to_be_empty(timeout=WAIT_MS)
        assert page.evaluate("() => Kiosk.lang") == "en"
        phase = page.locator("#phase").inner_text()
        assert LATIN_WORD.search(phase) and not CJK.search(phase), phase
    finally:
        context.close()


@pytest.mark.browser
def test_confirm_is_answered_in_the_pages_language(chinese_kiosk: Server, browser: Any) -> None:
    options = {"start_seat": 0, "draws": "virtual"}
    post(chinese_kiosk, "/api/new-game", {"game": "greenwood", "players": 2, "options": options})
    for seat in (0, 1):  # dusk played by both (§三.2: the marker first)
        marker = {"type": "greenwood.dusk_marker", "seat": seat, "effect": "recruit"}
        assert post(chinese_kiosk, "/api/move", marker)["accepted"]
        assert post(chinese_kiosk, "/api/move", {"type": "pass", "seat": seat})["accepted"]
    for seat in (0, 1):  # the night, each in turn: then dawn, the table's confirm open
        assert post(chinese_kiosk, "/api/move", {"type": "pass", "seat": seat})["accepted"]
    status = httpx.get(chinese_kiosk.url + "/api/status", timeout=10).json()
    assert status["confirm"]["open"], status["confirm"]
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    try:
        page = context.new_page()
        page.goto(f"{chinese_kiosk.url}/?lang=en")
        expect(page.locator("#advance")).to_have_attribute("aria-disabled", "false")
        page.locator("#advance").click()
        expect(page.locator("#message")).not_to_be_empty(timeout=WAIT_MS)
        said = page.locator("#message").inner_text()
        assert "Accepted" in said and not CJK.search(said), said
    finally:
        context.close()


@pytest.fixture
def camera_app(tmp_path: Path) -> Iterator[FastAPI]:
    """The kiosk's app on the synthetic camera (Greenwood's table: anchors and tiles)."""
    settings = load_settings(data_dir=tmp_path, lang="en")
    table, store = open_table(settings)
    app = create_app(settings, table)
    try:
        yield app
    finally:
        app.state.camera.close()
        store.close()


def first_frame(app: FastAPI) -> Any:
    deadline = time.monotonic() + WAIT_S
    while True:
        call(app, "GET", "/api/camera")  # asks the feed to run
        image, _, _ = app.state.camera.latest()
        if image is not None:
            return image
        assert time.monotonic() < deadline, "no frame from the synthetic camera"
        time.sleep(0.1)


def test_the_camera_pages_reading_is_in_the_pages_language(camera_app: FastAPI) -> None:
    """Stonesaga's reader on a table with neither its draw pad nor a terrain tray."""
    image = first_frame(camera_app)
    zh = _read(image, "stonesaga", "zh")["text"]
    en = _read(image, "stonesaga", "en")["text"]
    assert en == "neither the draw pad nor a terrain tray is in view"
    assert CJK.search(zh) and not LATIN_WORD.search(zh), zh


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_calibration_report_and_caption_are_in_the_pages_language(
    camera_app: FastAPI, lang: str
) -> None:
    first_frame(camera_app)
    answer = call(camera_app, "POST", f"/api/calibrate?lang={lang}").json()
    assert answer["calibrated"], answer
    caption = call(camera_app, "GET", f"/api/calibration?lang={lang}").json()["caption"]
    lines = [*answer["report"], *answer["caption"], *caption]
    assert len(lines) >= 6
    for line in lines:
        if lang == "zh":
            assert CJK.search(line) and not LATIN_WORD.search(line), line
        else:
            assert not CJK.search(line), line
    if lang == "en":
        assert answer["report"][0] == "anchors in view: 0, 1, 2, 3 (4 of 4)"


def test_a_failed_calibration_says_what_is_missing_in_chinese() -> None:
    anchors = load_registry([], anchors=True).anchors()
    report = anchor_report([], anchors)
    problem = report.problem(anchors)
    assert problem is not None
    for line in [*report.describe(anchors, "zh"), problem.zh]:
        assert CJK.search(line) and not LATIN_WORD.search(line), line
    assert report.describe(anchors)[0] == "anchors in view: none (0 of 4)"  # English as before


def test_the_language_flag_after_run_is_the_kiosks(tmp_path: Path) -> None:
    """`tablesight run --lang en` as people type it: taken, and over one given before."""
    args = build_parser(["run"]).parse_args(["--lang", "zh", "run", "--lang", "en"])
    assert args.lang == "en"
    assert build_parser(["run"]).parse_args(["--lang", "zh", "run"]).lang == "zh"
    port = free_port()
    cmd = [sys.executable, "-m", "kiosk.cli", "--data-dir", str(tmp_path), "--lang", "zh"]
    cmd += ["run", "--lang", "en", "--port", str(port)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "TABLESIGHT_SIMULATION": "false"}
    process = subprocess.Popen(
        cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env
    )
    server = Server(process, f"http://127.0.0.1:{port}", tmp_path)
    deadline = time.monotonic() + WAIT_S
    while True:  # a start-up wait, not an assertion of speed
        assert process.poll() is None, process.communicate()[1]
        try:
            urllib.request.urlopen(f"{server.url}/healthz", timeout=1).close()
            break
        except OSError:
            assert time.monotonic() < deadline, "tablesight run did not answer"
            time.sleep(0.1)
    status, err = server.stop()
    assert status == 0, err
    lines = err.splitlines()
    assert lines[0].startswith("tablesight: kiosk on http://"), err
    assert not [line for line in lines if CJK.search(line)], err


def test_run_help_is_for_users_and_names_the_data_folder(capsys) -> None:
    import platformdirs

    with pytest.raises(SystemExit):
        main(["run", "--help"])
    text = capsys.readouterr().out
    assert "kiosk.rig" not in text and "``" not in text and "--help`` stays" not in text
    assert platformdirs.user_data_dir("tablesight", appauthor=False) in text
    assert "data folder" in text and "Ctrl-C" in text
