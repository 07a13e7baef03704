"""The one phase-machine driver for every game: ``start``, ``legal`` and ``apply``.

After every change the driver settles the flow, in this order (boardgame.io's ``process``):
has the game ended; has the phase ended (then the next phase begins, skipping phases whose
``skip_if`` holds, and a new round begins where a phase ``starts_round``); have all seats passed.
A flow that keeps changing without any move is stopped with a FlowError, never a hang.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.core.errors import FlowError, IllegalMoveError
from engine.core.game import Game, Options
from engine.core.phases import END, Phase, TurnOrder
from engine.core.records import Event, Move, Seat
from engine.core.rng import Rng
from engine.core.state import Flow, Outcome, State
from engine.core.text import ACCEPTED, Reason, Text, Verdict
from engine.core.vocabulary import (
    Advance,
    EndTurn,
    GameEnded,
    GameStarted,
    Pass,
    PhaseEnded,
    PhaseStarted,
    RoundStarted,
    SeatPassed,
    StepStarted,
    TurnStarted,
)

MAX_SETTLE_STEPS = 200
"""How many phase changes may follow one move before the flow is declared endless."""

Events = tuple[Event, ...]

GAME_OVER = Reason("core.game_over", Text("游戏已经结束", "The game is over"))
NO_SUCH_SEAT = Reason(
    "core.no_such_seat", Text("没有{player}号玩家", "There is no player {player} at this table")
)
WRONG_PHASE = Reason(
    "core.wrong_phase",
    Text("{phase}不能进行这个行动({move})", "{move} cannot be done during {phase}"),
)
NOT_YOUR_TURN = Reason(
    "core.not_your_turn", Text("现在轮到{current}号玩家", "It is player {current}'s turn")
)
TURN_IN_PROGRESS = Reason(
    "core.turn_in_progress",
    Text("{current}号玩家的回合还没有结束", "Player {current} has not finished their turn"),
)
ALREADY_PASSED = Reason(
    "core.already_passed",
    Text("{player}号玩家本阶段已经结束行动", "Player {player} has already finished this phase"),
)
NO_ADVANCE = Reason(
    "core.no_advance",
    Text(
        "{phase}由玩家各自行动,所有玩家都结束后自动进入下一阶段",
        "{phase} is played by the players; it moves on by itself once every player is done",
    ),
)
NO_TURNS = Reason(
    "core.no_turns",
    Text("{phase}没有回合可以结束", "{phase} has no turns to end"),
)
SEAT_REQUIRED = Reason(
    "core.seat_required",
    Text("这个行动({move})必须指明玩家", "{move} must say which player makes it"),
)


def start(
    game: Game, options: Options | dict[str, Any] | None = None, seed: int = 0
) -> tuple[State[Any], Events]:
    """A new game: validated options, the game's own setup, the first phase begun."""
    opts = game.parse_options(options)
    data, rng, start_seat = game.setup(opts, Rng(seed))
    first = game.phases[0]
    state: State[Any] = State(
        game=game.name,
        players=opts.players,
        options=opts,
        flow=Flow(round=1, phase=first.name, start_seat=start_seat),
        rng=rng,
        data=data,
    )
    events: list[Event] = [GameStarted(game.name, opts.players, start_seat)]
    events.append(RoundStarted(1, start_seat))
    state = _enter_next(game, state, first.name, events, [], first_round=True)
    state = _settle(game, state, events)
    return state, tuple(events)


def legal(game: Game, state: State[Any], move: Move) -> Verdict:
    """Whether the move may be made now: the core's checks first (game over, the seat, an
    action in progress, phase and turn), then the game's own."""
    if state.outcome is not None:
        return GAME_OVER.reject()
    phase = game.phase(state.flow.phase)
    seat = move.seat
    if seat is not None and not 0 <= seat < state.players:
        return NO_SUCH_SEAT.reject(player=seat + 1)
    progress = game.in_progress(state)
    if progress is not None and not progress.allows(move):
        return progress.verdict  # finish the action in progress first
    if isinstance(move, Advance):
        if phase.order is not TurnOrder.TABLE:
            return NO_ADVANCE.reject(phase=phase.title)
        return ACCEPTED
    if seat is None:
        return SEAT_REQUIRED.reject(move=move.type)
    if phase.order is TurnOrder.TABLE:
        return WRONG_PHASE.reject(phase=phase.title, move=move.type)
    if not isinstance(move, Pass | EndTurn) and move.type not in phase.moves:
        return WRONG_PHASE.reject(phase=phase.title, move=move.type)
    if isinstance(move, EndTurn) and phase.order is TurnOrder.SIMULTANEOUS:
        return NO_TURNS.reject(phase=phase.title)
    if _free_action(phase, move):  # any seat, any time in the phase: the game decides
        return game.legal(state, move)
    if seat in state.flow.done:
        return ALREADY_PASSED.reject(player=seat + 1)
    current = state.flow.current
    if phase.order is TurnOrder.CLOCKWISE and current != seat:
        return NOT_YOUR_TURN.reject(current=(current or 0) + 1)
    if phase.order is TurnOrder.FREE and current is not None and current != seat:
        return TURN_IN_PROGRESS.reject(current=current + 1)
    if isinstance(move, Pass | EndTurn):
        return game.legal_pass(state, move)
    return game.legal(state, move)


