"""Saved games: an append-only SQLite log of accepted moves, undos and redos.

Every accepted move is committed (WAL, ``synchronous=FULL``) before its events are returned to
be announced, so pulling the power at any instant loses nothing that was shown as accepted. A game
resumes by replaying its log. A damaged database is renamed aside, never overwritten or emptied.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.core import (
    Event,
    Game,
    Move,
    Result,
    Session,
    find_game,
    move_from_json,
)
from kiosk.seats import Seat, default_seats, parse_seats, seats_json

SCHEMA_VERSION = 2

MIGRATIONS: dict[int, str] = {
    1: """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        seed INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE TABLE log (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('move', 'undo', 'redo')),
        move TEXT,
        at TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    """,
    2: "ALTER TABLE games ADD COLUMN seats TEXT NOT NULL DEFAULT '[]'",
}
"""Schema version → the SQL that brings the previous version to it."""


class StoreError(Exception):
    """Root of the errors of the saved-games store."""


class StoreDamagedError(StoreError):
    """The database file is damaged; it has been renamed aside (``moved_to``)."""

    def __init__(self, path: Path, moved_to: Path, detail: str) -> None:
        super().__init__(
            f"the saved-games database {path} is damaged ({detail}); it was set aside as"
            f" {moved_to.name} and nothing in it was changed"
        )
        self.path, self.moved_to = path, moved_to


class StoreVersionError(StoreError):
    """The database was written by a newer tablesight."""


class SaveNotFoundError(StoreError, LookupError):
    """No saved game has that name."""


@dataclass(frozen=True)
class SaveInfo:
    """One saved game as listed: name, game, when it was last changed, how many log entries."""

    name: str
    game: str
    updated_at: str
    entries: int


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Store:
    """The saved-games database. Use ``Store.open(path)``; close it (or use ``with``)."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self.path = path

    @classmethod
    def open(cls, path: Path) -> Store:
        """Open or create the database; StoreDamagedError after setting a damaged file aside."""
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open {path}: {exc}") from None
        try:
            cls._configure(conn)
            problem = conn.execute("PRAGMA quick_check").fetchone()[0]
            if problem != "ok":
                raise sqlite3.DatabaseError(problem)
            cls._migrate(conn, path)
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise StoreDamagedError(path, _set_aside(path), str(exc)) from None
        return cls(conn, path)

    @staticmethod
    def _configure(conn: sqlite3.Connection) -> None:
        mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        sync = conn.execute("PRAGMA synchronous").fetchone()[0]
        if mode.lower() != "wal" or sync != 2:
            raise StoreError(f"SQLite refused WAL/synchronous=FULL (got {mode}, {sync})")

    @staticmethod
    def _migrate(conn: sqlite3.Connection, path: Path) -> None:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreVersionError(
                f"{path} was written by a newer tablesight (schema {version}, this one knows"
                f" {SCHEMA_VERSION}); upgrade tablesight or use another --data-dir"
            )
        for target in range(version + 1, SCHEMA_VERSION + 1):
            script = f"BEGIN IMMEDIATE; {MIGRATIONS[target]}; PRAGMA user_version={target}; COMMIT;"
            try:
                conn.executescript(script)
            except sqlite3.Error:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

    def close(self) -> None:
        """Close the database (idempotent)."""
        self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- games ---------------------------------------------------------------------------

    def new_game(
        self,
        name: str,
        game: str,
        options: dict[str, Any] | None = None,
        seed: int = 0,
        seats: list[Seat] | None = None,
    ) -> SavedGame:
        """Create a saved game and return it, started; StoreError if the name is taken.

        ``seats`` are the players' names and colours (default: numbered, colours in order)."""
        session = Session(find_game(game), options, seed)
        options_json = json.dumps(_options_dict(session), sort_keys=True)
        seats = seats or default_seats(session.state.players)
        now = _now()
        try:
            with _transaction(self._conn):
                cur = self._conn.execute(
                    "INSERT INTO games (name, game, options, seed, seats, created_at, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        name,
                        session.game.name,
                        options_json,
                        seed,
                        json.dumps(seats_json(seats)),
                        now,
                        now,
                    ),
                )
        except sqlite3.IntegrityError:
            raise StoreError(f"a saved game called {name!r} exists already") from None
        return SavedGame(self, int(cur.lastrowid or 0), name, session, seats)

    def load(self, name: str | None = None) -> SavedGame:
        """Resume a saved game by replaying its log (the latest one when no name is given)."""
        row = self._conn.execute(
            "SELECT id, name, game, options, seed, seats FROM games"
            + (" WHERE name = ?" if name is not None else " ORDER BY updated_at DESC, id DESC")
            + " LIMIT 1",
            (name,) if name is not None else (),
        ).fetchone()
        if row is None:
            raise SaveNotFoundError(
                f"no saved game called {name!r}" if name else "there is no saved game"
            )
        game_id, name_, game, options, seed, seats = row
        session = Session(find_game(game), json.loads(options), seed)
        saved = SavedGame(
            self, game_id, name_, session, parse_seats(json.loads(seats), session.state.players)
        )
        for kind, move in self._conn.execute(
            "SELECT kind, move FROM log WHERE game_id = ? ORDER BY seq", (game_id,)
        ):
            saved._replay(kind, move)
        return saved

    def list(self) -> list[SaveInfo]:
        """Every saved game, the latest first."""
        rows = self._conn.execute(
            "SELECT g.name, g.game, g.updated_at, COUNT(l.seq) FROM games g"
            " LEFT JOIN log l ON l.game_id = g.id GROUP BY g.id"
            " ORDER BY g.updated_at DESC, g.id DESC"
        )
        return [SaveInfo(*row) for row in rows]

    def _append(self, game_id: int, kind: str, move: Move | None) -> None:
        now = _now()
        with _transaction(self._conn):
            (seq,) = self._conn.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM log WHERE game_id = ?", (game_id,)
            ).fetchone()
            self._conn.execute(
                "INSERT INTO log (game_id, seq, kind, move, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, kind, move.to_json() if move else None, now),
            )
            self._conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))


