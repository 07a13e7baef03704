"""Stonesaga's phases as data (``stonesaga.zh.md §一局游戏长什么样``): creation → day (free
order) → night steps 1–9, each a phase of its own so that its effect happens when the table
reaches it → behemoth (when one is alert) → day … until ``end_challenge``, then the save; a
session set up from the Log opens with the interval.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import (
    END,
    Event,
    Move,
    Phase,
    State,
    Step,
    Text,
    TurnOrder,
)
from engine.stonesaga import moves as mv
from engine.stonesaga import state as st
from engine.stonesaga.catalogue import rule
from engine.stonesaga.rules.creation import (
    _creation_begin,
    _session_begin,
)
from engine.stonesaga.rules.dispatch import ACTIONS
from engine.stonesaga.rules.interval import (
    between_sessions,
    interval_begin,
)
from engine.stonesaga.rules.night import (
    MOURNING_PHASE,
    _night_phase,
)

Events = tuple[Event, ...]
Data = st.Saga


def _day_begin(state: State[Data]) -> tuple[State[Data], Events]:
    data = replace(state.data, mining=None, test=None, fishing=None)
    return replace(state, data=data), ()


def _day_over(state: State[Data]) -> bool:
    return state.data.result is not None or len(state.flow.done) >= state.players


def _after_day(state: State[Data]) -> str:
    return "save" if state.data.result is not None else "night_1"


DAY_CLASSES: tuple[type[Move], ...] = (
    *ACTIONS,
    mv.AlertBehemoth,
    mv.DrawOre,
    mv.FinishMining,
    mv.FishingRoll,
    mv.CallTest,
    mv.Roll,
    mv.Effect,
    mv.Give,
    mv.EndChallenge,
)
"""The moves of the day: its actions, what continues or closes one (a draw, a test), and the
alert behemoth the table drew (draws "table", before the first action)."""
DAY_MOVES = frozenset(cls.type for cls in DAY_CLASSES)

BEHEMOTH_STEPS = (
    Step("aim", Text("确定目标", "Aim"), rule("巨兽.1")),
    Step("tread", Text("跋涉", "Tread"), rule("巨兽.2")),
    Step("encounter", Text("遭遇", "Encounter"), rule("巨兽.3")),
)

INTERVAL_PHASE = Phase(
    "interval",
    Text("局间", "Between sessions"),
    TurnOrder.SIMULTANEOUS,
    moves=frozenset(
        {mv.Mourn.type, mv.MoveOutpost.type, mv.RebuildValley.type, mv.RuinOutpost.type}
    ),
    skip_if=lambda s: not between_sessions(s),
    on_begin=interval_begin,
    rule=rule("间隔与变老"),
    guide=Text(
        "为局间死去的角色掷哀悼骰;新纪元时把超出人口上限的前哨翻成废墟;可以免费迁移前哨;"
        "按《日志》的地图重建山谷,让摄像头核对;然后每人结束",
        "Roll the mourning die for each character who died between sessions; at a new epoch,"
        " turn the outposts beyond the population's limit into ruins; move outposts free if you"
        " wish; rebuild the valley from the Log's map for the camera to check; then everyone"
        " passes",
    ),
)
"""§间隔与变老, §山谷扩张, §废墟与迁移前哨: a session set up from the Log opens with the
interval; every player passes when the dead are mourned and the valley is rebuilt."""

PHASES = (
    INTERVAL_PHASE,
    Phase(
        "creation",
        Text("选择与创造角色", "Choose and create characters"),
        TurnOrder.SIMULTANEOUS,
        moves=frozenset({mv.CreationRoll.type, mv.CreateCharacter.type, mv.ChooseCharacter.type}),
        on_begin=_creation_begin,
        on_end=_session_begin,
        next="day",
        rule=rule("开局设置.1"),
    ),
    Phase(
        "day",
        Text("白天", "Day"),
        TurnOrder.FREE,
        moves=DAY_MOVES,
        on_begin=_day_begin,
        end_if=_day_over,
        next=_after_day,
        rule=rule("白天阶段"),
    ),
    _night_phase(1),
    MOURNING_PHASE,
    *(_night_phase(n) for n in range(2, 10)),
    Phase(
        "behemoth",
        Text("巨兽阶段", "Behemoth phase"),
        steps=BEHEMOTH_STEPS,
        starts_round=True,
        skip_if=lambda s: s.data.alert is None,
        next="day",
        rule=rule("巨兽"),
    ),
    Phase(
        "save",
        Text("存档", "Save the session"),
        TurnOrder.SIMULTANEOUS,
        moves=frozenset({mv.Keep.type, mv.RecordValley.type}),
        next=END,
        rule=rule("局间保留与存档"),
        guide=Text(
            "每名角色选出要保留的物品和材料(各至多 5 件),其余退回供应堆;把山谷地图摆在摄像头下"
            "记录;然后每人结束,本局存入《日志》,下次接着玩",
            "Each character chooses what to keep (at most 5 items and 5 materials), the rest"
            " goes back to the supply; lay the valley map out for the camera to record it; then"
            " everyone passes and the session goes into the Log for next time",
        ),
    ),
)
