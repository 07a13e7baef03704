"""Stonesaga's offers for the players' console (DESIGN.md "Offers"; docs/stonesaga.md).

``offers(state, seat)`` lists the moves a seat may make now as templates whose choices come from
the state: the seat's characters, the tiles next to them, the features and resources at hand.
The core checks every option with ``legal()`` and greys the refused ones with their reason, so
choices the rules forbid right now are listed where a player would look for them (a feature of
the tile that needs more energy, a neighbour behind an impassable edge).

Dice the players roll at the table are entered through ``dice`` fields, one ``Die`` per die the
tray lit: the five creation dice (``creation_roll``), a test's die and each heroic-effort die
(``roll``), the mourning die (``mourn``). Each offer keeps its option product small: moves with
several free choices are split into one offer per character (or per assignment).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Sequence
from typing import Any

from engine.core import Choice, Die, Face, Field, Offer, Seat, State, Text
from engine.stonesaga import campaign as camp
from engine.stonesaga import moves as mv
from engine.stonesaga.catalogue import (
    ATTRIBUTES,
    FEATURES,
    FORAGE_FEATURES,
    MALADIES,
    MINING_FEATURES,
    OMENS,
    RESOURCES,
    SEVERITIES,
    STONES,
    TOOLS,
    TRAITS,
    WATER_FEATURES,
    names,
    region,
    resource_data,
    valley,
)
from engine.stonesaga.rules.basics import CREATION_MINIMUM, health_length, incapacitated, party_full
from engine.stonesaga.rules.interval import ruins_due
from engine.stonesaga.state import Character, OverlayPlacement, Saga, TilePlacement, ValleyRecord
from engine.stonesaga.texts import (
    character_name,
    item_name,
    listed,
    malady_name,
    resource_name,
    tile_label,
    tile_name,
    tile_slot,
)

T = Text
PIPS = "⚀⚁⚂⚃⚄⚅"
NAME_CHOICES = 2
"""How many free character names a create offer lists (the first ones of the names list)."""
OUTPOST_ENERGY = 4
"""§建前哨: the outpost's 4 energy, shared among the characters on the tile."""
MAX_KINDS = 4
"""How many kinds of resource held a pick lists (exchange, craft, process), in pack order, so
that a full pack does not multiply an offer's options."""
MAX_AMOUNT = 5
"""The most energy or resources one recorded effect moves (a card rarely gives more)."""
MODIFIERS = (-5, 5)
"""Bounds of a test's modifier (text, trait and item +/−) and of a change to a die."""


def d6(target: str, label: Text) -> Die:
    """A plain d6 whose face n adds n to the move's ``target`` field."""
    return Die(
        "d6",
        label,
        tuple(
            Face(T(f"{n}点", f"{n} pip{'s' if n > 1 else ''}"), PIPS[n - 1], ((target, n),))
            for n in range(1, 7)
        ),
    )


def _pick(name: str, label: Text, choices: Iterable[tuple[Any, Text]]) -> Field:
    return Field(name, label, choices=tuple(Choice(v, t) for v, t in choices))


def _number(name: str, label: Text, low: int, high: int, default: int | None = None) -> Field:
    value = low if default is None else default
    return Field(name, label, "number", low=low, high=high, default=value)


def _attributes(names_: Iterable[str] = ATTRIBUTES) -> Field:
    return _pick("attribute", T("属性", "Attribute"), ((a, ATTRIBUTES[a]) for a in names_))


def _character_field(chars: Sequence[tuple[int, Character]], name: str = "character") -> Field:
    return _pick(name, T("角色", "Character"), ((i, character_name(c.name)) for i, c in chars))


def _greyed(offer: Offer) -> Offer:
    """The offer with each pick narrowed to its first choice, when every option would be
    refused for one reason (the turn's action is used, an outpost stands): one option carries
    that reason, the console greys the offer with it, and no ``legal()`` is spent on the rest."""
    fields = tuple(
        dataclasses.replace(f, choices=f.choices[:1]) if f.kind == "pick" else f
        for f in offer.fields
    )
    return dataclasses.replace(offer, fields=fields)


def _with(label: Text, char: Character) -> Text:
    name = character_name(char.name)
    return T(f"{label.zh}:{name.zh}", f"{label.en}: {name.en}")


