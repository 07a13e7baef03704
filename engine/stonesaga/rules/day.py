"""The day's actions (§白天阶段): each a check and an effect on the saga's data."""

from __future__ import annotations

from dataclasses import replace

from engine.core import ACCEPTED, DicePoolAnnounced, Event, State, Text, Verdict
from engine.stonesaga import campaign as camp
from engine.stonesaga import moves as mv
from engine.stonesaga import state as st
from engine.stonesaga.catalogue import (
    ATTRIBUTES,
    DELVE_FEATURES,
    FORAGE_FEATURES,
    MINING_FEATURES,
    OUTPOST_SCALE,
    SHELTER_FEATURE,
    WATER_FEATURES,
    catalogue,
    noted,
    valley_item,
)
from engine.stonesaga.common import (
    _check_shares,
    _deplete,
    _energy,
    _feature,
    _first_failure,
    _health,
    _held,
    _length,
    _lose,
    _pack,
    _pay_shares,
    _spend,
    _tile,
)
from engine.stonesaga.reasons import (
    BAD_RESULT,
    BUILDINGS_FULL,
    CRAFT_PAIR,
    EXCHANGE_SAME,
    IMPASSABLE,
    NO_OUTPOST,
    NO_RUIN,
    NO_SUCH_CHARACTER,
    NO_SUCH_MALADY,
    NOT_ADJACENT,
    NOT_FOOD_OR_WATER,
    NOT_HELD,
    NOT_INCAPACITATED,
    NOT_SAME_TILE,
    NOTHING_EXCHANGED,
    OUTPOST_EXISTS,
    OUTPOST_LIMIT,
    OUTPOST_SHARES,
    PROCESS,
    SHELTER_FULL,
    UNKNOWN_NAME,
    UNKNOWN_RESOURCE,
)
from engine.stonesaga.rules import basics
from engine.stonesaga.rules.dice import FIBER_BONUS
from engine.stonesaga.texts import character_name, name_in, resource_name

Events = tuple[Event, ...]
Data = st.Saga


def _check_travel(state: State[Data], move: mv.Travel) -> Verdict:
    """§移动: to a tile sharing an edge, not across an impassable one (§覆盖层), by the box's
    valley (a refusal on a demo tile says so)."""
    data, cat = state.data, catalogue(state)
    char = data.characters[move.character]
    here = cat.tiles[char.tile]
    edge = (valley_item(char.tile), valley_item(move.to))
    if move.to not in here.neighbours:
        verdict = NOT_ADJACENT.reject(
            to=_tile(cat, data, move.to), tile=_tile(cat, data, char.tile)
        )
        return noted(verdict, cat, edge[0])
    if move.to in here.impassable or char.tile in cat.tiles[move.to].impassable:
        verdict = IMPASSABLE.reject(tile=_tile(cat, data, char.tile), to=_tile(cat, data, move.to))
        return noted(verdict, cat, *edge)
    return ACCEPTED


def _travel(state: State[Data], move: mv.Travel) -> tuple[Data, Events]:
    data = state.data
    char = data.characters[move.character]
    tiles = catalogue(state).tiles
    blocked = move.to in tiles[char.tile].blocked or char.tile in tiles[move.to].blocked
    hard = not move.resolved and blocked
    revealed = not data.tile(move.to).explored
    if revealed:
        data = data.with_tile(move.to, explored=True)
    data = data.with_character(move.character, replace(char, tile=move.to))
    events: list[Event] = [mv.Travelled(move.character, move.to, revealed, hard)]
    if hard:
        data, more = _lose(data, move.character, 1, "hard_travel")
        events.extend(more)
    return data, tuple(events)


