"""The printed content of Don't Starve: the box (``engine.core.box``) as a checked catalogue.

The rule text gives the structure (six needs tiles, a storm marker, four biomes, three shadow
tiers); the numbers printed on cards and boards it does not give come from the box: the demo
box (``engine/dont_starve/data/*.toml``, invented values, each file saying so) with the owner's
items over it. :func:`load_catalogue` turns a box's files into a :class:`Catalogue`, raising
BoxError naming the file and the entry that is wrong; :func:`catalogue` gives the catalogue of
a state's box (or of set-up options, a Box, or the demo box for None), with the cards and tiles
the table entered during that game (``Entered``) beside the box's own.

A ruling that rests on a value of the demo box says so (:func:`noted`, :func:`demo_text`):
``Catalogue.owner`` holds the item ids (``weather/card/autumn-3``) that are the owner's, or
that the table entered; every other item is the demo box's invented value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from engine.core import Text, Verdict
from engine.core.box import (
    Box,
    BoxError,
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

BIOMES: tuple[str, ...] = ("forest", "grassland", "badlands", "marsh")
PORTAL = "portal"
PORTAL_SLOT = "P"
"""The portal's place in every scenario layout."""
SEASONS: tuple[str, ...] = ("autumn", "winter", "spring", "summer")
DIFFICULTIES: tuple[str, ...] = ("classic", "survival", "nightmare")
SYMBOLS: tuple[str, ...] = ("wet", "overheat", "cold")
STORM = "storm"
WORLD_EVENTS: tuple[str, ...] = ("spoil_all", "regrow", "monster_refresh")
NEEDS_KINDS: tuple[str, ...] = ("normal", "hard")
SIDES: tuple[str, ...] = ("day", "night")

PACKAGE = "engine.dont_starve.data"
"""The package holding the demo box's data files."""
FILES = (
    "characters.toml",
    "dice.toml",
    "locations.toml",
    "needs.toml",
    "scenarios.toml",
    "seasons.toml",
    "shadows.toml",
    "tiles.toml",
    "weather.toml",
)
"""The box's data files, as shipped and as a box folder holds them."""


@dataclass(frozen=True)
class CharacterCard:
    """A character's board and card: dials, focus, thresholds, revival values."""

    key: str
    name_zh: str
    name_en: str
    max_health: int
    max_hunger: int
    max_sanity: int
    health: int
    hunger: int
    sanity: int
    focus: int
    focus_thresholds: tuple[tuple[int, int], ...]
    sanity_thresholds: tuple[int, int, int]
    revive: tuple[int, int, int]


@dataclass(frozen=True)
class Slot:
    """One place of a scenario layout, in half-tile units of the tile's top-left corner."""

    name: str
    x: int
    y: int


@dataclass(frozen=True)
class Token:
    """A scenario monster token on a slot."""

    slot: str
    name: str
    cv: int
    damage: int
    hostile: bool


@dataclass(frozen=True)
class Scenario:
    """A scenario card's setup: season, biome counts, layout, monster tokens."""

    key: str
    title_zh: str
    title_en: str
    season: str
    biomes: dict[str, int]
    portal: Slot
    slots: tuple[Slot, ...]
    tokens: tuple[Token, ...]

    def slot(self, name: str) -> Slot | None:
        """The slot of that name (the portal is ``"P"``), or None."""
        if name == self.portal.name:
            return self.portal
        return next((s for s in self.slots if s.name == name), None)

    @property
    def all_slots(self) -> tuple[Slot, ...]:
        """The portal and every other slot."""
        return (self.portal, *self.slots)


@dataclass(frozen=True)
class NeedsTile:
    """One needs tile: its number, normal or hard, with [light, hunger, sanity] on each side."""

    number: int
    kind: str
    day: tuple[int, int, int]
    night: tuple[int, int, int]

    def side(self, side: str) -> tuple[int, int, int]:
        """[light, hunger, sanity] of the side that is up (``day`` or ``night``)."""
        return self.day if side == "day" else self.night


@dataclass(frozen=True)
class SeasonSetup:
    """One difficulty of a season setup card: the needs tiles left to right and the storm."""

    pattern: tuple[tuple[str, str], ...]
    storm_after: int


@dataclass(frozen=True)
class WeatherCard:
    """A weather card: its symbols (with the storm icon), event losses and world events, and
    the title printed on it ("" when the box has none: it is named by its symbols)."""

    id: str
    season: str
    symbols: tuple[str, ...]
    event: tuple[int, int, int]
    world: tuple[str, ...]
    title_zh: str = ""
    title_en: str = ""