class SavedGame:
    """A session whose every accepted move, undo and redo is committed before it is announced."""

    def __init__(
        self,
        store: Store,
        game_id: int,
        name: str,
        session: Session,
        seats: list[Seat] | None = None,
    ) -> None:
        self.store, self.id, self.name, self.session = store, game_id, name, session
        self.seats = seats or default_seats(session.state.players)
        """The players' names and colours, as chosen at set-up."""

    @property
    def game(self) -> Game:
        """The game being played."""
        return self.session.game

    def submit(self, move: Move) -> Result:
        """Check the move; if accepted, commit it to the log, then apply it and return events."""
        verdict = self.session.check(move)
        if verdict.ok:
            self.store._append(self.id, "move", move)
        return self.session.submit(move)

    def undo(self) -> tuple[Event, ...]:
        """Take back the last move (committed first); NothingToUndoError if none."""
        if not self.session.moves:
            return self.session.undo()  # raises NothingToUndoError
        self.store._append(self.id, "undo", None)
        return self.session.undo()

    def redo(self) -> tuple[Event, ...]:
        """Apply the last undone move again (committed first); NothingToUndoError if none."""
        if not self.session.undone:
            return self.session.redo()  # raises NothingToUndoError
        self.store._append(self.id, "redo", None)
        return self.session.redo()

    def _replay(self, kind: str, move: str | None) -> None:
        if kind == "move" and move is not None:
            result = self.session.submit(move_from_json(move))
            if not result.accepted:
                raise StoreError(
                    f"saved game {self.name!r}: a logged move no longer replays"
                    f" ({result.verdict}); was it saved by another version?"
                )
        elif kind == "undo":
            self.session.undo()
        elif kind == "redo":
            self.session.redo()


def _options_dict(session: Session) -> dict[str, Any]:
    return asdict(session.options)


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE … COMMIT, rolled back on any error."""
    if conn.in_transaction:
        yield
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _set_aside(path: Path) -> Path:
    """Rename a damaged database (and its WAL and SHM files) next to itself; returns the name."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
        n += 1
    for suffix in ("", "-wal", "-shm"):
        src = Path(f"{path}{suffix}")
        if src.exists():
            src.rename(Path(f"{target}{suffix}"))
    return target
