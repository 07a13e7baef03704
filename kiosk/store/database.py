"""The saved-games database: ``Store`` opens the SQLite file (checked, migrated, or set aside
when damaged; in memory when it cannot be written), lists, creates and resumes saved games, and
appends their log entries and snapshots."""

from __future__ import annotations

import builtins
import json
import logging
import sqlite3
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from engine.core import EngineError, Move, Session, State, Text, find_game
from kiosk.seats import PlayerSeat, default_seats, parse_seats, seats_json
from kiosk.store import snapshots
from kiosk.store.chain import (
    _chain_existing,
    _check_chain,
    _identity,
    _link,
    _parse_entries,
    _seal,
)
from kiosk.store.errors import (
    LOW_DISK,
    READ_ONLY,
    WHY_ASKED,
    WHY_FULL,
    SaveNotFoundError,
    SaveNotKeptError,
    SaveUnusableError,
    StoreDamagedError,
    StoreError,
    StoreVersionError,
    _NotOurs,
)
from kiosk.store.files import (
    _as_sqlite_error,
    _check_place,
    _damage,
    _denied,
    _free_bytes,
    _full,
    _header_problem,
    _now,
    _read_only_connection,
    _set_aside,
    _text,
    _transaction,
    _why_denied,
    _why_failed,
    short_reason,
)
from kiosk.store.saved import SavedGame
from kiosk.store.schema import APPLICATION_ID, COLUMNS, MIGRATIONS, SCHEMA_VERSION
from kiosk.store.snapshots import Snapshot, SnapshotError, decode_state, snapshot_digest

log = logging.getLogger("kiosk.store")

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


