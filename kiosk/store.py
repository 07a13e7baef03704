"""Saved games: an append-only SQLite log of accepted moves, undos and redos.

Every accepted move is committed (WAL, ``synchronous=FULL``) before its events are returned to
be announced, so pulling the power at any instant loses nothing that was shown as accepted. A
damaged database is renamed aside, never overwritten or emptied.

A game resumes from a snapshot of its state and replays only the log entries after it. Every
``SNAPSHOT_EVERY`` log entries the state is written into ``snapshots`` in the same transaction as
the next entry (no extra commit on a move; a failed snapshot write is rolled back to a savepoint
and only costs the snapshot). A snapshot is a cache, never the truth: it is used only if its
``prefix`` (SHA-256 of the save's identity and of every logged entry up to it, numbers included)
equals the hash of the log as it is read now, its ``engine`` key equals the fingerprint of this
engine and game code and of the codec, and its blob decodes to a state of this game with the
move count it claims. Anything else is ignored and the game is replayed from an older good
snapshot or from the start.

Codec: pickle (protocol 5), read back with an unpickler that resolves only classes of the
``engine`` package and of the game's own module. Pickle is acceptable here because the database
is the kiosk's own file in its data directory: whoever can write it can write the code next to
it; the restricted unpickler and the prefix check are there against damage and other versions,
not as a security boundary. The states are frozen dataclasses with frozensets, enums and tuples,
which pickle round-trips exactly (equality checked by the tests) without a codec per game.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import logging
import pickle
import sqlite3
import sys
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
    State,
    find_game,
    move_from_json,
)
from kiosk.seats import Seat, default_seats, parse_seats, seats_json

log = logging.getLogger(__name__)

SCHEMA_VERSION = 3

SNAPSHOT_EVERY = 256
"""Log entries between snapshots. Measured (``tablesight bench engine``): replaying a move costs
40–110 µs in the three games, pickling a state 0.1–0.2 ms and 1.3–2.3 kB; 256 bounds the engine
work of a resume to ~10–30 ms and costs one small blob per 256 moves."""

SNAPSHOTS_KEPT = 4
"""Snapshots kept per game (older ones are deleted with the newest's write); the older ones serve
when the newest is damaged, and as checkpoints for undo after a resume."""

CODEC = "pickle-5/engine-only-1"
"""The snapshot codec; part of the engine key, so a codec change ignores every old snapshot."""

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
    3: """
    CREATE TABLE snapshots (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        prefix TEXT NOT NULL,
        engine TEXT NOT NULL,
        moves INTEGER NOT NULL,
        state BLOB NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    )
    """,
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
        """Resume a saved game (the latest one when no name is given): from its newest snapshot
        that matches the log, replaying the entries after it; from the start when none does."""
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
        entries = self._conn.execute(
            "SELECT seq, kind, move FROM log WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        start = saved._restore(entries)
        for _, kind, move in entries[start:]:
            saved._replay(kind, move)
        if len(entries) - start >= SNAPSHOT_EVERY:
            saved._write_snapshot()  # an old save, or damaged snapshots: the next resume is short
        return saved

    def _snapshot_heads(self, game_id: int) -> dict[int, tuple[str, str, int]]:
        """Each snapshot of the game as seq → (prefix hash, engine key, moves), without blobs."""
        try:
            rows = self._conn.execute(
                "SELECT seq, prefix, engine, moves FROM snapshots WHERE game_id = ?", (game_id,)
            ).fetchall()
        except sqlite3.Error as exc:
            log.warning("snapshots of game %d unreadable (%s): replaying the log", game_id, exc)
            return {}
        return {seq: (prefix, engine, moves) for seq, prefix, engine, moves in rows}

    def _snapshot_state(self, game_id: int, seq: int, game: Game) -> State[Any] | None:
        """The decoded state of one snapshot, or None if it cannot be read or decoded."""
        try:
            row = self._conn.execute(
                "SELECT state FROM snapshots WHERE game_id = ? AND seq = ?", (game_id, seq)
            ).fetchone()
            return None if row is None else decode_state(row[0], game)
        except Exception as exc:  # damaged bytes can raise anything from the unpickler
            log.warning("snapshot %d of game %d ignored: %s", seq, game_id, exc)
            return None

    def list(self) -> list[SaveInfo]:
        """Every saved game, the latest first."""
        rows = self._conn.execute(
            "SELECT g.name, g.game, g.updated_at, COUNT(l.seq) FROM games g"
            " LEFT JOIN log l ON l.game_id = g.id GROUP BY g.id"
            " ORDER BY g.updated_at DESC, g.id DESC"
        )
        return [SaveInfo(*row) for row in rows]

    def _append(
        self,
        game_id: int,
        kind: str,
        move: Move | None,
        snapshot: _Snapshot | None = None,
    ) -> tuple[int, str | None]:
        """Commit one log entry (with the snapshot of the state before it, if given, in the same
        transaction); returns the entry's seq and its move text."""
        now = _now()
        text = move.to_json() if move else None
        with _transaction(self._conn):
            (seq,) = self._conn.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM log WHERE game_id = ?", (game_id,)
            ).fetchone()
            self._conn.execute(
                "INSERT INTO log (game_id, seq, kind, move, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, kind, text, now),
            )
            self._conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
            if snapshot is not None and snapshot.seq == seq - 1:
                self._put_snapshot(game_id, snapshot, now)
        return seq, text

    def _put_snapshot(self, game_id: int, snapshot: _Snapshot, now: str) -> None:
        """Write a snapshot and drop the oldest beyond SNAPSHOTS_KEPT, inside the caller's
        transaction; on any database error only this savepoint is rolled back."""
        self._conn.execute("SAVEPOINT snapshot")
        try:
            self._conn.execute(
                "INSERT OR REPLACE INTO snapshots (game_id, seq, prefix, engine, moves, state, at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    snapshot.seq,
                    snapshot.prefix,
                    snapshot.engine,
                    snapshot.moves,
                    snapshot.blob,
                    now,
                ),
            )
            self._conn.execute(
                "DELETE FROM snapshots WHERE game_id = ? AND seq NOT IN (SELECT seq FROM"
                " snapshots WHERE game_id = ? ORDER BY seq DESC LIMIT ?)",
                (game_id, game_id, SNAPSHOTS_KEPT),
            )
        except sqlite3.Error as exc:
            self._conn.execute("ROLLBACK TO snapshot")
            log.warning("snapshot %d of game %d not written: %s", snapshot.seq, game_id, exc)
        finally:
            self._conn.execute("RELEASE snapshot")


