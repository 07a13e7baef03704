"""A game in progress with its move log: check, submit, undo and redo (pure, in memory).

The log holds the accepted moves that survive; undo takes the last one back and keeps it for
redo until a new move is made. The state after any prefix of the log is recomputed from the
nearest checkpoint, so undo is cheap and the session never keeps every state.

Legality in layers, as python-chess separates ``push_san`` from ``push``: ``submit`` checks a
move and applies it only if it is legal; ``check`` gives the verdict alone, and ``push`` applies
a move the caller has just checked on this very state, without checking it again (the saved
game checks once, writes the move, then pushes it). The checkpoints, the states kept after
``moves[:k]``, are read with ``checkpoints`` and ``latest_checkpoint`` and set, when a saved game
resumes from its snapshots, with ``resume`` and ``keep_checkpoint``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from engine.core import flow
from engine.core.errors import NothingToUndoError
from engine.core.game import Game, Options
from engine.core.records import Event, Move
from engine.core.state import State
from engine.core.text import Verdict
from engine.core.vocabulary import MoveRedone, MoveRejected, MoveUndone

CHECKPOINT_EVERY = 64


@dataclass(frozen=True)
class Result:
    """What submitting a move gave: the verdict and the events to announce."""

    verdict: Verdict
    events: tuple[Event, ...]

    @property
    def accepted(self) -> bool:
        """Whether the move was accepted."""
        return self.verdict.ok

    @classmethod
    def refused(cls, move: Move, verdict: Verdict) -> Result:
        """The result of a refused move: its verdict and one MoveRejected event saying why."""
        rejected = MoveRejected(
            move.type,
            move.seat,
            verdict.code,
            verdict.message.zh,
            verdict.message.en,
            verdict.rule,
        )
        return cls(verdict, (rejected,))


class Session:
    """One game of one game type, from its options and seed, with undo and redo."""

    def __init__(
        self, game: Game, options: Options | dict[str, Any] | None = None, seed: int = 0
    ) -> None:
        self.game = game
        self.seed = seed
        initial, self.start_events = flow.start(game, options, seed)
        self.options = initial.options
        self.moves: list[Move] = []
        self.undone: list[Move] = []
        self._checkpoints: dict[int, State[Any]] = {0: initial}
        self.state: State[Any] = initial

    def check(self, move: Move) -> Verdict:
        """Whether the move may be made now, without making it."""
        return flow.legal(self.game, self.state, move)

    def submit(self, move: Move) -> Result:
        """Apply the move if legal; a refused move changes nothing and gives MoveRejected."""
        verdict = self.check(move)
        if not verdict.ok:
            return Result.refused(move, verdict)
        return Result(verdict, self.push(move))

    def push(self, move: Move) -> tuple[Event, ...]:
        """Apply a move known to be legal now (``check`` gave it an accepted verdict on this
        state), without checking it again; it clears what undo kept for redo, as ``submit``
        does. A move that is not legal here leaves the session in a state the rules never
        reach: check first."""
        events = self._push(move)
        self.undone.clear()
        return events

    def undo(self) -> tuple[Event, ...]:
        """Take back the last accepted move; NothingToUndoError if there is none."""
        if not self.moves:
            raise NothingToUndoError("there is no move to undo")
        move = self.moves.pop()
        self.undone.append(move)
        for index in [i for i in self._checkpoints if i > len(self.moves)]:
            del self._checkpoints[index]
        self.state = self._rebuild(len(self.moves))
        return (MoveUndone(move.type, len(self.moves)),)

    def redo(self) -> tuple[Event, ...]:
        """Apply again the move undone last; NothingToUndoError if there is none.

        Not checked again: undo restored the very state in which the move was accepted."""
        if not self.undone:
            raise NothingToUndoError("there is no undone move to redo")
        move = self.undone.pop()
        events = self._push(move)
        return (MoveRedone(move.type, len(self.moves)), *events)

    # --- checkpoints: the states kept after moves[:k] ------------------------------------

    @property
    def checkpoints(self) -> Mapping[int, State[Any]]:
        """The states the session keeps, by how many of its moves they follow (a read-only
        view; 0, the initial state, is always there)."""
        return MappingProxyType(self._checkpoints)

    def latest_checkpoint(self, moves: int) -> tuple[int, State[Any]]:
        """The latest kept state after at most ``moves`` of the session's moves, as (its move
        count, the state); (0, the initial state) at worst."""
        base = max((k for k in self._checkpoints if k <= max(moves, 0)), default=0)
        return base, self._checkpoints[base]

    def resume(self, moves: Sequence[Move], undone: Sequence[Move], state: State[Any]) -> None:
        """Put the session after ``moves`` (``undone`` kept for redo, the last one first to
        redo) at ``state``, which the caller vouches is the state after them (a saved game's
        snapshot); it becomes the checkpoint after ``len(moves)``, and checkpoints beyond it are
        dropped. ValueError if the state does not say it follows that many moves."""
        if state.moves != len(moves) or state.game != self.game.name:
            raise ValueError(
                f"a state of {state.game} after {state.moves} moves cannot resume"
                f" {self.game.name} after {len(moves)}"
            )
        self.moves, self.undone, self.state = list(moves), list(undone), state
        for index in [i for i in self._checkpoints if i > len(moves)]:
            del self._checkpoints[index]
        self._checkpoints[len(moves)] = state

    def keep_checkpoint(self, moves: int, state: State[Any]) -> None:
        """Keep ``state`` as the state after ``self.moves[:moves]``, which the caller vouches
        for (an older snapshot of a saved game), so that undo rebuilds from it. ValueError if
        ``moves`` is not a prefix of the log or the state does not say it follows that many."""
        if not 0 < moves <= len(self.moves) or state.moves != moves:
            raise ValueError(
                f"a state after {state.moves} moves cannot be kept after {moves} of"
                f" {len(self.moves)}"
            )
        self._checkpoints[moves] = state

    def _push(self, move: Move) -> tuple[Event, ...]:
        self.state, events = flow.apply_unchecked(self.game, self.state, move)
        self.moves.append(move)
        if len(self.moves) % CHECKPOINT_EVERY == 0:
            self._checkpoints[len(self.moves)] = self.state
        return events

    def _rebuild(self, length: int) -> State[Any]:
        base = max(i for i in self._checkpoints if i <= length)
        state = self._checkpoints[base]
        for move in self.moves[base:length]:
            state, _ = flow.apply_unchecked(self.game, state, move)
        return state
