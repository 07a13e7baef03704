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

The package's modules, by what they hold: ``errors`` (what the store raises and says),
``schema`` (the tables and migrations), ``files`` (transactions, the data folder, SQLite's
errors, a file set aside), ``chain`` (the log's hash chain and its parsed entries),
``snapshots`` (cadence and codec), ``database`` (``Store``), ``saved`` (``SavedGame``). Names
with a leading underscore are the package's own, shared between its modules; everything a user
needs is imported from ``kiosk.store``.
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
    SNAPSHOTS_KEPT,
    decode_state,
    encode_state,
    engine_key,
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
    "Store",
    "StoreDamagedError",
    "StoreError",
    "StoreVersionError",
    "decode_state",
    "encode_state",
    "engine_key",
    "set_aside",
]