@dataclass(frozen=True)
class _Snapshot:
    """A state ready to write: after log entry ``seq`` (the log's ``prefix`` hash up to it),
    ``moves`` moves applied, encoded by this ``engine``."""

    seq: int
    prefix: str
    engine: str
    moves: int
    blob: bytes


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
        self._prefix = _prefix_hasher(game_id, session)
        """SHA-256 of the save's identity and of every log entry so far (what snapshots claim)."""
        self._seq = 0
        """The seq of the last log entry; None once the log was written by someone else."""

    @property
    def game(self) -> Game:
        """The game being played."""
        return self.session.game

    def submit(self, move: Move) -> Result:
        """Check the move; if accepted, commit it to the log, then apply it and return events."""
        verdict = self.session.check(move)
        if verdict.ok:
            self._log("move", move)
        return self.session.submit(move)

    def undo(self) -> tuple[Event, ...]:
        """Take back the last move (committed first); NothingToUndoError if none."""
        if not self.session.moves:
            return self.session.undo()  # raises NothingToUndoError
        self._log("undo", None)
        return self.session.undo()

    def redo(self) -> tuple[Event, ...]:
        """Apply the last undone move again (committed first); NothingToUndoError if none."""
        if not self.session.undone:
            return self.session.redo()  # raises NothingToUndoError
        self._log("redo", None)
        return self.session.redo()

    def state_before(self, moves: int) -> tuple[int, State[Any]]:
        """The latest state the session keeps (a checkpoint or a snapshot) after at most
        ``moves`` of its moves, as (its move count, the state); (0, the initial state) at worst."""
        checkpoints = self.session._checkpoints  # the engine's own: states after moves[:k]
        base = max((k for k in checkpoints if k <= max(moves, 0)), default=0)
        return base, checkpoints[base]

    def _log(self, kind: str, move: Move | None) -> None:
        """Commit one entry, with a snapshot of the state before it when one is due."""
        snapshot = None
        if self._seq and self._seq % SNAPSHOT_EVERY == 0:
            snapshot = self._snapshot()
        seq, text = self.store._append(self.id, kind, move, snapshot)
        if self._seq is not None and seq != self._seq + 1:
            self._seq = None  # another writer: the prefix hash no longer describes the log
        self._advance(seq, kind, text)

    def _advance(self, seq: int, kind: str, text: str | None) -> None:
        if self._seq is not None:
            self._prefix.update(_entry_bytes(seq, kind, text))
            self._seq = seq

    def _snapshot(self) -> _Snapshot | None:
        """The current state encoded for the current log prefix; None if it cannot be."""
        if self._seq is None:
            return None
        try:
            return _Snapshot(
                self._seq,
                self._prefix.hexdigest(),
                engine_key(self.game),
                len(self.session.moves),
                encode_state(self.session.state),
            )
        except Exception as exc:  # a state that will not encode costs only its snapshot
            log.warning("snapshot of %r not made: %s", self.name, exc)
            return None

    def _write_snapshot(self) -> None:
        """Write a snapshot of the current state in its own transaction (after a long replay);
        a failure costs only the snapshot."""
        snapshot = self._snapshot()
        if snapshot is None:
            return
        conn = self.store._conn
        try:
            with _transaction(conn):
                self.store._put_snapshot(self.id, snapshot, _now())
        except sqlite3.Error as exc:
            log.warning("snapshot of %r not written: %s", self.name, exc)

    def _restore(self, entries: list[tuple[int, str, str | None]]) -> int:
        """Hash the log ``entries``; put the session at the newest snapshot that matches them
        (older matching ones become undo checkpoints); return how many entries it covers."""
        heads = self.store._snapshot_heads(self.id)
        engine = engine_key(self.game) if heads else ""
        moves: list[Move] = []
        undone: list[Move] = []
        parsed: dict[str, Move] = {}  # moves are frozen values: one instance per text
        good: list[tuple[int, int, list[Move], list[Move]]] = []
        lowest: list[int] = []  # the fewest moves on the stack since each good snapshot
        consistent = True
        for index, (seq, kind, text) in enumerate(entries):
            self._advance(seq, kind, text)
            if not consistent:
                continue
            if kind == "move" and text is not None:
                move = parsed.get(text)
                if move is None:
                    move = parsed[text] = move_from_json(text)
                moves.append(move)
                undone.clear()
            elif kind == "undo" and moves:
                undone.append(moves.pop())
            elif kind == "redo" and undone:
                moves.append(undone.pop())
            elif kind in ("undo", "redo"):
                consistent = False  # replay will say what is wrong; no snapshot past here
                continue
            lowest = [min(low, len(moves)) for low in lowest]
            head = heads.get(seq)
            if head is not None and head == (self._prefix.hexdigest(), engine, len(moves)):
                good.append((index + 1, len(moves), list(moves), list(undone)))
                lowest.append(len(moves))
        for position in range(len(good) - 1, -1, -1):
            count, length, stack, taken_back = good[position]
            state = self.store._snapshot_state(self.id, entries[count - 1][0], self.game)
            if state is None or state.game != self.game.name or state.moves != length:
                continue
            session = self.session
            session.moves, session.undone, session.state = stack, taken_back, state
            session._checkpoints[length] = state  # the engine's own: undo rebuilds from here
            for older in range(position - 1, -1, -1):  # older snapshots still on this stack
                count_, length_, _, _ = good[older]
                if lowest[older] >= length_:
                    older_state = self.store._snapshot_state(
                        self.id, entries[count_ - 1][0], self.game
                    )
                    if older_state is not None and older_state.moves == length_:
                        session._checkpoints[length_] = older_state
            return count
        return 0

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