# --- the offers, by phase -------------------------------------------------------------------


def offers(state: State[Any], seat: Seat) -> list[Offer]:
    """Every Stonesaga move this seat may make in the current phase, as console offers."""
    phase = state.flow.phase
    data: Saga = state.data
    own = [(i, c) for i, c in enumerate(data.characters) if c.seat == seat and c.alive]
    if phase == "interval":
        return _interval(data, seat)
    if phase == "creation":
        return _creation(state, seat)
    if phase == "mourning":
        return _mourning(data, seat)
    if phase == "save":
        return [*(_keep(seat, i, c) for i, c in own), _record(data, seat)]
    if phase not in ("day", "night_7"):
        return []
    if data.test is not None:  # only the die of the test in progress, and what cards did
        if data.test.seat == seat:
            return [_roll(seat), *_effects(data, seat, own)]
        return _night_cards(seat, own) if phase == "night_7" and own else []
    if not own:  # every character of the seat is dead: the challenge may still end
        return [_end_challenge(seat)] if phase == "day" else []
    tests = [*_tests(data, seat, own), *_effects(data, seat, own)]
    if phase == "night_7":
        return [*_night_cards(seat, own), *tests]
    mine = data.mining
    if mine is not None and mine.seat == seat and state.flow.current == seat:
        return [*_mining(data, seat), *_effects(data, seat, own)]
    fishing = [_fishing(seat)] if data.fishing is not None and data.fishing[0] == seat else []
    actions = _actions(data, seat, own)
    if data.acted and state.flow.current == seat:  # §白天阶段: one action per turn
        actions = [_greyed(o) for o in actions]
    actions += _gifts(data, seat, own)
    return [*fishing, *actions, *tests, _end_challenge(seat)]


def _creation(state: State[Any], seat: Seat) -> list[Offer]:
    """§创造角色: roll five dice (again while they sum to less than 14), then one offer per way
    of assigning the four kept dice to the attributes; or a character of the Log."""
    data: Saga = state.data
    dice = tuple(d6(f"d{k}", T(f"第{k}颗骰", f"die {k}")) for k in range(1, 6))
    out = [
        Offer(
            mv.CreationRoll.type,
            seat,
            T("掷五颗骰(创造角色)", "Roll five dice (new character)"),
            fields=(Field("dice", T("五颗骰", "Five dice"), "dice", dice=dice),),
        )
    ]
    taken = {c.name for c in data.characters} | {h.name for h in data.roster}
    heirs = _relics(data)
    free = [(n, t) for n, t in names("characters") if n not in taken][:NAME_CHOICES]
    rolls = data.rolls(seat)
    if rolls and free:
        last = rolls[-1]
        kept = sorted(last)[1:]
        ways = sorted(set(itertools.permutations(kept)), reverse=True)
        having = [c.seat for c in data.characters]
        grey = sum(last) < CREATION_MINIMUM or party_full(having, state.players, data.party, seat)
        if grey:  # roll again, or no mantle board left for this seat
            ways = ways[:1]
        for way in ways:
            pairs = [(ATTRIBUTES[a], v) for a, v in zip(ATTRIBUTES, way, strict=True)]
            label = T(
                "创造角色:" + " ".join(f"{t.zh}{v}" for t, v in pairs),
                "Create a character: " + ", ".join(f"{t.en} {v}" for t, v in pairs),
            )
            fixed = {"rolls": [list(r) for r in rolls], **dict(zip(ATTRIBUTES, way, strict=True))}
            traits = _pick("trait", T("特质", "Trait"), TRAITS.items())
            offer = Offer(
                mv.CreateCharacter.type,
                seat,
                label,
                fixed,
                (_pick("name", T("名字", "Name"), free), traits, *heirs),
            )
            out.append(_greyed(offer) if grey else offer)
    roster = data.roster
    if roster:
        out.append(
            Offer(
                mv.ChooseCharacter.type,
                seat,
                T("选择《日志》里的角色", "Choose a character of the Log"),
                fields=(
                    _pick(
                        "name",
                        T("角色", "Character"),
                        ((h.name, character_name(h.name)) for h in roster),
                    ),
                    *heirs,
                ),
            )
        )
    return out


