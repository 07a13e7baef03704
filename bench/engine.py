"""`tablesight bench engine`: moves per second (pure, and with the SQLite save), resume time,
and the time to compute the players' console offers over every state of the example games.

A small benchmark game that never ends (one clockwise phase with a counting move) measures the
core itself: legality, the flow driver, the event log. Its figures are compared as ratios within
one run (persisted ÷ pure), never against a fixed time.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench import Figure
from bench.counter import COUNTER, OPTIONS, Tick
from bench.resume import resume_figures
from engine.core import (
    Session,
    find_game,
    move_from_dict,
    offers,
)
from kiosk.store import Store

SAVED_ROUNDS = 3
"""Rounds of persisted moves, reported as their median: each move is one commit, whose fsync
varies with what else the disk is doing."""


def _ticks(n: int) -> list[Tick]:
    return [Tick(seat=i % 4) for i in range(n)]


def _progress(message: str) -> None:
    print(f"  bench engine: {message}", file=sys.stderr, flush=True)


def run(quick: bool = False) -> list[Figure]:
    """Measure and return the engine figures."""
    pure_n, saved_n, resume_n = (2_000, 200, 1_000) if quick else (20_000, 2_000, 10_000)
    figures: list[Figure] = []

    _progress(f"{pure_n} moves, validate + apply, in memory")
    session = Session(COUNTER, OPTIONS)
    began = time.perf_counter()
    for move in _ticks(pure_n):
        session.submit(move)
    pure_rate = pure_n / (time.perf_counter() - began)
    figures.append(Figure("engine", "validate+apply", pure_rate, "moves/s"))

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.sqlite"
        _progress(
            f"{SAVED_ROUNDS} × {saved_n} moves, check once + commit + apply (WAL, synchronous=FULL)"
        )
        with Store.open(path) as store:
            saved = store.new_game("bench", COUNTER.name, OPTIONS)
            rates = []
            for _ in range(SAVED_ROUNDS):
                began = time.perf_counter()
                for move in _ticks(saved_n):
                    saved.submit(move)
                rates.append(saved_n / (time.perf_counter() - began))
        saved_rate = statistics.median(rates)
        note = f"median of {SAVED_ROUNDS} × {saved_n}, {min(rates):,.0f}–{max(rates):,.0f}"
        figures.append(Figure("engine", "validate+apply+persist", saved_rate, "moves/s", note))
        figures.append(
            Figure("engine", "persist cost ratio", pure_rate / saved_rate, "x", "pure ÷ persisted")
        )

        _progress(f"writing a {resume_n}-move saved game, then resuming it")
        with Store.open(path) as store:
            store.new_game("long", COUNTER.name, OPTIONS)
            _bulk_log(store, "long", _ticks(resume_n))
        began = time.perf_counter()
        with Store.open(path) as store:
            resumed = store.load("long")
        resume_s = time.perf_counter() - began
        assert resumed.session.state.data == resume_n
        figures.append(
            Figure("engine", f"resume a {resume_n}-move game", resume_s * 1000, "ms", "open+replay")
        )

    figures.extend(resume_figures(quick))
    figures.extend(offer_figures(repeat=1 if quick else 5))
    return figures


EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def offer_figures(repeat: int = 5) -> list[Figure]:
    """p50/p95 of computing every offer of a state (the console's answer to a touch), over every
    state of the example games in docs/examples, each state timed ``repeat`` times."""
    files = sorted(EXAMPLES.glob("*.jsonl"))
    if not files:
        _progress("no docs/examples here (an installed copy): offers not measured")
        return []
    timings: list[float] = []
    states = 0
    for path in files:
        lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        head = json.loads(lines[0])
        game = find_game(path.stem.split("-")[0])
        session = Session(game, head.get("setup"), int(head.get("seed", 0)))
        _progress(f"offers at every state of {path.name}")
        for line in [*lines[1:], None]:
            states += 1
            for _ in range(repeat):
                began = time.perf_counter()
                offers(game, session.state)
                timings.append((time.perf_counter() - began) * 1000)
            if line is not None:
                session.submit(move_from_dict(json.loads(line)))
    cuts = statistics.quantiles(timings, n=20)
    note = f"{states} states of {len(files)} example games"
    return [
        Figure("engine", "offers p50", statistics.median(timings), "ms", note),
        Figure("engine", "offers p95", cuts[18], "ms", note),
        Figure("engine", "offers max", max(timings), "ms", note),
    ]


def _bulk_log(store: Store, name: str, moves: list[Tick]) -> None:
    """Write a long log in one transaction (setting up the resume figure, not measured)."""
    store.append_moves(name, list(moves))
