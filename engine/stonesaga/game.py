"""Stonesaga (石纪元): character creation, the day, the nine-step night, the behemoth, the save.

The flow (``stonesaga.zh.md §一局游戏长什么样``): creation → day (free order) → night steps
1–9, each a phase of its own so that its effect happens when the table reaches it → behemoth
(when one is alert) → day … until ``end_challenge``, then the save.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from engine.core import (
    ACCEPTED,
    END,
    Event,
    Game,
    Move,
    Offer,
    Options,
    Outcome,
    Phase,
    Rng,
    Seat,
    State,
    Step,
    Text,
    TurnOrder,
    Verdict,
)
from engine.stonesaga import model as m
from engine.stonesaga import moves as mv
from engine.stonesaga.between import (
    INTERVAL_MOVES,
    between_sessions,
    campaign_log,
    check_mourn,
    check_options,
    interval_begin,
    mourn,
    session_data,
)
from engine.stonesaga.between import legal_pass as interval_pass
from engine.stonesaga.catalogue import OMENS, RULES, challenge, rule
from engine.stonesaga.common import Apply, Check, _busy, _who
from engine.stonesaga.creation import (
    _check_choose,
    _check_create,
    _check_creation_roll,
    _choose,
    _create,
    _creation_begin,
    _creation_done,
    _creation_roll,
    _reopen,
    _session_begin,
)
from engine.stonesaga.day import (
    _aid,
    _build,
    _check_aid,
    _check_build,
    _check_craft,
    _check_delve,
    _check_end,
    _check_exchange,
    _check_fire,
    _check_fish,
    _check_forage,
    _check_give,
    _check_mine,
    _check_outpost,
    _check_pack,
    _check_process,
    _check_relocate,
    _check_scavenge,
    _check_shelter,
    _check_travel,
    _check_water,
    _craft,
    _delve,
    _end,
    _exchange,
    _fire,
    _fish,
    _forage,
    _give,
    _mine,
    _outpost,
    _pack_items,
    _process,
    _relocate,
    _scavenge,
    _shelter,
    _travel,
    _water,
)
from engine.stonesaga.dice import (
    _call_test,
    _check_call_test,
    _check_draw,
    _check_effect,
    _check_finish,
    _check_fishing_roll,
    _check_roll,
    _draw,
    _effect,
    _finish,
    _fishing_roll,
    _roll,
)
from engine.stonesaga.night import (
    MOURNING_PHASE,
    _card,
    _check_card,
    _night_phase,
)
from engine.stonesaga.offers import offers as seat_offers
from engine.stonesaga.options import StonesagaOptions
from engine.stonesaga.picture import picture as valley_picture
from engine.stonesaga.reasons import MOURNING_DUE
from engine.stonesaga.save import _check_keep, _check_record, _keep, _record
from engine.stonesaga.texts import (
    EVENT_TEXTS,
    OUTCOME_TEXTS,
    RESULTS,
    behemoth_name,
    character_name,
    character_number,
    event_line,
    listed,
    option_texts,
)
from engine.stonesaga.view import _bag_rows, _interval_rows, _strip

Events = tuple[Event, ...]
Data = m.Saga


ACTIONS: dict[type[Move], tuple[Check, Apply]] = {
    mv.Travel: (_check_travel, _travel),
    mv.Exchange: (_check_exchange, _exchange),
    mv.Pack: (_check_pack, _pack_items),
    mv.Aid: (_check_aid, _aid),
    mv.Process: (_check_process, _process),
    mv.Craft: (_check_craft, _craft),
    mv.BuildOutpost: (_check_outpost, _outpost),
    mv.CollectWater: (_check_water, _water),
    mv.PrepareShelter: (_check_shelter, _shelter),
    mv.Fish: (_check_fish, _fish),
    mv.Forage: (_check_forage, _forage),
    mv.Mine: (_check_mine, _mine),
    mv.Build: (_check_build, _build),
    mv.RelocateOutpost: (_check_relocate, _relocate),
    mv.MakeFire: (_check_fire, _fire),
    mv.Delve: (_check_delve, _delve),
    mv.Scavenge: (_check_scavenge, _scavenge),
}
"""The day's actions: each needs a living character of the seat and no open mining or test."""

