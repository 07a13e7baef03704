"""Don't Starve's rules, part 1: whether a move may be made now (``check``).

Each refusal is a reason of ``reasons.py`` citing its section of ``dont-starve.zh.md``; the
effects of the moves allowed are in ``effects.py``, the table's draws in ``draws.py``. The
printed values come from the game's box (``catalogue(state)``); a refusal resting on one of the
demo box's says so (``noted``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engine.core import ACCEPTED, Move, Seat, State, Text, Verdict
from engine.dont_starve import reasons as R
from engine.dont_starve.board import adjacent
from engine.dont_starve.catalogue import (
    PORTAL_SLOT,
    TILE_BIOMES,
    Catalogue,
    catalogue,
    location_item,
    noted,
    scenario_item,
)
from engine.dont_starve.common import (
    OFF_MAP,
    listed,
    owner_of,
    places,
    scenario_of,
    tokens_on,
    within_limits,
)
from engine.dont_starve.moves import (
    Discard,
    DrawLocation,
    DrawWeather,
    Eat,
    Explore,
    Fight,
    Gain,
    GainEssence,
    Interact,
    LayNeedsTile,
    Light,
    Lose,
    MoveTo,
    Protect,
    Roll,
    ScenarioEnd,
    SpendFocus,
    Trade,
)
from engine.dont_starve.rules.draws import check_location, check_needs, check_weather
from engine.dont_starve.state import DSData
from engine.dont_starve.texts import BIOME_NAMES, count_of, numbers_named, tile_called

S = State[DSData]


def check(state: S, move: Move) -> Verdict:
    """Don't Starve's own checks of a move the core allows now (the phase, the seat, the turn:
    ``engine.core.flow``)."""
    data: DSData = state.data
    seat = move.seat
    assert seat is not None
    if isinstance(move, DrawWeather):  # the table's draws: any seat, by the table
        return check_weather(state, move)
    if isinstance(move, LayNeedsTile):
        return check_needs(state, move)
    if data.fight is not None and seat not in data.fight.fighters:  # §自由行动
        return R.INTERRUPTS.reject(player=data.fight.initiator + 1)
    if data.fight is not None and not isinstance(move, Roll | SpendFocus | Eat | Lose):
        return R.FIGHT_PENDING.reject()
    if isinstance(move, DrawLocation):
        return check_location(state, move)
    c = data.char(seat)
    if c.defeated and not isinstance(move, Roll | ScenarioEnd):
        return R.DEFEATED.reject(player=seat + 1)
    cat = catalogue(state)
    if isinstance(move, Fight):
        return _legal_fight(cat, data, seat, move, state.flow.done)
    if isinstance(move, MoveTo):
        return _legal_moveto(cat, data, seat, move, table=state.options.draws == "table")
    checker = _CHECKS.get(type(move))
    return checker(cat, data, seat, move) if checker is not None else ACCEPTED


def check_pass(state: S, move: Move) -> Verdict:
    """Ending a turn (``pass``: the activation token flips) or the phase while a fight waits
    for its dice is refused: the fight is the turn's main action, resolved by its dice before
    the turn ends (§战斗结算); otherwise the core's rules alone."""
    if state.data.fight is not None:
        return R.FIGHT_PENDING.reject()
    return ACCEPTED


def _legal_moveto(
    cat: Catalogue, data: DSData, seat: Seat, move: MoveTo, *, table: bool
) -> Verdict:
    """§移动 to an adjacent tile of the box's scenario layout (§相邻); a face-down tile turned
    over shows a biome the scenario still has face down (§世界构建), which the table says with
    draws "table" (the camera reads it from the tile, or players pick it)."""
    where = places(cat, data)
    layout = scenario_item(data.scenario)
    here = data.char(seat).tile
    if move.to not in where:
        return noted(R.NO_SUCH_TILE.reject(tile=move.to), cat, layout)
    if here is None or not adjacent(where[here], where[move.to]):
        verdict = R.NOT_ADJACENT.reject(
            to=tile_called(move.to), frm=OFF_MAP if here is None else tile_called(here)
        )
        return verdict if here is None else noted(verdict, cat, layout)
    if not move.main and seat in data.moved:
        return R.MOVE_USED.reject()
    hidden = data.biome_of(move.to) is None
    if hidden and move.biome is None and table:
        return R.BIOME_NEEDED.reject(tile=tile_called(move.to))
    if hidden and move.biome is not None and move.biome not in data.pool:
        biome = BIOME_NAMES.get(move.biome, Text(move.biome, move.biome))
        return noted(R.WRONG_BIOME.reject(biome=biome), cat, layout, TILE_BIOMES)
    return ACCEPTED