def _relics(data: Saga) -> tuple[Field, ...]:
    """§角色死亡与传说 遗物 局间死亡: whose relics the new character takes (none, or one of
    the characters who died between sessions and left some); no field when none did."""
    if not data.relics:
        return ()
    none = T("不接遗物", "no relics")
    return (
        _pick(
            "inherits",
            T("接过遗物", "Takes the relics of"),
            (("", none), *((r.name, character_name(r.name)) for r in data.relics)),
        ),
    )


def _interval(data: Saga, seat: Seat) -> list[Offer]:
    """§间隔与变老, §废墟与迁移前哨, §开局设置.7: between sessions, any player enters the
    mourning d6 of each character who died of old age, moves an outpost free, and the camera
    checks the rebuilt valley (the Log's map as the fallback)."""
    out = []
    for index in data.old_age:
        hero = data.roster[index]
        below = [a for a, v in hero.attributes if v < 6]
        attrs = _pick(
            "attribute",
            T("结果5及以上时永久+1的属性", "Attribute raised on 5 or more"),
            (
                (a, T(f"{ATTRIBUTES[a].zh}({v})", f"{ATTRIBUTES[a].en} ({v})"))
                for a, v in hero.attributes
            )
            if below
            else (("", T("没有低于6的属性", "no attribute below 6")),),
        )
        label = T("哀悼骰(年老+2)", "Mourning die (+2 for old age)")
        if data.interval != "generation":
            label = T("哀悼骰", "Mourning die")
        die = Field("dice", label, "dice", dice=(d6("roll", label),))
        out.append(
            Offer(
                mv.Mourn.type,
                seat,
                T(
                    f"哀悼局间死去的{character_name(hero.name).zh}",
                    f"Mourn {character_name(hero.name).en}, who died between sessions",
                ),
                {"legend": index},
                (attrs, die),
            )
        )
    if ruins_due(data):
        for tile, state in data.tiles:
            if state.outpost:
                out.append(
                    Offer(
                        mv.RuinOutpost.type,
                        seat,
                        T(
                            f"新纪元:把{tile_name(tile).zh}的前哨变成废墟",
                            f"New epoch: turn the outpost on {tile_name(tile).en} into a ruin",
                        ),
                        {"tile": tile},
                    )
                )
    if data.free_moves > 0:
        tiles = valley()[1]
        for tile, state in data.tiles:
            if not state.outpost or tile in data.moved:
                continue
            out.append(
                Offer(
                    mv.MoveOutpost.type,
                    seat,
                    T(
                        f"局间免费迁移{tile_name(tile).zh}的前哨",
                        f"Move the outpost on {tile_name(tile).en} (free between sessions)",
                    ),
                    {"tile": tile},
                    (
                        _pick(
                            "to",
                            T("迁到", "To"),
                            (
                                (n, tile_label(n, data.tile(n).explored))
                                for n in tiles[tile].neighbours
                            ),
                        ),
                    ),
                )
            )
    if data.valley_record is not None or not data.rebuilt:
        record = data.valley_record or valley_now(data)
        choice = mv.RebuildValley(seat, record).to_dict()["record"]
        out.append(
            Offer(
                mv.RebuildValley.type,
                seat,
                T("按《日志》的地图重建山谷", "Rebuild the valley from the Log's map"),
                fields=(
                    _pick(
                        "record",
                        T("摄像头看到的山谷", "The valley the camera sees"),
                        ((choice, T("《日志》里的地图", "the map in the Log")),),
                    ),
                ),
                camera=True,
            )
        )
    return out


def _mourning(data: Saga, seat: Seat) -> list[Offer]:
    """§夜晚阶段.1, §角色死亡与传说.1: the mourning d6 of each of the seat's dead characters and
    the attribute a 5–6 raises (attributes already at 6 greyed)."""
    out = []
    for index in data.mourning:
        char = data.characters[index]
        if char.seat != seat:
            continue
        below = [a for a, v in char.attributes if v < 6]
        attrs = _pick(
            "attribute",
            T("掷出5–6时永久+1的属性", "Attribute raised on a 5–6"),
            (
                (a, T(f"{ATTRIBUTES[a].zh}({v})", f"{ATTRIBUTES[a].en} ({v})"))
                for a, v in char.attributes
            )
            if below
            else (("", T("没有低于6的属性", "no attribute below 6")),),
        )
        die = Field(
            "dice",
            T("哀悼骰", "Mourning die"),
            "dice",
            dice=(d6("roll", T("哀悼骰", "mourning die")),),
        )
        out.append(
            Offer(
                mv.Mourn.type,
                seat,
                _with(T("哀悼", "Mourn"), char),
                {"legend": index},
                (attrs, die),
            )
        )
    return out