def _check_exchange(state: State[Data], move: mv.Exchange) -> Verdict:
    data, cat = state.data, catalogue(state)
    kinds = cat.resources
    char = data.characters[move.character]
    if not 0 <= move.partner < data.party or move.partner == move.character:
        return NO_SUCH_CHARACTER.reject(n=move.partner + 1)
    partner = data.characters[move.partner]
    if not partner.alive or partner.tile != char.tile:
        return NOT_SAME_TILE.reject(other=character_name(partner.name, cat))
    if not move.give and not move.receive:
        return NOTHING_EXCHANGED.reject()
    cost = 0 if data.tile(char.tile).outpost else 1
    totals: list[dict[str, int]] = []
    for pack, given in ((char.pack, move.give), (partner.pack, move.receive)):
        wanted: dict[str, int] = {}
        totals.append(wanted)
        for name, amount in given:
            if not basics.known_resource(name, kinds):
                return UNKNOWN_RESOURCE.reject(what=resource_name(name))
            if amount < 1:
                return NOT_HELD.reject(what=resource_name(name))
            key = basics.resource_name(name, kinds)
            wanted[key] = wanted.get(key, 0) + amount
        for name, amount in wanted.items():
            if basics.count(pack, name, kinds) < amount:
                return NOT_HELD.reject(what=resource_name(name))
    if totals[0] == totals[1]:  # the same tokens both ways: nothing changes hands
        return EXCHANGE_SAME.reject()
    return _energy(cat, char, cost)


def _exchange(state: State[Data], move: mv.Exchange) -> tuple[Data, Events]:
    data, cat = state.data, catalogue(state)
    cost = 0 if data.tile(data.characters[move.character].tile).outpost else 1
    data, events = _spend(data, move.character, cost, "exchange")
    out = list(events)
    for src, dst, given in (
        (move.character, move.partner, move.give),
        (move.partner, move.character, move.receive),
    ):
        for name, amount in given:
            data, a = _pack(cat, data, src, name, -amount)
            data, b = _pack(cat, data, dst, name, amount)
            out += [*a, *b]
    return data, tuple(out)


def _check_pack(state: State[Data], move: mv.Pack) -> Verdict:
    return _energy(catalogue(state), state.data.characters[move.character], 1)


def _pack_items(state: State[Data], move: mv.Pack) -> tuple[Data, Events]:
    return _spend(state.data, move.character, 1, "pack")


def _check_aid(state: State[Data], move: mv.Aid) -> Verdict:
    data, cat = state.data, catalogue(state)
    char = data.characters[move.character]
    if not 0 <= move.target < data.party:
        return NO_SUCH_CHARACTER.reject(n=move.target + 1)
    target = data.characters[move.target]
    if not target.alive or target.tile != char.tile:
        return NOT_SAME_TILE.reject(other=character_name(target.name, cat))
    if not basics.incapacitated(target.health, _length(data)):
        return NOT_INCAPACITATED.reject(name=character_name(target.name, cat))
    if not 0 <= move.cell < len(target.health):
        return NO_SUCH_MALADY.reject(cell=move.cell + 1)
    return _energy(cat, char, 1)


def _aid(state: State[Data], move: mv.Aid) -> tuple[Data, Events]:
    data, events = _spend(state.data, move.character, 1, "aid")
    target = data.characters[move.target]
    data, more = _health(
        data, move.target, basics.degrade_malady(target.health, move.cell), "degraded"
    )
    return data, events + more


def _check_process(state: State[Data], move: mv.Process) -> Verdict:
    cat = catalogue(state)
    problem = basics.processing_problem(move.resources, move.tools, cat.resources)
    if problem is not None:
        return PROCESS[problem].reject()
    char = state.data.characters[move.character]
    raw = tuple(f"{r.partition(':')[0]}:raw" for r in move.resources)
    missing = _held(cat, char.pack, raw)
    if missing is not None:
        return NOT_HELD.reject(what=resource_name(missing))
    return _energy(cat, char, 1 + len(move.resources))


def _process(state: State[Data], move: mv.Process) -> tuple[Data, Events]:
    cat = catalogue(state)
    data, events = _spend(state.data, move.character, 1 + len(move.resources), "process")
    out = list(events)
    for name in move.resources:
        base = name.partition(":")[0]
        data, a = _pack(cat, data, move.character, f"{base}:raw", -1)
        data, b = _pack(cat, data, move.character, f"{base}:processed", 1)
        out += [*a, *b]
    return data, tuple(out)


