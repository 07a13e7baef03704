"""Don't Starve's rules, part 2: what a move allowed by ``legality.check`` does (``play``).

Main actions flip the character's activation token (``finish_turn``); a fight waits for its
dice (``Roll``) and ends the initiator's turn when the last fighter's are read; with draws
"table" an explore waits for the card the table drew (``draws.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.core import DicePoolAnnounced, Event, Move, Seat, State
from engine.core.vocabulary import SeatPassed
from engine.dont_starve.catalogue import catalogue
from engine.dont_starve.common import (
    count_change,
    deal_dice,
    finish_turn,
    hostile_here,
    owner_of,
    scenario_of,
    tokens_on,
    with_data,
)
from engine.dont_starve.moves import (
    Act,
    CharacterMoved,
    Discard,
    DrawLocation,
    DrawWeather,
    Eat,
    EssenceChanged,
    Explore,
    Fight,
    FightEnded,
    FighterResolved,
    FightStarted,
    FocusChanged,
    Gain,
    GainEssence,
    Interact,
    InventoryChanged,
    LayNeedsTile,
    Light,
    Lose,
    MoveTo,
    Protect,
    Roll,
    ScenarioEnd,
    ScenarioWon,
    SpendFocus,
    TileRevealed,
    Trade,
)
from engine.dont_starve.rules.draws import place, play_location, play_needs, play_weather
from engine.dont_starve.rules.legality import monster_dice
from engine.dont_starve.state import (
    ESSENCE_PER_SANITY,
    UNLOCK_POINTS,
    DSData,
    Fighting,
    change_stats,
)

Events = tuple[Event, ...]
S = State[DSData]

KEEP_ROLLED = (Gain, Discard, Eat, Lose, SpendFocus, GainEssence)
"""Moves that leave an announced interact or hostility pool open (entering its results, or a
free action beside it)."""


def play(state: S, move: Move) -> tuple[S, Events]:
    """The effects of a legal Don't Starve move."""
    if state.data.rolled is not None and not isinstance(move, KEEP_ROLLED):
        state = with_data(state, replace(state.data, rolled=None))
    seat = move.seat
    assert seat is not None
    return _EFFECTS[type(move)](state, seat, move)


def _apply_moveto(state: S, seat: Seat, move: MoveTo) -> tuple[S, Events]:
    data = state.data
    c = data.char(seat)
    events: list[Event] = []
    if data.biome_of(move.to) is None:
        biome = move.biome or data.pool[0]
        pool = list(data.pool)
        pool.remove(biome)
        data = replace(data, pool=tuple(pool), revealed=(*data.revealed, (move.to, biome)))
        events.append(TileRevealed(move.to, biome))
    data = data.with_char(seat, replace(c, tile=move.to))
    events.insert(0, CharacterMoved(seat, c.tile or "", move.to))
    state = with_data(state, replace(data, moved=data.moved | {seat}))
    if move.main:
        state, done = finish_turn(state, seat)
        events += done
    return state, tuple(events)


def _apply_explore(state: S, seat: Seat, move: Explore) -> tuple[S, Events]:
    """§探索: the tile's old card goes to the discards; the next card of the tile's biome deck
    (top or bottom) goes face up (``draws.place``). With draws "virtual" the engine draws it
    from its seeded deck (an empty deck is its discards, shuffled); with "table" the table
    draws it and says which (``exploring``, then ``dont_starve.location_card``)."""
    data = state.data
    tile = data.char(seat).tile or ""
    biome = data.biome_of(tile) or ""
    decks, discards = dict(data.decks), dict(data.discards)
    old = data.location(tile)
    if old is not None:
        discards[biome] = (*discards[biome], old)
    if state.options.draws == "table":
        locations = tuple((t, c) for t, c in data.locations if t != tile)
        data = replace(
            data, discards=tuple(discards.items()), locations=locations, exploring=(seat, tile)
        )
        return with_data(state, data), ()
    rng = state.rng
    if not decks[biome]:  # 探索: an empty deck is its discards, shuffled
        decks[biome], rng = rng.shuffled(discards[biome])
        discards[biome] = ()
    deck = decks[biome]
    card = deck[-1] if move.bottom else deck[0]
    decks[biome] = deck[:-1] if move.bottom else deck[1:]
    data = replace(data, decks=tuple(decks.items()), discards=tuple(discards.items()))
    return place(replace(state, rng=rng, data=data), seat, tile, card)


