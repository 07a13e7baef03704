"""Greenwood's rules of the moves: which are legal (``check``) and what they do (``play``).

Every refusal is a reason of ``reasons.py`` citing its section of ``greenwood.zh.md``.
Rewards resolve in order, and a reward that triggers others (a track space, a wisp to place, a
full energy supply) resolves those first (§三.10: 必须先完成连锁触发的奖励): pending rewards
live in the player's ``pending`` queue, front first, and a piece to place stops the queue until
it is placed. A piece no cell can take never stops it: a move that would bring one directly (a
rescue, a wisp action, a wisp entered from a card) is refused (§四.8: 支付或弃置费用后必须满足
对应规则要求,否则不能执行该效果), and one a reward chains into is lost (§三.2: 若无法满足效果的
条件,该效果直接失去), so nothing can leave a player with only Undo.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engine.core import ACCEPTED, EndTurn, Event, Move, Pass, Seat, State, Text, Verdict
from engine.core.box import noted
from engine.core.offers import CORE_LABELS
from engine.core.vocabulary import SeatPassed
from engine.greenwood.board import orientation_of
from engine.greenwood.catalogue import (
    Catalogue,
    Layout,
    box_of,
    catalogue,
    layout_item,
    parse_reward,
)
from engine.greenwood.errors import GreenwoodDataError
from engine.greenwood.moves import (
    SPIRIT,
    CastSpell,
    CreatureRescued,
    DuskMarkerPlaced,
    Gain,
    GainAurora,
    Hike,
    KnowledgeChanged,
    Learn,
    PiecePlaced,
    Place,
    PlaceDuskMarker,
    PlacementAwaited,
    Protect,
    Recruit,
    RemoveHiker,
    Rescue,
    RewardGained,
    RewardLost,
    SpiritAbility,
    Strengthen,
    SwapKnowledge,
    TakeWisp,
    TokenUsed,
    UseEnergy,
    UseSpy,
)
from engine.greenwood.reasons import (
    ALREADY_PROTECTED,
    ALREADY_SPIED,
    AURORA_FULL,
    COMPANION_BUSY,
    EFFECT_BLOCKED,
    EFFECT_DONE,
    FOREST_ACTION_DONE,
    LEARN_SAME,
    LEARNED_TWICE,
    MARKER_FIRST,
    MARKER_MUST_MOVE,
    MARKER_NOT_LAID,
    MARKER_PLACED,
    MISSING_KNOWLEDGE,
    NO_AURORA_LEFT,
    NO_COMPANION,
    NO_ENERGY,
    NO_FREE_SLOT,
    NO_HIKER,
    NO_PROTECTION_LEFT,
    NO_ROOM,
    NO_SPIRIT_TOKEN,
    NO_SPY,
    NO_SUCH_PLACE,
    NO_SWAP,
    NO_VIRTUAL,
    NOT_HELD,
    NOT_PROTECTED,
    NOTHING_TO_PLACE,
    ONE_TOKEN,
    PLACE_FIRST,
    PROTECTION_LEFT,
    REPLACE_ONLY_WHEN_FULL,
    SCORE_BELOW_ZERO,
    SPIRIT_CANNOT_HIKE,
    SPIRIT_SPIED_TWICE,
    SPY_NEEDS_ENERGY,
    SPY_OWN,
    SWAP_SAME,
    THREAT_HIDDEN,
    TOKEN_FIRST,
    TURN_WITHOUT_TOKEN,
    UNKNOWN_CREATURE,
    UNKNOWN_REWARD,
    WRONG_PIECE,
)
from engine.greenwood.rules.draws import threat_at
from engine.greenwood.rules.placement import check_placement, rewards_of, room
from engine.greenwood.state import (
    MAX_AURORA,
    MAX_ENERGY,
    MAX_SPIES,
    ORDINARY_PLACES,
    OVERFLOW_VP,
    PROTECTION_TOKENS,
    SPIRIT_SPY_PLACES,
    GreenwoodData,
    Pending,
    Placed,
    Player,
)
from engine.greenwood.texts import (
    BOARD,
    DUSK_EFFECT_NAMES,
    FOREST_ACTION_NAMES,
    KNOWLEDGE_SHORT,
    companion_name,
    creature_name,
    knowledge_list,
    piece_name,
)

Effect = tuple[Player, GreenwoodData]
"""What a move's effect returns: the mover's new data and the table (other players may change)."""


def _night_turn(state: State[GreenwoodData], seat: Seat) -> bool:
    """Whether ``seat`` used a token this turn and no one has acted since (§三.4)."""
    return state.data.turn == (seat, state.moves)


def check(state: State[GreenwoodData], move: Move) -> Verdict:
    """The Greenwood checks of a move the core already allows in this phase and turn."""
    seat = move.seat
    assert seat is not None
    player = state.data.players[seat]
    awaiting = player.awaiting
    if awaiting is not None and not isinstance(move, Place):
        return PLACE_FIRST.reject(piece=piece_name(awaiting))
    checker = _CHECKS.get(type(move))
    return checker(state, player, move) if checker else ACCEPTED


def check_pass(state: State[GreenwoodData], move: Pass | EndTurn) -> Verdict:
    """Greenwood's rules for ending a turn or a phase (§三.2, §三.4, §三.10): a piece to place
    comes first; dusk ends for a player only once its marker lies on an effect this round."""
    player = state.data.players[move.seat]
    if player.awaiting is not None:
        return PLACE_FIRST.reject(piece=piece_name(player.awaiting))
    if state.flow.phase == "dusk" and player.marker_round != state.flow.round:
        return MARKER_NOT_LAID.reject()
    if (
        state.flow.phase == "night"
        and isinstance(move, EndTurn)
        and not _night_turn(state, move.seat)
    ):
        return TURN_WITHOUT_TOKEN.reject(done=CORE_LABELS["pass"])
    return ACCEPTED


def play(state: State[GreenwoodData], move: Move) -> tuple[State[GreenwoodData], tuple[Event, ...]]:
    """The effects of a legal Greenwood move."""
    seat = move.seat
    assert seat is not None
    player = state.data.players[seat]
    events: list[Event] = []
    player, table = _EFFECTS[type(move)](state, player, move, events)
    table = table.with_player(seat, player)
    if isinstance(move, UseEnergy | UseSpy | Hike) or _night_turn(state, seat):
        table = replace(table, turn=(seat, state.moves + 1))
    state = replace(state, data=table)
    if state.flow.phase == "departure" and departure_over(player):
        state = pass_for(state, seat, events)
    return state, tuple(events)


def departure_over(p: Player) -> bool:
    """§三.3: no aurora left to spend in this departure, and no piece waiting to be placed: the
    player moves on by itself, as at the table (没有极光的玩家跳过本阶段)."""
    return p.departure_left <= 0 and p.awaiting is None


def pass_for(state: State[GreenwoodData], seat: Seat, events: list[Event]) -> State[GreenwoodData]:
    """The seat is done with the phase without a ``pass`` of its own (announced as one)."""
    if seat in state.flow.done:
        return state
    events.append(SeatPassed(seat, state.flow.phase))
    return replace(state, flow=replace(state.flow, done=state.flow.done | {seat}))


# --- dusk ------------------------------------------------------------------------------------


def _check_marker(state: State[GreenwoodData], p: Player, m: PlaceDuskMarker) -> Verdict:
    if p.marker_round == state.flow.round:
        return MARKER_PLACED.reject()
    if state.flow.round > 1 and p.marker == m.effect:
        return MARKER_MUST_MOVE.reject(effect=DUSK_EFFECT_NAMES[m.effect])
    return ACCEPTED


def _dusk_effect(state: State[GreenwoodData], p: Player, effect: str) -> Verdict:
    if p.marker_round != state.flow.round:
        return MARKER_FIRST.reject()
    if p.marker == effect:
        return EFFECT_BLOCKED.reject(effect=DUSK_EFFECT_NAMES[effect])
    if effect in p.dusk_done:
        return EFFECT_DONE.reject(effect=DUSK_EFFECT_NAMES[effect])
    return ACCEPTED


def _check_recruit(state: State[GreenwoodData], p: Player, m: Recruit) -> Verdict:
    verdict = _dusk_effect(state, p, "recruit")
    if not verdict:
        return verdict
    if not 0 <= m.place < ORDINARY_PLACES:
        return NO_SUCH_PLACE.reject(place=m.place + 1)
    if m.place in p.companions and len(p.companions) < ORDINARY_PLACES:
        return REPLACE_ONLY_WHEN_FULL.reject()
    return ACCEPTED


def _check_aurora(state: State[GreenwoodData], p: Player, m: GainAurora) -> Verdict:
    verdict = _dusk_effect(state, p, "aurora")
    if verdict and p.aurora >= MAX_AURORA:
        return AURORA_FULL.reject()
    return verdict


def _check_protect(state: State[GreenwoodData], p: Player, m: Protect) -> Verdict:
    verdict = _dusk_effect(state, p, "protect")
    if not verdict:
        return verdict
    if not 0 <= m.threat < state.data.revealed:
        return THREAT_HIDDEN.reject(threat=m.threat + 1)
    if m.threat in p.protections:
        return ALREADY_PROTECTED.reject()
    if len(p.protections) >= PROTECTION_TOKENS and m.move_from is None:
        return NO_PROTECTION_LEFT.reject()
    if m.move_from is not None and len(p.protections) < PROTECTION_TOKENS:
        return PROTECTION_LEFT.reject()
    if m.move_from is not None and m.move_from not in p.protections:
        return NOT_PROTECTED.reject(threat=m.move_from + 1)
    return ACCEPTED


def _check_strengthen(state: State[GreenwoodData], p: Player, m: Strengthen) -> Verdict:
    return _dusk_effect(state, p, "strengthen")


def _marker(state: State[GreenwoodData], p: Player, m: PlaceDuskMarker, ev: list[Event]) -> Effect:
    ev.append(DuskMarkerPlaced(m.seat, m.effect))
    return replace(p, marker=m.effect, marker_round=state.flow.round), state.data


def _done(p: Player, effect: str) -> Player:
    return replace(p, dusk_done=p.dusk_done | {effect})


def _recruit(state: State[GreenwoodData], p: Player, m: Recruit, ev: list[Event]) -> Effect:
    p = replace(p, companions=p.companions | {m.place}, hikers=p.hikers - {m.place})
    return _done(p, "recruit"), state.data


def _aurora(state: State[GreenwoodData], p: Player, m: GainAurora, ev: list[Event]) -> Effect:
    items = [("dusk: gain aurora", "aurora")]
    return _resolve(
        catalogue(state), _layout(state), _done(p, "aurora"), m.seat, items, ev
    ), state.data


def _protect(state: State[GreenwoodData], p: Player, m: Protect, ev: list[Event]) -> Effect:
    kept = tuple(t for t in p.protections if t != m.move_from)
    p = _done(replace(p, protections=(*kept, m.threat)), "protect")
    threat = threat_at(state, m.threat)  # the box's card, or the one the table entered
    items = [(f"protection: {threat.name}", r) for r in threat.protection]
    return _resolve(catalogue(state), _layout(state), p, m.seat, items, ev), state.data


def _strengthen(state: State[GreenwoodData], p: Player, m: Strengthen, ev: list[Event]) -> Effect:
    p = _done(p, "strengthen")
    return _resolve(
        catalogue(state), _layout(state), p, m.seat, [("dusk: strengthen", "strength")], ev
    ), state.data


# --- departure -------------------------------------------------------------------------------


def _check_remove_hiker(state: State[GreenwoodData], p: Player, m: RemoveHiker) -> Verdict:
    if p.departure_left <= 0:
        return NO_AURORA_LEFT.reject()
    if m.companion not in p.hikers:
        return NO_HIKER.reject(companion=companion_name(m.companion))
    return ACCEPTED


def _check_spell(state: State[GreenwoodData], p: Player, m: CastSpell) -> Verdict:
    return NO_AURORA_LEFT.reject() if p.departure_left <= 0 else ACCEPTED


def _remove_hiker(
    state: State[GreenwoodData], p: Player, m: RemoveHiker, ev: list[Event]
) -> Effect:
    p = replace(p, hikers=p.hikers - {m.companion}, departure_left=p.departure_left - 1)
    return p, state.data


def _spell(state: State[GreenwoodData], p: Player, m: CastSpell, ev: list[Event]) -> Effect:
    p = replace(p, departure_left=p.departure_left - 1)
    reward = "vp:1" if m.spell == "request_aid" else "pathfinding"
    return _resolve(
        catalogue(state), _layout(state), p, m.seat, [(f"spell: {m.spell}", reward)], ev
    ), state.data


# --- night tokens ----------------------------------------------------------------------------


def _token_ok(state: State[GreenwoodData], seat: Seat) -> Verdict:
    return ONE_TOKEN.reject() if _night_turn(state, seat) else ACCEPTED


def _own_free(p: Player, companion: int, spirit_ok: bool) -> Verdict:
    if companion == SPIRIT and spirit_ok:
        return (
            COMPANION_BUSY.reject(companion=companion_name(companion))
            if SPIRIT in p.energised
            else ACCEPTED
        )
    if not 0 <= companion < ORDINARY_PLACES:
        return NO_SUCH_PLACE.reject(place=companion + 1)
    if companion not in p.companions:
        return NO_COMPANION.reject(place=companion + 1)
    if companion in p.energised or companion in p.hikers:
        return COMPANION_BUSY.reject(companion=companion_name(companion))
    return ACCEPTED


def _check_energy(state: State[GreenwoodData], p: Player, m: UseEnergy) -> Verdict:
    verdict = _token_ok(state, m.seat)
    if not verdict:
        return verdict
    if p.energy_left <= 0:
        return NO_ENERGY.reject()
    return _own_free(p, m.companion, spirit_ok=True)


def _check_hike(state: State[GreenwoodData], p: Player, m: Hike) -> Verdict:
    verdict = _token_ok(state, m.seat)
    if not verdict:
        return verdict
    if m.companion == SPIRIT:
        return SPIRIT_CANNOT_HIKE.reject()
    return _own_free(p, m.companion, spirit_ok=False)


def _check_spy(state: State[GreenwoodData], p: Player, m: UseSpy) -> Verdict:
    verdict = _token_ok(state, m.seat)
    if not verdict:
        return verdict
    if p.spies_left <= 0:
        return NO_SPY.reject()
    table = state.data
    if m.owner == m.seat:
        return SPY_OWN.reject()
    if m.owner is None:
        if state.players != 1:
            return NO_VIRTUAL.reject()
        if m.companion == SPIRIT:
            spies = table.virtual_spirit_spies
            return SPIRIT_SPIED_TWICE.reject() if spies >= SPIRIT_SPY_PLACES else ACCEPTED
        if not 0 <= m.companion < table.virtual:
            return SPY_NEEDS_ENERGY.reject()
        return ALREADY_SPIED.reject() if m.companion in table.virtual_spied else ACCEPTED
    if not 0 <= m.owner < state.players:
        return SPY_OWN.reject()
    owner = table.players[m.owner]
    if m.companion == SPIRIT:
        return SPIRIT_SPIED_TWICE.reject() if owner.spirit_spies >= SPIRIT_SPY_PLACES else ACCEPTED
    if m.companion not in owner.energised:
        return SPY_NEEDS_ENERGY.reject()
    return ALREADY_SPIED.reject() if m.companion in owner.spied else ACCEPTED


def _energy(state: State[GreenwoodData], p: Player, m: UseEnergy, ev: list[Event]) -> Effect:
    ev.append(TokenUsed(m.seat, "energy", m.seat, m.companion))
    p = replace(p, energised=p.energised | {m.companion}, swap_ready=False, forest=None)
    return replace(p, spirit_ready=m.companion == SPIRIT), state.data


def _hike(state: State[GreenwoodData], p: Player, m: Hike, ev: list[Event]) -> Effect:
    ev.append(TokenUsed(m.seat, "hike", m.seat, m.companion))
    p = replace(p, hikers=p.hikers | {m.companion}, swap_ready=False, spirit_ready=False)
    return replace(p, forest=()), state.data  # §三.7: one forest action ahead


def _spy(state: State[GreenwoodData], p: Player, m: UseSpy, ev: list[Event]) -> Effect:
    ev.append(TokenUsed(m.seat, "spy", m.owner, m.companion))
    table = state.data
    p = replace(p, spies_out=p.spies_out + 1, swap_ready=False, forest=None)
    p = replace(p, spirit_ready=m.companion == SPIRIT)
    if m.owner is None:
        if m.companion == SPIRIT:
            table = replace(table, virtual_spirit_spies=table.virtual_spirit_spies + 1)
        else:
            table = replace(table, virtual_spied=table.virtual_spied | {m.companion})
        return p, table
    owner = table.players[m.owner]
    if m.companion == SPIRIT:
        owner = replace(owner, spirit_spies=owner.spirit_spies + 1)
    else:
        owner = replace(owner, spied=owner.spied | {m.companion})
    return p, table.with_player(m.owner, owner)


# --- what a turn does ------------------------------------------------------------------------


def _in_turn(state: State[GreenwoodData], seat: Seat) -> Verdict:
    if state.flow.phase == "night" and not _night_turn(state, seat):
        return TOKEN_FIRST.reject()
    return ACCEPTED


def _check_gain(state: State[GreenwoodData], p: Player, m: Gain) -> Verdict:
    try:
        kind, amount = parse_reward(m.reward)
    except GreenwoodDataError:
        return UNKNOWN_REWARD.reject(reward=m.reward)
    if (amount < 0 and kind != "vp") or amount == 0:
        return UNKNOWN_REWARD.reject(reward=m.reward)
    if kind == "vp" and p.score + amount < 0:
        return SCORE_BELOW_ZERO.reject(score=p.score)
    if kind == "aurora" and p.aurora >= MAX_AURORA:  # §三.2: it would change nothing
        return AURORA_FULL.reject()
    if kind == "wisp" and not room(_layout(state), p.covered, ("wisp",), catalogue(state).shapes):
        return NO_ROOM.reject(piece=piece_name("wisp"))
    return _in_turn(state, m.seat)


def _forest(state: State[GreenwoodData], p: Player, action: str) -> Verdict:
    """§三.7: a hike ends in one forest action; its learning action learns twice at most
    (§三.8). Turns of other tokens are not limited here: companion abilities the engine does
    not read may learn or rescue."""
    if state.flow.phase != "night" or p.forest is None:
        return ACCEPTED
    if action == "learn" and p.forest == ("learn", "learn"):
        return LEARNED_TWICE.reject()
    if p.forest and not (action == "learn" and p.forest == ("learn",)):
        return FOREST_ACTION_DONE.reject(action=FOREST_ACTION_NAMES[p.forest[0]])
    return ACCEPTED


def _forest_done(state: State[GreenwoodData], p: Player, action: str) -> Player:
    """Record the forest action a hike took (night only)."""
    if state.flow.phase != "night" or p.forest is None:
        return p
    return replace(p, forest=(*p.forest, action))


def _check_learn(state: State[GreenwoodData], p: Player, m: Learn) -> Verdict:
    if m.discard is not None and m.discard not in p.knowledge:
        return NOT_HELD.reject(knowledge=_colour(m.discard))
    if m.discard == m.knowledge:  # §三.8 腾出位置 for the same knowledge: nothing changes
        return LEARN_SAME.reject(knowledge=_colour(m.knowledge))
    if m.discard is None and len(p.knowledge) >= p.slots:
        return NO_FREE_SLOT.reject()
    return _in_turn(state, m.seat) and _forest(state, p, "learn")


def _check_rescue(state: State[GreenwoodData], p: Player, m: Rescue) -> Verdict:
    cat = catalogue(state)
    creature = cat.creatures.get(m.creature)
    if creature is None:
        return UNKNOWN_CREATURE.reject(creature=m.creature)
    cost = list(_cost(cat, m.creature))
    held = list(p.knowledge)
    for k in cost:
        if k not in held:
            return MISSING_KNOWLEDGE.reject(
                creature=creature_name(m.creature),
                cost=knowledge_list(cost),
                held=knowledge_list(p.knowledge),
            )
        held.remove(k)
    if not room(_layout(state), p.covered, (creature.shape,) * creature.pieces, cat.shapes):
        return NO_ROOM.reject(piece=creature_name(m.creature))
    return _in_turn(state, m.seat) and _forest(state, p, "rescue")


def _check_take_wisp(state: State[GreenwoodData], p: Player, m: TakeWisp) -> Verdict:
    verdict = _in_turn(state, m.seat) and _forest(state, p, "wisp")
    if verdict and not room(_layout(state), p.covered, ("wisp",), catalogue(state).shapes):
        return NO_ROOM.reject(piece=piece_name("wisp"))
    return verdict


def _check_swap(state: State[GreenwoodData], p: Player, m: SwapKnowledge) -> Verdict:
    if not p.swap_ready:
        return NO_SWAP.reject()
    if m.old not in p.knowledge:
        return NOT_HELD.reject(knowledge=_colour(m.old))
    if m.new == m.old:  # §三.11: 替换为任意另一种知识
        return SWAP_SAME.reject(knowledge=_colour(m.old))
    return _in_turn(state, m.seat)


def _check_spirit(state: State[GreenwoodData], p: Player, m: SpiritAbility) -> Verdict:
    if not p.spirit_ready:
        return NO_SPIRIT_TOKEN.reject()
    return _in_turn(state, m.seat)


def _spirit(state: State[GreenwoodData], p: Player, m: SpiritAbility, ev: list[Event]) -> Effect:
    p = replace(p, spirit_ready=False)
    if m.ability == "journey":  # a card and a longer move: one forest action follows as moves
        return replace(p, forest=()), state.data
    return _resolve(
        catalogue(state), _layout(state), p, m.seat, [("spirit: draw three", "vp:2")], ev
    ), state.data


def _check_place(state: State[GreenwoodData], p: Player, m: Place) -> Verdict:
    awaiting = p.awaiting
    if awaiting is None:
        return NOTHING_TO_PLACE.reject()
    if m.piece != awaiting:
        return WRONG_PIECE.reject(piece=piece_name(awaiting), other=piece_name(m.piece))
    layout = _layout(state)
    verdict = check_placement(
        layout, p.covered, frozenset(m.cells), catalogue(state).shapes[m.piece]
    )
    if verdict.ok:
        return verdict
    n = layout.number  # a refusal on the demo's board says so (docs/box.md)
    return noted(verdict, box_of(state), layout_item(n), BOARD.format(n=n))


def _layout(state: State[GreenwoodData]) -> Layout:
    """The submarine layout every player of this game uses (§一.1)."""
    return catalogue(state).layouts[state.options.layout]


def _colour(knowledge: str) -> Text:
    """A knowledge colour by its short name (红 / red)."""
    return KNOWLEDGE_SHORT.get(knowledge, Text(knowledge, knowledge))


def _cost(cat: Catalogue, name: str) -> tuple[str, ...]:
    creature = cat.creatures[name]
    return creature.cost + (cat.large_extra if creature.deck == "B" else ())


def _gain(state: State[GreenwoodData], p: Player, m: Gain, ev: list[Event]) -> Effect:
    return _resolve(
        catalogue(state), _layout(state), p, m.seat, [("card", m.reward)], ev
    ), state.data


def _learn(state: State[GreenwoodData], p: Player, m: Learn, ev: list[Event]) -> Effect:
    held = list(p.knowledge)
    if m.discard is not None:
        held.remove(m.discard)
    p = replace(_forest_done(state, p, "learn"), knowledge=(*held, m.knowledge))
    ev.append(KnowledgeChanged(m.seat, p.knowledge))
    return p, state.data


def _rescue(state: State[GreenwoodData], p: Player, m: Rescue, ev: list[Event]) -> Effect:
    cat = catalogue(state)
    creature = cat.creatures[m.creature]
    held = list(p.knowledge)
    for k in _cost(cat, m.creature):
        held.remove(k)
    p = replace(_forest_done(state, p, "rescue"), knowledge=tuple(held))
    p = replace(p, rescued=(*p.rescued, m.creature))
    ev += [KnowledgeChanged(m.seat, p.knowledge), CreatureRescued(m.seat, m.creature)]
    source = f"rescue: {m.creature}"
    items = [(source, f"vp:{creature.vp}")] + [
        (source, f"place:{creature.shape}")
    ] * creature.pieces
    return _resolve(catalogue(state), _layout(state), p, m.seat, items, ev), state.data


def _take_wisp(state: State[GreenwoodData], p: Player, m: TakeWisp, ev: list[Event]) -> Effect:
    p = replace(_forest_done(state, p, "wisp"), swap_ready=True)
    return _resolve(
        catalogue(state), _layout(state), p, m.seat, [("wisp action", "place:wisp")], ev
    ), state.data


def _swap(state: State[GreenwoodData], p: Player, m: SwapKnowledge, ev: list[Event]) -> Effect:
    held = list(p.knowledge)
    held[held.index(m.old)] = m.new
    p = replace(p, knowledge=tuple(held), swap_ready=False)
    ev.append(KnowledgeChanged(m.seat, p.knowledge))
    return p, state.data


def _place(state: State[GreenwoodData], p: Player, m: Place, ev: list[Event]) -> Effect:
    cat = catalogue(state)
    layout = cat.layouts[state.options.layout]
    cells = frozenset(m.cells)
    shape = cat.shapes[m.piece]
    rotation, flipped = orientation_of(cells, shape.cells, shape.flippable) or (0, False)
    ev.append(PiecePlaced(m.seat, m.piece, tuple(sorted(cells)), rotation, flipped))
    paid = rewards_of(layout, p.covered, cells)
    p = replace(p, pieces=(*p.pieces, Placed(m.piece, cells)), pending=p.pending[1:])
    return _resolve(cat, layout, p, m.seat, paid, ev), state.data


# --- rewards ---------------------------------------------------------------------------------


def _resolve(
    cat: Catalogue, layout: Layout, p: Player, seat: Seat, items: list[Pending], ev: list[Event]
) -> Player:
    """Resolve ``items`` then the player's waiting rewards, chained rewards first (§三.10).

    Stops at a piece to place: the rest waits in ``pending`` until it is placed. A piece no
    cell of the submarine can take is lost (§三.2: 若无法满足效果的条件,该效果直接失去) and
    the rest goes on.
    """
    stack = [*items, *p.pending]
    while stack:
        source, reward = stack[0]
        if reward.startswith("place:"):
            piece = reward.removeprefix("place:")
            if room(layout, p.covered, (piece,), cat.shapes):
                ev.append(PlacementAwaited(seat, piece))
                return replace(p, pending=tuple(stack))
            stack.pop(0)
            ev.append(RewardLost(seat, piece, source))
            continue
        stack.pop(0)
        ev.append(RewardGained(seat, reward, source))
        p, follow = _gain_one(cat, p, reward, source)
        stack[:0] = follow
    return replace(p, pending=())


def _gain_one(cat: Catalogue, p: Player, reward: str, source: str) -> tuple[Player, list[Pending]]:
    """One reward's effect, and the rewards it triggers in turn."""
    kind, n = parse_reward(reward)
    if kind == "vp":
        return replace(p, score=max(0, p.score + n)), []
    if kind == "energy":
        if p.energy >= MAX_ENERGY:
            return p, [("all 4 energy tokens held (§四.7)", f"vp:{OVERFLOW_VP}")] * n
        extra = min(n, MAX_ENERGY - p.energy)
        return replace(p, energy=p.energy + extra), _more(reward, "energy", n - extra)
    if kind == "spy":
        if p.spies >= MAX_SPIES:
            return p, [("both spy tokens held (§四.7)", f"vp:{OVERFLOW_VP}")] * n
        extra = min(n, MAX_SPIES - p.spies)
        return replace(p, spies=p.spies + extra), _more(reward, "spy", n - extra)
    if kind == "aurora":
        return replace(p, aurora=min(MAX_AURORA, p.aurora + n)), []
    if kind == "slot":
        return replace(p, slots=p.slots + n), []
    if kind == "wisp":
        return p, [(source, "place:wisp")] * n
    follow: list[Pending] = []
    for _ in range(n):
        if kind == "strength":
            track = cat.strength
            if p.strength >= len(track.spaces) - 1:
                follow += [("strength track end (§四.3)", r) for r in track.end_reward]
            else:
                p = replace(p, strength=p.strength + 1)
                follow += [
                    (f"strength track space {p.strength}", r) for r in track.spaces[p.strength]
                ]
        else:
            track = cat.pathfinding
            step = p.pathfinding + 1
            if step >= len(track.spaces):
                step = track.loop_from or 0
            p = replace(p, pathfinding=step)
            follow += [(f"pathfinding track space {step}", r) for r in track.spaces[step]]
    return p, follow


