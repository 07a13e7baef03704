"""Stonesaga's offers before and between the days: character creation, the relics, the interval
between sessions and the mourning roll."""

from __future__ import annotations

from typing import Any

from engine.core import Choice, Field, Offer, Seat, State
from engine.stonesaga import moves as mv
from engine.stonesaga.catalogue import (
    ATTRIBUTES,
    TRAITS,
    Catalogue,
)
from engine.stonesaga.offers.fields import (
    NAME_CHOICES,
    T,
    _greyed,
    _pick,
    _with,
    d6,
)
from engine.stonesaga.offers.night import valley_now
from engine.stonesaga.rules.basics import CREATION_MINIMUM, party_full
from engine.stonesaga.rules.interval import ruins_due
from engine.stonesaga.state import Saga
from engine.stonesaga.texts import (
    character_name,
    tile_label,
    tile_name,
)


def _creation(cat: Catalogue, state: State[Any], seat: Seat) -> list[Offer]:
    """§创造角色: roll five dice (again while they sum to less than 14), then one offer that
    places the four kept dice on the attributes, names the character from our list and picks
    its trait; or a character of the Log."""
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
    heirs = _relics(cat, data)
    free = [(n, t) for n, t in tuple(cat.names["characters"].items()) if n not in taken][
        :NAME_CHOICES
    ]
    rolls = data.rolls(seat)
    if rolls and free:
        last = rolls[-1]
        kept = tuple(sorted(last, reverse=True)[:4])  # §创造角色.1: the lowest die removed
        having = [c.seat for c in data.characters]
        grey = sum(last) < CREATION_MINIMUM or party_full(having, state.players, data.party, seat)
        # §创造角色.2: the four kept dice, one on each attribute (touch a die, then an
        # attribute); the move carries the values as before, so saves replay unchanged.
        placing = Field(
            "attributes",
            T("分配骰子", "Place the dice"),
            "assign",
            choices=tuple(  # a button, so as the character card prints it: Strength
                Choice(a, T(t.zh, t.en.capitalize())) for a, t in ATTRIBUTES.items()
            ),
            pool=kept,
        )
        traits = _pick(
            "trait",
            T("特质", "Trait"),
            ((k, T(t.zh, t.en.capitalize())) for k, t in TRAITS.items()),
        )
        offer = Offer(
            mv.CreateCharacter.type,
            seat,
            T("创造角色", "Create a character"),
            {"rolls": [list(r) for r in rolls]},
            (placing, _pick("name", T("名字", "Name"), free), traits, *heirs),
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
                        ((h.name, character_name(h.name, cat)) for h in roster),
                    ),
                    *heirs,
                ),
            )
        )
    return out


def _relics(cat: Catalogue, data: Saga) -> tuple[Field, ...]:
    """§角色死亡与传说 遗物 局间死亡: whose relics the new character takes (none, or one of
    the characters who died between sessions and left some); no field when none did."""
    if not data.relics:
        return ()
    none = T("不接遗物", "no relics")
    return (
        _pick(
            "inherits",
            T("接过遗物", "Takes the relics of"),
            (("", none), *((r.name, character_name(r.name, cat)) for r in data.relics)),
        ),
    )


def _interval(cat: Catalogue, data: Saga, seat: Seat) -> list[Offer]:
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
        if data.interval == "epoch":  # ruling of issue 26: every death between sessions +2
            label = T("哀悼骰(纪元交替+2)", "Mourning die (+2 as the epoch ends)")
        die = Field("dice", label, "dice", dice=(d6("roll", label),))
        out.append(
            Offer(
                mv.Mourn.type,
                seat,
                T(
                    f"哀悼局间死去的{character_name(hero.name, cat).zh}",
                    f"Mourn {character_name(hero.name, cat).en}, who died between sessions",
                ),
                {"legend": index},
                (attrs, die),
            )
        )
    if ruins_due(data, cat):
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
        tiles = cat.tiles
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
                                (n, tile_label(n, cat, data.tile(n).explored))
                                for n in tiles[tile].neighbours
                            ),
                        ),
                    ),
                )
            )
    if data.valley_record is not None or not data.rebuilt:
        record = data.valley_record or valley_now(cat, data)
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


def _mourning(cat: Catalogue, data: Saga, seat: Seat) -> list[Offer]:
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
                _with(cat, T("哀悼", "Mourn"), char),
                {"legend": index},
                (attrs, die),
            )
        )
    return out