def _apply_interact(state: S, seat: Seat, move: Interact) -> tuple[S, Events]:
    """互动: the mining marker moves one space towards 已开采; dice for the roll and any
    hostile monster."""
    tile = state.data.char(seat).tile or ""
    events: list[Event] = []
    if move.target == "structure" and move.essence:  # 精华: pay the structure's cost
        essence = state.data.essence - move.essence
        state = with_data(state, replace(state.data, essence=essence))
        events.append(EssenceChanged(essence))
    if move.target == "location":
        mined = dict(state.data.mined)
        mined[tile] = mined.get(tile, 0) + 1
        state = with_data(state, replace(state.data, mined=tuple(sorted(mined.items()))))
    dice: tuple[str, ...] = ("character",) if move.roll else ()
    if hostile_here(catalogue(state), state.data, tile):
        dice += ("monster",)
    if dice:
        events.append(DicePoolAnnounced(seat, dice, "interact"))
        state = with_data(state, replace(state.data, rolled=(seat, dice)))
    state, done = finish_turn(state, seat)
    return state, (*events, *done)


def _apply_fight(state: S, seat: Seat, move: Fight) -> tuple[S, Events]:
    data, cat = state.data, catalogue(state)
    tile = data.char(seat).tile or ""
    fighters = (seat, *move.helpers)
    total = monster_dice(cat, data, seat, move)
    split = move.split or deal_dice(total, len(fighters))
    engaged: tuple[int, ...] = ()
    damage = move.damage
    if move.target == "scenario":
        engaged = tuple(tokens_on(cat, data, tile)[: move.tokens])
        damage = max(scenario_of(cat, data).tokens[i].damage for i in engaged)
    tier = move.tier if move.target == "shadow" else 0
    events: list[Event] = [FightStarted(seat, move.target, tile, fighters, total, split, tier)]
    flow_done = state.flow.done
    for helper in move.helpers:  # 加入战斗: helpers move in and flip to inactive
        h = data.char(helper)
        if h.tile != tile:
            events.append(CharacterMoved(helper, h.tile or "", tile))
        data = data.with_char(helper, replace(h, tile=tile))
        flow_done = flow_done | {helper}
        events.append(SeatPassed(helper, state.flow.phase))
    fight = Fighting(seat, move.target, tile, fighters, split, damage, engaged, move.tier)
    results = tuple((f, True) for f, n in zip(fighters, split, strict=True) if n == 0)
    fight = replace(fight, results=results)
    for fighter, n in zip(fighters, split, strict=True):
        if n:
            events.append(DicePoolAnnounced(fighter, ("character",) + ("monster",) * n, "fight"))
    state = replace(
        state, data=replace(data, fight=fight), flow=replace(state.flow, done=flow_done)
    )
    if len(results) == len(fighters):
        return _end_fight(state, events)
    return state, tuple(events)


def _apply_roll(state: S, seat: Seat, move: Roll) -> tuple[S, Events]:
    data = state.data
    fight = data.fight
    assert fight is not None
    won = move.successes - move.dodges >= 1  # each success cancels one dodge
    damage = (move.hits - move.blocked) * fight.damage
    data, events = change_stats(catalogue(state), data, move.fighter, health=-damage)
    events = (FighterResolved(move.fighter, won, damage), *events)
    fight = replace(fight, results=(*fight.results, (move.fighter, won)))
    state = with_data(state, replace(data, fight=fight))
    if len(fight.results) < len(fight.fighters):
        return state, events
    return _end_fight(state, list(events))


def _end_fight(state: S, events: list[Event]) -> tuple[S, Events]:
    data = state.data
    fight = data.fight
    assert fight is not None
    won = all(w for _, w in fight.results)
    if won and fight.target == "location":
        data = replace(data, defeated_monsters=data.defeated_monsters | {fight.tile})
    if won and fight.target == "scenario":
        data = replace(data, tokens=tuple(i for i in data.tokens if i not in fight.engaged))
    events += [FightEnded(won, fight.target, fight.tile), DicePoolAnnounced(None, (), "clear")]
    state = with_data(state, replace(data, fight=None))
    state, done = finish_turn(state, fight.initiator)
    return state, (*events, *done)


def _apply_trade(state: S, seat: Seat, move: Trade) -> tuple[S, Events]:
    data = state.data
    events: list[Event] = []
    for t in move.transfers:
        for s, delta in ((t.giver, -t.count), (t.receiver, t.count)):
            c = data.char(s)
            count = getattr(c, t.kind) + delta
            data = data.with_char(s, replace(c, **{t.kind: count}))
            events.append(InventoryChanged(s, t.kind, count))
    state, done = finish_turn(with_data(state, data), seat)
    return state, (*events, *done)


