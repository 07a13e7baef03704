"""`tablesight bench e2e`: the whole table, from a tag in a frame to the kiosk, and memory.

**Latency.** A Greenwood table (the four anchors, submarine board 1, a domino) is fed to the
real table loop at 30 frames per second, in real time; the kiosk app serves the same table over
HTTP and one client listens to its live updates. Each trial moves the domino to another place
off the start cell: from the first frame showing it there to the client's receipt of the
update message (the engine's refusal, saved and announced) is one sample. It includes the
stabiliser's deliberate wait (a place must hold for ``settle_frames`` frames).

**Memory.** A `tablesight run --repeat` child plays the simulated Greenwood session (the
longest) over and over at speed 1, each time as a new saved game (the emulated LED controller,
mock GPIO, the synthetic camera, SQLite); its resident memory is sampled every few seconds for 10
minutes (1 with ``--quick``). The figures are the peak, and the growth from the end of the first
minute (a third of a quick run) to the last sample.
"""

from __future__ import annotations

import os
import queue
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import numpy as np
import uvicorn

from bench import Figure, live_events
from kiosk.app import create_app
from kiosk.loop import TableLoop
from kiosk.settings import load_settings
from kiosk.table import open_table
from vision.registry import load_registry
from vision.sources import Frame
from vision.synthetic import Camera, Component, SyntheticTable, render

SUITE = "e2e"
FPS = 30.0
BOARD_TAGS = ((100, 515.0, 215.0), (101, 665.0, 325.0))
"""Submarine board 1 (front) with its top-left corner at (500, 200) mm (as in the script)."""
PLACES = ((560.0, 220.0), (580.0, 220.0), (600.0, 240.0))
"""Domino places off the start cell (each refused: greenwood.must_cover_start)."""
DOMINO = 148


def run(quick: bool) -> list[Figure]:
    """Measure and return the figures (``quick``: fewer trials, a one-minute memory run)."""
    figures = _latency(20 if quick else 100)
    figures += _memory(60.0 if quick else 600.0)
    return figures


# --- latency ---------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _frames() -> list:
    """One rendered frame per domino place (the scene is otherwise still)."""
    anchors = load_registry([], anchors=True).anchors().values()
    still = [Component(a.tag_id, a.x_mm, a.y_mm, 0, a.size_mm) for a in anchors]
    still += [Component(tag, x, y, 0, 20) for tag, x, y in BOARD_TAGS]
    camera = Camera.overhead(1280, 720, height_mm=850)
    return [
        render(SyntheticTable((*still, Component(DOMINO, x, y, 0, 14))), camera).image
        for x, y in PLACES
    ]


def _latency(trials: int) -> list[Figure]:
    print(f"bench e2e: latency, {trials} trials at {FPS:g} fps…", file=sys.stderr)
    images = _frames()
    with tempfile.TemporaryDirectory() as tmp:
        settings = load_settings(data_dir=Path(tmp), lang="en", game="greenwood")
        settings.port = _free_port()
        table, store = open_table(settings)
        table.new_game(
            "greenwood", {"players": 2, "start_seat": 0, "layout": 0, "draws": "virtual"}, "bench"
        )
        app = create_app(settings, table)
        server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=settings.port, log_level="warning")
        )
        serving = threading.Thread(target=server.run, daemon=True)
        serving.start()
        url = f"http://127.0.0.1:{settings.port}"
        _wait_up(url)
        arrivals: queue.Queue[float] = queue.Queue()
        listening = threading.Event()
        stop = threading.Event()
        watcher = threading.Thread(target=_watch, args=(url, arrivals, listening, stop))
        watcher.start()
        listening.wait(10)
        loop = TableLoop(table, _NoSource(), registry=load_registry())
        clock = _Clock()
        try:
            for _ in range(10):  # calibrate, add the board and the first place
                loop.process(clock.frame(images[0]))
            samples = []
            for trial in range(trials):
                image = images[1 + trial % 2]
                _drain(arrivals)
                first = clock.frame(image)
                started = time.perf_counter()
                loop.process(first)
                got = None
                for _ in range(30):
                    try:
                        got = arrivals.get_nowait()
                        break
                    except queue.Empty:
                        loop.process(clock.frame(image))
                if got is None:
                    got = arrivals.get(timeout=10)
                samples.append(got - started)
        finally:
            stop.set()
            table.touch()  # one more message wakes the watcher to stop
            watcher.join(10)
            server.should_exit = True
            serving.join(10)
            store.close()
    return _percentiles("tag in a frame → kiosk update message", samples)


