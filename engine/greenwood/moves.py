"""Greenwood's moves and events (greenwood.zh.md §三, §四, §五); examples in docs/greenwood.md.

Companions are numbered 0–4 (the five ordinary places of a player board, §一.6) and 5 for the
primal spirit (原初之灵). Rewards are strings such as ``"vp:2"`` or ``"energy"`` (see
``engine/greenwood/data/submarines.toml``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from engine.core import Event, Move, Seat

Knowledge = Literal["red", "blue", "yellow"]
DuskEffect = Literal["recruit", "aurora", "protect", "strengthen"]
Spell = Literal["request_aid", "stay_alert"]
Token = Literal["energy", "spy", "hike"]
SPIRIT = 5
"""The primal spirit's companion number."""

# --- dusk (§三.2) ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PlaceDuskMarker(Move):
    """Put the dusk marker on the one effect this player gives up this round (§三.2)."""

    type: ClassVar[str] = "greenwood.dusk_marker"
    seat: Seat
    effect: DuskEffect


@dataclass(frozen=True)
class Recruit(Move):
    """Dusk effect: a companion from hand to an ordinary place 0–4 (§三.2 招募伙伴)."""

    type: ClassVar[str] = "greenwood.recruit"
    seat: Seat
    place: int


@dataclass(frozen=True)
class GainAurora(Move):
    """Dusk effect: discard a card, the aurora marker moves up one (§三.2 获得极光)."""

    type: ClassVar[str] = "greenwood.gain_aurora"
    seat: Seat


@dataclass(frozen=True)
class Protect(Move):
    """Dusk effect: a protection token on a revealed threat (0 = round 1's), paying its reward;
    with every token placed, ``move_from`` names the threat it is taken from (§三.2 保护队伍)."""

    type: ClassVar[str] = "greenwood.protect"
    seat: Seat
    threat: int
    move_from: int | None = None


@dataclass(frozen=True)
class Strengthen(Move):
    """Dusk effect: one step up the strength track, paying what it reaches (§三.2 强化伙伴队伍)."""

    type: ClassVar[str] = "greenwood.strengthen"
    seat: Seat


# --- departure (§三.3) -----------------------------------------------------------------------


@dataclass(frozen=True)
class RemoveHiker(Move):
    """Departure, one aurora: take the hike token off an ordinary companion (§三.3)."""

    type: ClassVar[str] = "greenwood.remove_hiker"
    seat: Seat
    companion: int


@dataclass(frozen=True)
class CastSpell(Move):
    """Departure, one aurora: a standard spell (§三.3): request aid (draw, 1 VP) or stay alert
    (discard, 1 pathfinding)."""

    type: ClassVar[str] = "greenwood.cast_spell"
    seat: Seat
    spell: Spell


# --- night: the tokens (§三.4–§三.7) ----------------------------------------------------------


@dataclass(frozen=True)
class UseEnergy(Move):
    """An energy token on one's own free companion (0–4, or 5 the spirit) (§三.5)."""

    type: ClassVar[str] = "greenwood.use_energy"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    companion: int


@dataclass(frozen=True)
class UseSpy(Move):
    """A spy token on another player's energised companion or spirit (§三.6); ``owner`` None is
    the solo mode's virtual opponent (§四.18)."""

    type: ClassVar[str] = "greenwood.use_spy"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    owner: Seat | None
    companion: int


@dataclass(frozen=True)
class Hike(Move):
    """A hike token on one's own free ordinary companion: a forest action follows (§三.7)."""

    type: ClassVar[str] = "greenwood.hike"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    companion: int


@dataclass(frozen=True)
class SpiritAbility(Move):
    """After an energy or spy token on a primal spirit: one of its two abilities (§四.1):
    ``draw_three`` (3 cards and 2 points) or ``journey`` (1 card, a move one step further and
    the forest action there)."""

    type: ClassVar[str] = "greenwood.spirit_ability"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    ability: Literal["draw_three", "journey"]


# --- what a turn does (§三.8–§三.12) and rewards printed on cards ------------------------------


@dataclass(frozen=True)
class Gain(Move):
    """A reward printed on a card or tile the engine does not read (``"vp:2"``, ``"spy"``…);
    ``"vp:-N"`` pays points (§四.8: never below 0)."""

    type: ClassVar[str] = "greenwood.gain"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    reward: str


@dataclass(frozen=True)
class Learn(Move):
    """A knowledge token into a free unlocked slot; with none free, ``discard`` names the token
    returned first (§三.8, §四.4)."""

    type: ClassVar[str] = "greenwood.learn"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    knowledge: Knowledge
    discard: Knowledge | None = None


@dataclass(frozen=True)
class Rescue(Move):
    """Rescue a captive creature: pay its knowledge, score it, then place its piece(s) (§三.9)."""

    type: ClassVar[str] = "greenwood.rescue"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    creature: str


@dataclass(frozen=True)
class TakeWisp(Move):
    """The wisp action: take a will-o'-wisp to place in the submarine (§三.11)."""

    type: ClassVar[str] = "greenwood.take_wisp"
    ends_turn: ClassVar[bool] = False
    seat: Seat


