"""Stonesaga's names and printed data, loaded once from the TOML files in ``data/``.

Names used in moves and events (English identifiers; the kiosk shows the Chinese):
attributes, traits, omens, features, stones, maladies, resources and their faces, tool icons;
``texts.py`` names the rest (characters, items, tiles) from them and ``data/names.toml``.
The printed content the rule text does not give (mining table, starting valley, challenge
events, outpost scale) is in the data files, every invented value marked ``placeholder``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from engine.core import GameConfigError, Text

RULES = "stonesaga.zh.md"


def rule(section: str) -> str:
    """The citation of a section of the rule text, e.g. ``rule("采矿.3")``."""
    return f"{RULES} §{section}"


ATTRIBUTES: dict[str, Text] = {
    "strength": Text("力量", "strength"),
    "dexterity": Text("灵巧", "dexterity"),
    "faith": Text("信念", "faith"),
    "perception": Text("觉察", "perception"),
}
"""The four attributes (§创造角色.2)."""

TRAITS: dict[str, Text] = {
    "cunning": Text("狡黠", "cunning"),
    "fearless": Text("无畏", "fearless"),
    "unyielding": Text("不屈", "unyielding"),
    "clever": Text("机智", "clever"),
    "wise": Text("睿智", "wise"),
}
"""The five traits (§创造角色.6)."""

OMENS: dict[str, Text] = {
    "cloud": Text("云", "cloud"),
    "moon": Text("月", "moon"),
    "comet": Text("彗", "comet"),
    "star": Text("星", "star"),
    "sun": Text("日", "sun"),
}
"""The five omens (§五种预兆)."""

FEATURES: dict[str, Text] = {
    "lake": Text("湖泊", "lake"),
    "forest": Text("森林", "forest"),
    "fissure": Text("裂隙", "fissure"),
    "cave": Text("洞穴", "cave"),
    "mountain": Text("山脉", "mountain"),
    "moraine": Text("冰碛", "moraine"),
    "dry_flat": Text("干涸滩", "dry flat"),
    "grassland": Text("草原", "grassland"),
    "wetland": Text("湿地", "wetland"),
    "river": Text("河流", "river"),
}
"""Features drawn on tiles (§地图)."""

STONES: dict[str, Text] = {
    "cloud_stone": Text("云石", "cloud stone"),
    "river_stone": Text("河石", "river stone"),
    "sun_stone": Text("太阳石", "sun stone"),
    "clay": Text("黏土", "clay"),
}
"""The four stones of the mining bag (§采矿.1)."""

MALADIES: dict[str, Text] = {"injury": Text("伤", "injury"), "illness": Text("病", "illness")}
"""The two kinds of malady (§疾苦)."""
SEVERITIES: dict[str, Text] = {"light": Text("轻", "light"), "heavy": Text("重", "heavy")}
"""A malady token's two sides (§疾苦)."""

RESOURCES: dict[str, Text] = {
    **STONES,
    "game": Text("猎物", "game"),
    "fish": Text("鱼", "fish"),
    "mushroom": Text("菌菇", "mushroom"),
    "root": Text("根茎", "root"),
    "nut": Text("坚果", "nut"),
    "grain": Text("谷物", "grain"),
    "bone": Text("骨料", "bone"),
    "feather": Text("羽毛", "feather"),
    "wood": Text("木材", "wood"),
    "fiber": Text("纤维", "fiber"),
    "hide": Text("兽皮", "hide"),
    "pitch": Text("沥青", "pitch"),
    "water": Text("水", "water"),
}
"""Resource names as the rule text prints them (§资源, §采集, §拾荒)."""
FACES: dict[str, Text] = {
    "fresh": Text("新鲜", "fresh"),
    "fermented": Text("发酵", "fermented"),
    "raw": Text("未加工", "raw"),
    "processed": Text("已加工", "processed"),
}
"""The faces of a resource token (§资源): perishable food fresh or fermented, hard food and
materials raw or processed."""
TOOLS: dict[str, Text] = {
    "cut": Text("切割", "cut"),
    "strike": Text("敲击", "strike"),
    "grind": Text("磨", "grind"),
    "heat": Text("加热", "heat"),
    "pierce": Text("穿刺", "pierce"),
}
"""The tool icons of §加工 (the fifth name is ours, see data/resources.toml)."""

WATER_FEATURES = ("lake", "river", "wetland")
"""取水 and 钓鱼 need one of these on the tile (§取水, §钓鱼)."""
FORAGE_FEATURES = ("forest", "grassland")
"""采集 needs one of these (§采集)."""
SHELTER_FEATURE = "cave"
"""备庇护所 needs a cave (§备庇护所)."""
DELVE_FEATURES = ("cave", "fissure")
"""探穴 needs a cave or a fissure (§探穴)."""


@dataclass(frozen=True)
class TableEntry:
    """One cell of the mining table (feature × omen): what to read, and whether it is invented."""

    zh: str
    en: str
    placeholder: bool


@dataclass(frozen=True)
class TileData:
    """A tile of the starting valley: its features and its edges."""

    id: str
    tray: int
    features: tuple[str, ...]
    neighbours: tuple[str, ...]
    blocked: tuple[str, ...] = ()
    impassable: tuple[str, ...] = ()
    explored: bool = True
    ruin: bool = False


@dataclass(frozen=True)
class ChallengeEvent:
    """A challenge event on the back of a challenge card, due when activity reaches it."""

    threshold: int
    text: Text


