"""Stonesaga's names and its printed content: the catalogue of a box.

Names used in moves and events (English identifiers; the kiosk shows the Chinese):
attributes, traits, omens, features, stones, maladies, resources and their faces, tool icons;
``texts.py`` names the rest (characters, items, tiles) from them and the box's names list.

The printed content the rule text does not give (mining table, starting valley, challenge
cards, outpost scale) is the **box** (``engine.core.box``): the demo box's data files in
``data/`` (every invented value marked ``placeholder``) with the owner's items over them.
``load_catalogue`` checks a box's content and makes the ``Catalogue`` every ruling, picture,
text and offer reads; ``catalogue(state)`` is the catalogue of the box a game is played with
(its options' ``box``), made once per box. Nothing here reads a file: the box does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from engine.core import GameConfigError, Text, Verdict
from engine.core.box import (
    Box,
    BoxFiles,
    box_in,
    demo_box,
    demo_note,
    entry_field,
    entry_int,
    entry_problem,
    entry_text,
    with_note,
)

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


MINING_FEATURES: tuple[str, ...] = ("cave", "fissure", "dry_flat", "moraine", "mountain")
"""采矿 needs one of these (§采矿)."""

CHALLENGE_KINDS = ("campaign_start", "epoch_start", "crisis", "finale")
"""§开局设置.5: the kinds of challenge card, by when in an epoch they are played."""
INTERVALS = ("season", "generation", "epoch", "introduction")
"""§间隔与变老: how long since the last session, printed on each challenge card."""
NAME_KINDS = ("characters", "buildings", "items", "behemoths")
"""The name lists of data/names.toml (our own, not printed content)."""


# --- the catalogue: the printed content of one box -------------------------------------------


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


@dataclass(frozen=True, eq=False)
class MiningData:
    """mining.toml (§采矿): the energy it costs, the draws allowed, the omen on each copy of a
    stone, the bag at each feature and the mining table (feature × omen)."""

    energy: int
    max_draws: int
    omens_per_stone: tuple[str, ...]
    bags: Mapping[str, Mapping[str, int]]
    table: Mapping[str, Mapping[str, TableEntry]]


@dataclass(frozen=True, eq=False)
class ResourceData:
    """resources.toml (§资源, §加工): the kinds of resource and the tool icons."""

    perishable: tuple[str, ...]
    hard: tuple[str, ...]
    materials: tuple[str, ...]
    tools: tuple[str, ...]
    heat: str
    heat_uses: int
    max_processed: int

    @property
    def food(self) -> tuple[str, ...]:
        """Every food (§资源 食物): perishable, then hard."""
        return (*self.perishable, *self.hard)


@dataclass(frozen=True, eq=False)
class CampaignData:
    """campaign.toml's values (§山谷扩张, §建前哨, §局间保留与存档, §开局设置.9)."""

    valley_capacity: Mapping[int, int]
    outpost_limits: tuple[tuple[int, int], ...]
    keep_items: int
    keep_materials: int
    population: int
    unrest: int


