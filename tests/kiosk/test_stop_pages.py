"""Ctrl-C with pages open stops `tablesight run` and `tablesight cafe` in one line, exit 0
(issue 38): each page holds a stream open (the table's and the café's /api/live, the camera's
picture), which uvicorn's graceful stop waited for, then cancelled with about 90 lines of
tracebacks ("timeout graceful shutdown exceeded", CancelledError). The real processes, real
streams: two Chromium pages, or two HTTP clients holding /api/live open."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from serving import Server, free_port, start_server

from cafe.broker import Mosquitto, mosquitto_path

WAIT_S = 30.0
"""A bound on waiting for a process or a stream, not a speed requirement."""

TRACE_WORDS = ("Traceback", "CancelledError", "ERROR", "timeout graceful shutdown", "Exception")


class Stream:
    """A client holding a server-sent-events stream open on a thread of its own, as a page
    does; ``opened`` once the first event came, ``ended`` with how the stream ended."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.opened = threading.Event()
        self.done = threading.Event()
        self.ended: str | None = None
        threading.Thread(target=self._hold, daemon=True).start()

    def _hold(self) -> None:
        try:
            with httpx.stream("GET", self.url, timeout=httpx.Timeout(WAIT_S, read=None)) as r:
                for chunk in r.iter_bytes():
                    if b"event: snapshot" in chunk:
                        self.opened.set()
            self.ended = "clean"
        except httpx.HTTPError as exc:
            self.ended = type(exc).__name__
        finally:
            self.done.set()


def stop_lines(process: subprocess.Popen[str]) -> tuple[int, list[str]]:
    """Ctrl-C, as a user presses it; the exit status and the lines of stderr."""
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=WAIT_S)
    return process.returncode, err.splitlines()


def assert_stopped_in_one_line(status: int, lines: list[str], last: str) -> None:
    """Exit 0; every line one of tablesight's own, the last one saying it stopped; nothing
    of a traceback anywhere."""
    said = "\n".join(lines)
    assert status == 0, said
    assert not [w for w in TRACE_WORDS if w in said], said
    assert all(line.startswith("tablesight: ") for line in lines), said
    assert lines[-1] == last, said
    assert sum("stopped" in line for line in lines) == 1, said


@pytest.fixture
def kiosk(tmp_path: Path) -> Iterator[Server]:
    server = start_server(tmp_path / "data")
    try:
        yield server
    finally:
        if server.process.poll() is None:
            server.process.kill()
            server.process.wait()


def test_run_stops_in_one_line_with_two_streams_open(kiosk: Server) -> None:
    streams = [Stream(f"{kiosk.url}/api/live?lang={lang}") for lang in ("en", "zh")]
    for stream in streams:
        assert stream.opened.wait(WAIT_S), "the stream sent no snapshot"
    status, lines = stop_lines(kiosk.process)
    assert_stopped_in_one_line(status, lines, "tablesight: stopped; the game is saved")
    for stream in streams:  # each stream was finished, not cut
        assert stream.done.wait(WAIT_S) and stream.ended == "clean", stream.ended


@pytest.mark.browser
def test_run_stops_in_one_line_with_two_table_pages_open(kiosk: Server, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        for lang in ("en", "zh"):
            page = context.new_page()
            page.goto(f"{kiosk.url}/?lang={lang}")
            # Its live stream is open once the snapshot came.
            page.wait_for_function("() => Kiosk.status !== null", timeout=WAIT_S * 1000)
        status, lines = stop_lines(kiosk.process)
    finally:
        context.close()
    assert_stopped_in_one_line(status, lines, "tablesight: stopped; the game is saved")


def test_cafe_stops_in_one_line_with_two_streams_open(tmp_path: Path) -> None:
    if mosquitto_path() is None:
        if os.environ.get("CI"):
            pytest.fail("CI must have Mosquitto: .ci/run installs it with apt-get")
        pytest.skip("Mosquitto is not installed (apt-get install -y mosquitto)")
    broker = Mosquitto(tmp_path / "broker").start()
    port = free_port()
    cmd = [sys.executable, "-m", "kiosk.cli", "--data-dir", str(tmp_path / "data"), "--lang"]
    cmd += ["en", "cafe", "--mqtt", broker.url, "--port", str(port)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    process = subprocess.Popen(
        cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + WAIT_S
        while True:  # a start-up wait, not an assertion of speed
            assert process.poll() is None, process.communicate()[1]
            try:
                urllib.request.urlopen(f"{url}/healthz", timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "tablesight cafe did not answer"
                time.sleep(0.1)
        streams = [Stream(f"{url}/api/live"), Stream(f"{url}/api/live")]
        for stream in streams:
            assert stream.opened.wait(WAIT_S), "the café's stream sent no snapshot"
        status, lines = stop_lines(process)
        assert_stopped_in_one_line(status, lines, "tablesight: café overview stopped")
        for stream in streams:
            assert stream.done.wait(WAIT_S) and stream.ended == "clean", stream.ended
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        broker.stop()
