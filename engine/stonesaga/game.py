"""Stonesaga (石纪元): its set-up options and the Game object's hooks.

Its modules follow the roles every game shares (docs/engine.md, "A game's modules"): the phases
in ``phases.py``, each move's check and effect in ``rules/`` (``rules/dispatch.py``), the
console in ``offers.py``, the screen in ``picture.py`` and ``view.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core import (
    ACCEPTED,
    Event,
    Game,
    InProgress,
    Move,
    Offer,
    Options,
    Outcome,
    Phase,
    Rng,
    Seat,
    SetupCheck,
    State,
    Text,
    Verdict,
)
from engine.core.box import Box, BoxFiles
from engine.stonesaga import state as st
from engine.stonesaga.catalogue import FILES, PACKAGE, RULES, Catalogue, catalogue, load_catalogue
from engine.stonesaga.offers import offers as seat_offers
from engine.stonesaga.phases import PHASES
from engine.stonesaga.picture import picture as valley_picture
from engine.stonesaga.reasons import (
    ALREADY_YOURS,
    BOOST_TOP,
    ENERGY_FULL,
    EXCHANGE_SAME,
    HEALTH_FULL,
    KEPT_ALREADY,
    MOURNING_DUE,
    REBUILT_ALREADY,
    RECORDED_ALREADY,
)
from engine.stonesaga.rules.creation import creation_pass
from engine.stonesaga.rules.dice import in_progress
from engine.stonesaga.rules.dispatch import check, play
from engine.stonesaga.rules.interval import (
    campaign_log,
    check_options,
    session_data,
)
from engine.stonesaga.rules.interval import legal_pass as interval_pass
from engine.stonesaga.texts import (
    EVENT_TEXTS,
    OUTCOME_TEXTS,
    character_name,
    character_number,
    event_line,
    option_texts,
)
from engine.stonesaga.view import view as saga_view

Events = tuple[Event, ...]
Data = st.Saga


@dataclass(frozen=True)
class Hero:
    """A living character of the campaign log, available to be chosen (§开局设置.1)."""

    name: str
    trait: str
    strength: int
    dexterity: int
    faith: int
    perception: int
    age: str = "young"


@dataclass(frozen=True)
class StonesagaOptions(Options):
    """Setup of a session: players, challenge, epoch, society tracks, the log's characters,
    and the behemoths whose lairs are active (§开局设置); or ``log``, the JSON of the Log of
    the session before (``campaign.Log``), which gives all but the players and the challenge.
    ``epoch`` None: 1 for a new campaign, the Log's next otherwise."""

    players: int = 1
    challenge: str = "GI01"
    epoch: int | None = None
    population: int | None = None
    unrest: int | None = None
    roster: tuple[Hero, ...] = ()
    behemoths: tuple[str, ...] = ()
    log: dict[str, Any] | None = None


BOX_KINDS: dict[str, Text] = {
    "campaign/challenges": Text("挑战卡", "challenge cards"),
    "campaign/keep_items": Text("局间保留的物品数", "items kept between sessions"),
    "campaign/keep_materials": Text("局间保留的材料数", "materials kept between sessions"),
    "campaign/outpost_limits": Text("前哨上限表(按人口)", "outpost scale (by population)"),
    "campaign/population": Text("战役开局的人口", "population at a campaign's start"),
    "campaign/unrest": Text("战役开局的动荡", "unrest at a campaign's start"),
    "campaign/valley_capacity": Text("各纪元的地形托盘数", "terrain trays by epoch"),
    "mining/bags": Text("采矿袋(按地物)", "mining bags (by feature)"),
    "mining/energy": Text("采矿的精力", "energy of mining"),
    "mining/max_draws": Text("采矿最多摸几枚", "most ore tokens drawn"),
    "mining/omens_per_stone": Text("矿石标记上的预兆", "omens on the ore tokens"),
    "mining/table": Text("采矿表(秘典183页)", "mining table (Secret Book p.183)"),
    "mining/tokens_per_stone": Text("每种石头的标记数", "tokens of each stone"),
    "names/behemoths": Text("巨兽名字表", "behemoth names"),
    "names/buildings": Text("建筑名字表", "building names"),
    "names/characters": Text("角色名字表", "character names"),
    "names/items": Text("物品名字表", "item names"),
    "resources/hard": Text("粗硬食物", "hard foods"),
    "resources/heat": Text("加热图标", "the heat icon"),
    "resources/heat_uses": Text("加热可用次数", "uses of heat"),
    "resources/materials": Text("材料", "materials"),
    "resources/max_processed": Text("一次最多加工几个", "most resources processed at once"),
    "resources/perishable": Text("易腐食物", "perishable foods"),
    "resources/tools": Text("工具图标", "tool icons"),
    "valley/region": Text("山谷的区域", "the valley's region"),
    "valley/start": Text("起始地块", "the start tile"),
    "valley/tile": Text("山谷地块", "valley tiles"),
}
"""What players call each kind of printed item of the box (``tablesight box stonesaga show``)."""

SETUP_CHECKS = (
    SetupCheck("draw_pad", Text("抽取垫", "The draw pad"), "draw pad"),
    SetupCheck(
        "trays",
        Text("地形板块托盘(摄像头只数个数)", "The terrain trays (the camera counts them)"),
        "terrain tray",
        None,
    ),
)
"""Stonesaga's lines of the set-up checklist (§开局设置): the camera counts the trays."""


