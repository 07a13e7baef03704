"""Stonesaga's moves and events (``stonesaga.<verb>``), documented in ``docs/stonesaga.md``.

``character`` is the index of a character in the game (in the order they were created or
chosen); ``seat`` is the player who controls it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.core import Event, Move, Seat
from engine.stonesaga.state import Resources, ValleyRecord

# --- moves: setting up ----------------------------------------------------------------------


@dataclass(frozen=True)
class CreateCharacter(Move):
    """§创造角色: every roll of five dice until one sums to ≥ 14, and the four values kept."""

    type: ClassVar[str] = "stonesaga.create_character"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    name: str
    trait: str
    rolls: tuple[tuple[int, ...], ...]
    strength: int
    dexterity: int
    faith: int
    perception: int
    inherits: str = ""
    """§角色死亡与传说 遗物 局间死亡: the name of a character who died between sessions, whose
    kept items and materials pass to this one ("" for none)."""


@dataclass(frozen=True)
class CreationRoll(Move):
    """§创造角色.1: the five dice a player rolled at the table for a new character, entered
    one value per die; repeated until a roll sums to ≥ 14 (then ``create_character``)."""

    type: ClassVar[str] = "stonesaga.creation_roll"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    d1: int
    d2: int
    d3: int
    d4: int
    d5: int


@dataclass(frozen=True)
class ChooseCharacter(Move):
    """§开局设置.1: take a living character of the Log (the ``roster`` option) into this game."""

    type: ClassVar[str] = "stonesaga.choose_character"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    name: str
    inherits: str = ""
    """As for ``create_character``: relics of a character who died between sessions."""


# --- moves: the day's actions ---------------------------------------------------------------


@dataclass(frozen=True)
class Travel(Move):
    """§移动: to an adjacent tile; ``resolved`` False when the journey card's condition failed
    (then hard travel: 1 energy if the crossed edge is blocked)."""

    type: ClassVar[str] = "stonesaga.travel"
    seat: Seat
    character: int
    to: str
    resolved: bool = True


@dataclass(frozen=True)
class Exchange(Move):
    """§交换 (1 energy, free at an outpost): swap resources with a character on the same tile."""

    type: ClassVar[str] = "stonesaga.exchange"
    seat: Seat
    character: int
    partner: int
    give: Resources = ()
    receive: Resources = ()


@dataclass(frozen=True)
class Pack(Move):
    """§打包与解包 (1 energy): pack and unpack items."""

    type: ClassVar[str] = "stonesaga.pack"
    seat: Seat
    character: int


@dataclass(frozen=True)
class Aid(Move):
    """§救助 (1 energy): an incapacitated character on the tile degrades the malady at ``cell``."""

    type: ClassVar[str] = "stonesaga.aid"
    seat: Seat
    character: int
    target: int
    cell: int


@dataclass(frozen=True)
class Process(Move):
    """§加工 (1 energy + 1 per resource): up to 3 resources, ``tools[i]`` used on
    ``resources[i]``, a different tool icon each (heat up to 3 times)."""

    type: ClassVar[str] = "stonesaga.process"
    seat: Seat
    character: int
    resources: tuple[str, ...]
    tools: tuple[str, ...]


@dataclass(frozen=True)
class Craft(Move):
    """§合成 (1 energy): two materials tried together; ``item`` names what was made ("" if
    the Secret Book has no entry: the materials go back to the pack)."""

    type: ClassVar[str] = "stonesaga.craft"
    seat: Seat
    character: int
    materials: tuple[str, ...]
    item: str = ""


@dataclass(frozen=True)
class BuildOutpost(Move):
    """§建前哨 (4 energy, shared): ``shares`` are (character, energy) paid by others on the tile;
    the builder pays the rest."""

    type: ClassVar[str] = "stonesaga.build_outpost"
    seat: Seat
    character: int
    zone: int = 0
    shares: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class CollectWater(Move):
    """§取水 (1 energy, no depletion): 2 water at a lake, river or wetland."""

    type: ClassVar[str] = "stonesaga.collect_water"
    seat: Seat
    character: int
    feature: str


@dataclass(frozen=True)
class PrepareShelter(Move):
    """§备庇护所 (1 energy): at a cave, a shelter of 1, or 1 turned to 2."""

    type: ClassVar[str] = "stonesaga.prepare_shelter"
    seat: Seat
    character: int


@dataclass(frozen=True)
class Fish(Move):
    """§钓鱼 (2 energy, depletes): at the declared lake, river or wetland; four dice. The turn
    stays open: the dice are entered (``fishing_roll``) before anything else."""

    type: ClassVar[str] = "stonesaga.fish"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    character: int
    feature: str


@dataclass(frozen=True)
class FishingRoll(Move):
    """§钓鱼.3: the four dice rolled at the table for the fishing just done, one value per die
    (they are then laid on the strike zones; what is caught is recorded with ``effect``, then
    ``end_turn``)."""

    type: ClassVar[str] = "stonesaga.fishing_roll"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    d1: int
    d2: int
    d3: int
    d4: int


@dataclass(frozen=True)
class Forage(Move):
    """§采集 (2 energy, depletes): at a forest or grassland."""

    type: ClassVar[str] = "stonesaga.forage"
    seat: Seat
    character: int
    feature: str


@dataclass(frozen=True)
class Mine(Move):
    """§采矿 (2 energy, depletes): fill the bag for the feature; then ``draw_ore`` up to 3 times
    and ``finish_mining``."""

    type: ClassVar[str] = "stonesaga.mine"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    character: int
    feature: str


@dataclass(frozen=True)
class DrawOre(Move):
    """§采矿.4–5: the token drawn from the bag (its stone and the omen on its face)."""

    type: ClassVar[str] = "stonesaga.draw_ore"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    stone: str
    omen: str


@dataclass(frozen=True)
class FinishMining(Move):
    """§采矿.6: stop drawing; every ore token goes back to the supply. Ends the turn."""

    type: ClassVar[str] = "stonesaga.finish_mining"
    seat: Seat


@dataclass(frozen=True)
class Build(Move):
    """§建建筑: a designed building at an outpost; ``energy`` is printed on the card's back,
    shared like an outpost's (``shares``); at most 5 buildings per outpost."""

    type: ClassVar[str] = "stonesaga.build"
    seat: Seat
    character: int
    name: str
    energy: int
    shares: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class RelocateOutpost(Move):
    """§废墟与迁移前哨 (3 energy): the outpost on the tile moves to an adjacent tile without one."""

    type: ClassVar[str] = "stonesaga.relocate_outpost"
    seat: Seat
    character: int
    to: str


