"""Don't Starve's rules, part 3: what the table drew (draws "table"; DESIGN.md "Chance comes
from the table").

With draws "table" the engine draws no card and deals no tile: each draw is a state of the
game whose outcome the table gives, and the rules check it.

- The weather card turned up (at set-up, §季节与难度, and in each preparation phase,
  §准备阶段 抽取天气卡) and the needs tile lying leftmost (laid at set-up, §需求板块): given
  before the round's first action (``dont_starve.weather_card``, ``dont_starve.needs_tile``), by
  the box's card or tile, or entered by what it shows. A card of another season, one already
  drawn, a tile of the wrong kind for its place or one already laid are refused.
- The location card drawn when exploring (§探索): given by the explorer
  (``dont_starve.location_card``) before anything else; a card of another biome's deck or one
  that is out (on a tile, in the discards) is refused.
- The biome of a face-down tile turned over by a move (§移动): part of the move itself
  (``dont_starve.move``'s ``biome``, read by the camera from the tile or picked at the console).

A card or tile entered that the box does not hold is used at once (``DSData.entered``) and
announced for the owner's box (``BoxItemEntered``), with a fresh id.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from engine.core import ACCEPTED, DicePoolAnnounced, Event, InProgress, State, Text, Verdict
from engine.core.box import BoxError
from engine.core.vocabulary import BoxItemEntered
from engine.dont_starve import reasons as R
from engine.dont_starve.catalogue import (
    BIOMES,
    NEEDS_KINDS,
    SEASONS,
    STORM,
    SYMBOLS,
    Catalogue,
    LocationCard,
    NeedsTile,
    WeatherCard,
    catalogue,
    location_item,
    needs_item,
    weather_item,
)
from engine.dont_starve.common import finish_turn, hostile_here, with_data
from engine.dont_starve.moves import (
    DrawLocation,
    DrawWeather,
    LayNeedsTile,
    LocationExplored,
    NeedsTileLaid,
    WeatherDrawn,
)
from engine.dont_starve.state import DSData
from engine.dont_starve.texts import BIOME_NAMES, KIND_WORDS, season_name, tile_called

Events = tuple[Event, ...]
S = State[DSData]
GAME = "dont_starve"

SYMBOLS_MAX = 4
"""The most symbols of one kind on one side of a weather card's storm icon an entry takes."""
EVENT_MAX = 5
"""The most a weather event takes of one stat, as an entry takes it."""
NEEDS_MAX = 5
"""The most light, hunger or sanity a needs tile's side asks for, as an entry takes it."""
MONSTER_CV_MAX = 10
DAMAGE_MAX = 5
MINING_MAX = 6
"""The longest mining track (interactions before 已开采) an entered location card has."""

ROUND_MOVES = frozenset({DrawWeather.type, LayNeedsTile.type})
"""Before the round's first action: the weather card and the needs tile the table gives."""
LOCATION_MOVES = frozenset({DrawLocation.type})
"""While an explore waits for its card: the card the explorer drew."""


def in_progress(state: S) -> InProgress | None:
    """The table's draw waiting to be given, if any (``Game.in_progress``): the location card
    an explorer drew (the explorer gives it), else, as a round's action phase begins, the
    weather card turned up and the leftmost needs tile (any seat gives them)."""
    data = state.data
    if state.flow.phase != "action" or data.result:
        return None
    if data.exploring is not None:
        seat = data.exploring[0]
        return InProgress(seat, R.LOCATION_DUE.reject(player=seat + 1), LOCATION_MOVES)
    if data.weather_due:
        return InProgress(None, R.WEATHER_DUE.reject(), ROUND_MOVES)
    if data.needs_due:
        return InProgress(None, R.NEEDS_DUE.reject(), ROUND_MOVES)
    return None


def _entry(json_value: Mapping[str, object]) -> str:
    """An entry as the data file writes it, as JSON text (``BoxItemEntered.value``)."""
    return json.dumps(json_value, ensure_ascii=False)


