"""Stonesaga's offers of the day (and of night step 7's tests): rolls, tests, card effects, the
characters' actions, outposts, exchanges, aid, processing, gifts, mining and the end of the
challenge."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from typing import Any, Final

from engine.core import Choice, Field, Offer, Seat, Text
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
    WATER_FEATURES,
    Catalogue,
)
from engine.stonesaga.offers.fields import (
    MAX_AMOUNT,
    MAX_KINDS,
    MODIFIERS,
    OUTPOST_ENERGY,
    T,
    _attributes,
    _character_field,
    _greyed,
    _number,
    _pick,
    _with,
    d6,
)
from engine.stonesaga.rules.basics import health_length, incapacitated
from engine.stonesaga.state import Character, Saga
from engine.stonesaga.texts import (
    behemoth_name,
    character_name,
    listed,
    malady_name,
    resource_name,
    tile_label,
)


def _roll(seat: Seat) -> Offer:
    """§判定.1, §奋力一搏: the die the tray lit for the test in progress, and a change to it."""
    die = Field(
        "dice", T("判定骰", "Test die"), "dice", dice=(d6("value", T("判定骰", "test die")),)
    )
    change = _number("change", T("改点(效果)", "Change (effects)"), *MODIFIERS, default=0)
    label = T("输入掷骰结果", "Enter the die rolled")
    return Offer(mv.Roll.type, seat, label, fields=(die, change), kind="dice")


def _fishing(seat: Seat) -> Offer:
    """§钓鱼.3: the four dice the tray lit for the fishing just done."""
    dice = tuple(d6(f"d{k}", T(f"第{k}颗钓鱼骰", f"fishing die {k}")) for k in range(1, 5))
    field = Field("dice", T("四颗钓鱼骰", "Four fishing dice"), "dice", dice=dice)
    label = T("输入钓鱼骰", "Enter the fishing dice")
    return Offer(mv.FishingRoll.type, seat, label, fields=(field,), kind="dice")


def _tests(cat: Catalogue, data: Saga, seat: Seat, own: list[tuple[int, Character]]) -> list[Offer]:
    """§判定: a test of an attribute; §角力: a contest against a behemoth's value. A card, an
    event or the Secret Book calls for them ("判定文本"), so they sit with the card effects."""
    who = _character_field(cat, own)
    modifier = _number("modifier", T("修正", "Modifier"), *MODIFIERS, default=0)
    fields = (who, _attributes(), modifier)
    out = [Offer(mv.CallTest.type, seat, T("判定", "Test"), fields=fields, kind=EFFECT)]
    if data.behemoths:
        versus = _number("versus", T("巨兽的属性值", "The behemoth's value"), 1, 12, default=6)
        out.append(
            Offer(
                mv.CallTest.type,
                seat,
                T("角力(对巨兽)", "Contest (against the behemoth)"),
                fields=(who, _attributes(), modifier, versus),
                kind=EFFECT,
            )
        )
    return out


EFFECT: Final = "card_effect"
"""What a card or the Secret Book did: behind the console's one "card effect…" entry."""
EFFECT_LABELS = {
    "lose_energy": T("失去精力", "Lose energy"),
    "gain_energy": T("获得精力", "Gain energy"),
    "malady": T("受伤或生病", "Injury or illness"),
    "degrade": T("退化疾苦", "Degrade a malady"),
    "boost": T("获得增益", "Gain a boost"),
    "gain": T("获得资源", "Gain a resource"),
    "lose": T("失去资源", "Lose a resource"),
}