@dataclass(frozen=True)
class MakeFire(Move):
    """§生火 (1 energy + 1 wood, optionally 1 fiber for +2): a dexterity or faith test follows
    (``roll``); 10+ puts a fire on the tile, 1–9 gives the wood back. The turn stays open."""

    type: ClassVar[str] = "stonesaga.make_fire"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    character: int
    attribute: str
    fiber: bool = False


@dataclass(frozen=True)
class Delve(Move):
    """§探穴 (1 energy): start delving at a cave or fissure; the chambers are cards."""

    type: ClassVar[str] = "stonesaga.delve"
    seat: Seat
    character: int


@dataclass(frozen=True)
class Scavenge(Move):
    """§拾荒 (2 energy, depletes): at a tile with a ruin."""

    type: ClassVar[str] = "stonesaga.scavenge"
    seat: Seat
    character: int


@dataclass(frozen=True)
class Give(Move):
    """§白天阶段 食物与水: before or after an action, food or water handed to a character on
    the same tile, free and not an action."""

    type: ClassVar[str] = "stonesaga.give"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    character: int
    partner: int
    resource: str
    amount: int = 1


@dataclass(frozen=True)
class AlertBehemoth(Move):
    """§巨兽 警觉: 每局开始时，从有启用巢穴的巨兽里随机选一头成为警觉 — the behemoth the table
    drew (by its name in the Log) with the option draws "table", before the first day's
    actions: any seat gives it, outside the turns."""

    type: ClassVar[str] = "stonesaga.alert_behemoth"
    ends_turn: ClassVar[bool] = False
    out_of_turn: ClassVar[bool] = True
    seat: Seat
    behemoth: str


