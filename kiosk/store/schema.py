"""The save file's schema: its version, the tables a save of each version has, and the SQL
that brings each version to the next (run by ``Store.open``, ``kiosk.store.database``)."""

from __future__ import annotations

SCHEMA_VERSION = 6

APPLICATION_ID = 0x54534754
"""``PRAGMA application_id`` of a tablesight save ("TSGT"); another program's id is foreign."""

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
    5: """
    ALTER TABLE log ADD COLUMN snapshot BLOB;
    ALTER TABLE games ADD COLUMN snapshot BLOB;
    DELETE FROM snapshots
    """,
    6: """
    CREATE TABLE IF NOT EXISTS clocks (
        game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        data TEXT NOT NULL,
        at TEXT NOT NULL
    )
    """,
}
"""Schema version → the SQL that brings the previous version to it (4 also chains the entries
already logged, ``_chain_existing``; the old snapshots' prefixes were another hash). 5 puts
snapshots in the hash chain: ``log.snapshot`` is the digest of the snapshot written in that
entry's transaction (of the state before it), ``games.snapshot`` that of a snapshot written
after the last entry (sealed into ``head``); the old snapshots (pickles) are deleted, the
entries' chains stay as they were (an entry without a snapshot chains as before)."""

COLUMNS: dict[str, tuple[int, set[str]]] = {
    "games": (1, {"id", "name", "game", "options", "seed", "created_at", "updated_at"}),
    "log": (1, {"game_id", "seq", "kind", "move", "at"}),
    "snapshots": (3, {"game_id", "seq", "prefix", "engine", "moves", "state", "at"}),
    "clocks": (6, {"game_id", "data", "at"}),
}
"""The tables a save of a schema version has (from which version, with at least these columns)."""