def _effects(
    cat: Catalogue, data: Saga, seat: Seat, own: list[tuple[int, Character]]
) -> list[Offer]:
    """What a card or the Secret Book did, one offer per kind of effect (``effect``)."""
    if not own:
        return []
    who = _character_field(cat, own)
    amount = _number("amount", T("数量", "Amount"), 1, MAX_AMOUNT)
    out = [
        Offer(mv.Effect.type, seat, EFFECT_LABELS[k], {"kind": k}, (who, amount), kind=EFFECT)
        for k in ("lose_energy", "gain_energy")
    ]
    kinds = _pick("kind", T("疾苦", "Malady"), MALADIES.items())
    detail = _pick("detail", T("轻重", "Severity"), SEVERITIES.items())
    malady = EFFECT_LABELS["malady"]
    out.append(Offer(mv.Effect.type, seat, malady, fields=(who, kinds, detail), kind=EFFECT))
    level = _pick(
        "amount",
        T("增益", "Boost"),
        ((1, T("微幅增益", "minor boost")), (2, T("大幅增益", "major boost"))),
    )
    boost = _pick("detail", T("属性", "Attribute"), ATTRIBUTES.items())
    out.append(
        Offer(
            mv.Effect.type,
            seat,
            EFFECT_LABELS["boost"],
            {"kind": "boost"},
            (who, boost, level),
            kind=EFFECT,
        )
    )
    gained = _pick("detail", T("资源", "Resource"), RESOURCES.items())
    out.append(
        Offer(
            mv.Effect.type,
            seat,
            EFFECT_LABELS["gain"],
            {"kind": "gain"},
            (who, gained, amount),
            kind=EFFECT,
        )
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
                    _with(cat, EFFECT_LABELS["degrade"], char),
                    {"kind": "degrade", "character": index},
                    (_pick("amount", T("健康轨格", "Health cell"), cells),),
                    kind=EFFECT,
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
                    _with(cat, EFFECT_LABELS["lose"], char),
                    {"kind": "lose", "character": index},
                    (lost,),
                    kind=EFFECT,
                )
            )
    return out


def _present(
    cat: Catalogue, chars: Sequence[tuple[int, Character]], allowed: Sequence[str]
) -> list[str]:
    """The features of ``allowed`` on the characters' tiles, or all of them (then greyed)."""
    tiles = cat.tiles
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


