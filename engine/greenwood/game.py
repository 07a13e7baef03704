"""Greenwood's rounds and phases as data (``greenwood.zh.md §三``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from engine.core import END, Game, Options, Phase, Rng, Seat, State, Step, Text, TurnOrder

RULES = "greenwood.zh.md"
ROUNDS = 3
"""苍林秘境共进行3轮,每轮代表一个夜晚 (§三.1)."""


@dataclass(frozen=True)
class GreenwoodOptions(Options):
    """Setup of a Greenwood game (§一.1, §一.10)."""

    players: int = 2
    mode: Literal["basic", "clan"] = "basic"
    layout: int = 0
    """Submarine layout 0–3, shared by all players (§一.1)."""
    start_seat: int | None = None
    """Who saw an amber spirit last; None: chosen at random (§一.10)."""


def _after_dawn(state: State[Any]) -> str:
    """§三.1: upkeep after rounds 1 and 2; final scoring straight after the third dawn."""
    return "upkeep" if state.flow.round < ROUNDS else "scoring"


UPKEEP_STEPS = (
    Step("recall_tokens", Text("收回能量标记与间谍标记", "Take back energy and spy tokens")),
    Step(
        "watchtower", Text("更换瞭望塔板块(仅准备第三轮)", "Swap watchtower tiles (round 3 only)")
    ),
    Step("threats", Text("翻开新威胁", "Reveal the new threats")),
    Step("hands", Text("调整手牌至5张", "Adjust hands to 5 cards")),
    Step("start_player", Text("传递起始玩家标记", "Pass the start-player marker")),
)

PHASES = (
    Phase(
        "dusk",
        Text("黄昏", "Dusk"),
        TurnOrder.SIMULTANEOUS,
        starts_round=True,
        rule=f"{RULES} §三.2",
    ),
    Phase("departure", Text("启程", "Departure"), TurnOrder.SIMULTANEOUS, rule=f"{RULES} §三.3"),
    Phase("night", Text("夜晚", "Night"), TurnOrder.CLOCKWISE, rule=f"{RULES} §三.4 §三.13"),
    Phase("dawn", Text("黎明", "Dawn"), next=_after_dawn, rule=f"{RULES} §三.14"),
    Phase(
        "upkeep",
        Text("轮间整理", "Upkeep"),
        steps=UPKEEP_STEPS,
        next="dusk",
        rule=f"{RULES} §三.15",
    ),
    Phase("scoring", Text("最终计分", "Final scoring"), next=END, rule=f"{RULES} §五"),
)


class Greenwood(Game):
    """Greenwood: 1–4 players, three nights of dusk → departure → night → dawn."""

    name: ClassVar[str] = "greenwood"
    title: ClassVar[Text] = Text("苍林秘境", "Greenwood")
    rules: ClassVar[str] = RULES
    options_type: ClassVar[type[Options]] = GreenwoodOptions
    phases: ClassVar[tuple[Phase, ...]] = PHASES
    rounds: ClassVar[int | None] = ROUNDS

    def setup(self, options: Any, rng: Rng) -> tuple[Any, Rng, Seat]:
        """Choose the start player: the given seat, else at random (§一.10)."""
        if options.start_seat is not None:
            return None, rng, options.start_seat
        seat, rng = rng.choice(range(options.players))
        return None, rng, seat
