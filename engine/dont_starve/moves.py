"""Don't Starve's moves and events (the ``dont_starve.*`` vocabulary; docs/dont_starve.md).

Main actions (move as the main action, explore, interact, trade, another action, and a fight once
its dice are read) flip the character's activation token: the seat is done until the action dial
turns. The optional first move keeps the turn. Free actions (gain, discard, eat, lose, focus,
essence; a scenario card's end) keep the turn too, and may be taken outside one's own turn, by
an inactive character as well, as long as they do not interrupt another player's action
(§自由行动: ``out_of_turn``; a fight waiting for its dice is such an action).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from engine.core import Event, Move, Seat

Kind = Literal["basic", "raw_food", "cooked_food", "loot", "item"]
KINDS: tuple[str, ...] = ("basic", "raw_food", "cooked_food", "loot", "item")
Food = Literal["raw_food", "cooked_food"]
Symbol = Literal["wet", "overheat", "cold"]
World = Literal["spoil_all", "regrow", "monster_refresh"]
Season = Literal["", "autumn", "winter", "spring", "summer"]

# --- moves ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveTo(Move):
    """Move the figure to an adjacent tile (行动 移动): the optional move, or the main action.

    ``biome`` says what a face-down tile turned out to be when it is revealed (the camera reads
    it from the tile's sticker, else the players pick it at the console); None lets the engine
    draw it from the face-down tiles with the game's seeded Rng, with draws "virtual" only.
    """

    type: ClassVar[str] = "dont_starve.move"
    seat: Seat
    to: str
    main: bool = False
    biome: str | None = None

    @property
    def ends_turn(self) -> bool:  # type: ignore[override]  # the core reads it per move
        """The optional move keeps the turn; a move as the main action ends it."""
        return self.main


@dataclass(frozen=True)
class Explore(Move):
    """Draw a location card for the current tile (行动 探索), from the top or the bottom. With
    draws "table" the table draws it and says which with ``dont_starve.location_card``."""

    type: ClassVar[str] = "dont_starve.explore"
    seat: Seat
    bottom: bool = False


@dataclass(frozen=True)
class Interact(Move):
    """Interact with the location, a structure (portal only) or a scenario card (行动 互动).

    ``essence``: a structure's essence cost, as printed on its card (精华).
    """

    type: ClassVar[str] = "dont_starve.interact"
    seat: Seat
    target: Literal["location", "structure", "scenario"] = "location"
    roll: bool = True
    essence: int = 0


@dataclass(frozen=True)
class Fight(Move):
    """Declare a fight (行动 战斗); the dice are read afterwards with ``dont_starve.roll``.

    ``cv`` is the fighters' total CV from the items they use; ``monster_cv`` and ``damage`` are
    printed on the location card (scenario tokens and shadow creatures come from the data);
    ``tokens`` is how many scenario monster tokens are engaged; ``tier`` the shadow creature;
    ``split`` how the monster dice are shared (default: dealt one by one from the initiator).
    """

    type: ClassVar[str] = "dont_starve.fight"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    target: Literal["location", "scenario", "shadow"] = "location"
    cv: int = 0
    monster_cv: int = 0
    damage: int = 1
    helpers: tuple[Seat, ...] = ()
    tokens: int = 1
    tier: int = 1
    split: tuple[int, ...] = ()


@dataclass(frozen=True)
class Roll(Move):
    """What one fighter's dice showed after any focus rerolls (made by the fight's initiator).

    Reading dice neither starts nor ends a turn in the core's flow (``out_of_turn``): the fight
    is the initiator's main action, whose turn stays open until the last fighter's dice are
    read; then the fight's end flips the initiator's token and ends the turn (§战斗结算).
    """

    type: ClassVar[str] = "dont_starve.roll"
    ends_turn: ClassVar[bool] = False
    out_of_turn: ClassVar[bool] = True
    seat: Seat
    fighter: Seat
    successes: int = 0
    dodges: int = 0
    hits: int = 0
    blocked: int = 0
    """Hits that armour prevented."""


@dataclass(frozen=True)
class Transfer:
    """One exchange within a trade: ``count`` of ``kind`` from ``giver`` to ``receiver``."""

    giver: Seat
    receiver: Seat
    kind: Kind
    count: int = 1


@dataclass(frozen=True)
class Trade(Move):
    """Characters on the same tile exchange resources and items (行动 交易)."""

    type: ClassVar[str] = "dont_starve.trade"
    seat: Seat
    transfers: tuple[Transfer, ...] = ()


@dataclass(frozen=True)
class Act(Move):
    """Another main action (the 行动 icon on abilities, structures, scenario elements)."""

    type: ClassVar[str] = "dont_starve.act"
    seat: Seat
    what: str = ""


@dataclass(frozen=True)
class Gain(Move):
    """A character gains resources or item cards (``for_seat``: into whose backpack or hand)."""

    type: ClassVar[str] = "dont_starve.gain"
    ends_turn: ClassVar[bool] = False
    out_of_turn: ClassVar[bool] = True
    seat: Seat
    kind: Kind = "basic"
    count: int = 1
    for_seat: Seat | None = None


@dataclass(frozen=True)
class Discard(Move):
    """Return resources or item cards to the supply (上限: allowed at any time)."""

    type: ClassVar[str] = "dont_starve.discard"
    ends_turn: ClassVar[bool] = False
    out_of_turn: ClassVar[bool] = True
    seat: Seat
    kind: Kind = "basic"
    count: int = 1


@dataclass(frozen=True)
class Eat(Move):
    """Consume one food token for the stats printed on it (消耗食物).

    In the daily needs and weather phases the food offsets that phase's losses first.
    ``for_seat``: entered for another character (one that has given up its turn, say).
    """

    type: ClassVar[str] = "dont_starve.eat"
    ends_turn: ClassVar[bool] = False
    out_of_turn: ClassVar[bool] = True
    seat: Seat
    kind: Literal["raw_food", "cooked_food"] = "cooked_food"
    health: int = 0
    hunger: int = 0
    sanity: int = 0
    for_seat: Seat | None = None


@dataclass(frozen=True)
class Lose(Move):
    """A stat loss the table resolved from a card (shadow creature, monster ability, scenario);
    ``for_seat``: whose loss, when entered for another character."""

    type: ClassVar[str] = "dont_starve.lose"
    ends_turn: ClassVar[bool] = False
    out_of_turn: ClassVar[bool] = True
    seat: Seat
    health: int = 0
    hunger: int = 0
    sanity: int = 0
    for_seat: Seat | None = None


@dataclass(frozen=True)
class SpendFocus(Move):
    """Flip one active focus token to reroll any dice once (专注点).

    ``for_seat``: whose token, when the fight's initiator enters a helper's reroll.
    """

    type: ClassVar[str] = "dont_starve.focus"
    ends_turn: ClassVar[bool] = False
    out_of_turn: ClassVar[bool] = True
    seat: Seat
    for_seat: Seat | None = None


@dataclass(frozen=True)
class GainEssence(Move):
    """On the portal: spend 1 sanity for 3 essence (精华, a free action)."""

    type: ClassVar[str] = "dont_starve.essence"
    ends_turn: ClassVar[bool] = False
    out_of_turn: ClassVar[bool] = True
    seat: Seat


@dataclass(frozen=True)
class Light(Move):
    """Light this character provides on its tile in the daily needs phase (光照)."""

    type: ClassVar[str] = "dont_starve.light"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    points: int = 1


@dataclass(frozen=True)
class Protect(Move):
    """Exempt weather symbols with an item or food (天气需求)."""

    type: ClassVar[str] = "dont_starve.protect"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    symbol: Symbol = "wet"
    count: int = 1


@dataclass(frozen=True)
class ScenarioEnd(Move):
    """A scenario card declares the scenario won or lost (胜利与失败)."""

    type: ClassVar[str] = "dont_starve.scenario_end"
    ends_turn: ClassVar[bool] = False
    out_of_turn: ClassVar[bool] = True
    seat: Seat
    result: Literal["win", "lose"] = "win"


@dataclass(frozen=True)
class DrawWeather(Move):
    """The weather card the table drew and turned up, with draws "table" (§准备阶段 抽取天气卡;
    the first at set-up, §季节与难度): picked by its printed title among the box's cards
    (``card``: the box's id), or, for a card the box does not hold, entered by what it shows:
    how many of each symbol lie left of the storm icon (``left_*``) and right of it
    (``right_*``; §天气阶段: only the side left of it counts before the storm marker), the
    weather event's losses (``health``, ``hunger``, ``sanity``) and its world events
    (``world``). ``season``: the season of an entered card ("": the game's). Any seat enters
    it, outside the turns."""

    type: ClassVar[str] = "dont_starve.weather_card"
    ends_turn: ClassVar[bool] = False
    out_of_turn: ClassVar[bool] = True
    seat: Seat
    card: str = ""
    season: Season = ""
    left_wet: int = 0
    left_overheat: int = 0
    left_cold: int = 0
    right_wet: int = 0
    right_overheat: int = 0
    right_cold: int = 0
    health: int = 0
    hunger: int = 0
    sanity: int = 0
    world: tuple[World, ...] = ()


@dataclass(frozen=True)
class LayNeedsTile(Move):
    """The needs tile lying leftmost on the round board (the one this round plays), with draws
    "table" (§季节与难度: laid at set-up from the shuffled piles; §需求板块): picked among the
    box's tiles by its number (``tile``), or, for one the box does not hold, entered by the
    values of its two sides (``day_*``, ``night_*``: light, hunger, sanity) and its ``kind``.
    Any seat enters it, outside the turns."""

    type: ClassVar[str] = "dont_starve.needs_tile"
    ends_turn: ClassVar[bool] = False
    out_of_turn: ClassVar[bool] = True
    seat: Seat
    tile: int = 0
    kind: Literal["normal", "hard"] = "normal"
    day_light: int = 0
    day_hunger: int = 0
    day_sanity: int = 0
    night_light: int = 0
    night_hunger: int = 0
    night_sanity: int = 0


@dataclass(frozen=True)
class DrawLocation(Move):
    """The location card the exploring character drew, with draws "table" (§探索): picked by
    its printed title among the box's cards of the tile's biome (``card``), or, for a card
    the box does not hold, entered by its monster (``hostile``: a red CV, §敌意;
    ``monster_cv``, ``damage``) and its mining track (``mining``: interactions before 已开采).
    The explorer enters it; it completes the explore action."""

    type: ClassVar[str] = "dont_starve.location_card"
    ends_turn: ClassVar[bool] = False
    out_of_turn: ClassVar[bool] = True
    seat: Seat
    card: str = ""
    hostile: bool = False
    monster_cv: int = 0
    damage: int = 1
    mining: int = 3


# --- events --------------------------------------------------------------------------------


@dataclass(frozen=True)
class DialSet(Event):
    """The action dial shows ``value`` on its day or night side."""

    type: ClassVar[str] = "dont_starve.dial_set"
    value: int
    time: str


@dataclass(frozen=True)
class NeedsTileRemoved(Event):
    """The leftmost needs tile was removed; ``left`` remain (the first is the current one)."""

    type: ClassVar[str] = "dont_starve.needs_tile_removed"
    left: int
    time: str = ""


@dataclass(frozen=True)
class WeatherDrawn(Event):
    """A weather card is face up for this round's weather phase."""

    type: ClassVar[str] = "dont_starve.weather_drawn"
    card: str
    symbols: tuple[str, ...]


@dataclass(frozen=True)
class NeedsTileLaid(Event):
    """The table said which needs tile lies leftmost (draws "table"): its number in the box
    and the light, hunger and sanity its side up asks for."""

    type: ClassVar[str] = "dont_starve.needs_tile_laid"
    tile: int
    side: str
    light: int
    hunger: int
    sanity: int


@dataclass(frozen=True)
class CharacterMoved(Event):
    """A figure went from one tile to another."""

    type: ClassVar[str] = "dont_starve.character_moved"
    seat: Seat
    from_tile: str
    to_tile: str


@dataclass(frozen=True)
class TileRevealed(Event):
    """A face-down map tile was turned over."""

    type: ClassVar[str] = "dont_starve.tile_revealed"
    tile: str
    biome: str


@dataclass(frozen=True)
class LocationExplored(Event):
    """A location card was drawn for a tile."""

    type: ClassVar[str] = "dont_starve.location_explored"
    seat: Seat
    tile: str
    card: str


@dataclass(frozen=True)
class FightStarted(Event):
    """A fight was declared: who fights and how many monster dice each rolls."""

    type: ClassVar[str] = "dont_starve.fight_started"
    seat: Seat
    target: str
    tile: str
    fighters: tuple[Seat, ...]
    monster_dice: int
    split: tuple[int, ...]
    tier: int = 0
    """The shadow creature's tier, in a fight against one (its CV is its card's)."""


@dataclass(frozen=True)
class FighterResolved(Event):
    """One fighter's dice were read: won or not, and the damage taken."""

    type: ClassVar[str] = "dont_starve.fighter_resolved"
    seat: Seat
    won: bool
    damage: int


@dataclass(frozen=True)
class FightEnded(Event):
    """The whole fight is over: won only if every fighter won."""

    type: ClassVar[str] = "dont_starve.fight_ended"
    won: bool
    target: str
    tile: str


@dataclass(frozen=True)
class StatsChanged(Event):
    """A character's dials now read these values."""

    type: ClassVar[str] = "dont_starve.stats_changed"
    seat: Seat
    health: int
    hunger: int
    sanity: int


@dataclass(frozen=True)
class ShadowRevealed(Event):
    """Sanity fell below a threshold: the shadow creature of that tier shows."""

    type: ClassVar[str] = "dont_starve.shadow_revealed"
    seat: Seat
    tier: int


@dataclass(frozen=True)
class ShadowCovered(Event):
    """Sanity rose back above a threshold: that shadow creature is covered (not returned)."""

    type: ClassVar[str] = "dont_starve.shadow_covered"
    seat: Seat
    tier: int


@dataclass(frozen=True)
class CharacterDefeated(Event):
    """A character lost all health and was taken off the map."""

    type: ClassVar[str] = "dont_starve.character_defeated"
    seat: Seat


@dataclass(frozen=True)
class CharacterRevived(Event):
    """A meat effigy brought a character back on the portal."""

    type: ClassVar[str] = "dont_starve.character_revived"
    seat: Seat
    effigies_left: int


@dataclass(frozen=True)
class FocusChanged(Event):
    """How many of a character's focus tokens are active now."""

    type: ClassVar[str] = "dont_starve.focus_changed"
    seat: Seat
    active: int
    reason: str = ""


@dataclass(frozen=True)
class InventoryChanged(Event):
    """How many of a kind a character now holds."""

    type: ClassVar[str] = "dont_starve.inventory_changed"
    seat: Seat
    kind: str
    count: int


@dataclass(frozen=True)
class WorldEvent(Event):
    """A world event of the weather card was resolved (spoil_all, regrow, monster_refresh)."""

    type: ClassVar[str] = "dont_starve.world_event"
    name: str


@dataclass(frozen=True)
class NeedsAnnounced(Event):
    """What the current needs tile asks for in the daily needs phase."""

    type: ClassVar[str] = "dont_starve.needs_announced"
    light: int
    hunger: int
    sanity: int
    tile: int = 0
    """The needs tile's number in the box (0: none)."""


@dataclass(frozen=True)
class WeatherAnnounced(Event):
    """Which weather symbols are in force this round (the storm marker decides)."""

    type: ClassVar[str] = "dont_starve.weather_announced"
    card: str
    symbols: tuple[str, ...]
    past_storm: bool
    losses: tuple[int, int, int] = (0, 0, 0)
    """What each character loses (health, hunger, sanity) from the card's event and the symbols
    in force, before items and food exempt any (§天气阶段)."""


@dataclass(frozen=True)
class EssenceChanged(Event):
    """The essence marker of the base camp board now shows ``essence``."""

    type: ClassVar[str] = "dont_starve.essence_changed"
    essence: int


@dataclass(frozen=True)
class ScenarioWon(Event):
    """The scenario is won; the base camp stage gets these unlock points (营地阶段)."""

    type: ClassVar[str] = "dont_starve.scenario_won"
    unlock_points: int