def _actions(
    cat: Catalogue, data: Saga, seat: Seat, own: list[tuple[int, Character]]
) -> list[Offer]:
    """§白天阶段: the basic and feature actions, each with the seat's characters."""
    who = _character_field(cat, own)
    out = [Offer(move, seat, label, fields=(who,)) for move, label in SIMPLE_ACTIONS]
    out += [
        Offer(move, seat, label, fields=(who, _features(_present(cat, own, allowed))))
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
        # An offer names its character only when the seat has more than one (the seat's heading
        # names a lone one): shorter buttons, so that the day's actions fit the console.
        label: Labeller = functools.partial(_with, cat, char=char) if len(own) > 1 else _as_is
        out += _character_actions(cat, data, seat, index, char, label)
    return out


Labeller = Callable[[Text], Text]
"""An action's label as the console shows it for one character (with its name, or as it is)."""


def _as_is(label: Text) -> Text:
    return label


def _character_actions(
    cat: Catalogue, data: Saga, seat: Seat, index: int, char: Character, label: Labeller
) -> list[Offer]:
    """The actions whose choices depend on where one character stands and what it holds."""
    me = {"character": index}
    tiles = cat.tiles
    near = [(t, tile_label(t, cat, data.tile(t).explored)) for t in tiles[char.tile].neighbours]
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
            label(T("移动", "Travel")),
            me,
            (_pick("to", T("前往", "To"), near), journey),
            camera=True,
        ),
        Offer(
            mv.RelocateOutpost.type,
            seat,
            label(T("迁移前哨", "Relocate the outpost")),
            me,
            (_pick("to", T("迁往", "To"), near),),
        ),
        _outpost(cat, data, seat, index, char, others, label),
        Offer(
            mv.Build.type,
            seat,
            label(T("建建筑", "Build")),
            me,
            (
                _pick("name", T("建筑", "Building"), tuple(cat.names["buildings"].items())),
                _number(
                    "energy", T("卡背的精力", "Energy on the card's back"), 1, max(char.energy, 1)
                ),
            ),
        ),
    ]
    if others:
        out += _exchange(cat, data, seat, index, char, others, label)
        if incapacitated_any(data, others):
            out.append(_aid(cat, data, seat, index, char, others, label))
    out += _process(cat, seat, index, char, label)
    materials = [k for k, _ in char.pack if k.partition(":")[0] in cat.resources.materials]
    if materials:
        pairs = list(itertools.combinations_with_replacement(materials[:MAX_KINDS], 2))
        if char.energy < 1:
            pairs = pairs[:1]
        item = _pick(
            "item",
            T("秘典的结果", "The Secret Book says"),
            (
                ("", T("没有条目:材料退回", "no entry: the materials go back")),
                *tuple(cat.names["items"].items()),
            ),
        )
        out.append(
            Offer(
                mv.Craft.type,
                seat,
                label(T("合成", "Craft")),
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
    cat: Catalogue,
    data: Saga,
    seat: Seat,
    index: int,
    char: Character,
    others: list[tuple[int, Character]],
    label: Labeller,
) -> Offer:
    """§建前哨: a zone, and who shares the 4 energy (one other character on the tile, 1 up to
    its energy)."""
    shares: list[tuple[Any, Text]] = [((), T("自己付4点", "all 4 myself"))]
    for other, c in others:
        if c.tile == char.tile:
            name = character_name(c.name, cat)
            shares += [
                ([[other, k]], T(f"{name.zh}分摊{k}点", f"{name.en} pays {k}"))
                for k in range(1, min(OUTPOST_ENERGY, c.energy) + 1)
            ]
    zones = ((z, T(f"第{z + 1}区", f"zone {z + 1}")) for z in range(3))
    built = sum(1 for _, t in data.tiles if t.outpost)
    full = data.tile(char.tile).outpost or built >= camp.outpost_limit(data.population, cat)
    fields = (
        _pick("zone", T("区", "Zone"), zones),
        _pick("shares", T("分摊精力", "Shared energy"), shares),
    )
    title = label(T("建前哨", "Build an outpost"))
    offer = Offer(mv.BuildOutpost.type, seat, title, {"character": index}, fields)
    return _greyed(offer) if full else offer


def _exchange(
    cat: Catalogue,
    data: Saga,
    seat: Seat,
    index: int,
    char: Character,
    others: list[tuple[int, Character]],
    label: Labeller,
) -> list[Offer]:
    """§交换: with each partner on the tile, any number of each resource given and received
    (a tally of each pack), something at least: one offer where the character gives one or
    more (and receives any), one where it only receives (while the partner holds anything);
    with nothing in either pack, the first, greyed with the reason. Partners elsewhere in one
    offer, greyed."""
    give = _pick("give", T("给出", "Give"), [((), T("不给", "nothing")), *_tokens(char)])
    out = []
    for other, c in others:
        if c.tile == char.tile:
            me, them = character_name(char.name, cat), character_name(c.name, cat)
            gives = _tally("give", T("{who}给出", "{who} gives").format(who=me), char, 1)
            takes = T("{who}给出", "{who} gives").format(who=them)
            fixed = {"character": index, "partner": other}
            if char.pack or not c.pack:
                pair = T(f"交换:{me.zh}与{them.zh}", f"Exchange: {me.en} with {them.en}")
                tallies = (gives, _tally("receive", takes, c))
                out.append(Offer(mv.Exchange.type, seat, pair, fixed, tallies))
            if c.pack:
                only = T(f"交换:{me.zh}只收下{them.zh}的", f"Exchange: {me.en} only takes")
                receives = (_tally("receive", takes, c, 1),)
                out.append(Offer(mv.Exchange.type, seat, only, fixed, receives))
    away = [(i, c) for i, c in others if c.tile != char.tile]
    if away:
        title = label(T("交换(不在同一地块)", "Exchange (not on this tile)"))
        fields = (_character_field(cat, away, "partner"), give)
        offer = Offer(mv.Exchange.type, seat, title, {"character": index}, fields)
        out.append(_greyed(offer))  # §交换: only with a character on the same tile
    return out


def _tally(name: str, label: Text, char: Character, low: int = 0) -> Field:
    """How many of each resource in the character's pack change hands (§交换: any number),
    at least ``low`` kinds."""
    choices = tuple(Choice(k, resource_name(k), most=n) for k, n in char.pack if n > 0)
    return Field(name, label, "tally", choices, low=low)


def _tokens(char: Character) -> list[tuple[Any, Text]]:
    """One token of each resource the character holds, as an exchange lot (the first kinds)."""
    return [([[k, 1]], resource_name(k)) for k, _ in char.pack[:MAX_KINDS]]


def _aid(
    cat: Catalogue,
    data: Saga,
    seat: Seat,
    index: int,
    char: Character,
    others: list[tuple[int, Character]],
    label: Labeller,
) -> Offer:
    """§救助: an incapacitated character on the tile degrades a malady of its choice."""
    cells = (
        (k, T(f"健康轨第{k + 1}格", f"health cell {k + 1}"))
        for k in range(health_length(data.party))
    )
    return Offer(
        mv.Aid.type,
        seat,
        label(T("救助", "Aid")),
        {"character": index},
        (
            _character_field(cat, others, "target"),
            _pick("cell", T("退化哪一格", "Cell to degrade"), cells),
        ),
    )


def _process(
    cat: Catalogue, seat: Seat, index: int, char: Character, label: Labeller
) -> list[Offer]:
    """§加工: one to three resources (hard food or materials held raw), a different tool icon
    each (heat up to three times), the icons in the order of the resources (the engine checks
    only that they differ, so each set of icons is listed once)."""
    kinds = cat.resources
    raw = [
        k.partition(":")[0]
        for k, _ in char.pack
        if k.endswith(":raw") and k.partition(":")[0] in (*kinds.hard, *kinds.materials)
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
                label(T(f"加工{size}个资源", f"Process {size} resource{'s' if size > 1 else ''}")),
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


def _gifts(cat: Catalogue, data: Saga, seat: Seat, own: list[tuple[int, Character]]) -> list[Offer]:
    """§白天阶段 食物与水: food or water handed to a character on the same tile, "不消耗行动":
    a free action (the console's free row, after the actions); named by the giver only when
    the seat has more than one character, as the actions are."""
    food = {*cat.resources.food, "water"}
    out = []
    for index, char in own:
        held = [(k, resource_name(k)) for k, _ in char.pack if k.partition(":")[0] in food]
        others = _others(data, index)
        if held and others:
            label = T("送食物或水", "Hand over food or water")
            fields = (
                _character_field(cat, others, "partner"),
                _pick("resource", T("食物或水", "Food or water"), held),
            )
            out.append(
                Offer(
                    mv.Give.type,
                    seat,
                    _with(cat, label, char) if len(own) > 1 else label,
                    {"character": index},
                    fields,
                    kind="free",
                )
            )
    return out


CHALLENGE_ENDS = {
    "won": (
        T("挑战结束:胜利", "The challenge ends: won"),
        T("再按一次:挑战胜利,结束本局", "Touch again: challenge won, the session ends"),
    ),
    "lost": (
        T("挑战结束:失败", "The challenge ends: lost"),
        T("再按一次:挑战失败,结束本局", "Touch again: challenge lost, the session ends"),
    ),
}
"""§挑战卡与目标卡: the two ends of a challenge (the day, then the session, ends), and what the
button asks after its first touch."""


def _end_challenge(seat: Seat) -> list[Offer]:
    """§挑战卡与目标卡: the challenge ends, won or lost: each a ``final`` offer of its own, made
    by a second touch (no picker)."""
    return [
        Offer(mv.EndChallenge.type, seat, label, {"result": r}, kind="final", confirm=again)
        for r, (label, again) in CHALLENGE_ENDS.items()
    ]


def _alert(cat: Catalogue, data: Saga, seat: Seat) -> Offer:
    """§巨兽 警觉 (draws "table"): the behemoth the table drew at random among those whose lair
    is active, picked by its name; one whose lair is dormant is listed, and greyed with the
    rule (the core checks each). A behemoth is no printed card of the box: the Log names the
    behemoths that have arrived, so none is entered that the game does not know."""
    dormant = T("(巢穴未启用)", " (lair not active)")
    choices = []
    for beast in data.behemoths:
        name = behemoth_name(beast.name, cat)
        choices.append(
            (beast.name, name if beast.lair else T(name.zh + dormant.zh, name.en + dormant.en))
        )
    return Offer(
        mv.AlertBehemoth.type,
        seat,
        T("本局警觉的巨兽(随机抽出)", "The behemoth alert this session (drawn at random)"),
        fields=(_pick("behemoth", T("巨兽", "Behemoth"), choices),),
    )


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