def _roll(seat: Seat) -> Offer:
    """§判定.1, §奋力一搏: the die the tray lit for the test in progress, and a change to it."""
    die = Field(
        "dice", T("判定骰", "Test die"), "dice", dice=(d6("value", T("判定骰", "test die")),)
    )
    change = _number("change", T("改点(效果)", "Change (effects)"), *MODIFIERS, default=0)
    return Offer(
        mv.Roll.type, seat, T("输入掷骰结果", "Enter the die rolled"), fields=(die, change)
    )


def _fishing(seat: Seat) -> Offer:
    """§钓鱼.3: the four dice the tray lit for the fishing just done."""
    dice = tuple(d6(f"d{k}", T(f"第{k}颗钓鱼骰", f"fishing die {k}")) for k in range(1, 5))
    field = Field("dice", T("四颗钓鱼骰", "Four fishing dice"), "dice", dice=dice)
    return Offer(
        mv.FishingRoll.type, seat, T("输入钓鱼骰", "Enter the fishing dice"), fields=(field,)
    )


def _tests(data: Saga, seat: Seat, own: list[tuple[int, Character]]) -> list[Offer]:
    """§判定: a test of an attribute; §角力: a contest against a behemoth's value."""
    who = _character_field(own)
    modifier = _number("modifier", T("修正", "Modifier"), *MODIFIERS, default=0)
    out = [Offer(mv.CallTest.type, seat, T("判定", "Test"), fields=(who, _attributes(), modifier))]
    if data.behemoths:
        versus = _number("versus", T("巨兽的属性值", "The behemoth's value"), 1, 12, default=6)
        out.append(
            Offer(
                mv.CallTest.type,
                seat,
                T("角力(对巨兽)", "Contest (against the behemoth)"),
                fields=(who, _attributes(), modifier, versus),
            )
        )
    return out


EFFECT_LABELS = {
    "lose_energy": T("失去精力", "Lose energy"),
    "gain_energy": T("获得精力", "Gain energy"),
    "malady": T("受伤或生病", "Injury or illness"),
    "degrade": T("退化疾苦", "Degrade a malady"),
    "boost": T("获得增益", "Gain a boost"),
    "gain": T("获得资源", "Gain a resource"),
    "lose": T("失去资源", "Lose a resource"),
}


def _effects(data: Saga, seat: Seat, own: list[tuple[int, Character]]) -> list[Offer]:
    """What a card or the Secret Book did, one offer per kind of effect (``effect``)."""
    if not own:
        return []
    who = _character_field(own)
    amount = _number("amount", T("数量", "Amount"), 1, MAX_AMOUNT)
    out = [
        Offer(mv.Effect.type, seat, EFFECT_LABELS[k], {"kind": k}, (who, amount))
        for k in ("lose_energy", "gain_energy")
    ]
    kinds = _pick("kind", T("疾苦", "Malady"), MALADIES.items())
    detail = _pick("detail", T("轻重", "Severity"), SEVERITIES.items())
    out.append(Offer(mv.Effect.type, seat, EFFECT_LABELS["malady"], fields=(who, kinds, detail)))
    level = _pick(
        "amount",
        T("增益", "Boost"),
        ((1, T("微幅增益", "minor boost")), (2, T("大幅增益", "major boost"))),
    )
    boost = _pick("detail", T("属性", "Attribute"), ATTRIBUTES.items())
    out.append(
        Offer(mv.Effect.type, seat, EFFECT_LABELS["boost"], {"kind": "boost"}, (who, boost, level))
    )
    gained = _pick("detail", T("资源", "Resource"), RESOURCES.items())
    out.append(
        Offer(mv.Effect.type, seat, EFFECT_LABELS["gain"], {"kind": "gain"}, (who, gained, amount))
    )
    for index, char in own:
        if char.health:
            cells = (
                (
                    k,
                    T(
                        f"第{k + 1}格:{malady_name(t.label()).zh}",
                        f"cell {k + 1}: {malady_name(t.label()).en}",
                    ),
                )
                for k, t in enumerate(char.health)
            )
            out.append(
                Offer(
                    mv.Effect.type,
                    seat,
                    _with(EFFECT_LABELS["degrade"], char),
                    {"kind": "degrade", "character": index},
                    (_pick("amount", T("健康轨格", "Health cell"), cells),),
                )
            )
        if char.pack:
            lost = _pick(
                "detail", T("资源", "Resource"), ((k, resource_name(k)) for k, _ in char.pack)
            )
            out.append(
                Offer(
                    mv.Effect.type,
                    seat,
                    _with(EFFECT_LABELS["lose"], char),
                    {"kind": "lose", "character": index},
                    (lost,),
                )
            )
    return out


