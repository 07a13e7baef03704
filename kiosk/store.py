"""Saved games: an append-only SQLite log of accepted moves, undos and redos.

Every accepted move is committed (WAL, ``synchronous=FULL``) before its events are returned to
be announced, so pulling the power at any instant loses nothing that was shown as accepted. A
damaged database is renamed aside, never overwritten or emptied.

A save is never resumed short. Every log entry carries ``chain``, the SHA-256 of the previous
entry's chain (the first one's: of the save's identity, its row in ``games``) and of this entry's
number, kind and move text as stored; the save's row keeps the chain of its last entry
(``head``) and how many entries it has (``entries``), written in the same transaction as the
entry. Opening a game recomputes the chain over its log: a missing, altered, reordered or extra
entry, a log cut short (a damaged index hides rows; ``PRAGMA quick_check`` does not see that)
or an altered identity stops the resume with the game's name and the first entry that does not
match (``SaveUnusableError``), and so does a logged move that is not text, not JSON, not a move
or no longer legal. Opening the database runs ``PRAGMA integrity_check`` (``quick_check`` above
``FULL_CHECK_MAX_BYTES``), and a file that is not a tablesight save (another program's SQLite
file, or tables missing) is set aside like a damaged one.

A save that cannot be written (a read-only file or folder, a full disk) is not damage: the
database is read into memory and opened there (``Store.cannot_keep`` says why), the games resume,
and every move, undo and redo is refused with ``SaveNotKeptError`` before anything changes.

A game resumes from a snapshot of its state and replays only the log entries after it. Every
``SNAPSHOT_EVERY`` log entries the state is written into ``snapshots`` in the same transaction as
the next entry (no extra commit on a move; a failed snapshot write is rolled back to a savepoint
and only costs the snapshot). A snapshot is a cache, never the truth: it is used only if its
``prefix`` equals the (verified) chain of the log entry it follows, its ``engine`` key equals the
fingerprint of this engine and game code and of the codec, and its blob decodes to a state of
this game with the move count it claims. Anything else is ignored and the game is replayed from
an older good snapshot or from the start.

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
import os
import pickle
import shutil
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from engine.core import (
    EngineError,
    Event,
    Game,
    Move,
    Result,
    Session,
    State,
    Text,
    find_game,
    move_from_json,
)
from kiosk.seats import PlayerSeat, default_seats, parse_seats, seats_json

log = logging.getLogger(__name__)

SCHEMA_VERSION = 4

APPLICATION_ID = 0x54534754
"""``PRAGMA application_id`` of a tablesight save ("TSGT"); another program's id is foreign."""

FULL_CHECK_MAX_BYTES = 64 * 2**20
"""Up to this size opening runs ``PRAGMA integrity_check``, above it ``quick_check``. Measured
(``tablesight bench engine``, "integrity check" figures): about 15 ms for a 10,000-move save
(1 MB) and 170 ms for 100,000 moves (10 MB), against 10 and 105 ms for ``quick_check``."""

BUSY_TIMEOUT_S = 5.0
"""How long opening waits for another connection's write (the kiosk's, when the campaigns list
opens the file beside it) before saying the saves are busy; busy is never taken for damage."""

LOW_DISK_BYTES = 1 * 2**20
"""Below this much free space in the data folder the start-up report warns that moves may not
be kept (SQLite needs room for the write-ahead log)."""

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
    4: f"""
    ALTER TABLE log ADD COLUMN chain BLOB;
    ALTER TABLE games ADD COLUMN head BLOB;
    ALTER TABLE games ADD COLUMN entries INTEGER NOT NULL DEFAULT 0;
    DELETE FROM snapshots;
    PRAGMA application_id = {APPLICATION_ID}
    """,
}
"""Schema version → the SQL that brings the previous version to it (4 also chains the entries
already logged, ``_chain_existing``; the old snapshots' prefixes were another hash)."""

COLUMNS: dict[str, tuple[int, set[str]]] = {
    "games": (1, {"id", "name", "game", "options", "seed", "created_at", "updated_at"}),
    "log": (1, {"game_id", "seq", "kind", "move", "at"}),
    "snapshots": (3, {"game_id", "seq", "prefix", "engine", "moves", "state", "at"}),
}
"""The tables a save of a schema version has (from which version, with at least these columns)."""

# --- what the players and the start-up report are told -----------------------------------------