def apply(game: Game, state: State[Any], move: Move) -> tuple[State[Any], Events]:
    """Apply a move after checking it; IllegalMoveError (with the verdict) if it is refused."""
    verdict = legal(game, state, move)
    if not verdict.ok:
        raise IllegalMoveError(verdict)
    return apply_unchecked(game, state, move)


def apply_unchecked(game: Game, state: State[Any], move: Move) -> tuple[State[Any], Events]:
    """Apply a move known to be legal (replay of a saved game), then settle the flow."""
    events: list[Event] = []
    phase = game.phase(state.flow.phase)
    if isinstance(move, Advance):
        state = _advance_step(state, phase, events)
    elif isinstance(move, Pass):
        state = _pass(state, phase, move.seat, events)
    elif isinstance(move, EndTurn):
        state = _end_turn(state, phase, move.seat, events)
    else:
        state, own = game.apply(state, move)
        events.extend(own)
        seat = move.seat
        assert seat is not None  # legal() refuses seat moves without a seat
        if _free_action(phase, move):
            pass  # taken outside the turns: it neither starts nor ends one
        elif move.ends_turn:
            state = _end_turn(state, phase, seat, events)
        elif phase.order is TurnOrder.FREE:
            state = replace(state, flow=replace(state.flow, current=seat))
    state = replace(state, moves=state.moves + 1)
    state = _settle(game, state, events)
    return state, tuple(events)


# --- the flow's inner workings -------------------------------------------------------------


def _free_action(phase: Phase, move: Move) -> bool:
    """Whether the move is a free action taken outside the turns (``Move.out_of_turn``) in a
    phase played in turns; in a simultaneous phase a seat that passed stays done."""
    return move.out_of_turn and phase.order in (TurnOrder.FREE, TurnOrder.CLOCKWISE)


def _enter(game: Game, state: State[Any], phase: Phase, events: list[Event]) -> State[Any]:
    """Begin a phase: reset who has passed, run ``on_begin``, announce it and its first step."""
    flow = replace(state.flow, phase=phase.name, step=0, done=frozenset(), current=None)
    state = replace(state, flow=flow)
    events.append(PhaseStarted(flow.round, phase.name))
    if phase.on_begin is not None:
        state, own = phase.on_begin(state)
        events.extend(own)
    if phase.steps:
        state = _to_step(state, phase, 0, events)
    if phase.order is TurnOrder.CLOCKWISE:
        state = _give_turn(state, _first_active(state, state.flow.start_seat), events)
    return state


def _first_active(state: State[Any], origin: Seat) -> Seat | None:
    """The first seat from ``origin`` clockwise (``origin`` included) that has not passed."""
    for k in range(state.players):
        seat = (origin + k) % state.players
        if seat not in state.flow.done:
            return seat
    return None


def _give_turn(state: State[Any], seat: Seat | None, events: list[Event]) -> State[Any]:
    if seat is not None:
        events.append(TurnStarted(seat))
    return replace(state, flow=replace(state.flow, current=seat))


def _end_turn(state: State[Any], phase: Phase, seat: Seat, events: list[Event]) -> State[Any]:
    if phase.order is TurnOrder.CLOCKWISE:
        return _give_turn(state, _first_active(state, seat + 1), events)
    if phase.order is TurnOrder.FREE:
        return replace(state, flow=replace(state.flow, current=None))
    return state


def _pass(state: State[Any], phase: Phase, seat: Seat, events: list[Event]) -> State[Any]:
    state = replace(state, flow=replace(state.flow, done=state.flow.done | {seat}))
    events.append(SeatPassed(seat, phase.name))
    return _end_turn(state, phase, seat, events)


def _advance_step(state: State[Any], phase: Phase, events: list[Event]) -> State[Any]:
    return _to_step(state, phase, state.flow.step + 1, events)


