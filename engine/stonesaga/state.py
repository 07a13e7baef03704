"""Stonesaga's own part of the game state (``State.data``): the saga, its characters, tiles,
the mining bag, a test in progress, the behemoths, and the valley and roster the Log keeps.

Frozen values; the rules on them are in ``rules/`` (the small shared ones in ``rules/basics.py``).
Section names in the docstrings refer to ``stonesaga.zh.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

Resources = tuple[tuple[str, int], ...]
"""A pack as sorted (resource, count) pairs, e.g. ``(("fish:fresh", 1), ("water", 2))``."""


# --- maladies -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Malady:
    """A malady token on the health track: an injury or an illness, light or heavy (§疾苦)."""

    kind: str
    heavy: bool = False

    def label(self) -> str:
        """``injury:light`` style name."""
        return f"{self.kind}:{'heavy' if self.heavy else 'light'}"


Health = tuple[Malady, ...]


# --- the valley record (campaign log) -------------------------------------------------------


@dataclass(frozen=True)
class TilePlacement:
    """Where a tile lies: tray, slot (0–2), rotation in degrees, face (§局间保留与存档)."""

    tile: str
    tray: int
    slot: int
    rotation: int = 0
    explored: bool = True


@dataclass(frozen=True)
class OverlayPlacement:
    """An overlay on a tile: which, on which tile and zone (0–2), its state (§覆盖层)."""

    overlay: str
    tile: str
    zone: int = 0
    state: str = "active"


@dataclass(frozen=True)
class ValleyRecord:
    """The valley map page of the Log: region, every tile with its orientation, every overlay."""

    region: str
    tiles: tuple[TilePlacement, ...] = ()
    overlays: tuple[OverlayPlacement, ...] = ()

    @property
    def trays(self) -> int:
        """How many terrain trays the record uses."""
        return len({t.tray for t in self.tiles})


# --- the campaign's characters (the Log's roster) -------------------------------------------


AGES = ("young", "old", "dead")
"""§创造角色.5, §间隔与变老: a character is young, then old, then dead (a legend)."""


@dataclass(frozen=True)
class LogCharacter:
    """A character of the campaign as the Log keeps it: name, trait, attributes, age, and
    whether it is a legend (§角色死亡与传说.2–3: every dead character becomes one)."""

    name: str
    trait: str
    strength: int
    dexterity: int
    faith: int
    perception: int
    age: str = "young"
    legend: bool = False

    @property
    def alive(self) -> bool:
        """Young or old: may still be chosen (§开局设置.1)."""
        return self.age != "dead"

    @property
    def attributes(self) -> tuple[tuple[str, int], ...]:
        """The four attributes as (name, value) pairs, in the rule text's order."""
        return (
            ("strength", self.strength),
            ("dexterity", self.dexterity),
            ("faith", self.faith),
            ("perception", self.perception),
        )


@dataclass(frozen=True)
class Relics:
    """What a character keeps between sessions (§局间保留与存档): at most 5 items, 5 materials."""

    name: str
    items: tuple[str, ...] = ()
    materials: tuple[str, ...] = ()


# --- the game's data ------------------------------------------------------------------------


@dataclass(frozen=True)
class Character:
    """A character in play: sheet, track positions, pack and place (§创造角色, §精力, §疾苦)."""

    name: str
    seat: int
    trait: str
    attributes: tuple[tuple[str, int], ...]
    age: str = "young"
    energy: int = 0
    health: Health = ()
    boosts: tuple[tuple[str, int], ...] = ()
    pack: Resources = ()
    items: tuple[str, ...] = ()
    tile: str = ""
    alive: bool = True
    ate: bool = False
    drank: bool = False
    night_card: bool = False

    def attribute(self, name: str) -> int:
        """The attribute's printed value."""
        return dict(self.attributes)[name]

    def boost(self, name: str) -> int:
        """The boost on an attribute: 0 none, 1 minor (+1), 2 major (+2) (§增益)."""
        return dict(self.boosts).get(name, 0)

    def with_boost(self, name: str, level: int) -> Character:
        """The character with that boost level on that attribute."""
        boosts = {**dict(self.boosts), name: level}
        return replace(self, boosts=tuple(sorted((k, v) for k, v in boosts.items() if v > 0)))


@dataclass(frozen=True)
class TileState:
    """Markers on a tile: explored, depletion (2 arrow side, 1 × side), shelter 0/1/2,
    fire (2 arrow side, 1 × side), outpost and its buildings, ruin (§地点标记, §建前哨, §废墟)."""

    explored: bool = True
    depletion: int = 0
    shelter: int = 0
    fire: int = 0
    outpost: bool = False
    buildings: tuple[str, ...] = ()
    ruin: bool = False


