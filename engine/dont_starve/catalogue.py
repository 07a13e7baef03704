"""The printed content of Don't Starve as editable data: ``engine/dont_starve/data/*.toml``.

The rule text gives the structure (six needs tiles, a storm marker, four biomes, three shadow
tiers); the numbers printed on cards and boards it does not give are placeholders in the TOML
files, each file saying so. Everything is loaded once and checked; a bad file raises
GameConfigError naming the file and the entry.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from engine.core import GameConfigError

BIOMES: tuple[str, ...] = ("forest", "grassland", "badlands", "marsh")
PORTAL = "portal"
SEASONS: tuple[str, ...] = ("autumn", "winter", "spring", "summer")
DIFFICULTIES: tuple[str, ...] = ("classic", "survival", "nightmare")
SYMBOLS: tuple[str, ...] = ("wet", "overheat", "cold")
STORM = "storm"
WORLD_EVENTS: tuple[str, ...] = ("spoil_all", "regrow", "monster_refresh")


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
    """One needs tile: normal or hard, with [light, hunger, sanity] on each side."""

    kind: str
    day: tuple[int, int, int]
    night: tuple[int, int, int]


@dataclass(frozen=True)
class SeasonSetup:
    """One difficulty of a season setup card: the needs tiles left to right and the storm."""

    pattern: tuple[tuple[str, str], ...]
    storm_after: int


@dataclass(frozen=True)
class WeatherCard:
    """A weather card: its symbols (with the storm icon), event losses and world events."""

    id: str
    season: str
    symbols: tuple[str, ...]
    event: tuple[int, int, int]
    world: tuple[str, ...]


@dataclass(frozen=True)
class Catalogue:
    """All the game's data files, loaded and checked."""

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
    locations: dict[str, tuple[tuple[str, bool], ...]]
    mining: dict[str, int]
    """Location card → interactions its mining track allows."""
    shadow_cv: dict[int, int]
    shadow_dice: dict[int, int]

    def weather_card(self, card_id: str) -> WeatherCard:
        """The weather card with that id."""
        return next(c for c in self.weather if c.id == card_id)

    def location_hostile(self, card_id: str) -> bool:
        """Whether the monster of that location card is hostile."""
        return any(h for cards in self.locations.values() for c, h in cards if c == card_id)


PORTAL_SLOT = "P"


def _read(name: str) -> dict[str, Any]:
    try:
        text = resources.files("engine.dont_starve.data").joinpath(name).read_text("utf-8")
        return tomllib.loads(text)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise GameConfigError(f"dont_starve data file {name}: {exc}") from None


def _triple(value: Any) -> tuple[int, int, int]:
    a, b, c = (int(v) for v in value)
    return a, b, c


@cache
def catalogue() -> Catalogue:
    """Every data file, loaded once; GameConfigError names the file and entry that is wrong."""
    where = "characters.toml"
    try:
        chars = {
            key: CharacterCard(
                key,
                c["name_zh"],
                c["name_en"],
                int(c["max_health"]),
                int(c["max_hunger"]),
                int(c["max_sanity"]),
                int(c["health"]),
                int(c["hunger"]),
                int(c["sanity"]),
                int(c["focus"]),
                tuple((int(a), int(b)) for a, b in c["focus_thresholds"]),
                _triple(c["sanity_thresholds"]),
                _triple(c["revive"]),
            )
            for key, c in _read(where).items()
        }
        where = "tiles.toml"
        tiles = _read(where)
        where = "scenarios.toml"
        scenarios = {key: _scenario(key, s) for key, s in _read(where).items()}
        where = "needs.toml"
        needs = tuple(
            NeedsTile(t["kind"], _triple(t["day"]), _triple(t["night"]))
            for t in _read(where)["tile"]
        )
        where = "seasons.toml"
        seasons_raw = _read(where)
        seasons = {
            s: {
                d: SeasonSetup(
                    tuple((k, side) for k, side in seasons_raw[s][d]["pattern"]),
                    int(seasons_raw[s][d]["storm_after"]),
                )
                for d in DIFFICULTIES
            }
            for s in SEASONS
        }
        names = {s: (seasons_raw[s]["name_zh"], seasons_raw[s]["name_en"]) for s in SEASONS}
        where = "weather.toml"
        weather_raw = _read(where)
        weather = tuple(
            WeatherCard(
                c["id"], c["season"], tuple(c["symbols"]), _triple(c["event"]), tuple(c["world"])
            )
            for c in weather_raw["card"]
        )
        effects = {k: {s: int(n) for s, n in v.items()} for k, v in weather_raw["effects"].items()}
        where = "locations.toml"
        loc_raw = _read(where)
        locations = {b: tuple((c["id"], bool(c["hostile"])) for c in loc_raw[b]) for b in BIOMES}
        mining = {c["id"]: int(c["mining"]) for b in BIOMES for c in loc_raw[b]}
        where = "shadows.toml"
        tiers = _read(where)["tier"]
    except (KeyError, TypeError, ValueError) as exc:
        raise GameConfigError(f"dont_starve data file {where}: bad or missing {exc}") from None
    cat = Catalogue(
        chars,
        tuple(tiles["biomes"]),
        float(tiles["tile_mm"]),
        (float(tiles["tag_offset_mm"][0]), float(tiles["tag_offset_mm"][1])),
        scenarios,
        needs,
        seasons,
        names,
        weather,
        effects,
        locations,
        mining,
        {int(t["tier"]): int(t["cv"]) for t in tiers},
        {int(t["tier"]): int(t["shadow_dice"]) for t in tiers},
    )
    _check(cat)
    return cat


