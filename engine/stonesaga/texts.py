"""What players read of Stonesaga, in Chinese and English: the names of the things moves carry
as ids (characters, resources, items, tiles, maladies), and what the kiosk's log says for each
event.

Every refusal (``game.py``) and every console label (``offers.py``) names things through the
functions here, so that the Chinese shows 灰烬、木材、地块102 where the move carries ``Ash``,
``wood``, ``102``. The name tables themselves are in ``catalogue.py`` and ``data/names.toml``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import TypeVar

from engine.core import Text
from engine.stonesaga.catalogue import (
    FACES,
    FEATURES,
    MALADIES,
    RESOURCES,
    SEVERITIES,
    names,
    valley,
)

K = TypeVar("K")

NOTHING = Text("无", "none")


def name_in(table: Mapping[str, Text], key: str) -> Text:
    """``key``'s name in a table of names; a value the table does not know, as it was written
    (only a move made by hand can carry one: the console offers known values only)."""
    return table.get(key) or Text(key, key)


@cache
def _names(kind: str) -> dict[str, Text]:
    return dict(names(kind))


def character_name(name: str) -> Text:
    """A character by the name its moves carry (``Ash``): 灰烬 / Ash from our names list in
    data/names.toml; a name of the Log not in the list, as the players wrote it."""
    return name_in(_names("characters"), name)


def item_name(item: str) -> Text:
    """An item by its name in our list (data/names.toml), else as the players wrote it."""
    return name_in(_names("items"), item)


def resource_name(key: str) -> Text:
    """``wood`` → 木材 / wood; ``fish:fresh`` → 鱼(新鲜) / fish (fresh)."""
    base, _, face = key.partition(":")
    name = name_in(RESOURCES, base)
    if not face:
        return name
    side = name_in(FACES, face)
    return Text(f"{name.zh}({side.zh})", f"{name.en} ({side.en})")


def malady_name(label: str) -> Text:
    """A malady token (``injury:light``) as the health track shows it: 轻伤 / light injury."""
    kind, _, level = label.partition(":")
    side, what = name_in(SEVERITIES, level), name_in(MALADIES, kind)
    return Text(f"{side.zh}{what.zh}", f"{side.en} {what.en}")


@cache
def _slots() -> dict[str, tuple[int, int]]:
    """Each tile's tray and slot in the valley's layout (in the order of valley.toml)."""
    slots: dict[str, tuple[int, int]] = {}
    for tile in valley()[1].values():
        slots[tile.id] = (tile.tray, sum(1 for t, _ in slots.values() if t == tile.tray))
    return slots


def tile_slot(tile: str) -> tuple[int, int]:
    """The tile's tray and its slot in the tray (from 0), as the valley is laid out."""
    return _slots()[tile]


def tile_name(tile: str, explored: bool = True) -> Text:
    """A tile by its printed number (地块102 / tile 102); an unexplored one by where it lies
    (托盘2第3格: §地图, its number is on the fogged face)."""
    if not explored and tile in _slots():
        tray, slot = _slots()[tile]
        return Text(
            f"未探索的地块(托盘{tray}第{slot + 1}格)",
            f"unexplored tile (tray {tray}, slot {slot + 1})",
        )
    return Text(f"地块{tile}", f"tile {tile}")


def tile_label(tile: str, explored: bool = True) -> Text:
    """A tile with the features drawn on it, as the console lists it: 地块102(森林、洞穴);
    an unexplored one shows neither (only where it lies)."""
    if not explored:
        return tile_name(tile, explored)
    features = [FEATURES[f] for f in valley()[1][tile].features]
    return Text(
        f"地块{tile}({'、'.join(f.zh for f in features)})",
        f"tile {tile} ({', '.join(f.en for f in features)})",
    )


def listed(keys: Iterable[K], name: Callable[[K], Text], none: Text = NOTHING) -> Text:
    """Several names as a list players read: 木材、纤维 / wood, fiber (``none`` for none)."""
    texts = [name(k) for k in keys]
    if not texts:
        return none
    return Text("、".join(t.zh for t in texts), ", ".join(t.en for t in texts))


