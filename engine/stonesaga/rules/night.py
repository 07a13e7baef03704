"""The nine-step night (§夜晚阶段.1–9): night cards, the mourning, each step's effect."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.core import (
    ACCEPTED,
    DicePoolAnnounced,
    Event,
    Phase,
    State,
    Text,
    TurnOrder,
    Verdict,
)
from engine.stonesaga import campaign as camp
from engine.stonesaga import moves as mv
from engine.stonesaga import state as st
from engine.stonesaga.catalogue import ATTRIBUTES, OMENS, catalogue, rule
from engine.stonesaga.common import _cap, _gain_energy, _health, _hook, _length, _malady
from engine.stonesaga.reasons import (
    ATTRIBUTE_MAX,
    ATTRIBUTE_NEEDED,
    BAD_DIE,
    BOOST_NEEDED,
    CARD_DONE,
    NO_MOURNING,
    NO_SUCH_CHARACTER,
    NOT_YOURS,
    UNKNOWN_NAME,
)
from engine.stonesaga.rules import basics
from engine.stonesaga.texts import character_name, name_in

Events = tuple[Event, ...]
Data = st.Saga


def _check_card(state: State[Data], move: mv.NightCard) -> Verdict:
    char = state.data.characters[move.character]
    if char.night_card:
        return CARD_DONE.reject(name=character_name(char.name, catalogue(state)))
    if move.omen not in OMENS:
        return UNKNOWN_NAME.reject(what=Text("预兆", "omen"), name=name_in(OMENS, move.omen))
    full = char.energy >= _cap(state.data)
    if not move.met and full and move.boost not in ATTRIBUTES:
        return BOOST_NEEDED.reject()
    return ACCEPTED


def _card(state: State[Data], move: mv.NightCard) -> tuple[Data, Events]:
    """§夜晚阶段.7: a calm night when the condition fails; the omen of the last card counts."""
    data = state.data
    char = replace(data.characters[move.character], night_card=True)
    data = data.with_character(move.character, char)
    events: list[Event] = []
    if not move.met:
        if char.energy >= _cap(data):
            level = basics.gain_boost(char.boost(move.boost), 1)
            data = data.with_character(move.character, char.with_boost(move.boost, level))
            events.append(mv.BoostChanged(move.character, move.boost, level))
        else:
            data, more = _gain_energy(data, move.character, 1, "calm_night")
            events += more
    data = replace(data, omens=(move.omen,))
    return data, (*events, mv.OmenSet(move.omen))


def _night_death(state: State[Data]) -> tuple[Data, Events]:
    """§夜晚阶段.1: an incapacitated character dies; the clan mourns (§角色死亡与传说.1) with a
    d6 rolled at the table and entered with ``mourn`` (the ``mourning`` phase)."""
    data, events = state.data, []
    for index, char in enumerate(data.characters):
        if not char.alive or not basics.incapacitated(char.health, _length(data)):
            continue
        data = data.with_character(index, replace(char, alive=False))
        data = replace(data, mourning=(*data.mourning, index))
        events.append(mv.MourningDue(index, char.name))
    return data, (*events, *_mourning_dice(data))


def _mourning_dice(data: Data) -> Events:
    """The tray lights one d6 for the next mourning due, or clears when none is left."""
    if not data.mourning:
        return ()
    seat = data.characters[data.mourning[0]].seat
    return (DicePoolAnnounced(seat, ("d6",), "mourning"),)


def _raisable(char: st.Character) -> tuple[str, ...]:
    """The attributes a mourning 5–6 may raise: those below 6 (§角色死亡与传说.1)."""
    return tuple(name for name, value in char.attributes if value < 6)


def _check_mourn(state: State[Data], move: mv.Mourn) -> Verdict:
    data, cat = state.data, catalogue(state)
    if not 0 <= move.legend < data.party:
        return NO_SUCH_CHARACTER.reject(n=move.legend + 1)
    char = data.characters[move.legend]
    if move.legend not in data.mourning:
        return NO_MOURNING.reject(name=character_name(char.name, cat))
    if char.seat != move.seat:
        return NOT_YOURS.reject(name=character_name(char.name, cat), owner=char.seat + 1)
    if not 1 <= move.roll <= 6:
        return BAD_DIE.reject()
    if move.attribute and move.attribute not in ATTRIBUTES:
        return UNKNOWN_NAME.reject(
            what=Text("属性", "attribute"), name=name_in(ATTRIBUTES, move.attribute)
        )
    raising = camp.mourning(move.roll) == "attribute"
    if move.attribute and move.attribute not in _raisable(char):
        return ATTRIBUTE_MAX.reject(
            name=character_name(char.name, cat), attribute=ATTRIBUTES[move.attribute]
        )
    if raising and not move.attribute and _raisable(char):
        return ATTRIBUTE_NEEDED.reject()
    return ACCEPTED


def _mourn(state: State[Data], move: mv.Mourn) -> tuple[Data, Events]:
    """§角色死亡与传说.1: 1 population −1; 2–4 unrest +1; 5–6 the chosen attribute +1."""
    data = state.data
    char = data.characters[move.legend]
    effect = camp.mourning(move.roll)
    if effect == "population":  # the track ends at 0 (a Log below it would be refused)
        data = replace(data, population=max(data.population - 1, 0))
    elif effect == "unrest":
        data = replace(data, unrest=data.unrest + 1)
    else:
        char, effect = _legend_raise(char, move.attribute)
        data = data.with_character(move.legend, char)
    data = replace(data, mourning=tuple(i for i in data.mourning if i != move.legend))
    died = mv.CharacterDied(move.legend, char.name, move.roll, effect)
    clear = () if data.mourning else (DicePoolAnnounced(move.seat, (), ""),)
    return data, (died, *_mourning_dice(data), *clear)


def _legend_raise(char: st.Character, attribute: str) -> tuple[st.Character, str]:
    """§角色死亡与传说.1 5–6: the chosen attribute +1, at most 6."""
    if attribute not in _raisable(char):
        return char, "attribute"
    attrs = tuple((n, v + 1 if n == attribute else v) for n, v in char.attributes)
    return replace(char, attributes=attrs), f"{attribute}+1"


def _night_recover(state: State[Data]) -> tuple[Data, Events]:
    """§夜晚阶段.2: rest, one food, one water, comfort (shelter seats or a fire), up to the cap."""
    data, events = state.data, []
    kinds = catalogue(state).resources
    rest = basics.rest_energy(data.party)
    seats = {tile: t.shelter for tile, t in data.tiles}
    for index, char in enumerate(data.characters):
        if not char.alive:
            continue
        food = basics.edible(char.pack, kinds) or ""
        water = basics.count(char.pack, "water", kinds) > 0
        pack = basics.add(char.pack, food, -1, kinds) if food else char.pack
        pack = basics.add(pack, "water", -1, kinds) if water else pack
        comfort = data.tile(char.tile).fire > 0 or seats[char.tile] > 0
        if data.tile(char.tile).fire == 0 and comfort:
            seats[char.tile] -= 1
        gain = rest + bool(food) + water + comfort
        energy = min(char.energy + gain, _cap(data))
        char = replace(char, pack=pack, energy=energy, ate=bool(food), drank=water)
        data = data.with_character(index, char)
        events.append(mv.NightRecovered(index, energy, rest, food, water, comfort))
    return data, tuple(events)


def _night_hunger(state: State[Data]) -> tuple[Data, Events]:
    """§夜晚阶段.3: fed and watered → degrade a malady; neither → a light injury."""
    data = state.data
    events: list[Event] = []
    for index, char in enumerate(data.characters):
        if not char.alive:
            continue
        if char.ate and char.drank:
            cell = basics.best_to_degrade(char.health)
            if cell is not None:
                data, more = _health(
                    data, index, basics.degrade_malady(char.health, cell), "degraded"
                )
                events += more
        elif not char.ate and not char.drank:
            data, more = _malady(data, index, "injury", heavy=False)
            events += more
        data = data.with_character(index, replace(data.characters[index], ate=False, drank=False))
    return data, tuple(events)


def _night_decay(state: State[Data]) -> tuple[Data, Events]:
    """§夜晚阶段.5: perishables spoil; depletion markers and fires degrade one level."""
    data = state.data
    events: list[Event] = []
    for index, char in enumerate(data.characters):
        pack, _ = basics.spoil(char.pack, catalogue(state).resources)
        before, after = dict(char.pack), dict(pack)
        for key in sorted(set(before) | set(after)):
            delta = after.get(key, 0) - before.get(key, 0)
            if delta:
                events.append(mv.ResourcesChanged(index, key, delta))
        data = data.with_character(index, replace(char, pack=pack))
    for tile, markers in data.tiles:
        for marker in ("depletion", "fire"):
            level = getattr(markers, marker)
            if level:
                data = data.with_tile(tile, **{marker: level - 1})
                events.append(mv.TileMarked(tile, marker, level - 1))
    return data, tuple(events)


def _night_cards_begin(state: State[Data]) -> tuple[Data, Events]:
    data = state.data
    chars = tuple(replace(c, night_card=not c.alive) for c in data.characters)
    return replace(data, characters=chars), ()


def _night_activity(state: State[Data]) -> tuple[Data, Events]:
    """§夜晚阶段.8: activity +1, then each event of the box's challenge card reached and not
    yet resolved."""
    data = replace(state.data, activity=state.data.activity + 1)
    events: list[Event] = [mv.ActivityRaised(data.activity)]
    for event in catalogue(state).challenge(data.challenge).events:
        if event.threshold <= data.activity and event.threshold not in data.events_done:
            data = replace(data, events_done=(*data.events_done, event.threshold))
            events.append(mv.ChallengeEventDue(event.threshold, event.text.zh, event.text.en))
    return data, tuple(events)


def _night_society(state: State[Data]) -> tuple[Data, Events]:
    """§夜晚阶段.9: population and unrest, and the outposts they allow."""
    data = state.data
    built = sum(1 for _, t in data.tiles if t.outpost)
    limit = camp.outpost_limit(data.population, catalogue(state))
    return data, (mv.SocietyChecked(data.population, data.unrest, built, limit),)


def _nothing(state: State[Data]) -> tuple[Data, Events]:
    return state.data, ()


NIGHT = (
    ("death", "查死亡", "Check for death", _night_death),
    (
        "recovery",
        "恢复:休息、进食、补水、舒适",
        "Recover: rest, food, water, comfort",
        _night_recover,
    ),
    ("hunger", "饥渴", "Hunger and thirst", _night_hunger),
    ("night_actions", "执行夜间行动", "Night actions", _nothing),
    ("decay", "退化标记:腐败、复原、照看火堆", "Degrade: spoilage, depletion, fires", _night_decay),
    ("pack_check", "清点背包", "Pack check", _nothing),
    ("night_cards", "结算夜晚卡", "Night cards", _night_cards_begin),
    ("activity", "活跃度+1与挑战事件", "Activity +1 and challenge events", _night_activity),
    ("society", "核查人口与动荡", "Population and unrest", _night_society),
)
"""The nine night steps (§夜晚阶段.1–9) in order: name, titles, effect on reaching the step."""


def _night_phase(number: int) -> Phase:
    name, zh, en, effect = NIGHT[number - 1]
    # The phase is the step: its title carries the step's number and words once ("夜晚 6/9
    # 清点背包"), so it has no Step of its own, whose log line would say them again.
    title = Text(f"夜晚 {number}/9 {zh}", f"Night {number}/9: {en}")
    common: dict[str, Any] = {"on_begin": _hook(effect), "rule": rule(f"夜晚阶段.{number}")}
    if name == "night_cards":
        return Phase(
            f"night_{number}",
            title,
            TurnOrder.SIMULTANEOUS,
            moves=frozenset({mv.NightCard.type, mv.CallTest.type, mv.Roll.type, mv.Effect.type}),
            end_if=_cards_done,
            **common,
        )
    return Phase(f"night_{number}", title, **common)


def _mourned(state: State[Data]) -> bool:
    return not state.data.mourning


MOURNING_PHASE = Phase(
    "mourning",
    Text("哀悼", "Mourning"),
    TurnOrder.SIMULTANEOUS,
    moves=frozenset({mv.Mourn.type}),
    skip_if=_mourned,
    end_if=_mourned,
    rule=rule("角色死亡与传说.1"),
)
"""§夜晚阶段.1: after the deaths, the mourning d6 of each dead character, entered by its
player; skipped when nobody died."""


def _cards_done(state: State[Data]) -> bool:
    everyone = all(c.night_card for c in state.data.characters)
    return (everyone and state.data.test is None) or len(state.flow.done) >= state.players