def _present(chars: Sequence[tuple[int, Character]], allowed: Sequence[str]) -> list[str]:
    """The features of ``allowed`` on the characters' tiles, or all of them (then greyed)."""
    tiles = valley()[1]
    here = {f for _, c in chars for f in tiles[c.tile].features if f in allowed}
    return [f for f in allowed if f in here] or list(allowed)


def _features(allowed: Sequence[str]) -> Field:
    return _pick("feature", T("地物", "Feature"), ((f, FEATURES[f]) for f in allowed))


def _others(data: Saga, index: int) -> list[tuple[int, Character]]:
    """The other living characters, those on the same tile first."""
    here = data.characters[index].tile
    others = [(i, c) for i, c in enumerate(data.characters) if i != index and c.alive]
    return sorted(others, key=lambda ic: ic[1].tile != here)


SIMPLE_ACTIONS = (
    (mv.Pack.type, T("打包与解包", "Pack and unpack")),
    (mv.PrepareShelter.type, T("备庇护所", "Prepare a shelter")),
    (mv.Delve.type, T("探穴", "Delve")),
    (mv.Scavenge.type, T("拾荒", "Scavenge")),
)
FEATURE_ACTIONS = (
    (mv.CollectWater.type, T("取水", "Collect water"), WATER_FEATURES),
    (mv.Fish.type, T("钓鱼", "Fish"), WATER_FEATURES),
    (mv.Forage.type, T("采集", "Forage"), FORAGE_FEATURES),
    (mv.Mine.type, T("采矿", "Mine"), MINING_FEATURES),
)


def _actions(data: Saga, seat: Seat, own: list[tuple[int, Character]]) -> list[Offer]:
    """§白天阶段: the basic and feature actions, each with the seat's characters."""
    who = _character_field(own)
    out = [Offer(move, seat, label, fields=(who,)) for move, label in SIMPLE_ACTIONS]
    out += [
        Offer(move, seat, label, fields=(who, _features(_present(own, allowed))))
        for move, label, allowed in FEATURE_ACTIONS
    ]
    fiber = _pick(
        "fiber",
        T("纤维", "Fiber"),
        ((False, T("不用纤维", "no fiber")), (True, T("花1份纤维,结果+2", "spend 1 fiber for +2"))),
    )
    fire = _attributes(("dexterity", "faith"))
    out.append(Offer(mv.MakeFire.type, seat, T("生火", "Make a fire"), fields=(who, fire, fiber)))
    for index, char in own:
        out += _character_actions(data, seat, index, char)
    return out