OTHERS: dict[type[Move], tuple[Check, Apply]] = {
    mv.DrawOre: (_check_draw, _draw),
    mv.FinishMining: (_check_finish, _finish),
    mv.FishingRoll: (_check_fishing_roll, _fishing_roll),
    mv.CallTest: (_check_call_test, _call_test),
    mv.Roll: (_check_roll, _roll),
    mv.Effect: (_check_effect, _effect),
    mv.Give: (_check_give, _give),
    mv.EndChallenge: (_check_end, _end),
    mv.NightCard: (_check_card, _card),
    mv.Keep: (_check_keep, _keep),
    mv.RecordValley: (_check_record, _record),
    mv.CreateCharacter: (_check_create, _create),
    mv.CreationRoll: (_check_creation_roll, _creation_roll),
    mv.ChooseCharacter: (_check_choose, _choose),
}
"""Moves that are not day actions (their own checks)."""


OTHERS[mv.Mourn] = (check_mourn, mourn)
OTHERS.update(INTERVAL_MOVES)


def _day_begin(state: State[Data]) -> tuple[State[Data], Events]:
    data = replace(state.data, mining=None, test=None, fishing=None)
    return replace(state, data=data), ()


def _day_over(state: State[Data]) -> bool:
    return state.data.result is not None or len(state.flow.done) >= state.players


def _after_day(state: State[Data]) -> str:
    return "save" if state.data.result is not None else "night_1"


DAY_MOVES = frozenset(
    cls.type
    for cls in (
        *ACTIONS,
        mv.DrawOre,
        mv.FinishMining,
        mv.FishingRoll,
        mv.CallTest,
        mv.Roll,
        mv.Effect,
        mv.Give,
        mv.EndChallenge,
    )
)

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
        end_if=_creation_done,
        on_all_done=_reopen,
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


