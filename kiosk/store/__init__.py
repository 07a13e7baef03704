"""Saved games: an append-only SQLite log of accepted moves, undos and redos.

Every accepted move is committed (WAL, ``synchronous=FULL``) before its events are returned to
be announced, so pulling the power at any instant loses nothing that was shown as accepted. A
damaged database is renamed aside, never overwritten or emptied.

A save is never resumed short. Every log entry carries ``chain``, the SHA-256 of the previous
entry's chain (the first one's: of the save's identity, its row in ``games``) and of this entry's
number, kind and move text as stored (and of the digest of a snapshot written with it, below);
the save's row keeps the chain of its last entry
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
the next entry, and that entry's chain covers the snapshot's digest (``log.snapshot``: SHA-256
of the chain of the entry the snapshot follows, its number, the moves applied, the engine key
and the snapshot's bytes). A snapshot written after a long replay, when no entry follows yet,
has its digest in the save's row (``games.snapshot``), sealed into ``head``, until the next
entry takes it into its chain. No extra commit on a move; a failed snapshot write is rolled back
to a savepoint and only costs the snapshot. A snapshot is a cache, never the truth: it is used
only if its ``engine`` key is this engine's and game code's and codec's, its bytes give the
digest the (verified) chain keeps for its place, and they decode to a state of this game after
the move count of that place. A snapshot that differs in one bit from what was written, an
older one of the same game put in its place, one copied from another game, or one that does
not decode is ignored with one warning line, and the game resumes from an older good snapshot
or from the start: the resumed state is the log's. A damaged snapshot never sets a save aside;
a changed digest is a changed log, and is refused like one.

Codec: JSON of the engine's state types (msgspec), decoded against the game's own state type
(``engine.core.statetype``: ``State[D]`` with D the type of the data the game's ``setup`` makes,
and its ``options_type``): nothing is executed and no class is looked up by name, so a saved
game is data, never code. A state is written only if its bytes read back equal to it (a game
whose data has untyped fields resumes by replay). Anything else (random bytes, another schema,
deep nesting, huge numbers, above ``SNAPSHOT_MAX_BYTES``) is ``SnapshotError``, one line, never
a traceback. The codec's name is part of the engine key: the pickled snapshots of schema 4 are
deleted by the migration to 5, unread.

The package's modules, by what they hold: ``errors`` (what the store raises and says),
``schema`` (the tables and migrations), ``files`` (transactions, the data folder, SQLite's
errors, a file set aside), ``chain`` (the log's hash chain and its parsed entries),
``snapshots`` (cadence, codec and digest), ``database`` (``Store``), ``saved``
(``SavedGame``). Names with a leading underscore are the package's own, shared between its
modules; everything a user needs is imported from ``kiosk.store``.
"""

from __future__ import annotations

from kiosk.store.chain import ALTERED, DAMAGED_ROW, FIRST_ALTERED, MISSING
from kiosk.store.database import (
    BUSY_TIMEOUT_S,
    FULL_CHECK_MAX_BYTES,
    LOW_DISK_BYTES,
    SaveInfo,
    Store,
)
from kiosk.store.errors import (
    LOW_DISK,
    NOT_KEPT,
    NOT_KEPT_CODE,
    READ_ONLY,
    WHY_ASKED,
    WHY_DENIED,
    WHY_FILE,
    WHY_FOLDER,
    WHY_FULL,
    SaveNotFoundError,
    SaveNotKeptError,
    SaveUnusableError,
    StoreDamagedError,
    StoreError,
    StoreVersionError,
)
from kiosk.store.files import SQLITE_HEADER, set_aside
from kiosk.store.saved import SavedGame
from kiosk.store.schema import APPLICATION_ID, COLUMNS, MIGRATIONS, SCHEMA_VERSION
from kiosk.store.snapshots import (
    CODEC,
    SNAPSHOT_EVERY,
    SNAPSHOT_MAX_BYTES,
    SNAPSHOTS_KEPT,
    SnapshotError,
    decode_state,
    encode_state,
    engine_key,
    snapshot_digest,
)

__all__ = [
    "ALTERED",
    "APPLICATION_ID",
    "BUSY_TIMEOUT_S",
    "CODEC",
    "COLUMNS",
    "DAMAGED_ROW",
    "FIRST_ALTERED",
    "FULL_CHECK_MAX_BYTES",
    "LOW_DISK",
    "LOW_DISK_BYTES",
    "MIGRATIONS",
    "MISSING",
    "NOT_KEPT",
    "NOT_KEPT_CODE",
    "READ_ONLY",
    "SCHEMA_VERSION",
    "SNAPSHOTS_KEPT",
    "SNAPSHOT_EVERY",
    "SNAPSHOT_MAX_BYTES",
    "SQLITE_HEADER",
    "WHY_ASKED",
    "WHY_DENIED",
    "WHY_FILE",
    "WHY_FOLDER",
    "WHY_FULL",
    "SaveInfo",
    "SaveNotFoundError",
    "SaveNotKeptError",
    "SaveUnusableError",
    "SavedGame",
    "SnapshotError",
    "Store",
    "StoreDamagedError",
    "StoreError",
    "StoreVersionError",
    "decode_state",
    "encode_state",
    "engine_key",
    "set_aside",
    "snapshot_digest",
]