@dataclass(frozen=True)
class LocationCard:
    """A location card of a biome deck: title, its monster (hostile or not, CV, damage) and how
    many interactions its mining track allows (地点卡, 怪物, 与地点卡互动)."""

    id: str
    biome: str
    hostile: bool
    mining: int
    monster_cv: int = 0
    damage: int = 1
    title_zh: str = ""
    title_en: str = ""


@dataclass(frozen=True)
class Entered:
    """The cards and tiles the table entered during one game that its box did not hold (with
    draws "table"): used at once, kept in the game's state, and announced for the owner's box
    (``BoxItemEntered``)."""

    weather: tuple[WeatherCard, ...] = ()
    locations: tuple[LocationCard, ...] = ()
    needs: tuple[NeedsTile, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.weather or self.locations or self.needs)


@dataclass(frozen=True)
class Catalogue:
    """The printed content of one box, loaded and checked (with the table's entries)."""

    characters: dict[str, CharacterCard]
    tile_biomes: tuple[str, ...]
    tile_mm: float
    tag_offset_mm: tuple[float, float]
    scenarios: dict[str, Scenario]
    needs_tiles: tuple[NeedsTile, ...]
    seasons: dict[str, dict[str, SeasonSetup]]
    season_names: dict[str, tuple[str, str]]
    weather: tuple[WeatherCard, ...]
    weather_effects: dict[str, dict[str, int]]
    locations: dict[str, tuple[LocationCard, ...]]
    """Biome → its deck's cards."""
    shadow_cv: dict[int, int]
    shadow_dice: dict[int, int]
    dice: dict[str, Any]
    """dice.toml as it is: the faces of the character and monster dice, ``hit_damage``."""
    owner: frozenset[str] = frozenset()
    """The item ids that are the owner's or the table's (every other item is the demo's)."""

    def weather_card(self, card_id: str) -> WeatherCard:
        """The weather card with that id (KeyError naming it when there is none)."""
        for card in self.weather:
            if card.id == card_id:
                return card
        raise KeyError(f"no weather card {card_id!r}")

    def has_weather(self, card_id: str) -> bool:
        """Whether the box (or the table) has a weather card of that id."""
        return any(c.id == card_id for c in self.weather)

    def location(self, card_id: str) -> LocationCard | None:
        """The location card with that id, or None."""
        for cards in self.locations.values():
            for card in cards:
                if card.id == card_id:
                    return card
        return None

    def location_hostile(self, card_id: str) -> bool:
        """Whether the monster of that location card is hostile."""
        card = self.location(card_id)
        return card is not None and card.hostile

    def mining(self, card_id: str) -> int:
        """How many interactions the location card's mining track allows."""
        card = self.location(card_id)
        return 0 if card is None else card.mining

    def needs_tile(self, number: int) -> NeedsTile | None:
        """The needs tile of that number, or None."""
        return next((t for t in self.needs_tiles if t.number == number), None)

    def is_demo(self, item: str) -> bool:
        """Whether the item (``weather/card/autumn-3``) is a demo box's invented value."""
        return item not in self.owner


# --- the box's items, as rulings name them -----------------------------------------------------

TILE_BIOMES = "tiles/biomes"
"""The item saying which printed map tile is of which biome (tiles.toml)."""


def weather_item(card: WeatherCard | str) -> str:
    """The box's item id of a weather card (or of the card with that id)."""
    return f"weather/card/{card if isinstance(card, str) else card.id}"


def location_item(card: LocationCard) -> str:
    """The box's item id of a location card."""
    return f"locations/{card.biome}/{card.id}"


def needs_item(tile: NeedsTile) -> str:
    """The box's item id of a needs tile."""
    return f"needs/tile/{tile.number}"


def character_item(key: str) -> str:
    """The box's item id of a character's card and board."""
    return f"characters/{key}"


def scenario_item(key: str) -> str:
    """The box's item id of a scenario card (its layout, season and monster tokens)."""
    return f"scenarios/{key}"


def shadow_item(tier: int) -> str:
    """The box's item id of a tier of shadow creature cards."""
    return f"shadows/tier/{tier}"


def season_item(season: str) -> str:
    """The box's item id of a season setup card."""
    return f"seasons/{season}"


