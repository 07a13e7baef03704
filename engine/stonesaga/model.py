"""Stonesaga's game data (characters, tiles, the mining bag) and the pure rules on them.

Every function here takes values and returns new values; ``game.py`` wires them to moves.
Section names in the docstrings refer to ``stonesaga.zh.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.stonesaga.catalogue import resource_data

Resources = tuple[tuple[str, int], ...]
"""A pack as sorted (resource, count) pairs, e.g. ``(("fish:fresh", 1), ("water", 2))``."""


# --- the party size rules ---------------------------------------------------------------------


def energy_cap(characters: int) -> int:
    """§精力, §开局设置.4: 5 energy with 1–2 characters, 4 with 3 or more."""
    return 5 if characters <= 2 else 4


def health_length(characters: int) -> int:
    """§健康轨有多长: 3 cells; a 4th with 3 or fewer; a 5th with 1–2."""
    return 3 + (characters <= 3) + (characters <= 2)


def rest_energy(characters: int) -> int:
    """§夜晚阶段.2: rest gives +1 with 3–4 characters, +2 with 1–2."""
    return 2 if characters <= 2 else 1


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


def gain_malady(health: Health, length: int, kind: str, heavy: bool) -> tuple[Health, str]:
    """§获得与退化: gain a malady; returns the track and what happened.

    A light one on top of a light one of the same kind flips it to heavy; a heavy one always
    takes a new cell, or counts as a light one when no cell is free. With no cell and nothing
    to flip, nothing more can happen (the character is already incapacitated).
    """
    if heavy and len(health) < length:
        return (*health, Malady(kind, True)), "added"
    for index, token in enumerate(health):
        if token.kind == kind and not token.heavy:
            upgraded = (*health[:index], Malady(kind, True), *health[index + 1 :])
            return upgraded, "upgraded"
    if len(health) < length:
        return (*health, Malady(kind, False)), "added"
    return health, "no_room"


def degrade_malady(health: Health, index: int) -> Health:
    """§获得与退化 退化: heavy flips to light; light is discarded."""
    token = health[index]
    if token.heavy:
        return (*health[:index], Malady(token.kind, False), *health[index + 1 :])
    return (*health[:index], *health[index + 1 :])


def incapacitated(health: Health, length: int) -> bool:
    """§健康轨有多长: every cell of the track is covered by a malady."""
    return len(health) >= length


def best_to_degrade(health: Health) -> int | None:
    """Which malady to degrade when the table chooses (黎明规则): a light one, freeing a cell."""
    for index, token in enumerate(health):
        if not token.heavy:
            return index
    return 0 if health else None


# --- boosts and tests -----------------------------------------------------------------------


def gain_boost(level: int, amount: int) -> int:
    """§增益: a minor boost (1) on a minor boost becomes major (2); they never stack past 2."""
    if amount >= 2:
        return 2
    return 2 if level >= 1 else 1


def degrade_boost(level: int) -> int:
    """§增益: after a test with the attribute, major → minor, minor → gone."""
    return max(level - 1, 0)


def change_die(value: int, change: int) -> int:
    """§随机化: a change to a die never takes it above 6 or below 1."""
    return min(6, max(1, value + change))


def heroic_chain_complete(raw: Sequence[int]) -> bool:
    """§奋力一搏: a test's dice are complete when the last die rolled is not a 6."""
    return bool(raw) and raw[-1] != 6


# --- character creation ---------------------------------------------------------------------

CREATION_DICE = 5
CREATION_MINIMUM = 14


MAX_PARTY = 4
"""§开局设置.2, §配件一览: four mantles and four character boards: at most four characters."""


def party_full(seats_having: Sequence[int], players: int, party: int, seat: int) -> bool:
    """§开局设置.1–2: whether one more character for ``seat`` would make a fifth, or leave too
    few boards for the players who have none yet (``seats_having``: seats with a character)."""
    waiting = len(set(range(players)) - set(seats_having) - {seat})
    return party + 1 + waiting > MAX_PARTY