def _prefix_hasher(game_id: int, session: Session) -> Any:
    """A SHA-256 started with the save's identity: its id, game, options and seed."""
    identity = [game_id, session.game.name, _options_dict(session), session.seed]
    return hashlib.sha256(json.dumps(identity, sort_keys=True, default=str).encode())


def _entry_bytes(seq: int, kind: str, text: str | None) -> bytes:
    return f"{seq}\x1f{kind}\x1f{'' if text is None else text}\x1e".encode()


@functools.cache
def _code_digest(own_module: str | None) -> str:
    digest = hashlib.sha256(f"{CODEC} {sys.version_info[:2]}".encode())
    root = Path(sys.modules["engine"].__file__ or "").parent
    files = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix != ".pyc")
    for path in [*files, *([Path(own_module)] if own_module else [])]:
        digest.update(f"\x1e{path.name}\x1f".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


def engine_key(game: Game) -> str:
    """The fingerprint a snapshot must carry: the codec, the Python version, and the bytes of
    every file of the engine package and of the game's own module (computed once per process)."""
    own = getattr(sys.modules.get(type(game).__module__), "__file__", None)
    root = Path(sys.modules["engine"].__file__ or "").parent
    return _code_digest(None if own is None or Path(own).is_relative_to(root) else own)


def encode_state(state: State[Any]) -> bytes:
    """A state as snapshot bytes (see the module's docstring for the codec)."""
    return pickle.dumps(state, protocol=5)


class _EngineUnpickler(pickle.Unpickler):
    """Resolves only classes of the engine package and of the game's module."""

    def __init__(self, data: bytes, game: Game) -> None:
        super().__init__(io.BytesIO(data))
        self._own = type(game).__module__

    def find_class(self, module: str, name: str) -> Any:
        if module.split(".")[0] == "engine" or module == self._own:
            found = super().find_class(module, name)
            if isinstance(found, type):
                return found
        raise pickle.UnpicklingError(f"a snapshot may not name {module}.{name}")


def decode_state(blob: bytes, game: Game) -> State[Any]:
    """Snapshot bytes back into a state of ``game``; an exception if they are not one."""
    state = _EngineUnpickler(bytes(blob), game).load()
    if not isinstance(state, State):
        raise pickle.UnpicklingError(f"a snapshot holds a {type(state).__name__}, not a State")
    return state


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