class Stonesaga(Game):
    """Stonesaga: 1–4 players, a co-operative session of a campaign."""

    name: ClassVar[str] = "stonesaga"
    title: ClassVar[Text] = Text("石纪元", "Stonesaga")
    rules: ClassVar[str] = RULES
    options_type: ClassVar[type[Options]] = StonesagaOptions
    phases: ClassVar[tuple[Phase, ...]] = PHASES
    event_texts: ClassVar[dict[str, Text]] = EVENT_TEXTS
    option_texts: ClassVar[dict[str, Text]] = option_texts(catalogue())
    """The set-up page's labels, from the demo box (no game, so no box, exists there yet)."""
    outcome_texts: ClassVar[dict[str, Text]] = OUTCOME_TEXTS
    setup_checks: ClassVar[tuple[SetupCheck, ...]] = SETUP_CHECKS
    idle_refusals: ClassVar[frozenset[str]] = frozenset(
        r.code
        for r in (
            ENERGY_FULL,
            BOOST_TOP,
            HEALTH_FULL,
            EXCHANGE_SAME,
            KEPT_ALREADY,
            RECORDED_ALREADY,
            REBUILT_ALREADY,
            ALREADY_YOURS,  # the Log's character chosen by hand: it is seated at once now
        )
    )
    start_seat_passes: ClassVar[bool] = False
    box_package: ClassVar[str] = PACKAGE
    box_files: ClassVar[tuple[str, ...]] = FILES
    box_kinds: ClassVar[dict[str, Text]] = BOX_KINDS

    def load_box(self, files: BoxFiles) -> Catalogue:
        """The catalogue of a box's content, checked (``catalogue.load_catalogue``): BoxError
        naming the file and the entry (``mining.toml, table cave: ...``)."""
        return load_catalogue(files)

    def option_texts_for(self, box: Box | None) -> dict[str, Text]:
        """The set-up page's labels for a new game played with ``box`` (its challenge cards by
        their titles); ``option_texts`` is the demo box's."""
        return option_texts(catalogue(box))

    def catalogue(self, options: Any) -> Catalogue:
        """The catalogue of the box these options (or a state) play with, made once per box
        (``catalogue.catalogue``, which the rules read too)."""
        return catalogue(options)

    def parse_options(self, raw: Options | dict[str, Any] | None) -> Options:
        """The options, and with a ``log`` the Log checked against them (``rules/interval.py``)."""
        options = super().parse_options(raw)
        check_options(options)
        return options

    def setup(self, options: Any, rng: Rng) -> tuple[Any, Rng, Seat]:
        """The valley's tiles, the society tracks, the challenge's omen, the alert behemoth,
        from the Log when the options carry one (``rules.interval.session_data``)."""
        data, rng = session_data(options, rng)
        return data, rng, 0

    def legal(self, state: State[Any], move: Move) -> Verdict:
        """The seat's character, then the move's own rule (``rules/dispatch.py``)."""
        return check(state, move)

    def in_progress(self, state: State[Any]) -> InProgress | None:
        """The alert behemoth the table is to draw (draws "table"), an open test, mining bag
        or fishing dice: only what continues or closes it is legal (``rules/dice.py``)."""
        return in_progress(state)

    def legal_pass(self, state: State[Any], move: Move) -> Verdict:
        """§夜晚阶段.1: a player whose character died rolls the mourning die before passing;
        between sessions, every death is mourned and the valley rebuilt first; character
        creation ends for a player only with a character (§开局设置.1)."""
        data: Data = state.data
        if state.flow.phase == "interval":
            return interval_pass(state, move.seat or 0)
        if state.flow.phase == "creation":
            return creation_pass(state, move.seat or 0)
        due = [i for i in data.mourning if data.characters[i].seat == move.seat]
        if state.flow.phase == "mourning" and due:
            name = character_name(data.characters[due[0]].name, catalogue(state))
            return MOURNING_DUE.reject(name=name)
        return ACCEPTED

    def offers(self, state: State[Any], seat: Seat) -> Iterable[Offer]:
        """What this seat may do now, for the players' console (``engine/stonesaga/offers.py``)."""
        return seat_offers(state, seat)

    def apply(self, state: State[Any], move: Move) -> tuple[State[Any], Events]:
        """The move's effects on the saga's data; an action marks the seat's turn as used."""
        return play(state, move)

    def campaign_log(self, state: State[Any]) -> dict[str, Any] | None:
        """The Log of the ended session (``campaign.Log`` as JSON), None while it is played."""
        return campaign_log(state)

    def roster_name(self, name: str) -> Text:
        """A character of the Log by its name in the kiosk's language (灰烬 / Ash), as the
        console and the log name it; the campaign card between sessions uses it (no game, so
        the demo box's names list)."""
        return character_name(name, catalogue())

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
        """The log's line for Stonesaga's events and the dice it lights (``texts.py``), things
        named by the state's box (the demo box's without a state), with the note of a line
        that rests on a demo value; with the state, a character the event gives by number is
        named."""
        cat = catalogue(state)
        card = None if state is None else state.data.challenge
        line = event_line(event, lang, cat, card)
        if line is None or state is None:
            return line
        characters = list(enumerate(state.data.characters))
        for index, c in reversed(characters):  # "character 12" before "character 1"
            number, name = character_number(index), character_name(c.name, cat)
            line = line.replace(
                number.zh if lang == "zh" else number.en, name.zh if lang == "zh" else name.en
            )
        return line

    def view(self, state: State[Any], lang: str) -> dict[str, Any]:
        """Omen, tracks, the bag being drawn from, and a short strip for each character."""
        return saga_view(state, lang)