# --- moves: tests and effects ---------------------------------------------------------------


@dataclass(frozen=True)
class CallTest(Move):
    """§判定: a character tests an attribute (``modifier``: text, trait and item +/−);
    with ``versus`` it is a contest against a behemoth's value (§角力). Lights one die."""

    type: ClassVar[str] = "stonesaga.call_test"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    character: int
    attribute: str
    modifier: int = 0
    versus: int | None = None


@dataclass(frozen=True)
class Roll(Move):
    """A die of the test in progress: ``value`` as rolled, ``change`` from effects that change
    a die (§随机化: never above 6 or below 1). A 6 calls one more die (§奋力一搏)."""

    type: ClassVar[str] = "stonesaga.roll"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    value: int
    change: int = 0


@dataclass(frozen=True)
class Effect(Move):
    """What a card or the Secret Book did to a character: ``kind`` is one of
    lose_energy, gain_energy, injury, illness (``detail`` "light" or "heavy"), degrade
    (``amount`` = cell), boost (``detail`` attribute, ``amount`` 1 minor / 2 major),
    gain, lose (``detail`` resource)."""

    type: ClassVar[str] = "stonesaga.effect"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    character: int
    kind: str
    amount: int = 1
    detail: str = ""


@dataclass(frozen=True)
class EndChallenge(Move):
    """§挑战卡与目标卡: the challenge ended (``won`` or ``lost``); the day ends, the save begins."""

    type: ClassVar[str] = "stonesaga.end_challenge"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    result: str


# --- moves: the night and the save ----------------------------------------------------------


@dataclass(frozen=True)
class NightCard(Move):
    """§夜晚阶段.7: a character's night card: ``met`` its condition (else a calm night: +1
    energy, or a minor ``boost`` when energy is full), and the omen at its bottom."""

    type: ClassVar[str] = "stonesaga.night_card"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    character: int
    met: bool
    omen: str
    boost: str = ""


@dataclass(frozen=True)
class Keep(Move):
    """§局间保留与存档: what a character keeps for the next session (≤ 5 items, ≤ 5 materials)."""

    type: ClassVar[str] = "stonesaga.keep"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    character: int
    items: tuple[str, ...] = ()
    materials: tuple[str, ...] = ()


@dataclass(frozen=True)
class RecordValley(Move):
    """§局间保留与存档 记录地图: the valley map for the Log (read by the camera)."""

    type: ClassVar[str] = "stonesaga.record_valley"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    record: ValleyRecord


@dataclass(frozen=True)
class Mourn(Move):
    """§夜晚阶段.1, §角色死亡与传说.1: the mourning d6 rolled at the table for a character who
    died (``legend``), and the attribute raised on a 5–6 (the players' choice, at most 6).

    At night ``legend`` is the character's index in the game; in the ``interval`` phase, its
    index in the Log's roster (a death of old age: the roll counts +2)."""

    type: ClassVar[str] = "stonesaga.mourn"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    legend: int
    roll: int
    attribute: str = ""


# --- moves: between sessions (the interval phase) -------------------------------------------


@dataclass(frozen=True)
class MoveOutpost(Move):
    """§废墟与迁移前哨: a free outpost relocation between sessions, from ``tile`` to an adjacent
    tile without an outpost (one after a season; one per outpost after a generation or at an
    epoch's start)."""

    type: ClassVar[str] = "stonesaga.move_outpost"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    tile: str
    to: str


@dataclass(frozen=True)
class RuinOutpost(Move):
    """§建前哨, §废墟与迁移前哨: at a new epoch's start, an outpost beyond what the population
    allows becomes a ruin (the players choose which); its buildings no longer count."""

    type: ClassVar[str] = "stonesaga.ruin_outpost"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    tile: str


@dataclass(frozen=True)
class RebuildValley(Move):
    """§开局设置.7, §山谷扩张: the valley as rebuilt from the Log's map (read by the camera),
    checked against the record and the epoch's capacity."""

    type: ClassVar[str] = "stonesaga.rebuild_valley"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    record: ValleyRecord