READ_ONLY = Text(
    "存档只读:什么都不会被保存({why});走棋、撤销和重做都会被拒绝",
    "the saved games are read-only: nothing would be kept ({why}); moves, undos and redos are"
    " refused",
)
NOT_KEPT_CODE = "store.not_kept"
"""The verdict code of a move refused because it could not be saved."""
NOT_KEPT = Text(
    "没有接受:存档无法写入({why}),这一步保存不了",
    "Not accepted: the saved game cannot be written ({why}), so this could not be kept",
)
WHY_FILE = Text("存档文件只读", "the save file is read-only")
WHY_FOLDER = Text("存档文件夹只读", "the save folder is read-only")
WHY_DENIED = Text("没有写入权限", "no permission to write it")
WHY_FULL = Text("磁盘已满", "the disk is full")
WHY_ASKED = Text("按要求只读打开", "opened read-only on purpose")
LOW_DISK = Text(
    "存档所在的磁盘几乎满了(剩余 {free} kB):新的走棋可能保存不了",
    "the disk holding the saved games is almost full ({free} kB free): new moves may not be kept",
)


class StoreError(Exception):
    """Root of the errors of the saved-games store."""


class StoreDamagedError(StoreError):
    """The database file is damaged or not a tablesight save; it has been renamed aside
    (``moved_to``). ``text`` says so in both languages."""

    def __init__(self, path: Path, moved_to: Path, detail: Text) -> None:
        self.text = Text(
            f"存档数据库 {path.name} 已损坏或不是 tablesight 的存档({detail.zh});已原样另存为"
            f" {moved_to.name},并新建了数据库",
            f"the saved-games database {path} is damaged or not a tablesight save"
            f" ({detail.en}); it was set aside as {moved_to.name} and nothing in it was changed",
        )
        super().__init__(self.text.en)
        self.path, self.moved_to, self.detail = path, moved_to, detail


class StoreVersionError(StoreError):
    """The database was written by a newer tablesight."""


class SaveNotFoundError(StoreError, LookupError):
    """No saved game has that name."""


class SaveUnusableError(StoreError):
    """A saved game cannot be resumed as it was saved: its log does not match its chain (an
    entry missing, altered or cut off), or what it holds does not replay (an unknown game, bad
    options, a logged move that is not a move or no longer legal). Nothing was changed.

    ``save`` is the game's name, ``entry`` the first log entry (1-based) that is wrong, or None
    when the game's own row is; ``text`` says it in both languages."""

    def __init__(self, save: str, entry: int | None, total: int, why: Text) -> None:
        if entry is None:
            self.text = Text(
                f"存档“{save}”无法继续:{why.zh}", f"the saved game {save!r} cannot go on: {why.en}"
            )
        else:
            self.text = Text(
                f"存档“{save}”从第{entry}条记录起无法继续(共{total}条):{why.zh}",
                f"the saved game {save!r} cannot go on from entry {entry} of its log"
                f" ({total} entries): {why.en}",
            )
        super().__init__(self.text.en)
        self.save, self.entry, self.total, self.why = save, entry, total, why


class SaveNotKeptError(StoreError):
    """A move, undo or redo was not applied because it could not be written; ``reason`` is why
    (read-only, disk full), ``text`` the players' message in both languages."""

    def __init__(self, reason: Text) -> None:
        self.reason = reason
        self.text = NOT_KEPT.format(why=reason)
        super().__init__(self.text.en)