def _legal_explore(cat: Catalogue, data: DSData, seat: Seat, move: Explore) -> Verdict:
    if data.char(seat).tile == PORTAL_SLOT:
        return R.EXPLORE_PORTAL.reject()
    return ACCEPTED


def _legal_interact(cat: Catalogue, data: DSData, seat: Seat, move: Interact) -> Verdict:
    tile = data.char(seat).tile or ""
    if move.target == "structure":
        if tile != PORTAL_SLOT:
            return R.STRUCTURE_OFF_PORTAL.reject()
        if not data.structures:
            return R.NO_BASE_CAMP.reject()
        if not 0 <= move.essence <= data.essence:
            return R.NO_ESSENCE.reject(cost=move.essence, have=data.essence)
    card = data.location(tile)
    if move.target == "location":
        if card is None:
            return R.NO_LOCATION.reject(tile=tile)
        if dict(data.mined).get(tile, 0) >= cat.mining(card):
            verdict = R.MINED_OUT.reject(tile=tile)
            location = cat.location(card)
            return verdict if location is None else noted(verdict, cat, location_item(location))
    return ACCEPTED


def _legal_fight(
    cat: Catalogue, data: DSData, seat: Seat, move: Fight, done: frozenset[Seat]
) -> Verdict:
    tile = data.char(seat).tile or ""
    if move.target == "location":
        if data.location(tile) is None:
            return R.NO_LOCATION.reject(tile=tile)
        if tile in data.defeated_monsters:
            return R.MONSTER_DEFEATED.reject(tile=tile)
    elif move.target == "scenario":
        have = len(tokens_on(cat, data, tile))
        if not 1 <= move.tokens <= have:
            return R.NO_TOKENS.reject(tile=tile, have=have, want=move.tokens)
    elif data.char(seat).shadows(cat) < move.tier or move.tier < 1:
        return R.NO_SHADOW.reject(tier=move.tier)
    if move.target == "shadow" and move.helpers:
        return R.SHADOW_ALONE.reject()
    where = places(cat, data)
    for helper in move.helpers:
        h = data.char(helper) if 0 <= helper < len(data.characters) else None
        ok = (
            h is not None
            and helper != seat
            and move.helpers.count(helper) == 1
            and not h.defeated
            and h.tile is not None
            and (h.tile == tile or adjacent(where[h.tile], where[tile]))
        )
        if not ok or helper in done:
            return R.CANNOT_JOIN.reject(player=helper + 1)
    if move.cv < 0 or move.monster_cv < 0 or move.damage < 0:
        return R.BAD_NUMBER.reject(what=numbers_named("cv", "monster_cv", "damage"))
    total = monster_dice(cat, data, seat, move)
    if move.split and (
        len(move.split) != 1 + len(move.helpers) or sum(move.split) != total or min(move.split) < 0
    ):
        return R.BAD_SPLIT.reject(split=listed(move.split), total=total)
    return ACCEPTED


def _legal_roll(cat: Catalogue, data: DSData, seat: Seat, move: Roll) -> Verdict:
    fight = data.fight
    if fight is None:
        return R.NO_FIGHT.reject()
    if seat != fight.initiator:
        return R.INITIATOR_ROLLS.reject(player=fight.initiator + 1)
    done = {s for s, _ in fight.results}
    if move.fighter not in fight.fighters or move.fighter in done:
        return R.NOT_FIGHTING.reject(player=move.fighter + 1)
    dice = fight.dice_of(move.fighter)
    counts = (move.successes, move.dodges, move.hits, move.blocked)
    if min(counts) < 0 or move.dodges + move.hits > dice or move.blocked > move.hits:
        return R.BAD_DICE.reject(dice=dice)
    return ACCEPTED


def _legal_trade(cat: Catalogue, data: DSData, seat: Seat, move: Trade) -> Verdict:
    tile = data.char(seat).tile
    chars = list(data.characters)
    for t in move.transfers:
        seats = (t.giver, t.receiver)
        if any(not 0 <= s < len(chars) or chars[s].tile != tile for s in seats):
            return R.TRADE_APART.reject()
        if t.count < 1:
            return R.BAD_NUMBER.reject(what=numbers_named("count"))
        have = getattr(chars[t.giver], t.kind)
        if have < t.count:
            return R.NOT_IN_INVENTORY.reject(player=t.giver + 1, what=count_of(t.count, t.kind))
        chars[t.giver] = replace(chars[t.giver], **{t.kind: have - t.count})
        receiver = chars[t.receiver]
        chars[t.receiver] = replace(receiver, **{t.kind: getattr(receiver, t.kind) + t.count})
    return within_limits(chars)