# --- events ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class CharacterJoined(Event):
    """A character was created or chosen for this game."""

    type: ClassVar[str] = "stonesaga.character_joined"
    character: int
    seat: Seat
    name: str
    attributes: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class EnergyChanged(Event):
    """A character's available energy changed by ``delta`` to ``energy``."""

    type: ClassVar[str] = "stonesaga.energy_changed"
    character: int
    energy: int
    delta: int
    reason: str


@dataclass(frozen=True)
class HealthChanged(Event):
    """A character's health track changed (``what``: added, upgraded, degraded, no_room)."""

    type: ClassVar[str] = "stonesaga.health_changed"
    character: int
    health: tuple[str, ...]
    what: str
    incapacitated: bool


@dataclass(frozen=True)
class CharacterDied(Event):
    """§夜晚阶段.1: the character died; the mourning roll and its effect (§角色死亡与传说)."""

    type: ClassVar[str] = "stonesaga.character_died"
    character: int
    name: str
    roll: int
    effect: str


@dataclass(frozen=True)
class MourningDue(Event):
    """§夜晚阶段.1: the character died; the clan rolls the mourning d6 (``mourn``)."""

    type: ClassVar[str] = "stonesaga.mourning_due"
    character: int
    name: str


@dataclass(frozen=True)
class BoostChanged(Event):
    """A boost changed: level 0 none, 1 minor, 2 major."""

    type: ClassVar[str] = "stonesaga.boost_changed"
    character: int
    attribute: str
    level: int


@dataclass(frozen=True)
class TestResolved(Event):
    """A test's result: the dice (after changes), the total, and for a contest the success."""

    type: ClassVar[str] = "stonesaga.test_resolved"
    character: int
    attribute: str
    dice: tuple[int, ...]
    total: int
    success: bool | None = None


@dataclass(frozen=True)
class ResourcesChanged(Event):
    """A character's pack gained (positive) or lost resources."""

    type: ClassVar[str] = "stonesaga.resources_changed"
    character: int
    resource: str
    delta: int


@dataclass(frozen=True)
class Travelled(Event):
    """A character moved; a journey card is to be drawn (§移动)."""

    type: ClassVar[str] = "stonesaga.travelled"
    character: int
    tile: str
    revealed: bool
    hard_travel: bool


@dataclass(frozen=True)
class TileMarked(Event):
    """A location marker changed on a tile (depletion, shelter, fire, outpost)."""

    type: ClassVar[str] = "stonesaga.tile_marked"
    tile: str
    marker: str
    level: int


@dataclass(frozen=True)
class MiningBagFilled(Event):
    """§采矿.3: what went into the bag for this feature (shown on the kiosk)."""

    type: ClassVar[str] = "stonesaga.mining_bag_filled"
    character: int
    feature: str
    bag: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class OreDrawn(Event):
    """§采矿.4–5: a token drawn; on an omen match, the mining-table entry to read."""

    type: ClassVar[str] = "stonesaga.ore_drawn"
    character: int
    stone: str
    omen: str
    matched: bool
    entry_zh: str = ""
    entry_en: str = ""
    feature: str = ""
    """The feature mined: the row of the mining table the entry is read in (its demo note)."""


@dataclass(frozen=True)
class FishingRolled(Event):
    """§钓鱼.3: the four fishing dice as rolled (the trays clear)."""

    type: ClassVar[str] = "stonesaga.fishing_rolled"
    character: int
    dice: tuple[int, ...]


@dataclass(frozen=True)
class OreReturned(Event):
    """§采矿.6: the ore tokens went back to the supply."""

    type: ClassVar[str] = "stonesaga.ore_returned"
    drawn: int


@dataclass(frozen=True)
class OmenSet(Event):
    """§夜晚阶段.7: the current omen (from the last night card resolved)."""

    type: ClassVar[str] = "stonesaga.omen_set"
    omen: str


@dataclass(frozen=True)
class ActivityRaised(Event):
    """§夜晚阶段.8: activity +1."""

    type: ClassVar[str] = "stonesaga.activity_raised"
    activity: int


@dataclass(frozen=True)
class ChallengeEventDue(Event):
    """§夜晚阶段.8: a challenge event whose threshold was reached: resolve it now."""

    type: ClassVar[str] = "stonesaga.challenge_event_due"
    threshold: int
    text_zh: str
    text_en: str