@dataclass(frozen=True)
class SwapKnowledge(Move):
    """After placing the wisp of a wisp action: one knowledge token becomes another (§三.11)."""

    type: ClassVar[str] = "greenwood.swap_knowledge"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    old: Knowledge
    new: Knowledge


@dataclass(frozen=True)
class Place(Move):
    """A rescued creature or wisp piece laid in the submarine on ``cells`` (§三.10)."""

    type: ClassVar[str] = "greenwood.place"
    ends_turn: ClassVar[bool] = False
    seat: Seat
    piece: str
    cells: tuple[tuple[int, int], ...]


# --- events --------------------------------------------------------------------------------


@dataclass(frozen=True)
class DuskMarkerPlaced(Event):
    """A player gave up one dusk effect for this round."""

    type: ClassVar[str] = "greenwood.dusk_marker_placed"
    seat: Seat
    effect: str


@dataclass(frozen=True)
class TokenUsed(Event):
    """A night token was put on a companion (``owner``: whose companion; None: virtual)."""

    type: ClassVar[str] = "greenwood.token_used"
    seat: Seat
    token: Token
    owner: Seat | None
    companion: int


@dataclass(frozen=True)
class RewardGained(Event):
    """A reward was resolved (``source`` says what paid it: an icon, an area, a track…)."""

    type: ClassVar[str] = "greenwood.reward_gained"
    seat: Seat
    reward: str
    source: str


@dataclass(frozen=True)
class PlacementAwaited(Event):
    """A piece must now be put in this player's submarine (the camera is watching for it)."""

    type: ClassVar[str] = "greenwood.placement_awaited"
    seat: Seat
    piece: str


@dataclass(frozen=True)
class RewardLost(Event):
    """A reward brought a piece no cell of the submarine can take: it is lost (§三.2: 若无法满足
    效果的条件,该效果直接失去; §三.10), and the rewards after it go on."""

    type: ClassVar[str] = "greenwood.reward_lost"
    seat: Seat
    piece: str
    source: str


@dataclass(frozen=True)
class PiecePlaced(Event):
    """A piece was accepted in a submarine, turned ``rotation`` degrees clockwise."""

    type: ClassVar[str] = "greenwood.piece_placed"
    seat: Seat
    piece: str
    cells: tuple[tuple[int, int], ...]
    rotation: int
    flipped: bool


@dataclass(frozen=True)
class CreatureRescued(Event):
    """A captive creature was rescued; its tile goes on top of the submarine (tie-break)."""

    type: ClassVar[str] = "greenwood.creature_rescued"
    seat: Seat
    creature: str


@dataclass(frozen=True)
class KnowledgeChanged(Event):
    """A player's knowledge slots now hold these tokens."""

    type: ClassVar[str] = "greenwood.knowledge_changed"
    seat: Seat
    knowledge: tuple[str, ...]


@dataclass(frozen=True)
class ThreatRevealed(Event):
    """A threat card was turned face up (§一.3, §三.15 step 3)."""

    type: ClassVar[str] = "greenwood.threat_revealed"
    index: int
    name: str
    trigger: str


@dataclass(frozen=True)
class VirtualCompanionsRevealed(Event):
    """Solo mode: the virtual opponent shows this many companions, each with energy (§四.18)."""

    type: ClassVar[str] = "greenwood.virtual_companions"
    count: int


@dataclass(frozen=True)
class FinalScores(Event):
    """Final scoring: points and rescued creatures per seat (§五)."""

    type: ClassVar[str] = "greenwood.final_scores"
    scores: tuple[int, ...]
    rescued: tuple[int, ...]


@dataclass(frozen=True)
class SoloRated(Event):
    """Solo mode: the rating band of the final score (§五.6), 1 (≤45) to 5 (≥105)."""

    type: ClassVar[str] = "greenwood.solo_rated"
    score: int
    band: int
    title_zh: str
    title_en: str


@dataclass(frozen=True)
class ThreatDrawn(Move):
    """The threat card the table turned face up, with draws "table" (§一.3: round 1's as the
    game opens; §三.15 step 3: two more each upkeep, given as the next dusk begins). Picked by
    its name among the box's threats (``threat``), or, for a card the box does not hold,
    entered by what it shows: what sets it off (``trigger``, §四.5) and its protection reward
    (``protection``, a reward kind, ``amount`` of it). Any seat gives it."""

    type: ClassVar[str] = "greenwood.threat_drawn"
    ends_turn: ClassVar[bool] = False
    out_of_turn: ClassVar[bool] = True
    seat: Seat
    threat: str = ""
    trigger: str = ""
    protection: str = ""
    amount: int = 1


@dataclass(frozen=True)
class ChooseStartPlayer(Move):
    """Who takes the start-player marker, chosen at the table with draws "table" when the
    set-up named no one (§一.10: 最近一次见过琥珀灵的玩家…无法确定时,随机选择): ``player`` is
    that seat. Any seat gives it."""

    type: ClassVar[str] = "greenwood.start_player"
    ends_turn: ClassVar[bool] = False
    out_of_turn: ClassVar[bool] = True
    seat: Seat
    player: Seat


@dataclass(frozen=True)
class StartPlayerChosen(Event):
    """The start-player marker went to this seat (§一.10); the night's turns begin there."""

    type: ClassVar[str] = "greenwood.start_player_chosen"
    player: Seat
