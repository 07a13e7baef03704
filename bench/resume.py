"""Resume time of long saved games, with and without snapshots (part of `bench engine`).

No game of the three reaches 100,000 moves (random walks end after 2–150 moves; undo and redo
lengthen the log but not the game), so the long games are the benchmark's never-ending counting
game (bench.counter). Opening is timed as the kiosk does it: ``Store.open`` +
``Store.load`` + ``Table(saved)`` (which rebuilds the screen's memory). "without snapshots" is
the save with its snapshots deleted (what every resume was before schema 3); "with snapshots" has
its newest snapshot 128 entries before the end, half the cadence (``kiosk.store.SNAPSHOT_EVERY``).
"""

from __future__ import annotations

import sqlite3
import sys
import tempfile
import time
from pathlib import Path

from bench import Figure
from bench.counter import COUNTER, OPTIONS, Tick
from kiosk.store import Store
from kiosk.table import Table

TAIL = 128


def _progress(message: str) -> None:
    print(f"  bench engine: {message}", file=sys.stderr, flush=True)


def _append_ticks(path: Path, name: str, first: int, count: int) -> None:
    """Append ``count`` ticks to the log in one transaction (setting up, not measured)."""
    with Store.open(path) as store:
        store.append_moves(name, [Tick(seat=i % 4) for i in range(first, first + count)])


def _open(path: Path, name: str) -> tuple[float, int]:
    began = time.perf_counter()
    with Store.open(path) as store:
        table = Table(store.load(name))
        seconds = time.perf_counter() - began
        return seconds, len(table.saved.session.moves)


def _best(path: Path, name: str, moves: int, repeat: int, drop_snapshots: bool) -> float:
    times = []
    for _ in range(repeat):
        if drop_snapshots:
            conn = sqlite3.connect(path)
            with conn:
                conn.execute("DELETE FROM snapshots")
            conn.close()
        seconds, got = _open(path, name)
        assert got == moves, (got, moves)
        times.append(seconds)
    return min(times)


def check_figures(path: Path, moves: int, repeat: int) -> list[Figure]:
    """What opening a save spends on SQLite's own checks (part of every open above):
    ``PRAGMA integrity_check`` (what the store runs up to ``FULL_CHECK_MAX_BYTES``) and
    ``quick_check`` (which misses a damaged index), best of ``repeat``."""
    size = f"{path.stat().st_size / 2**20:.1f} MB file, best of {repeat}"
    figures = []
    for pragma in ("integrity_check", "quick_check"):
        times = []
        for _ in range(repeat):
            conn = sqlite3.connect(path)
            began = time.perf_counter()
            assert conn.execute(f"PRAGMA {pragma}").fetchone()[0] == "ok"
            times.append(time.perf_counter() - began)
            conn.close()
        name = pragma.replace("_", " ")
        best = min(times) * 1000
        figures.append(Figure("engine", f"{name}, {moves}-move save", best, "ms", size))
    return figures


def resume_figures(quick: bool = False) -> list[Figure]:
    """Open saved games of 1,000 / 10,000 / 100,000 moves with and without snapshots."""
    sizes = (1_000, 10_000) if quick else (1_000, 10_000, 100_000)
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = Path(tmp) / f"resume-{n}.sqlite"
            with Store.open(path) as store:
                store.new_game("long", COUNTER.name, OPTIONS)
            _progress(f"opening a {n}-move saved game, without and with snapshots")
            _append_ticks(path, "long", 0, n - TAIL)
            _open(path, "long")  # the first open replays all and writes a snapshot
            _append_ticks(path, "long", n - TAIL, TAIL)
            repeat = 1 if n >= 100_000 else 3
            with_s = _best(path, "long", n, repeat, drop_snapshots=False)
            without = _best(path, "long", n, repeat, drop_snapshots=True)
            note = f"Store.load + Table, best of {repeat}"
            figures.append(
                Figure("engine", f"open {n}-move game, no snapshots", without * 1000, "ms", note)
            )
            figures.append(
                Figure("engine", f"open {n}-move game, snapshots", with_s * 1000, "ms", note)
            )
            if n >= 10_000:
                figures.extend(check_figures(path, n, repeat))
    return figures
