"""Greenwood (``greenwood.zh.md``): its set-up options and the Game object's hooks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from engine.core import (
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
    SetupCheck,
    State,
    Text,
    Verdict,
)
from engine.core.box import Box, BoxFiles
from engine.core.forms import Field
from engine.core.game import InProgress
from engine.greenwood import rules
from engine.greenwood.catalogue import (
    BOX_KINDS,
    FILES,
    PACKAGE,
    box_of,
    catalogue,
    load_catalogue,
)
from engine.greenwood.moves import ChooseStartPlayer, ThreatDrawn
from engine.greenwood.offers import greenwood_offers, threat_fields
from engine.greenwood.phases import PHASES, ROUNDS, RULES, solo_band
from engine.greenwood.picture import picture as submarines
from engine.greenwood.reasons import LEARN_SAME, SWAP_SAME
from engine.greenwood.rules import draws
from engine.greenwood.rules.draws import THREATS_IN_PLAY
from engine.greenwood.state import GreenwoodData, Player
from engine.greenwood.texts import EVENT_TEXTS, OPTION_TEXTS, OUTCOME_TEXTS, event_line
from engine.greenwood.view import view as greenwood_view


@dataclass(frozen=True)
class GreenwoodOptions(Options):
    """Setup of a Greenwood game (§一.1, §一.3, §一.10); 1 player is the solo mode (§四.18)."""

    players: int = 2
    mode: Literal["basic", "clan"] = "basic"
    layout: Literal[0, 1, 2, 3] = 0
    """Submarine layout 0–3, shared by all players (§一.1)."""
    start_seat: int | None = None
    """Who saw an amber spirit last (§一.10); None: chosen at the table as the game opens
    (draws "table"), at random by the seeded Rng (draws "virtual")."""
    tutorial_threats: bool = False
    """Use threats 1–5 in order instead of five random ones (§一.3 教学威胁顺序)."""


SETUP_CHECKS = (
    SetupCheck(
        "submarines",
        Text("每位玩家一块潜艇板", "A submarine board for each player"),
        "submarine board",
        per_player=True,
    ),
    SetupCheck(
        "player_boards",
        Text("每位玩家一块玩家板", "A player board for each player"),
        "player board",
        per_player=True,
    ),
    SetupCheck(
        "creatures",
        Text("被解救生物板块和鬼火标记放在手边", "Rescued creature tiles and wisps within reach"),
    ),
)
"""Greenwood's lines of the set-up checklist (§一): the camera finds each player's boards."""


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
    setup_checks: ClassVar[tuple[SetupCheck, ...]] = SETUP_CHECKS
    idle_refusals: ClassVar[frozenset[str]] = frozenset(
        r.code
        for r in (LEARN_SAME, SWAP_SAME)  # aurora_full: refused before for the dusk too
    )
    box_package: ClassVar[str] = PACKAGE
    box_files: ClassVar[tuple[str, ...]] = FILES
    box_kinds: ClassVar[dict[str, Text]] = BOX_KINDS

    def box_forms(self, box: Box) -> dict[str, tuple[Field, ...]]:
        """A threat card is copied by what sets it off and its protection reward."""
        return {"tracks/threat": threat_fields()}

    def box_entry(self, kind: str, values: Mapping[str, Any], box: Box) -> tuple[str, Any]:
        """A threat card copied by its fields (``rules.draws.copied_threat``)."""
        if kind != "tracks/threat":
            return super().box_entry(kind, values, box)
        return draws.copied_threat(catalogue(box), box, values)

    def load_box(self, files: BoxFiles) -> Any:
        """Greenwood's catalogue of a box (``catalogue.load_catalogue``)."""
        return load_catalogue(files)

    def in_progress(self, state: State[Any]) -> InProgress | None:
        """A threat turned up or the start player that the table has still to give (draws
        "table", §一.3, §一.10; ``rules/draws.py``)."""
        return draws.in_progress(state)

    def setup(self, options: Any, rng: Rng) -> tuple[Any, Rng, Seat]:
        """Threats (§一.3), the players' tokens (§一.6, §一.8) and the start player (§一.10).

        With draws "table" the engine draws nothing: round 1's threat and (unless the set-up
        names one, or the game is solo) the start player are the table's to give as the game
        opens (``rules/draws.py``); the seat returned stands until then. With draws "virtual"
        the seeded Rng deals five threats and picks the start player."""
        count = len(catalogue(options).threats)
        table_draws = options.draws == "table"
        due = 0
        if options.tutorial_threats:
            threats: tuple[int, ...] = tuple(range(THREATS_IN_PLAY))
        elif table_draws:  # §一.3: the table shuffles; round 1's card is given as it opens
            threats, due = (), 1
        else:
            order, rng = rng.shuffled(range(count))
            threats = order[:THREATS_IN_PLAY]
        choose = table_draws and options.start_seat is None and options.players > 1
        hikers = frozenset({0}) if options.mode == "clan" else frozenset()
        table = GreenwoodData(
            tuple(Player(hikers=hikers) for _ in range(options.players)),
            threats,
            revealed=0 if due else 1,
            threats_due=due,
            start_due=choose,
        )
        if options.start_seat is not None:
            return table, rng, options.start_seat
        if table_draws:  # chosen at the table as the game opens (solo: the only seat)
            return table, rng, 0
        seat, rng = rng.choice(range(options.players))
        return table, rng, seat

    def parse_options(self, raw: Options | dict[str, Any] | None) -> Options:
        """The core's checks, plus a start seat that must sit at the table."""
        options = super().parse_options(raw)
        seat = options.start_seat  # type: ignore[attr-defined]
        if seat is not None and not 0 <= seat < options.players:
            raise GameConfigError(
                f"greenwood: start_seat {seat} is not at a {options.players}-player table",
                Text(
                    f"起始玩家{seat + 1}号不在这{options.players}人的桌上",
                    f"Starting player {seat + 1} is not at this {options.players}-player table",
                ),
            )
        return options

    def legal(self, state: State[Any], move: Move) -> Verdict:
        """Greenwood's own rules (see ``engine.greenwood.rules``)."""
        if isinstance(move, ThreatDrawn):
            return draws.check_threat(state, move)
        if isinstance(move, ChooseStartPlayer):
            return draws.check_start(state, move)
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
        if isinstance(move, ThreatDrawn):
            return draws.play_threat(state, move)
        if isinstance(move, ChooseStartPlayer):
            return draws.play_start(state, move)
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
        """The log's line for Greenwood's own events, things named as the table does; with
        the game, a line resting on a demo box's value says so."""
        if state is None:
            return event_line(event, lang)
        entered = (t.name for t in state.data.entered)
        return event_line(event, lang, box_of(state), state.options.layout, entered)

    def view(self, state: State[Any], lang: str) -> dict[str, Any]:
        """The layout, the revealed threats and a short strip per player, points first."""
        return greenwood_view(state, lang)