def counted(lot: Iterable[tuple[str, int]], none: Text = NOTHING) -> Text:
    """Resources with their counts: 云石×1、河石×2 / cloud stone ×1, river stone ×2."""

    def one(lot_: tuple[str, int]) -> Text:
        name = resource_name(lot_[0])
        return Text(f"{name.zh}×{lot_[1]}", f"{name.en} ×{lot_[1]}")

    return listed(lot, one, none)


EVENT_TEXTS: dict[str, Text] = {
    "stonesaga.activity_raised": Text("活动度升至{activity}", "Activity rises to {activity}"),
    "stonesaga.behemoth_alert": Text("巨兽{name}警觉", "The behemoth {name} is alert"),
    "stonesaga.boost_changed": Text(
        "{character}的{attribute}加值:{level}", "{character}'s {attribute} boost: {level}"
    ),
    "stonesaga.challenge_ended": Text("挑战结束:{result}", "The challenge ends: {result}"),
    "stonesaga.challenge_event_due": Text(
        "挑战事件({threshold}):{text_zh}", "Challenge event ({threshold}): {text_en}"
    ),
    "stonesaga.character_died": Text(
        "{name}死去(哀悼骰{roll}:{effect})", "{name} died (mourning roll {roll}: {effect})"
    ),
    "stonesaga.character_joined": Text(
        "{name}加入({player}号玩家)", "{name} joins (player {player})"
    ),
    "stonesaga.energy_changed": Text(
        "{character}的能量:{energy}({reason})", "{character}'s energy: {energy} ({reason})"
    ),
    "stonesaga.health_changed": Text("{character}的健康:{what}", "{character}'s health: {what}"),
    "stonesaga.kept": Text(
        "{character}保留物品{items}与材料{materials}",
        "{character} keeps items {items} and materials {materials}",
    ),
    "stonesaga.mining_bag_filled": Text(
        "{character}在{feature}采矿,袋中:{bag}",
        "{character} mines the {feature}; in the bag: {bag}",
    ),
    "stonesaga.night_recovered": Text(
        "{character}夜间恢复,能量{energy}", "{character} recovers at night: energy {energy}"
    ),
    "stonesaga.fishing_rolled": Text(
        "{character}钓鱼掷出{dice}", "{character} rolls {dice} for fishing"
    ),
    "stonesaga.mourning_due": Text(
        "{name}死去,氏族掷哀悼骰", "{name} died; the clan rolls the mourning die"
    ),
    "stonesaga.omen_set": Text("当前预兆:{omen}", "Current omen: {omen}"),
    "stonesaga.ore_drawn": Text(
        "{character}抽出{stone}({omen}){entry_zh}", "{character} draws {stone} ({omen}) {entry_en}"
    ),
    "stonesaga.ore_returned": Text("矿石放回供应区:{drawn}", "Ore returned to the supply: {drawn}"),
    "stonesaga.resources_changed": Text(
        "{character}的{resource}:{delta}", "{character}'s {resource}: {delta}"
    ),
    "stonesaga.society_checked": Text(
        "社会:人口{population},动荡{unrest},前哨{outposts}/{outpost_limit}",
        "Society: population {population}, unrest {unrest}, outposts {outposts}/{outpost_limit}",
    ),
    "stonesaga.test_resolved": Text(
        "{character}的{attribute}检定:{total}({success})",
        "{character}'s {attribute} test: {total} (success: {success})",
    ),
    "stonesaga.tile_marked": Text("{tile}标记{marker}:{level}", "{tile} marked {marker}: {level}"),
    "stonesaga.travelled": Text("{character}前往{tile}", "{character} travels to {tile}"),
    "stonesaga.valley_recorded": Text("山谷已记录({region})", "The valley is recorded ({region})"),
}