def _check_craft(state: State[Data], move: mv.Craft) -> Verdict:
    cat = catalogue(state)
    char = state.data.characters[move.character]
    materials = cat.resources.materials
    if len(move.materials) != 2 or any(
        s.partition(":")[0] not in materials for s in move.materials
    ):
        return CRAFT_PAIR.reject()
    if _held(cat, char.pack, move.materials) is not None:
        return CRAFT_PAIR.reject()
    return _energy(cat, char, 1)


def _craft(state: State[Data], move: mv.Craft) -> tuple[Data, Events]:
    cat = catalogue(state)
    data, events = _spend(state.data, move.character, 1, "craft")
    out = list(events)
    if move.item:
        for name in move.materials:
            data, more = _pack(cat, data, move.character, name, -1)
            out += more
        char = data.characters[move.character]
        data = data.with_character(move.character, replace(char, items=(*char.items, move.item)))
    return data, tuple(out)


OUTPOST_ENERGY = 4
"""§建前哨: 4 energy, shared freely among the characters on the tile."""


def _check_outpost(state: State[Data], move: mv.BuildOutpost) -> Verdict:
    data = state.data
    char = data.characters[move.character]
    if data.tile(char.tile).outpost:
        return OUTPOST_EXISTS.reject()
    built = sum(1 for _, t in data.tiles if t.outpost)
    cat = catalogue(state)
    limit = camp.outpost_limit(data.population, cat)
    if built >= limit:
        verdict = OUTPOST_LIMIT.reject(population=data.population, limit=limit)
        return noted(verdict, cat, OUTPOST_SCALE)
    return _check_shares(state, move, OUTPOST_ENERGY)


def _outpost(state: State[Data], move: mv.BuildOutpost) -> tuple[Data, Events]:
    data, events = _pay_shares(state.data, move, OUTPOST_ENERGY, "build_outpost")
    tile = data.characters[move.character].tile
    data = data.with_tile(tile, outpost=True)
    return data, (*events, mv.TileMarked(tile, "outpost", 1))


def _check_water(state: State[Data], move: mv.CollectWater) -> Verdict:
    char = state.data.characters[move.character]
    return _first_failure(
        lambda: _feature(state, char, move.feature, WATER_FEATURES),
        lambda: _energy(catalogue(state), char, 1),
    )


WATER_COLLECTED = 2
"""§取水: 2 water, and the tile does not deplete."""


def _water(state: State[Data], move: mv.CollectWater) -> tuple[Data, Events]:
    data, events = _spend(state.data, move.character, 1, "collect_water")
    data, more = _pack(catalogue(state), data, move.character, "water", WATER_COLLECTED)
    return data, events + more


def _check_shelter(state: State[Data], move: mv.PrepareShelter) -> Verdict:
    char = state.data.characters[move.character]
    if state.data.tile(char.tile).shelter >= 2:
        return SHELTER_FULL.reject()
    return _first_failure(
        lambda: _feature(state, char, SHELTER_FEATURE, (SHELTER_FEATURE,)),
        lambda: _energy(catalogue(state), char, 1),
    )


def _shelter(state: State[Data], move: mv.PrepareShelter) -> tuple[Data, Events]:
    data, events = _spend(state.data, move.character, 1, "prepare_shelter")
    tile = data.characters[move.character].tile
    size = data.tile(tile).shelter + 1
    return data.with_tile(tile, shelter=size), (*events, mv.TileMarked(tile, "shelter", size))


FISHING_DICE = 4
"""§钓鱼.3: four dice."""


def _check_fish(state: State[Data], move: mv.Fish) -> Verdict:
    char = state.data.characters[move.character]
    return _first_failure(
        lambda: _feature(state, char, move.feature, WATER_FEATURES),
        lambda: _energy(catalogue(state), char, 2),
    )


def _fish(state: State[Data], move: mv.Fish) -> tuple[Data, Events]:
    data, events = _spend(state.data, move.character, 2, "fish")
    data, more = _deplete(data, data.characters[move.character].tile)
    dice = DicePoolAnnounced(move.seat, ("d6",) * FISHING_DICE, "fishing")
    return replace(data, fishing=(move.seat, move.character)), (*events, *more, dice)


