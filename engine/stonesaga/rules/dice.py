"""Tests and dice (§判定, §采矿, §钓鱼.3), the effects recorded from cards (§精力, §疾苦), the
alert behemoth the table draws (§巨兽 警觉, draws "table"), and the action in progress while
that draw is due or a test, a mining or fishing dice are open (``in_progress``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.core import ACCEPTED, DicePoolAnnounced, Event, InProgress, State, Text, Verdict
from engine.stonesaga import moves as mv
from engine.stonesaga import state as st
from engine.stonesaga.catalogue import ATTRIBUTES, MALADIES, OMENS, STONES, Catalogue, catalogue
from engine.stonesaga.common import (
    _bag_text,
    _cap,
    _gain_energy,
    _health,
    _length,
    _lose,
    _malady,
    _pack,
)
from engine.stonesaga.reasons import (
    ALERT_DUE,
    BAD_DIE,
    BOOST_TOP,
    DRAW_LIMIT,
    ENERGY_FULL,
    FISHING_OPEN,
    HEALTH_FULL,
    LAIR_DORMANT,
    MINING_OPEN,
    NO_ALERT_DUE,
    NO_FISHING,
    NO_SUCH_BEHEMOTH,
    NO_SUCH_MALADY,
    NO_TEST,
    NOT_HELD,
    NOT_IN_BAG,
    NOT_MINING,
    TEST_IN_PROGRESS,
    TOKEN_DRAWN,
    UNKNOWN_EFFECT,
    UNKNOWN_NAME,
    UNKNOWN_RESOURCE,
)
from engine.stonesaga.rules import basics
from engine.stonesaga.texts import behemoth_name, character_name, name_in, resource_name

Events = tuple[Event, ...]
Data = st.Saga


TEST_MOVES = frozenset({mv.Roll.type, mv.Effect.type})
"""§判定 is one flow: while a test is open, its dice (each heroic effort's too) and what cards
change meanwhile (effects), nothing else."""
MINING_MOVES = frozenset({mv.DrawOre.type, mv.FinishMining.type, mv.CallTest.type, mv.Effect.type})
"""§采矿.4–6: while the bag is open, a draw or stopping, and what the mining table's entry
asks for (a test, an effect)."""
FISHING_MOVES = frozenset({mv.FishingRoll.type})
"""§钓鱼.3: the four dice the tray lit, before anything else."""
ALERT_MOVES = frozenset({mv.AlertBehemoth.type})
"""§巨兽 警觉 (draws "table"): the behemoth the table drew, before the first day's actions."""


def in_progress(state: State[Any]) -> InProgress | None:
    """The action open now, the innermost first: a test (perhaps called inside a mining), a
    mining bag, fishing dice; None when nothing is open (``Game.in_progress``). One open
    outside the phases its moves belong to (left by a save from before these rules, replayed)
    holds nothing up: the next day clears it."""
    data: Data = state.data
    phase = state.flow.phase
    cat = catalogue(state)
    if data.alert_due and phase == "day":
        return InProgress(None, ALERT_DUE.reject(), ALERT_MOVES)
    if data.test is not None and phase in ("day", "night_7"):
        name = character_name(data.characters[data.test.character].name, cat)
        return InProgress(data.test.seat, TEST_IN_PROGRESS.reject(name=name), TEST_MOVES)
    if data.mining is not None and phase == "day":
        name = character_name(data.characters[data.mining.character].name, cat)
        return InProgress(data.mining.seat, MINING_OPEN.reject(name=name), MINING_MOVES)
    if data.fishing is not None and phase == "day":
        seat, index = data.fishing
        name = character_name(data.characters[index].name, cat)
        return InProgress(seat, FISHING_OPEN.reject(name=name), FISHING_MOVES)
    return None


def _check_alert(state: State[Data], move: mv.AlertBehemoth) -> Verdict:
    """§巨兽 警觉: 从有启用巢穴的巨兽里随机选一头成为警觉 — the behemoth the table drew is
    one that has arrived and whose lair is active, and the draw is due (draws "table")."""
    data, cat = state.data, catalogue(state)
    if not data.alert_due:
        return NO_ALERT_DUE.reject()
    beast = next((b for b in data.behemoths if b.name == move.behemoth), None)
    if beast is None:
        return NO_SUCH_BEHEMOTH.reject(name=behemoth_name(move.behemoth, cat))
    if not beast.lair:
        return LAIR_DORMANT.reject(name=behemoth_name(move.behemoth, cat))
    return ACCEPTED


def _alert(state: State[Data], move: mv.AlertBehemoth) -> tuple[Data, Events]:
    """The behemoth the table drew is alert this session (its phase follows each night)."""
    data = replace(state.data, alert=move.behemoth, alert_due=False)
    return data, (mv.BehemothAlert(move.behemoth),)


def _check_fishing_roll(state: State[Data], move: mv.FishingRoll) -> Verdict:
    fishing = state.data.fishing
    if fishing is None or fishing[0] != move.seat:
        return NO_FISHING.reject()
    if not all(1 <= d <= 6 for d in (move.d1, move.d2, move.d3, move.d4)):
        return BAD_DIE.reject()
    return ACCEPTED


def _fishing_roll(state: State[Data], move: mv.FishingRoll) -> tuple[Data, Events]:
    """§钓鱼.3: the dice are recorded and the trays clear; the catch follows as effects."""
    fishing = state.data.fishing
    assert fishing is not None
    dice = (move.d1, move.d2, move.d3, move.d4)
    rolled = mv.FishingRolled(fishing[1], dice)
    return replace(state.data, fishing=None), (rolled, DicePoolAnnounced(move.seat, (), ""))


def _check_draw(state: State[Data], move: mv.DrawOre) -> Verdict:
    mine = state.data.mining
    if mine is None or mine.seat != move.seat or state.flow.current != move.seat:
        return NOT_MINING.reject()
    if move.stone not in STONES:
        return UNKNOWN_NAME.reject(what=Text("石头", "stone"), name=name_in(STONES, move.stone))
    if move.omen not in OMENS:
        return UNKNOWN_NAME.reject(what=Text("预兆", "omen"), name=name_in(OMENS, move.omen))
    if len(mine.drawn) >= catalogue(state).mining.max_draws:
        return DRAW_LIMIT.reject()
    if (move.stone, move.omen) in mine.drawn:
        return TOKEN_DRAWN.reject(stone=STONES[move.stone], omen=OMENS[move.omen])
    left = dict(mine.bag).get(move.stone, 0) - sum(1 for s, _ in mine.drawn if s == move.stone)
    if left <= 0:
        return NOT_IN_BAG.reject(stone=STONES[move.stone], bag=_bag_text(mine.bag))
    return ACCEPTED


def _draw(state: State[Data], move: mv.DrawOre) -> tuple[Data, Events]:
    """§采矿.4–5: the stone is taken; on the current omen, the box's mining table at the
    feature × omen says what happens (the event carries its text)."""
    data, cat = state.data, catalogue(state)
    mine = data.mining
    assert mine is not None
    data = replace(data, mining=replace(mine, drawn=(*mine.drawn, (move.stone, move.omen))))
    data, events = _pack(cat, data, mine.character, move.stone, 1)
    matched = move.omen in data.omens
    entry = cat.entry(mine.feature, move.omen) if matched else None
    drawn = mv.OreDrawn(
        mine.character,
        move.stone,
        move.omen,
        matched,
        entry.zh if entry else "",
        entry.en if entry else "",
        mine.feature,
    )
    return data, (*events, drawn)


def _check_finish(state: State[Data], move: mv.FinishMining) -> Verdict:
    mine = state.data.mining
    if mine is None or mine.seat != move.seat or state.flow.current != move.seat:
        return NOT_MINING.reject()
    return ACCEPTED


def _finish(state: State[Data], move: mv.FinishMining) -> tuple[Data, Events]:
    mine = state.data.mining
    assert mine is not None
    return replace(state.data, mining=None), (mv.OreReturned(len(mine.drawn)),)


def _check_call_test(state: State[Data], move: mv.CallTest) -> Verdict:
    if move.attribute not in ATTRIBUTES:
        return UNKNOWN_NAME.reject(
            what=Text("属性", "attribute"), name=name_in(ATTRIBUTES, move.attribute)
        )
    return ACCEPTED


def _call_test(state: State[Data], move: mv.CallTest) -> tuple[Data, Events]:
    test = st.PendingTest(move.seat, move.character, move.attribute, move.modifier, move.versus)
    why = "test" if move.versus is None else "contest"
    return replace(state.data, test=test), (DicePoolAnnounced(move.seat, ("d6",), why),)


def _check_roll(state: State[Data], move: mv.Roll) -> Verdict:
    test = state.data.test
    if test is None or test.seat != move.seat:
        return NO_TEST.reject()
    if not 1 <= move.value <= 6:
        return BAD_DIE.reject()
    return ACCEPTED


def _roll(state: State[Data], move: mv.Roll) -> tuple[Data, Events]:
    data = state.data
    test = data.test
    assert test is not None
    raw = (*test.raw, move.value)
    dice = (*test.dice, basics.change_die(move.value, move.change))
    if move.value == 6 and test.versus is None:
        data = replace(data, test=replace(test, raw=raw, dice=dice))
        return data, (DicePoolAnnounced(move.seat, ("d6",), "heroic_effort"),)
    cat = catalogue(state)
    return _resolve_test(cat, replace(data, test=None), replace(test, raw=raw, dice=dice))


def _resolve_test(cat: Catalogue, data: Data, test: st.PendingTest) -> tuple[Data, Events]:
    """§判定.3–6: dice + attribute (+ boost) + modifiers; the boost degrades after use."""
    char = data.characters[test.character]
    boost = char.boost(test.attribute)
    total = sum(test.dice) + char.attribute(test.attribute) + boost + test.modifier
    success = None if test.versus is None else total >= test.versus
    if test.purpose == "fire":
        success = total >= FIRE_TARGET
    events: list[Event] = [
        mv.TestResolved(test.character, test.attribute, test.dice, total, success)
    ]
    if test.purpose == "fire":
        tile = char.tile
        if success:
            data = data.with_tile(tile, fire=2)
            events.append(mv.TileMarked(tile, "fire", 2))
        else:
            data, more = _pack(cat, data, test.character, "wood", 1)
            events += more
    char = data.characters[test.character]
    if boost:
        level = basics.degrade_boost(boost)
        data = data.with_character(test.character, char.with_boost(test.attribute, level))
        events.append(mv.BoostChanged(test.character, test.attribute, level))
    events.append(DicePoolAnnounced(test.seat, (), ""))
    return data, tuple(events)


EFFECT_KINDS = (
    "lose_energy",
    "gain_energy",
    "injury",
    "illness",
    "degrade",
    "boost",
    "gain",
    "lose",
)


def _check_effect(state: State[Data], move: mv.Effect) -> Verdict:
    char, kinds = state.data.characters[move.character], catalogue(state).resources
    kind, detail, amount = move.kind, move.detail, move.amount
    problem = None
    if kind not in EFFECT_KINDS:
        problem = Text(f"没有“{kind}”这种效果", f"unknown effect {kind!r}")
    elif kind in ("lose_energy", "gain_energy", "gain", "lose") and amount < 1:
        problem = Text("数量至少为1", "the amount is at least 1")
    elif kind in MALADIES and detail not in ("light", "heavy"):
        problem = Text("疾苦要写轻或重", "a malady is light or heavy")
    elif kind == "degrade" and not 0 <= amount < len(char.health):
        return NO_SUCH_MALADY.reject(cell=amount + 1)
    elif kind == "boost" and (detail not in ATTRIBUTES or amount not in (1, 2)):
        problem = Text("增益要写属性和1或2", "a boost names an attribute and 1 or 2")
    elif kind in ("gain", "lose") and not basics.known_resource(detail, kinds):
        return UNKNOWN_RESOURCE.reject(what=resource_name(detail))
    elif kind == "lose" and basics.count(char.pack, detail, kinds) < amount:
        return NOT_HELD.reject(what=resource_name(detail))
    if problem:
        return UNKNOWN_EFFECT.reject(why=problem)
    return _changes_something(state, char, kind, detail, amount)


def _changes_something(
    state: State[Data], char: st.Character, kind: str, detail: str, amount: int
) -> Verdict:
    """An effect that would leave everything as it is is refused with why (issue 38: a move
    answered "accepted" changes something): energy already at the cap (§精力: 不能超过上限), a
    major boost already (§增益: they never go past major), a full health track with nothing to
    flip (§获得与退化), also for energy lost at 0 (each missing point an injury, §精力)."""
    data, cat = state.data, catalogue(state)
    name = character_name(char.name, cat)
    if kind == "gain_energy" and char.energy >= _cap(data):
        return ENERGY_FULL.reject(name=name, cap=_cap(data))
    if kind == "boost" and basics.gain_boost(char.boost(detail), amount) == char.boost(detail):
        return BOOST_TOP.reject(name=name, attribute=ATTRIBUTES[detail])
    if kind in MALADIES or (kind == "lose_energy" and char.energy == 0):
        malady = kind if kind in MALADIES else "injury"  # §精力: 每差 1 点就受 1 次轻伤
        _, what = basics.gain_malady(char.health, _length(data), malady, detail == "heavy")
        if what == "no_room":
            return HEALTH_FULL.reject(name=name)
    return ACCEPTED


def _effect(state: State[Data], move: mv.Effect) -> tuple[Data, Events]:
    data, i, kind = state.data, move.character, move.kind
    if kind == "lose_energy":
        return _lose(data, i, move.amount, "effect")
    if kind == "gain_energy":
        return _gain_energy(data, i, move.amount, "effect")
    if kind in MALADIES:
        return _malady(data, i, kind, heavy=move.detail == "heavy")
    if kind == "degrade":
        return _health(
            data, i, basics.degrade_malady(data.characters[i].health, move.amount), "degraded"
        )
    if kind == "boost":
        char = data.characters[i]
        level = basics.gain_boost(char.boost(move.detail), move.amount)
        data = data.with_character(i, char.with_boost(move.detail, level))
        return data, (mv.BoostChanged(i, move.detail, level),)
    amount = move.amount if kind == "gain" else -move.amount
    return _pack(catalogue(state), data, i, move.detail, amount)


FIRE_TARGET = 10
"""§生火: 10+ 生火成功."""
FIBER_BONUS = 2
"""§生火: 可先花 1 份纤维给结果 +2."""
