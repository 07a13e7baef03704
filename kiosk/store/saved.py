"""A saved game: a session whose every accepted move, undo and redo is committed to the log
before it is announced, checked once and applied unchecked; its snapshots and its resume."""

from __future__ import annotations

import logging
import sqlite3
from typing import Any, Protocol

from engine.core import EngineError, Event, Game, Move, Result, Session, State, Text
from kiosk.seats import PlayerSeat, default_seats
from kiosk.store import snapshots
from kiosk.store.chain import Entry
from kiosk.store.errors import SaveUnusableError
from kiosk.store.files import short_reason
from kiosk.store.snapshots import Snapshot, SnapshotError, engine_key


class GameLog(Protocol):
    """What a saved game needs of the save file (``kiosk.store.database.Store`` is one)."""

    cannot_keep: Text | None

    def append_entry(
        self, game_id: int, kind: str, move: Move | None, snapshot: Snapshot | None = None
    ) -> tuple[int, bytes]:
        """Commit one log entry (with a snapshot of the state before it); its seq and chain."""
        ...

    def seal_snapshot(self, game_id: int, snapshot: Snapshot) -> None:
        """Write a snapshot of the state after the last entry, in its own transaction."""
        ...

    def snapshot_engines(self, game_id: int) -> dict[int, object]:
        """Each snapshot of the game as seq → the engine key it claims."""
        ...

    def snapshot_state(
        self, saved: SavedGame, expected: Snapshot, digest: bytes | None
    ) -> State[Any] | None:
        """The state of a snapshot, if it verifies against the log; else None."""
        ...


log = logging.getLogger("kiosk.store")


class SavedGame:
    """A session whose every accepted move, undo and redo is committed before it is announced."""

    def __init__(
        self,
        store: GameLog,
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

    def follow(self, head: bytes, seq: int) -> None:
        """Follow the log from its entry ``seq`` whose chain (or sealed head) is ``head``."""
        self._head, self._seq = head, seq

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
        if self._seq and self._seq % snapshots.SNAPSHOT_EVERY == 0:
            snapshot = self._snapshot()
        seq, chain = self.store.append_entry(self.id, kind, move, snapshot)
        if self._seq is not None and seq != self._seq + 1:
            self._seq = None  # another writer: this session no longer follows the log
        if self._seq is not None:
            self._seq, self._head = seq, chain

    def _snapshot(self) -> Snapshot | None:
        """The current state encoded for the current log entry; None if it cannot be."""
        if self._seq is None:
            return None
        try:
            blob = snapshots.encode_state(self.session.state, self.game)
        except SnapshotError as exc:  # a state that will not encode costs only its snapshot
            log.warning("snapshot of %r not made: %s", self.name, exc)
            return None
        return Snapshot(self._seq, self._head, engine_key(self.game), len(self.session.moves), blob)

    def write_snapshot(self) -> None:
        """Write a snapshot of the current state in its own transaction (after a long replay);
        a failure costs only the snapshot."""
        if self.store.cannot_keep is not None:
            return
        snapshot = self._snapshot()
        if snapshot is None:
            return
        try:
            self.store.seal_snapshot(self.id, snapshot)
        except sqlite3.Error as exc:
            log.warning("snapshot of %r not written: %s", self.name, exc)

    def restore(self, entries: list[Entry], chains: list[bytes], digests: dict[int, bytes]) -> int:
        """Put the session at the newest snapshot that the checked log ``entries`` vouch for
        (``chains[n]`` is the chain after n entries, ``digests[n]`` the digest the chain keeps
        of the snapshot after n entries; older good snapshots become undo checkpoints); return
        how many entries it covers. A snapshot that does not verify or decode is ignored with
        one warning line."""
        engines = self.store.snapshot_engines(self.id)
        engine = engine_key(self.game)
        if engine not in engines.values():
            return 0  # none, or another version's: the log replays
        moves: list[Move] = []
        undone: list[Move] = []
        good: list[tuple[int, int, list[Move], list[Move]]] = []
        lowest: list[int] = []  # the fewest moves on the stack since each good snapshot
        for seq, kind, move in entries:
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
            if engines.get(seq) == engine:
                good.append((seq, len(moves), list(moves), list(undone)))
                lowest.append(len(moves))

        def state(seq: int, length: int) -> State[Any] | None:
            expected = Snapshot(seq, chains[seq], engine, length, b"")
            return self.store.snapshot_state(self, expected, digests.get(seq))

        for position in range(len(good) - 1, -1, -1):
            seq, length, stack, taken_back = good[position]
            resumed = state(seq, length)
            if resumed is None:
                continue
            self.session.resume(stack, taken_back, resumed)  # undo rebuilds from here
            for older in range(position - 1, -1, -1):  # older snapshots still on this stack
                seq_, length_, _, _ = good[older]
                if lowest[older] >= length_ > 0:
                    older_state = state(seq_, length_)
                    if older_state is not None:
                        self.session.keep_checkpoint(length_, older_state)
            return seq
        return 0

    def replay_entry(self, entry: int, total: int, kind: str, move: Move | None) -> None:
        """Apply one checked log entry; SaveUnusableError if it does not replay."""
        try:
            if kind == "move" and move is not None:
                result = self.session.submit(move)
                if result.verdict.code in self.session.game.idle_refusals:
                    # accepted by an earlier version and changing nothing: applied as played
                    log.warning(
                        "saved game %r, entry %d: %s was accepted by an earlier version;"
                        " today's rules refuse it (%s), it changes nothing and is kept as played",
                        self.name,
                        entry,
                        move.type,
                        result.verdict.code,
                    )
                    self.session.push(move)
                elif not result.accepted:
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
                Text(
                    f"这条记录无法重放({short_reason(exc)})",
                    f"it does not replay ({short_reason(exc)})",
                ),
            ) from None
