"""`tablesight run`: serves the real app, stops cleanly on Ctrl-C, resumes the saved game."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from serving import post, start_server

from engine.core import Pass
from engine.greenwood.moves import PlaceDuskMarker
from kiosk.store import Store


def get_status(url: str) -> dict:
    with urllib.request.urlopen(f"{url}/api/status", timeout=5) as response:
        return json.load(response)


def test_run_starts_a_game_serves_its_status_and_stops_cleanly_on_ctrl_c(tmp_path: Path) -> None:
    server = start_server(tmp_path)
    status = get_status(server.url)
    assert status["game"] == "greenwood" and status["round"] == 1
    assert status["phase"]["name"] == "dusk" and status["phase"]["title"] == "Dusk"
    assert status["notices"][0].startswith("started a new game of greenwood")
    code, err = server.stop()
    assert code == 0, err
    assert "Traceback" not in err and "stopped; the game is saved" in err


def test_run_resumes_the_latest_saved_game(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.sqlite") as store:
        saved = store.new_game(
            "sunday", "greenwood", {"players": 2, "start_seat": 1, "draws": "virtual"}
        )
        for seat in (0, 1):  # greenwood.zh.md §三.2: each dusk marker before passing dusk
            assert saved.submit(PlaceDuskMarker(seat=seat, effect="recruit")).accepted
        for seat in (0, 1):  # dusk; departure moves on by itself (nobody holds aurora)
            assert saved.submit(Pass(seat=seat)).accepted
    server = start_server(tmp_path)
    try:
        status = get_status(server.url)
        assert status["save"] == "sunday" and status["moves"] == 4
        assert status["phase"]["name"] == "night" and status["current_player"] == 2
        assert "resumed saved game 'sunday'" in status["notices"][0]
    finally:
        server.stop()


def test_run_sets_a_damaged_database_aside_and_says_so(tmp_path: Path) -> None:
    (tmp_path / "games.sqlite").write_bytes(b"not a database at all" * 50)
    server = start_server(tmp_path)
    try:
        notices = get_status(server.url)["notices"]
        assert "damaged" in notices[0] and "set aside" in notices[0]
        assert list(tmp_path.glob("games.sqlite.damaged-*"))
    finally:
        server.stop()


def test_run_on_a_busy_port_is_one_clear_line(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "kiosk.cli",
                "--data-dir",
                str(tmp_path),
                "run",
                "--port",
                str(port),
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert proc.returncode == 2
    (line,) = proc.stderr.strip().splitlines()
    assert line.startswith(f"tablesight run: cannot listen on 127.0.0.1:{port}")


def test_run_with_lan_serves_the_network_and_prints_the_pairing_code(tmp_path: Path) -> None:
    server = start_server(tmp_path, "--lan")
    try:
        control = get_status(server.url)["control"]
        assert control["lan"] and control["local"] and len(control["code"]) == 6
    finally:
        code, err = server.stop()
    assert code == 0, err
    assert f"pairing code for phones: {control['code']}" in err
    assert "open to every device on the network (Ctrl-C to stop)" in err


def test_the_start_up_report_of_a_chinese_kiosk_is_chinese_and_names_the_game_by_title(
    tmp_path: Path,
) -> None:
    """Issue 24: the Chinese report said "脚本演示greenwood" and "connecting"."""
    from firmware_bridge.link import LinkStatus
    from kiosk.rig import LINK_STATES, TableHardware
    from kiosk.settings import load_settings
    from kiosk.table import open_table
    from vision.registry import load_registry

    settings = load_settings(data_dir=tmp_path, lang="zh", game="greenwood", speed=1)
    table, _ = open_table(settings)
    hardware = TableHardware(settings)
    hardware.simulation = hardware._simulation(table, load_registry())
    lines = hardware.report()
    assert lines[0] == "《苍林秘境》脚本演示新开一局"
    assert "《苍林秘境》脚本演示" in lines[1] and "约5分钟" in lines[1], lines[1]
    for line in lines:
        assert "greenwood" not in line and "simulation" not in line, line
        assert not re.search(r"[a-z]{4,}", line.replace("Factory", "")), line
    assert set(LINK_STATES) == set(LinkStatus)
    assert all(t.zh != t.en for t in LINK_STATES.values())


NUMPY_CLASH = (
    "numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C header,"
    " got 88 from PyObject"
)
"""What Raspberry Pi OS's simplejpeg (built against numpy 1.x) raises under numpy 2."""


def broken_picamera2(folder: Path) -> Path:
    """A stand-in ``picamera2`` package in ``folder`` that fails on import as a Pi's
    picamera2 does with numpy 2 in the venv; returns the folder to put first on the path."""
    package = folder / "picamera2"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(f"raise ValueError({NUMPY_CLASH!r})\n")
    return folder


def test_a_pi_camera_that_fails_to_load_is_one_line_and_the_kiosk_serves_on(
    tmp_path: Path,
) -> None:
    """Issue 30: picamera2 raising ValueError at import took the kiosk down (a traceback and
    "Application startup failed")."""
    site = broken_picamera2(tmp_path / "site")
    config = tmp_path / "tablesight.toml"
    config.write_text('[camera]\nsource = "picamera2"\n', encoding="utf-8")
    env = {
        "PYTHONPATH": os.pathsep.join([str(site), *sys.path]),
        "TABLESIGHT_CONFIG": str(config),
    }
    server = start_server(tmp_path / "data", env=env)
    try:
        status = get_status(server.url)
        assert status["links"]["camera"]["state"] == "lost", status["links"]
        assert NUMPY_CLASH in status["links"]["camera"]["detail"]
        assert status["links"]["controller"]["state"] == "simulated", status["links"]
        # the kiosk's own first game: its first threat comes from the table (§一.3)
        threat = {"type": "greenwood.threat_drawn", "seat": 0, "threat": "threat 1"}
        assert post(server, "/api/move", threat)["accepted"]
        assert get_status(server.url)["moves"] == 1
    finally:
        code, err = server.stop()
    assert code == 0, err
    assert "Traceback" not in err and "startup failed" not in err, err
    lines = [line for line in err.splitlines() if "picamera2" in line or "Pi camera" in line]
    assert lines == [
        f"tablesight: the Pi camera could not be loaded: ValueError: {NUMPY_CLASH}; see"
        " docs/pi-setup.md, “The camera does not load”; the kiosk runs without reading the table"
    ], err
    assert "camera: none" not in err
    assert "GPIO: MockFactory" in err and "LED controller: emulated" in err


def test_a_chinese_kiosk_says_in_chinese_that_the_pi_camera_could_not_be_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 30: the same line in the kiosk's language."""
    from kiosk.rig import TableHardware
    from kiosk.routers.camera import CameraFeed
    from kiosk.settings import load_settings
    from kiosk.table import open_table

    monkeypatch.syspath_prepend(str(broken_picamera2(tmp_path / "site")))
    settings = load_settings(data_dir=tmp_path, lang="zh", camera={"source": "picamera2"})
    table, _ = open_table(settings)
    hardware = TableHardware(settings)
    hardware._open_camera(table, CameraFeed(settings, table))
    assert hardware.loop is None and table.links["camera"].state == "lost"
    line = hardware._camera_line().in_(settings.lang)  # the report's camera line
    assert line.startswith(f"树莓派摄像头无法加载:ValueError: {NUMPY_CLASH};见 docs/pi-setup.md")
    assert line.endswith("看板照常运行,但不读取桌面"), line