def weather_title(card: WeatherCard) -> Text:
    """A weather card as players find it: its printed title, else its symbols in order
    (``寒冷 | 风暴 | 寒冷``)."""
    if card.title_zh and card.title_en:
        return Text(card.title_zh, card.title_en)
    return symbols_text(card.symbols)


def location_title(card: LocationCard) -> Text:
    """A location card as players find it: its printed title, else what was entered of it."""
    if card.title_zh and card.title_en:
        return Text(card.title_zh, card.title_en)
    hostile = Text("敌对", "hostile") if card.hostile else Text("中立", "neutral")
    return Text(
        f"{hostile.zh}怪物,战斗值{card.monster_cv},伤害{card.damage}",
        f"{hostile.en} monster, CV {card.monster_cv}, damage {card.damage}",
    )


SYMBOL_WORDS = {
    "wet": Text("潮湿", "wet"),
    "overheat": Text("过热", "overheat"),
    "cold": Text("寒冷", "cold"),
    STORM: Text("风暴", "storm"),
}
"""The symbols of a weather card, the storm icon among them (天气阶段)."""


def symbols_text(symbols: tuple[str, ...] | list[str]) -> Text:
    """A weather card's symbols in printed order, the storm icon splitting them:
    ``寒冷 | 风暴 | 寒冷`` / ``cold | storm | cold``; none: ``无`` / ``none``."""
    names = [SYMBOL_WORDS.get(s, Text(s, s)) for s in symbols]
    if not names:
        return Text("无", "none")
    return Text(" | ".join(n.zh for n in names), " | ".join(n.en for n in names))


def item_name(item: str, cat: Catalogue) -> Text:
    """A printed item of the box as a demo note names it: 天气卡「秋风」 / weather card 'Autumn
    Wind', 角色卡「威尔逊」 / character card of Wilson, 剧本「新的开始」的布局 / layout of
    scenario 'A New Beginning'."""
    kind, _, key = item.rpartition("/")
    if kind == "weather/card":
        card = next((c for c in cat.weather if c.id == key), None)
        title = weather_title(card) if card is not None else Text(key, key)
        return Text(f"天气卡「{title.zh}」", f"weather card '{title.en}'")
    if kind.startswith("locations/"):
        loc = cat.location(key)
        title = location_title(loc) if loc is not None else Text(key, key)
        return Text(f"地点卡「{title.zh}」", f"location card '{title.en}'")
    if kind == "needs/tile":
        return Text(f"{key}号需求板块", f"needs tile {key}")
    if kind == "characters":
        char = cat.characters.get(key)
        zh, en = (char.name_zh, char.name_en) if char is not None else (key, key)
        return Text(f"角色卡「{zh}」", f"character card of {en}")
    if kind == "scenarios":
        sc = cat.scenarios.get(key)
        zh, en = (sc.title_zh, sc.title_en) if sc is not None else (key, key)
        return Text(f"剧本「{zh}」的布局", f"layout of scenario '{en}'")
    if kind == "shadows/tier":
        return Text(f"{key}阶影怪卡", f"tier {key} shadow cards")
    if kind == "seasons":
        zh, en = cat.season_names.get(key, (key, key))
        return Text(f"季节设置卡({zh})", f"{en.lower()} season setup card")
    if item == TILE_BIOMES:
        return Text("地图板块的生态域", "map tile biomes")
    return Text("盒中的数值", "the box's values")


def demo_text(cat: Catalogue, *items: str) -> Text | None:
    """The note a ruling resting on these items adds, naming the first that is the demo box's
    (``engine.core.box.demo_note``); None when they are all the owner's (or the table's)."""
    demo = [i for i in items if cat.is_demo(i)]
    return None if not demo else demo_note(item_name(demo[0], cat))


def noted(verdict: Verdict, cat: Catalogue, *items: str) -> Verdict:
    """The verdict, its message followed by the note of the first of ``items`` that is a demo
    value (as ``engine.core.box.noted``); unchanged when they are all the owner's."""
    note = demo_text(cat, *items)
    if note is None:
        return verdict
    return Verdict(
        verdict.ok, verdict.code, with_note(verdict.message, note), verdict.rule, verdict.params
    )


# --- the catalogue of a box, and of a game ----------------------------------------------------


def demo() -> Box:
    """The shipped demo box (every value invented, marked ``placeholder`` in its files)."""
    return demo_box("dont_starve", PACKAGE, FILES)


