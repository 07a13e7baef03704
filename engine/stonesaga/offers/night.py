"""Stonesaga's offers of the night's cards and of the save at the end of a session: what each
character keeps and the valley's record."""

from __future__ import annotations

import itertools
from typing import Any

from engine.core import Offer, Seat, Text
from engine.stonesaga import moves as mv
from engine.stonesaga.catalogue import (
    ATTRIBUTES,
    OMENS,
    Catalogue,
)
from engine.stonesaga.offers.fields import (
    T,
    _character_field,
    _pick,
    _with,
)
from engine.stonesaga.state import Character, OverlayPlacement, Saga, TilePlacement, ValleyRecord
from engine.stonesaga.texts import (
    item_name,
    listed,
    resource_name,
)


def _night_cards(cat: Catalogue, seat: Seat, own: list[tuple[int, Character]]) -> list[Offer]:
    """§夜晚阶段.7: a card met, or a calm night (a minor boost when energy is full)."""
    who = _character_field(cat, own)
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


def _keep(cat: Catalogue, seat: Seat, index: int, char: Character) -> Offer:
    """§局间保留与存档: which materials (and items) a character keeps, at most 5 of each."""
    materials = cat.resources.materials
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
        items.append(
            (list(char.items[:5]), listed(char.items[:5], lambda i: item_name(i, cat), none))
        )
    return Offer(
        mv.Keep.type,
        seat,
        _with(cat, T("保留物资", "Keep for the next session"), char),
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


def valley_now(cat: Catalogue, data: Saga) -> ValleyRecord:
    """The valley as it lies: the box's starting layout with each tile's face, outposts and
    ruins."""
    placed: list[TilePlacement] = []
    overlays: list[OverlayPlacement] = []
    for tile_id in cat.tiles:
        tray, slot = cat.slots[tile_id]
        state = data.tile(tile_id)
        placed.append(TilePlacement(tile_id, tray, slot, 0, state.explored))
        if state.outpost:
            built = sum(o.overlay.startswith("outpost") for o in overlays)
            overlays.append(OverlayPlacement(f"outpost {built + 1}", tile_id))
        if state.ruin:
            overlays.append(OverlayPlacement("ruin", tile_id, 1))
    return ValleyRecord(cat.region, tuple(placed), tuple(overlays))


def _record(cat: Catalogue, data: Saga, seat: Seat) -> Offer:
    """§局间保留与存档 记录地图: read by the camera; the fallback records the valley as it lies."""
    records = [
        (valley_now(cat, data), T("山谷现状(未转动)", "the valley as it lies (no rotation)"))
    ]
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
