"""The deployment files: the systemd unit verifies and restarts a hung service, the launcher
relaunches Chromium, the udev rule names the Pico, the example settings load."""

from __future__ import annotations

import asyncio
import configparser
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from kiosk.app import create_app
from kiosk.settings import load_settings
from kiosk.table import open_table

DEPLOY = Path(__file__).resolve().parents[2] / "hardware" / "deploy"
WAIT_S = 10.0  # a bound on waiting for a child process, not a timing requirement


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # keep systemd's CamelCase keys
    parser.read(DEPLOY / name)
    return parser


def test_the_service_restarts_on_failure_within_limits_and_has_a_watchdog() -> None:
    service = unit("tablesight.service")
    assert service["Service"]["Type"] == "notify"
    assert service["Service"]["Restart"] == "on-failure"
    assert 1 <= int(service["Service"]["RestartSec"]) <= 10
    assert int(service["Unit"]["StartLimitBurst"]) >= 3
    assert int(service["Unit"]["StartLimitIntervalSec"]) > 5 * int(service["Service"]["RestartSec"])
    assert int(service["Service"]["WatchdogSec"]) >= 10
    assert service["Service"]["KillSignal"] == "SIGINT"  # tablesight's clean stop
    groups = service["Service"]["SupplementaryGroups"].split()
    assert {"dialout", "gpio", "video", "audio"} <= set(groups)  # audio: speech (issue 28)
    assert unit("tablesight-kiosk.service")["Service"]["Restart"] == "always"


def test_the_service_allows_enough_open_files_for_the_kiosk_caps() -> None:
    """systemd's LimitNOFILE is the hard limit the kiosk raises its soft limit to; the
    descriptor budget it derives must hold the default caps with room to spare (issue #14:
    1,100 connections against a soft limit of 1024 made the kiosk unanswerable)."""
    limit = int(unit("tablesight.service")["Service"]["LimitNOFILE"])
    script = (
        "import resource, sys\n"
        f"resource.setrlimit(resource.RLIMIT_NOFILE, (1024, {limit}))\n"
        "from kiosk.pairing import Pairing\n"
        "from kiosk.guard import LOCAL_RESERVE, Door\n"
        "from kiosk.settings import load_settings\n"
        "door = Door(load_settings(data_dir=sys.argv[1]), Pairing())\n"
        "soft = door.budget_descriptors()\n"
        "print(soft, door.max_total - LOCAL_RESERVE, door.http.max_connections)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(DEPLOY)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert done.returncode == 0, done.stderr
    soft, room, cap = map(int, done.stdout.split())
    assert soft == limit  # raised from 1024 to the unit's limit
    assert room >= 4 * cap


def test_systemd_accepts_the_service_unit(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    text = (DEPLOY / "tablesight.service").read_text()
    # The real ExecStart exists only after install.sh; everything else is checked as it is.
    copy = tmp_path / "tablesight.service"
    copy.write_text(
        "\n".join(
            "ExecStart=/bin/true" if line.startswith("ExecStart=") else line
            for line in text.splitlines()
        )
    )
    result = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_app_tells_systemd_it_is_ready_and_pings_the_watchdog(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "notify"
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    monkeypatch.setenv("WATCHDOG_USEC", "100000")
    settings = load_settings(data_dir=tmp_path, lang="en")
    table, _ = open_table(settings)
    app = create_app(settings, table)

    async def serve_a_while() -> None:
        async with app.router.lifespan_context(app):  # the app's real start-up and shutdown
            await asyncio.sleep(0.3)

    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        sock.settimeout(WAIT_S)
        with ThreadPoolExecutor(1) as worker:  # Playwright may hold this thread's event loop
            worker.submit(asyncio.run, serve_a_while()).result()
        messages = [sock.recv(100).decode() for _ in range(3)]
    assert messages == ["READY=1", "WATCHDOG=1", "WATCHDOG=1"]


def test_the_launcher_opens_the_page_in_kiosk_mode_and_relaunches_chromium(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    launches = tmp_path / "launches"
    fake = {
        "chromium": f'#!/bin/sh\necho "$@" >> {launches}\nexit 1\n',  # dies at once, every time
        "curl": "#!/bin/sh\nexit 0\n",  # the service answers
        "xset": "#!/bin/sh\nexit 0\n",
    }
    for name, script in fake.items():
        (bin_dir / name).write_text(script)
        (bin_dir / name).chmod(0o755)
    env = {
        "PATH": f"{bin_dir}:/usr/bin:/bin",
        "TABLESIGHT_RELAUNCH_S": "0.05",
        "XDG_RUNTIME_DIR": str(tmp_path),
        "DISPLAY": ":0",
    }
    proc = subprocess.Popen(
        [str(DEPLOY / "kiosk-launcher.sh"), "http://127.0.0.1:8123/"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + WAIT_S
        while not (launches.exists() and len(launches.read_text().splitlines()) >= 3):
            assert time.monotonic() < deadline, "chromium was not relaunched"
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=WAIT_S)
        if proc.stderr:
            proc.stderr.close()
    first = launches.read_text().splitlines()[0].split()
    assert first[:2] == ["--kiosk", "http://127.0.0.1:8123/"]
    assert "--noerrdialogs" in first and "--disable-session-crashed-bubble" in first


def test_the_udev_rule_gives_the_pico_a_stable_name() -> None:
    (rule,) = [
        line
        for line in (DEPLOY / "99-tablesight-pico.rules").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    keys = {key: value for key, _, value in re.findall(r'([\w{}]+)(==|\+=|=)"([^"]*)"', rule)}
    assert keys["SUBSYSTEM"] == "tty"
    assert keys["ATTRS{idVendor}"] == "2e8a"  # Raspberry Pi
    assert keys["ATTRS{idProduct}"] == "0005"  # MicroPython's USB serial interface
    assert keys["SYMLINK"] == "tablesight-leds"
    assert keys["GROUP"] == "dialout"


def test_the_example_settings_are_valid_settings() -> None:
    settings = load_settings(DEPLOY / "tablesight.toml")
    assert settings.controller == "/dev/tablesight-leds"
    assert settings.camera.source_config().kind == "picamera2"
    assert settings.gpio.advance_pin == 17 and settings.detector.decimation == 2.0
    # the detector's frame pass is on unless the file turns it off (it says how)
    assert settings.detector.frame_pass


def test_the_scripts_are_valid_shell() -> None:
    for script in ("install.sh", "kiosk-launcher.sh"):
        result = subprocess.run(["bash", "-n", str(DEPLOY / script)], capture_output=True)
        assert result.returncode == 0, result.stderr
        assert os.access(DEPLOY / script, os.X_OK), f"{script} is not executable"