def _apply_act(state: S, seat: Seat, move: Act) -> tuple[S, Events]:
    return finish_turn(state, seat)


def _apply_gain(state: S, seat: Seat, move: Gain) -> tuple[S, Events]:
    return count_change(state, owner_of(seat, move.for_seat), move.kind, move.count)


def _apply_discard(state: S, seat: Seat, move: Discard) -> tuple[S, Events]:
    return count_change(state, seat, move.kind, -move.count)


def _apply_eat(state: S, seat: Seat, move: Eat) -> tuple[S, Events]:
    seat = owner_of(seat, move.for_seat)
    state, events = count_change(state, seat, move.kind, -1)
    data = state.data
    if state.flow.phase in ("daily_needs", "weather"):  # offsets this phase's losses first
        c = data.char(seat)
        oh, ohu, osa = c.offsets
        offsets = (oh + move.health, ohu + move.hunger, osa + move.sanity)
        return with_data(state, data.with_char(seat, replace(c, offsets=offsets))), events
    data, own = change_stats(catalogue(state), data, seat, move.health, move.hunger, move.sanity)
    return with_data(state, data), (*events, *own)


def _apply_lose(state: S, seat: Seat, move: Lose) -> tuple[S, Events]:
    seat = owner_of(seat, move.for_seat)
    cat = catalogue(state)
    data, events = change_stats(cat, state.data, seat, -move.health, -move.hunger, -move.sanity)
    return with_data(state, data), events


def _apply_spendfocus(state: S, seat: Seat, move: SpendFocus) -> tuple[S, Events]:
    """专注点: one token flips; in a fight the tray shows that fighter's dice again."""
    owner = owner_of(seat, move.for_seat)
    c = state.data.char(owner)
    data = state.data.with_char(owner, replace(c, focus=c.focus - 1))
    events: list[Event] = [FocusChanged(owner, c.focus - 1, "reroll")]
    fight = data.fight
    if fight is not None and owner in fight.fighters and fight.dice_of(owner):
        dice = ("character",) + ("monster",) * fight.dice_of(owner)
        events.append(DicePoolAnnounced(owner, dice, "reroll"))
    return with_data(state, data), tuple(events)


def _apply_gainessence(state: S, seat: Seat, move: GainEssence) -> tuple[S, Events]:
    data, events = change_stats(catalogue(state), state.data, seat, sanity=-1)
    data = replace(data, essence=data.essence + ESSENCE_PER_SANITY)
    return with_data(state, data), (*events, EssenceChanged(data.essence))


def _apply_light(state: S, seat: Seat, move: Light) -> tuple[S, Events]:
    c = state.data.char(seat)
    return with_data(state, state.data.with_char(seat, replace(c, light=c.light + move.points))), ()


def _apply_protect(state: S, seat: Seat, move: Protect) -> tuple[S, Events]:
    c = state.data.char(seat)
    c = replace(c, protect=(*c.protect, (move.symbol, move.count)))
    return with_data(state, state.data.with_char(seat, c)), ()


def _apply_scenarioend(state: S, seat: Seat, move: ScenarioEnd) -> tuple[S, Events]:
    if move.result == "win":
        points = UNLOCK_POINTS[state.data.difficulty]
        return with_data(state, replace(state.data, result="won")), (ScenarioWon(points),)
    return with_data(state, replace(state.data, result="dont_starve.scenario_lost")), ()


def _apply_drawweather(state: S, seat: Seat, move: DrawWeather) -> tuple[S, Events]:
    return play_weather(state, move)


def _apply_layneedstile(state: S, seat: Seat, move: LayNeedsTile) -> tuple[S, Events]:
    return play_needs(state, move)


def _apply_drawlocation(state: S, seat: Seat, move: DrawLocation) -> tuple[S, Events]:
    return play_location(state, move)


_EFFECTS: dict[type, Callable[..., Any]] = {
    MoveTo: _apply_moveto,
    Explore: _apply_explore,
    Interact: _apply_interact,
    Fight: _apply_fight,
    Roll: _apply_roll,
    Trade: _apply_trade,
    Act: _apply_act,
    Gain: _apply_gain,
    Discard: _apply_discard,
    Eat: _apply_eat,
    Lose: _apply_lose,
    SpendFocus: _apply_spendfocus,
    GainEssence: _apply_gainessence,
    Light: _apply_light,
    Protect: _apply_protect,
    ScenarioEnd: _apply_scenarioend,
    DrawWeather: _apply_drawweather,
    LayNeedsTile: _apply_layneedstile,
    DrawLocation: _apply_drawlocation,
}