@dataclass(frozen=True)
class Challenge:
    """A challenge card: its title, its omen (the current omen before any night card), events."""

    id: str
    title: Text
    omen: str
    events: tuple[ChallengeEvent, ...]
    kind: str = "campaign_start"
    """§开局设置.5: campaign_start, epoch_start, crisis or finale."""
    interval: str = "introduction"
    """§间隔与变老: season, generation, epoch or introduction."""


CHALLENGE_KINDS = ("campaign_start", "epoch_start", "crisis", "finale")
"""§开局设置.5: the kinds of challenge card, by when in an epoch they are played."""
INTERVALS = ("season", "generation", "epoch", "introduction")
"""§间隔与变老: how long since the last session, printed on each challenge card."""


def _load(name: str) -> dict[str, Any]:
    path = resources.files("engine.stonesaga") / "data" / name
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise GameConfigError(f"stonesaga data file {name}: {exc}") from None


@cache
def mining() -> dict[str, Any]:
    """The mining data: ``energy``, ``max_draws``, ``bags`` and the ``table`` (checked)."""
    data = _load("mining.toml")
    for feature, bag in data["bags"].items():
        if feature not in FEATURES or any(s not in STONES for s in bag):
            raise GameConfigError(f"mining.toml: bag {feature!r} names an unknown feature/stone")
        if set(data["table"].get(feature, {})) != set(OMENS):
            raise GameConfigError(f"mining.toml: the table row {feature!r} needs all five omens")
    return data


def bag(feature: str) -> dict[str, int]:
    """The stones put into the bag when mining at this feature (§采矿.3)."""
    return dict(mining()["bags"][feature])


MINING_FEATURES: tuple[str, ...] = ("cave", "fissure", "dry_flat", "moraine", "mountain")
"""采矿 needs one of these (§采矿)."""


def table_entry(feature: str, omen: str) -> TableEntry:
    """The mining-table cell at feature × omen (§采矿.5)."""
    cell = mining()["table"][feature][omen]
    return TableEntry(cell["zh"], cell["en"], bool(cell.get("placeholder", False)))


@cache
def resource_data() -> dict[str, Any]:
    """Perishable and hard foods, materials, tool icons (§资源, §加工)."""
    return _load("resources.toml")


@cache
def valley() -> tuple[str, dict[str, TileData]]:
    """The starting tile and the tiles of the starting valley, checked for one-way edges."""
    data = _load("valley.toml")
    tiles = {
        str(t["id"]): TileData(
            str(t["id"]),
            int(t["tray"]),
            tuple(t["features"]),
            tuple(t["neighbours"]),
            tuple(t.get("blocked", ())),
            tuple(t.get("impassable", ())),
            bool(t.get("explored", True)),
            bool(t.get("ruin", False)),
        )
        for t in data["tile"]
    }
    for tile in tiles.values():
        for other in tile.neighbours:
            if other not in tiles or tile.id not in tiles[other].neighbours:
                raise GameConfigError(f"valley.toml: tile {tile.id} and {other} are not mutual")
        unknown = [f for f in tile.features if f not in FEATURES]
        if unknown:
            raise GameConfigError(f"valley.toml: tile {tile.id} has unknown feature {unknown[0]}")
    if data["start"] not in tiles:
        raise GameConfigError(f"valley.toml: start tile {data['start']} is not in the valley")
    return str(data["start"]), tiles


@cache
def region() -> str:
    """The name of the valley's region in valley.toml (what the Log's map page is titled)."""
    return str(_load("valley.toml")["region"])


@cache
def names(kind: str) -> tuple[tuple[str, Text], ...]:
    """Our own name lists in data/names.toml (``characters``, ``buildings``, ``items``): the
    name a move carries and its label; not printed content (see the file)."""
    return tuple((str(n["en"]), Text(n["zh"], n["en"])) for n in _load("names.toml")[kind])


@cache
def campaign() -> dict[str, Any]:
    """Valley capacity by epoch, outpost scale, keep limits, starting tracks, challenges."""
    return _load("campaign.toml")


def challenge(challenge_id: str) -> Challenge:
    """The challenge card of that id; GameConfigError listing the known ones."""
    cards = campaign()["challenges"]
    if challenge_id not in cards:
        raise GameConfigError(
            f"stonesaga has no challenge {challenge_id!r}; known: {', '.join(sorted(cards))}"
        )
    card = cards[challenge_id]
    events = tuple(
        sorted(
            (ChallengeEvent(int(e["threshold"]), Text(e["zh"], e["en"])) for e in card["events"]),
            key=lambda e: e.threshold,
        )
    )
    kind, interval = card.get("kind", "campaign_start"), card.get("interval", "introduction")
    if kind not in CHALLENGE_KINDS or interval not in INTERVALS:
        raise GameConfigError(
            f"campaign.toml: challenge {challenge_id} has kind {kind!r} and interval"
            f" {interval!r}; kinds: {', '.join(CHALLENGE_KINDS)}; intervals: {', '.join(INTERVALS)}"
        )
    title = Text(**card["title"])
    return Challenge(challenge_id, title, card["omen"], events, kind, interval)


def challenges() -> tuple[Challenge, ...]:
    """Every challenge card of data/campaign.toml, by id."""
    return tuple(challenge(c) for c in sorted(campaign()["challenges"]))
