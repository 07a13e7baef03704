"""Greenwood's rounds and phases as data (``greenwood.zh.md §三``) and what each phase does
when it begins or ends."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.core import END, Event, Phase, State, Step, Text, TurnOrder
from engine.greenwood import rules
from engine.greenwood.moves import (
    FinalScores,
    RewardGained,
    SoloRated,
    ThreatRevealed,
    VirtualCompanionsRevealed,
)
from engine.greenwood.rules.draws import THREATS_IN_PLAY, table_draws, threat_at
from engine.greenwood.state import GreenwoodData, Player

RULES = "greenwood.zh.md"
ROUNDS = 3
"""苍林秘境共进行3轮,每轮代表一个夜晚 (§三.1)."""

SOLO_BANDS = (
    (
        45,
        Text(
            "德鲁伊议会没有特别注意到生物失踪",
            "The druid council has not noticed the missing creatures",
        ),
    ),
    (
        65,
        Text(
            "德鲁伊开始对部分神秘生物失踪感到困惑",
            "The druids begin to wonder where the creatures went",
        ),
    ),
    (85, Text("玩家的行动开始受到故乡居民关注", "Your deeds catch the eye of your home village")),
    (104, Text("玩家的行动受到越来越多追随者效仿", "More and more followers copy your deeds")),
    (None, Text("成功完成解放苍林秘境的壮举", "You have set the Greenwood free")),
)
"""§五.6: ≤45, 46–65, 66–85, 86–104, ≥105."""


def solo_band(score: int) -> tuple[int, Text]:
    """The solo rating band (1–5) of a final score and its title (§五.6)."""
    for band, (top, title) in enumerate(SOLO_BANDS, 1):
        if top is None or score <= top:
            return band, title
    raise AssertionError("unreachable")


def _players(state: State[GreenwoodData], change: Any) -> State[GreenwoodData]:
    table = state.data
    return replace(state, data=replace(table, players=tuple(change(p) for p in table.players)))


def _after_dawn(state: State[Any]) -> str:
    """§三.1: upkeep after rounds 1 and 2; final scoring straight after the third dawn."""
    return "upkeep" if state.flow.round < ROUNDS else "scoring"


def _dusk_begins(state: State[GreenwoodData]) -> tuple[State[GreenwoodData], tuple[Event, ...]]:
    return _players(state, lambda p: replace(p, dusk_done=frozenset())), ()


def _departure_begins(
    state: State[GreenwoodData],
) -> tuple[State[GreenwoodData], tuple[Event, ...]]:
    """§三.3: one choice per aurora held now; aurora gained during departure waits. A player
    with no aurora skips the phase (没有极光的玩家跳过本阶段): done without a ``pass``."""
    state = _players(state, lambda p: replace(p, departure_left=p.aurora))
    events: list[Event] = []
    for seat, p in enumerate(state.data.players):
        if rules.departure_over(p):
            state = rules.pass_for(state, seat, events)
    return state, tuple(events)


def _night_begins(state: State[GreenwoodData]) -> tuple[State[GreenwoodData], tuple[Event, ...]]:
    """§四.18: in a solo game the virtual opponent shows 1, 2, 3 companions in rounds 1, 2, 3."""
    if state.players != 1:
        return state, ()
    count = state.flow.round
    return replace(state, data=replace(state.data, virtual=count)), (
        VirtualCompanionsRevealed(count),
    )


def _night_ends(state: State[GreenwoodData]) -> tuple[State[GreenwoodData], tuple[Event, ...]]:
    """§四.18: the virtual opponent's companions are discarded; no turn (nor hike) is in
    progress."""
    data = replace(
        state.data, virtual=0, virtual_spied=frozenset(), virtual_spirit_spies=0, turn=None
    )
    state = replace(state, data=data)
    return _players(state, lambda p: replace(p, forest=None)), ()


def _dawn_begins(state: State[GreenwoodData]) -> tuple[State[GreenwoodData], tuple[Event, ...]]:
    """§三.14: 1 point per unused energy token and per unused spy token."""
    events: list[Event] = []
    players = []
    for seat, p in enumerate(state.data.players):
        unused = p.energy_left + p.spies_left
        if unused:
            events.append(RewardGained(seat, f"vp:{unused}", "dawn: unused tokens"))
        players.append(replace(p, score=p.score + unused))
    return replace(state, data=replace(state.data, players=tuple(players))), tuple(events)


def _upkeep_begins(state: State[GreenwoodData]) -> tuple[State[GreenwoodData], tuple[Event, ...]]:
    """§三.15 step 1 takes every energy and spy token back; step 3 reveals two threats."""

    def recall(p: Player) -> Player:
        return replace(p, energised=frozenset(), spied=frozenset(), spirit_spies=0, spies_out=0)

    state = _players(state, recall)
    table = state.data
    if table_draws(state):  # the table turns them up and gives them as dusk begins
        due = min(table.revealed + 2, THREATS_IN_PLAY) - table.revealed
        return replace(state, data=replace(table, threats_due=due)), ()
    revealed = min(table.revealed + 2, len(table.threats))
    events = tuple(
        ThreatRevealed(i, threat_at(state, i).name, threat_at(state, i).trigger)
        for i in range(table.revealed, revealed)
    )
    return replace(state, data=replace(table, revealed=revealed)), events


def _scoring_begins(state: State[GreenwoodData]) -> tuple[State[GreenwoodData], tuple[Event, ...]]:
    """§五: the points are on the score track already; announce them (and the solo band)."""
    players = state.data.players
    events: list[Event] = [
        FinalScores(tuple(p.score for p in players), tuple(len(p.rescued) for p in players))
    ]
    if state.players == 1:
        band, title = solo_band(players[0].score)
        events.append(SoloRated(players[0].score, band, title.zh, title.en))
    return state, tuple(events)


UPKEEP_STEPS = (
    Step("recall_tokens", Text("收回能量标记与间谍标记", "Take back energy and spy tokens")),
    Step(
        "watchtower",
        Text("更换瞭望塔板块(为第三轮)", "Swap the watchtower tiles (for round 3)"),
        skip_if=lambda state: state.flow.round != 2,  # §三.15.2: only when preparing round 3
    ),
    Step("threats", Text("翻开新威胁", "Reveal the new threats")),
    Step("hands", Text("调整手牌至5张", "Adjust hands to 5 cards")),
    Step("start_player", Text("传递起始玩家标记", "Pass the start-player marker")),
)

ANY_TIME = frozenset({"greenwood.gain", "greenwood.learn", "greenwood.place"})

PHASES = (
    Phase(
        "dusk",
        Text("黄昏", "Dusk"),
        TurnOrder.SIMULTANEOUS,
        moves=ANY_TIME
        | {
            "greenwood.dusk_marker",
            "greenwood.recruit",
            "greenwood.gain_aurora",
            "greenwood.protect",
            "greenwood.strengthen",
            "greenwood.threat_drawn",
            "greenwood.start_player",
        },
        starts_round=True,
        on_begin=_dusk_begins,
        rule=f"{RULES} §三.2",
    ),
    Phase(
        "departure",
        Text("启程", "Departure"),
        TurnOrder.SIMULTANEOUS,
        moves=ANY_TIME | {"greenwood.remove_hiker", "greenwood.cast_spell"},
        on_begin=_departure_begins,
        rule=f"{RULES} §三.3",
    ),
    Phase(
        "night",
        Text("夜晚", "Night"),
        TurnOrder.CLOCKWISE,
        moves=ANY_TIME
        | {
            "greenwood.use_energy",
            "greenwood.use_spy",
            "greenwood.hike",
            "greenwood.rescue",
            "greenwood.take_wisp",
            "greenwood.swap_knowledge",
            "greenwood.spirit_ability",
        },
        on_begin=_night_begins,
        on_end=_night_ends,
        rule=f"{RULES} §三.4 §三.13",
    ),
    Phase(
        "dawn",
        Text("黎明", "Dawn"),
        next=_after_dawn,
        on_begin=_dawn_begins,
        rule=f"{RULES} §三.14",
    ),
    Phase(
        "upkeep",
        Text("轮间整理", "Upkeep"),
        steps=UPKEEP_STEPS,
        next="dusk",
        on_begin=_upkeep_begins,
        rule=f"{RULES} §三.15",
    ),
    Phase(
        "scoring",
        Text("最终计分", "Final scoring"),
        next=END,
        on_begin=_scoring_begins,
        rule=f"{RULES} §五",
    ),
)