def _fresh(prefix: str, taken: Iterable[str]) -> str:
    """An id for an entered card that no card of the box (or of this game) has yet."""
    used = set(taken)
    n = 1
    while f"{prefix}-t{n}" in used:
        n += 1
    return f"{prefix}-t{n}"


def _range(what: Text, values: Iterable[int], low: int, high: int) -> Verdict | None:
    if any(not low <= v <= high for v in values):
        return R.BAD_ENTRY.reject(what=what, low=low, high=high)
    return None


# --- the weather card ------------------------------------------------------------------------


def _season_drawn(cat: Catalogue, data: DSData) -> bool:
    """Whether every card of the season the box (and the table) knows is drawn: the deck is
    used up, so its discards were shuffled into a new one (as §探索 does for a biome deck)."""
    season = {c.id for c in cat.weather if c.season == data.season}
    return season <= set(data.weather_drawn)


def check_weather(state: S, move: DrawWeather) -> Verdict:
    """The weather card the table drew: one is due; a card of the box is of the game's season
    (§季节与难度: the other seasons' cards go back in the box) and not drawn already this game
    (§准备阶段: drawn cards are discarded); an entry is of the game's season, its counts within
    what a card prints and each world event named once."""
    data, cat = state.data, catalogue(state)
    if not data.weather_due:
        return R.NO_WEATHER_DUE.reject()
    if move.card:
        if not cat.has_weather(move.card):
            return R.UNKNOWN_CARD.reject()
        card = cat.weather_card(move.card)
        if card.season != data.season:
            return R.WRONG_SEASON.reject(
                card=season_name(cat, card.season), season=season_name(cat, data.season)
            )
        if card.id in data.weather_drawn and not _season_drawn(cat, data):
            return R.WEATHER_DRAWN.reject()
        return ACCEPTED
    if move.season and move.season != data.season:
        return R.WRONG_SEASON.reject(
            card=season_name(cat, move.season), season=season_name(cat, data.season)
        )
    counts = (
        move.left_wet,
        move.left_overheat,
        move.left_cold,
        move.right_wet,
        move.right_overheat,
        move.right_cold,
    )
    losses = (move.health, move.hunger, move.sanity)
    for bad in (
        _range(Text("每种符号的个数", "each symbol's count"), counts, 0, SYMBOLS_MAX),
        _range(Text("天气事件的损失", "the weather event's losses"), losses, 0, EVENT_MAX),
    ):
        if bad is not None:
            return bad
    if len(set(move.world)) != len(move.world):
        return R.WORLD_TWICE.reject()
    return ACCEPTED


def entered_weather(cat: Catalogue, data: DSData, move: DrawWeather) -> WeatherCard:
    """The card an entry describes: its symbols left of the storm icon, the icon, the symbols
    right of it (``weather_symbols``), with a fresh id."""
    card_id = _fresh(data.season, (c.id for c in cat.weather))
    event = (move.health, move.hunger, move.sanity)
    return WeatherCard(card_id, data.season, weather_symbols(vars(move)), event, tuple(move.world))


def weather_symbols(counts: Mapping[str, Any]) -> tuple[str, ...]:
    """A weather card's symbols from how many of each lie left and right of the storm icon
    (``left_wet``… ``right_cold``): each side wet, overheat, cold (their order on one side does
    not change the weather, §天气需求), the storm icon between."""

    def side(name: str) -> list[str]:
        return [s for s in SYMBOLS for _ in range(int(counts.get(f"{name}_{s}", 0)))]

    return (*side("left"), STORM, *side("right"))


