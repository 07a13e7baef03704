"""Choosing and creating characters (§开局设置.1, §创造角色) and the session's start."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.core import ACCEPTED, DicePoolAnnounced, Event, Seat, State, Text, Verdict
from engine.stonesaga import moves as mv
from engine.stonesaga import state as st
from engine.stonesaga.catalogue import ATTRIBUTES, TRAITS, catalogue
from engine.stonesaga.common import _cap, _energy_event
from engine.stonesaga.reasons import (
    ALREADY_YOURS,
    CHARACTER_FIRST,
    CREATE_FIRST,
    CREATION,
    NAME_TAKEN,
    NO_RELICS,
    NOT_IN_ROSTER,
    NOT_YOURS,
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
    if sum(dice) < basics.CREATION_MINIMUM:
        # §创造角色.1 反复重掷直到五骰之和 ≥ 14: the roll is noted (the character's rolls
        # carry it), and the answer says so rather than a bare "accepted": roll again.
        note = CREATION["roll_again"]
        total = sum(dice)
        return Verdict(True, note.code, note.message.format(total=total), note.rule, {})
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
    kinds = catalogue(state).resources
    for kept in data.stored:
        if kept.name == char.name:
            char = _with_relics(char, kept, kinds)
    data = replace(data, characters=(*data.characters, char))
    index = data.party - 1
    events: list[Event] = [mv.CharacterJoined(index, char.seat, char.name, char.attributes)]
    if inherits:
        data, inherited = _inherit(data, index, inherits, kinds)
        events += inherited
    return data, tuple(events)


def _with_relics(char: st.Character, relics: st.Relics, kinds: Any) -> st.Character:
    pack = char.pack
    for material in relics.materials:
        pack = basics.add(pack, material, 1, kinds)
    return replace(char, pack=pack, items=(*char.items, *relics.items))


def _inherit(data: Data, index: int, inherits: str, kinds: Any) -> tuple[Data, Events]:
    """§角色死亡与传说 遗物 局间死亡: the relics of ``inherits`` pass to character ``index``,
    once."""
    relics = next(r for r in data.relics if r.name == inherits)
    char = _with_relics(data.characters[index], relics, kinds)
    data = replace(
        data.with_character(index, char),
        relics=tuple(r for r in data.relics if r.name != inherits),
    )
    return data, (mv.RelicsInherited(index, inherits, relics.items, relics.materials),)


def seat_the_log(state: State[Data]) -> tuple[State[Data], Events]:
    """§开局设置.1 (每人选一名角色开这局), issue 38: the living characters of the Log are the
    seats' characters at once, one to each seat that has none yet, in the order they joined
    the campaign, with what they kept; nobody picks them again by hand. A living character
    left over (more than there are seats) stays in the Log for a player to choose
    (``choose_character``); a seat left without one creates one."""
    events: list[Event] = []
    for seat in state.seats:
        data = state.data
        if any(c.seat == seat for c in data.characters):
            continue
        playing = {c.name for c in data.characters}
        hero = next((h for h in data.roster if h.alive and h.name not in playing), None)
        if hero is None or _party_full(state, seat):
            break
        char = st.Character(hero.name, seat, hero.trait, hero.attributes, hero.age)
        data, joined = _join(state, char)
        state = replace(state, data=data)
        events += joined
    return state, tuple(events)


def _create(state: State[Data], move: mv.CreateCharacter) -> tuple[Data, Events]:
    values = (move.strength, move.dexterity, move.faith, move.perception)
    attributes = tuple(zip(ATTRIBUTES, values, strict=True))
    char = st.Character(move.name, move.seat, move.trait, attributes)
    data, events = _join(state, char, move.inherits)
    rolls = tuple((s, r) for s, r in data.creation_rolls if s != move.seat)
    return replace(data, creation_rolls=rolls), events


def _check_choose(state: State[Data], move: mv.ChooseCharacter) -> Verdict:
    """A living character of the Log, not yet in play; or, when the Log seated it already
    (``seat_the_log``), the seat's own character taking the relics of one who died between
    sessions (§角色死亡与传说 遗物 局间死亡: 交给玩家新选的角色)."""
    hero = next((h for h in state.data.roster if h.name == move.name), None)
    cat = catalogue(state)
    if hero is None or hero.age not in ("young", "old"):
        return NOT_IN_ROSTER.reject(name=character_name(move.name, cat))
    seated = next((c for c in state.data.characters if c.name == move.name), None)
    if seated is not None:
        name = character_name(move.name, cat)
        if seated.seat != move.seat:
            return NOT_YOURS.reject(name=name, owner=seated.seat + 1)
        if not move.inherits:  # choosing it again would change nothing
            return ALREADY_YOURS.reject(name=name)
        return _check_inherits(state, move.inherits)
    if _party_full(state, move.seat):
        return PARTY_FULL.reject()
    return _check_inherits(state, move.inherits)


def _choose(state: State[Data], move: mv.ChooseCharacter) -> tuple[Data, Events]:
    data = state.data
    seated = next((i for i, c in enumerate(data.characters) if c.name == move.name), None)
    if seated is not None:  # seated from the Log: it takes the relics
        return _inherit(data, seated, move.inherits, catalogue(state).resources)
    hero = next(h for h in data.roster if h.name == move.name)
    character = st.Character(hero.name, move.seat, hero.trait, hero.attributes, hero.age)
    return _join(state, character, move.inherits)


def _creation_begin(state: State[Data]) -> tuple[State[Data], Events]:
    """The Log's living characters take their seats (``seat_the_log``; at once between
    sessions already, as the interval begins), and the tray lights five dice for the
    characters still to be created."""
    state, events = seat_the_log(state)
    dice = DicePoolAnnounced(None, ("d6",) * basics.CREATION_DICE, "character_creation")
    return state, (*events, dice)


def creation_pass(state: State[Data], seat: Seat) -> Verdict:
    """§开局设置.1 (每名玩家至少要有 1 名角色): a player ends character creation only with a
    character; until then "done" is refused with what is left (issue 38: it was accepted and
    undone at once, the phase never moving on)."""
    if any(c.seat == seat for c in state.data.characters):
        return ACCEPTED
    playing = {c.name for c in state.data.characters}
    if any(h.alive and h.name not in playing for h in state.data.roster):
        return CHARACTER_FIRST.reject()
    return CREATE_FIRST.reject()


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
