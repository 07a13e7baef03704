"""Don't Starve's own game data (``State.data``): characters, map, decks, needs tiles, the dial.

All immutable; every change goes through ``dataclasses.replace``. Stat changes go through
:func:`change_stats`, the one place that applies caps, the hunger-at-zero rule, shadow creatures
and defeat, each by the character's card in the game's box (``catalogue``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.core import Event, Seat
from engine.dont_starve.catalogue import Catalogue, CharacterCard, Entered, NeedsTile
from engine.dont_starve.moves import (
    CharacterDefeated,
    CharacterRevived,
    FocusChanged,
    ShadowCovered,
    ShadowRevealed,
    StatsChanged,
)

RESOURCE_LIMIT = 10
"""上限: a backpack holds at most 10 resource tokens."""
ITEM_LIMIT = 8
"""上限: a hand holds at most 8 item cards."""
RESOURCE_KINDS = ("basic", "raw_food", "cooked_food", "loot")
HUNGER_TO_HEALTH = 2
"""属性 饱食度: at 0 hunger, each further hunger lost costs 2 health."""
LIGHT_DAMAGE = 5
"""光照: 5 health per missing light point."""
DIAL_START = 6
ESSENCE_START = 6
"""营地: the essence marker starts on 6."""
ESSENCE_PER_SANITY = 3
"""精华: 花费1点理智来获得3点精华."""
MAX_STRUCTURES = 3
UNLOCK_POINTS = {"classic": 4, "survival": 6, "nightmare": 8}
"""营地阶段: unlock points for a completed scenario by difficulty."""


@dataclass(frozen=True)
class Character:
    """One character at the table: dials, focus, place, inventory, shadows, pending offsets."""

    key: str
    health: int
    hunger: int
    sanity: int
    focus: int
    tile: str | None
    defeated: bool = False
    basic: int = 0
    raw_food: int = 0
    cooked_food: int = 0
    loot: int = 0
    item: int = 0
    light: int = 0
    offsets: tuple[int, int, int] = (0, 0, 0)
    protect: tuple[tuple[str, int], ...] = ()

    def card(self, cat: Catalogue) -> CharacterCard:
        """The character's printed card and board in the game's box."""
        return cat.characters[self.key]

    @property
    def resources(self) -> int:
        """Resource tokens in the backpack."""
        return sum(getattr(self, k) for k in RESOURCE_KINDS)

    def shadows(self, cat: Catalogue) -> int:
        """How many shadow tiers show now (sanity below each threshold of the character's
        card, tier 1 first)."""
        return sum(self.sanity < t for t in self.card(cat).sanity_thresholds)

    def protected(self, symbol: str) -> int:
        """How many ``symbol`` weather symbols this character exempts this phase."""
        return sum(n for s, n in self.protect if s == symbol)


@dataclass(frozen=True)
class Fighting:
    """A declared fight waiting for each fighter's dice."""

    initiator: Seat
    target: str
    tile: str
    fighters: tuple[Seat, ...]
    dice: tuple[int, ...]
    damage: int
    engaged: tuple[int, ...] = ()
    """The scenario tokens fought (indices into the scenario's token list)."""
    tier: int = 0
    results: tuple[tuple[Seat, bool], ...] = ()

    def dice_of(self, seat: Seat) -> int:
        """The monster dice dealt to a fighter."""
        return self.dice[self.fighters.index(seat)]