def box_of(where: Any = None) -> Box:
    """The box of a state, of set-up options or a Box itself; the demo box for None (where no
    game exists yet: the set-up page's labels, a scan without a box)."""
    return box_in(where, demo())


def catalogue(where: Any = None) -> Catalogue:
    """The catalogue of the box of ``where`` (a State, set-up options, a Box; None: the demo
    box), made once per box; for a State, with the cards and tiles its table entered."""
    box = box_of(where)
    entered = getattr(getattr(where, "data", None), "entered", None)
    if isinstance(entered, Entered) and entered:
        return _with_entered(box, entered)
    return _bound(box)


@lru_cache(maxsize=8)
def _bound(box: Box) -> Catalogue:
    """The box's catalogue (parsed once per box, ``Box.parsed``) with the owner's items."""
    return replace(box.parsed(load_catalogue), owner=frozenset(box.owner))


@lru_cache(maxsize=32)
def _with_entered(box: Box, entered: Entered) -> Catalogue:
    """The box's catalogue with what the table entered beside its own (the table's values,
    never the demo's)."""
    cat = _bound(box)
    locations = {
        b: (*cards, *(c for c in entered.locations if c.biome == b))
        for b, cards in cat.locations.items()
    }
    items = (
        *(weather_item(c) for c in entered.weather),
        *(location_item(c) for c in entered.locations),
        *(needs_item(t) for t in entered.needs),
    )
    return replace(
        cat,
        weather=(*cat.weather, *entered.weather),
        locations=locations,
        needs_tiles=(*cat.needs_tiles, *entered.needs),
        owner=cat.owner | frozenset(items),
    )


# --- how a box's files become a catalogue ----------------------------------------------------


def _num(table: Any, key: str, where: str) -> float:
    value = entry_field(table, key, where)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise entry_problem(where, f"{key} must be a number, not {value!r}")
    return float(value)


def _bool(table: Any, key: str, where: str) -> bool:
    value = entry_field(table, key, where)
    if not isinstance(value, bool):
        raise entry_problem(where, f"{key} must be true or false, not {value!r}")
    return value


def _title(table: Mapping[str, Any], where: str) -> tuple[str, str]:
    """The printed title (both languages, or neither)."""
    zh, en = table.get("title_zh", ""), table.get("title_en", "")
    if not isinstance(zh, str) or not isinstance(en, str) or bool(zh.strip()) != bool(en.strip()):
        raise entry_problem(where, "title_zh and title_en must both be texts (or both left out)")
    return zh.strip(), en.strip()


def _triple(table: Any, key: str, where: str) -> tuple[int, int, int]:
    value = entry_field(table, key, where)
    ok = isinstance(value, list) and len(value) == 3
    if not ok or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in value):
        raise entry_problem(
            where, f"{key} must be three whole numbers of at least 0, not {value!r}"
        )
    return value[0], value[1], value[2]


def _file(files: BoxFiles, name: str) -> Mapping[str, Any]:
    data = files.get(name)
    if not isinstance(data, Mapping):
        raise entry_problem(name, "the file is missing")
    return data


def _entries(data: Mapping[str, Any], key: str, where: str) -> list[Any]:
    entries = entry_field(data, key, where)
    if not isinstance(entries, list) or not entries:
        raise entry_problem(f"{where}, {key}", "must list at least one entry")
    return entries


def _characters(files: BoxFiles) -> dict[str, CharacterCard]:
    out = {}
    for key, c in _file(files, "characters.toml").items():
        where = f"characters.toml, {key}"
        if not isinstance(c, Mapping):
            continue  # a marker of invented values
        thresholds = entry_field(c, "focus_thresholds", where)
        if not isinstance(thresholds, list) or not all(
            isinstance(t, list) and len(t) == 2 and all(isinstance(v, int) for v in t)
            for t in thresholds
        ):
            raise entry_problem(where, "focus_thresholds must be pairs [hunger, focus icons]")
        card = CharacterCard(
            key,
            entry_text(c, "name_zh", where),
            entry_text(c, "name_en", where),
            entry_int(c, "max_health", where, 1),
            entry_int(c, "max_hunger", where, 1),
            entry_int(c, "max_sanity", where, 1),
            entry_int(c, "health", where, 1),
            entry_int(c, "hunger", where),
            entry_int(c, "sanity", where),
            entry_int(c, "focus", where),
            tuple((int(a), int(b)) for a, b in thresholds),
            _triple(c, "sanity_thresholds", where),
            _triple(c, "revive", where),
        )
        for stat in ("health", "hunger", "sanity"):
            if getattr(card, stat) > getattr(card, f"max_{stat}"):
                raise entry_problem(where, f"{stat} {getattr(card, stat)} is above max_{stat}")
        out[key] = card
    if not out:
        raise entry_problem("characters.toml", "names no character")
    return out


