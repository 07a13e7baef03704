"""The outbox: a table's events kept in SQLite until the broker has acknowledged them.

Each event gets the next sequence number of this outbox (SQLite's AUTOINCREMENT: never reused,
kept across restarts of the kiosk), so a receiver can put events in order and drop one it has
already seen. A row is deleted only when the broker acknowledged its message (PUBACK). The
outbox is bounded: beyond ``limit`` rows the oldest are dropped and counted (``dropped``), so a
broker away for days costs a bounded file, and the newest events (the game as it is now) are
kept. The file lives in the data folder (``mqtt-outbox.sqlite``).

Ended games' results wait here too, each once by its id, numbered in the order the games ended,
until the broker acknowledged them (they are few: never dropped).
"""

from __future__ import annotations

import sqlite3
import threading
import uuid
from collections.abc import Callable
from pathlib import Path

OUTBOX_FILE = "mqtt-outbox.sqlite"

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    payload TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS results (
    n INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    payload TEXT NOT NULL,
    sent INTEGER NOT NULL DEFAULT 0
);
"""
RESULTS_KEPT = 50
"""Results the broker acknowledged that are kept (a game resumed after it ended is known)."""


class Outbox:
    """Events waiting for the broker, in order; safe to use from several threads."""

    def __init__(self, path: Path, limit: int = 10_000) -> None:
        if limit < 1:
            raise ValueError("the outbox must hold at least one event")
        self.path = path
        self.limit = limit
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()  # a payload being made may read the meta (remember)
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)
        self.epoch = self._meta("epoch") or self._set_meta("epoch", uuid.uuid4().hex[:12])
        """Names this outbox's numbering: a receiver de-duplicates by (epoch, seq)."""

    def _meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def _set_meta(self, key: str, value: str) -> str:
        self._db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))
        return value

    def add(self, payload_of: Callable[[int], str]) -> int:
        """Keep one event; ``payload_of(seq)`` makes its text once its number is known.
        Returns the number. Drops (and counts) the oldest rows beyond the limit."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                cursor = self._db.execute("INSERT INTO events(payload) VALUES ('')")
                seq = int(cursor.lastrowid or 0)
                self._db.execute(
                    "UPDATE events SET payload = ? WHERE seq = ?",
                    (payload_of(seq), seq),
                )
                over = self._db.execute("SELECT COUNT(*) FROM events").fetchone()[0] - self.limit
                if over > 0:
                    self._db.execute(
                        "DELETE FROM events WHERE seq IN"
                        " (SELECT seq FROM events ORDER BY seq LIMIT ?)",
                        (over,),
                    )
                    self._set_meta("dropped", str(self._dropped() + over))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            return seq

    def after(self, seq: int, limit: int) -> list[tuple[int, str]]:
        """Up to ``limit`` waiting events numbered above ``seq``, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, payload FROM events WHERE seq > ? ORDER BY seq LIMIT ?",
                (seq, limit),
            ).fetchall()
        return [(int(s), str(p)) for s, p in rows]

    def delivered(self, seq: int) -> None:
        """The broker acknowledged event ``seq``: forget it."""
        with self._lock:
            self._db.execute("DELETE FROM events WHERE seq = ?", (seq,))

    def waiting(self) -> int:
        """How many events wait for the broker."""
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM events").fetchone()[0])

    def last_seq(self) -> int:
        """The number of the newest event ever kept (0 before the first)."""
        with self._lock:
            row = self._db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'events'")
            found = row.fetchone()
        return 0 if found is None else int(found[0])

    @property
    def dropped(self) -> int:
        """How many events were dropped, oldest first, because the outbox was full."""
        with self._lock:
            return self._dropped()

    def _dropped(self) -> int:
        return int(self._meta("dropped") or 0)

    def remember(self, key: str, make: Callable[[], str]) -> str:
        """The value kept under ``key`` in the outbox's file, made by ``make()`` the first
        time (e.g. when a game was first seen ended, so a restart says the same)."""
        with self._lock:
            return self._meta(key) or self._set_meta(key, make())

    def count(self, key: str) -> int:
        """Add one to the counter kept under ``key`` in the outbox's file (kept across restarts
        of the kiosk); returns its new value (1 the first time)."""
        with self._lock:
            value = int(self._meta(key) or 0) + 1
            self._set_meta(key, str(value))
            return value

    def keep_result(self, result_id: str, payload_of: Callable[[int], str]) -> bool:
        """Keep an ended game's result until the broker has it, once: ``payload_of(n)`` makes
        its text with its number (1, 2, 3 … in the order games ended). False when it was kept
        before (the same game seen ended again)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                cursor = self._db.execute(
                    "INSERT OR IGNORE INTO results(id, payload) VALUES (?, '')", (result_id,)
                )
                if not cursor.rowcount:
                    self._db.execute("ROLLBACK")
                    return False
                n = int(cursor.lastrowid or 0)
                self._db.execute("UPDATE results SET payload = ? WHERE n = ?", (payload_of(n), n))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            return True

    def results_after(self, n: int) -> list[tuple[int, str]]:
        """The results waiting for the broker numbered above ``n``, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT n, payload FROM results WHERE sent = 0 AND n > ? ORDER BY n", (n,)
            ).fetchall()
        return [(int(k), str(p)) for k, p in rows]

    def result_delivered(self, n: int) -> None:
        """The broker acknowledged result ``n``; only the newest ``RESULTS_KEPT`` are kept."""
        with self._lock:
            self._db.execute("UPDATE results SET sent = 1 WHERE n = ?", (n,))
            self._db.execute(
                "DELETE FROM results WHERE sent = 1 AND n <= (SELECT MAX(n) FROM results) - ?",
                (RESULTS_KEPT,),
            )

    def delivered_result(self) -> str | None:
        """The newest result when the broker has every one (to retain it again on a broker
        that may have lost it), else None."""
        with self._lock:
            row = self._db.execute(
                "SELECT payload, sent FROM results ORDER BY n DESC LIMIT 1"
            ).fetchone()
            waiting = self._db.execute("SELECT 1 FROM results WHERE sent = 0 LIMIT 1").fetchone()
        return None if row is None or waiting is not None else str(row[0])

    def close(self) -> None:
        """Close the file (idempotent)."""
        with self._lock:
            self._db.close()
