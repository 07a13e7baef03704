"""Don't Starve: The Board Game (饥荒桌游版): setup and the game's hooks.

Each rule enforced names its section of ``dont-starve.zh.md`` (in the reasons, and in the
tests). Printed values the rule text does not give come from the game's box: the demo box
(``data/*.toml``, invented values) with the owner's items over it (``catalogue.py``). With
draws "table" (the default) every card and tile drawn comes from the table (``rules/draws.py``);
with "virtual" from the engine's seeded decks.
Its modules follow the roles every game shares (docs/engine.md, "A game's modules"): the
round's phases in ``phases.py``, whether a move may be made and what it does in ``rules/``
(``legality.py``, ``effects.py``), the console's offers in ``offers.py``, the screen in
``picture.py`` and ``view.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from engine.core import (
    Event,
    Game,
    GameConfigError,
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
    TrackMarks,
    Verdict,
)
from engine.core.box import DRAWS_TEXTS, Box, BoxFiles
from engine.core.forms import Choice, Field
from engine.dont_starve import reasons as R
from engine.dont_starve.catalogue import (
    BIOMES,
    DIFFICULTIES,
    FILES,
    NEEDS_KINDS,
    PACKAGE,
    PORTAL,
    PORTAL_SLOT,
    SEASONS,
    Catalogue,
    catalogue,
    load_catalogue,
)
from engine.dont_starve.offers import location_fields, needs_fields, seat_offers, weather_fields
from engine.dont_starve.phases import PHASES
from engine.dont_starve.picture import layout_picture
from engine.dont_starve.picture import picture as map_picture
from engine.dont_starve.rules import check, check_pass, play
from engine.dont_starve.rules.draws import (
    copied_location,
    copied_needs,
    copied_weather,
    in_progress,
)
from engine.dont_starve.state import ESSENCE_START, MAX_STRUCTURES, Character, DSData
from engine.dont_starve.texts import (
    EVENT_TEXTS,
    KIND_WORDS,
    OUTCOME_TEXTS,
    event_line,
    season_name,
)
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


BOX_KINDS: dict[str, Text] = {
    "characters/webber": Text("韦伯的角色卡与面板", "Webber's character card and board"),
    "characters/wendy": Text("温蒂的角色卡与面板", "Wendy's character card and board"),
    "characters/willow": Text("薇洛的角色卡与面板", "Willow's character card and board"),
    "characters/wilson": Text("威尔逊的角色卡与面板", "Wilson's character card and board"),
    "dice/character": Text("角色骰的各面", "the character die's faces"),
    "dice/hit_damage": Text("卡外命中的伤害", "damage per hit off a card"),
    "dice/monster": Text("怪物骰的各面", "the monster dice's faces"),
    "locations/badlands": Text("荒地地点卡", "badlands location cards"),
    "locations/forest": Text("林地地点卡", "forest location cards"),
    "locations/grassland": Text("草原地点卡", "grassland location cards"),
    "locations/marsh": Text("湿地地点卡", "marsh location cards"),
    "needs/tile": Text("需求板块", "needs tiles"),
    "characters": Text("角色卡与面板", "character card and board"),
    "scenarios": Text("剧本卡", "scenario card"),
    "scenarios/a_new_beginning": Text("剧本卡「新的开始」", "scenario card 'A New Beginning'"),
    "scenarios/winter_is_coming": Text("剧本卡「寒冬将至」", "scenario card 'Winter Is Coming'"),
    "seasons/autumn": Text("季节设置卡(秋季)", "season setup card (autumn)"),
    "seasons/spring": Text("季节设置卡(春季)", "season setup card (spring)"),
    "seasons/summer": Text("季节设置卡(夏季)", "season setup card (summer)"),
    "seasons/winter": Text("季节设置卡(冬季)", "season setup card (winter)"),
    "shadows/tier": Text("影怪卡(按阶)", "shadow creature cards (by tier)"),
    "tiles/biomes": Text("地图板块的生态域", "the map tiles' biomes"),
    "tiles/tag_offset_mm": Text("板块上贴纸的位置", "where a tile's sticker sits"),
    "tiles/tile_mm": Text("地图板块的边长", "a map tile's edge"),
    "weather/card": Text("天气卡", "weather cards"),
    "weather/effects": Text("天气符号的损失", "what each weather symbol costs"),
}
"""What players call each kind of printed item of the box (``tablesight box dont_starve show``)."""

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
    option_texts: ClassVar[dict[str, Text]] = {**setup_texts(catalogue()), **DRAWS_TEXTS}
    """The set-up page's labels, from the demo box (no game, so no box, exists there yet)."""
    outcome_texts: ClassVar[dict[str, Text]] = OUTCOME_TEXTS
    setup_checks: ClassVar[tuple[SetupCheck, ...]] = SETUP_CHECKS
    start_seat_passes: ClassVar[bool] = False
    rounds: ClassVar[int | None] = ROUNDS
    box_package: ClassVar[str] = PACKAGE
    box_files: ClassVar[tuple[str, ...]] = FILES
    box_kinds: ClassVar[dict[str, Text]] = BOX_KINDS

    def option_texts_for(self, box: Box | None) -> dict[str, Text]:
        """The set-up page's labels for a game played with ``box``: its characters and its
        scenario cards' titles (an owner's scenario card too); None: the demo box's
        (``option_texts``)."""
        return {**setup_texts(catalogue(box)), **DRAWS_TEXTS}

    def box_forms(self, box: Box) -> dict[str, tuple[Field, ...]]:
        """Weather cards, needs tiles and each biome's location cards are copied by what they
        show, with the fields the console enters one by (``weather_fields``, its season
        first; ``needs_fields``, its kind first; ``location_fields``)."""
        cat = catalogue(box)
        seasons = tuple(Choice(s, season_name(cat, s)) for s in SEASONS)
        season = Field("season", Text("季节", "season"), choices=seasons)
        kinds = tuple(Choice(k, KIND_WORDS[k]) for k in NEEDS_KINDS)
        kind = Field("kind", Text("难度", "kind"), choices=kinds)
        forms = {"weather/card": (season, *weather_fields()), "needs/tile": (kind, *needs_fields())}
        return forms | {f"locations/{b}": location_fields() for b in BIOMES}

    def box_entry(self, kind: str, values: Mapping[str, Any], box: Box) -> tuple[str, Any]:
        """A card or tile copied by its fields (``rules.draws.copied_weather``,
        ``copied_needs``, ``copied_location``: the deck is the kind's biome)."""
        cat = catalogue(box)
        if kind == "weather/card":
            return copied_weather(cat, values)
        if kind == "needs/tile":
            return copied_needs(cat, values)
        if kind.startswith("locations/"):
            return copied_location(cat, {**values, "biome": kind.split("/", 1)[1]})
        return super().box_entry(kind, values, box)

    def load_box(self, files: BoxFiles) -> Catalogue:
        """The catalogue of a box's content, checked (``catalogue.load_catalogue``): BoxError
        naming the file and the entry (``weather.toml, card autumn-3: ...``)."""
        return load_catalogue(files)

    def catalogue(self, options: Any) -> Catalogue:
        """The catalogue of the box these options (or a state) play with, made once per box
        (``catalogue.catalogue``, which the rules read too)."""
        return catalogue(options)

    # --- setup ------------------------------------------------------------------------------

    def setup(self, options: Any, rng: Rng) -> tuple[Any, Rng, Seat]:
        """游戏设置: the map face down around the portal, needs tiles and storm marker from the
        season setup card, the season's weather deck with one card up, characters on the portal,
        all from the options' box.

        With draws "virtual" the engine shuffles and deals (needs tiles, the face-down biomes,
        the location decks, the weather deck and its first card); with "table" it deals nothing:
        the table says which weather card and needs tile it has before the first action, which
        biome a tile shows when it is turned over, which card an explore draws.
        """
        cat = catalogue(options)
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
        biomes = [b for b, n in sorted(scenario.biomes.items()) for _ in range(n)]
        if options.draws == "table":  # the table deals: it says what it drew when it matters
            needs = [(0, side) for _, side in season_setup.pattern]
            pool: list[str] = biomes
            decks: list[tuple[str, tuple[str, ...]]] = [(b, ()) for b in BIOMES]
            weather: list[str] = [""]
        else:
            piles = {}
            for kind in ("normal", "hard"):
                pile = [i for i, t in enumerate(cat.needs_tiles) if t.kind == kind]
                piles[kind], rng = rng.shuffled(pile)
            taken = {"normal": 0, "hard": 0}
            needs = []
            for kind, side in season_setup.pattern:
                needs.append((cat.needs_tiles[piles[kind][taken[kind]]].number, side))
                taken[kind] += 1
            shuffled, rng = rng.shuffled(biomes)
            pool = list(shuffled)
            decks = []
            for biome in BIOMES:
                cards, rng = rng.shuffled([c.id for c in cat.locations[biome]])
                decks.append((biome, tuple(cards)))
            deck, rng = rng.shuffled([c.id for c in cat.weather if c.season == season])
            weather = list(deck)
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
            pool=tuple(pool),
            decks=tuple(decks),
            discards=tuple((b, ()) for b in BIOMES),
            tokens=tuple(range(len(scenario.tokens))),
            needs=tuple(needs),
            storm_after=season_setup.storm_after,
            weather_deck=tuple(weather[1:]),
            weather=weather[0],
            weather_due=options.draws == "table",
            structures=structures,
            essence=ESSENCE_START if structures else 0,
        )
        return data, rng, 0

    # --- the rules --------------------------------------------------------------------------

    def legal(self, state: State[Any], move: Move) -> Verdict:
        """Don't Starve's own checks of a move the core allows now (``rules/legality.py``)."""
        return check(state, move)

    def in_progress(self, state: State[Any]) -> InProgress | None:
        """A draw the table has not given yet (draws "table", ``rules/draws.py``): the location
        card an explore drew, or, before a round's first action, the weather card turned up
        and the leftmost needs tile."""
        return in_progress(state)

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
            return layout_picture(catalogue(state), state.data.scenario, lang, seen)
        return map_picture(state, lang, refused)

    def scores(self, state: State[Any]) -> tuple[int, ...] | None:
        """None: the players win or lose the scenario together and keep no score (胜利与失败)."""
        return None

    def event_text(
        self, event: dict[str, Any], lang: str, state: State[Any] | None = None
    ) -> str | None:
        """The log's line for Don't Starve's events and the dice it announces (``texts.py``),
        things named by the state's box (the demo box's without a state), with the note of a
        line that rests on a demo value."""
        return event_line(event, lang, catalogue(state), None if state is None else state.data)

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