class Stonesaga(Game):
    """Stonesaga: 1–4 players, a co-operative session of a campaign."""

    name: ClassVar[str] = "stonesaga"
    title: ClassVar[Text] = Text("石纪元", "Stonesaga")
    rules: ClassVar[str] = RULES
    options_type: ClassVar[type[Options]] = StonesagaOptions
    phases: ClassVar[tuple[Phase, ...]] = PHASES
    event_texts: ClassVar[dict[str, Text]] = EVENT_TEXTS
    option_texts: ClassVar[dict[str, Text]] = option_texts()
    outcome_texts: ClassVar[dict[str, Text]] = OUTCOME_TEXTS
    start_seat_passes: ClassVar[bool] = False

    def parse_options(self, raw: Options | dict[str, Any] | None) -> Options:
        """The options, and with a ``log`` the Log checked against them (``between.py``)."""
        options = super().parse_options(raw)
        check_options(options)
        return options

    def setup(self, options: Any, rng: Rng) -> tuple[Any, Rng, Seat]:
        """The valley's tiles, the society tracks, the challenge's omen, the alert behemoth,
        from the Log when the options carry one (``between.session_data``)."""
        data, rng = session_data(options, rng)
        return data, rng, 0

    def legal(self, state: State[Any], move: Move) -> Verdict:
        """The seat's character, then the move's own rule (see the reasons above)."""
        character = getattr(move, "character", None)
        if character is not None and move.seat is not None:
            verdict = _who(state, move.seat, character)
            if not verdict.ok:
                return verdict
        if type(move) in ACTIONS:
            verdict = _busy(state, move.seat or 0)
            if not verdict.ok:
                return verdict
            return ACTIONS[type(move)][0](state, move)
        if type(move) in OTHERS:
            return OTHERS[type(move)][0](state, move)
        return ACCEPTED

    def legal_pass(self, state: State[Any], move: Move) -> Verdict:
        """§夜晚阶段.1: a player whose character died rolls the mourning die before passing;
        between sessions, every death is mourned and the valley rebuilt first."""
        data: Data = state.data
        if state.flow.phase == "interval":
            return interval_pass(state, move.seat or 0)
        due = [i for i in data.mourning if data.characters[i].seat == move.seat]
        if state.flow.phase == "mourning" and due:
            return MOURNING_DUE.reject(name=character_name(data.characters[due[0]].name))
        return ACCEPTED

    def offers(self, state: State[Any], seat: Seat) -> Iterable[Offer]:
        """What this seat may do now, for the players' console (``engine/stonesaga/offers.py``)."""
        return seat_offers(state, seat)

    def apply(self, state: State[Any], move: Move) -> tuple[State[Any], Events]:
        """The move's effects on the saga's data; an action marks the seat's turn as used."""
        if state.flow.current is None and state.data.acted:
            state = replace(state, data=replace(state.data, acted=False))  # a new turn
        action = type(move) in ACTIONS
        data, events = (ACTIONS if action else OTHERS)[type(move)][1](state, move)
        return replace(state, data=replace(data, acted=True) if action else data), events

    def campaign_log(self, state: State[Any]) -> dict[str, Any] | None:
        """The Log of the ended session (``campaign.Log`` as JSON), None while it is played."""
        return campaign_log(state)

    def final_outcome(self, state: State[Any]) -> Outcome:
        """A shared win when the challenge ended won, else a loss."""
        won = state.data.result == "won"
        winners = tuple(state.seats) if won else ()
        return Outcome("shared_win" if won else "loss", winners, f"stonesaga.{state.data.result}")

    def picture(
        self,
        state: State[Any],
        lang: str,
        refused: Move | None = None,
        seen: Sequence[tuple[str, str | None]] = (),
    ) -> dict[str, Any] | None:
        """The valley, its tiles, markers and characters, and the mining draw (``picture.py``)."""
        return valley_picture(state, lang, refused)

    def scores(self, state: State[Any]) -> tuple[int, ...] | None:
        """None: Stonesaga is co-operative and keeps no score (§挑战卡与目标卡)."""
        return None

    def event_text(
        self, event: dict[str, Any], lang: str, state: State[Any] | None = None
    ) -> str | None:
        """The log's line for Stonesaga's events and the dice it lights (``texts.py``); with
        the state, a character the event gives by number is named."""
        line = event_line(event, lang)
        if line is None or state is None:
            return line
        characters = list(enumerate(state.data.characters))
        for index, c in reversed(characters):  # "character 12" before "character 1"
            number, name = character_number(index), character_name(c.name)
            line = line.replace(
                number.zh if lang == "zh" else number.en, name.zh if lang == "zh" else name.en
            )
        return line

    def view(self, state: State[Any], lang: str) -> dict[str, Any]:
        """Omen, tracks, the bag being drawn from, and a short strip for each character."""
        data: Data = state.data
        tr = (lambda t: t.zh) if lang == "zh" else (lambda t: t.en)
        label = (lambda zh, en: zh) if lang == "zh" else (lambda zh, en: en)
        summary: list[list[Any]] = [
            [label("挑战", "Challenge"), tr(challenge(data.challenge).title)],
            [label("当前预兆", "Current omen"), tr(listed(data.omens, OMENS.__getitem__))],
            [label("活跃度", "Activity"), data.activity],
            [label("人口", "Population"), data.population],
            [label("动荡", "Unrest"), data.unrest],
            [label("纪元", "Epoch"), data.epoch],
            [label("本纪元第几局", "Session of the epoch"), data.session],
        ]
        if state.flow.phase == "interval":
            summary += _interval_rows(data, tr, label)
        if data.alert:
            summary.append([label("警觉巨兽", "Alert behemoth"), tr(behemoth_name(data.alert))])
        if data.result:
            summary.append([label("挑战结果", "Result"), tr(RESULTS[data.result])])
        if data.mining is not None:
            summary += _bag_rows(data.mining, tr, label)
        players = [
            {
                "seat": c.seat,
                "name": tr(character_name(c.name)),
                "fields": _strip(data, c, tr, label),
            }
            for c in data.characters
        ]
        return {"summary": summary, "players": players}
