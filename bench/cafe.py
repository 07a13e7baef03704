"""`tablesight bench cafe`: 50 simulated tables in one process against a local Mosquitto.

Each table is real (its saved game in SQLite, a ``Table``, a publisher with its outbox) and
plays random legal moves from the console. A receiver subscribed to every table's events
counts them; a real `tablesight cafe` process serves the overview, read over its live stream.

Printed: events per second through the broker (from the first move to the receiver holding
every event), the overview's lag from a table's move to its tile on the live stream (p50/p95),
the overview's memory with every table known, and the replay of the outboxes after the broker
is killed and started again (events held, delivered, duplicates, lost, and how long it took,
which includes the clients' reconnect back-off).

Then several sites: 100 tables at a site whose Mosquitto is bridged to the centre's (through a
relay the bench cuts), a real `tablesight cafe` at the centre. Printed: the lag from a move at
the site to its tile at the centre (p50/p95), and, with the bridge cut while every table ends a
game, the results held and the time from the bridge's return to every one of them at the
centre's overview (each once).
"""

from __future__ import annotations

import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bench import Figure

SUITE = "cafe"
TABLES = 50
BRIDGED_TABLES = 100
GAMES = ("greenwood", "dont_starve", "stonesaga")


def _progress(message: str) -> None:
    print(f"  bench cafe: {message}", file=sys.stderr, flush=True)


def _wait(check: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"bench cafe: waited {timeout:g} s for {what}")
        time.sleep(0.005)


class _Receiver:
    """Every event of every table, with when it arrived (a lasting session, QoS 1)."""

    def __init__(self, port: int) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.got: list[tuple[str, int]] = []
        self.lock = threading.Lock()
        self.ready = threading.Event()
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id="bench-receiver", clean_session=False
        )
        client.reconnect_delay_set(min_delay=1, max_delay=2)
        client.on_connect = lambda c, *a: c.subscribe("tablesight/+/events", qos=1)
        client.on_subscribe = lambda *a: self.ready.set()
        client.on_message = self._message
        client.connect("127.0.0.1", port)
        client.loop_start()
        self.client = client

    def _message(self, client: Any, userdata: Any, message: Any) -> None:
        data = json.loads(message.payload)
        with self.lock:
            self.got.append((data["table"], int(data["seq"])))

    def count(self) -> int:
        with self.lock:
            return len(self.got)

    def distinct(self) -> int:
        """How many different events arrived (a repeat of one counts once)."""
        with self.lock:
            return len(set(self.got))

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


class _Tiles:
    """The overview's live stream, read in a thread: when each table's tile showed each
    number of moves."""

    def __init__(self, url: str) -> None:
        self.seen: dict[tuple[str, int | str], float] = {}
        self.tables: set[str] = set()
        self.lock = threading.Lock()
        self.url = url
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        import httpx

        try:
            self._stream(httpx)
        except httpx.HTTPError:  # the overview stopped at the end of the bench
            return

    def _stream(self, httpx: Any) -> None:
        with httpx.Client(timeout=None) as http, http.stream("GET", f"{self.url}/api/live") as s:
            kind = ""
            for line in s.iter_lines():
                if line.startswith("event:"):
                    kind = line.split(":", 1)[1].strip()
                elif line.startswith("data:"):
                    now = time.perf_counter()
                    data = json.loads(line[5:])
                    tiles = (
                        data["tables"] if kind == "snapshot" else [data] if kind == "table" else []
                    )
                    with self.lock:
                        for tile in tiles:
                            self.tables.add(tile["name"])
                            if tile.get("state"):
                                self.seen.setdefault((tile["name"], tile["state"]["moves"]), now)
                                self.seen.setdefault((tile["name"], tile["state"]["save"]), now)

    def when(self, table: str, moves: int | str) -> float | None:
        with self.lock:
            return self.seen.get((table, moves))