@dataclass(frozen=True, eq=False)
class Catalogue:
    """The printed content of one box, checked: what every ruling, picture, text and offer of
    a game reads (``catalogue(state)``), so that an owner's box judges as the demo's does."""

    mining: MiningData
    resources: ResourceData
    campaign: CampaignData
    challenges: Mapping[str, Challenge]
    """Every challenge card, by id, in the file's order."""
    region: str
    start: str
    tiles: Mapping[str, TileData]
    """The starting valley's tiles, by id, in the file's order (tray after tray)."""
    names: Mapping[str, Mapping[str, Text]]
    """Our own name lists (``characters``, ``buildings``, ``items``, ``behemoths``): the name
    a move carries → its label."""
    slots: Mapping[str, tuple[int, int]]
    """Each tile's tray and its slot in the tray (from 0), as valley.toml lays them."""
    owner: frozenset[str] = frozenset()
    """The box's items that are the owner's (every other one is the demo box's invented
    value): a ruling resting on one of the others says so (``noted``)."""

    def is_demo(self, item: str) -> bool:
        """Whether the item (``valley/tile/101``) is the demo box's, not the owner's."""
        return item not in self.owner

    def challenge(self, card_id: str) -> Challenge:
        """The challenge card of that id; GameConfigError listing the known ones."""
        card = self.challenges.get(card_id)
        if card is None:
            known = ", ".join(sorted(self.challenges))
            raise GameConfigError(f"stonesaga has no challenge {card_id!r}; known: {known}")
        return card

    def sorted_challenges(self) -> tuple[Challenge, ...]:
        """Every challenge card, by id."""
        return tuple(self.challenges[c] for c in sorted(self.challenges))

    def bag(self, feature: str) -> dict[str, int]:
        """The stones put into the bag when mining at this feature (§采矿.3)."""
        return dict(self.mining.bags[feature])

    def entry(self, feature: str, omen: str) -> TableEntry:
        """The mining-table cell at feature × omen (§采矿.5)."""
        return self.mining.table[feature][omen]

    def outpost_limit(self, population: int) -> int:
        """§建前哨: how many outposts the population allows (population 8 → 2)."""
        limit = 0
        for lowest, outposts in self.campaign.outpost_limits:
            if population >= lowest:
                limit = outposts
        return limit

    def valley_capacity(self, epoch: int) -> int:
        """§山谷扩张: terrain trays the valley holds: epoch 1 → 4, 2 → 6, 3 → 8."""
        return self.campaign.valley_capacity[epoch]


PACKAGE = "engine.stonesaga.data"
"""The package holding the demo box's data files."""
FILES = ("campaign.toml", "mining.toml", "names.toml", "resources.toml", "valley.toml")
"""The box's data files, as shipped and as a box folder holds them."""


def demo() -> Box:
    """The shipped demo box (every invented value marked ``placeholder`` in its files)."""
    return demo_box("stonesaga", PACKAGE, FILES)


def box_of(where: Any = None) -> Box:
    """The box of a state, of set-up options or a Box itself; the demo box for None (where no
    game exists yet: the set-up page's labels, a scan without a box)."""
    return box_in(where, demo())


def catalogue(where: Any = None) -> Catalogue:
    """The catalogue of the box of a state (or of options, or a Box), made once per box and
    knowing which of its items are the owner's; the demo box's for None (``box_of``)."""
    return _bound(box_of(where))


@lru_cache(maxsize=8)
def _bound(box: Box) -> Catalogue:
    """The box's catalogue (parsed once per box, ``Box.parsed``) with the owner's items."""
    return replace(box.parsed(load_catalogue), owner=frozenset(box.owner))


def challenge(card_id: str, where: Any = None) -> Challenge:
    """The challenge card of that id in the box of ``where`` (``catalogue``)."""
    return catalogue(where).challenge(card_id)


# --- how a box's files become a catalogue ----------------------------------------------------


