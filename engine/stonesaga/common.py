"""Small helpers the moves share: whose character, energy, maladies, the pack, shared costs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.core import ACCEPTED, Event, Seat, State, Text, Verdict
from engine.stonesaga import moves as mv
from engine.stonesaga import state as st
from engine.stonesaga.catalogue import FEATURES, Catalogue, catalogue, noted, valley_item
from engine.stonesaga.reasons import (
    DEAD,
    NO_ENERGY,
    NO_FEATURE,
    NO_SUCH_CHARACTER,
    NOT_SAME_TILE,
    NOT_YOURS,
    ONE_ACTION,
    OUTPOST_SHARES,
)
from engine.stonesaga.rules import basics
from engine.stonesaga.texts import character_name, counted, tile_name

Events = tuple[Event, ...]
Data = st.Saga


# --- small helpers --------------------------------------------------------------------------


def _who(state: State[Data], seat: Seat, index: int) -> Verdict:
    """The move's character exists, is this seat's, and is alive."""
    chars, cat = state.data.characters, catalogue(state)
    if not 0 <= index < len(chars):
        return NO_SUCH_CHARACTER.reject(n=index + 1)
    char = chars[index]
    if char.seat != seat:
        return NOT_YOURS.reject(name=character_name(char.name, cat), owner=char.seat + 1)
    if not char.alive:
        return DEAD.reject(name=character_name(char.name, cat))
    return ACCEPTED


def _energy(cat: Catalogue, char: st.Character, cost: int) -> Verdict:
    if char.energy < cost:
        name = character_name(char.name, cat)
        return NO_ENERGY.reject(cost=cost, energy=char.energy, name=name)
    return ACCEPTED


def _feature(
    state: State[Data], char: st.Character, feature: str, allowed: tuple[str, ...]
) -> Verdict:
    """The feature is one the action allows and the character's tile shows it (by the box's
    valley: a refusal on a demo tile says so)."""
    cat = catalogue(state)
    here = cat.tiles[char.tile].features
    if feature not in allowed or feature not in here:
        names = "/".join(FEATURES[f].zh for f in allowed)
        names_en = "/".join(FEATURES[f].en for f in allowed)
        verdict = NO_FEATURE.reject(needed=Text(names, names_en))
        if feature not in allowed:  # the action's own rule, not the tile's print
            return verdict
        return noted(verdict, cat, valley_item(char.tile))
    return ACCEPTED


def _first_failure(*checks: Callable[[], Verdict]) -> Verdict:
    for check in checks:
        verdict = check()
        if not verdict.ok:
            return verdict
    return ACCEPTED


def _cap(data: Data) -> int:
    return basics.energy_cap(data.party)


def _length(data: Data) -> int:
    return basics.health_length(data.party)


def _spend(data: Data, index: int, cost: int, reason: str) -> tuple[Data, Events]:
    char = data.characters[index]
    if cost == 0:
        return data, ()
    char = replace(char, energy=char.energy - cost)
    return data.with_character(index, char), (_energy_event(index, char, -cost, reason),)


def _energy_event(index: int, char: st.Character, delta: int, reason: str) -> mv.EnergyChanged:
    return mv.EnergyChanged(index, char.energy, delta, reason)


def _lose(data: Data, index: int, amount: int, reason: str) -> tuple[Data, Events]:
    """§精力: lose energy; each missing point is a light injury."""
    before = data.characters[index]
    char, missing = basics.lose_energy(before, amount)
    data = data.with_character(index, char)
    events: list[Event] = [_energy_event(index, char, char.energy - before.energy, reason)]
    for _ in range(missing):
        data, more = _malady(data, index, "injury", heavy=False)
        events.extend(more)
    return data, tuple(events)


def _gain_energy(data: Data, index: int, amount: int, reason: str) -> tuple[Data, Events]:
    before = data.characters[index]
    char = replace(before, energy=min(before.energy + amount, _cap(data)))
    return data.with_character(index, char), (
        _energy_event(index, char, char.energy - before.energy, reason),
    )


def _malady(data: Data, index: int, kind: str, heavy: bool) -> tuple[Data, Events]:
    char = data.characters[index]
    health, what = basics.gain_malady(char.health, _length(data), kind, heavy)
    return _health(data, index, health, what)


def _health(data: Data, index: int, health: st.Health, what: str) -> tuple[Data, Events]:
    char = replace(data.characters[index], health=health)
    full = basics.incapacitated(health, _length(data))
    event = mv.HealthChanged(index, tuple(t.label() for t in health), what, full)
    return data.with_character(index, char), (event,)


def _pack(cat: Catalogue, data: Data, index: int, name: str, amount: int) -> tuple[Data, Events]:
    kinds = cat.resources
    char = data.characters[index]
    char = replace(char, pack=basics.add(char.pack, name, amount, kinds))
    return data.with_character(index, char), (
        mv.ResourcesChanged(index, basics.resource_name(name, kinds), amount),
    )


def _deplete(data: Data, tile: str) -> tuple[Data, Events]:
    """An action that depletes its tile puts a depletion marker, arrow side up (§地点标记)."""
    return data.with_tile(tile, depletion=2), (mv.TileMarked(tile, "depletion", 2),)


def _tile(cat: Catalogue, data: Data, tile: str) -> Text:
    """A tile as a message names it: 地块102, or where an unexplored one lies (its tray and
    slot in the box's valley)."""
    explored = dict(data.tiles).get(tile, st.TileState()).explored
    return tile_name(tile, None if explored else cat.slots.get(tile))


def _held(cat: Catalogue, pack: st.Resources, names: tuple[str, ...]) -> str | None:
    """The first resource of ``names`` the pack does not hold enough of, else None."""
    kinds = cat.resources
    wanted: dict[str, int] = {}
    for name in names:
        key = basics.resource_name(name, kinds)
        wanted[key] = wanted.get(key, 0) + 1
    return next((n for n, k in wanted.items() if basics.count(pack, n, kinds) < k), None)


def _busy(state: State[Data], seat: Seat) -> Verdict:
    """The seat's turn has had its one action (§白天阶段). An action still open (a mining, a
    test, fishing dice) is the core's to refuse (``rules.dice.in_progress``)."""
    if state.data.acted and state.flow.current == seat:
        return ONE_ACTION.reject()
    return ACCEPTED


Check = Callable[[State[Data], Any], Verdict]
Apply = Callable[[State[Data], Any], tuple[Data, Events]]


def _check_shares(state: State[Data], move: Any, total: int) -> Verdict:
    """§建前哨.1: ``total`` energy shared freely by living characters on the builder's tile."""
    data, cat = state.data, catalogue(state)
    char = data.characters[move.character]
    payers = dict(move.shares)
    own = total - sum(payers.values())
    if len(payers) != len(move.shares) or own < 0 or move.character in payers:
        return OUTPOST_SHARES.reject()
    for index, share in payers.items():
        if not 0 <= index < data.party or share < 0:
            return OUTPOST_SHARES.reject()
        other = data.characters[index]
        if not other.alive or other.tile != char.tile:
            return NOT_SAME_TILE.reject(other=character_name(other.name, cat))
        verdict = _energy(cat, other, share)
        if not verdict.ok:
            return verdict
    return _energy(cat, char, own)


def _pay_shares(data: Data, move: Any, total: int, reason: str) -> tuple[Data, Events]:
    payers = {move.character: total - sum(s for _, s in move.shares), **dict(move.shares)}
    out: list[Event] = []
    for index, share in payers.items():
        data, events = _spend(data, index, share, reason)
        out += events
    return data, tuple(out)


def _hook(step: Callable[[State[Data]], tuple[Data, Events]]) -> Callable[[Any], Any]:
    def run(state: State[Data]) -> tuple[State[Data], Events]:
        data, events = step(state)
        return replace(state, data=data), events

    return run


def _bag_text(contents: tuple[tuple[str, int], ...]) -> Text:
    return counted(contents, Text("空", "empty"))
