"""Choosing and creating characters (§开局设置.1, §创造角色) and the session's start."""

from __future__ import annotations

from dataclasses import replace

from engine.core import ACCEPTED, DicePoolAnnounced, Event, Seat, State, Text, Verdict
from engine.stonesaga import moves as mv
from engine.stonesaga import state as st
from engine.stonesaga.catalogue import ATTRIBUTES, TRAITS, catalogue
from engine.stonesaga.common import _cap, _energy_event
from engine.stonesaga.reasons import (
    CREATION,
    NAME_TAKEN,
    NO_RELICS,
    NOT_IN_ROSTER,
    PARTY_FULL,
    UNKNOWN_NAME,
)
from engine.stonesaga.rules import basics
from engine.stonesaga.texts import character_name, name_in

Events = tuple[Event, ...]
Data = st.Saga


def _check_create(state: State[Data], move: mv.CreateCharacter) -> Verdict:
    if _party_full(state, move.seat):
        return PARTY_FULL.reject()
    if move.trait not in TRAITS:
        return UNKNOWN_NAME.reject(what=Text("特质", "trait"), name=name_in(TRAITS, move.trait))
    if _name_taken(state, move.name):
        return NAME_TAKEN.reject(name=character_name(move.name, catalogue(state)))
    values = (move.strength, move.dexterity, move.faith, move.perception)
    problem = basics.creation_problem(move.rolls, values)
    if problem:
        return CREATION[problem].reject()
    return _check_inherits(state, move.inherits)


def _check_inherits(state: State[Data], inherits: str) -> Verdict:
    """§角色死亡与传说 遗物 局间死亡: relics pass from a character who died between sessions,
    once, to a character of this session."""
    if inherits and not any(r.name == inherits for r in state.data.relics):
        return NO_RELICS.reject(name=character_name(inherits, catalogue(state)))
    return ACCEPTED


def _check_creation_roll(state: State[Data], move: mv.CreationRoll) -> Verdict:
    dice = (move.d1, move.d2, move.d3, move.d4, move.d5)
    if not all(1 <= d <= 6 for d in dice):
        return CREATION["dice"].reject()
    rolls = state.data.rolls(move.seat)
    if rolls and sum(rolls[-1]) >= basics.CREATION_MINIMUM:
        return CREATION["rerolled_too_soon"].reject()
    return ACCEPTED


def _creation_roll(state: State[Data], move: mv.CreationRoll) -> tuple[Data, Events]:
    data = state.data
    dice = (move.d1, move.d2, move.d3, move.d4, move.d5)
    rolls = dict(data.creation_rolls)
    rolls[move.seat] = (*data.rolls(move.seat), dice)
    return replace(data, creation_rolls=tuple(sorted(rolls.items()))), ()


def _party_full(state: State[Data], seat: Seat) -> bool:
    """§开局设置.1–2: one more character for this seat would leave a player without one, or
    make a fifth."""
    having = [c.seat for c in state.data.characters]
    return basics.party_full(having, state.players, state.data.party, seat)


def _name_taken(state: State[Data], name: str) -> bool:
    names = {c.name for c in state.data.characters} | {h.name for h in state.data.roster}
    return name in names


def _join(state: State[Data], char: st.Character, inherits: str = "") -> tuple[Data, Events]:
    """The character joins the game with what it kept at its last session (§局间保留与存档)
    and the relics it inherits, if any (§角色死亡与传说 遗物 局间死亡)."""
    data = state.data
    kept = [r for r in data.stored if r.name == char.name]
    kept += [r for r in data.relics if inherits and r.name == inherits]
    kinds = catalogue(state).resources
    for relics in kept:
        pack = char.pack
        for material in relics.materials:
            pack = basics.add(pack, material, 1, kinds)
        char = replace(char, pack=pack, items=(*char.items, *relics.items))
    data = replace(
        data,
        characters=(*data.characters, char),
        relics=tuple(r for r in data.relics if not inherits or r.name != inherits),
    )
    events: list[Event] = [
        mv.CharacterJoined(data.party - 1, char.seat, char.name, char.attributes)
    ]
    if inherits:
        relics = next(r for r in kept if r.name == inherits)
        events.append(mv.RelicsInherited(data.party - 1, inherits, relics.items, relics.materials))
    return data, tuple(events)


def _create(state: State[Data], move: mv.CreateCharacter) -> tuple[Data, Events]:
    values = (move.strength, move.dexterity, move.faith, move.perception)
    attributes = tuple(zip(ATTRIBUTES, values, strict=True))
    char = st.Character(move.name, move.seat, move.trait, attributes)
    data, events = _join(state, char, move.inherits)
    rolls = tuple((s, r) for s, r in data.creation_rolls if s != move.seat)
    return replace(data, creation_rolls=rolls), events


def _check_choose(state: State[Data], move: mv.ChooseCharacter) -> Verdict:
    hero = next((h for h in state.data.roster if h.name == move.name), None)
    cat = catalogue(state)
    if hero is None or hero.age not in ("young", "old"):
        return NOT_IN_ROSTER.reject(name=character_name(move.name, cat))
    if _party_full(state, move.seat):
        return PARTY_FULL.reject()
    if any(c.name == move.name for c in state.data.characters):
        return NAME_TAKEN.reject(name=character_name(move.name, cat))
    return _check_inherits(state, move.inherits)


def _choose(state: State[Data], move: mv.ChooseCharacter) -> tuple[Data, Events]:
    hero = next(h for h in state.data.roster if h.name == move.name)
    character = st.Character(hero.name, move.seat, hero.trait, hero.attributes, hero.age)
    return _join(state, character, move.inherits)


def _creation_begin(state: State[Data]) -> tuple[State[Data], Events]:
    return state, (DicePoolAnnounced(None, ("d6",) * basics.CREATION_DICE, "character_creation"),)


def _creation_done(state: State[Data]) -> bool:
    seats = {c.seat for c in state.data.characters}
    return len(state.flow.done) >= state.players and seats >= set(state.seats)


def _reopen(state: State[Data]) -> tuple[State[Data], Events]:
    """§开局设置.1: every player has at least one character; a player who passed without one
    is asked again."""
    seats = {c.seat for c in state.data.characters}
    done = frozenset(s for s in state.flow.done if s in seats)
    return replace(state, flow=replace(state.flow, done=done)), ()


def _session_begin(state: State[Data]) -> tuple[State[Data], Events]:
    """§开局设置.4, .8: energy to the cap for the party's size, figures on the box's start
    tile; the alert behemoth, when the engine drew it (draws "virtual"): with "table" the
    table gives it before the first action (``alert_behemoth``)."""
    data = state.data
    cap, start = _cap(data), catalogue(state).start
    chars = tuple(replace(c, energy=cap, tile=start) for c in data.characters)
    events: list[Event] = [_energy_event(i, c, cap, "setup") for i, c in enumerate(chars)]
    if data.alert:
        events.append(mv.BehemothAlert(data.alert))
    return replace(state, data=replace(data, characters=chars)), tuple(events)
