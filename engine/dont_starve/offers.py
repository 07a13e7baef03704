"""Don't Starve's offers for the players' console (``Game.offers``; DESIGN.md "Offers").

For each seat that may act, the moves it can make now, as templates whose choices come from the
state: the tiles of the map (greyed when not adjacent), the helpers who may join a fight, the
resources held, the characters one may give to. The core checks every option with ``legal()``.

By phase (docs/dont_starve.md, "The console"):

- action: move (camera), explore, interact, fight, trade, another action, scenario end, essence
  (with a base camp), and the free actions gain, discard, eat, lose, focus; while a fight waits
  for its dice only each fighter's dice (``roll``), focus, eat and lose. A seat that may not
  take a turn now (another turn is open, or it is inactive) gets only the free actions, which
  it may take outside its turn (§自由行动; the core lists it after the acting seat).
- shadow: the free actions, and the shadow creature's attack as monster dice.
- daily needs: the free actions and light; weather: the free actions and protect.

Where the console puts each (``Offer.kind``): the dice just rolled first, then the main
actions (§行动: move, explore, interact, fight, trade, another action; in the upkeep phases light
and protect), the free actions the rules name (eat, reroll, essence), what a card says (gain,
discard, lose, the bottom card, no roll) behind one entry, the end of the turn (§结束回合: the
activation token flips) or of the phase, and the end of the scenario in a row of its own.

The dice are entered face by face (never rolled here): the character die and the monster dice
with the faces of ``data/dice.toml`` (the rule text names the symbols, not how many of each).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any

from engine.core import Choice, Die, Face, Field, Offer, Seat, State, Text
from engine.core.vocabulary import Pass
from engine.dont_starve.board import adjacent
from engine.dont_starve.catalogue import (
    BIOMES,
    SYMBOLS,
    Catalogue,
    catalogue,
    location_item,
    location_title,
    needs_item,
    weather_item,
    weather_title,
)
from engine.dont_starve.common import places, scenario_of
from engine.dont_starve.moves import (
    KINDS,
    Act,
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
from engine.dont_starve.phases import active_symbols
from engine.dont_starve.rules.draws import DAMAGE_MAX as DRAW_DAMAGE_MAX
from engine.dont_starve.rules.draws import (
    EVENT_MAX,
    MINING_MAX,
    MONSTER_CV_MAX,
    NEEDS_MAX,
    SYMBOLS_MAX,
    due_kind,
)
from engine.dont_starve.rules.draws import in_progress as draw_in_progress
from engine.dont_starve.state import ITEM_LIMIT, RESOURCE_KINDS, RESOURCE_LIMIT, DSData
from engine.dont_starve.texts import (
    BIOME_NAMES,
    KIND_NAMES,
    KIND_WORDS,
    NUMBER_NAMES,
    SYMBOL_NAMES,
    TIME_NAMES,
    count_of,
    structure_name,
)

FIGHT_CV_MAX = 10
"""The highest CV (fighters' or monster's) the fight offer lets players enter."""
DAMAGE_MAX = 5
FOOD_MAX = 6
"""The highest value per stat printed on a food token the eat offer takes."""
LIGHT_MAX = 3
SEAT_PHASES = ("action", "shadow", "daily_needs", "weather")
"""The phases in which characters act (the others are the table's: confirm)."""
END_TURN = Text("结束回合", "End my turn")
"""§结束回合: the core's ``pass`` in the action phase: the character flips its activation
token and is done until the action dial turns (the phase ends when the dial reaches 0). The
button says it in two words; the log's line says the token is flipped."""
DONE_WITH_PHASE = Text("本阶段结束", "Done with this phase")
"""The core's ``pass`` in the shadow, daily needs and weather phases."""

_FACES = {
    "value": (Text("数值", "value"), "#", ()),
    "daylight": (Text("日光", "daylight"), "☀", ()),
    "success": (Text("成功", "success"), "✔", (("successes", 1),)),
    "durability": (Text("耐久度", "durability"), "⚒", ()),
    "hit": (Text("命中", "hit"), "✸", (("hits", 1),)),
    "ability": (Text("能力", "ability"), "★", ()),
    "dodge": (Text("闪避", "dodge"), "↷", (("dodges", 1),)),
    "armour": (Text("护甲耐久度", "armour durability"), "◈", ()),
    "blank": (Text("空白", "blank"), "○", ()),
}
"""Each symbol of the dice (§骰子, §符号参考): label, glyph, what it adds to a roll."""

S = State[DSData]


def seat_offers(state: S, seat: Seat) -> list[Offer]:
    """Everything one seat may do now in Don't Starve, the end of its turn (or of the phase)
    included: a turn ends only by flipping the activation token (§结束回合), so the core's
    ``end_turn``, which would keep the character active, is not offered. While the table owes
    a draw (draws "table", ``rules/draws.py``) only that draw is offered (and the end of the
    turn, greyed with what to enter first)."""
    if state.flow.phase not in SEAT_PHASES:
        return []
    label = END_TURN if state.flow.phase == "action" else DONE_WITH_PHASE
    drawn = table_draws(state, seat)
    own = drawn if drawn is not None else _seat_offers(state, seat)
    return [*own, Offer(Pass.type, seat, label, kind="core")]


def _seat_offers(state: S, seat: Seat) -> list[Offer]:
    data, phase = state.data, state.flow.phase
    cat = catalogue(state)
    out: list[Offer] = []
    if data.fight is not None and seat == data.fight.initiator:
        out += _rolls(
            cat, data, seat
        )  # even if the initiator fell: the others' dice are still read
    if data.char(seat).defeated:  # §角色复活: waits for a meat effigy; a card may still end it
        return [*out, _act(cat, data, seat), *_scenario_end(seat)] if phase == "action" else out
    if data.fight is not None:
        out += [_focus(cat, data, seat), *_eat(cat, data, seat), _lose(cat, data, seat)]
        return out
    if phase == "action" and _may_take_turn(state, seat):
        out += _moves(cat, data, seat, table=state.options.draws == "table")
        out += [
            *_explore(cat, data, seat),
            *_interact(cat, data, seat),
            *_fights(cat, data, seat, state.flow.done),
        ]
        out += _trades(cat, data, seat)
        out.append(_act(cat, data, seat))
    if phase == "action":
        if data.structures:
            label = T("花1点理智换3点精华", "1 sanity for 3 essence")
            out.append(Offer(GainEssence.type, seat, label, kind="free"))
        out += _scenario_end(seat)
        out += _hostility(cat, data, seat)
    if phase == "shadow":
        out += _shadow_attack(cat, data, seat)
    if phase == "daily_needs":
        out.append(_light(cat, data, seat))
    if phase == "weather":
        out += _protect(cat, data, seat)
    out += [*_gain(cat, data, seat), *_discard(cat, data, seat), *_eat(cat, data, seat)]
    out += [_lose(cat, data, seat), _focus(cat, data, seat)]
    return out


def _may_take_turn(state: S, seat: Seat) -> bool:
    """Whether the seat may take (or is taking) its turn now: active, and no other turn open.
    The others get only the free actions (§自由行动)."""
    return seat not in state.flow.done and state.flow.current in (None, seat)


# --- labels --------------------------------------------------------------------------------


def T(zh: str, en: str) -> Text:
    """A label in both languages."""
    return Text(zh, en)


def name(cat: Catalogue, data: DSData, seat: Seat) -> Text:
    """A character's name as printed on its card."""
    card = data.char(seat).card(cat)
    return Text(card.name_zh, card.name_en)


def tile_name(data: DSData, tile: str) -> Text:
    """A tile as the map shows it: its letter and biome (``E 格 林地`` / ``tile E (forest)``)."""
    biome = data.biome_of(tile)
    if biome is None:
        return Text(f"{tile} 格(背面朝上)", f"tile {tile} (face down)")
    b = BIOME_NAMES[biome]
    return Text(f"{tile} 格 {b.zh}", f"tile {tile} ({b.en})")


def _for_seats(cat: Catalogue, data: DSData, seat: Seat, label: Text) -> Field:
    """``for_seat``: oneself (None) or another character."""
    own = T("自己", "oneself")
    others = tuple(Choice(s, name(cat, data, s)) for s in range(len(data.characters)) if s != seat)
    return Field("for_seat", label, choices=(Choice(None, own), *others))


def _number(field: str, label: Text, low: int, high: int, default: int | None = None) -> Field:
    return Field(
        field, label, "number", low=low, high=high, default=low if default is None else default
    )


# --- the dice ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Dice:
    """The dice of the game as the data file gives them (placeholder face lists)."""

    character: Die
    monster: Die
    armoured: Die
    """A monster die whose hit the fighter's armour may block (``blocked + 1``)."""
    hit_damage: int
    """Health lost per hit outside a fight (shadow attack, hostility), from the data file."""

    def losses(self, names: tuple[str, ...]) -> tuple[Die, ...]:
        """The dice of a pool rolled outside a fight, as a loss: only each hit counts, as
        ``hit_damage`` health (a fight's successes and dodges mean nothing there)."""
        out = []
        for die in (self.character if n == "character" else self.monster for n in names):
            faces = tuple(
                Face(
                    f.label,
                    f.symbol,
                    (("health", self.hit_damage),) if ("hits", 1) in f.adds else (),
                )
                for f in die.faces
            )
            out.append(Die(die.name, die.label, faces))
        return tuple(out)


def dice(cat: Catalogue) -> Dice:
    """The character die and the monster die, with their faces as the box's dice.toml gives
    them."""
    return _dice(json.dumps(cat.dice, sort_keys=True))


@lru_cache(maxsize=8)
def _dice(text: str) -> Dice:
    raw: dict[str, Any] = json.loads(text)

    def die(key: str, extra: tuple[Face, ...] = ()) -> Die:
        faces: list[Face] = []
        for symbols in raw[key]["faces"]:
            labels = [_FACES[s][0] for s in symbols]
            adds: dict[str, int] = {}
            for s in symbols:
                for target, n in _FACES[s][2]:
                    adds[target] = adds.get(target, 0) + n
            face = Face(
                Text("+".join(t.zh for t in labels), " + ".join(t.en for t in labels)),
                "".join(_FACES[s][1] for s in symbols),
                tuple(sorted(adds.items())),
            )
            if face not in faces:
                faces.append(face)
        return Die(key, Text(raw[key]["name_zh"], raw[key]["name_en"]), (*faces, *extra))

    blocked = Face(
        Text("命中(被护甲挡下)", "hit, blocked by armour"), "✸⛨", (("blocked", 1), ("hits", 1))
    )
    return Dice(
        die("character"), die("monster"), die("monster", (blocked,)), int(raw["hit_damage"])
    )


def _rolls(cat: Catalogue, data: DSData, seat: Seat) -> Iterator[Offer]:
    """§战斗结算: each fighter still to resolve rolls 1 character die and the monster dice dealt
    to it (the pool the tray lit, again after a reroll); the initiator enters what they show."""
    fight = data.fight
    assert fight is not None
    resolved = {s for s, _ in fight.results}
    d = dice(cat)
    for fighter in fight.fighters:
        if fighter in resolved:
            continue
        n = fight.dice_of(fighter)
        who = name(cat, data, fighter)
        for monster, label in (
            (d.monster, T("{who}掷出的骰子", "Dice {who} rolled")),
            (
                d.armoured,
                T("{who}掷出的骰子(用护甲挡命中)", "Dice {who} rolled (armour blocks hits)"),
            ),
        ):
            faces = Field(
                "dice",
                T("各骰子朝上的面", "the face up on each die"),
                "dice",
                dice=(d.character, *(monster,) * n),
            )
            label = label.format(who=who)
            yield Offer(Roll.type, seat, label, {"fighter": fighter}, (faces,), kind="dice")


# --- the action phase ----------------------------------------------------------------------


def _moves(cat: Catalogue, data: DSData, seat: Seat, *, table: bool) -> Iterator[Offer]:
    """§移动: to another tile of the map (greyed when not adjacent); onto an adjacent face-down
    tile with the biome it shows once turned (what the camera reads from its sticker; with
    draws "virtual" also "not read": the engine draws it). The optional move first, then the
    main action, as the camera reader decides."""
    here = data.char(seat).tile
    where = places(cat, data)
    near = {t for t, p in where.items() if here is not None and adjacent(where[here], p)}
    fixed = {"main": True} if seat in data.moved else {}
    up = tuple(
        Choice(t, tile_name(data, t))
        for t in where
        if t != here and (t not in near or data.biome_of(t) is not None)
    )
    down = tuple(
        Choice(t, tile_name(data, t)) for t in where if t in near and data.biome_of(t) is None
    )
    label = T("移动(主要行动)", "Move (main action)") if fixed else T("移动", "Move")
    if up:
        to = Field("to", T("移到", "to"), choices=up)
        yield Offer(MoveTo.type, seat, label, fixed, (to,), camera=True, kind="main")
    if down:
        random = (
            () if table else (Choice(None, T("(未读取)随机抽取", "(not read) draw at random")),)
        )
        biomes = (*random, *(Choice(b, BIOME_NAMES[b]) for b in BIOMES))
        fields = (
            Field("to", T("移到", "to"), choices=down),
            Field("biome", T("翻开后的生态域", "biome turned up"), choices=biomes),
        )
        label = T("{move}并翻开板块", "{move} and turn the tile over").format(move=label)
        yield Offer(MoveTo.type, seat, label, fixed, fields, camera=True, kind="main")


def _explore(cat: Catalogue, data: DSData, seat: Seat) -> Iterator[Offer]:
    """§探索: the top location card of the tile's biome deck (or, an ability says, the bottom
    one). Fields at their defaults are left out of an offer, so a move that omits them (as the
    example games and the camera's moves do) is spelt by it."""
    tile = tile_name(data, data.char(seat).tile or "P")
    yield Offer(Explore.type, seat, T("探索 {tile}", "Explore {tile}").format(tile=tile))
    label = T("探索 {tile}(抽牌库底)", "Explore {tile} (bottom card)").format(tile=tile)
    yield Offer(Explore.type, seat, label, {"bottom": True}, kind="card_effect")


def _interact(cat: Catalogue, data: DSData, seat: Seat) -> Iterator[Offer]:
    """§互动: the location of the tile or a scenario card, rolling the character die or not;
    with a base camp, a structure on the portal paying its essence cost."""
    yield Offer(Interact.type, seat, T("与本格的地点互动", "Interact with the location"))
    label = T("与剧本卡互动", "Interact with a scenario card")
    yield Offer(Interact.type, seat, label, {"target": "scenario"})
    target = Field(
        "target",
        T("互动对象", "with"),
        choices=(
            Choice("location", T("本格的地点", "the location")),
            Choice("scenario", T("剧本卡", "a scenario card")),
        ),
    )
    label = T("互动(不投骰)", "Interact (no roll)")
    yield Offer(Interact.type, seat, label, {"roll": False}, (target,), kind="card_effect")
    if data.structures:
        cost = _number("essence", T("精华花费", "essence cost"), 0, data.essence)
        label = T("与建筑卡互动", "Use a structure")
        yield Offer(Interact.type, seat, label, {"target": "structure"}, (cost,))


def _helpers(cat: Catalogue, data: DSData, seat: Seat, done: frozenset[Seat]) -> Field | None:
    """§加入战斗: any group of the characters who may join (active, on the same or an adjacent
    tile); each of the others alone, greyed with the reason. None: one character plays."""
    where = places(cat, data)
    tile = data.char(seat).tile or ""
    able: list[Seat] = []
    unable: list[Seat] = []
    for s, h in enumerate(data.characters):
        if s == seat:
            continue
        near = h.tile is not None and (h.tile == tile or adjacent(where[h.tile], where[tile]))
        (able if near and not h.defeated and s not in done else unable).append(s)
    groups = [g for k in range(1, len(able) + 1) for g in combinations(able, k)]
    choices = []
    for group in [*groups, *((s,) for s in unable)]:
        names = [name(cat, data, s) for s in group]
        label = Text(
            "与" + "、".join(n.zh for n in names), "with " + ", ".join(n.en for n in names)
        )
        choices.append(Choice(list(group), label))
    return Field("helpers", T("加入战斗", "joined by"), choices=tuple(choices)) if choices else None


def _fights(cat: Catalogue, data: DSData, seat: Seat, done: frozenset[Seat]) -> Iterator[Offer]:
    """§战斗: the location monster, the scenario monsters on the tile, or a shadow creature;
    alone, or (not a shadow) with helpers. The location monster's CV and damage start at what
    the box's card prints (players change them where a card says otherwise)."""
    c = data.char(seat)
    cv = _number("cv", NUMBER_NAMES["cv"], 0, FIGHT_CV_MAX)
    helpers = _helpers(cat, data, seat, done) if c.tile else None
    together = T("(有人加入)", " (with helpers)")
    card = cat.location(data.location(c.tile or "") or "")
    printed = (0, 1) if card is None else (card.monster_cv, card.damage)
    monster = (
        _number(
            "monster_cv", NUMBER_NAMES["monster_cv"], 0, FIGHT_CV_MAX, min(printed[0], FIGHT_CV_MAX)
        ),
        _number("damage", NUMBER_NAMES["damage"], 0, DAMAGE_MAX, min(printed[1], DAMAGE_MAX)),
    )
    label = T("与地点怪物战斗", "Fight the location monster")
    yield Offer(Fight.type, seat, label, fields=(cv, *monster))
    if helpers is not None:
        label = T("{f}{w}", "{f}{w}").format(f=label, w=together)
        yield Offer(Fight.type, seat, label, fields=(helpers, cv, *monster))
    tokens = scenario_of(cat, data).tokens
    here = sum(tokens[i].slot == c.tile for i in data.tokens)
    if here:
        engaged = Field(
            "tokens",
            T("交战的指示物", "tokens engaged"),
            choices=tuple(
                Choice(n, T(f"{n} 个指示物", f"{n} token(s)")) for n in range(1, here + 1)
            ),
        )
        label = T("与剧本怪物战斗", "Fight scenario monsters")
        yield Offer(Fight.type, seat, label, {"target": "scenario"}, (engaged, cv))
        if helpers is not None:
            label = T("{f}{w}", "{f}{w}").format(f=label, w=together)
            yield Offer(Fight.type, seat, label, {"target": "scenario"}, (engaged, helpers, cv))
    if c.shadows(cat):
        tier = Field(
            "tier",
            T("影怪", "shadow creature"),
            choices=tuple(
                Choice(t, T(f"{t}阶影怪", f"tier {t} shadow creature")) for t in (1, 2, 3)
            ),
        )
        label = T("与影怪战斗", "Fight a shadow creature")
        yield Offer(Fight.type, seat, label, {"target": "shadow"}, (tier, cv))


def _trades(cat: Catalogue, data: DSData, seat: Seat) -> Iterator[Offer]:
    """§交易: one trade among every character on the tile: how many of each kind each one hands
    to each other one (a tally; each count alone fits the giver's hand and the receiver's
    room). Alone on a tile: one option, greyed with the reason."""
    me = data.char(seat)
    here = [s for s in range(len(data.characters)) if data.char(s).tile == me.tile]
    choices = []
    for giver in here:
        for receiver in here:
            if giver == receiver:
                continue
            for kind in KINDS:
                most = min(getattr(data.char(giver), kind), _room(data.char(receiver), kind))
                if most > 0:
                    label = T("{giver}给{receiver}:{kind}", "{giver} → {receiver}: {kind}")
                    value = {"giver": giver, "receiver": receiver, "kind": kind}
                    kind_name = KIND_NAMES[kind]
                    who = {"giver": name(cat, data, giver), "receiver": name(cat, data, receiver)}
                    choices.append(Choice(value, label.format(**who, kind=kind_name), most))
    if len(here) > 1 and choices:
        field = Field(
            "transfers", T("谁给谁多少", "Who gives whom how many"), "tally", tuple(choices), low=1
        )
        yield Offer(Trade.type, seat, T("交易", "Trade"), fields=(field,))
        return
    partner = next((s for s in range(len(data.characters)) if s != seat), None)
    if partner is None:
        return
    transfer = [{"giver": seat, "receiver": partner, "kind": "basic", "count": 1}]
    label = T("给出{what}", "give {what}").format(what=count_of(1, "basic"))
    field = Field("transfers", T("交换", "exchange"), choices=(Choice(transfer, label),))
    offer_label = T("与{who}交易", "Trade with {who}").format(who=name(cat, data, partner))
    yield Offer(Trade.type, seat, offer_label, fields=(field,))


def _room(c: Any, kind: str) -> int:
    """How many more of a kind the character can hold (上限 物品栏上限)."""
    if kind == "item":
        return max(0, ITEM_LIMIT - c.item)
    return max(0, RESOURCE_LIMIT - c.resources)


def _act(cat: Catalogue, data: DSData, seat: Seat) -> Offer:
    """Another main action: the action icon on the character's ability, a structure, a
    scenario card."""
    card = data.char(seat).card(cat)
    choices = [
        Choice(f"{card.name_en}'s ability", T(f"{card.name_zh}的能力", f"{card.name_en}'s ability"))
    ]
    structure = T("建筑:{name}", "structure: {name}")
    choices += [
        Choice(f"structure: {s}", structure.format(name=structure_name(s, slot)))
        for slot, s in enumerate(data.structures, 1)
    ]
    choices.append(
        Choice("a scenario card's action", T("剧本卡上的行动", "an action on a scenario card"))
    )
    field = Field("what", T("哪个行动", "which"), choices=tuple(choices))
    return Offer(Act.type, seat, T("其他主要行动", "Another main action"), fields=(field,))


SCENARIO_ENDS = {
    "win": (
        T("剧本卡宣布:胜利", "The scenario card says: won"),
        T("再按一次:以胜利结束剧本", "Touch again to end the scenario: won"),
    ),
    "lose": (
        T("剧本卡宣布:失败", "The scenario card says: lost"),
        T("再按一次:以失败结束剧本", "Touch again to end the scenario: lost"),
    ),
}
"""§胜利与失败: the two ends of a scenario, and what their button asks after the first touch."""


def _scenario_end(seat: Seat) -> list[Offer]:
    """§胜利与失败: a scenario card says the scenario is won, or lost: the game ends, so each is
    a ``final`` offer of its own (no picker: the second touch makes it)."""
    return [
        Offer(ScenarioEnd.type, seat, label, {"result": result}, kind="final", confirm=again)
        for result, (label, again) in SCENARIO_ENDS.items()
    ]


# --- free actions and the upkeep phases -----------------------------------------------------


def _gain(cat: Catalogue, data: DSData, seat: Seat) -> Iterator[Offer]:
    """Gain resources (room left in the backpack) or item cards (room in the hand) (§上限),
    for oneself or for a character on the same tile (rewards shared among fighters, §战斗)."""
    here = data.char(seat).tile
    for target in range(len(data.characters)):
        c = data.char(target)
        if target != seat and (c.tile is None or c.tile != here):
            continue
        for_seat = None if target == seat else target
        whom = (
            T("", "")
            if for_seat is None
            else T("(给{who})", " (for {who})").format(who=name(cat, data, target))
        )
        kind = Field(
            "kind",
            T("种类", "kind"),
            choices=tuple(Choice(k, KIND_NAMES[k]) for k in RESOURCE_KINDS),
        )
        room = _number("count", T("数量", "how many"), 1, max(1, RESOURCE_LIMIT - c.resources))
        label = T("获得资源{whom}", "Gain resources{whom}").format(whom=whom)
        whose = {} if for_seat is None else {"for_seat": for_seat}
        yield Offer(Gain.type, seat, label, whose, (kind, room), kind="card_effect")
        cards = _number("count", T("数量", "how many"), 1, max(1, ITEM_LIMIT - c.item))
        label = T("获得物品卡{whom}", "Gain item cards{whom}").format(whom=whom)
        fixed = {"kind": "item", **whose}
        yield Offer(Gain.type, seat, label, fixed, (cards,), kind="card_effect")


def _discard(cat: Catalogue, data: DSData, seat: Seat) -> Iterator[Offer]:
    """Return what one holds to the supply (§上限), as many as one holds."""
    c = data.char(seat)
    held = [k for k in KINDS if getattr(c, k)]
    for kind in held:
        count = _number("count", T("数量", "how many"), 1, getattr(c, kind))
        label = T("弃置{what}", "Discard {what}").format(what=KIND_NAMES[kind])
        yield Offer(Discard.type, seat, label, {"kind": kind}, (count,), kind="card_effect")
    if not held:
        kinds = Field(
            "kind", T("种类", "kind"), choices=tuple(Choice(k, KIND_NAMES[k]) for k in KINDS)
        )
        label = T("弃置", "Discard")
        yield Offer(Discard.type, seat, label, fields=(kinds,), kind="card_effect")


def _eat(cat: Catalogue, data: DSData, seat: Seat) -> Iterator[Offer]:
    """§消耗食物: one food token for the values printed on it."""
    kind = Field(
        "kind",
        T("食物", "food"),
        choices=(
            Choice("cooked_food", KIND_NAMES["cooked_food"]),
            Choice("raw_food", KIND_NAMES["raw_food"]),
        ),
    )
    stats = (
        _number("health", T("恢复生命", "health"), 0, FOOD_MAX),
        _number("hunger", T("恢复饱食", "hunger"), 0, FOOD_MAX),
        _number("sanity", T("恢复理智", "sanity"), 0, FOOD_MAX),
    )
    whom = _for_seats(cat, data, seat, T("谁吃", "eaten by"))
    label = T("消耗食物", "Eat food")
    yield Offer(Eat.type, seat, label, fields=(kind, whom, *stats), kind="free")


def _lose(cat: Catalogue, data: DSData, seat: Seat) -> Offer:
    """A loss a card asks for (shadow creature, monster ability, scenario), for whom."""
    cards = [c.card(cat) for c in data.characters]
    stats = (
        _number("health", T("失去生命", "health"), 0, max(c.max_health for c in cards)),
        _number("hunger", T("失去饱食", "hunger"), 0, max(c.max_hunger for c in cards)),
        _number("sanity", T("失去理智", "sanity"), 0, max(c.max_sanity for c in cards)),
    )
    whom = _for_seats(cat, data, seat, T("谁失去", "lost by"))
    return Offer(
        Lose.type,
        seat,
        T("失去属性(卡牌效果)", "Lose stats (a card says so)"),
        fields=(whom, *stats),
        kind="card_effect",
    )


def _focus(cat: Catalogue, data: DSData, seat: Seat) -> Offer:
    """§专注点: flip an active focus token to reroll (a fighter's, in a fight)."""
    fighters = data.fight.fighters if data.fight is not None else ()
    others = tuple(
        Choice(s, T("{who}的", "{who}'s").format(who=name(cat, data, s)))
        for s in fighters
        if s != seat
    )
    whose = Field(
        "for_seat",
        T("谁的专注点", "whose token"),
        choices=(Choice(None, T("自己的", "one's own")), *others),
    )
    return Offer(
        SpendFocus.type,
        seat,
        T("花费专注点重掷", "Spend focus to reroll"),
        fields=(whose,),
        kind="free",
    )


def _dice_losses(
    cat: Catalogue, label: Text, seat: Seat, owner: Seat, names: tuple[str, ...], damage: int
) -> Offer:
    """The hits of a pool rolled outside a fight, entered as a loss of the one who rolled."""
    faces = Field(
        "dice", T("各骰子朝上的面", "the face up on each die"), "dice", dice=dice(cat).losses(names)
    )
    label = T("{what}(每个命中失去{n}点生命)", "{what} ({n} health per hit)").format(
        what=label, n=damage
    )
    fixed = {} if owner == seat else {"for_seat": owner}
    return Offer(Lose.type, seat, label, fixed, (faces,), kind="dice")


def _hostility(cat: Catalogue, data: DSData, seat: Seat) -> Iterator[Offer]:
    """§敌意: the monster die that a hostile monster added to an interaction or exploration,
    offered to the one who rolled it (under that player's name, not every seat's)."""
    if data.rolled is not None and "monster" in data.rolled[1] and data.rolled[0] == seat:
        owner, names = data.rolled
        label = T("敌意:{who}掷出的骰子", "Hostility: the dice {who} rolled").format(
            who=name(cat, data, owner)
        )
        yield _dice_losses(cat, label, seat, owner, names, dice(cat).hit_damage)


def _shadow_attack(cat: Catalogue, data: DSData, seat: Seat) -> Iterator[Offer]:
    """§暗影阶段: an attacking shadow creature's monster dice, each hit costing health."""
    c = data.char(seat)
    n = cat.shadow_dice.get(c.shadows(cat), 0) if not c.defeated else 0
    if n:
        label = T("影怪的攻击", "The shadow creature attacks")
        yield _dice_losses(cat, label, seat, seat, ("monster",) * n, dice(cat).hit_damage)


def _light(cat: Catalogue, data: DSData, seat: Seat) -> Offer:
    """§每日需求阶段 光照: the light this character brings to its tile."""
    need = data.current_needs(cat)[0]
    points = _number("points", NUMBER_NAMES["points"], 1, max(LIGHT_MAX, need))
    return Offer(Light.type, seat, T("提供光照", "Bring light"), fields=(points,))


def _protect(cat: Catalogue, data: DSData, seat: Seat) -> Iterator[Offer]:
    """§天气阶段: exempt symbols in force with an item or food, up to how many there are."""
    active = active_symbols(cat, data)
    for symbol in dict.fromkeys(active):
        count = _number("count", T("豁免几个", "how many"), 1, active.count(symbol))
        label = T("豁免{s}符号", "Exempt {s} symbols").format(s=SYMBOL_NAMES[symbol])
        yield Offer(Protect.type, seat, label, {"symbol": symbol}, (count,))


# --- the table's draws (draws "table") -----------------------------------------------------

DEMO = T("(演示盒)", " (demo box)")
"""What a choice of the demo box's invented cards and tiles says after its name."""
WORLD_CHOICES: tuple[tuple[str, ...], ...] = (
    (),
    ("spoil_all",),
    ("regrow",),
    ("monster_refresh",),
    ("regrow", "monster_refresh"),
    ("spoil_all", "regrow"),
    ("spoil_all", "monster_refresh"),
    ("spoil_all", "regrow", "monster_refresh"),
)
"""The world events a weather card may print (§天气阶段 世界事件), as one choice each."""
WORLD_SHORT = {
    "spoil_all": T("全部腐烂", "everything spoils"),
    "regrow": T("再生长", "regrowth"),
    "monster_refresh": T("怪物刷新", "monsters return"),
}


def _demo(label: Text, cat: Catalogue, item: str) -> Text:
    """A choice's label, with "(demo box)" when the item is the demo box's invented one."""
    return Text(label.zh + DEMO.zh, label.en + DEMO.en) if cat.is_demo(item) else label


def table_draws(state: S, seat: Seat) -> list[Offer] | None:
    """What the table owes now (``rules/draws.py``), as the only offers: the location card the
    explorer drew (to the explorer; nothing else to the others meanwhile), or, before a
    round's first action, the weather card turned up and the leftmost needs tile (to every
    seat: any player enters them). Each is picked from the box by its title (two touches and
    "Do it"), or entered by what it shows. None: the table owes nothing."""
    if draw_in_progress(state) is None:
        return None
    data, cat = state.data, catalogue(state)
    if data.exploring is not None:
        explorer, tile = data.exploring
        return _location_draw(cat, data, seat, tile) if seat == explorer else []
    out: list[Offer] = []
    if data.weather_due:
        out += _weather_draw(cat, data, seat)
    if data.needs_due:
        out += _needs_draw(cat, data, seat)
    return out


def _weather_draw(cat: Catalogue, data: DSData, seat: Seat) -> list[Offer]:
    """§准备阶段 抽取天气卡 (the first at set-up, §季节与难度): the card turned up, picked by its
    title among the box's cards of the season (one drawn already greyed with the rule), or
    entered: how many of each symbol lie left and right of the storm icon, the weather event's
    losses, the world events."""
    season = [c for c in cat.weather if c.season == data.season]
    titles = tuple(Choice(c.id, _demo(weather_title(c), cat, weather_item(c))) for c in season)
    pick = Offer(
        DrawWeather.type,
        seat,
        T("抽到的天气卡:按卡名选", "Weather card drawn: pick its title"),
        fields=(Field("card", T("卡名", "title"), choices=titles),),
    )
    entry = Offer(
        DrawWeather.type,
        seat,
        T("抽到的天气卡:按符号录入", "Weather card drawn: enter its symbols"),
        {"season": data.season},
        weather_fields(),
    )
    return [pick, entry]


def weather_fields() -> tuple[Field, ...]:
    """What a weather card shows, as the fields of an entry (the console's "enter its symbols",
    the "Your box" page's copy of a card): how many of each symbol lie left and right of the
    storm icon, the weather event's losses, the world events (§天气阶段)."""
    counts = []
    for side, where in (
        ("left", T("风暴图标左侧", "left of the storm icon")),
        ("right", T("风暴图标右侧", "right of the storm icon")),
    ):
        for symbol in SYMBOLS:
            label = T("{where}:{s}", "{where}: {s}").format(where=where, s=SYMBOL_NAMES[symbol])
            counts.append(_number(f"{side}_{symbol}", label, 0, SYMBOLS_MAX))
    event = T("天气事件:失去", "weather event: lose ")
    losses = [
        _number(stat, Text(event.zh + word.zh, event.en + word.en), 0, EVENT_MAX)
        for stat, word in (
            ("health", T("生命", "health")),
            ("hunger", T("饱食", "hunger")),
            ("sanity", T("理智", "sanity")),
        )
    ]
    world = Field(
        "world",
        T("世界事件", "world events"),
        choices=tuple(
            Choice(
                list(names),
                Text(
                    "、".join(WORLD_SHORT[n].zh for n in names) or "无",
                    " and ".join(WORLD_SHORT[n].en for n in names) or "none",
                ),
            )
            for names in WORLD_CHOICES
        ),
    )
    return (*counts, *losses, world)


def _needs_draw(cat: Catalogue, data: DSData, seat: Seat) -> list[Offer]:
    """§需求板块 (laid at set-up, §季节与难度): the tile lying leftmost, picked among the box's
    tiles (each shown with the values of the side the season card puts up; one of the wrong
    kind or laid before greyed with the rule), or entered: its kind is the place's, its two
    sides' light, hunger and sanity."""
    side = data.needs[0][1]
    time = TIME_NAMES[side]
    choices = []
    for tile in cat.needs_tiles:
        light, hunger, sanity = tile.side(side)
        kind = KIND_WORDS[tile.kind]
        label = Text(
            f"{tile.number}号{kind.zh}板块 {time.zh}:光照{light} 饥饿{hunger} 理智{sanity}",
            f"tile {tile.number}, {kind.en}, {time.en}: light {light}, hunger {hunger},"
            f" sanity {sanity}",
        )
        choices.append(Choice(tile.number, _demo(label, cat, needs_item(tile))))
    pick = Offer(
        LayNeedsTile.type,
        seat,
        T("本回合的需求板块:从盒中选", "This round's needs tile: pick it from your box"),
        fields=(Field("tile", T("板块", "tile"), choices=tuple(choices)),),
    )
    entry = Offer(
        LayNeedsTile.type,
        seat,
        T("本回合的需求板块:按数值录入", "This round's needs tile: enter its values"),
        {"kind": due_kind(cat, data)},
        needs_fields(side),
    )
    return [pick, entry]


def needs_fields(first: str = "day") -> tuple[Field, ...]:
    """What a needs tile shows, as the fields of an entry (§需求板块): the light, hunger and
    sanity of its two sides, the ``first`` side first."""
    values = []
    for s in (first, "night" if first == "day" else "day"):
        for stat, word in (
            ("light", T("光照", "light")),
            ("hunger", T("饥饿", "hunger")),
            ("sanity", T("理智", "sanity")),
        ):
            face = TIME_NAMES[s]
            label = Text(f"{face.zh}面:{word.zh}", f"{face.en} side: {word.en}")
            values.append(_number(f"{s}_{stat}", label, 0, NEEDS_MAX))
    return tuple(values)


def _location_draw(cat: Catalogue, data: DSData, seat: Seat, tile: str) -> list[Offer]:
    """§探索: the card the explorer drew from the tile's biome deck, picked by its title among
    the box's cards of that deck (one out, on a tile or in the discards, greyed with the rule),
    or entered: its monster (hostile or not, CV, damage) and its mining track."""
    biome = data.biome_of(tile) or ""
    deck = BIOME_NAMES.get(biome, T("", ""))
    cards = cat.locations.get(biome, ())
    titles = tuple(Choice(c.id, _demo(location_title(c), cat, location_item(c))) for c in cards)
    pick = Offer(
        DrawLocation.type,
        seat,
        T("抽到的{deck}地点卡:按卡名选", "{deck} location card drawn: pick its title").format(
            deck=Text(deck.zh, deck.en.capitalize())
        ),
        fields=(Field("card", T("卡名", "title"), choices=titles),),
    )
    entry = Offer(
        DrawLocation.type,
        seat,
        T("抽到的地点卡:按卡上内容录入", "Location card drawn: enter what it shows"),
        fields=location_fields(),
    )
    return [pick, entry]


def location_fields() -> tuple[Field, ...]:
    """What a location card shows, as the fields of an entry (§探索, §敌意): its monster
    (hostile or not, CV, damage) and its mining track."""
    hostile = Field(
        "hostile",
        T("怪物", "monster"),
        choices=(
            Choice(True, T("敌对(红色战斗值)", "hostile (red CV)")),
            Choice(False, T("中立(黑色战斗值)", "neutral (black CV)")),
        ),
    )
    return (
        hostile,
        _number("monster_cv", NUMBER_NAMES["monster_cv"], 0, MONSTER_CV_MAX),
        _number("damage", NUMBER_NAMES["damage"], 0, DRAW_DAMAGE_MAX, 1),
        _number(
            "mining", T("开采计量条(可互动次数)", "mining track (interactions)"), 1, MINING_MAX, 3
        ),
    )
