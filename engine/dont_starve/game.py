"""Don't Starve: The Board Game (饥荒桌游版): setup and the game's hooks.

Each rule enforced names its section of ``dont-starve.zh.md`` (in the reasons, and in the
tests). Printed values the rule text does not give come from ``data/*.toml`` (placeholders).
Its modules follow the roles every game shares (docs/engine.md, "A game's modules"): the
round's phases in ``phases.py``, whether a move may be made and what it does in ``rules/``
(``legality.py``, ``effects.py``), the console's offers in ``offers.py``, the screen in
``picture.py`` and ``view.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from engine.core import (
    Event,
    Game,
    GameConfigError,
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
    TrackMarks,
    Verdict,
)
from engine.dont_starve import reasons as R
from engine.dont_starve.catalogue import BIOMES, DIFFICULTIES, PORTAL, PORTAL_SLOT, catalogue
from engine.dont_starve.offers import seat_offers
from engine.dont_starve.phases import PHASES
from engine.dont_starve.picture import layout_picture
from engine.dont_starve.picture import picture as map_picture
from engine.dont_starve.rules import check, check_pass, play
from engine.dont_starve.state import ESSENCE_START, MAX_STRUCTURES, Character, DSData
from engine.dont_starve.texts import EVENT_TEXTS, OUTCOME_TEXTS, event_line
from engine.dont_starve.texts import option_texts as setup_texts
from engine.dont_starve.view import view as game_view

RULES = R.RULES
ROUNDS = 6
"""回合结构: at most 6 rounds."""
CHARACTERS = ("wilson", "willow", "wendy", "webber")
Events = tuple[Event, ...]


@dataclass(frozen=True)
class DontStarveOptions(Options):
    """Setup of a scenario (游戏设置): players, characters by seat, scenario, season, difficulty.

    ``characters`` (a list, or names separated by commas as typed in the setup form) empty:
    Wilson, Willow, Wendy, Webber in that order. ``season`` None: the season on the scenario
    card. ``structures``: built structures put in the base camp (at most 3); none: no base camp.
    """

    players: int = 1
    characters: tuple[str, ...] | str | None = None
    scenario: str = "a_new_beginning"
    season: Literal["autumn", "winter", "spring", "summer"] | None = None
    difficulty: Literal["classic", "survival", "nightmare"] = "classic"
    structures: tuple[str, ...] | str | None = None


SETUP_CHECKS = (
    SetupCheck("round_board", Text("回合板", "The round board"), "round board"),
    SetupCheck(
        "characters",
        Text("每位玩家的角色棋子", "Each player's character figure"),
        "character",
        per_player=True,
    ),
    SetupCheck(
        "map",
        Text(
            "剧本卡上的地图板块(摄像头只数块数,布局请目测对照剧本卡)",
            "The scenario card's map tiles (the camera counts them; compare the "
            "layout with the card by eye)",
        ),
        "map tile",
        None,
    ),
)
"""Don't Starve's lines of the set-up checklist (§游戏设置): the camera counts the map's tiles."""