def _character_actions(data: Saga, seat: Seat, index: int, char: Character) -> list[Offer]:
    """The actions whose choices depend on where one character stands and what it holds."""
    me = {"character": index}
    tiles = valley()[1]
    near = [(t, tile_label(t, data.tile(t).explored)) for t in tiles[char.tile].neighbours]
    journey = _pick(
        "resolved",
        T("旅途卡", "Journey card"),
        (
            (True, T("已结算", "resolved")),
            (False, T("条件不满足:艰难跋涉", "condition failed: hard travel")),
        ),
    )
    others = _others(data, index)
    out = [
        Offer(
            mv.Travel.type,
            seat,
            _with(T("移动", "Travel"), char),
            me,
            (_pick("to", T("前往", "To"), near), journey),
            camera=True,
        ),
        Offer(
            mv.RelocateOutpost.type,
            seat,
            _with(T("迁移前哨", "Relocate the outpost"), char),
            me,
            (_pick("to", T("迁往", "To"), near),),
        ),
        _outpost(data, seat, index, char, others),
        Offer(
            mv.Build.type,
            seat,
            _with(T("建建筑", "Build"), char),
            me,
            (
                _pick("name", T("建筑", "Building"), names("buildings")),
                _number(
                    "energy", T("卡背的精力", "Energy on the card's back"), 1, max(char.energy, 1)
                ),
            ),
        ),
    ]
    if others:
        out += _exchange(data, seat, index, char, others)
        if incapacitated_any(data, others):
            out.append(_aid(data, seat, index, char, others))
    out += _process(seat, index, char)
    materials = [k for k, _ in char.pack if k.partition(":")[0] in resource_data()["materials"]]
    if materials:
        pairs = list(itertools.combinations_with_replacement(materials[:MAX_KINDS], 2))
        if char.energy < 1:
            pairs = pairs[:1]
        item = _pick(
            "item",
            T("秘典的结果", "The Secret Book says"),
            (("", T("没有条目:材料退回", "no entry: the materials go back")), *names("items")),
        )
        out.append(
            Offer(
                mv.Craft.type,
                seat,
                _with(T("合成", "Craft"), char),
                me,
                (
                    _pick(
                        "materials",
                        T("两枚材料", "Two materials"),
                        ((list(p), listed(p, resource_name)) for p in pairs),
                    ),
                    item,
                ),
            )
        )
    return out


def incapacitated_any(data: Saga, chars: Sequence[tuple[int, Character]]) -> bool:
    """Whether any of these characters is incapacitated (only then is aid offered)."""
    return any(incapacitated(c.health, health_length(data.party)) for _, c in chars)


def _outpost(
    data: Saga, seat: Seat, index: int, char: Character, others: list[tuple[int, Character]]
) -> Offer:
    """§建前哨: a zone, and who shares the 4 energy (one other character on the tile, 1 up to
    its energy)."""
    shares: list[tuple[Any, Text]] = [((), T("自己付4点", "all 4 myself"))]
    for other, c in others:
        if c.tile == char.tile:
            name = character_name(c.name)
            shares += [
                ([[other, k]], T(f"{name.zh}分摊{k}点", f"{name.en} pays {k}"))
                for k in range(1, min(OUTPOST_ENERGY, c.energy) + 1)
            ]
    zones = ((z, T(f"第{z + 1}区", f"zone {z + 1}")) for z in range(3))
    built = sum(1 for _, t in data.tiles if t.outpost)
    full = data.tile(char.tile).outpost or built >= camp.outpost_limit(data.population)
    fields = (
        _pick("zone", T("区", "Zone"), zones),
        _pick("shares", T("分摊精力", "Shared energy"), shares),
    )
    label = _with(T("建前哨", "Build an outpost"), char)
    offer = Offer(mv.BuildOutpost.type, seat, label, {"character": index}, fields)
    return _greyed(offer) if full else offer


def _exchange(
    data: Saga, seat: Seat, index: int, char: Character, others: list[tuple[int, Character]]
) -> list[Offer]:
    """§交换: with each partner on the tile, any number of each resource given and received
    (a tally of each pack); partners elsewhere in one offer, greyed."""
    give = _pick("give", T("给出", "Give"), [((), T("不给", "nothing")), *_tokens(char)])
    out = []
    for other, c in others:
        if c.tile == char.tile:
            me, them = character_name(char.name), character_name(c.name)
            tallies = (
                _tally("give", T("{who}给出", "{who} gives").format(who=me), char),
                _tally("receive", T("{who}给出", "{who} gives").format(who=them), c),
            )
            label = T(f"交换:{me.zh}与{them.zh}", f"Exchange: {me.en} with {them.en}")
            fixed = {"character": index, "partner": other}
            out.append(Offer(mv.Exchange.type, seat, label, fixed, tallies))
    away = [(i, c) for i, c in others if c.tile != char.tile]
    if away:
        label = _with(T("交换(不在同一地块)", "Exchange (not on this tile)"), char)
        fields = (_character_field(away, "partner"), give)
        offer = Offer(mv.Exchange.type, seat, label, {"character": index}, fields)
        out.append(_greyed(offer))  # §交换: only with a character on the same tile
    return out