@dataclass(frozen=True)
class NightRecovered(Event):
    """§夜晚阶段.2: energy regained at night, and from what."""

    type: ClassVar[str] = "stonesaga.night_recovered"
    character: int
    energy: int
    rest: int
    food: str
    water: bool
    comfort: bool


@dataclass(frozen=True)
class SocietyChecked(Event):
    """§夜晚阶段.9: population, unrest and the outposts they allow."""

    type: ClassVar[str] = "stonesaga.society_checked"
    population: int
    unrest: int
    outposts: int
    outpost_limit: int


@dataclass(frozen=True)
class BehemothAlert(Event):
    """§巨兽 警觉: the behemoth chosen at random to be alert this session (drawn by the table
    and given with ``alert_behemoth``, or by the engine with draws "virtual")."""

    type: ClassVar[str] = "stonesaga.behemoth_alert"
    name: str


@dataclass(frozen=True)
class ChallengeEnded(Event):
    """The challenge ended; what to save comes next."""

    type: ClassVar[str] = "stonesaga.challenge_ended"
    result: str


@dataclass(frozen=True)
class ValleyRecorded(Event):
    """The valley map was written into the campaign log."""

    type: ClassVar[str] = "stonesaga.valley_recorded"
    region: str
    trays: int
    tiles: int
    overlays: int


@dataclass(frozen=True)
class Kept(Event):
    """What a character keeps for the next session."""

    type: ClassVar[str] = "stonesaga.kept"
    character: int
    items: tuple[str, ...]
    materials: tuple[str, ...]


@dataclass(frozen=True)
class IntervalApplied(Event):
    """§间隔与变老: the chosen challenge's interval is applied as the session begins."""

    type: ClassVar[str] = "stonesaga.interval_applied"
    challenge: str
    interval: str
    epoch: int
    session: int


@dataclass(frozen=True)
class CharacterAged(Event):
    """§间隔与变老: a character of the Log (``legend``: its roster index) grew old or died."""

    type: ClassVar[str] = "stonesaga.character_aged"
    legend: int
    name: str
    age: str


@dataclass(frozen=True)
class OutpostsReviewed(Event):
    """§建前哨, §废墟与迁移前哨: the Log's outposts as a session begins between sessions: the
    tiles they stand on, how many the population allows, how many must become ruins now (at a
    new epoch's start) and the free moves."""

    type: ClassVar[str] = "stonesaga.outposts_reviewed"
    tiles: tuple[str, ...]
    limit: int
    ruins_due: int
    free_moves: int


@dataclass(frozen=True)
class LegendMourned(Event):
    """§角色死亡与传说.1: the mourning of a character who died between sessions: the d6, its
    total (+2 for old age) and the effect; the character is a legend."""

    type: ClassVar[str] = "stonesaga.legend_mourned"
    legend: int
    name: str
    roll: int
    total: int
    effect: str


@dataclass(frozen=True)
class OutpostMoved(Event):
    """§废墟与迁移前哨: an outpost moved between sessions, free; ``left`` moves remain."""

    type: ClassVar[str] = "stonesaga.outpost_moved"
    tile: str
    to: str
    left: int


@dataclass(frozen=True)
class OutpostRuined(Event):
    """§建前哨: an outpost became a ruin at a new epoch's start; ``left`` more must."""

    type: ClassVar[str] = "stonesaga.outpost_ruined"
    tile: str
    left: int


@dataclass(frozen=True)
class ValleyRebuilt(Event):
    """§开局设置.7, §山谷扩张: the rebuilt valley matches the Log; ``expansion`` new tiles."""

    type: ClassVar[str] = "stonesaga.valley_rebuilt"
    trays: int
    capacity: int
    expansion: int


@dataclass(frozen=True)
class RelicsInherited(Event):
    """§角色死亡与传说 遗物 局间死亡: what a character who died between sessions kept passes to
    a character of this session."""

    type: ClassVar[str] = "stonesaga.relics_inherited"
    character: int
    name: str
    items: tuple[str, ...]
    materials: tuple[str, ...]
