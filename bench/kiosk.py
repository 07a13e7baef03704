"""`tablesight bench kiosk`: page-load time and update latency of a real `tablesight run`.

Update latency is from the moment a move is posted (it is then checked, saved to SQLite with
``synchronous=FULL`` and announced) to the moment a server-sent-events client has the change;
it is measured with one viewer and with many, the emulated LED controller and (when Mosquitto
is installed) the café publisher on. For the 10 viewers, the bench also counts the snapshots
the presenter built per language for those changes (``GET /api/live/stats``; the goal is one
per change and language in use: the viewers' English, the publisher's Chinese and English).
Page load is the HTML, its scripts and style and the first live snapshot over HTTP, and, when
Chromium is installed, a real browser from navigation to the phase drawn on the screen.
Figures are percentiles of repeated runs.

Under load (issue #14): ``/healthz`` latency alone, with hundreds of idle connections open, and
while 20 sticker-sheet PDFs are asked for at once (how many were drawn, answered from the cache
or refused 503 is counted); and how long the server holds a half-sent request line before it
answers 408 and closes (``http.header_timeout_s``).
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from bench import Figure, live_events

SUITE = "kiosk"
ASSETS = ("/static/common.js", "/static/table.js", "/static/style.css")


def run(quick: bool) -> list[Figure]:
    """Measure and return the figures (``quick``: fewer repetitions)."""
    loads, updates = (10, 30) if quick else (50, 200)
    figures: list[Figure] = []
    with (
        tempfile.TemporaryDirectory() as tmp,
        _broker(Path(tmp)) as mqtt,
        serving(Path(tmp), mqtt) as url,
    ):
        figures += _percentiles(
            "page load, HTTP (html + assets + first snapshot)",
            [_http_load(url) for _ in range(loads)],
            "ms",
        )
        browser = _browser_loads(url, loads)
        if browser:
            figures += _percentiles("page load, Chromium (navigation → phase drawn)", browser, "ms")
        else:
            print(
                "bench kiosk: Chromium or Playwright not installed; browser load skipped",
                file=sys.stderr,
            )
        marker = {"type": "greenwood.dusk_marker", "seat": 0, "effect": "recruit"}
        httpx.post(f"{url}/api/move", json=marker, timeout=10).raise_for_status()  # before a pass
        for viewers in (1, 10):
            before = httpx.get(f"{url}/api/live/stats", timeout=10).json()
            samples, changes = _update_latency(url, viewers, updates)
            label = "viewer" if viewers == 1 else "viewers (the last to see it)"
            figures += _percentiles(f"update latency, {viewers} {label}", samples, "ms")
            if viewers == 10:
                after = httpx.get(f"{url}/api/live/stats", timeout=10).json()
                figures += _builds(before, after, changes, mqtt is not None)
        figures += _under_load(url, quick)
    return figures


def _builds(
    before: dict[str, Any], after: dict[str, Any], changes: int, publisher: bool
) -> list[Figure]:
    """The snapshots built per language for ``changes`` changes (from the presenter's stats)."""
    on = "10 viewers, LEDs" + (", café publisher" if publisher else "; no Mosquitto: no publisher")
    figures = [Figure(SUITE, "changes watched by 10 viewers", changes, "count", on)]
    for lang in sorted(after["builds"]):
        built = after["builds"][lang] - before["builds"].get(lang, 0)
        figures.append(
            Figure(
                SUITE,
                f"snapshots built for them, {lang}",
                built,
                "count",
                f"goal: {changes} (one per change)",
            )
        )
    return figures


@contextmanager
def _broker(folder: Path) -> Iterator[str | None]:
    """A Mosquitto broker for the café publisher (its URL), or None when it is not installed."""
    from cafe.broker import Mosquitto, mosquitto_path

    if mosquitto_path() is None:
        print("bench kiosk: Mosquitto not installed; the café publisher is off", file=sys.stderr)
        yield None
        return
    broker = Mosquitto(folder / "mosquitto").start()
    try:
        yield broker.url
    finally:
        broker.stop()


def _under_load(url: str, quick: bool) -> list[Figure]:
    """``/healthz`` alone, under idle connections and under a burst of sheet PDFs; the time a
    half-sent request is held."""
    probes = 50 if quick else 200
    idle_count = 200 if quick else 500
    figures = _percentiles("/healthz alone", _healthz(url, probes), "ms")
    with _idle(url, idle_count) as idle:
        figures += _percentiles(
            f"/healthz with {len(idle)} idle connections open", _healthz(url, probes), "ms"
        )
    samples, statuses = _sheet_burst(url, 20)
    figures += _percentiles("/healthz while 20 sheet PDFs are asked for at once", samples, "ms")
    for status in sorted(statuses):
        figures.append(
            Figure(SUITE, f"20 sheet PDFs at once: answered {status}", statuses[status], "count")
        )
    source = _own_address()
    if source is None:
        print("bench kiosk: no non-loopback address here; the flood is skipped", file=sys.stderr)
    else:
        flood, refused, samples, failures = _flood(url, source, 1100)
        figures += _percentiles(
            f"/healthz under {flood} live connections from another device", samples, "ms"
        )
        figures.append(
            Figure(
                SUITE,
                f"of {flood} live connections, answered 503",
                refused,
                "count",
                "the caps: 128 connections, 64 viewers",
            )
        )
        figures.append(Figure(SUITE, "/healthz failures during the flood", failures, "count"))
    held, closed = _half_sent(url)
    note = "then 408 and closed" if closed else "still open when the bench stopped waiting"
    figures.append(Figure(SUITE, "a half-sent request line held for", held, "s", note))
    return figures


def _healthz(url: str, count: int) -> list[float]:
    samples = []
    with httpx.Client(base_url=url, timeout=10) as http:
        for _ in range(count):
            started = time.perf_counter()
            http.get("/healthz").raise_for_status()
            samples.append(time.perf_counter() - started)
    return samples


@contextmanager
def _idle(url: str, count: int) -> Iterator[list[socket.socket]]:
    """``count`` connections that send nothing (from this machine: within every cap)."""
    port = int(url.rsplit(":", 1)[1])
    sockets: list[socket.socket] = []
    try:
        for _ in range(count):
            sockets.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        yield sockets
    finally:
        for sock in sockets:
            sock.close()


def _sheet_burst(url: str, count: int) -> tuple[list[float], dict[int, int]]:
    """``count`` requests for a sheet PDF at once (the first on a cold cache); ``/healthz``
    timed meanwhile; the answers' statuses counted."""
    statuses: dict[int, int] = {}
    lock = threading.Lock()

    def fetch() -> None:
        status = httpx.get(f"{url}/api/sheets/greenwood.pdf", timeout=60).status_code
        with lock:
            statuses[status] = statuses.get(status, 0) + 1

    threads = [threading.Thread(target=fetch, daemon=True) for _ in range(count)]
    for t in threads:
        t.start()
    samples: list[float] = []
    with httpx.Client(base_url=url, timeout=10) as http:
        while any(t.is_alive() for t in threads) or len(samples) < 5:
            started = time.perf_counter()
            http.get("/healthz").raise_for_status()
            samples.append(time.perf_counter() - started)
    for t in threads:
        t.join(timeout=60)
    return samples, statuses


def _own_address() -> str | None:
    """One of this machine's IPv4 addresses that is not loopback (the source of connections
    that the kiosk sees as another device's, the traffic staying on loopback), or None."""
    import fcntl
    import ipaddress
    import struct

    for _, name in socket.if_nameindex():
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            try:  # SIOCGIFADDR
                packed = fcntl.ioctl(
                    probe.fileno(), 0x8915, struct.pack("256s", name.encode()[:15])
                )
            except OSError:
                continue
        address = socket.inet_ntoa(packed[20:24])
        if not ipaddress.ip_address(address).is_loopback:
            return address
    return None


def _flood(url: str, source: str, count: int) -> tuple[int, int, list[float], int]:
    """``count`` live-stream requests from ``source`` left open (issue #14: 1,100 made the
    kiosk unanswerable); how many were opened and answered 503, ``/healthz`` meanwhile, and
    how many of those failed."""
    port = int(url.rsplit(":", 1)[1])
    request = f"GET /api/live HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    sockets: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = socket.socket()
            sock.settimeout(5)
            try:
                sock.bind((source, 0))
                sock.connect(("127.0.0.1", port))
                sock.sendall(request)
            except OSError:
                sock.close()
                continue
            sockets.append(sock)
        time.sleep(1.0)  # let the server answer the excess
        refused = 0
        for sock in sockets:
            sock.settimeout(0.01)
            try:
                answer = sock.recv(64)
            except OSError:
                continue  # held open: within the caps
            refused += answer.startswith(b"HTTP/1.1 503")
        samples, failures = [], 0
        with httpx.Client(base_url=url, timeout=5) as http:
            for _ in range(30):
                started = time.perf_counter()
                try:
                    http.get("/healthz").raise_for_status()
                    samples.append(time.perf_counter() - started)
                except httpx.HTTPError:
                    failures += 1
        return len(sockets), refused, samples or [float("nan")], failures
    finally:
        for sock in sockets:
            sock.close()


def _half_sent(url: str, give_up_s: float = 60.0) -> tuple[float, bool]:
    """Seconds from sending ``GET /heal`` (no end of line) to the server closing, and whether
    it did close within ``give_up_s``."""
    port = int(url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=give_up_s) as sock:
        sock.sendall(b"GET /heal")
        started = time.perf_counter()
        try:
            while sock.recv(4096):
                pass
        except TimeoutError:
            return time.perf_counter() - started, False
        return time.perf_counter() - started, True


def _percentiles(name: str, samples_s: list[float], unit: str) -> list[Figure]:
    ms = sorted(s * 1000 for s in samples_s)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    note = f"{len(ms)} runs"
    return [
        Figure(SUITE, f"{name} p50", statistics.median(ms), unit, note),
        Figure(SUITE, f"{name} p95", p95, unit, note),
    ]


@contextmanager
def serving(data_dir: Path, mqtt: str | None = None) -> Iterator[str]:
    """A `tablesight run` child process on a free port (reporting to the MQTT broker ``mqtt``
    when given); yields its URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [
        sys.executable,
        "-m",
        "kiosk.cli",
        "--data-dir",
        str(data_dir),
        "--lang",
        "en",
        "run",
        "--port",
        str(port),
    ]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "TABLESIGHT_SIMULATION": "false"}
    env["TABLESIGHT_GAME"] = "greenwood"  # a game asked for: else the kiosk waits for set-up
    if mqtt is not None:
        env["TABLESIGHT_MQTT__URL"] = mqtt
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise RuntimeError("tablesight run exited during start-up")
            try:
                httpx.get(f"{url}/healthz", timeout=1)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise RuntimeError("tablesight run did not answer within 30 s") from None
                time.sleep(0.05)
        yield url
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _http_load(url: str) -> float:
    started = time.perf_counter()
    with httpx.Client(base_url=url, timeout=10) as http:
        http.get("/").raise_for_status()
        for asset in ASSETS:
            http.get(asset).raise_for_status()
        with http.stream("GET", "/api/live") as stream:
            for line in stream.iter_lines():
                if line.startswith("data:"):
                    break
    return time.perf_counter() - started


def _browser_loads(url: str, count: int) -> list[float]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return []
    if chromium is None:
        return []
    samples = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=chromium, args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        try:
            for _ in range(count):
                context = browser.new_context()
                page = context.new_page()
                started = time.perf_counter()
                page.goto(url + "/")
                page.locator("#phase").filter(has_text="Dusk").wait_for()
                samples.append(time.perf_counter() - started)
                context.close()
        finally:
            browser.close()
    return samples


def _update_latency(url: str, viewers: int, count: int) -> tuple[list[float], int]:
    """Post a pass then an undo, ``count`` times; time each pass until every viewer has it.
    Returns the samples and how many changes the table made meanwhile."""
    seen: queue.Queue[tuple[int, float]] = queue.Queue()
    ready = threading.Barrier(viewers + 1)
    stop = threading.Event()

    def watch(index: int) -> None:
        first = True
        for kind, data in live_events(url):
            if kind == "snapshot" and first:
                first = False
                ready.wait()
            elif json.loads(data).get("passed_players") == [1]:  # a change, or a new snapshot
                seen.put((index, time.perf_counter()))
            if stop.is_set():
                return

    threads = [threading.Thread(target=watch, args=(i,), daemon=True) for i in range(viewers)]
    for t in threads:
        t.start()
    ready.wait(timeout=30)
    samples = []
    with httpx.Client(base_url=url, timeout=10) as http:
        start_seq = http.get("/api/status").json()["seq"]
        for _ in range(count):
            started = time.perf_counter()
            http.post("/api/move", json={"type": "pass", "seat": 0}).raise_for_status()
            last = max(seen.get(timeout=10)[1] for _ in range(viewers))
            samples.append(last - started)
            http.post("/api/undo").raise_for_status()
        stop.set()
        http.post("/api/menu", json={"open": False})  # one more event wakes the watchers to stop
        changes = http.get("/api/status").json()["seq"] - start_seq
    for t in threads:
        t.join(timeout=5)
    return samples, changes