def _scenario(key: str, s: Any) -> Scenario:
    where = f"scenarios.toml, {key}"
    portal_at = entry_field(s, "portal", where)
    portal = Slot(
        PORTAL_SLOT,
        entry_int(portal_at, "x", f"{where} portal"),
        entry_int(portal_at, "y", f"{where} portal"),
    )
    slots = tuple(
        Slot(
            str(entry_field(e, "name", f"{where} slots")),
            entry_int(e, "x", f"{where} slot"),
            entry_int(e, "y", f"{where} slot"),
        )
        for e in _entries(s, "slots", where)
    )
    tokens = tuple(
        Token(
            entry_text(t, "slot", f"{where} token"),
            entry_text(t, "name", f"{where} token"),
            entry_int(t, "cv", f"{where} token"),
            entry_int(t, "damage", f"{where} token"),
            _bool(t, "hostile", f"{where} token"),
        )
        for t in s.get("tokens", [])
    )
    biomes_raw = entry_field(s, "biomes", where)
    if not isinstance(biomes_raw, Mapping):
        raise entry_problem(where, "biomes must be a table of biome = count")
    biomes = {b: entry_int(biomes_raw, b, f"{where} biomes") for b in biomes_raw}
    return Scenario(
        key,
        entry_text(s, "title_zh", where),
        entry_text(s, "title_en", where),
        entry_text(s, "season", where),
        biomes,
        portal,
        slots,
        tokens,
    )


def _needs(files: BoxFiles) -> tuple[NeedsTile, ...]:
    tiles = []
    for n, t in enumerate(_entries(_file(files, "needs.toml"), "tile", "needs.toml"), 1):
        label = t.get("number", n) if isinstance(t, Mapping) else n
        where = f"needs.toml, tile {label}"
        kind = entry_text(t, "kind", where)
        if kind not in NEEDS_KINDS:
            raise entry_problem(where, f"kind must be normal or hard, not {kind!r}")
        tiles.append(
            NeedsTile(
                entry_int(t, "number", where, 1),
                kind,
                _triple(t, "day", where),
                _triple(t, "night", where),
            )
        )
    numbers = [t.number for t in tiles]
    twice = next((n for n in numbers if numbers.count(n) > 1), None)
    if twice is not None:
        raise entry_problem(f"needs.toml, tile {twice}", "the number is used twice")
    return tuple(tiles)


def _seasons(
    files: BoxFiles,
) -> tuple[dict[str, dict[str, SeasonSetup]], dict[str, tuple[str, str]]]:
    raw = _file(files, "seasons.toml")
    seasons: dict[str, dict[str, SeasonSetup]] = {}
    names = {}
    for s in SEASONS:
        where = f"seasons.toml, {s}"
        table = entry_field(raw, s, "seasons.toml")
        names[s] = (entry_text(table, "name_zh", where), entry_text(table, "name_en", where))
        seasons[s] = {}
        for d in DIFFICULTIES:
            setup = entry_field(table, d, where)
            pattern = entry_field(setup, "pattern", f"{where} {d}")
            if (
                not isinstance(pattern, list)
                or not pattern
                or not all(
                    isinstance(p, list) and len(p) == 2 and p[0] in NEEDS_KINDS and p[1] in SIDES
                    for p in pattern
                )
            ):
                raise entry_problem(
                    f"{where} {d}", "pattern must list [normal or hard, day or night] tiles"
                )
            seasons[s][d] = SeasonSetup(
                tuple((k, side) for k, side in pattern),
                entry_int(setup, "storm_after", f"{where} {d}"),
            )
    return seasons, names


