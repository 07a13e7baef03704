"""Helpers for the Greenwood tests: games driven through the real engine, move by move."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from engine.core import Move, Pass, Session, State, find_game
from engine.core import flow as core_flow
from engine.core.box import Box, demo_files, merged
from engine.greenwood.catalogue import FILES, PACKAGE
from engine.greenwood.state import Player


class Table:
    """A Greenwood session with a few shortcuts; every move goes through ``Session.submit``."""

    def __init__(self, players: int = 2, **options: Any) -> None:
        options.setdefault("start_seat", 0)
        options.setdefault("tutorial_threats", True)
        self.session = Session(find_game("greenwood"), {"players": players, **options}, seed=1)
        self.events: list[Any] = []

    @property
    def state(self) -> State[Any]:
        """The current state."""
        return self.session.state

    def player(self, seat: int) -> Player:
        """One player's Greenwood data."""
        return self.state.data.players[seat]

    def ok(self, move: Move) -> tuple[Any, ...]:
        """Submit a move that must be accepted; returns its events."""
        result = self.session.submit(move)
        assert result.accepted, result.verdict
        self.events += result.events
        return result.events

    def refused(self, move: Move) -> str:
        """Submit a move that must be refused; returns the reason code (nothing changes)."""
        before = self.state
        result = self.session.submit(move)
        assert not result.accepted, f"{move} was accepted"
        assert self.state == before
        return result.verdict.code

    def pass_until(self, phase: str, round_: int | None = None) -> None:
        """Every seat passes (and the table advances) until ``phase`` of ``round_`` begins."""
        from engine.core import Advance

        for _ in range(200):
            flow = self.state.flow
            if flow.phase == phase and (round_ is None or flow.round == round_):
                return
            if flow.phase in ("dawn", "upkeep", "scoring"):
                self.ok(Advance())
                continue
            seat = (
                flow.current if flow.current is not None else min(set(self.state.seats) - flow.done)
            )
            if flow.phase == "dusk" and self.player(seat).marker_round != flow.round:
                self.ok(marker_for(self.state, seat))  # §三.2: the marker is not optional
            self.ok(Pass(seat=seat))
        raise AssertionError(f"never reached {phase}")


def marker_for(state: State[Any], seat: int) -> Move:
    """A dusk marker the seat may lay now (§三.2: on another effect than last round's)."""
    from engine.greenwood.moves import PlaceDuskMarker
    from engine.greenwood.texts import DUSK_EFFECT_NAMES

    last = state.data.players[seat].marker
    return PlaceDuskMarker(seat=seat, effect=next(e for e in DUSK_EFFECT_NAMES if e != last))


def with_player(state: State[Any], seat: int, **changes: Any) -> State[Any]:
    """The state with some of one player's fields set (for rules tested on a prepared board)."""
    data = state.data
    return replace(state, data=data.with_player(seat, replace(data.players[seat], **changes)))


def apply(state: State[Any], move: Move) -> tuple[State[Any], Any]:
    """The real driver's apply (raises IllegalMoveError when the rules refuse)."""
    return core_flow.apply(find_game("greenwood"), state, move)


def legal(state: State[Any], move: Move) -> Any:
    """The real driver's verdict on a move."""
    return core_flow.legal(find_game("greenwood"), state, move)


@pytest.fixture
def table() -> Table:
    """A two-player basic game, layout 0, seat 0 starts, tutorial threats."""
    return Table()


@pytest.fixture(scope="session")
def gw() -> SimpleNamespace:
    """The helpers above, for tests that build their own tables."""
    return SimpleNamespace(
        Table=Table, with_player=with_player, apply=apply, legal=legal, box_with=box_with
    )


# --- a second box: the owner's printed values, unlike the demo's ----------------------------

OWNERS_LAYOUT_0: dict[str, Any] = {
    "number": 0,
    "cols": 6,
    "rows": 6,
    "start": [0, 0],
    "unusable": [[1, 0]],  # the demo's layout 0 has none
    "rewards": [
        {"cells": [[0, 1]], "reward": "spy"},  # the demo's (0, 1) pays nothing
        {"cells": [[0, 2], [1, 2]], "reward": "vp:4"},
    ],
    "areas": [
        {"name": "column 1", "cells": [[0, r] for r in range(6)], "reward": "aurora"},
        {"name": "bow", "cells": [[1, 0], [2, 0]], "reward": "vp:6"},  # (1, 0) unusable
    ],
}
"""The owner's submarine 0: (1, 0) unusable, other icons and areas than the demo's."""

SECOND_BOX_ITEMS: dict[str, Any] = {
    "submarines/layout/0": OWNERS_LAYOUT_0,
    "tracks/strength": {
        "spaces": [[], ["vp:3"], ["energy"], ["slot"], ["vp:1"], ["spy"], ["slot"], ["energy"]],
        "end_reward": ["aurora"],
    },
    "tracks/pathfinding": {
        "ranges": [2, 2, 3, 3, 3, 4, 4, 4],
        "spaces": [[], ["aurora"], [], ["spy"], ["vp:2"], ["energy"], ["wisp"], ["vp:2"]],
        "loop_from": 5,
    },
    "tracks/threat/threat 1": {"name": "threat 1", "trigger": "knowledge", "protection": ["vp:5"]},
    "pieces/creature/moth": {
        "name": "moth",
        "deck": "A",
        "shape": "domino",
        "pieces": 1,
        "cost": ["blue"],
        "vp": 7,
    },
}
"""The owner's items of the second box (the demo: strength space 1 a knowledge slot,
pathfinding space 1 one point, threat 1 set off by the spirit protecting for 2 points, the moth
costing red for 2 points)."""


def box_with(items: dict[str, Any]) -> Box:
    """The demo box with ``items`` over it, those items the owner's."""
    demo = demo_files(PACKAGE, FILES)
    return Box.of("greenwood", merged(demo, items), list(items))


@pytest.fixture(scope="session")
def second_box() -> Box:
    """A box whose submarine 0, tracks, threat 1 and moth are the owner's (``SECOND_BOX_ITEMS``)."""
    return box_with(SECOND_BOX_ITEMS)