def _more(reward: str, kind: str, left: int) -> list[Pending]:
    return [(reward, kind)] * left if left > 0 else []


_CHECKS: dict[type, Callable[..., Verdict]] = {
    PlaceDuskMarker: _check_marker,
    Recruit: _check_recruit,
    GainAurora: _check_aurora,
    Protect: _check_protect,
    Strengthen: _check_strengthen,
    RemoveHiker: _check_remove_hiker,
    CastSpell: _check_spell,
    UseEnergy: _check_energy,
    UseSpy: _check_spy,
    Hike: _check_hike,
    Gain: _check_gain,
    Learn: _check_learn,
    Rescue: _check_rescue,
    TakeWisp: _check_take_wisp,
    SwapKnowledge: _check_swap,
    SpiritAbility: _check_spirit,
    Place: _check_place,
}
_EFFECTS: dict[type, Callable[..., Effect]] = {
    PlaceDuskMarker: _marker,
    Recruit: _recruit,
    GainAurora: _aurora,
    Protect: _protect,
    Strengthen: _strengthen,
    RemoveHiker: _remove_hiker,
    CastSpell: _spell,
    UseEnergy: _energy,
    UseSpy: _spy,
    Hike: _hike,
    Gain: _gain,
    Learn: _learn,
    Rescue: _rescue,
    TakeWisp: _take_wisp,
    SwapKnowledge: _swap,
    SpiritAbility: _spirit,
    Place: _place,
}