class DontStarve(Game):
    """Don't Starve: The Board Game, 1–4 players co-operating for at most six rounds."""

    name: ClassVar[str] = "dont_starve"
    title: ClassVar[Text] = Text("饥荒桌游版", "Don't Starve: The Board Game")
    rules: ClassVar[str] = RULES
    options_type: ClassVar[type[Options]] = DontStarveOptions
    phases: ClassVar[tuple[Phase, ...]] = PHASES
    event_texts: ClassVar[dict[str, Text]] = EVENT_TEXTS
    option_texts: ClassVar[dict[str, Text]] = setup_texts()
    outcome_texts: ClassVar[dict[str, Text]] = OUTCOME_TEXTS
    setup_checks: ClassVar[tuple[SetupCheck, ...]] = SETUP_CHECKS
    start_seat_passes: ClassVar[bool] = False
    rounds: ClassVar[int | None] = ROUNDS

    # --- setup ------------------------------------------------------------------------------

    def setup(self, options: Any, rng: Rng) -> tuple[Any, Rng, Seat]:
        """游戏设置: the map face down around the portal, needs tiles and storm marker from the
        season setup card, the season's weather deck with one card up, characters on the portal.
        """
        cat = catalogue()
        chosen = _names(options.characters) or CHARACTERS[: options.players]
        structures = _names(options.structures, spaces=False)
        problems = []  # (zh, en): what a set-up page may get wrong, said to the players
        if len(chosen) != options.players:
            n = options.players
            problems.append((f"{n}位玩家要选{n}个角色", f"{n} players need {n} characters"))
        problems += [
            (f"没有角色 {c}", f"unknown character {c!r}") for c in chosen if c not in cat.characters
        ]
        if len(set(chosen)) != len(chosen):
            problems.append(("每位玩家要选不同的角色", "each player needs a different character"))
        if options.scenario not in cat.scenarios:
            known = ", ".join(cat.scenarios)
            problems.append(
                (
                    f"没有剧本 {options.scenario}",
                    f"unknown scenario {options.scenario!r}; known: {known}",
                )
            )
        if len(structures) > MAX_STRUCTURES:
            problems.append(
                (
                    f"基地营地最多放{MAX_STRUCTURES}个建筑",
                    f"at most {MAX_STRUCTURES} structures go in the base camp",
                )
            )
        if options.difficulty not in DIFFICULTIES:
            problems.append(
                (f"没有难度 {options.difficulty}", f"unknown difficulty {options.difficulty!r}")
            )
        if problems:
            raise GameConfigError(
                "dont_starve options: " + "; ".join(en for _, en in problems),
                Text("；".join(zh for zh, _ in problems), "; ".join(en for _, en in problems)),
            )
        scenario = cat.scenarios[options.scenario]
        season = options.season or scenario.season
        season_setup = cat.seasons[season][options.difficulty]
        piles = {}
        for kind in ("normal", "hard"):
            pile = [i for i, t in enumerate(cat.needs_tiles) if t.kind == kind]
            piles[kind], rng = rng.shuffled(pile)
        taken = {"normal": 0, "hard": 0}
        needs = []
        for kind, side in season_setup.pattern:
            needs.append((piles[kind][taken[kind]], side))
            taken[kind] += 1
        pool, rng = rng.shuffled([b for b, n in sorted(scenario.biomes.items()) for _ in range(n)])
        decks = []
        for biome in BIOMES:
            cards, rng = rng.shuffled([c for c, _ in cat.locations[biome]])
            decks.append((biome, cards))
        weather, rng = rng.shuffled([c.id for c in cat.weather if c.season == season])
        characters = tuple(
            Character(
                key,
                cat.characters[key].health,
                cat.characters[key].hunger,
                cat.characters[key].sanity,
                cat.characters[key].focus,
                PORTAL_SLOT,
            )
            for key in chosen
        )
        data = DSData(
            scenario=scenario.key,
            season=season,
            difficulty=options.difficulty,
            characters=characters,
            revealed=((PORTAL_SLOT, PORTAL),),
            pool=pool,
            decks=tuple(decks),
            discards=tuple((b, ()) for b in BIOMES),
            tokens=tuple(range(len(scenario.tokens))),
            needs=tuple(needs),
            storm_after=season_setup.storm_after,
            weather_deck=weather[1:],
            weather=weather[0],
            structures=structures,
            essence=ESSENCE_START if structures else 0,
        )
        return data, rng, 0

    # --- the rules --------------------------------------------------------------------------

    def legal(self, state: State[Any], move: Move) -> Verdict:
        """Don't Starve's own checks of a move the core allows now (``rules/legality.py``)."""
        return check(state, move)

    def legal_pass(self, state: State[Any], move: Move) -> Verdict:
        """No turn or phase ends while a fight waits for its dice (§战斗结算)."""
        return check_pass(state, move)

    def apply(self, state: State[Any], move: Move) -> tuple[State[Any], Events]:
        """The effects of a legal Don't Starve move (``rules/effects.py``)."""
        return play(state, move)

    # --- the console ------------------------------------------------------------------------

    def offers(self, state: State[Any], seat: Seat) -> Iterable[Offer]:
        """What this seat may do now, for the players' console (``offers.py``)."""
        return seat_offers(state, seat)

    # --- the end and the screen -------------------------------------------------------------

    def outcome(self, state: State[Any]) -> Outcome | None:
        """胜利与失败: won when a scenario card says so; lost when the last needs tile goes,
        when a card says so, or when a defeated character cannot be revived."""
        data: DSData = state.data
        if data.result == "won":
            return Outcome("shared_win", tuple(state.seats), "dont_starve.scenario_won")
        if data.result:
            return Outcome("loss", (), data.result)
        if len(data.defeated) > data.effigies:
            return Outcome("loss", (), "dont_starve.no_effigy")
        return None

    def final_outcome(self, state: State[Any]) -> Outcome:
        """The flow ends only after a preparation phase that removed the last needs tile: the
        outcome that holds then (a loss, dont_starve.out_of_time)."""
        return self.outcome(state) or Outcome("loss", (), "dont_starve.out_of_time")

    def picture(
        self,
        state: State[Any],
        lang: str,
        refused: Move | None = None,
        seen: Sequence[tuple[str, str | None]] = (),
    ) -> dict[str, Any] | None:
        """The map as laid: tiles, locations, monsters, the portal's base camp, the figures
        (``picture.py``); while the camera finds tiles of the layout missing or laid wrong
        (``seen``), the scenario's layout with those places marked (世界构建)."""
        if seen:
            return layout_picture(state.data.scenario, lang, seen)
        return map_picture(state, lang, refused)

    def scores(self, state: State[Any]) -> tuple[int, ...] | None:
        """None: the players win or lose the scenario together and keep no score (胜利与失败)."""
        return None

    def event_text(
        self, event: dict[str, Any], lang: str, state: State[Any] | None = None
    ) -> str | None:
        """The log's line for Don't Starve's events and the dice it announces (``texts.py``)."""
        return event_line(event, lang)

    def view(self, state: State[Any], lang: str) -> dict[str, Any]:
        """Scenario, season, difficulty, day or night, dial, needs, storm, weather, effigies
        (essence with a base camp, the result once decided), and a short strip per character
        (``view.py``)."""
        return game_view(state, lang)

    def track_marks(self, state: State[Any]) -> TrackMarks:
        """Day or night on the accent LED, and the storm's round blinking until it comes."""
        data: DSData = state.data
        return TrackMarks(accent=data.time, mark_round=data.storm_after + 1)


def _names(value: tuple[str, ...] | str | None, *, spaces: bool = True) -> tuple[str, ...]:
    """Names from a list or from text typed in a form ("wilson, wendy"); ``spaces=False`` for
    names that have spaces themselves ("science machine, fire pit"): commas only."""
    if isinstance(value, str):
        value = tuple(value.replace(",", " ").split() if spaces else value.split(","))
    value = tuple(v for v in value or () if v.strip())
    return tuple(" ".join(v.split()).lower() for v in value)
