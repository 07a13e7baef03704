"""The kiosk's view of a Stonesaga state: the summary and a strip for each character."""

from __future__ import annotations

from typing import Any

from engine.core import Text
from engine.stonesaga import model as m
from engine.stonesaga.catalogue import FEATURES, OMENS, STONES
from engine.stonesaga.common import _bag_text, _cap, _length, _tile
from engine.stonesaga.texts import attribute_line, counted, item_name, listed, malady_name

Data = m.Saga


def _bag_rows(mine: m.Mining, tr: Any, label: Any) -> list[list[Any]]:
    """§采矿.3–6: the bag for the feature being mined, what is left in it, what was drawn."""
    feature = tr(FEATURES[mine.feature])
    left = tuple((s, n - sum(1 for d, _ in mine.drawn if d == s)) for s, n in mine.bag)
    drawn = listed(
        mine.drawn,
        lambda d: Text(
            f"{STONES[d[0]].zh}/{OMENS[d[1]].zh}", f"{STONES[d[0]].en}/{OMENS[d[1]].en}"
        ),
    )
    return [
        [label(f"{feature}的袋子", f"Bag for the {feature}"), tr(_bag_text(mine.bag))],
        [label("袋中还剩", "Left in the bag"), tr(_bag_text(left))],
        [label("已摸出", "Drawn"), tr(drawn)],
    ]


def _strip(data: Data, c: m.Character, tr: Any, label: Any) -> list[list[Any]]:
    """A character's few fields for the kiosk's strip, most important first (at most six)."""
    attributes = tr(attribute_line(c.attributes, c.boosts))
    if not c.alive:
        return [
            [label("状态", "State"), label("已死亡", "dead")],
            [label("属性", "Attributes"), attributes],
        ]
    health = [f"{len(c.health)}/{_length(data)}", *(tr(malady_name(t.label())) for t in c.health)]
    tile = _tile(data, c.tile) if c.tile else Text("尚未入场", "not on the map yet")
    fields: list[list[Any]] = [
        [label("精力", "Energy"), f"{c.energy}/{_cap(data)}"],
        [label("健康", "Health"), " ".join(health)],
        [label("地块", "Tile"), tr(tile)],
        [label("背包", "Pack"), tr(counted(c.pack, Text("空", "empty")))],
        [label("属性", "Attributes"), attributes],
    ]
    if c.items:
        fields.append([label("物品", "Items"), tr(listed(c.items, item_name))])
    return fields