def _tally(name: str, label: Text, char: Character) -> Field:
    """How many of each resource in the character's pack change hands (§交换: any number)."""
    choices = tuple(Choice(k, resource_name(k), most=n) for k, n in char.pack if n > 0)
    return Field(name, label, "tally", choices)


def _tokens(char: Character) -> list[tuple[Any, Text]]:
    """One token of each resource the character holds, as an exchange lot (the first kinds)."""
    return [([[k, 1]], resource_name(k)) for k, _ in char.pack[:MAX_KINDS]]


def _aid(
    data: Saga, seat: Seat, index: int, char: Character, others: list[tuple[int, Character]]
) -> Offer:
    """§救助: an incapacitated character on the tile degrades a malady of its choice."""
    cells = (
        (k, T(f"健康轨第{k + 1}格", f"health cell {k + 1}"))
        for k in range(health_length(data.party))
    )
    return Offer(
        mv.Aid.type,
        seat,
        _with(T("救助", "Aid"), char),
        {"character": index},
        (
            _character_field(others, "target"),
            _pick("cell", T("退化哪一格", "Cell to degrade"), cells),
        ),
    )


def _process(seat: Seat, index: int, char: Character) -> list[Offer]:
    """§加工: one to three resources (hard food or materials held raw), a different tool icon
    each (heat up to three times), the icons in the order of the resources (the engine checks
    only that they differ, so each set of icons is listed once)."""
    data = resource_data()
    raw = [
        k.partition(":")[0]
        for k, _ in char.pack
        if k.endswith(":raw") and k.partition(":")[0] in (*data["hard"], *data["materials"])
    ][:MAX_KINDS]
    if not raw:
        return []
    tools = list(TOOLS)
    out = []
    for size in (1, 2, 3):
        lots = list(itertools.combinations_with_replacement(raw[: 5 - size], size))
        heated = (
            ("heat",) * k + rest
            for k in range(2, size + 1)
            for rest in itertools.combinations(tools, size - k)
        )
        unique = {tuple(sorted(p)): p for p in (*itertools.combinations(tools, size), *heated)}
        pairs = [p for p in unique.values() if _tools_ok(p)]
        if char.energy < 1 + size:  # greyed anyway: one option carries the reason
            lots, pairs = lots[:1], pairs[:1]
        out.append(
            Offer(
                mv.Process.type,
                seat,
                _with(
                    T(f"加工{size}个资源", f"Process {size} resource{'s' if size > 1 else ''}"),
                    char,
                ),
                {"character": index},
                (
                    _pick(
                        "resources",
                        T("资源", "Resources"),
                        ((list(lot), listed(lot, resource_name)) for lot in lots),
                    ),
                    _pick(
                        "tools",
                        T("工具图标", "Tool icons"),
                        ((list(p), listed(p, TOOLS.__getitem__)) for p in pairs),
                    ),
                ),
            )
        )
    return out


def _tools_ok(icons: tuple[str, ...]) -> bool:
    """§加工: each resource of one action needs another icon, except heat (up to three)."""
    others = [i for i in icons if i != "heat"]
    return len(others) == len(set(others))


def _gifts(data: Saga, seat: Seat, own: list[tuple[int, Character]]) -> list[Offer]:
    """§白天阶段 食物与水: food or water handed to a character on the same tile."""
    food = {*resource_data()["perishable"], *resource_data()["hard"], "water"}
    out = []
    for index, char in own:
        held = [(k, resource_name(k)) for k, _ in char.pack if k.partition(":")[0] in food]
        others = _others(data, index)
        if held and others:
            fields = (
                _character_field(others, "partner"),
                _pick("resource", T("食物或水", "Food or water"), held),
            )
            out.append(
                Offer(
                    mv.Give.type,
                    seat,
                    _with(T("送食物或水", "Hand over food or water"), char),
                    {"character": index},
                    fields,
                )
            )
    return out


def _end_challenge(seat: Seat) -> Offer:
    """§挑战卡与目标卡: the challenge ends, won or lost."""
    result = _pick(
        "result", T("结果", "Result"), (("won", T("胜利", "won")), ("lost", T("失败", "lost")))
    )
    return Offer(mv.EndChallenge.type, seat, T("挑战结束", "The challenge ends"), fields=(result,))