def _weather(files: BoxFiles) -> tuple[tuple[WeatherCard, ...], dict[str, dict[str, int]]]:
    raw = _file(files, "weather.toml")
    cards = []
    for n, c in enumerate(_entries(raw, "card", "weather.toml"), 1):
        where = f"weather.toml, card {c.get('id', n) if isinstance(c, Mapping) else n}"
        cards.append(weather_entry(c, where))
    ids = [c.id for c in cards]
    twice = next((i for i in ids if ids.count(i) > 1), None)
    if twice is not None:
        raise entry_problem(f"weather.toml, card {twice}", "the id is used twice")
    effects_raw = entry_field(raw, "effects", "weather.toml")
    effects = {}
    for symbol in SYMBOLS:
        table = entry_field(effects_raw, symbol, "weather.toml, effects")
        where = f"weather.toml, effects {symbol}"
        if not isinstance(table, Mapping):
            raise entry_problem(where, "must be a table of stat = loss")
        unknown = [k for k in table if k not in ("health", "hunger", "sanity")]
        if unknown:
            raise entry_problem(where, f"{unknown[0]!r} is not health, hunger or sanity")
        effects[symbol] = {k: entry_int(table, k, where) for k in table}
    return tuple(cards), effects


def weather_entry(c: Any, where: str) -> WeatherCard:
    """One weather card of weather.toml, checked (BoxError naming ``where``): one storm icon,
    the symbols and world events of the rules (天气阶段, 符号参考 天气与需求)."""
    season = entry_text(c, "season", where)
    if season not in SEASONS:
        raise entry_problem(where, f"season must be one of {', '.join(SEASONS)}, not {season!r}")
    symbols = entry_field(c, "symbols", where)
    world = entry_field(c, "world", where)
    if not isinstance(symbols, list) or not all(isinstance(s, str) for s in symbols):
        raise entry_problem(where, "symbols must be a list of names")
    if not isinstance(world, list) or not all(isinstance(w, str) for w in world):
        raise entry_problem(where, "world must be a list of names")
    unknown = [s for s in symbols if s not in (*SYMBOLS, STORM)]
    unknown += [w for w in world if w not in WORLD_EVENTS]
    if unknown:
        raise entry_problem(where, f"{unknown[0]!r} is no weather symbol or world event")
    if symbols.count(STORM) != 1:
        raise entry_problem(where, "needs exactly one storm icon among its symbols")
    zh, en = _title(c, where)
    return WeatherCard(
        entry_text(c, "id", where),
        season,
        tuple(symbols),
        _triple(c, "event", where),
        tuple(world),
        zh,
        en,
    )


def location_entry(c: Any, biome: str, where: str) -> LocationCard:
    """One location card of locations.toml, checked (BoxError naming ``where``)."""
    zh, en = _title(c, where)
    return LocationCard(
        entry_text(c, "id", where),
        biome,
        _bool(c, "hostile", where),
        entry_int(c, "mining", where, 1),
        entry_int(c, "monster_cv", where) if "monster_cv" in c else 0,
        entry_int(c, "damage", where) if "damage" in c else 1,
        zh,
        en,
    )


def _locations(files: BoxFiles) -> dict[str, tuple[LocationCard, ...]]:
    raw = _file(files, "locations.toml")
    out: dict[str, tuple[LocationCard, ...]] = {}
    seen: set[str] = set()
    for biome in BIOMES:
        cards = []
        for n, c in enumerate(_entries(raw, biome, "locations.toml"), 1):
            where = f"locations.toml, {biome} {c.get('id', n) if isinstance(c, Mapping) else n}"
            card = location_entry(c, biome, where)
            if card.id in seen:
                raise entry_problem(where, "the id is used twice")
            seen.add(card.id)
            cards.append(card)
        out[biome] = tuple(cards)
    return out


def _shadows(files: BoxFiles) -> tuple[dict[int, int], dict[int, int]]:
    cv, dice = {}, {}
    for t in _entries(_file(files, "shadows.toml"), "tier", "shadows.toml"):
        tier = entry_int(t, "tier", "shadows.toml, tier", 1)
        where = f"shadows.toml, tier {tier}"
        cv[tier], dice[tier] = entry_int(t, "cv", where), entry_int(t, "shadow_dice", where)
    return cv, dice


DIE_FACES = {
    "character": ("value", "daylight", "success", "durability"),
    "monster": ("hit", "ability", "dodge", "armour", "blank"),
}
"""The symbols each die may show (§骰子, §符号参考)."""


