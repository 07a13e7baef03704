"""Greenwood's offers for the players' console (DESIGN.md "Offers", engine/core/offers.py).

For a seat that may act, the moves of the current phase as templates whose choices come from the
state: the companion places of that player's board, the revealed threats, the knowledge colours,
the creatures, the players one may spy on, the cells a piece to place may lie on. The core checks
every option with ``legal()`` and greys the refused ones with their reason, so choices the rules
forbid right now stay visible when a player would look for them (a second marker, the spirit
sent hiking, a creature whose knowledge is missing).

A piece's placement leaves out only the places it cannot lie on inside the board. A rescue, a
wisp action or a wisp from a card that no cell could take is offered greyed with the rules'
reason (§三.10, §四.8), and a reward that chains into such a wisp loses it (§三.2), so no
choice leads to a dead end and the offers need no look ahead.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.core import Seat, State, Text
from engine.core.forms import Choice, Field, Offer
from engine.greenwood.board import Cell
from engine.greenwood.catalogue import (
    KNOWLEDGE,
    TRIGGERS,
    Catalogue,
    box_of,
    catalogue,
    parse_reward,
    threat_item,
)
from engine.greenwood.moves import SPIRIT, ChooseStartPlayer, ThreatDrawn
from engine.greenwood.rules import draws
from engine.greenwood.rules.draws import POINTS_MAX, REWARD_MAX, threat_at
from engine.greenwood.rules.placement import placements
from engine.greenwood.state import ORDINARY_PLACES, GreenwoodData, Player
from engine.greenwood.texts import (
    CHOICE_TEXTS,
    DUSK_EFFECT_NAMES,
    FIELD_TEXTS,
    ICON_WORDS,
    KNOWLEDGE_NAMES,
    KNOWLEDGE_SHORT,
    OFFER_TEXTS,
    REWARD_NAMES,
    SPELL_NAMES,
    SPIRIT_ABILITY_NAMES,
    cell_names,
    creature_name,
    knowledge_list,
    piece_name,
    threat_name,
    trigger_name,
)

POINTS = tuple(range(1, 9))
"""The points a card or tile prints (``vp:1`` … ``vp:8``)."""
PAID = tuple(range(1, 6))
"""The points a card may ask for (``vp:-1`` … ``vp:-5``, §四.8)."""
OTHER_REWARDS = ("energy", "spy", "aurora", "strength", "pathfinding", "slot", "wisp")
"""The other rewards of ``greenwood.gain``, one unit each (tap again for more)."""


def greenwood_offers(state: State[GreenwoodData], seat: Seat) -> list[Offer]:
    """The Greenwood moves ``seat`` may make in this phase, with their choices (see module)."""
    phase = state.flow.phase
    player = state.data.players[seat]
    out: list[Offer] = []
    if draws.in_progress(state) is not None:
        return _table_draws(state, seat)
    if phase == "dusk":
        out += _dusk(state, seat, player)
    elif phase == "departure":
        out += _departure(seat, player)
    elif phase == "night":
        out += _night(state, seat, player)
    else:
        return out
    out += _any_time(state, seat, player)
    return out


# --- per phase -------------------------------------------------------------------------------


def _dusk(state: State[GreenwoodData], seat: Seat, p: Player) -> Iterator[Offer]:
    """§三.2: the marker, then the four effects."""
    effects = tuple(Choice(e, t) for e, t in DUSK_EFFECT_NAMES.items())
    yield _offer("greenwood.dusk_marker", seat, _pick("effect", effects))
    places = tuple(
        Choice(
            n, CHOICE_TEXTS["place_taken" if n in p.companions else "place_empty"].format(n=n + 1)
        )
        for n in range(ORDINARY_PLACES)
    )
    yield _offer("greenwood.recruit", seat, _pick("place", places))
    yield _offer("greenwood.gain_aurora", seat)
    threats = tuple(Choice(i, _threat_label(state, i)) for i in range(state.data.revealed))
    sources = (
        Choice(None, CHOICE_TEXTS["unplaced"]),
        *(Choice(i, _threat_label(state, i)) for i in sorted(p.protections)),
    )
    yield _offer("greenwood.protect", seat, _pick("threat", threats), _pick("move_from", sources))
    yield _offer("greenwood.strengthen", seat)


def _departure(seat: Seat, p: Player) -> Iterator[Offer]:
    """§三.3: one aurora each, a hike token off or a standard spell."""
    yield _offer("greenwood.remove_hiker", seat, _pick("companion", _ordinary(p)))
    spells = tuple(Choice(s, t) for s, t in SPELL_NAMES.items())
    yield _offer("greenwood.cast_spell", seat, _pick("spell", spells))


def _night(state: State[GreenwoodData], seat: Seat, p: Player) -> Iterator[Offer]:
    """§三.4–§三.12, §四.1: a token, then what it does."""
    own = (*_ordinary(p), Choice(SPIRIT, CHOICE_TEXTS["spirit"]))
    yield _offer("greenwood.use_energy", seat, _pick("companion", own))
    for owner in _spy_owners(state, seat):
        yield _spy_offer(state, seat, owner)
    yield _offer("greenwood.hike", seat, _pick("companion", own))
    abilities = tuple(Choice(a, t) for a, t in SPIRIT_ABILITY_NAMES.items())
    yield _offer("greenwood.spirit_ability", seat, _pick("ability", abilities))
    cat = catalogue(state)
    creatures = tuple(Choice(name, _creature_label(cat, name)) for name in cat.creatures)
    yield _offer("greenwood.rescue", seat, _pick("creature", creatures))
    yield _offer("greenwood.take_wisp", seat)
    colours = tuple(Choice(k, KNOWLEDGE_NAMES[k]) for k in KNOWLEDGE)
    yield _offer("greenwood.swap_knowledge", seat, _pick("old", colours), _pick("new", colours))


def _any_time(state: State[GreenwoodData], seat: Seat, p: Player) -> Iterator[Offer]:
    """What a card or tile may give in any phase: rewards (the console's "card effect…"
    entry: what a card says, not an action of the rules), knowledge; a piece to place."""
    for label, rewards in (
        ("gain.points", tuple(f"vp:{n}" for n in POINTS)),
        ("gain.pay", tuple(f"vp:-{n}" for n in PAID)),
        ("gain.other", OTHER_REWARDS),
    ):
        choices = tuple(Choice(r, _reward_label(r)) for r in rewards)
        field = _pick("reward", choices)
        yield Offer("greenwood.gain", seat, OFFER_TEXTS[label], fields=(field,), kind="card_effect")
    colours = tuple(Choice(k, KNOWLEDGE_NAMES[k]) for k in KNOWLEDGE)
    slots = (
        Choice(None, CHOICE_TEXTS["free_slot"]),
        *(
            Choice(k, CHOICE_TEXTS["instead_of"].format(k=KNOWLEDGE_SHORT[k]))
            for k in KNOWLEDGE
            if k in p.knowledge
        ),
    )
    yield _offer("greenwood.learn", seat, _pick("knowledge", colours), _pick("discard", slots))
    if p.awaiting is not None:
        yield place_offer(state, seat, p.awaiting)


# --- the piece to place (§三.10) ---------------------------------------------------------------


def place_offer(state: State[GreenwoodData], seat: Seat, piece: str) -> Offer:
    """The camera's fallback: the awaited piece on any cells of the board it fits inside and on
    free cells, every rotation (and flip) once; ``legal()`` greys the start cell, unusable
    cells and a piece that touches nothing. Cells are listed row by row (row, then column)."""
    layout = catalogue(state).layouts[state.options.layout]
    covered = state.data.players[seat].covered
    choices = tuple(
        Choice([list(c) for c in cells], _cells_label(cells, orientation))
        for cells, orientation in placements(
            layout.cols, layout.rows, catalogue(state).shapes[piece]
        )
        if not covered.intersection(cells)
    )
    cells_field = Field(
        "cells", FIELD_TEXTS["cells"], "cells", choices, grid=(layout.cols, layout.rows)
    )
    label = OFFER_TEXTS["greenwood.place"].format(piece=piece_name(piece))
    return Offer(
        "greenwood.place", seat, label, fixed={"piece": piece}, fields=(cells_field,), camera=True
    )


# --- building blocks -------------------------------------------------------------------------


def _table_draws(state: State[GreenwoodData], seat: Seat) -> list[Offer]:
    """What the table has still to give as a dusk begins (``rules/draws.py``): the threat card
    turned face up (§一.3, §三.15 step 3) and the start player (§一.10)."""
    out = []
    if state.data.threats_due:
        out += _threat_draw(state, seat)
    if state.data.start_due:
        players = tuple(
            Choice(n, CHOICE_TEXTS["player"].format(n=n + 1)) for n in range(state.players)
        )
        out.append(_offer(ChooseStartPlayer.type, seat, _pick("player", players)))
    return out


def _threat_draw(state: State[GreenwoodData], seat: Seat) -> list[Offer]:
    """§一.3: the threat card the table turned face up, picked by its name among the box's
    threats (what sets it off and what protecting pays said beside it; a demo card said to be
    the demo's), or entered by what sets it off (§四.5) and its protection reward: points
    (1–8) in one offer, another reward (1–3 of it) in another, so that no offer's picks
    multiply past 6 × 7."""
    box = box_of(state)
    choices = []
    for threat in catalogue(state).threats:
        label = Text(
            f"{threat_name(threat.name).zh}({trigger_name(threat.trigger).zh};"
            f"保护奖励:{_rewards_label(threat.protection).zh})",
            f"{threat_name(threat.name).en} (set off by {trigger_name(threat.trigger).en};"
            f" protection: {_rewards_label(threat.protection).en})",
        )
        if not box.is_owners(threat_item(threat.name)):
            label = CHOICE_TEXTS["demo"].format(name=label)
        choices.append(Choice(threat.name, label))
    pick = _offer(
        ThreatDrawn.type, seat, _pick("threat", tuple(choices)), label=OFFER_TEXTS["threat.pick"]
    )
    triggers = _pick("trigger", tuple(Choice(t, trigger_name(t)) for t in TRIGGERS))
    points = Field("amount", FIELD_TEXTS["points"], "number", low=1, high=POINTS_MAX, default=1)
    amount = Field("amount", FIELD_TEXTS["amount"], "number", low=1, high=REWARD_MAX, default=1)
    others = tuple(Choice(r, REWARD_NAMES[r]) for r in OTHER_REWARDS)
    by_points = Offer(
        ThreatDrawn.type,
        seat,
        OFFER_TEXTS["threat.points"],
        fixed={"protection": "vp"},
        fields=(triggers, points),
    )
    by_reward = Offer(
        ThreatDrawn.type,
        seat,
        OFFER_TEXTS["threat.other"],
        fields=(triggers, _pick("protection", others), amount),
    )
    return [pick, by_points, by_reward]


def threat_fields() -> tuple[Field, ...]:
    """What a threat card shows, as the fields the "Your box" page copies it by (§四.5): what
    sets it off, its protection reward and how many of it (points 1–8, another reward 1–3)."""
    rewards = (Choice("vp", ICON_WORDS["vp"]), *(Choice(r, REWARD_NAMES[r]) for r in OTHER_REWARDS))
    amount = Field("amount", FIELD_TEXTS["amount"], "number", low=1, high=POINTS_MAX, default=1)
    return (
        _pick("trigger", tuple(Choice(t, trigger_name(t)) for t in TRIGGERS)),
        _pick("protection", rewards),
        amount,
    )


def _offer(move: str, seat: Seat, *fields: Field, label: Text | None = None) -> Offer:
    return Offer(move, seat, label or OFFER_TEXTS[move], fields=fields)


def _pick(name: str, choices: tuple[Choice, ...]) -> Field:
    return Field(name, FIELD_TEXTS[name], "pick", choices)


def _ordinary(p: Player) -> tuple[Choice, ...]:
    """The player's occupied ordinary places (§一.6), numbered from 1 for the players."""
    return tuple(Choice(n, CHOICE_TEXTS["companion"].format(n=n + 1)) for n in sorted(p.companions))


def _spy_owners(state: State[GreenwoodData], seat: Seat) -> list[Seat | None]:
    """Whom a spy may copy: every other player, or the solo virtual opponent (§三.6, §四.18)."""
    if state.players == 1:
        return [None]
    return [(seat + k) % state.players for k in range(1, state.players)]


def _spy_offer(state: State[GreenwoodData], seat: Seat, owner: Seat | None) -> Offer:
    """§三.6: one offer per owner; its companions are those on that board (shown ones, solo)."""
    if owner is None:
        name = CHOICE_TEXTS["virtual_owner"]
        companions = tuple(
            Choice(n, CHOICE_TEXTS["virtual"].format(n=n + 1)) for n in range(state.data.virtual)
        )
    else:
        name = CHOICE_TEXTS["player"].format(n=owner + 1)
        companions = _ordinary(state.data.players[owner])
    companions = (*companions, Choice(SPIRIT, CHOICE_TEXTS["spirit"]))
    label = OFFER_TEXTS["greenwood.use_spy"].format(owner=name)
    return Offer(
        "greenwood.use_spy",
        seat,
        label,
        fixed={"owner": owner},
        fields=(_pick("companion", companions),),
    )


def _threat_label(state: State[GreenwoodData], index: int) -> Text:
    """A threat on the main board with its protection reward; a demo card's reward said to be
    the demo's."""
    threat = threat_at(state, index)
    reward = _rewards_label(threat.protection)
    label = CHOICE_TEXTS["threat"].format(name=threat_name(threat.name), reward=reward)
    owners = box_of(state).is_owners(threat_item(threat.name))
    if owners or threat in state.data.entered:
        return label
    return CHOICE_TEXTS["demo"].format(name=label)


def _rewards_label(rewards: tuple[str, ...]) -> Text:
    return Text(
        "、".join(_reward_label(r).zh for r in rewards),
        ", ".join(_reward_label(r).en for r in rewards),
    )


def _creature_label(cat: Catalogue, name: str) -> Text:
    creature = cat.creatures[name]
    cost = creature.cost + (cat.large_extra if creature.deck == "B" else ())
    return CHOICE_TEXTS["creature"].format(
        name=creature_name(name), cost=knowledge_list(cost), vp=creature.vp
    )


def _reward_label(reward: str) -> Text:
    kind, amount = parse_reward(reward)
    if kind == "vp":
        key = ("vp" if amount > 0 else "pay") + ("1" if abs(amount) == 1 else "")
        return REWARD_NAMES[key].format(n=abs(amount))
    text = REWARD_NAMES[kind]
    return text if amount == 1 else Text(f"{text.zh} ×{amount}", f"{text.en} ×{amount}")


def _cells_label(cells: tuple[Cell, ...], orientation: tuple[int, bool]) -> Text:
    """``A1 B1 (as printed)``: columns as letters, rows from 1, as on the board's edges."""
    shown = cell_names(cells)
    degrees, flipped = orientation
    if flipped:
        how = CHOICE_TEXTS["flipped"].format(deg=degrees)
    elif degrees:
        how = CHOICE_TEXTS["turned"].format(deg=degrees)
    else:
        how = CHOICE_TEXTS["upright"]
    return CHOICE_TEXTS["cells"].format(cells=shown, turn=how)