def _scenario(key: str, s: dict[str, Any]) -> Scenario:
    portal = Slot(PORTAL_SLOT, int(s["portal"]["x"]), int(s["portal"]["y"]))
    slots = tuple(Slot(str(e["name"]), int(e["x"]), int(e["y"])) for e in s["slots"])
    tokens = tuple(
        Token(t["slot"], t["name"], int(t["cv"]), int(t["damage"]), bool(t["hostile"]))
        for t in s.get("tokens", [])
    )
    biomes = {b: int(n) for b, n in s["biomes"].items()}
    return Scenario(key, s["title_zh"], s["title_en"], s["season"], biomes, portal, slots, tokens)


def _check(cat: Catalogue) -> None:
    problems = []
    for sc in cat.scenarios.values():
        if sc.season not in SEASONS:
            problems.append(f"scenarios.toml {sc.key}: unknown season {sc.season!r}")
        if sum(sc.biomes.values()) != len(sc.slots):
            problems.append(f"scenarios.toml {sc.key}: biome counts do not add up to the slots")
        for b, n in sc.biomes.items():
            have = cat.tile_biomes.count(b)
            if b not in BIOMES or n > have:
                problems.append(f"scenarios.toml {sc.key}: {n} {b} tiles asked, {have} exist")
        names = [s.name for s in sc.all_slots]
        if len(set(names)) != len(names):
            problems.append(f"scenarios.toml {sc.key}: a slot name is used twice")
        places = [(s.x, s.y) for s in sc.all_slots]
        for i, a in enumerate(places):
            if any(abs(a[0] - b[0]) < 2 and abs(a[1] - b[1]) < 2 for b in places[i + 1 :]):
                problems.append(f"scenarios.toml {sc.key}: slot {names[i]} overlaps another")
        problems += [
            f"scenarios.toml {sc.key}: token on unknown slot {t.slot!r}"
            for t in sc.tokens
            if t.slot not in names
        ]
    for season, setups in cat.seasons.items():
        for difficulty, setup in setups.items():
            kinds = [k for k, _ in setup.pattern]
            for kind in ("normal", "hard"):
                have = sum(t.kind == kind for t in cat.needs_tiles)
                if kinds.count(kind) > have:
                    problems.append(f"seasons.toml {season}.{difficulty}: too many {kind} tiles")
            if not 0 <= setup.storm_after <= len(setup.pattern):
                problems.append(f"seasons.toml {season}.{difficulty}: storm_after out of range")
    for card in cat.weather:
        unknown = [s for s in card.symbols if s not in (*SYMBOLS, STORM)]
        unknown += [w for w in card.world if w not in WORLD_EVENTS]
        if unknown or card.symbols.count(STORM) != 1:
            problems.append(f"weather.toml {card.id}: needs one storm icon; unknown {unknown}")
    if problems:
        raise GameConfigError("dont_starve data: " + "; ".join(problems))
