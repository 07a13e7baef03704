"""Walks through the offers only, with a game's invariants checked after every accepted move.

A walk makes only moves the console offers as legal now (as a player at the console would),
chosen at random or by a game's ``steer`` (which must still pick an offered option); after each
accepted move every invariant of the game is checked on the state before and after it, and in
every game that the move changed something (``changed_nothing``, issue 38: a move answered
"accepted" that changes neither the state nor the flow its log announces is a break). The
figures of many walks (walks, moves, refusals of offered moves, invariant breaks, how each
ended) are what issue 26 asks for: ``Figures.line`` prints them.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.core import Game, Move, Session, State, find_game, offered, offers
from engine.core.offers import SeatOffers, match, sample

Invariant = Callable[[State[Any], State[Any], Move], list[str]]
"""(state before, state after, the accepted move) → what it finds broken, in words."""
Steer = Callable[[State[Any], tuple[SeatOffers, ...], random.Random], Move | None]
"""A move to make instead of a random one (it must be offered), or None: a random one."""
Avoid = frozenset[str]


@dataclass(frozen=True)
class CheckedWalk:
    """How one walk went."""

    setup: dict[str, Any]
    seed: int
    moves: int
    refused: tuple[tuple[int, Move, str], ...]
    breaks: tuple[str, ...]
    ending: str
    """The outcome's reason, or ``unfinished`` when the bound came first."""
    phases: frozenset[str]
    """Every phase begun on the way (one begun and ended by the same move too)."""
    types: frozenset[str]
    marks: frozenset[str]
    """What the game's ``mark`` (state and events after each accepted move) noted on the way:
    a place reached, a rule exercised."""


def checked_walk(
    game: Game | str,
    setup: dict[str, Any],
    seed: int,
    max_moves: int,
    invariants: Iterable[Invariant],
    steer: Steer | None = None,
    avoid: Avoid = frozenset(),
    mark: Callable[[State[Any], tuple[Any, ...]], Iterable[str]] | None = None,
) -> CheckedWalk:
    """Play only offered, legal options (``steer``'s, else random ones among the offers whose
    move type is not in ``avoid``) until the game ends or ``max_moves``; check ``invariants``
    after every accepted move."""
    game = find_game(game) if isinstance(game, str) else game
    session = Session(game, setup, seed)
    rnd = random.Random(seed)
    checks = tuple(invariants)
    refused: list[tuple[int, Move, str]] = []
    breaks: list[str] = []
    phases: set[str] = {session.state.flow.phase}
    types: set[str] = set()
    marks: set[str] = set()
    count = 0
    while count < max_moves and session.state.outcome is None:
        open_now = offers(game, session.state)
        for _ in range(TALLY_TRIES):  # as the console's check greys a tally's whole
            move = steer(session.state, open_now, rnd) if steer else None
            if move is None:
                move = sample(_without(open_now, avoid), rnd) or sample(open_now, rnd)
            if move is None or not _tallied(open_now, move) or session.check(move).ok:
                break
        if move is None:
            breaks.append(f"move {count}: nothing is offered but the game goes on")
            break
        if offered(open_now, move) is None:
            breaks.append(f"move {count}: {move.type} was made but is not offered")
            break
        before = session.state
        result = session.submit(move)
        count += 1
        types.add(move.type)
        if not result.accepted:
            refused.append((count, move, result.verdict.code))
            continue
        idle = changed_nothing(before, session.state, result.events)
        if idle:
            breaks.append(f"move {count} ({move.type}): {idle}")
        for check in checks:
            breaks += (
                f"move {count} ({move.type}): {b}" for b in check(before, session.state, move)
            )
        phases.update(e.phase for e in result.events if e.type == "phase_started")
        if mark is not None:
            marks.update(mark(session.state, result.events))
    outcome = session.state.outcome
    return CheckedWalk(
        setup,
        seed,
        count,
        tuple(refused),
        tuple(breaks),
        outcome.reason if outcome is not None else "unfinished",
        frozenset(phases),
        frozenset(types),
        frozenset(marks),
    )


TALLY_TRIES = 20
"""How often a walk draws again when the counts it drew for a ``tally`` offer make a move the
rules refuse as a whole (an exchange giving exactly what it receives): the console checks the
whole as the counts change (``POST /api/check``) and greys "Do it", so players never send it."""