def _check_forage(state: State[Data], move: mv.Forage) -> Verdict:
    char = state.data.characters[move.character]
    return _first_failure(
        lambda: _feature(state, char, move.feature, FORAGE_FEATURES),
        lambda: _energy(catalogue(state), char, 2),
    )


def _forage(state: State[Data], move: mv.Forage) -> tuple[Data, Events]:
    data, events = _spend(state.data, move.character, 2, "forage")
    data, more = _deplete(data, data.characters[move.character].tile)
    return data, events + more


def _check_mine(state: State[Data], move: mv.Mine) -> Verdict:
    char, cat = state.data.characters[move.character], catalogue(state)
    return _first_failure(
        lambda: _feature(state, char, move.feature, MINING_FEATURES),
        lambda: _energy(cat, char, cat.mining.energy),
    )


def _mine(state: State[Data], move: mv.Mine) -> tuple[Data, Events]:
    cat = catalogue(state)
    data, events = _spend(state.data, move.character, cat.mining.energy, "mine")
    data, more = _deplete(data, data.characters[move.character].tile)
    contents = tuple(sorted(cat.bag(move.feature).items()))
    data = replace(data, mining=st.Mining(move.seat, move.character, move.feature, contents))
    return data, (*events, *more, mv.MiningBagFilled(move.character, move.feature, contents))


MAX_BUILDINGS = 5
"""§建建筑: 每个前哨最多 5 座建筑."""


def _check_build(state: State[Data], move: mv.Build) -> Verdict:
    tile = state.data.tile(state.data.characters[move.character].tile)
    if not tile.outpost:
        return NO_OUTPOST.reject()
    if len(tile.buildings) >= MAX_BUILDINGS:
        return BUILDINGS_FULL.reject()
    if move.energy < 0:
        return OUTPOST_SHARES.reject()
    return _check_shares(state, move, move.energy)


def _build(state: State[Data], move: mv.Build) -> tuple[Data, Events]:
    data, events = _pay_shares(state.data, move, move.energy, "build")
    tile = data.characters[move.character].tile
    buildings = (*data.tile(tile).buildings, move.name)
    data = data.with_tile(tile, buildings=buildings)
    return data, (*events, mv.TileMarked(tile, "buildings", len(buildings)))


RELOCATE_ENERGY = 3
"""§废墟与迁移前哨: 迁移前哨（3 精力）."""


def _check_relocate(state: State[Data], move: mv.RelocateOutpost) -> Verdict:
    data, cat = state.data, catalogue(state)
    char = data.characters[move.character]
    if not data.tile(char.tile).outpost:
        return NO_OUTPOST.reject()
    here = cat.tiles[char.tile]
    if move.to not in here.neighbours:
        verdict = NOT_ADJACENT.reject(
            to=_tile(cat, data, move.to), tile=_tile(cat, data, char.tile)
        )
        return noted(verdict, cat, valley_item(char.tile))
    if data.tile(move.to).outpost:
        return OUTPOST_EXISTS.reject()
    return _energy(cat, char, RELOCATE_ENERGY)


def _relocate(state: State[Data], move: mv.RelocateOutpost) -> tuple[Data, Events]:
    data, events = _spend(state.data, move.character, RELOCATE_ENERGY, "relocate_outpost")
    tile = data.characters[move.character].tile
    data = data.with_tile(tile, outpost=False, buildings=())
    data = data.with_tile(move.to, outpost=True)
    moved = (mv.TileMarked(tile, "outpost", 0), mv.TileMarked(move.to, "outpost", 1))
    return data, (*events, *moved)


def _wood(pack: st.Resources) -> str | None:
    return next((k for k in ("wood:raw", "wood:processed") if dict(pack).get(k, 0) > 0), None)