def _start_cafe(folder: Path, broker_url: str) -> tuple[subprocess.Popen[bytes], str]:
    from cafe.broker import free_port

    port = free_port()
    cmd = [sys.executable, "-m", "kiosk.cli", "--data-dir", str(folder), "--lang", "en"]
    cmd += ["cafe", "--mqtt", broker_url, "--port", str(port)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen(cmd, stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL, env=env)
    url = f"http://127.0.0.1:{port}"

    def up() -> bool:
        try:
            urllib.request.urlopen(f"{url}/healthz", timeout=1).close()
            return True
        except OSError:
            return False

    _wait(up, 30, "tablesight cafe to answer")
    return proc, url


def _results(url: str) -> list[dict[str, Any]]:
    """The results the overview keeps (``/results.json``)."""
    with urllib.request.urlopen(f"{url}/results.json", timeout=10) as answer:
        rows: list[dict[str, Any]] = json.load(answer)["results"]
    return rows


def bridged(quick: bool = False) -> list[Figure]:
    """100 tables at a site bridged to the centre: tile lag at the centre, and the results held
    by a cut bridge delivered when it is back."""
    from cafe.broker import Bridge, Gate, Mosquitto
    from cafe.simulate import SimulatedTable

    count = 20 if quick else BRIDGED_TABLES
    samples = 30 if quick else 200
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory(prefix="bench-cafe-sites-") as tmp:
        root = Path(tmp)
        centre = Mosquitto(root / "centre").start()
        gate = Gate(centre.port).open()
        site = Mosquitto(root / "site", bridge=Bridge("north", gate.port)).start()
        cafe, url = _start_cafe(root / "cafe", centre.url)
        sims: list[Any] = []
        try:
            _progress(f"sites: {count} tables at a site bridged to the centre")
            for i in range(count):
                name = f"table-{i + 1}"
                sim = SimulatedTable(
                    name, root / name, site.url, game="dont_starve", seed=i, site="north"
                )
                sims.append(sim.start())
            _wait(lambda: all(s.publisher.connected.is_set() for s in sims), 60, "every table")
            tiles = _Tiles(url)
            _wait(lambda: len(tiles.tables) == count, 60, "every tile at the centre")

            _progress(f"sites: lag at the centre, {samples} moves one at a time")
            lags = _lags_ms(sims, tiles, samples)
            detail = f"{count} tables at the site, one bridge, the centre's overview"
            figures.append(
                Figure(SUITE, "sites: lag p50 (move → tile at the centre)", _pct(lags, 50), "ms")
            )
            figures.append(
                Figure(
                    SUITE,
                    "sites: lag p95 (move → tile at the centre)",
                    _pct(lags, 95),
                    "ms",
                    detail,
                )
            )

            for sim in sims:  # each table in a game under way
                if sim.table.saved.session.state.outcome is not None:
                    sim.next_game()
            before = sum(sim.games - 1 for sim in sims)  # the games ended so far
            _wait(lambda: len(_results(url)) >= before, 60, "the results so far at the centre")
            _progress("sites: the bridge is cut; every table ends a game")
            gate.cut()
            with ThreadPoolExecutor(8) as pool:
                list(pool.map(lambda s: s.play_to_end(), sims))
            _wait(
                lambda: not any(s.publisher.outbox.results_after(0) for s in sims),
                120,
                "the site's broker to hold every result",
            )
            held = sum(s.table.saved.session.state.outcome is not None for s in sims)
            arrived = len(_results(url)) - before
            _progress(f"sites: {held} results held at the site; the bridge comes back")
            gate.open()
            began = time.perf_counter()
            _wait(lambda: len(_results(url)) >= before + held, 120, "every result at the centre")
            back = time.perf_counter() - began
            rows = _results(url)
            ids = [r["id"] for r in rows]
            by_table: dict[str, list[int]] = defaultdict(list)
            for r in rows:
                by_table[r["table"]].append(r["number"])
            figures += [
                Figure(
                    SUITE,
                    "sites: results held by the cut bridge",
                    held,
                    "results",
                    f"one game each at {count} tables; {arrived} crossed while it was cut",
                ),
                Figure(
                    SUITE,
                    "sites: bridge back → every held result at the centre",
                    back,
                    "s",
                    "includes the bridge's reconnect (restart_timeout 1 4)",
                ),
                Figure(
                    SUITE,
                    "sites: results kept twice",
                    len(ids) - len(set(ids)),
                    "results",
                    "the overview keeps each id once",
                ),
                Figure(
                    SUITE,
                    "sites: results out of order",
                    sum(1 for v in by_table.values() for a, b in itertools.pairwise(v) if b <= a),
                    "results",
                    "per table, by when they ended",
                ),
                Figure(
                    SUITE,
                    "sites: results lost",
                    before + held - len(set(ids)),
                    "results",
                ),
            ]
        finally:
            for sim in sims:
                sim.stop()
            cafe.terminate()
            cafe.wait(timeout=30)
            site.stop()
            gate.cut()
            centre.stop()
    return figures


def _rss_mib(pid: int) -> tuple[float, float]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def _move(sim: Any) -> None:
    """One move; a table whose game ended starts a new one (as a café table would)."""
    if sim.move() is None:
        sim.next_game()


def _lags_ms(sims: list[Any], tiles: _Tiles, samples: int) -> list[float]:
    """``samples`` moves, one at a time, on tables taken in a spread order: for each, the
    milliseconds until the overview's tile of that table shows it."""
    lags = []
    for k in range(samples):
        sim = sims[(k * 7) % len(sims)]
        start = time.perf_counter()
        _move(sim)
        moves = len(sim.table.saved.session.moves)
        # a move that began a new game shows as the new game's save, with no move yet
        key = (sim.name, moves) if moves else (sim.name, sim.table.saved.name)
        _wait(lambda key=key: tiles.when(*key) is not None, 30, "the tile")
        lags.append(((tiles.when(*key) or start) - start) * 1000)
    return lags


def _flip(sim: Any, times: int) -> None:
    """Change the camera's link back and forth (an event each, no game work)."""
    for k in range(times):
        sim.table.set_link("camera", "lost" if k % 2 == 0 else "ok", "bench")


def _pct(values: list[float], q: int) -> float:
    return (
        statistics.quantiles(values, n=100, method="inclusive")[q - 1]
        if len(values) > 1
        else values[0]
    )


def run(quick: bool = False) -> list[Figure]:
    """Measure the café; returns the figures."""
    from cafe.broker import Mosquitto, mosquitto_path
    from cafe.simulate import SimulatedTable

    if mosquitto_path() is None:
        _progress("not run: Mosquitto is not installed (apt-get install -y mosquitto)")
        return []
    moves_each = 10 if quick else 40
    lag_samples = 30 if quick else 200
    held_each = 5 if quick else 20
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory(prefix="bench-cafe-") as tmp:
        root = Path(tmp)
        broker = Mosquitto(root / "broker").start()
        cafe, url = _start_cafe(root / "cafe", broker.url)
        sims: list[Any] = []
        receiver = None
        try:
            receiver = _Receiver(broker.port)
            _wait(receiver.ready.is_set, 10, "the receiver's subscription")
            _progress(f"{TABLES} tables start")
            for i in range(TABLES):
                sim = SimulatedTable(
                    f"table-{i + 1}", root / f"t{i + 1}", broker.url, game=GAMES[i % 3], seed=i
                )
                sims.append(sim.start())
            _wait(lambda: all(s.publisher.connected.is_set() for s in sims), 60, "every table")
            tiles = _Tiles(url)
            _wait(lambda: len(tiles.tables) == TABLES, 60, "every tile on the overview")

            # --- throughput: every table plays at once --------------------------------------
            _progress(f"throughput: {TABLES} tables × {moves_each} moves")
            before = receiver.count()
            began = time.perf_counter()

            def play(sim: Any) -> None:
                for _ in range(moves_each):
                    _move(sim)

            with ThreadPoolExecutor(8) as pool:
                list(pool.map(play, sims))
            made = TABLES * moves_each  # each move (or new game) is one event
            _wait(lambda: receiver.count() - before >= made, 120, "every event at the receiver")
            seconds = time.perf_counter() - began
            figures.append(
                Figure(
                    SUITE,
                    "events through the broker, moves",
                    made / seconds,
                    "events/s",
                    f"{TABLES} tables, {made} events: table → outbox → Mosquitto → receiver",
                )
            )

            # --- throughput of the publishers and the broker alone: link changes --------------
            flips = moves_each * 2
            _progress(f"throughput: {TABLES} tables × {flips} link changes")
            before = receiver.count()
            began = time.perf_counter()
            with ThreadPoolExecutor(8) as pool:
                list(pool.map(lambda s: _flip(s, flips), sims))
            made = TABLES * flips  # each change of the link is one event
            _wait(lambda: receiver.count() - before >= made, 120, "every event at the receiver")
            seconds = time.perf_counter() - began
            figures.append(
                Figure(
                    SUITE,
                    "events through the broker, no game work",
                    made / seconds,
                    "events/s",
                    f"{made} camera-link changes: no move to check or save",
                )
            )

            # --- lag: a move, until its tile shows it ------------------------------------
            _progress(f"lag: {lag_samples} moves, one at a time")
            ms = _lags_ms(sims, tiles, lag_samples)
            figures.append(Figure(SUITE, "overview lag p50 (move → tile)", _pct(ms, 50), "ms"))
            figures.append(Figure(SUITE, "overview lag p95 (move → tile)", _pct(ms, 95), "ms"))

            rss, peak = _rss_mib(cafe.pid)
            figures.append(
                Figure(
                    SUITE,
                    "overview memory",
                    rss,
                    "MiB",
                    f"RSS with {TABLES} tables; peak {peak:.1f} MiB",
                )
            )

            # --- outbox replay after the broker is killed ---------------------------------
            _progress("replay: the broker is killed; the tables play on")
            db = broker.folder / "mosquitto.db"
            _wait(
                lambda: receiver.distinct() >= sum(s.publisher.outbox.last_seq() for s in sims),
                30,
                "every event so far at the receiver",
            )
            quiet = time.time()  # every event so far delivered: the next autosave knows it
            _wait(lambda: db.is_file() and db.stat().st_mtime > quiet, 10, "the broker's autosave")
            settled = receiver.count()
            sent_before = {sim.name: sim.publisher.outbox.last_seq() for sim in sims}
            broker.kill()
            _wait(
                lambda: not any(s.publisher.connected.is_set() for s in sims),
                30,
                "the tables to notice",
            )
            for sim in sims:
                for _ in range(held_each):
                    _move(sim)
            _wait(
                lambda: sum(s.publisher.waiting() for s in sims) >= TABLES * held_each,
                30,
                "the outboxes",
            )
            held = sum(s.publisher.waiting() for s in sims)
            _progress(f"replay: {held} events held; the broker starts again")
            broker.start()
            began = time.perf_counter()
            _wait(
                lambda: sum(s.publisher.waiting() for s in sims) == 0, 120, "the outboxes to empty"
            )
            total = sum(s.publisher.outbox.last_seq() for s in sims)
            _wait(lambda: receiver.distinct() >= total, 120, "every event at the receiver")
            replay = time.perf_counter() - began
            with receiver.lock:
                got = list(receiver.got)
            seen: dict[str, list[int]] = defaultdict(list)
            for table, seq in got:
                seen[table].append(seq)
            duplicates = len(got) - sum(len(set(v)) for v in seen.values())
            again = Counter(got)
            stale = sum(n - 1 for (t, q), n in again.items() if n > 1 and q <= sent_before[t])
            resent = sum(n - 1 for (t, q), n in again.items() if n > 1 and q > sent_before[t])
            first: dict[str, list[int]] = defaultdict(list)
            for table, seq in dict.fromkeys(got):  # each event at its first arrival
                first[table].append(seq)
            disorder = sum(1 for v in first.values() for a, b in itertools.pairwise(v) if b <= a)
            lost = sum(
                len(set(range(1, s.publisher.outbox.last_seq() + 1)) - set(seen[s.name]))
                for s in sims
            )
            out_of_order = sum(1 for v in seen.values() for a, b in itertools.pairwise(v) if b <= a)
            delivered = len(got) - settled
            figures += [
                Figure(
                    SUITE,
                    "replay: events held",
                    held,
                    "events",
                    f"{held_each} moves × {TABLES} tables while the broker was down",
                ),
                Figure(SUITE, "replay: delivered", delivered, "events"),
                Figure(
                    SUITE,
                    "replay: duplicates at the receiver",
                    duplicates,
                    "events",
                    "QoS 1 is at least once; receivers drop repeats by seq (docs/mqtt.md)",
                ),
                Figure(
                    SUITE,
                    "replay: of those, sent before the broker died",
                    stale,
                    "events",
                    "delivered, then again by the broker from its last autosave",
                ),
                Figure(
                    SUITE,
                    "replay: of those, held while it was down",
                    resent,
                    "events",
                    "published twice by a table",
                ),
                Figure(
                    SUITE,
                    "replay: out of order, first arrivals",
                    disorder,
                    "events",
                    "what a receiver that drops repeats sees",
                ),
                Figure(SUITE, "replay: lost", lost, "events", "over the whole run"),
                Figure(SUITE, "replay: out of order", out_of_order, "events"),
                Figure(
                    SUITE,
                    "replay: broker back → all delivered",
                    replay,
                    "s",
                    "includes the reconnect back-off (1–16 s)",
                ),
            ]
        finally:
            for sim in sims:
                sim.stop()
            if receiver is not None:
                receiver.close()
            cafe.terminate()
            cafe.wait(timeout=30)
            broker.stop()
    return figures + bridged(quick)
