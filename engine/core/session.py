"""A game in progress with its move log: check, submit, undo and redo (pure, in memory).

The log holds the accepted moves that survive; undo takes the last one back and keeps it for
redo until a new move is made. The state after any prefix of the log is recomputed from the
nearest checkpoint, so undo is cheap and the session never keeps every state.
"""

from __future__ import annotations

from dataclasses import dataclass
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


class Session:
    """One game of one game type, from its options and seed, with undo and redo."""

    def __init__(self, game: Game, options: Options | dict[str, Any] | None = None, seed: int = 0):
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
            rejected = MoveRejected(
                move.type,
                move.seat,
                verdict.code,
                verdict.message.zh,
                verdict.message.en,
                verdict.rule,
            )
            return Result(verdict, (rejected,))
        events = self._push(move)
        self.undone.clear()
        return Result(verdict, events)

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
        """Apply again the move undone last; NothingToUndoError if there is none."""
        if not self.undone:
            raise NothingToUndoError("there is no undone move to redo")
        move = self.undone.pop()
        events = self._push(move)
        return (MoveRedone(move.type, len(self.moves)), *events)

    def _push(self, move: Move) -> tuple[Event, ...]:
        self.state, events = flow.apply(self.game, self.state, move)
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