def _names_of(value: Any, where: str, known: Mapping[str, Any] | None = None) -> tuple[str, ...]:
    """A list of names (each one of ``known``, when given)."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise entry_problem(where, f"must be a list of names, not {value!r}")
    if known is not None:
        unknown = [v for v in value if v not in known]
        if unknown:
            raise entry_problem(where, f"{unknown[0]!r} is not one of {', '.join(known)}")
    return tuple(value)


def _text(value: Any, where: str) -> Text:
    if not isinstance(value, Mapping):
        raise entry_problem(where, "must be a table with zh and en")
    return Text(entry_text(value, "zh", where), entry_text(value, "en", where))


def _load_mining(files: BoxFiles) -> MiningData:
    data = entry_field(files, "mining.toml", "mining.toml")
    energy = entry_int(data, "energy", "mining.toml, energy")
    draws = entry_int(data, "max_draws", "mining.toml, max_draws", 1)
    omens = _names_of(
        entry_field(data, "omens_per_stone", "mining.toml"), "mining.toml, omens_per_stone", OMENS
    )
    if not omens:
        raise entry_problem("mining.toml, omens_per_stone", "names at least one omen")
    bags: dict[str, dict[str, int]] = {}
    for feature, contents in dict(entry_field(data, "bags", "mining.toml")).items():
        where = f"mining.toml, bags {feature}"
        if feature not in FEATURES:
            raise entry_problem(where, f"{feature!r} is not a feature ({', '.join(FEATURES)})")
        if not isinstance(contents, Mapping) or not contents:
            raise entry_problem(where, "must name the stones put into the bag")
        bags[feature] = {stone: entry_int(contents, stone, where, 1) for stone in contents}
        unknown = [s for s in contents if s not in STONES]
        if unknown:
            raise entry_problem(where, f"{unknown[0]!r} is not a stone ({', '.join(STONES)})")
    table: dict[str, dict[str, TableEntry]] = {}
    for feature, row in dict(entry_field(data, "table", "mining.toml")).items():
        where = f"mining.toml, table {feature}"
        if feature not in FEATURES:
            raise entry_problem(where, f"{feature!r} is not a feature ({', '.join(FEATURES)})")
        missing = [o for o in OMENS if not isinstance(row, Mapping) or o not in row]
        if missing:
            raise entry_problem(where, f"needs all five omens; {', '.join(missing)} missing")
        table[feature] = {
            omen: TableEntry(
                entry_text(row[omen], "zh", f"{where} {omen}"),
                entry_text(row[omen], "en", f"{where} {omen}"),
                bool(row[omen].get("placeholder", False)),
            )
            for omen in OMENS
        }
    for feature in MINING_FEATURES:
        if feature not in bags:
            raise entry_problem(
                f"mining.toml, bags {feature}", "missing: §采矿.3 fills a bag there"
            )
        if feature not in table:
            raise entry_problem(f"mining.toml, table {feature}", "missing: §采矿.5 reads it")
    return MiningData(energy, draws, omens, bags, table)


def _load_resources(files: BoxFiles) -> ResourceData:
    data = entry_field(files, "resources.toml", "resources.toml")
    lists = {
        key: _names_of(
            entry_field(data, key, "resources.toml"), f"resources.toml, {key}", RESOURCES
        )
        for key in ("perishable", "hard", "materials")
    }
    tools = _names_of(entry_field(data, "tools", "resources.toml"), "resources.toml, tools")
    heat = entry_text(data, "heat", "resources.toml, heat")
    if heat not in tools:
        raise entry_problem("resources.toml, heat", f"{heat!r} is not one of the tools")
    return ResourceData(
        lists["perishable"],
        lists["hard"],
        lists["materials"],
        tools,
        heat,
        entry_int(data, "heat_uses", "resources.toml, heat_uses", 1),
        entry_int(data, "max_processed", "resources.toml, max_processed", 1),
    )


def _load_valley(files: BoxFiles) -> tuple[str, str, dict[str, TileData]]:
    data = entry_field(files, "valley.toml", "valley.toml")
    entries = entry_field(data, "tile", "valley.toml")
    if not isinstance(entries, list) or not entries:
        raise entry_problem("valley.toml, tile", "must list the valley's tiles")
    tiles: dict[str, TileData] = {}
    for number, t in enumerate(entries):
        where = f"valley.toml, tile {t.get('id', number) if isinstance(t, Mapping) else number}"
        tile_id = str(entry_field(t, "id", where))
        if tile_id in tiles:
            raise entry_problem(where, "is listed twice")
        features = _names_of(entry_field(t, "features", where), f"{where} features", FEATURES)
        lists = {k: _names_of(t.get(k, []), f"{where} {k}") for k in ("blocked", "impassable")}
        tiles[tile_id] = TileData(
            tile_id,
            entry_int(t, "tray", where, 1),
            features,
            _names_of(entry_field(t, "neighbours", where), f"{where} neighbours"),
            lists["blocked"],
            lists["impassable"],
            bool(t.get("explored", True)),
            bool(t.get("ruin", False)),
        )
    for tile in tiles.values():
        where = f"valley.toml, tile {tile.id}"
        for other in tile.neighbours:
            if other not in tiles:
                raise entry_problem(where, f"its neighbour {other} is not in the valley")
            if tile.id not in tiles[other].neighbours:
                raise entry_problem(
                    where, f"lists {other} as a neighbour, but {other} does not list it"
                )
        edges = [o for o in (*tile.blocked, *tile.impassable) if o not in tile.neighbours]
        if edges:
            raise entry_problem(
                where, f"a blocked or impassable edge to {edges[0]}, not a neighbour"
            )
    region = entry_text(data, "region", "valley.toml, region")
    start = str(entry_field(data, "start", "valley.toml, start"))
    if start not in tiles:
        raise entry_problem("valley.toml, start", f"tile {start} is not in the valley")
    return region, start, tiles


def _slots(tiles: Mapping[str, TileData]) -> dict[str, tuple[int, int]]:
    """Each tile's tray and slot in the tray (in the order of valley.toml)."""
    slots: dict[str, tuple[int, int]] = {}
    for tile in tiles.values():
        slots[tile.id] = (tile.tray, sum(1 for t, _ in slots.values() if t == tile.tray))
    return slots


