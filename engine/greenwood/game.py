"""Greenwood's rounds and phases as data (``greenwood.zh.md §三``), and the game's hooks."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Literal

from engine.core import (
    END,
    EndTurn,
    Event,
    Game,
    GameConfigError,
    Move,
    Offer,
    Options,
    Outcome,
    Pass,
    Phase,
    Rng,
    Seat,
    State,
    Step,
    Text,
    TurnOrder,
    Verdict,
)
from engine.greenwood import rules
from engine.greenwood.catalogue import catalogue
from engine.greenwood.offers import greenwood_offers
from engine.greenwood.picture import picture as submarines
from engine.greenwood.records import (
    FinalScores,
    RewardGained,
    SoloRated,
    ThreatRevealed,
    VirtualCompanionsRevealed,
)
from engine.greenwood.state import Player, Table
from engine.greenwood.texts import (
    EVENT_TEXTS,
    LAYOUT_NAMES,
    OPTION_TEXTS,
    OUTCOME_TEXTS,
    event_line,
    knowledge_list,
    listed,
    threat_name,
    trigger_name,
)

RULES = "greenwood.zh.md"
ROUNDS = 3
"""苍林秘境共进行3轮,每轮代表一个夜晚 (§三.1)."""
THREATS_IN_PLAY = 5
"""1张正面朝上 for round 1, 4 face down for rounds 2 and 3 (§一.3)."""

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


@dataclass(frozen=True)
class GreenwoodOptions(Options):
    """Setup of a Greenwood game (§一.1, §一.3, §一.10); 1 player is the solo mode (§四.18)."""

    players: int = 2
    mode: Literal["basic", "clan"] = "basic"
    layout: Literal[0, 1, 2, 3] = 0
    """Submarine layout 0–3, shared by all players (§一.1)."""
    start_seat: int | None = None
    """Who saw an amber spirit last; None: chosen at random (§一.10)."""
    tutorial_threats: bool = False
    """Use threats 1–5 in order instead of five random ones (§一.3 教学威胁顺序)."""


def solo_band(score: int) -> tuple[int, Text]:
    """The solo rating band (1–5) of a final score and its title (§五.6)."""
    for band, (top, title) in enumerate(SOLO_BANDS, 1):
        if top is None or score <= top:
            return band, title
    raise AssertionError("unreachable")


def _players(state: State[Table], change: Any) -> State[Table]:
    table = state.data
    return replace(state, data=replace(table, players=tuple(change(p) for p in table.players)))


def _after_dawn(state: State[Any]) -> str:
    """§三.1: upkeep after rounds 1 and 2; final scoring straight after the third dawn."""
    return "upkeep" if state.flow.round < ROUNDS else "scoring"


def _dusk_begins(state: State[Table]) -> tuple[State[Table], tuple[Event, ...]]:
    return _players(state, lambda p: replace(p, dusk_done=frozenset())), ()


def _departure_begins(state: State[Table]) -> tuple[State[Table], tuple[Event, ...]]:
    """§三.3: one choice per aurora held now; aurora gained during departure waits. A player
    with no aurora skips the phase (没有极光的玩家跳过本阶段): done without a ``pass``."""
    state = _players(state, lambda p: replace(p, departure_left=p.aurora))
    events: list[Event] = []
    for seat, p in enumerate(state.data.players):
        if rules.departure_over(p):
            state = rules.pass_for(state, seat, events)
    return state, tuple(events)


def _night_begins(state: State[Table]) -> tuple[State[Table], tuple[Event, ...]]:
    """§四.18: in a solo game the virtual opponent shows 1, 2, 3 companions in rounds 1, 2, 3."""
    if state.players != 1:
        return state, ()
    count = state.flow.round
    return replace(state, data=replace(state.data, virtual=count)), (
        VirtualCompanionsRevealed(count),
    )


def _night_ends(state: State[Table]) -> tuple[State[Table], tuple[Event, ...]]:
    """§四.18: the virtual opponent's companions are discarded; no turn (nor hike) is in
    progress."""
    data = replace(
        state.data, virtual=0, virtual_spied=frozenset(), virtual_spirit_spies=0, turn=None
    )
    state = replace(state, data=data)
    return _players(state, lambda p: replace(p, forest=None)), ()


def _dawn_begins(state: State[Table]) -> tuple[State[Table], tuple[Event, ...]]:
    """§三.14: 1 point per unused energy token and per unused spy token."""
    events: list[Event] = []
    players = []
    for seat, p in enumerate(state.data.players):
        unused = p.energy_left + p.spies_left
        if unused:
            events.append(RewardGained(seat, f"vp:{unused}", "dawn: unused tokens"))
        players.append(replace(p, score=p.score + unused))
    return replace(state, data=replace(state.data, players=tuple(players))), tuple(events)


def _upkeep_begins(state: State[Table]) -> tuple[State[Table], tuple[Event, ...]]:
    """§三.15 step 1 takes every energy and spy token back; step 3 reveals two threats."""

    def recall(p: Player) -> Player:
        return replace(p, energised=frozenset(), spied=frozenset(), spirit_spies=0, spies_out=0)

    state = _players(state, recall)
    table = state.data
    revealed = min(table.revealed + 2, len(table.threats))
    threats = catalogue().threats
    events = tuple(
        ThreatRevealed(i, threats[table.threats[i]].name, threats[table.threats[i]].trigger)
        for i in range(table.revealed, revealed)
    )
    return replace(state, data=replace(table, revealed=revealed)), events


def _scoring_begins(state: State[Table]) -> tuple[State[Table], tuple[Event, ...]]:
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


class Greenwood(Game):
    """Greenwood: 1–4 players, three nights of dusk → departure → night → dawn."""

    name: ClassVar[str] = "greenwood"
    title: ClassVar[Text] = Text("苍林秘境", "Greenwood")
    rules: ClassVar[str] = RULES
    options_type: ClassVar[type[Options]] = GreenwoodOptions
    phases: ClassVar[tuple[Phase, ...]] = PHASES
    event_texts: ClassVar[dict[str, Text]] = EVENT_TEXTS
    rounds: ClassVar[int | None] = ROUNDS
    option_texts: ClassVar[dict[str, Text]] = OPTION_TEXTS
    outcome_texts: ClassVar[dict[str, Text]] = OUTCOME_TEXTS

    def setup(self, options: Any, rng: Rng) -> tuple[Any, Rng, Seat]:
        """Threats (§一.3), the players' tokens (§一.6, §一.8) and the start player (§一.10)."""
        count = len(catalogue().threats)
        if options.tutorial_threats:
            threats = tuple(range(THREATS_IN_PLAY))
        else:
            order, rng = rng.shuffled(range(count))
            threats = order[:THREATS_IN_PLAY]
        hikers = frozenset({0}) if options.mode == "clan" else frozenset()
        table = Table(tuple(Player(hikers=hikers) for _ in range(options.players)), threats)
        if options.start_seat is not None:
            return table, rng, options.start_seat
        seat, rng = rng.choice(range(options.players))
        return table, rng, seat

    def parse_options(self, raw: Options | dict[str, Any] | None) -> Options:
        """The core's checks, plus a start seat that must sit at the table."""
        options = super().parse_options(raw)
        seat = options.start_seat  # type: ignore[attr-defined]
        if seat is not None and not 0 <= seat < options.players:
            raise GameConfigError(
                f"greenwood: start_seat {seat} is not at a {options.players}-player table"
            )
        return options

    def legal(self, state: State[Any], move: Move) -> Verdict:
        """Greenwood's own rules (see ``engine.greenwood.rules``)."""
        return rules.check(state, move)

    def legal_pass(self, state: State[Any], move: Move) -> Verdict:
        """A night turn ends only after a token; a piece to place comes first (§三.4, §三.10)."""
        assert isinstance(move, Pass | EndTurn)
        return rules.check_pass(state, move)

    def offers(self, state: State[Any], seat: Seat) -> Iterable[Offer]:
        """The moves ``seat`` may make now, for the players' console (``offers.py``)."""
        return greenwood_offers(state, seat)

    def apply(self, state: State[Any], move: Move) -> tuple[State[Any], tuple[Event, ...]]:
        """The effects of a legal Greenwood move."""
        return rules.play(state, move)

    def final_outcome(self, state: State[Any]) -> Outcome:
        """Most points wins; a tie goes to most rescued creatures; still tied: a shared win (§五.5).

        Solo: the reason names the rating band (§五.6).
        """
        players = state.data.players
        if state.players == 1:
            band, _ = solo_band(players[0].score)
            return Outcome("finished", (0,), f"greenwood.solo_band_{band}")
        best = max(p.score for p in players)
        tied = [s for s, p in enumerate(players) if p.score == best]
        if len(tied) == 1:
            return Outcome("win", tuple(tied), "greenwood.most_points")
        most = max(len(players[s].rescued) for s in tied)
        winners = tuple(s for s in tied if len(players[s].rescued) == most)
        if len(winners) == 1:
            return Outcome("win", winners, "greenwood.tie_most_rescued")
        return Outcome("shared_win", winners, "greenwood.tie_shared")

    def picture(
        self,
        state: State[Any],
        lang: str,
        refused: Move | None = None,
        seen: Sequence[tuple[str, str | None]] = (),
    ) -> dict[str, Any] | None:
        """Every seat's submarine as the engine holds it (``picture.py``)."""
        return submarines(state, lang, refused)

    def scores(self, state: State[Any]) -> tuple[int, ...] | None:
        """Each seat's points on the score track (§五.2)."""
        return tuple(p.score for p in state.data.players)

    def event_text(
        self, event: dict[str, Any], lang: str, state: State[Any] | None = None
    ) -> str | None:
        """The log's line for Greenwood's own events, things named as the table does."""
        return event_line(event, lang)

    def view(self, state: State[Any], lang: str) -> dict[str, Any]:
        """The layout, the revealed threats and a short strip per player, points first."""
        tr = (lambda t: t.zh) if lang == "zh" else (lambda t: t.en)
        cat = catalogue()
        table: Table = state.data
        revealed = [cat.threats[i] for i in table.threats[: table.revealed]]
        threats = listed(
            Text(
                f"{threat_name(t.name).zh}({trigger_name(t.trigger).zh})",
                f"{threat_name(t.name).en} ({trigger_name(t.trigger).en})",
            )
            for t in revealed
        )
        summary: list[list[Any]] = [
            [tr(VIEW_LABELS["layout"]), tr(LAYOUT_NAMES[state.options.layout])],
            [tr(VIEW_LABELS["threats"]), tr(threats)],
        ]
        if state.players == 1:
            summary.append([tr(VIEW_LABELS["virtual"]), table.virtual])
        players = []
        for seat, p in enumerate(table.players):
            known = knowledge_list(p.knowledge)
            values = (
                p.score,
                f"{p.energy_left}/{p.energy}",
                f"{p.spies_left}/{p.spies}",
                p.aurora,
                Text(
                    f"{known.zh}({len(p.knowledge)}/{p.slots})",
                    f"{known.en} ({len(p.knowledge)}/{p.slots})",
                ),
                len(p.rescued),
            )
            fields = [
                [tr(VIEW_LABELS[key]), tr(v) if isinstance(v, Text) else v]
                for key, v in zip(STRIP, values, strict=True)
            ]
            players.append({"seat": seat, "fields": fields})
        return {"summary": summary, "players": players}


STRIP = ("points", "energy", "spies", "aurora", "knowledge", "rescued")
"""A player's fields on the kiosk's strip, most important first (at most six)."""
VIEW_LABELS: dict[str, Text] = {
    "layout": Text("潜艇布局", "layout"),
    "threats": Text("已翻开的威胁", "threats"),
    "virtual": Text("虚拟对手伙伴", "virtual companions"),
    "points": Text("分数", "points"),
    "energy": Text("能量", "energy"),
    "spies": Text("间谍", "spies"),
    "aurora": Text("极光", "aurora"),
    "knowledge": Text("知识", "knowledge"),
    "rescued": Text("解救生物", "rescued"),
}
"""The view's labels (lower case in English, as the strip has always shown them)."""
