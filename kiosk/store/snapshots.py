"""Snapshots of a game's state, which shorten a resume: their cadence, how many are kept, the
codec and the digest that ties a snapshot to its place in the log's hash chain (see
``kiosk.store`` for what makes a snapshot usable).

``SNAPSHOT_EVERY`` and ``encode_state`` are read through this module (``snapshots.X``) by the
store and the saved game, so that a test that changes them here changes them for both."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from engine.core import EngineError, Game, State
from engine.core.statetype import state_type

SNAPSHOT_EVERY = 256
"""Log entries between snapshots. Measured (``tablesight bench engine``): replaying a move costs
40–110 µs in the three games; writing a snapshot (JSON, read back to check it) 0.02–0.1 ms and
0.7–4.7 kB, reading one 0.02–0.1 ms (every state of the example games in ``docs/examples``);
256 bounds the engine work of a resume to ~10–30 ms and costs one small blob per 256 moves."""

SNAPSHOTS_KEPT = 4
"""Snapshots kept per game (older ones are deleted with the newest's write); the older ones serve
when the newest is damaged, and as checkpoints for undo after a resume."""

SNAPSHOT_MAX_BYTES = 4 * 2**20
"""A snapshot larger than this is neither written nor read (the three games' states are 1–5 kB)."""

CODEC = "msgspec-json/state-2"
"""The snapshot codec: JSON of the engine's state types (msgspec), read back typed against the
game's own state type. Part of the engine key, so a codec change ignores every old snapshot
(the pickles of codec 1 among them)."""


class SnapshotError(ValueError):
    """Snapshot bytes that are not a state of this game, said in one line."""


@dataclass(frozen=True)
class Snapshot:
    """A state ready to write: after log entry ``seq`` (whose chain is ``prefix``),
    ``moves`` moves applied, encoded by this ``engine``; ``digest`` ties it to the log."""

    seq: int
    prefix: bytes
    engine: str
    moves: int
    blob: bytes

    @property
    def digest(self) -> bytes:
        """What the log's hash chain keeps of this snapshot (``snapshot_digest``)."""
        return snapshot_digest(self.prefix, self.seq, self.moves, self.engine, self.blob)


def snapshot_digest(prefix: bytes, seq: int, moves: int, engine: str, blob: bytes) -> bytes:
    """SHA-256 of a snapshot's place (the chain of the log entry it follows, that entry's
    number, the moves applied), the engine key it was encoded by, and its bytes: another
    game's snapshot, an older one of the same game or one bit changed gives another digest."""
    digest = hashlib.sha256(b"tablesight snapshot 1\x1f" + prefix)
    digest.update(f"\x1f{seq}\x1f{moves}\x1f{engine}\x1f".encode())
    digest.update(blob)
    return digest.digest()


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
    every file of the engine package and of the game's own module (computed once per process):
    a state after N moves of another engine's rules is not this engine's."""
    own = getattr(sys.modules.get(type(game).__module__), "__file__", None)
    root = Path(sys.modules["engine"].__file__ or "").parent
    return _code_digest(None if own is None or Path(own).is_relative_to(root) else own)


@functools.cache
def _decoder(game: Game) -> msgspec.json.Decoder[Any]:
    return msgspec.json.Decoder(state_type(game))


def encode_state(state: State[Any], game: Game) -> bytes:
    """A state as snapshot bytes: JSON of its types. SnapshotError when the bytes would not
    read back as this very state (a game whose data has fields without types), or are too large:
    such a state gets no snapshot, and its game resumes by replay."""
    try:
        blob = msgspec.json.encode(state)
    except (msgspec.MsgspecError, TypeError, ValueError, RecursionError) as exc:
        raise SnapshotError(f"the state cannot be written as JSON ({exc})") from None
    if decode_state(blob, game) != state:
        raise SnapshotError("the state would not read back as it is (untyped data?)")
    return blob


def decode_state(blob: object, game: Game) -> State[Any]:
    """Snapshot bytes back into a state of ``game``: JSON decoded against the game's state type
    (``engine.core.statetype``) and options type, nothing executed. SnapshotError, in one line,
    for anything else (not bytes, too large, not JSON, too deep, another type or game)."""
    if not isinstance(blob, bytes):
        raise SnapshotError(f"a snapshot is bytes, not {type(blob).__name__}")
    if len(blob) > SNAPSHOT_MAX_BYTES:
        raise SnapshotError(f"a snapshot of {len(blob)} bytes is larger than any state")
    try:
        state = _decoder(game).decode(blob)
        options = msgspec.convert(state.options, game.options_type)
    except (msgspec.MsgspecError, EngineError, RecursionError, ValueError, TypeError) as exc:
        raise SnapshotError(f"not a state of {game.name}: {str(exc)[:200]}") from None
    if state.game != game.name or state.players != options.players or state.moves < 0:
        raise SnapshotError(f"a state of {state.game!r}, not of this game of {game.name}")
    return dataclasses.replace(state, options=options)