def _load_names(files: BoxFiles) -> dict[str, dict[str, Text]]:
    data = entry_field(files, "names.toml", "names.toml")
    out: dict[str, dict[str, Text]] = {}
    for kind in NAME_KINDS:
        entries = entry_field(data, kind, "names.toml")
        if not isinstance(entries, list):
            raise entry_problem(f"names.toml, {kind}", "must be a list of names with zh and en")
        out[kind] = {}
        for n in entries:
            text = _text(n, f"names.toml, {kind}")
            out[kind][text.en] = text
    return out


def _load_campaign(files: BoxFiles) -> tuple[CampaignData, dict[str, Challenge]]:
    data = entry_field(files, "campaign.toml", "campaign.toml")
    where = "campaign.toml, valley_capacity"
    capacity = entry_field(data, "valley_capacity", "campaign.toml")
    if not isinstance(capacity, Mapping):
        raise entry_problem(where, "must give the trays of epochs 1, 2 and 3")
    trays = {epoch: entry_int(capacity, str(epoch), where, 1) for epoch in (1, 2, 3)}
    where = "campaign.toml, outpost_limits"
    rows = entry_field(data, "outpost_limits", "campaign.toml")
    if (
        not isinstance(rows, list)
        or not rows
        or not all(
            isinstance(r, list) and len(r) == 2 and all(isinstance(v, int) and v >= 0 for v in r)
            for r in rows
        )
    ):
        raise entry_problem(where, "must be rows of [lowest population, outposts]")
    limits = tuple(sorted((int(r[0]), int(r[1])) for r in rows))
    values = CampaignData(
        trays,
        limits,
        entry_int(data, "keep_items", "campaign.toml, keep_items"),
        entry_int(data, "keep_materials", "campaign.toml, keep_materials"),
        entry_int(data, "population", "campaign.toml, population"),
        entry_int(data, "unrest", "campaign.toml, unrest"),
    )
    cards: dict[str, Challenge] = {}
    for card_id, card in dict(entry_field(data, "challenges", "campaign.toml")).items():
        cards[card_id] = _load_challenge(card_id, card)
    if not cards:
        raise entry_problem("campaign.toml, challenges", "must hold at least one challenge card")
    return values, cards