@dataclass(frozen=True)
class DSData:
    """Everything Don't Starve keeps beyond the core's flow."""

    scenario: str
    season: str
    difficulty: str
    characters: tuple[Character, ...]
    revealed: tuple[tuple[str, str], ...]
    """Face-up tiles and their biome (the portal is always up)."""
    pool: tuple[str, ...]
    """Biomes of the face-down tiles, shuffled together at setup (世界构建)."""
    decks: tuple[tuple[str, tuple[str, ...]], ...]
    discards: tuple[tuple[str, tuple[str, ...]], ...]
    locations: tuple[tuple[str, str], ...] = ()
    mined: tuple[tuple[str, int], ...] = ()
    """How far each location's mining marker has moved from its start (与地点卡互动)."""
    defeated_monsters: frozenset[str] = frozenset()
    tokens: tuple[int, ...] = ()
    """Scenario monster tokens still on the map (indices into the scenario's list)."""
    needs: tuple[tuple[int, str], ...] = ()
    """Needs tiles left to right: (the tile's number in the box, side up); number 0 while the
    table has not said which tile lies there (draws "table": given as its round begins)."""
    needs_removed: int = 0
    needs_laid: tuple[int, ...] = ()
    """Draws "table": the needs tiles the table said lay leftmost this game, in order."""
    storm_after: int = 0
    weather_deck: tuple[str, ...] = ()
    weather: str = ""
    """The weather card face up ("" while the one the table drew is not given yet)."""
    weather_due: bool = False
    """Draws "table": the table drew a weather card (at set-up or in the preparation phase)
    and has not said which yet; it gives it before the round's first action."""
    weather_drawn: tuple[str, ...] = ()
    """Draws "table": the weather cards drawn this game, in order (the current one last): the
    season's deck holds none of them until the deck is used up."""
    exploring: tuple[Seat, str] | None = None
    """Draws "table": a character explored (seat, tile) and the table has not said which
    location card it drew yet."""
    entered: Entered = field(default_factory=Entered)
    """Cards and tiles the table entered that the box did not hold (used at once)."""
    dial: int = DIAL_START
    moved: frozenset[Seat] = frozenset()
    """Seats that made their optional move in the current turn."""
    effigies: int = 1
    structures: tuple[str, ...] = ()
    """Structures built in the base camp (营地); none: the base camp is not used."""
    essence: int = 0
    fight: Fighting | None = None
    rolled: tuple[Seat, tuple[str, ...]] | None = None
    """The dice pool last announced outside a fight (interact, hostility) and whose it is, for
    entering what the dice showed at the console; cleared by the next move that is not a free
    resource or stat change, and at the end of the action phase."""
    result: str = ""
    """'' while playing; 'won'; or the loss's reason code."""

    def char(self, seat: Seat) -> Character:
        """The character of a seat."""
        return self.characters[seat]

    def with_char(self, seat: Seat, character: Character) -> DSData:
        """The data with one character replaced."""
        chars = list(self.characters)
        chars[seat] = character
        return replace(self, characters=tuple(chars))

    def biome_of(self, tile: str) -> str | None:
        """A face-up tile's biome, or None while it is face down."""
        return dict(self.revealed).get(tile)

    def location(self, tile: str) -> str | None:
        """The location card on a tile, if explored."""
        return dict(self.locations).get(tile)

    @property
    def time(self) -> str:
        """Day or night: the top symbol of the leftmost needs tile (需求板块)."""
        return self.needs[0][1] if self.needs else "night"

    def current_needs(self, cat: Catalogue) -> tuple[int, int, int]:
        """[light, hunger, sanity] of the leftmost needs tile, on its side up (0s while the
        table has not said which tile it is)."""
        tile = self.current_tile(cat)
        return (0, 0, 0) if tile is None else tile.side(self.needs[0][1])

    def current_tile(self, cat: Catalogue) -> NeedsTile | None:
        """The leftmost needs tile, or None when none is left or it is not given yet."""
        if not self.needs:
            return None
        return cat.needs_tile(self.needs[0][0])

    @property
    def needs_due(self) -> bool:
        """Draws "table": the leftmost needs tile is not given yet."""
        return bool(self.needs) and self.needs[0][0] == 0

    @property
    def past_storm(self) -> bool:
        """Whether the current needs tile lies right of the storm marker (天气需求)."""
        return self.needs_removed + 1 > self.storm_after

    @property
    def defeated(self) -> tuple[Seat, ...]:
        """Seats whose character is defeated and waits for a meat effigy."""
        return tuple(s for s, c in enumerate(self.characters) if c.defeated)


def change_stats(
    cat: Catalogue, data: DSData, seat: Seat, health: int = 0, hunger: int = 0, sanity: int = 0
) -> tuple[DSData, tuple[Event, ...]]:
    """Add the deltas to a character's dials, with every rule that governs them (属性).

    Dials stop at their maximum (the rest is wasted) and at 0. Hunger lost at 0 costs 2 health
    each instead. Sanity falling below a threshold shows that tier's shadow creature, rising
    back covers it. Health at 0 defeats the character: off the map until revived. The caps
    and thresholds are the character card's in the game's box (``cat``).
    """
    c = data.char(seat)
    if c.defeated:
        return data, ()
    card = c.card(cat)
    new_hunger = c.hunger + hunger
    if new_hunger < 0:
        health += HUNGER_TO_HEALTH * new_hunger
        new_hunger = 0
    new = replace(
        c,
        health=max(0, min(card.max_health, c.health + health)),
        hunger=min(card.max_hunger, new_hunger),
        sanity=max(0, min(card.max_sanity, c.sanity + sanity)),
    )
    events: list[Event] = []
    if (new.health, new.hunger, new.sanity) != (c.health, c.hunger, c.sanity):
        events.append(StatsChanged(seat, new.health, new.hunger, new.sanity))
    before, after = c.shadows(cat), new.shadows(cat)
    events += [ShadowRevealed(seat, t) for t in range(before + 1, after + 1)]
    events += [ShadowCovered(seat, t) for t in range(before, after, -1)]
    if new.health == 0:
        new = replace(new, defeated=True, tile=None)
        events.append(CharacterDefeated(seat))
    return data.with_char(seat, new), tuple(events)


def revive_all(cat: Catalogue, data: DSData, portal: str) -> tuple[DSData, tuple[Event, ...]]:
    """Bring every defeated character back with a meat effigy each (角色复活), to the revival
    values of its card in the box.

    The caller checks first that there are enough effigies (otherwise the game is lost).
    """
    events: list[Event] = []
    for seat in data.defeated:
        if data.effigies < 1:
            break
        c = data.char(seat)
        card = c.card(cat)
        h, hu, s = card.revive
        data = replace(data, effigies=data.effigies - 1)
        data = data.with_char(
            seat,
            replace(
                c, defeated=False, health=h, hunger=hu, sanity=s, focus=card.focus, tile=portal
            ),
        )
        events += [
            CharacterRevived(seat, data.effigies),
            StatsChanged(seat, h, hu, s),
            FocusChanged(seat, card.focus, "revived"),
        ]
    return data, tuple(events)