def copied_weather(cat: Catalogue, values: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """A weather card copied at the "Your box" page from what it shows (``weather_fields``,
    its ``season`` and optional printed ``title``): the item and its value as weather.toml
    writes it. It takes the place of the season's first demo card the owner has not copied
    (a deck copied card by card replaces the invented one), else a fresh id. BoxError when a
    count is out of what a card prints."""
    season = str(values.get("season", ""))
    if season not in SEASONS:
        raise BoxError([f"weather.toml, card: season must be one of {', '.join(SEASONS)}"])
    counts = [int(values.get(f"{side}_{s}", 0)) for side in ("left", "right") for s in SYMBOLS]
    losses = [int(values.get(stat, 0)) for stat in ("health", "hunger", "sanity")]
    if any(not 0 <= n <= SYMBOLS_MAX for n in counts) or any(
        not 0 <= n <= EVENT_MAX for n in losses
    ):
        limits = f"counts are 0 to {SYMBOLS_MAX}, losses 0 to {EVENT_MAX}"
        raise BoxError([f"weather.toml, card: {limits}"])
    ids = [c.id for c in cat.weather if c.season == season]
    demo = [i for i in ids if cat.is_demo(weather_item(i))]
    card_id = demo[0] if demo else _fresh(season, (c.id for c in cat.weather))
    title = str(values.get("title") or "").strip()
    value: dict[str, Any] = {
        "id": card_id,
        "season": season,
        "symbols": list(weather_symbols(values)),
        "event": losses,
        "world": [str(w) for w in values.get("world") or []],
    }
    if title:
        value.update(title_zh=title, title_en=title)
    return weather_item(card_id), value


def play_weather(state: S, move: DrawWeather) -> tuple[S, Events]:
    """The card is face up for this round's weather phase; an entered one is the game's from
    now on and is announced for the owner's box."""
    data, cat = state.data, catalogue(state)
    events: list[Event] = []
    if move.card:
        card = cat.weather_card(move.card)
    else:
        card = entered_weather(cat, data, move)
        data = replace(data, entered=replace(data.entered, weather=(*data.entered.weather, card)))
    drawn = data.weather_drawn
    if card.id in drawn:  # the deck was used up: its discards were shuffled into a new one
        drawn = ()
    data = replace(data, weather=card.id, weather_due=False, weather_drawn=(*drawn, card.id))
    events.append(WeatherDrawn(card.id, card.symbols))
    if not move.card:
        value = {
            "id": card.id,
            "season": card.season,
            "symbols": list(card.symbols),
            "event": list(card.event),
            "world": list(card.world),
        }
        events.append(BoxItemEntered(GAME, weather_item(card), _entry(value)))
    return with_data(state, data), tuple(events)


def copied_needs(cat: Catalogue, values: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """A needs tile copied at the "Your box" page from its ``kind`` and the values of its two
    sides (``needs_fields``): in place of the first demo tile of its kind the owner has not
    copied, else a new number. BoxError when a value is out of what a tile prints."""
    kind = str(values.get("kind", ""))
    if kind not in NEEDS_KINDS:
        raise BoxError([f"needs.toml, tile: kind must be one of {', '.join(NEEDS_KINDS)}"])
    sides = {
        side: [int(values.get(f"{side}_{stat}", 0)) for stat in ("light", "hunger", "sanity")]
        for side in ("day", "night")
    }
    if any(not 0 <= n <= NEEDS_MAX for side in sides.values() for n in side):
        raise BoxError([f"needs.toml, tile: each value is 0 to {NEEDS_MAX}"])
    demo = [t.number for t in cat.needs_tiles if t.kind == kind and cat.is_demo(needs_item(t))]
    number = demo[0] if demo else max((t.number for t in cat.needs_tiles), default=0) + 1
    item = f"needs/tile/{number}"
    return item, {"number": number, "kind": kind, "day": sides["day"], "night": sides["night"]}


def copied_location(cat: Catalogue, values: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """A location card copied at the "Your box" page from its ``biome`` deck, its monster and
    its mining track (``location_fields``) and an optional printed ``title``: in place of the
    deck's first demo card the owner has not copied, else a fresh id."""
    biome = str(values.get("biome", ""))
    if biome not in BIOMES:
        raise BoxError([f"locations.toml: the deck must be one of {', '.join(BIOMES)}"])
    deck = cat.locations.get(biome, ())
    demo = [c.id for c in deck if cat.is_demo(location_item(c))]
    taken = (c.id for cards in cat.locations.values() for c in cards)
    card_id = demo[0] if demo else _fresh(biome, taken)
    value: dict[str, Any] = {
        "id": card_id,
        "hostile": bool(values.get("hostile")),
        "monster_cv": int(values.get("monster_cv", 0)),
        "damage": int(values.get("damage", 1)),
        "mining": int(values.get("mining", 1)),
    }
    title = str(values.get("title") or "").strip()
    if title:
        value.update(title_zh=title, title_en=title)
    return f"locations/{biome}/{card_id}", value


# --- the needs tile ---------------------------------------------------------------------------


def due_kind(cat: Catalogue, data: DSData) -> str:
    """The kind of needs tile (normal or hard) the season setup card puts at the leftmost
    place now (§季节与难度)."""
    pattern = cat.seasons[data.season][data.difficulty].pattern
    at = min(data.needs_removed, len(pattern) - 1)
    return pattern[at][0]


def check_needs(state: S, move: LayNeedsTile) -> Verdict:
    """The leftmost needs tile: one is due; a tile of the box is the kind the season setup
    card puts there and was not laid before this game; an entry is of that kind, its values
    within what a tile prints (§季节与难度, §需求板块)."""
    data, cat = state.data, catalogue(state)
    if not data.needs_due:
        return R.NO_NEEDS_DUE.reject()
    want = due_kind(cat, data)
    if move.tile:
        tile = cat.needs_tile(move.tile)
        if tile is None:
            return R.UNKNOWN_TILE.reject(tile=move.tile)
        if tile.kind != want:
            return R.NEEDS_WRONG_KIND.reject(want=KIND_WORDS[want], kind=KIND_WORDS[tile.kind])
        if tile.number in data.needs_laid:
            return R.NEEDS_TILE_USED.reject(tile=tile.number)
        return ACCEPTED
    if move.kind != want:
        return R.NEEDS_WRONG_KIND.reject(want=KIND_WORDS[want], kind=KIND_WORDS[move.kind])
    values = (
        move.day_light,
        move.day_hunger,
        move.day_sanity,
        move.night_light,
        move.night_hunger,
        move.night_sanity,
    )
    bad = _range(Text("光照、饥饿、理智", "light, hunger and sanity"), values, 0, NEEDS_MAX)
    return ACCEPTED if bad is None else bad


def play_needs(state: S, move: LayNeedsTile) -> tuple[S, Events]:
    """The tile lies leftmost, its side up as the season setup card says; an entered one is
    the game's from now on and is announced for the owner's box."""
    data, cat = state.data, catalogue(state)
    events: list[Event] = []
    tile = cat.needs_tile(move.tile) if move.tile else None
    if tile is None:
        number = max((t.number for t in cat.needs_tiles), default=0) + 1
        day = (move.day_light, move.day_hunger, move.day_sanity)
        night = (move.night_light, move.night_hunger, move.night_sanity)
        tile = NeedsTile(number, move.kind, day, night)
        data = replace(data, entered=replace(data.entered, needs=(*data.entered.needs, tile)))
        value = {"number": number, "kind": tile.kind, "day": list(day), "night": list(night)}
        events.append(BoxItemEntered(GAME, needs_item(tile), _entry(value)))
    side = data.needs[0][1]
    needs = ((tile.number, side), *data.needs[1:])
    data = replace(data, needs=needs, needs_laid=(*data.needs_laid, tile.number))
    light, hunger, sanity = tile.side(side)
    events.insert(0, NeedsTileLaid(tile.number, side, light, hunger, sanity))
    return with_data(state, data), tuple(events)


# --- the location card ------------------------------------------------------------------------


def _out(data: DSData, card_id: str) -> str | None:
    """Where a location card is when it is not in its deck: a tile, or the discards."""
    tile = next((t for t, c in data.locations if c == card_id), None)
    if tile is not None:
        return tile
    if any(card_id in cards for _, cards in data.discards):
        return "discards"
    return None


def _deck_used_up(cat: Catalogue, data: DSData, biome: str) -> bool:
    """Whether every card of the biome's deck the box (and the table) knows is out: the deck is
    empty, so its discards are shuffled into a new one (§探索)."""
    return all(_out(data, c.id) is not None for c in cat.locations.get(biome, ()))


def check_location(state: S, move: DrawLocation) -> Verdict:
    """The location card the explorer drew: one is due and the explorer gives it; a card of
    the box is of the tile's biome deck and in that deck (not on a tile, not in the discards
    unless the deck ran out and they were shuffled back, §探索); an entry's monster and mining
    track within what a card prints."""
    data, cat = state.data, catalogue(state)
    if data.exploring is None or data.exploring[0] != move.seat:
        return R.NO_LOCATION_DUE.reject()
    tile = data.exploring[1]
    biome = data.biome_of(tile) or ""
    if move.card:
        card = cat.location(move.card)
        if card is None:
            return R.UNKNOWN_CARD.reject()
        if card.biome != biome:
            return R.WRONG_DECK.reject(
                deck=BIOME_NAMES[card.biome], tile=tile_called(tile), biome=BIOME_NAMES[biome]
            )
        where = _out(data, card.id)
        if where == "discards" and _deck_used_up(cat, data, biome):
            return ACCEPTED
        if where == "discards":
            return R.LOCATION_OUT.reject(where=Text("在弃牌堆里", "it is in the discards"))
        if where is not None:
            on = tile_called(where)
            return R.LOCATION_OUT.reject(where=Text(f"在{on.zh}上", f"it lies on {on.en}"))
        return ACCEPTED
    for bad in (
        _range(Text("怪物战斗值", "the monster's CV"), (move.monster_cv,), 0, MONSTER_CV_MAX),
        _range(Text("怪物伤害值", "the monster's damage"), (move.damage,), 0, DAMAGE_MAX),
        _range(Text("开采计量条", "the mining track"), (move.mining,), 1, MINING_MAX),
    ):
        if bad is not None:
            return bad
    return ACCEPTED


def play_location(state: S, move: DrawLocation) -> tuple[S, Events]:
    """The card goes face up on the explored tile: the explore completes (``place``); an
    entered card is the game's from now on and is announced for the owner's box."""
    data, cat = state.data, catalogue(state)
    assert data.exploring is not None
    seat, tile = data.exploring
    biome = data.biome_of(tile) or ""
    events: list[Event] = []
    card = cat.location(move.card) if move.card else None
    if card is None:
        taken = (c.id for cards in cat.locations.values() for c in cards)
        card = LocationCard(
            _fresh(biome, taken), biome, move.hostile, move.mining, move.monster_cv, move.damage
        )
        entered = replace(data.entered, locations=(*data.entered.locations, card))
        data = replace(data, entered=entered)
        value = {
            "id": card.id,
            "hostile": card.hostile,
            "monster_cv": card.monster_cv,
            "damage": card.damage,
            "mining": card.mining,
        }
        events.append(BoxItemEntered(GAME, location_item(card), _entry(value)))
    elif _out(data, card.id) == "discards":  # the deck ran out: the discards are the new deck
        discards = tuple((b, () if b == biome else cards) for b, cards in data.discards)
        data = replace(data, discards=discards)
    state = with_data(state, replace(data, exploring=None))
    return place(state, seat, tile, card.id, tuple(events))


def place(state: S, seat: int, tile: str, card: str, entered: Events = ()) -> tuple[S, Events]:
    """§探索: the card face up on the tile, the mining marker at its start, no defeated-monster
    token; a hostile monster there triggers hostility (one monster die, §敌意); the explorer's
    turn is over. ``entered``: the card's announcement for the owner's box, if it was
    entered."""
    data = state.data
    locations = (*((t, c) for t, c in data.locations if t != tile), (tile, card))
    data = replace(
        data,
        locations=locations,
        mined=tuple((t, n) for t, n in data.mined if t != tile),  # marker at the start
        defeated_monsters=data.defeated_monsters - {tile},
    )
    state = with_data(state, data)
    events: list[Event] = [LocationExplored(seat, tile, card)]
    if hostile_here(catalogue(state), data, tile):
        events.append(DicePoolAnnounced(seat, ("monster",), "hostility"))
        state = with_data(state, replace(state.data, rolled=(seat, ("monster",))))
    state, done = finish_turn(state, seat)
    return state, (*events, *entered, *done)