def _load_challenge(card_id: str, card: Any) -> Challenge:
    where = f"campaign.toml, challenges {card_id}"
    kind = entry_text(card, "kind", where)
    interval = entry_text(card, "interval", where)
    omen = entry_text(card, "omen", where)
    if kind not in CHALLENGE_KINDS:
        raise entry_problem(where, f"kind {kind!r} is not one of {', '.join(CHALLENGE_KINDS)}")
    if interval not in INTERVALS:
        raise entry_problem(where, f"interval {interval!r} is not one of {', '.join(INTERVALS)}")
    if omen not in OMENS:
        raise entry_problem(where, f"omen {omen!r} is not one of {', '.join(OMENS)}")
    events = entry_field(card, "events", where)
    if not isinstance(events, list):
        raise entry_problem(where, "events must be a list of {threshold, zh, en}")
    parsed = tuple(
        sorted(
            (
                ChallengeEvent(
                    entry_int(e, "threshold", f"{where} events", 1), _text(e, f"{where}")
                )
                for e in events
            ),
            key=lambda e: e.threshold,
        )
    )
    title = _text(entry_field(card, "title", where), f"{where} title")
    return Challenge(card_id, title, omen, parsed, kind, interval)


def load_catalogue(files: BoxFiles) -> Catalogue:
    """The catalogue made from a box's content (file name → its tables), checked: BoxError
    naming the file and the entry (``mining.toml, table cave: needs all five omens; sun
    missing``). No file is read here: the box brings the content."""
    campaign_values, cards = _load_campaign(files)
    region, start, tiles = _load_valley(files)
    return Catalogue(
        mining=_load_mining(files),
        resources=_load_resources(files),
        campaign=campaign_values,
        challenges=cards,
        region=region,
        start=start,
        tiles=tiles,
        names=_load_names(files),
        slots=_slots(tiles),
    )


# --- what a ruling resting on a demo value says ----------------------------------------------


def valley_item(tile: str) -> str:
    """The box's item of a tile of the starting valley (``valley/tile/101``)."""
    return f"valley/tile/{tile}"


def table_item(feature: str) -> str:
    """The box's item of one row of the mining table (``mining/table/cave``)."""
    return f"mining/table/{feature}"


def challenge_item(card_id: str) -> str:
    """The box's item of a challenge card (``campaign/challenges/GI01``)."""
    return f"campaign/challenges/{card_id}"


OUTPOST_SCALE = "campaign/outpost_limits"
"""The box's item of the outpost scale (§建前哨: population → outposts)."""


def item_name(item: str, cat: Catalogue) -> Text:
    """A printed item of the box as a demo note names it: 地块101 / tile 101, 采矿表洞穴一行 /
    the mining table's cave row, 挑战卡「活过今夜」/ challenge card 'Survive the Night'."""
    kind, _, key = item.rpartition("/")
    if kind == "valley/tile":
        return Text(f"地块{key}", f"tile {key}")
    if kind == "mining/table":
        feature = FEATURES.get(key, Text(key, key))
        return Text(f"采矿表{feature.zh}一行", f"mining table's {feature.en} row")
    if kind == "campaign/challenges":
        title = cat.challenges[key].title if key in cat.challenges else Text(key, key)
        return Text(f"挑战卡「{title.zh}」", f"challenge card '{title.en}'")
    if item == OUTPOST_SCALE:
        return Text("前哨上限表", "outpost scale")
    return Text(item, item)


def demo_text(cat: Catalogue, *items: str) -> Text | None:
    """The note a ruling resting on these items adds, naming the first that is the demo
    box's (``engine.core.box.demo_note``); None when they are all the owner's."""
    demo_ones = [i for i in items if cat.is_demo(i)]
    if not demo_ones:
        return None
    return demo_note(item_name(demo_ones[0], cat))


def noted(verdict: Verdict, cat: Catalogue, *items: str) -> Verdict:
    """The verdict, its message followed by the note of the first of ``items`` that is a demo
    value (as ``engine.core.box.noted``); unchanged when they are all the owner's."""
    note = demo_text(cat, *items)
    if note is None:
        return verdict
    message = with_note(verdict.message, note)
    return Verdict(verdict.ok, verdict.code, message, verdict.rule, verdict.params)
