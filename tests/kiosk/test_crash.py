"""Pulling the power: a child appending moves is killed with SIGKILL at random moments.

On restart every move that was reported accepted is there and the database is healthy.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from kiosk.store import Store

CHILD = Path(__file__).with_name("crash_child.py")


def run_and_kill(db: Path, delay: float) -> dict[str, int]:
    """Start the child; once it has committed its first move, SIGKILL it ``delay`` s later."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    child = subprocess.Popen(
        [sys.executable, str(CHILD), str(db)], stdout=subprocess.PIPE, text=True, env=env
    )
    reported: dict[str, int] = {}
    first = threading.Event()

    def read() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            name, moves = line.split()
            reported[name] = int(moves)
            if moves != "0":
                first.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        if not first.wait(timeout=60):
            raise AssertionError("the child committed nothing")
        time.sleep(delay)  # a random moment to pull the power, not a timing assertion
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        reader.join(timeout=30)
    finally:
        child.kill()
    assert child.returncode == -signal.SIGKILL, "the child must be killed, not end by itself"
    return reported


def test_every_reported_move_survives_sigkill_at_random_moments(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    rng = random.Random(2026)
    for _ in range(6):
        reported = run_and_kill(db, delay=rng.uniform(0.0, 0.4))
        assert reported
        with Store.open(db) as store:  # opening runs quick_check and raises if damaged
            for name, moves in reported.items():
                assert len(store.load(name).session.moves) >= moves, name
    assert sqlite3.connect(db).execute("PRAGMA integrity_check").fetchone()[0] == "ok"