def creation_problem(rolls: Sequence[Sequence[int]], values: Sequence[int]) -> str | None:
    """§创造角色.1–2: every roll of five dice is rerolled until its sum is ≥ 14; the lowest
    die of the last roll is dropped and the other four are assigned one per attribute.

    Returns None when the rolls and the assignment follow that rule, else what is wrong
    (``dice``, ``reroll_needed``, ``rerolled_too_soon``, ``assignment``).
    """
    if not rolls or any(len(r) != CREATION_DICE or not all(1 <= d <= 6 for d in r) for r in rolls):
        return "dice"
    if sum(rolls[-1]) < CREATION_MINIMUM:
        return "reroll_needed"
    if any(sum(r) >= CREATION_MINIMUM for r in rolls[:-1]):
        return "rerolled_too_soon"
    kept = sorted(rolls[-1])[1:]
    if sorted(values) != kept:
        return "assignment"
    return None


# --- resources ------------------------------------------------------------------------------


def resource_name(name: str) -> str:
    """The full name with its face: a new token comes fresh or raw (§资源); water has one face."""
    if ":" in name or name == "water":
        return name
    data = resource_data()
    if name in data["perishable"]:
        return f"{name}:fresh"
    if name in data["hard"] or name in data["materials"]:
        return f"{name}:raw"
    return name


def known_resource(name: str) -> bool:
    """Whether the name is a resource of §资源 (with or without its face)."""
    data = resource_data()
    base, _, face = resource_name(name).partition(":")
    if base == "water":
        return not face
    if base in data["perishable"]:
        return face in ("fresh", "fermented")
    if base in data["hard"] or base in data["materials"]:
        return face in ("raw", "processed")
    return False


def count(pack: Resources, name: str) -> int:
    """How many of that resource the pack holds."""
    return dict(pack).get(resource_name(name), 0)


def add(pack: Resources, name: str, amount: int) -> Resources:
    """The pack with ``amount`` more (or fewer, if negative) of a resource."""
    held = dict(pack)
    key = resource_name(name)
    held[key] = held.get(key, 0) + amount
    return tuple(sorted((k, v) for k, v in held.items() if v > 0))


def spoil(pack: Resources) -> tuple[Resources, int]:
    """§夜晚阶段.5 腐败: fresh perishables ferment, fermented ones are discarded."""
    out: dict[str, int] = {}
    lost = 0
    for key, amount in pack:
        base, _, face = key.partition(":")
        if base in resource_data()["perishable"]:
            if face == "fresh":
                out[f"{base}:fermented"] = out.get(f"{base}:fermented", 0) + amount
            else:
                lost += amount
            continue
        out[key] = out.get(key, 0) + amount
    return tuple(sorted(out.items())), lost


def edible(pack: Resources) -> str | None:
    """The food eaten at night (§夜晚阶段.2), the table choosing (黎明规则): what spoils first:
    fermented, then fresh perishables, then processed hard food; None if nothing is edible."""
    data = resource_data()
    order = [f"{b}:fermented" for b in data["perishable"]]
    order += [f"{b}:fresh" for b in data["perishable"]]
    order += [f"{b}:processed" for b in data["hard"]]
    held = dict(pack)
    return next((name for name in order if held.get(name, 0) > 0), None)


def processing_problem(resources: Sequence[str], tools: Sequence[str]) -> str | None:
    """§加工: at most 3 resources, each hard food or material, each with a tool icon of its own
    (heat may be used up to 3 times). None when allowed, else ``count``, ``pairing``,
    ``unknown_tool``, ``not_processable`` or ``same_tool``."""
    data = resource_data()
    if not resources or len(resources) > data["max_processed"]:
        return "count"
    if len(tools) != len(resources):
        return "pairing"
    if any(t not in data["tools"] for t in tools):
        return "unknown_tool"
    for name in resources:
        base = name.partition(":")[0]
        if base not in data["hard"] and base not in data["materials"]:
            return "not_processable"
    others = [t for t in tools if t != data["heat"]]
    if len(set(others)) != len(others) or tools.count(data["heat"]) > data["heat_uses"]:
        return "same_tool"
    return None


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


def lose_energy(character: Character, amount: int) -> tuple[Character, int]:
    """§精力: lose energy; each point missing gives a light injury. Returns the injuries due."""
    missing = max(amount - character.energy, 0)
    return replace(character, energy=max(character.energy - amount, 0)), missing