def _tallied(open_now: tuple[SeatOffers, ...], move: Move) -> bool:
    found = match(open_now, move)
    return found is not None and any(f.kind == "tally" for f in found[0].fields)


FLOW_NEWS = frozenset(
    {"turn_started", "step_started", "phase_started", "round_started", "game_ended"}
)
"""Events that say the flow moved on: a move whose only effect is one of them (a turn ended
and the next one begun, for the same seat when it is the only one left) changed something."""


def changed_nothing(before: State[Any], after: State[Any], events: Iterable[Any]) -> str:
    """Issue 38: what is wrong when a move answered "accepted" changed neither the state (apart
    from the count of moves made) nor the flow the log announces (a turn, step, phase or round
    begun), else "". Its other log lines then claim what did not happen ("player 1 is done
    with this phase" while nobody is)."""
    if dataclasses.replace(after, moves=before.moves) != before:
        return ""
    said = [e.type for e in events]
    if FLOW_NEWS & set(said):
        return ""
    return f"answered accepted but changed nothing (its log: {', '.join(said) or 'nothing'})"


def _without(open_now: tuple[SeatOffers, ...], avoid: Avoid) -> tuple[SeatOffers, ...]:
    if not avoid:
        return open_now
    return tuple(
        SeatOffers(g.seat, g.acting, tuple(o for o in g.offers if o.move not in avoid))
        for g in open_now
    )


def turn_ended(before: State[Any], after: State[Any]) -> set[int]:
    """The seats whose turn or part in a phase ended with this move: the seat whose turn was
    open when the turn passes on or the phase changes, every seat newly done, and at a change
    of phase every seat that had not passed yet."""
    ended = set(after.flow.done - before.flow.done) if _same_phase(before, after) else set()
    if before.flow.current is not None and (
        after.flow.current != before.flow.current or not _same_phase(before, after)
    ):
        ended.add(before.flow.current)
    if not _same_phase(before, after):
        ended |= set(before.seats) - set(before.flow.done)
    return ended


def phase_ended(before: State[Any], after: State[Any], phase: str) -> bool:
    """Whether ``phase`` (as played in ``before``) ended with this move."""
    return before.flow.phase == phase and not _same_phase(before, after)


def _same_phase(before: State[Any], after: State[Any]) -> bool:
    return (before.flow.phase, before.flow.round) == (after.flow.phase, after.flow.round) and (
        after.outcome is None
    )


def offered_option(
    open_now: tuple[SeatOffers, ...],
    seat: int,
    move_type: str,
    values: tuple[Any, ...] | None = None,
    numbers: dict[str, int] | None = None,
    fixed: dict[str, Any] | None = None,
) -> Move | None:
    """The move of the first offer of ``move_type`` for ``seat`` (with exactly these fixed
    values, when given) whose option ``values`` (or its first legal option) is legal, with
    ``numbers``; None if the console does not offer it now."""
    for group in open_now:
        for offer in group.offers:
            if offer.move != move_type or offer.seat != seat:
                continue
            if fixed is not None and offer.fixed != fixed:
                continue
            for option in offer.options:
                if option.verdict.ok and (values is None or tuple(option.values) == values):
                    move = offer.build(option.values, numbers or {})
                    return move if offered(open_now, move) is not None else None
    return None


@dataclass
class Figures:
    """The figures of many walks of one game."""

    game: str
    walks: int = 0
    moves: int = 0
    refused: int = 0
    breaks: list[str] = field(default_factory=list)
    endings: Counter[str] = field(default_factory=Counter)
    marks: Counter[str] = field(default_factory=Counter)

    def add(self, walk: CheckedWalk) -> None:
        """Count one walk in."""
        self.walks += 1
        self.moves += walk.moves
        self.refused += len(walk.refused)
        self.breaks += walk.breaks
        self.endings[walk.ending] += 1
        self.marks.update(walk.marks)

    def line(self) -> str:
        """The figures in one line."""
        endings = ", ".join(f"{reason} {n}" for reason, n in sorted(self.endings.items()))
        marks = ", ".join(f"{mark} {n}" for mark, n in sorted(self.marks.items()))
        return (
            f"{self.game}: {self.walks} walks, {self.moves} moves, {self.refused} offered moves"
            f" refused, {len(self.breaks)} invariant breaks; ended: {endings}"
            + (f"; reached: {marks}" if marks else "")
        )