def _dice(files: BoxFiles) -> dict[str, Any]:
    raw = _file(files, "dice.toml")
    entry_int(raw, "hit_damage", "dice.toml, hit_damage")
    for die, symbols in DIE_FACES.items():
        where = f"dice.toml, {die}"
        table = entry_field(raw, die, "dice.toml")
        entry_text(table, "name_zh", where)
        entry_text(table, "name_en", where)
        faces = entry_field(table, "faces", where)
        if (
            not isinstance(faces, list)
            or not faces
            or not all(isinstance(f, list) and f and all(s in symbols for s in f) for f in faces)
        ):
            raise entry_problem(where, f"faces must be lists of symbols among {', '.join(symbols)}")
    return dict(raw)


def load_catalogue(files: BoxFiles) -> Catalogue:
    """The catalogue of a box's files, checked: BoxError naming the file and the entry that is
    wrong (``weather.toml, card autumn-3: needs exactly one storm icon among its symbols``)."""
    tiles = _file(files, "tiles.toml")
    biomes = entry_field(tiles, "biomes", "tiles.toml")
    if not isinstance(biomes, list) or not all(b in (*BIOMES, PORTAL) for b in biomes):
        raise entry_problem(
            "tiles.toml, biomes", f"must list biomes among {', '.join(BIOMES)}, portal"
        )
    if biomes.count(PORTAL) != 1:
        raise entry_problem("tiles.toml, biomes", "must list exactly one portal tile")
    offset = entry_field(tiles, "tag_offset_mm", "tiles.toml")
    if not isinstance(offset, list) or len(offset) != 2:
        raise entry_problem("tiles.toml, tag_offset_mm", "must be [x, y] in millimetres")
    scenarios_raw = _file(files, "scenarios.toml")
    scenarios = {
        key: _scenario(key, s) for key, s in scenarios_raw.items() if isinstance(s, Mapping)
    }
    weather, effects = _weather(files)
    seasons, names = _seasons(files)
    shadow_cv, shadow_dice = _shadows(files)
    cat = Catalogue(
        _characters(files),
        tuple(biomes),
        _num(tiles, "tile_mm", "tiles.toml, tile_mm"),
        (
            _num({"x": offset[0]}, "x", "tiles.toml, tag_offset_mm"),
            _num({"y": offset[1]}, "y", "tiles.toml, tag_offset_mm"),
        ),
        scenarios,
        _needs(files),
        seasons,
        names,
        weather,
        effects,
        _locations(files),
        shadow_cv,
        shadow_dice,
        _dice(files),
    )
    _check(cat)
    return cat


def _check(cat: Catalogue) -> None:
    """What no single entry shows: a scenario asking more tiles than the box has, a season
    card asking more needs tiles than there are, slots that overlap."""
    problems = []
    for sc in cat.scenarios.values():
        where = f"scenarios.toml, {sc.key}"
        if sc.season not in SEASONS:
            problems.append(f"{where}: unknown season {sc.season!r}")
        if sum(sc.biomes.values()) != len(sc.slots):
            problems.append(f"{where}: the biome counts do not add up to the slots")
        for b, n in sc.biomes.items():
            have = cat.tile_biomes.count(b)
            if b not in BIOMES or n > have:
                problems.append(f"{where}: {n} {b} tiles asked, the box has {have}")
        names = [s.name for s in sc.all_slots]
        if len(set(names)) != len(names):
            problems.append(f"{where}: a slot name is used twice")
        places = [(s.x, s.y) for s in sc.all_slots]
        for i, a in enumerate(places):
            if any(abs(a[0] - b[0]) < 2 and abs(a[1] - b[1]) < 2 for b in places[i + 1 :]):
                problems.append(f"{where}: slot {names[i]} overlaps another")
        problems += [
            f"{where}: a token on unknown slot {t.slot!r}" for t in sc.tokens if t.slot not in names
        ]
    for season, setups in cat.seasons.items():
        for difficulty, setup in setups.items():
            where = f"seasons.toml, {season} {difficulty}"
            kinds = [k for k, _ in setup.pattern]
            for kind in NEEDS_KINDS:
                have = sum(t.kind == kind for t in cat.needs_tiles)
                if kinds.count(kind) > have:
                    problems.append(
                        f"{where}: {kinds.count(kind)} {kind} tiles, the box has {have}"
                    )
            if not 0 <= setup.storm_after <= len(setup.pattern):
                problems.append(f"{where}: storm_after is out of range")
    for season in SEASONS:
        if not any(c.season == season for c in cat.weather):
            problems.append(f"weather.toml: no card of season {season}")
    if problems:
        raise BoxError(problems)
