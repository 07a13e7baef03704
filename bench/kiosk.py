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

Heavy GETs under viewers (issue #40), on `tablesight run` with its embedded simulation (the
README's first command: a camera to read): with 200 live viewers open, 8 clients from another
device (not paired) ask for the expensive answers (a sticker sheet, the calibration picture,
the camera's reading) for 10 s; how many were answered 200 and refused 503, and ``/healthz``
meanwhile. The same load is put on the previous release (``PREVIOUS_RELEASE``, or ``--against
REV``: a git worktree of it served by this Python), in the same run, so the two figures are
compared as a ratio on one machine at one moment, never with a figure of another day.
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
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx

from bench import Figure, live_events

SUITE = "kiosk"
ASSETS = ("/static/common.js", "/static/table.js", "/static/style.css")
PREVIOUS_RELEASE = "3df1e0f"
"""The last commit that landed before this one's work (CI passed on it): the release the heavy
GETs are compared with. Set it to the newest landed commit at each release."""
HEAVY = ("/api/sheets/greenwood.svg", "/api/calibration.png", "/api/camera/reading")
"""The expensive answers (``door.heavy``): drawn a few at a time, 503 beyond."""


def run(quick: bool, against: str | None = PREVIOUS_RELEASE) -> list[Figure]:
    """Measure and return the figures (``quick``: fewer repetitions); the heavy GETs also on
    the release ``against`` (a git revision; None: this tree only)."""
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
    figures += _heavy_gets(against)
    return figures


@contextmanager
def _worktree(revision: str) -> Iterator[Path | None]:
    """A git worktree of ``revision`` of this checkout (None, said on stderr, when this is not
    a git checkout or the revision is unknown); removed afterwards."""
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        added = subprocess.run(
            ["git", "-C", str(root), "worktree", "add", "--detach", str(tree), revision],
            capture_output=True,
            text=True,
        )
        if added.returncode != 0:
            why = (added.stderr.strip().splitlines() or ["git failed"])[-1]
            print(f"bench kiosk: release {revision} not measured: {why}", file=sys.stderr)
            yield None
            return
        try:
            yield tree
        finally:
            subprocess.run(
                ["git", "-C", str(root), "worktree", "remove", "--force", str(tree)],
                capture_output=True,
            )


def _heavy_gets(against: str | None, viewers: int = 200, rounds: int = 5) -> list[Figure]:
    """This tree's kiosk and the release ``against``'s, both running with their simulation and
    ``viewers`` live viewers each; in turns of 2 s (``rounds`` each), 8 clients from another
    device ask one of them for ``HEAVY``: its answers counted by status, its ``/healthz`` timed
    meanwhile. Taking turns shares out whatever else the machine does between the two."""
    source = _own_address()
    if source is None:
        print("bench kiosk: no non-loopback address here; heavy GETs skipped", file=sys.stderr)
        return []
    with ExitStack() as stack:
        kiosks = {"this tree": stack.enter_context(_simulated(None))}
        tree = stack.enter_context(_worktree(against)) if against else None
        if tree is not None:
            kiosks[f"release {against}"] = stack.enter_context(_simulated(tree))
        for url in kiosks.values():
            stack.enter_context(_viewers(url, viewers))
        counts: dict[str, dict[int, int]] = {which: {200: 0, 503: 0} for which in kiosks}
        samples: dict[str, list[float]] = {which: [] for which in kiosks}
        for _ in range(rounds):
            for which, url in kiosks.items():
                _heavy_turn(url, source, 2.0, counts[which], samples[which])
    seconds = 2 * rounds
    note = f"{viewers} viewers, 8 clients from another device, {seconds} s in turns of 2 s"
    figures = []
    for which in kiosks:
        figures += [
            Figure(SUITE, f"heavy GETs answered {status or 'never'}, {which}", n, "count", note)
            for status, n in sorted(counts[which].items())
        ]
        figures += _percentiles(f"/healthz under the heavy GETs, {which}", samples[which], "ms")
    return figures


@contextmanager
def _simulated(tree: Path | None) -> Iterator[str]:
    """`tablesight run` with its simulation, of this checkout or of ``tree``; its URL."""
    with (
        tempfile.TemporaryDirectory() as data,
        serving(Path(data), source=tree, simulation=True) as url,
    ):
        yield url


@contextmanager
def _viewers(url: str, count: int) -> Iterator[None]:
    """``count`` live viewers of ``url`` (from this machine) open meanwhile."""
    port = int(url.rsplit(":", 1)[1])
    request = f"GET /api/live HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    sockets: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(request)
            sockets.append(sock)
        yield
    finally:
        for sock in sockets:
            sock.close()


def _heavy_turn(
    url: str, source: str, seconds: float, statuses: dict[int, int], samples: list[float]
) -> None:
    """8 clients from ``source`` ask ``url`` for ``HEAVY`` for ``seconds``: their answers
    counted into ``statuses`` (0: none), ``/healthz`` timed into ``samples`` meanwhile."""
    lock = threading.Lock()
    stop = threading.Event()

    def ask(offset: int) -> None:
        transport = httpx.HTTPTransport(local_address=source)
        with httpx.Client(base_url=url, timeout=30, transport=transport) as http:
            n = offset
            while not stop.is_set():
                try:
                    status = http.get(HEAVY[n % len(HEAVY)]).status_code
                except httpx.HTTPError:
                    status = 0
                n += 1
                with lock:
                    statuses[status] = statuses.get(status, 0) + 1

    clients = [threading.Thread(target=ask, args=(i,), daemon=True) for i in range(8)]
    for t in clients:
        t.start()
    ends = time.monotonic() + seconds
    with httpx.Client(base_url=url, timeout=10) as http:
        while time.monotonic() < ends:
            started = time.perf_counter()
            http.get("/healthz").raise_for_status()
            samples.append(time.perf_counter() - started)
            time.sleep(0.05)
    stop.set()
    for t in clients:
        t.join(timeout=60)


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
def serving(
    data_dir: Path, mqtt: str | None = None, source: Path | None = None, simulation: bool = False
) -> Iterator[str]:
    """A `tablesight run` child process on a free port (reporting to the MQTT broker ``mqtt``
    when given; the code of the checkout ``source``, else this one's; with its embedded
    simulation, as the README's first command runs it, when ``simulation``); yields its URL."""
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
    path = [str(source)] if source is not None else []
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([*path, *sys.path])}
    if not simulation:
        env["TABLESIGHT_SIMULATION"] = "false"
        env["TABLESIGHT_GAME"] = "greenwood"  # a game asked for: else the kiosk waits for set-up
    if mqtt is not None:
        env["TABLESIGHT_MQTT__URL"] = mqtt
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=source
    )
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