def _mining(data: Saga, seat: Seat) -> list[Offer]:
    """§采矿.4–6: the token drawn from the bag (read on the draw pad; a fallback here) or stop."""
    mine = data.mining
    assert mine is not None
    stones = _pick("stone", T("石头", "Stone"), ((s, STONES[s]) for s, _ in mine.bag))
    omens = _pick("omen", T("预兆", "Omen"), OMENS.items())
    return [
        Offer(
            mv.DrawOre.type,
            seat,
            T("摸出的矿石", "Ore token drawn"),
            fields=(stones, omens),
            camera=True,
        ),
        Offer(
            mv.FinishMining.type,
            seat,
            T("收手:矿石放回", "Stop: the tokens go back"),
            camera=True,
        ),
    ]


def _night_cards(seat: Seat, own: list[tuple[int, Character]]) -> list[Offer]:
    """§夜晚阶段.7: a card met, or a calm night (a minor boost when energy is full)."""
    who = _character_field(own)
    omen = _pick("omen", T("卡底的预兆", "Omen at the bottom"), OMENS.items())
    boost = _pick(
        "boost",
        T("精力已满时的微幅增益", "Minor boost if energy is full"),
        (("", T("精力未满", "energy not full")), *ATTRIBUTES.items()),
    )
    return [
        Offer(
            mv.NightCard.type,
            seat,
            T("夜晚卡:满足条件", "Night card: condition met"),
            {"met": True},
            (who, omen),
        ),
        Offer(
            mv.NightCard.type,
            seat,
            T("夜晚卡:静夜", "Night card: a calm night"),
            {"met": False},
            (who, omen, boost),
        ),
    ]


MAX_KEEP_CHOICES = 40


def _keep(seat: Seat, index: int, char: Character) -> Offer:
    """§局间保留与存档: which materials (and items) a character keeps, at most 5 of each."""
    materials = resource_data()["materials"]
    held = sorted(
        name
        for key, n in char.pack
        if (name := key.partition(":")[0]) in materials
        for _ in range(n)
    )
    lots = sorted(
        {lot for size in range(6) for lot in itertools.combinations(held, size)},
        key=lambda lot: (-len(lot), lot),
    )
    if len(lots) > MAX_KEEP_CHOICES:
        lots = [tuple(held[:5]), *((m,) for m in sorted(set(held))), ()]
    none = T("不保留", "nothing")
    items: list[tuple[Any, Text]] = [((), none)]
    if char.items:
        items.append((list(char.items[:5]), listed(char.items[:5], item_name, none)))
    return Offer(
        mv.Keep.type,
        seat,
        _with(T("保留物资", "Keep for the next session"), char),
        {"character": index},
        (
            _pick(
                "materials",
                T("材料", "Materials"),
                ((list(lot), listed(lot, resource_name, none)) for lot in lots),
            ),
            _pick("items", T("物品", "Items"), items),
        ),
    )


def valley_now(data: Saga) -> ValleyRecord:
    """The valley as it lies: the starting layout with each tile's face, outposts and ruins."""
    placed: list[TilePlacement] = []
    overlays: list[OverlayPlacement] = []
    for tile_id in valley()[1]:
        tray, slot = tile_slot(tile_id)
        state = data.tile(tile_id)
        placed.append(TilePlacement(tile_id, tray, slot, 0, state.explored))
        if state.outpost:
            built = sum(o.overlay.startswith("outpost") for o in overlays)
            overlays.append(OverlayPlacement(f"outpost {built + 1}", tile_id))
        if state.ruin:
            overlays.append(OverlayPlacement("ruin", tile_id, 1))
    return ValleyRecord(region(), tuple(placed), tuple(overlays))


def _record(data: Saga, seat: Seat) -> Offer:
    """§局间保留与存档 记录地图: read by the camera; the fallback records the valley as it lies."""
    records = [(valley_now(data), T("山谷现状(未转动)", "the valley as it lies (no rotation)"))]
    if data.valley_record is not None and data.valley_record != records[0][0]:
        records.append((data.valley_record, T("已记录的地图", "the map recorded")))
    choices = ((mv.RecordValley(seat, r).to_dict()["record"], t) for r, t in records)
    return Offer(
        mv.RecordValley.type,
        seat,
        T("记录山谷地图", "Record the valley map"),
        fields=(_pick("record", T("地图", "Map"), choices),),
        camera=True,
    )