class _NotOurs(Exception):
    """The database is a valid SQLite file but not a tablesight save (internal)."""

    def __init__(self, detail: Text) -> None:
        super().__init__(detail.en)
        self.detail = detail


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
    """The saved-games database. Use ``Store.open(path)``; close it (or use ``with``).

    ``cannot_keep`` is None when moves are written, else why not (the database was read into
    memory and every write is refused); ``warnings`` are what the start-up report should say."""

    def __init__(self, conn: sqlite3.Connection, path: Path, cannot_keep: Text | None = None):
        self._conn = conn
        self.path = path
        self.cannot_keep = cannot_keep
        self.warnings: list[Text] = []

    @classmethod
    def open(cls, path: Path, *, read_only: bool = False) -> Store:
        """Open or create the database; StoreDamagedError after setting a damaged or foreign
        file aside; StoreError (one line) when the folder or file cannot be used at all. A save
        that cannot be written opens in memory (``cannot_keep``); so does ``read_only=True``."""
        _check_place(path, make=not read_only)
        if read_only:
            return cls._open_copy(path, WHY_ASKED)
        problem = _header_problem(path)
        if problem is not None:
            raise StoreDamagedError(path, _set_aside(path, problem), problem)
        try:
            conn = sqlite3.connect(
                path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_S
            )
        except sqlite3.Error as exc:
            if _denied(exc):
                return cls._open_copy(path, _why_denied(path))
            raise StoreError(f"cannot open the saved games in {path}: {exc}") from None
        try:
            cls._verify(conn, path)  # before anything is written (WAL mode changes the header)
            cls._configure(conn)
            cls._migrate(conn, path)
            cls._probe(conn)
        except (sqlite3.Error, UnicodeDecodeError) as exc:  # SQLite's message may be bytes
            exc = _as_sqlite_error(exc)
            conn.close()
            if _denied(exc):
                return cls._open_copy(path, _why_denied(path))
            if _full(exc):
                return cls._open_copy(path, WHY_FULL)
            if not _damage(exc):  # busy, locked, an I/O error: not a reason to move the file
                raise StoreError(f"cannot open the saved games in {path}: {exc}") from None
            detail = Text(f"SQLite:{exc}", f"SQLite: {exc}")
            raise StoreDamagedError(path, _set_aside(path, detail), detail) from None
        except _NotOurs as exc:
            conn.close()
            raise StoreDamagedError(path, _set_aside(path, exc.detail), exc.detail) from None
        except BaseException:
            conn.close()
            raise
        store = cls(conn, path)
        free = _free_bytes(path.parent)
        if free is not None and free < LOW_DISK_BYTES:
            store.warnings.append(LOW_DISK.format(free=free // 1024))
        return store

    @classmethod
    def _open_copy(cls, path: Path, why: Text) -> Store:
        """The database read into memory (or a new one there when there is no file), for a
        save that cannot be written: every write is refused with ``why``."""
        memory = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        memory.execute("PRAGMA foreign_keys=ON")
        if path.exists() and path.stat().st_size > 0:
            source = _read_only_connection(path)
            try:
                try:
                    cls._verify(source, path)
                    source.backup(memory)
                except (sqlite3.Error, UnicodeDecodeError, _NotOurs) as exc:
                    memory.close()
                    raise StoreError(
                        f"the saved-games database {path} is damaged or not a tablesight save"
                        f" ({exc}), and it cannot be set aside ({why.en}); nothing was changed"
                    ) from None
            finally:
                source.close()
        cls._migrate(memory, path)
        store = cls(memory, path, cannot_keep=why)
        store.warnings.append(READ_ONLY.format(why=why))
        return store

    @staticmethod
    def _configure(conn: sqlite3.Connection) -> None:
        mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        sync = conn.execute("PRAGMA synchronous").fetchone()[0]
        if mode.lower() != "wal" or sync != 2:
            raise StoreError(f"SQLite refused WAL/synchronous=FULL (got {mode}, {sync})")

    @staticmethod
    def _verify(conn: sqlite3.Connection, path: Path) -> None:
        """Refuse a newer schema (StoreVersionError); check the file (``integrity_check`` or
        ``quick_check``, sqlite3.DatabaseError if damaged) and that it is a tablesight save
        (_NotOurs if not)."""
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreVersionError(
                f"{path} was written by a newer tablesight (schema {version}, this one knows"
                f" {SCHEMA_VERSION}); upgrade tablesight or use another --data-dir"
            )
        if version < 0:
            raise _NotOurs(Text(f"它的结构版本是 {version}", f"its schema version is {version}"))
        size = path.stat().st_size if path.exists() else 0
        check = "integrity_check" if size <= FULL_CHECK_MAX_BYTES else "quick_check"
        problem = conn.execute(f"PRAGMA {check}(1)").fetchone()[0]
        if problem != "ok":
            raise sqlite3.DatabaseError(f"{check}: {problem}")
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        if app not in (0, APPLICATION_ID):
            raise _NotOurs(Text(f"它属于另一个程序(编号 {app})", f"application id {app:#x}"))
        tables = {
            name: {row[1] for row in conn.execute(f"PRAGMA table_info({name})")}
            for (name,) in conn.execute(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        }
        if version == 0:
            if tables:
                some = ", ".join(sorted(tables)[:3])
                raise _NotOurs(Text(f"它有别的程序的表:{some}", f"it holds other tables: {some}"))
            return
        for table, (since, columns) in COLUMNS.items():
            if version < since:
                continue
            if table not in tables:
                raise _NotOurs(Text(f"缺少表 {table}", f"no such table: {table}"))
            missing = sorted(columns - tables[table])
            if missing:
                raise _NotOurs(
                    Text(f"表 {table} 缺少列 {missing[0]}", f"table {table} has no {missing[0]}")
                )

    @staticmethod
    def _migrate(conn: sqlite3.Connection, path: Path) -> None:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreVersionError(
                f"{path} was written by a newer tablesight (schema {version}, this one knows"
                f" {SCHEMA_VERSION}); upgrade tablesight or use another --data-dir"
            )
        for target in range(version + 1, SCHEMA_VERSION + 1):
            conn.execute("BEGIN IMMEDIATE")
            try:
                for statement in MIGRATIONS[target].split(";"):
                    if statement.strip():
                        conn.execute(statement)
                if target == 4:
                    _chain_existing(conn)
                conn.execute(f"PRAGMA user_version={target}")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    @staticmethod
    def _probe(conn: sqlite3.Connection) -> None:
        """Write (and roll back) the header, so that a read-only file says so now, not at the
        first move (``BEGIN IMMEDIATE`` alone succeeds on a read-only file)."""
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(f"PRAGMA user_version={version}")
        finally:
            conn.execute("ROLLBACK")

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
        seats: list[PlayerSeat] | None = None,
    ) -> SavedGame:
        """Create a saved game and return it, started; StoreError if the name is taken.

        ``seats`` are the players' names and colours (default: numbered, colours in order).
        When the saves cannot be written the game is made in memory (its moves are refused)."""
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
                game_id = int(cur.lastrowid or 0)
                head = _identity(self._conn, game_id)
                self._conn.execute(
                    "UPDATE games SET head = ?, entries = 0 WHERE id = ?", (head, game_id)
                )
        except sqlite3.IntegrityError:
            raise StoreError(f"a saved game called {name!r} exists already") from None
        except sqlite3.Error as exc:
            raise SaveNotKeptError(_why_failed(exc, self.path)) from None
        saved = SavedGame(self, game_id, name, session, seats)
        saved._head = head
        return saved

    def load(self, name: str | None = None) -> SavedGame:
        """Resume a saved game (the latest one when no name is given): its log checked against
        its chain, then from its newest snapshot that matches the log, replaying the entries
        after it; from the start when none does. SaveUnusableError if it cannot be resumed
        exactly as it was saved, or SQLite finds the file damaged while reading it (nothing is
        changed then)."""
        try:
            return self._load(name)
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            raise SaveUnusableError(
                name or "?",
                None,
                0,
                Text(f"数据库已损坏(SQLite:{exc})", f"the database is damaged (SQLite: {exc})"),
            ) from None

    def _load(self, name: str | None) -> SavedGame:
        row = self._conn.execute(
            "SELECT id, CAST(name AS BLOB), CAST(game AS BLOB), CAST(options AS BLOB), seed,"
            " CAST(seats AS BLOB), head, entries FROM games"
            + (" WHERE name = ?" if name is not None else " ORDER BY updated_at DESC, id DESC")
            + " LIMIT 1",
            (name,) if name is not None else (),
        ).fetchone()
        if row is None:
            raise SaveNotFoundError(
                f"no saved game called {name!r}" if name else "there is no saved game"
            )
        game_id, raw_name, raw_game, raw_options, seed, raw_seats, head, count = row
        name_ = _text(raw_name) or f"#{game_id}"
        rows = self._conn.execute(
            "SELECT seq, kind, CAST(move AS BLOB), chain FROM log WHERE game_id = ? ORDER BY seq",
            (game_id,),
        ).fetchall()
        chains = _check_chain(name_, _identity(self._conn, game_id), rows, head, count)
        saved = self._start(game_id, name_, raw_game, raw_options, seed, raw_seats)
        entries = _parse_entries(name_, rows)  # after _start: finding the game registers its moves
        saved._head = chains[-1] if chains else _identity(self._conn, game_id)
        saved._seq = len(rows)
        start = saved._restore(entries, chains)
        for index in range(start, len(entries)):
            saved._replay(index + 1, len(entries), *entries[index][1:])
        if len(entries) - start >= SNAPSHOT_EVERY:
            saved._write_snapshot()  # an old save, or damaged snapshots: the next resume is short
        return saved

    def _start(
        self,
        game_id: int,
        name: str,
        raw_game: bytes | None,
        raw_options: bytes | None,
        seed: object,
        raw_seats: bytes | None,
    ) -> SavedGame:
        """The saved game at its start, from its row; SaveUnusableError if the row is unusable."""
        game_name = _text(raw_game) or "?"
        try:
            game = find_game(game_name)
        except EngineError:
            raise SaveUnusableError(
                name,
                None,
                0,
                Text(
                    f"它是这个版本不认识的游戏({game_name})",
                    f"it is a game this tablesight does not know ({game_name})",
                ),
            ) from None
        try:
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise ValueError(f"the seed is not a whole number ({seed!r})")
            options = json.loads(_text(raw_options) or "")
            if not isinstance(options, dict):
                raise ValueError("the options are not a JSON object")
            session = Session(game, options, seed)
            seats = parse_seats(json.loads(_text(raw_seats) or ""), session.state.players)
        except (EngineError, ValueError, TypeError, RecursionError) as exc:
            raise SaveUnusableError(
                name,
                None,
                0,
                Text(
                    f"它的设置无法读取({_short(exc)})", f"its set-up is unreadable ({_short(exc)})"
                ),
            ) from None
        return SavedGame(self, game_id, name, session, seats)

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

    def append_moves(self, name: str, moves: list[Move]) -> None:
        """Log many moves of a game in one transaction without checking or applying them (to
        set up long saves for benchmarks and tests); they are chained like any entry."""
        conn = self._conn
        if self.cannot_keep is not None:
            raise SaveNotKeptError(self.cannot_keep)
        with _transaction(conn):
            game_id, head, count = conn.execute(
                "SELECT id, head, entries FROM games WHERE name = ?", (name,)
            ).fetchone()
            now = _now()
            rows = []
            for number, move in enumerate(moves, start=count + 1):
                text = move.to_json()
                head = _link(head, number, "move", text.encode())
                rows.append((game_id, number, text, now, head))
            conn.executemany(
                "INSERT INTO log (game_id, seq, kind, move, at, chain) VALUES (?, ?, 'move', ?,"
                " ?, ?)",
                rows,
            )
            conn.execute(
                "UPDATE games SET head = ?, entries = ?, updated_at = ? WHERE id = ?",
                (head, count + len(moves), now, game_id),
            )

    def _append(
        self,
        game_id: int,
        kind: str,
        move: Move | None,
        snapshot: _Snapshot | None = None,
    ) -> tuple[int, bytes]:
        """Commit one log entry, chained to the game's head (with the snapshot of the state
        before it, if given, in the same transaction); returns the entry's seq and chain.
        SaveNotKeptError, with nothing written, when it cannot be written."""
        if self.cannot_keep is not None:
            raise SaveNotKeptError(self.cannot_keep)
        now = _now()
        text = move.to_json() if move else None
        try:
            with _transaction(self._conn):
                head, count = self._conn.execute(
                    "SELECT head, entries FROM games WHERE id = ?", (game_id,)
                ).fetchone()
                seq = count + 1
                chain = _link(head, seq, kind, None if text is None else text.encode())
                self._conn.execute(
                    "INSERT INTO log (game_id, seq, kind, move, at, chain)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, seq, kind, text, now, chain),
                )
                self._conn.execute(
                    "UPDATE games SET updated_at = ?, head = ?, entries = ? WHERE id = ?",
                    (now, chain, seq, game_id),
                )
                if snapshot is not None and snapshot.seq == seq - 1:
                    self._put_snapshot(game_id, snapshot, now)
        except sqlite3.Error as exc:
            log.warning("a %s of game %d was not kept: %s", kind, game_id, exc)
            raise SaveNotKeptError(_why_failed(exc, self.path)) from None
        return seq, chain

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
    """A state ready to write: after log entry ``seq`` (whose chain is ``prefix``, in hex),
    ``moves`` moves applied, encoded by this ``engine``."""

    seq: int
    prefix: str
    engine: str
    moves: int
    blob: bytes


_Entry = tuple[int, str, Move | None]
"""A checked log entry: its seq, kind and parsed move (None for undo and redo)."""


class SavedGame:
    """A session whose every accepted move, undo and redo is committed before it is announced."""

    def __init__(
        self,
        store: Store,
        game_id: int,
        name: str,
        session: Session,
        seats: list[PlayerSeat] | None = None,
    ) -> None:
        self.store, self.id, self.name, self.session = store, game_id, name, session
        self.seats = seats or default_seats(session.state.players)
        """The players' names and colours, as chosen at set-up."""
        self._head = b""
        """The chain of the last log entry (what a snapshot taken now claims as its prefix)."""
        self._seq: int | None = 0
        """The seq of the last log entry; None once the log was written by someone else."""

    @property
    def game(self) -> Game:
        """The game being played."""
        return self.session.game

    def submit(self, move: Move) -> Result:
        """Check the move once; if accepted, commit it to the log, then apply it without
        checking it again and return its events. A refused move is never written.
        SaveNotKeptError, with nothing changed, when it cannot be written."""
        verdict = self.session.check(move)
        if not verdict.ok:
            return Result.refused(move, verdict)
        self._log("move", move)
        return Result(verdict, self.session.push(move))

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
        return self.session.latest_checkpoint(moves)

    def _log(self, kind: str, move: Move | None) -> None:
        """Commit one entry, with a snapshot of the state before it when one is due."""
        snapshot = None
        if self._seq and self._seq % SNAPSHOT_EVERY == 0:
            snapshot = self._snapshot()
        seq, chain = self.store._append(self.id, kind, move, snapshot)
        if self._seq is not None and seq != self._seq + 1:
            self._seq = None  # another writer: this session no longer follows the log
        if self._seq is not None:
            self._seq, self._head = seq, chain

    def _snapshot(self) -> _Snapshot | None:
        """The current state encoded for the current log entry; None if it cannot be."""
        if self._seq is None:
            return None
        try:
            return _Snapshot(
                self._seq,
                self._head.hex(),
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
        if self.store.cannot_keep is not None:
            return
        snapshot = self._snapshot()
        if snapshot is None:
            return
        conn = self.store._conn
        try:
            with _transaction(conn):
                self.store._put_snapshot(self.id, snapshot, _now())
        except sqlite3.Error as exc:
            log.warning("snapshot of %r not written: %s", self.name, exc)

    def _restore(self, entries: list[_Entry], chains: list[bytes]) -> int:
        """Put the session at the newest snapshot that matches the checked log ``entries``
        (whose chains are ``chains``; older matching snapshots become undo checkpoints); return
        how many entries it covers."""
        heads = self.store._snapshot_heads(self.id)
        if not heads:
            return 0
        engine = engine_key(self.game)
        moves: list[Move] = []
        undone: list[Move] = []
        good: list[tuple[int, int, list[Move], list[Move]]] = []
        lowest: list[int] = []  # the fewest moves on the stack since each good snapshot
        for index, (seq, kind, move) in enumerate(entries):
            if kind == "move" and move is not None:
                moves.append(move)
                undone.clear()
            elif kind == "undo" and moves:
                undone.append(moves.pop())
            elif kind == "redo" and undone:
                moves.append(undone.pop())
            else:
                break  # replay will say what is wrong; no snapshot past here
            lowest = [min(low, len(moves)) for low in lowest]
            head = heads.get(seq)
            if head is not None and head == (chains[index].hex(), engine, len(moves)):
                good.append((index + 1, len(moves), list(moves), list(undone)))
                lowest.append(len(moves))
        for position in range(len(good) - 1, -1, -1):
            count, length, stack, taken_back = good[position]
            state = self.store._snapshot_state(self.id, entries[count - 1][0], self.game)
            if state is None or state.game != self.game.name or state.moves != length:
                continue
            session = self.session
            session.resume(stack, taken_back, state)  # undo rebuilds from here
            for older in range(position - 1, -1, -1):  # older snapshots still on this stack
                count_, length_, _, _ = good[older]
                if lowest[older] >= length_:
                    older_state = self.store._snapshot_state(
                        self.id, entries[count_ - 1][0], self.game
                    )
                    if older_state is not None and older_state.moves == length_ > 0:
                        session.keep_checkpoint(length_, older_state)
            return count
        return 0

    def _replay(self, entry: int, total: int, kind: str, move: Move | None) -> None:
        """Apply one checked log entry; SaveUnusableError if it does not replay."""
        try:
            if kind == "move" and move is not None:
                result = self.session.submit(move)
                if not result.accepted:
                    raise SaveUnusableError(
                        self.name,
                        entry,
                        total,
                        Text(
                            f"记录的一步现在不合规则了({result.verdict.message.zh});"
                            "它可能是另一个版本保存的",
                            f"a logged move is no longer legal ({result.verdict.message.en});"
                            " was it saved by another version?",
                        ),
                    )
            elif kind == "undo":
                self.session.undo()
            elif kind == "redo":
                self.session.redo()
        except EngineError as exc:
            raise SaveUnusableError(
                self.name,
                entry,
                total,
                Text(f"这条记录无法重放({_short(exc)})", f"it does not replay ({_short(exc)})"),
            ) from None


# --- the chain ------------------------------------------------------------------------------


def _identity(conn: sqlite3.Connection, game_id: int) -> bytes:
    """Where a save's chain starts: SHA-256 of its row's id, name, game, options, seed and seats
    as stored (bytes, so that text that is not UTF-8 still hashes)."""
    row = conn.execute(
        "SELECT id, CAST(name AS BLOB), CAST(game AS BLOB), CAST(options AS BLOB),"
        " CAST(seed AS BLOB), CAST(seats AS BLOB) FROM games WHERE id = ?",
        (game_id,),
    ).fetchone()
    if row is None:  # found by one index, missing by its id: the file is damaged
        raise sqlite3.DatabaseError(f"the row of saved game {game_id} cannot be read")
    digest = hashlib.sha256(b"tablesight save 1")
    for value in row:
        digest.update(b"\x1f" + (value if isinstance(value, bytes) else str(value).encode()))
    return digest.digest()


def _link(previous: bytes | None, seq: int, kind: str, move: bytes | None) -> bytes:
    """The chain of a log entry: SHA-256 of the previous entry's chain (the identity for the
    first), this entry's number and kind, and its move text as stored."""
    digest = hashlib.sha256(previous or b"")
    digest.update(f"\x1f{seq}\x1f{kind}\x1f".encode())
    digest.update(b"\x00" if move is None else b"\x01" + move)
    return digest.digest()


def _chain_existing(conn: sqlite3.Connection) -> None:
    """Chain the entries of every game as they are (the migration to schema 4, inside its
    transaction): what was logged before chains existed is taken as it is."""
    for (game_id,) in conn.execute("SELECT id FROM games").fetchall():
        head = _identity(conn, game_id)
        rows = conn.execute(
            "SELECT seq, kind, CAST(move AS BLOB) FROM log WHERE game_id = ? ORDER BY seq",
            (game_id,),
        ).fetchall()
        updates = []
        for seq, kind, move in rows:
            head = _link(head, seq, kind, move)
            updates.append((head, game_id, seq))
        conn.executemany("UPDATE log SET chain = ? WHERE game_id = ? AND seq = ?", updates)
        conn.execute(
            "UPDATE games SET head = ?, entries = ? WHERE id = ?", (head, len(rows), game_id)
        )


def _check_chain(
    name: str,
    identity: bytes,
    rows: list[tuple[Any, Any, Any, Any]],
    head: object,
    count: object,
) -> list[bytes]:
    """The chain of each logged entry, recomputed and compared with what is stored; the save's
    ``head`` and ``count`` must be those of its last entry. SaveUnusableError at the first
    difference (a missing, altered, reordered or extra entry; a log cut short)."""
    total = count if isinstance(count, int) and count >= 0 else len(rows)
    previous = identity
    chains: list[bytes] = []
    sha256 = hashlib.sha256  # _link, inlined: this loop runs once per logged entry
    for index, (seq, kind, move, chain) in enumerate(rows):
        if seq != index + 1 or not isinstance(kind, str):
            raise SaveUnusableError(name, index + 1, total, MISSING)
        digest = sha256(previous)
        digest.update(b"\x1f%d\x1f%b\x1f" % (seq, kind.encode()))
        if move is None:
            digest.update(b"\x00")
        elif isinstance(move, bytes):
            digest.update(b"\x01")
            digest.update(move)
        else:
            raise SaveUnusableError(name, index + 1, total, ALTERED)
        previous = digest.digest()
        if chain != previous:
            raise SaveUnusableError(name, index + 1, total, ALTERED if index else FIRST_ALTERED)
        chains.append(previous)
    if count != len(rows):
        first = min(len(rows), count) + 1 if isinstance(count, int) else len(rows) + 1
        raise SaveUnusableError(
            name,
            first,
            total,
            Text(
                f"日志里只读到{len(rows)}条记录,存档记着{count}条",
                f"only {len(rows)} entries could be read where the save recorded {count}",
            ),
        )
    if head != previous:
        raise SaveUnusableError(name, len(rows) or None, total, ALTERED if rows else DAMAGED_ROW)
    return chains


MISSING = Text("这条记录缺失或次序错乱", "this entry is missing or out of order")
ALTERED = Text("这条记录与保存时不一致(已损坏或被改动)", "it differs from what was saved (damaged)")
FIRST_ALTERED = Text(
    "第一条记录或存档本身的设置与保存时不一致(已损坏或被改动)",
    "this entry or the save's own set-up differs from what was saved (damaged)",
)
DAMAGED_ROW = Text(
    "存档的设置与保存时不一致(已损坏或被改动)", "its set-up differs from what was saved (damaged)"
)


def _parse_entries(name: str, rows: list[tuple[Any, Any, Any, Any]]) -> list[_Entry]:
    """The checked rows as entries with parsed moves; SaveUnusableError at the first move that
    is not UTF-8 text, not JSON or not a move of a known type."""
    parsed: dict[bytes, Move] = {}  # moves are frozen values: one instance per text
    entries: list[_Entry] = []
    append = entries.append
    for index, (seq, kind, raw, _) in enumerate(rows):
        if kind != "move":
            append((seq, kind, None))
            continue
        move = parsed.get(raw)
        if move is None:
            try:
                if raw is None:
                    raise ValueError("no move text")
                move = parsed[raw] = move_from_json(raw.decode("utf-8"))
            except UnicodeDecodeError:
                why = Text("记录的一步不是 UTF-8 文本", "a logged move is not UTF-8 text")
                raise SaveUnusableError(name, index + 1, len(rows), why) from None
            except (EngineError, ValueError, RecursionError) as exc:
                why = Text(
                    f"记录的一步无法读取({_short(exc)})",
                    f"a logged move is unreadable ({_short(exc)})",
                )
                raise SaveUnusableError(name, index + 1, len(rows), why) from None
        append((seq, kind, move))
    return entries


# --- the snapshot codec ----------------------------------------------------------------------


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


# --- files, folders and SQLite's errors --------------------------------------------------------


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
        if conn.in_transaction:  # SQLite may have rolled back already (a full disk)
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _check_place(path: Path, make: bool = True) -> None:
    """StoreError (one line) when the data folder is a file, cannot be made (``make``), or the
    database's name is taken by a folder."""
    folder = path.parent
    for above in (folder, *folder.parents):
        if above.exists() or above.is_symlink():
            if not above.is_dir():
                raise StoreError(f"the data folder {folder} cannot be used: {above} is a file")
            break
    try:
        if make:
            folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot make the data folder {folder}: {exc.strerror}") from None
    if path.exists() and not path.is_file():
        raise StoreError(f"the saved-games database {path} is a folder, not a file")


def _read_only_connection(path: Path) -> sqlite3.Connection:
    """A read-only connection to the file. In a folder where SQLite cannot make the
    write-ahead log's index, the file is read as immutable, but only when no write-ahead log
    is pending (its frames would be missed, a resume short); StoreError then."""
    uri = f"file:{quote(str(path.resolve()))}"
    try:
        conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, check_same_thread=False)
        conn.execute("PRAGMA schema_version").fetchone()
        return conn
    except sqlite3.Error as exc:
        wal = Path(f"{path}-wal")
        if wal.exists() and wal.stat().st_size > 0:
            raise StoreError(
                f"the saved games in {path} cannot be read ({exc}): their folder is read-only"
                " and a write-ahead log is pending; make the folder writable and start again"
            ) from None
    try:
        conn = sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, check_same_thread=False)
        conn.execute("PRAGMA schema_version").fetchone()
        return conn
    except sqlite3.Error as exc:
        raise StoreError(f"the saved games in {path} cannot be read: {exc}") from None


def _as_sqlite_error(exc: Exception) -> sqlite3.Error:
    """SQLite's error as such; a message that was not UTF-8 (damage in the schema's text)
    becomes a DatabaseError saying so."""
    if isinstance(exc, sqlite3.Error):
        return exc
    return sqlite3.DatabaseError(f"unreadable text in the database ({exc.__class__.__name__})")


def _denied(exc: sqlite3.Error) -> bool:
    """Whether SQLite's error means the file or folder may not be written (not damage)."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    return name.startswith("SQLITE_READONLY") or name in (
        "SQLITE_CANTOPEN",
        "SQLITE_PERM",
        "SQLITE_AUTH",
    )


def _damage(exc: sqlite3.Error) -> bool:
    """Whether SQLite's error means the file is damaged or not a save (set aside), rather than
    busy, locked, out of memory or failing to read (said, the file left where it is)."""
    name = getattr(exc, "sqlite_errorname", None)
    return (
        name is None
        or name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))
        or (name == "SQLITE_ERROR")
    )


def _full(exc: sqlite3.Error) -> bool:
    """Whether SQLite's error means the disk is full."""
    return (getattr(exc, "sqlite_errorname", "") or "") == "SQLITE_FULL"


def _why_denied(path: Path) -> Text:
    """Why the save cannot be written: its folder or file is read-only, or no permission."""
    if not os.access(path.parent, os.W_OK):
        return WHY_FOLDER
    if path.exists() and not os.access(path, os.W_OK):
        return WHY_FILE
    return WHY_DENIED


def _why_failed(exc: sqlite3.Error, path: Path) -> Text:
    """Why a write failed, for the players."""
    if _full(exc):
        return WHY_FULL
    if _denied(exc):
        return _why_denied(path)
    return Text(f"SQLite:{exc}", f"SQLite: {exc}")


SQLITE_HEADER = b"SQLite format 3\x00"


def _header_problem(path: Path) -> Text | None:
    """What is wrong with the file before SQLite reads it, or None: a file that exists but is
    empty (0 bytes, no write-ahead log to recover from: cut to nothing, or made and never
    written) or shorter than SQLite's header or without it. SQLite would take a short file as
    a new database and write into it; it is set aside with a word instead."""
    try:
        size = path.stat().st_size
        if size == 0:
            wal = Path(f"{path}-wal")
            if wal.exists() and wal.stat().st_size > 0:
                return None
            return Text("文件是空的(0 字节)", "the file is empty (0 bytes)")
        with path.open("rb") as file:
            head = file.read(100)
    except FileNotFoundError:
        return None
    except OSError:
        return None  # unreadable: SQLite will say why
    if len(head) < 100 or not head.startswith(SQLITE_HEADER):
        return Text(
            f"它不是 SQLite 数据库(开头的 {len(head)} 字节不对)",
            f"it is not an SQLite database (its first {len(head)} bytes are not a header)",
        )
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    if page and size % page:
        return Text(
            f"它的长度 {size} 字节不是整页({page} 字节)的倍数:文件被截断了",
            f"its length, {size} bytes, is not a whole number of {page}-byte pages: it was cut",
        )
    return None


def _free_bytes(folder: Path) -> int | None:
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return None


def _text(raw: object) -> str | None:
    """Stored text as a str; None when it is not UTF-8 (or not text at all)."""
    if isinstance(raw, bytes):
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return None
    return raw if isinstance(raw, str) else None


def _short(exc: BaseException) -> str:
    """An exception's message on one line, at most 160 characters."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 160 else text[:157] + "…"


def set_aside(path: Path) -> Path:
    """Rename a database (and its WAL and SHM files) next to itself, untouched; returns the new
    name. StoreError (one line) if it cannot be renamed."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
        n += 1
    try:
        for suffix in ("", "-wal", "-shm"):
            src = Path(f"{path}{suffix}")
            if src.exists():
                src.rename(Path(f"{target}{suffix}"))
    except OSError as exc:
        raise StoreError(
            f"the saved-games database {path} cannot be used and cannot be set aside"
            f" ({exc.strerror}); nothing in it was changed"
        ) from None
    return target


def _set_aside(path: Path, detail: Text) -> Path:
    """``set_aside`` for a damaged file, naming the damage if the rename fails."""
    try:
        return set_aside(path)
    except StoreError as exc:
        raise StoreError(f"{exc} (it is damaged: {detail.en})") from None
