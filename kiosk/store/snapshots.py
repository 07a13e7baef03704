"""Snapshots of a game's state, which shorten a resume: their cadence, how many are kept, and
the codec (see ``kiosk.store`` for why pickle, and what makes a snapshot usable).

``SNAPSHOT_EVERY`` and ``encode_state`` are read through this module (``snapshots.X``) by the
store and the saved game, so that a test that changes them here changes them for both."""

from __future__ import annotations

import functools
import hashlib
import io
import pickle
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core import Game, State

SNAPSHOT_EVERY = 256
"""Log entries between snapshots. Measured (``tablesight bench engine``): replaying a move costs
40–110 µs in the three games, pickling a state 0.1–0.2 ms and 1.3–2.3 kB; 256 bounds the engine
work of a resume to ~10–30 ms and costs one small blob per 256 moves."""

SNAPSHOTS_KEPT = 4
"""Snapshots kept per game (older ones are deleted with the newest's write); the older ones serve
when the newest is damaged, and as checkpoints for undo after a resume."""

CODEC = "pickle-5/engine-only-1"
"""The snapshot codec; part of the engine key, so a codec change ignores every old snapshot."""


@dataclass(frozen=True)
class _Snapshot:
    """A state ready to write: after log entry ``seq`` (whose chain is ``prefix``, in hex),
    ``moves`` moves applied, encoded by this ``engine``."""

    seq: int
    prefix: str
    engine: str
    moves: int
    blob: bytes


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
