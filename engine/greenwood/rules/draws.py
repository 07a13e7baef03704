"""The threats the table draws (draws "table"): §一.3 shuffles the 15 threat cards and turns one
face up for round 1 (four more lie face down, turned two at a time in §三.15 step 3). The engine
draws none: each card turned up is given by the table, picked by its name among the box's
threats, as an action in progress that nothing else can pass by."""

from __future__ import annotations

from dataclasses import replace

from engine.core import ACCEPTED, InProgress, State, Verdict
from engine.greenwood import reasons as R
from engine.greenwood.catalogue import catalogue
from engine.greenwood.moves import ThreatDrawn, ThreatRevealed
from engine.greenwood.state import GreenwoodData

THREATS_IN_PLAY = 5
"""Threat cards on the main board in a game (§一.3)."""
DRAW_MOVES = frozenset({ThreatDrawn.type})


def table_draws(state: State[GreenwoodData]) -> bool:
    """Whether the table gives the threats (draws "table", not the tutorial order)."""
    return state.options.draws == "table" and not state.options.tutorial_threats


def in_progress(state: State[GreenwoodData]) -> InProgress | None:
    """A threat turned up that the table has not given yet, once a dusk is under way."""
    if state.data.threats_due and state.flow.phase == "dusk":
        return InProgress(None, R.THREAT_DUE.reject(), DRAW_MOVES)
    return None


def check(state: State[GreenwoodData], move: ThreatDrawn) -> Verdict:
    """§一.3: a threat the box holds, not already on the board, while one is due."""
    table = state.data
    if not table.threats_due:
        return R.NO_THREAT_DUE.reject()
    threats = catalogue(state).threats
    index = next((i for i, t in enumerate(threats) if t.name == move.threat), None)
    if index is None:
        return R.NO_SUCH_THREAT.reject()
    if index in table.threats:
        return R.THREAT_IN_PLAY.reject()
    return ACCEPTED


def play(
    state: State[GreenwoodData], move: ThreatDrawn
) -> tuple[State[GreenwoodData], tuple[ThreatRevealed, ...]]:
    """The threat goes face up on the board (it is revealed now)."""
    table = state.data
    threats = catalogue(state).threats
    index = next(i for i, t in enumerate(threats) if t.name == move.threat)
    at = len(table.threats)
    table = replace(
        table,
        threats=(*table.threats, index),
        revealed=at + 1,
        threats_due=table.threats_due - 1,
    )
    event = ThreatRevealed(at, threats[index].name, threats[index].trigger)
    return replace(state, data=table), (event,)