def _check_fire(state: State[Data], move: mv.MakeFire) -> Verdict:
    char, cat = state.data.characters[move.character], catalogue(state)
    if move.attribute not in ("dexterity", "faith"):
        return UNKNOWN_NAME.reject(
            what=Text("属性(灵巧或信念)", "attribute (dexterity or faith)"),
            name=name_in(ATTRIBUTES, move.attribute),
        )
    if _wood(char.pack) is None:
        return NOT_HELD.reject(what=resource_name("wood"))
    held = dict(char.pack)
    if move.fiber and held.get("fiber:raw", 0) + held.get("fiber:processed", 0) < 1:
        return NOT_HELD.reject(what=resource_name("fiber"))
    return _energy(cat, char, 1)


def _fire(state: State[Data], move: mv.MakeFire) -> tuple[Data, Events]:
    cat = catalogue(state)
    data, events = _spend(state.data, move.character, 1, "make_fire")
    out = list(events)
    char = data.characters[move.character]
    data, more = _pack(cat, data, move.character, _wood(char.pack) or "wood", -1)
    out += more
    if move.fiber:
        fiber = "fiber:raw" if dict(char.pack).get("fiber:raw", 0) else "fiber:processed"
        data, more = _pack(cat, data, move.character, fiber, -1)
        out += more
    bonus = FIBER_BONUS if move.fiber else 0
    test = st.PendingTest(move.seat, move.character, move.attribute, bonus, purpose="fire")
    return replace(data, test=test), (*out, DicePoolAnnounced(move.seat, ("d6",), "test"))


def _check_delve(state: State[Data], move: mv.Delve) -> Verdict:
    char, cat = state.data.characters[move.character], catalogue(state)
    here = cat.tiles[char.tile].features
    feature = next((f for f in DELVE_FEATURES if f in here), "")
    return _first_failure(
        lambda: _feature(state, char, feature, DELVE_FEATURES), lambda: _energy(cat, char, 1)
    )


def _delve(state: State[Data], move: mv.Delve) -> tuple[Data, Events]:
    return _spend(state.data, move.character, 1, "delve")


def _check_scavenge(state: State[Data], move: mv.Scavenge) -> Verdict:
    char = state.data.characters[move.character]
    if not state.data.tile(char.tile).ruin:
        return NO_RUIN.reject()
    return _energy(catalogue(state), char, 2)


def _scavenge(state: State[Data], move: mv.Scavenge) -> tuple[Data, Events]:
    data, events = _spend(state.data, move.character, 2, "scavenge")
    data, more = _deplete(data, data.characters[move.character].tile)
    return data, events + more


def _check_give(state: State[Data], move: mv.Give) -> Verdict:
    data = state.data  # never in the middle of an action: the core refuses it then
    cat = catalogue(state)
    kinds = cat.resources
    if not 0 <= move.partner < data.party or move.partner == move.character:
        return NO_SUCH_CHARACTER.reject(n=move.partner + 1)
    char, partner = data.characters[move.character], data.characters[move.partner]
    if not partner.alive or partner.tile != char.tile:
        return NOT_SAME_TILE.reject(other=character_name(partner.name, cat))
    base = basics.resource_name(move.resource, kinds).partition(":")[0]
    if base != "water" and base not in kinds.food:
        return NOT_FOOD_OR_WATER.reject()
    if not basics.known_resource(move.resource, kinds):
        return UNKNOWN_RESOURCE.reject(what=resource_name(move.resource))
    if move.amount < 1 or basics.count(char.pack, move.resource, kinds) < move.amount:
        return NOT_HELD.reject(what=resource_name(move.resource))
    return ACCEPTED


def _give(state: State[Data], move: mv.Give) -> tuple[Data, Events]:
    cat = catalogue(state)
    data, a = _pack(cat, state.data, move.character, move.resource, -move.amount)
    data, b = _pack(cat, data, move.partner, move.resource, move.amount)
    return data, a + b


def _check_end(state: State[Data], move: mv.EndChallenge) -> Verdict:
    return ACCEPTED if move.result in ("won", "lost") else BAD_RESULT.reject()


def _end(state: State[Data], move: mv.EndChallenge) -> tuple[Data, Events]:
    return replace(state.data, result=move.result), (mv.ChallengeEnded(move.result),)
