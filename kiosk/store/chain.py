"""The log's hash chain: where a save's chain starts (its identity), the chain of each entry
(with the digest of the snapshot written in its transaction), the save's head, the check of a
log against them, and the logged moves parsed back (see ``kiosk.store``)."""

from __future__ import annotations

import hashlib
import sqlite3
from typing import Any

from engine.core import EngineError, Move, Text, move_from_json
from kiosk.store.errors import SaveUnusableError
from kiosk.store.files import short_reason

Entry = tuple[int, str, Move | None]
"""A checked log entry: its seq, kind and parsed move (None for undo and redo)."""


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


def _link(
    previous: bytes | None, seq: int, kind: str, move: bytes | None, snapshot: bytes | None = None
) -> bytes:
    """The chain of a log entry: SHA-256 of the previous entry's chain (the identity for the
    first), this entry's number and kind, its move text as stored and, when a snapshot of the
    state before it was written in its transaction, that snapshot's digest (an entry without
    one chains as before schema 5)."""
    digest = hashlib.sha256(previous or b"")
    digest.update(f"\x1f{seq}\x1f{kind}\x1f".encode())
    digest.update(b"\x00" if move is None else b"\x01" + move)
    if snapshot is not None:
        digest.update(b"\x1e" + snapshot)
    return digest.digest()


def _seal(chain: bytes, snapshot: bytes | None) -> bytes:
    """The save's head: the chain of its last entry or, when a snapshot of the state after that
    entry was written since (after a long replay), SHA-256 of that chain and the snapshot's
    digest; the next entry takes the digest into its own chain."""
    if snapshot is None:
        return chain
    return hashlib.sha256(chain + b"\x1esnapshot\x1f" + snapshot).digest()


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
    rows: list[tuple[Any, Any, Any, Any, Any]],
    head: object,
    count: object,
    pending: object = None,
) -> tuple[list[bytes], dict[int, bytes]]:
    """The chain of each logged entry (seq, kind, move, chain, snapshot digest), recomputed and
    compared with what is stored; the save's ``head`` and ``count`` must be those of its last
    entry (sealed with ``pending``, the digest of a snapshot written after it). Returns the
    chains and the verified snapshot digests by the seq of the entry each snapshot follows.
    SaveUnusableError at the first difference (a missing, altered, reordered or extra entry;
    a log cut short)."""
    total = count if isinstance(count, int) and count >= 0 else len(rows)
    previous = identity
    chains: list[bytes] = []
    digests: dict[int, bytes] = {}
    sha256 = hashlib.sha256  # _link, inlined: this loop runs once per logged entry
    for index, (seq, kind, move, chain, snapshot) in enumerate(rows):
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
        if isinstance(snapshot, bytes):
            digest.update(b"\x1e")
            digest.update(snapshot)
            digests[index] = snapshot
        elif snapshot is not None:
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
    if pending is not None and not isinstance(pending, bytes):
        raise SaveUnusableError(name, len(rows) or None, total, ALTERED if rows else DAMAGED_ROW)
    if head != _seal(previous, pending):
        raise SaveUnusableError(name, len(rows) or None, total, ALTERED if rows else DAMAGED_ROW)
    if pending is not None:
        digests[len(rows)] = pending
    return chains, digests


MISSING = Text("这条记录缺失或次序错乱", "this entry is missing or out of order")
ALTERED = Text("这条记录与保存时不一致(已损坏或被改动)", "it differs from what was saved (damaged)")
FIRST_ALTERED = Text(
    "第一条记录或存档本身的设置与保存时不一致(已损坏或被改动)",
    "this entry or the save's own set-up differs from what was saved (damaged)",
)
DAMAGED_ROW = Text(
    "存档的设置与保存时不一致(已损坏或被改动)", "its set-up differs from what was saved (damaged)"
)


def _parse_entries(name: str, rows: list[tuple[Any, Any, Any, Any, Any]]) -> list[Entry]:
    """The checked rows as entries with parsed moves; SaveUnusableError at the first move that
    is not UTF-8 text, not JSON or not a move of a known type."""
    parsed: dict[bytes, Move] = {}  # moves are frozen values: one instance per text
    entries: list[Entry] = []
    append = entries.append
    for index, (seq, kind, raw, _, _) in enumerate(rows):
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
                    f"记录的一步无法读取({short_reason(exc)})",
                    f"a logged move is unreadable ({short_reason(exc)})",
                )
                raise SaveUnusableError(name, index + 1, len(rows), why) from None
        append((seq, kind, move))
    return entries