def _legal_gain(cat: Catalogue, data: DSData, seat: Seat, move: Gain) -> Verdict:
    target = owner_of(seat, move.for_seat)
    if move.count < 1:
        return R.BAD_NUMBER.reject(what=numbers_named("count"))
    if not 0 <= target < len(data.characters):
        return R.NO_SUCH_PLAYER.reject(player=target + 1)
    c = data.char(target)
    return within_limits([replace(c, **{move.kind: getattr(c, move.kind) + move.count})])


def _legal_discard(cat: Catalogue, data: DSData, seat: Seat, move: Discard) -> Verdict:
    if move.count < 1:
        return R.BAD_NUMBER.reject(what=numbers_named("count"))
    if getattr(data.char(seat), move.kind) < move.count:
        return R.NOT_IN_INVENTORY.reject(player=seat + 1, what=count_of(move.count, move.kind))
    return ACCEPTED


def _legal_eat(cat: Catalogue, data: DSData, seat: Seat, move: Eat) -> Verdict:
    owner = owner_of(seat, move.for_seat)
    verdict = _legal_lose(cat, data, seat, move)
    if verdict.ok and getattr(data.char(owner), move.kind) < 1:
        return R.NOT_IN_INVENTORY.reject(player=owner + 1, what=count_of(1, move.kind))
    return verdict


def _legal_lose(cat: Catalogue, data: DSData, seat: Seat, move: Lose | Eat) -> Verdict:
    owner = owner_of(seat, move.for_seat)
    if not 0 <= owner < len(data.characters):
        return R.NO_SUCH_PLAYER.reject(player=owner + 1)
    if data.char(owner).defeated:
        return R.DEFEATED.reject(player=owner + 1)
    if min(move.health, move.hunger, move.sanity) < 0:
        return R.BAD_NUMBER.reject(what=numbers_named("health", "hunger", "sanity"))
    return ACCEPTED


def _legal_spendfocus(cat: Catalogue, data: DSData, seat: Seat, move: SpendFocus) -> Verdict:
    owner = owner_of(seat, move.for_seat)
    if not 0 <= owner < len(data.characters):
        return R.NO_SUCH_PLAYER.reject(player=owner + 1)
    fighters = data.fight.fighters if data.fight is not None else ()
    if owner != seat and owner not in fighters:
        return R.NOT_FIGHTING.reject(player=owner + 1)
    return ACCEPTED if data.char(owner).focus > 0 else R.NO_FOCUS.reject()


def _legal_gainessence(cat: Catalogue, data: DSData, seat: Seat, move: GainEssence) -> Verdict:
    if not data.structures:
        return R.NO_BASE_CAMP.reject()
    if data.char(seat).tile != PORTAL_SLOT:
        return R.OFF_PORTAL.reject()
    return ACCEPTED if data.char(seat).sanity >= 1 else R.NO_SANITY.reject()


def _legal_light(cat: Catalogue, data: DSData, seat: Seat, move: Light) -> Verdict:
    return ACCEPTED if move.points >= 1 else R.BAD_NUMBER.reject(what=numbers_named("points"))


def _legal_protect(cat: Catalogue, data: DSData, seat: Seat, move: Protect) -> Verdict:
    return ACCEPTED if move.count >= 1 else R.BAD_NUMBER.reject(what=numbers_named("count"))


def monster_dice(cat: Catalogue, data: DSData, seat: Seat, move: Fight) -> int:
    """战斗结算: max(1, monster CV − the fighters' CV); scenario tokens not engaged add one
    die each, which CV does not reduce. The tokens' and the shadow creatures' CV are the box's
    (scenario card, shadow cards); a location monster's is the one the move carries."""
    if move.target == "scenario":
        tokens = scenario_of(cat, data).tokens
        here = tokens_on(cat, data, data.char(seat).tile or "")
        engaged = here[: move.tokens]
        cv = sum(tokens[i].cv for i in engaged)
        return max(1, cv - move.cv) + (len(here) - len(engaged))
    if move.target == "shadow":
        return max(1, cat.shadow_cv.get(move.tier, 0) - move.cv)
    return max(1, move.monster_cv - move.cv)


_CHECKS: dict[type, Callable[..., Verdict]] = {
    Explore: _legal_explore,
    Interact: _legal_interact,
    Roll: _legal_roll,
    Trade: _legal_trade,
    Gain: _legal_gain,
    Discard: _legal_discard,
    Eat: _legal_eat,
    Lose: _legal_lose,
    SpendFocus: _legal_spendfocus,
    GainEssence: _legal_gainessence,
    Light: _legal_light,
    Protect: _legal_protect,
}
"""The checks by move type (a fight's needs the flow's passed seats, a move's the draws
option: called directly)."""
