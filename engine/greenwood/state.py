"""Greenwood's own part of the game state: one Player per seat and the shared table."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.core import Seat
from engine.greenwood.board import Cells
from engine.greenwood.catalogue import Threat

START_SCORE = 5
"""计分标记放在主板计分轨道的5分位置 (§一.6)."""
START_ENERGY, MAX_ENERGY = 2, 4
"""拿取2个能量标记 (§一.6); 最多可以额外获得2个能量标记 (§四.7)."""
START_SPIES, MAX_SPIES = 1, 2
"""拿取1个间谍标记 (§一.6); 最多可以拥有2个间谍标记 (§四.7)."""
OVERFLOW_VP = 4
"""A further energy or spy gain gives 4 points instead (§四.7)."""
MAX_AURORA = 5
"""极光最多累积至5个 (§三.2)."""
START_SLOTS = 2
"""游戏开始时,玩家已经解锁2个知识储存格 (§四.3)."""
PROTECTION_TOKENS = 3
"""21个保护标记 for 7 colours (§一): 3 per player."""
ORDINARY_PLACES = 5
"""5个普通伙伴位置和1个原初之灵位置 (§一.6)."""
SPIRIT_SPY_PLACES = 2
"""原初之灵最多可以在同一轮被2个间谍标记使用 (§三.6)."""

Pending = tuple[str, str]
"""(source, reward) waiting to be resolved; reward ``"place:<shape>"`` waits for a piece."""


@dataclass(frozen=True)
class Placed:
    """A piece in a submarine: it never moves again (§三.10)."""

    piece: str
    cells: Cells


@dataclass(frozen=True)
class Player:
    """One player's tokens, tracks, companions and submarine."""

    score: int = START_SCORE
    energy: int = START_ENERGY
    spies: int = START_SPIES
    aurora: int = 0
    strength: int = 0
    pathfinding: int = 0
    slots: int = START_SLOTS
    knowledge: tuple[str, ...] = ()
    protections: tuple[int, ...] = ()
    companions: frozenset[int] = frozenset({0})
    """Ordinary places 0–4 holding a companion (the start companion is in place 0, §一.8)."""
    hikers: frozenset[int] = frozenset()
    energised: frozenset[int] = frozenset()
    """Own companions (0–5) carrying this player's energy token this round."""
    spied: frozenset[int] = frozenset()
    """Own ordinary companions carrying someone's spy token this round."""
    spirit_spies: int = 0
    spies_out: int = 0
    marker: str | None = None
    """Where the dusk marker lies; ``marker_round`` says which round put it there."""
    marker_round: int = 0
    dusk_done: frozenset[str] = frozenset()
    departure_left: int = 0
    """Choices left in this departure: the aurora held when it began (§三.3)."""
    pieces: tuple[Placed, ...] = ()
    rescued: tuple[str, ...] = ()
    """Captive creature tiles on top of the submarine (§三.9; the tie-break of §五.5)."""
    pending: tuple[Pending, ...] = ()
    swap_ready: bool = False
    spirit_ready: bool = False
    """This turn's token went on a primal spirit and its ability is not chosen yet (§四.1)."""
    forest: tuple[str, ...] | None = None
    """The forest action of this night turn's hike (or spirit journey) so far: () before it,
    then ``("learn",)`` / ``("learn", "learn")``, ``("rescue",)`` or ``("wisp",)``; None when the
    turn's token is not a hike (§三.7: a hike allows one forest action)."""

    @property
    def covered(self) -> Cells:
        """Every submarine cell under a piece."""
        return frozenset(c for p in self.pieces for c in p.cells)

    @property
    def energy_left(self) -> int:
        """Energy tokens not yet on a companion."""
        return self.energy - len(self.energised)

    @property
    def spies_left(self) -> int:
        """Spy tokens not yet on a companion."""
        return self.spies - self.spies_out

    @property
    def awaiting(self) -> str | None:
        """The piece this player must place before anything else, if any."""
        if self.pending and self.pending[0][1].startswith("place:"):
            return self.pending[0][1].removeprefix("place:")
        return None


@dataclass(frozen=True)
class GreenwoodData:
    """Greenwood's data in the core State: the players and the shared table."""

    players: tuple[Player, ...]
    threats: tuple[int, ...]
    """The threat cards in play, in the order they are revealed: indices of the box's threats
    followed by ``entered`` (index ``len(box threats) + k`` is ``entered[k]``)."""
    revealed: int = 1
    threats_due: int = 0
    """Threat cards turned up that the table has still to give (draws "table", §一.3)."""
    entered: tuple[Threat, ...] = ()
    """Threat cards the table entered by what they show (the box did not hold them): this
    game's from then on (draws "table")."""
    start_due: bool = False
    """The start player is still to be chosen at the table (draws "table", §一.10)."""
    virtual: int = 0
    """Solo: companions the virtual opponent shows this night (each carries energy, §四.18)."""
    virtual_spied: frozenset[int] = frozenset()
    virtual_spirit_spies: int = 0
    turn: tuple[Seat, int] | None = None
    """(seat, move count) of the night turn in progress: its token is used (§三.4)."""

    def with_player(self, seat: Seat, player: Player) -> GreenwoodData:
        """The table with one player replaced."""
        players = list(self.players)
        players[seat] = player
        return replace(self, players=tuple(players))
