"""Stonesaga's rules by move type: each move's check and its effect (``check``, ``play``).

The checks and effects themselves are in the other modules of ``rules/``: the day's actions
(``day``), tests and dice (``dice``), character creation (``creation``), the night
(``night``), the save (``save``) and the interval between sessions (``interval``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.core import (
    ACCEPTED,
    Event,
    Move,
    State,
    Verdict,
)
from engine.stonesaga import moves as mv
from engine.stonesaga import state as st
from engine.stonesaga.common import Apply, Check, _busy, _who
from engine.stonesaga.rules.creation import (
    _check_choose,
    _check_create,
    _check_creation_roll,
    _choose,
    _create,
    _creation_roll,
)
from engine.stonesaga.rules.day import (
    _aid,
    _build,
    _check_aid,
    _check_build,
    _check_craft,
    _check_delve,
    _check_end,
    _check_exchange,
    _check_fire,
    _check_fish,
    _check_forage,
    _check_give,
    _check_mine,
    _check_outpost,
    _check_pack,
    _check_process,
    _check_relocate,
    _check_scavenge,
    _check_shelter,
    _check_travel,
    _check_water,
    _craft,
    _delve,
    _end,
    _exchange,
    _fire,
    _fish,
    _forage,
    _give,
    _mine,
    _outpost,
    _pack_items,
    _process,
    _relocate,
    _scavenge,
    _shelter,
    _travel,
    _water,
)
from engine.stonesaga.rules.dice import (
    _alert,
    _call_test,
    _check_alert,
    _check_call_test,
    _check_draw,
    _check_effect,
    _check_finish,
    _check_fishing_roll,
    _check_roll,
    _draw,
    _effect,
    _finish,
    _fishing_roll,
    _roll,
)
from engine.stonesaga.rules.interval import (
    INTERVAL_MOVES,
    check_mourn,
    mourn,
)
from engine.stonesaga.rules.night import (
    _card,
    _check_card,
)
from engine.stonesaga.rules.save import _check_keep, _check_record, _keep, _record

Events = tuple[Event, ...]
Data = st.Saga


ACTIONS: dict[type[Move], tuple[Check, Apply]] = {
    mv.Travel: (_check_travel, _travel),
    mv.Exchange: (_check_exchange, _exchange),
    mv.Pack: (_check_pack, _pack_items),
    mv.Aid: (_check_aid, _aid),
    mv.Process: (_check_process, _process),
    mv.Craft: (_check_craft, _craft),
    mv.BuildOutpost: (_check_outpost, _outpost),
    mv.CollectWater: (_check_water, _water),
    mv.PrepareShelter: (_check_shelter, _shelter),
    mv.Fish: (_check_fish, _fish),
    mv.Forage: (_check_forage, _forage),
    mv.Mine: (_check_mine, _mine),
    mv.Build: (_check_build, _build),
    mv.RelocateOutpost: (_check_relocate, _relocate),
    mv.MakeFire: (_check_fire, _fire),
    mv.Delve: (_check_delve, _delve),
    mv.Scavenge: (_check_scavenge, _scavenge),
}
"""The day's actions: each needs a living character of the seat and no open mining or test."""

OTHERS: dict[type[Move], tuple[Check, Apply]] = {
    mv.AlertBehemoth: (_check_alert, _alert),
    mv.DrawOre: (_check_draw, _draw),
    mv.FinishMining: (_check_finish, _finish),
    mv.FishingRoll: (_check_fishing_roll, _fishing_roll),
    mv.CallTest: (_check_call_test, _call_test),
    mv.Roll: (_check_roll, _roll),
    mv.Effect: (_check_effect, _effect),
    mv.Give: (_check_give, _give),
    mv.EndChallenge: (_check_end, _end),
    mv.NightCard: (_check_card, _card),
    mv.Keep: (_check_keep, _keep),
    mv.RecordValley: (_check_record, _record),
    mv.CreateCharacter: (_check_create, _create),
    mv.CreationRoll: (_check_creation_roll, _creation_roll),
    mv.ChooseCharacter: (_check_choose, _choose),
}
"""Moves that are not day actions (their own checks)."""


OTHERS[mv.Mourn] = (check_mourn, mourn)
OTHERS.update(INTERVAL_MOVES)


def check(state: State[Any], move: Move) -> Verdict:
    """Whether a move may be made now: the seat's character, then the move's own rule."""
    character = getattr(move, "character", None)
    if character is not None and move.seat is not None:
        verdict = _who(state, move.seat, character)
        if not verdict.ok:
            return verdict
    if type(move) in ACTIONS:
        verdict = _busy(state, move.seat or 0)
        if not verdict.ok:
            return verdict
        return ACTIONS[type(move)][0](state, move)
    if type(move) in OTHERS:
        return OTHERS[type(move)][0](state, move)
    return ACCEPTED


def play(state: State[Any], move: Move) -> tuple[State[Any], Events]:
    """The move's effects on the saga's data; an action marks the seat's turn as used."""
    if state.flow.current is None and state.data.acted:
        state = replace(state, data=replace(state.data, acted=False))  # a new turn
    action = type(move) in ACTIONS
    data, events = (ACTIONS if action else OTHERS)[type(move)][1](state, move)
    return replace(state, data=replace(data, acted=True) if action else data), events