@dataclass(frozen=True)
class Mining:
    """A mining action in progress: who, at which feature, the bag, the tokens drawn (§采矿)."""

    seat: int
    character: int
    feature: str
    bag: tuple[tuple[str, int], ...]
    drawn: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class PendingTest:
    """A test being rolled: the dice so far (after changes), the raw rolls (§判定, §角力)."""

    seat: int
    character: int
    attribute: str
    modifier: int = 0
    versus: int | None = None
    raw: tuple[int, ...] = ()
    dice: tuple[int, ...] = ()
    purpose: str = ""
    """What the result decides: "" (read by the players) or "fire" (§生火)."""


@dataclass(frozen=True)
class Behemoth:
    """A behemoth that has arrived; demeanor starts at 4; its lair active or not (§巨兽)."""

    name: str
    demeanor: int = 4
    lair: bool = True


@dataclass(frozen=True)
class Saga:
    """The whole of Stonesaga's own data in a game state."""

    characters: tuple[Character, ...] = ()
    tiles: tuple[tuple[str, TileState], ...] = ()
    omens: tuple[str, ...] = ("sun",)
    activity: int = 0
    lore: int = 0
    population: int = 8
    unrest: int = 0
    epoch: int = 1
    challenge: str = "GI01"
    events_done: tuple[int, ...] = ()
    behemoths: tuple[Behemoth, ...] = ()
    alert: str | None = None
    alert_due: bool = False
    """§巨兽 警觉 with draws "table": the table is to draw the alert behemoth among those with
    an active lair and give it (``alert_behemoth``) before the day's first action."""
    mining: Mining | None = None
    test: PendingTest | None = None
    acted: bool = False
    """The seat whose turn is open (flow.current) has made its one action (§白天阶段)."""
    result: str | None = None
    kept: tuple[tuple[int, tuple[str, ...], tuple[str, ...]], ...] = ()
    valley_record: ValleyRecord | None = None
    creation_rolls: tuple[tuple[int, tuple[tuple[int, ...], ...]], ...] = ()
    """Each seat's rolls entered for the character it is creating (§创造角色.1)."""
    mourning: tuple[int, ...] = ()
    """Characters who died at night step 1 and whose mourning roll is still due."""
    fishing: tuple[int, int] | None = None
    """(seat, character) of the fishing whose four dice are still to be entered (§钓鱼.3)."""
    session: int = 1
    """The session's number within its epoch (§三个纪元: 4–6 sessions an epoch)."""
    roster: tuple[LogCharacter, ...] = ()
    """Every character of the campaign, from the Log (aged by the interval), or the ``roster``
    option; those in play are also in ``characters``."""
    stored: tuple[Relics, ...] = ()
    """What each character of the roster kept at the end of its last session (§局间保留与存档)."""
    interval: str = ""
    """The interval applied at the start of this session (§间隔与变老); "" for a first session."""
    old_age: tuple[int, ...] = ()
    """Roster indices of the characters who died between sessions and await their mourning."""
    relics: tuple[Relics, ...] = ()
    """What the characters who died between sessions kept, not yet handed to a new character
    (§角色死亡与传说 遗物: 局间死亡)."""
    free_moves: int = 0
    """Free outpost relocations left between sessions (§废墟与迁移前哨)."""
    moved: tuple[str, ...] = ()
    """Tiles an outpost was moved to between sessions (each outpost moves at most once)."""
    rebuilt: bool = True
    """The valley was rebuilt as the Log records it (checked by the camera, §开局设置.7)."""

    def rolls(self, seat: int) -> tuple[tuple[int, ...], ...]:
        """The rolls this seat has entered for the character it is creating."""
        return dict(self.creation_rolls).get(seat, ())

    def tile(self, tile_id: str) -> TileState:
        """The markers on a tile."""
        return dict(self.tiles)[tile_id]

    def with_tile(self, tile_id: str, **changes: object) -> Saga:
        """The data with one tile's markers changed."""
        tiles = dict(self.tiles)
        tiles[tile_id] = replace(tiles[tile_id], **changes)  # type: ignore[arg-type]
        return replace(self, tiles=tuple(tiles.items()))

    def with_character(self, index: int, character: Character) -> Saga:
        """The data with one character replaced."""
        chars = list(self.characters)
        chars[index] = character
        return replace(self, characters=tuple(chars))

    @property
    def party(self) -> int:
        """How many characters are in play (the count the party-size rules read)."""
        return len(self.characters)