@dataclass(frozen=True)
class SaveInfo:
    """One saved game as listed: name, game, when it was last changed, how many log entries."""

    name: str
    game: str
    updated_at: str
    entries: int


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
        saved.follow(head, 0)
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
            " CAST(seats AS BLOB), head, entries, snapshot FROM games"
            + (" WHERE name = ?" if name is not None else " ORDER BY updated_at DESC, id DESC")
            + " LIMIT 1",
            (name,) if name is not None else (),
        ).fetchone()
        if row is None:
            raise SaveNotFoundError(
                f"no saved game called {name!r}" if name else "there is no saved game"
            )
        game_id, raw_name, raw_game, raw_options, seed, raw_seats, head, count, pending = row
        name_ = _text(raw_name) or f"#{game_id}"
        rows = self._conn.execute(
            "SELECT seq, kind, CAST(move AS BLOB), chain, snapshot FROM log WHERE game_id = ?"
            " ORDER BY seq",
            (game_id,),
        ).fetchall()
        identity = _identity(self._conn, game_id)
        chains, digests = _check_chain(name_, identity, rows, head, count, pending)
        saved = self._start(game_id, name_, raw_game, raw_options, seed, raw_seats)
        entries = _parse_entries(name_, rows)  # after _start: finding the game registers its moves
        start = saved.restore(entries, [identity, *chains], digests)
        try:
            for index in range(start, len(entries)):
                saved.replay_entry(index + 1, len(entries), *entries[index][1:])
        except SaveUnusableError as exc:
            if not start:
                raise
            # a snapshot that verified yet is not the log's state (only a forged chain can
            # vouch for one): the log alone decides
            log.warning(
                "the saved game %r does not replay after its snapshot after entry %d (%s):"
                " replaying its log from the start",
                name_,
                start,
                exc.text.en,
            )
            saved = self._start(game_id, name_, raw_game, raw_options, seed, raw_seats)
            start = 0
            for index in range(len(entries)):
                saved.replay_entry(index + 1, len(entries), *entries[index][1:])
        saved.follow(chains[-1] if chains else identity, len(rows))
        if len(entries) - start >= snapshots.SNAPSHOT_EVERY:
            saved.write_snapshot()  # an old save, or damaged snapshots: the next resume is short
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
            # A save from before the table drew its own cards was played with the engine's
            # seeded decks: it resumes so (docs/box.md).
            options.setdefault("draws", "virtual")
            session = Session(game, options, seed)
            seats = parse_seats(json.loads(_text(raw_seats) or ""), session.state.players)
        except (EngineError, ValueError, TypeError, RecursionError) as exc:
            raise SaveUnusableError(
                name,
                None,
                0,
                Text(
                    f"它的设置无法读取({short_reason(exc)})",
                    f"its set-up is unreadable ({short_reason(exc)})",
                ),
            ) from None
        return SavedGame(self, game_id, name, session, seats)

    def snapshot_engines(self, game_id: int) -> dict[int, object]:
        """Each snapshot of the game as seq → the engine key it claims, without blobs."""
        try:
            rows = self._conn.execute(
                "SELECT seq, engine FROM snapshots WHERE game_id = ?", (game_id,)
            ).fetchall()
        except sqlite3.Error as exc:
            log.warning("snapshots of game %d unreadable (%s): replaying the log", game_id, exc)
            return {}
        return {seq: engine for seq, engine in rows if isinstance(seq, int)}

    def snapshot_state(
        self, saved: SavedGame, expected: Snapshot, digest: bytes | None
    ) -> State[Any] | None:
        """The state of the snapshot ``expected`` describes (after log entry ``expected.seq``
        and ``expected.moves`` moves, whose chain is ``expected.prefix``), if its bytes give the
        ``digest`` the log's chain keeps for it and decode to a state of this game after that
        many moves; else None, with one warning line."""
        why = "the log keeps no digest for it"
        try:
            if digest is not None:
                row = self._conn.execute(
                    "SELECT state FROM snapshots WHERE game_id = ? AND seq = ?"
                    " AND length(state) <= ?",
                    (saved.id, expected.seq, snapshots.SNAPSHOT_MAX_BYTES),
                ).fetchone()
                blob = row[0] if row is not None else None
                why = "it is missing, not bytes or too large"
                if isinstance(blob, bytes):
                    why = "it differs from what the log's chain recorded (damaged or not its own)"
                    found = snapshot_digest(
                        expected.prefix, expected.seq, expected.moves, expected.engine, blob
                    )
                    if found == digest:
                        state = decode_state(blob, saved.game)
                        if state.moves == expected.moves:
                            return state
                        why = f"it claims {state.moves} moves where the log has {expected.moves}"
        except (SnapshotError, sqlite3.Error) as exc:
            why = str(exc)
        log.warning(
            "the snapshot after entry %d of the saved game %r is ignored, its log replays"
            " instead: %s",
            expected.seq,
            saved.name,
            why,
        )
        return None

    def list(self) -> builtins.list[SaveInfo]:
        """Every saved game, the latest first."""
        rows = self._conn.execute(
            "SELECT g.name, g.game, g.updated_at, COUNT(l.seq) FROM games g"
            " LEFT JOIN log l ON l.game_id = g.id GROUP BY g.id"
            " ORDER BY g.updated_at DESC, g.id DESC"
        )
        return [SaveInfo(*row) for row in rows]

    def clocks(self, name: str) -> str | None:
        """The timers kept with the saved game ``name`` (``kiosk.timers`` reads and checks the
        JSON), None when it has none."""
        row = self._conn.execute(
            "SELECT CAST(c.data AS BLOB) FROM clocks c JOIN games g ON g.id = c.game_id"
            " WHERE g.name = ?",
            (name,),
        ).fetchone()
        if row is None:
            return None
        return bytes(row[0]).decode("utf-8", errors="replace")

    def keep_clocks(self, name: str, data: str) -> None:
        """Keep the timers of the saved game ``name`` (one JSON document, replacing the last);
        SaveNotKeptError when the saves cannot be written (the clocks then live in memory)."""
        try:
            with _transaction(self._conn):
                self._conn.execute(
                    "INSERT OR REPLACE INTO clocks (game_id, data, at)"
                    " SELECT id, ?, ? FROM games WHERE name = ?",
                    (data, _now(), name),
                )
        except sqlite3.Error as exc:
            raise SaveNotKeptError(_why_failed(exc, self.path)) from None

    def append_moves(self, name: str, moves: builtins.list[Move]) -> None:
        """Log many moves of a game in one transaction without checking or applying them (to
        set up long saves for benchmarks and tests); they are chained like any entry."""
        conn = self._conn
        if self.cannot_keep is not None:
            raise SaveNotKeptError(self.cannot_keep)
        with _transaction(conn):
            game_id, count = conn.execute(
                "SELECT id, entries FROM games WHERE name = ?", (name,)
            ).fetchone()
            head, pending = self._last_chain(game_id)
            now = _now()
            rows = []
            for number, move in enumerate(moves, start=count + 1):
                text = move.to_json()
                head = _link(head, number, "move", text.encode(), pending)
                rows.append((game_id, number, text, now, head, pending))
                pending = None
            conn.executemany(
                "INSERT INTO log (game_id, seq, kind, move, at, chain, snapshot)"
                " VALUES (?, ?, 'move', ?, ?, ?, ?)",
                rows,
            )
            conn.execute(
                "UPDATE games SET head = ?, entries = ?, snapshot = ?, updated_at = ? WHERE id = ?",
                (head, count + len(moves), pending, now, game_id),
            )

    def _last_chain(self, game_id: int) -> tuple[bytes, bytes | None]:
        """The chain of the game's last entry (its identity when it has none) and the digest of
        a snapshot written after that entry (None if none), read inside the caller's
        transaction: what the next entry chains to and carries."""
        head, count, pending = self._conn.execute(
            "SELECT head, entries, snapshot FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if pending is None:
            return head, None
        if not count:
            return _identity(self._conn, game_id), pending
        (chain,) = self._conn.execute(
            "SELECT chain FROM log WHERE game_id = ? AND seq = ?", (game_id, count)
        ).fetchone()
        return chain, pending

    def append_entry(
        self,
        game_id: int,
        kind: str,
        move: Move | None,
        snapshot: Snapshot | None = None,
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
                (count,) = self._conn.execute(
                    "SELECT entries FROM games WHERE id = ?", (game_id,)
                ).fetchone()
                previous, carried = self._last_chain(game_id)
                seq = count + 1
                if (
                    snapshot is not None
                    and snapshot.seq == seq - 1
                    and snapshot.prefix == previous
                    and self._put_snapshot(game_id, snapshot, now)
                ):
                    carried = snapshot.digest
                chain = _link(previous, seq, kind, None if text is None else text.encode(), carried)
                self._conn.execute(
                    "INSERT INTO log (game_id, seq, kind, move, at, chain, snapshot)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game_id, seq, kind, text, now, chain, carried),
                )
                self._conn.execute(
                    "UPDATE games SET updated_at = ?, head = ?, entries = ?, snapshot = NULL"
                    " WHERE id = ?",
                    (now, chain, seq, game_id),
                )
        except sqlite3.Error as exc:
            log.warning("a %s of game %d was not kept: %s", kind, game_id, exc)
            raise SaveNotKeptError(_why_failed(exc, self.path)) from None
        return seq, chain

    def seal_snapshot(self, game_id: int, snapshot: Snapshot) -> None:
        """Write a snapshot of the state after the game's last entry in its own transaction
        (after a long replay), its digest sealed into the save's head until the next entry
        carries it; nothing if the log has moved on since. sqlite3.Error if it cannot be
        written (nothing is changed then)."""
        with _transaction(self._conn):
            (count,) = self._conn.execute(
                "SELECT entries FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            chain, _ = self._last_chain(game_id)
            if count != snapshot.seq or chain != snapshot.prefix:
                return
            if self._put_snapshot(game_id, snapshot, _now()):
                self._conn.execute(
                    "UPDATE games SET snapshot = ?, head = ? WHERE id = ?",
                    (snapshot.digest, _seal(chain, snapshot.digest), game_id),
                )

    def _put_snapshot(self, game_id: int, snapshot: Snapshot, now: str) -> bool:
        """Write a snapshot and drop the oldest beyond SNAPSHOTS_KEPT, inside the caller's
        transaction; on any database error only this savepoint is rolled back (False)."""
        self._conn.execute("SAVEPOINT snapshot")
        try:
            self._conn.execute(
                "INSERT OR REPLACE INTO snapshots (game_id, seq, prefix, engine, moves, state, at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    snapshot.seq,
                    snapshot.prefix.hex(),
                    snapshot.engine,
                    snapshot.moves,
                    snapshot.blob,
                    now,
                ),
            )
            self._conn.execute(
                "DELETE FROM snapshots WHERE game_id = ? AND seq NOT IN (SELECT seq FROM"
                " snapshots WHERE game_id = ? ORDER BY seq DESC LIMIT ?)",
                (game_id, game_id, snapshots.SNAPSHOTS_KEPT),
            )
        except sqlite3.Error as exc:
            self._conn.execute("ROLLBACK TO snapshot")
            log.warning("snapshot %d of game %d not written: %s", snapshot.seq, game_id, exc)
            return False
        finally:
            self._conn.execute("RELEASE snapshot")
        return True


def _options_dict(session: Session) -> dict[str, Any]:
    return asdict(session.options)