def _to_step(state: State[Any], phase: Phase, step: int, events: list[Event]) -> State[Any]:
    """Go to step ``step``, or the first after it whose ``skip_if`` does not hold."""
    while step < len(phase.steps):
        skip = phase.steps[step].skip_if
        if skip is None or not skip(state):
            events.append(StepStarted(phase.name, phase.steps[step].name, step + 1))
            break
        step += 1
    return replace(state, flow=replace(state.flow, step=step))


def _phase_over(state: State[Any], phase: Phase) -> bool:
    if phase.end_if is not None:
        return phase.end_if(state)
    if phase.order is TurnOrder.TABLE:
        return state.flow.step >= max(len(phase.steps), 1)
    return len(state.flow.done) >= state.players


def _next_phase(game: Game, state: State[Any], phase: Phase) -> str:
    if phase.next is None:
        names = [p.name for p in game.phases]
        return names[(names.index(phase.name) + 1) % len(names)]
    return phase.next if isinstance(phase.next, str) else phase.next(state)


def _end(state: State[Any], outcome: Outcome, events: list[Event]) -> State[Any]:
    events.append(GameEnded(outcome.result, outcome.winners, outcome.reason))
    return replace(state, outcome=outcome, flow=replace(state.flow, current=None))


def _settle(game: Game, state: State[Any], events: list[Event]) -> State[Any]:
    """Run the flow forward until it waits for a move or the game ends."""
    trail: list[str] = []
    for _ in range(MAX_SETTLE_STEPS):
        if state.outcome is not None:
            return state
        outcome = game.outcome(state)
        if outcome is not None:
            return _end(state, outcome, events)
        phase = game.phase(state.flow.phase)
        if _phase_over(state, phase):
            state = _leave(game, state, phase, events, trail)
            continue
        if phase.order is not TurnOrder.TABLE and len(state.flow.done) >= state.players:
            if phase.on_all_done is None:
                raise FlowError(
                    f"{game.name}: every seat has passed in phase {phase.name!r} but its end"
                    " condition is false and it has no on_all_done: the game cannot go on"
                )
            before = state
            state, own = phase.on_all_done(state)
            events.extend(own)
            if state.flow.done == before.flow.done and not _phase_over(state, phase):
                raise FlowError(
                    f"{game.name}: on_all_done of phase {phase.name!r} left every seat passed"
                    " and the phase not over: the game cannot go on"
                )
            if phase.order is TurnOrder.CLOCKWISE and state.flow.current is None:
                state = _give_turn(state, _first_active(state, state.flow.start_seat), events)
            continue
        if phase.order is TurnOrder.TABLE and state.flow.step >= max(len(phase.steps), 1):
            raise FlowError(
                f"{game.name}: the table advanced past the last step of phase {phase.name!r}"
                " but its end condition is false: the game cannot go on"
            )
        return state
    raise FlowError(
        f"{game.name}: the phases keep changing without any move"
        f" ({' → '.join(trail[-8:])} …): an end condition that always holds?"
    )


def _leave(
    game: Game, state: State[Any], phase: Phase, events: list[Event], trail: list[str]
) -> State[Any]:
    """End the current phase and enter the next one that is not skipped."""
    if phase.on_end is not None:
        state, own = phase.on_end(state)
        events.extend(own)
    events.append(PhaseEnded(state.flow.round, phase.name))
    trail.append(phase.name)
    return _enter_next(game, state, _next_phase(game, state, phase), events, trail)


def _enter_next(
    game: Game,
    state: State[Any],
    name: str,
    events: list[Event],
    trail: list[str],
    first_round: bool = False,
) -> State[Any]:
    """Enter the phase of that name, or the first after it that is not skipped."""
    for _ in range(len(game.phases) + 1):
        if name == END:
            return _end(state, game.final_outcome(state), events)
        nxt = game.phase(name)
        if nxt.starts_round and not first_round:
            state = _new_round(game, state, events)
        if nxt.skip_if is None or not nxt.skip_if(state):
            return _enter(game, state, nxt, events)
        trail.append(f"({name} skipped)")
        name = _next_phase(game, state, nxt)
    raise FlowError(f"{game.name}: every phase is skipped: {' → '.join(trail[-8:])}")


def _new_round(game: Game, state: State[Any], events: list[Event]) -> State[Any]:
    flow = state.flow
    start_seat = flow.start_seat
    if game.start_seat_passes:
        start_seat = (start_seat + 1) % state.players
    state = replace(state, flow=replace(flow, round=flow.round + 1, start_seat=start_seat))
    events.append(RoundStarted(flow.round + 1, start_seat))
    return state
