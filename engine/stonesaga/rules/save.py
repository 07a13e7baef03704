"""The save at the end of a session (§局间保留与存档): what is kept, the valley recorded."""

from __future__ import annotations

from dataclasses import replace

from engine.core import ACCEPTED, Event, State, Verdict
from engine.stonesaga import campaign as camp
from engine.stonesaga import moves as mv
from engine.stonesaga import state as st
from engine.stonesaga.catalogue import catalogue
from engine.stonesaga.reasons import KEEP, KEPT_ALREADY, NOT_HELD, RECORDED_ALREADY, VALLEY_FULL
from engine.stonesaga.texts import character_name, item_name, resource_name

Events = tuple[Event, ...]
Data = st.Saga


def _check_keep(state: State[Data], move: mv.Keep) -> Verdict:
    char, cat = state.data.characters[move.character], catalogue(state)
    if camp.keep_problem(move.items, move.materials, cat) is not None:
        return KEEP.reject()
    missing = [i for i in move.items if move.items.count(i) > char.items.count(i)]
    if missing:
        return NOT_HELD.reject(what=item_name(missing[0], cat))
    held = {k.partition(":")[0]: 0 for k, _ in char.pack}
    for key, amount in char.pack:
        held[key.partition(":")[0]] += amount
    materials = cat.resources.materials
    for name in move.materials:
        base = name.partition(":")[0]
        if base not in materials or move.materials.count(name) > held.get(base, 0):
            return NOT_HELD.reject(what=resource_name(name))
    if (move.character, move.items, move.materials) in state.data.kept:
        return KEPT_ALREADY.reject(name=character_name(char.name, cat))
    return ACCEPTED


def _keep(state: State[Data], move: mv.Keep) -> tuple[Data, Events]:
    kept = tuple(k for k in state.data.kept if k[0] != move.character)
    kept = (*kept, (move.character, move.items, move.materials))
    return replace(state.data, kept=kept), (mv.Kept(move.character, move.items, move.materials),)


def _check_record(state: State[Data], move: mv.RecordValley) -> Verdict:
    capacity = camp.valley_capacity(state.data.epoch, catalogue(state))
    if move.record.trays > capacity:
        return VALLEY_FULL.reject(
            epoch=state.data.epoch, capacity=capacity, trays=move.record.trays
        )
    if move.record == state.data.valley_record:
        return RECORDED_ALREADY.reject()
    return ACCEPTED


def _record(state: State[Data], move: mv.RecordValley) -> tuple[Data, Events]:
    r = move.record
    event = mv.ValleyRecorded(r.region, r.trays, len(r.tiles), len(r.overlays))
    return replace(state.data, valley_record=r), (event,)