class _NoSource:
    """The loop is driven frame by frame here; its own thread and source are not used."""

    name = "bench"

    def open(self) -> None:
        """Nothing to open."""

    def read(self) -> Frame:
        raise EOFError

    def close(self) -> None:
        """Nothing to close."""


class _Clock:
    """Frames at ``FPS``, handed over in real time (the loop sees a camera's pace)."""

    def __init__(self) -> None:
        self.index = 0
        self.start = time.perf_counter()

    def frame(self, image: np.ndarray) -> Frame:
        due = self.start + self.index / FPS
        time.sleep(max(0.0, due - time.perf_counter()))
        frame = Frame(image, self.index * 1000 / FPS, self.index)
        self.index += 1
        return frame


def _wait_up(url: str) -> None:
    deadline = time.monotonic() + 20
    while True:
        try:
            httpx.get(f"{url}/healthz", timeout=1)
            return
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise RuntimeError("the kiosk did not start") from None
            time.sleep(0.05)


def _watch(
    url: str, arrivals: queue.Queue[float], listening: threading.Event, stop: threading.Event
) -> None:
    for kind, _ in live_events(url, timeout=60):
        if kind == "snapshot":
            listening.set()
        else:  # each change is a refusal here (the verdicts list may look the same)
            arrivals.put(time.perf_counter())
        if stop.is_set():
            return


def _drain(arrivals: queue.Queue[float]) -> None:
    while not arrivals.empty():
        arrivals.get_nowait()


def _percentiles(name: str, samples_s: list[float]) -> list[Figure]:
    ms = sorted(s * 1000 for s in samples_s)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    note = f"{len(ms)} trials, {FPS:g} fps"
    return [
        Figure(SUITE, f"{name} p50", statistics.median(ms), "ms", note),
        Figure(SUITE, f"{name} p95", p95, "ms", note),
    ]


# --- memory ----------------------------------------------------------------------------------


def _rss_kb(pid: int) -> tuple[int, int]:
    """Resident and peak resident memory (kB) of a process, from /proc."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            values[key] = int(rest.split()[0])
    return values["VmRSS"], values["VmHWM"]


def _memory(duration_s: float) -> list[Figure]:
    if not Path("/proc/self/status").exists():
        print("bench e2e: no /proc here; the memory run is skipped", file=sys.stderr)
        return []
    print(f"bench e2e: memory of tablesight run, {duration_s:g} s of play…", file=sys.stderr)
    return _memory_of("greenwood", duration_s)


def _memory_of(game: str, duration_s: float) -> list[Figure]:
    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "kiosk.cli", "--data-dir", tmp, "--lang", "en", "run"]
        cmd += ["--port", str(port), "--game", game, "--speed", "1", "--repeat", "--simulation"]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        samples: list[tuple[float, int]] = []
        peak = 0
        try:
            _wait_up(f"http://127.0.0.1:{port}")
            started = time.monotonic()
            while (now := time.monotonic() - started) < duration_s:
                rss, peak = _rss_kb(proc.pid)
                samples.append((now, rss))
                time.sleep(min(5.0, duration_s / 20))
            moves = httpx.get(f"http://127.0.0.1:{port}/api/status", timeout=5).json()["moves"]
        finally:
            proc.terminate()
            proc.wait(20)
    warm = [rss for t, rss in samples if t >= min(60.0, duration_s / 3)] or [samples[-1][1]]
    minutes = duration_s / 60
    note = (
        f"{minutes:g} min of simulated play, {len(samples)} samples; {moves} moves in the last game"
    )
    return [
        Figure(SUITE, f"tablesight run peak RSS, {game}", peak / 1024, "MB", note),
        Figure(
            SUITE,
            f"tablesight run RSS growth after warm-up, {game}",
            (warm[-1] - warm[0]) / 1024,
            "MB",
            f"first sample after warm-up {warm[0] / 1024:.1f} MB, last {warm[-1] / 1024:.1f} MB",
        ),
    ]
