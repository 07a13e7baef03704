"""Don't Starve: The Board Game (饥荒桌游版): setup, the six phases of a round, and the actions.

Each rule enforced here names its section of ``dont-starve.zh.md`` (in the reasons, and in the
tests). Printed values the rule text does not give come from ``data/*.toml`` (placeholders).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Literal

from engine.core import (
    ACCEPTED,
    END,
    DicePoolAnnounced,
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
    State,
    Text,
    TurnOrder,
    Verdict,
)
from engine.core.vocabulary import SeatPassed
from engine.dont_starve import reasons as R
from engine.dont_starve.board import Place, adjacent
from engine.dont_starve.catalogue import (
    BIOMES,
    DIFFICULTIES,
    PORTAL,
    PORTAL_SLOT,
    STORM,
    SYMBOLS,
    Scenario,
    catalogue,
)
from engine.dont_starve.moves import (
    Act,
    CharacterMoved,
    DialSet,
    Discard,
    Eat,
    EssenceChanged,
    Explore,
    Fight,
    FightEnded,
    FighterResolved,
    FightStarted,
    FocusChanged,
    Gain,
    GainEssence,
    Interact,
    InventoryChanged,
    Light,
    LocationExplored,
    Lose,
    MoveTo,
    NeedsAnnounced,
    NeedsTileRemoved,
    Protect,
    Roll,
    ScenarioEnd,
    ScenarioWon,
    SpendFocus,
    TileRevealed,
    Trade,
    WeatherAnnounced,
    WeatherDrawn,
    WorldEvent,
)
from engine.dont_starve.picture import layout_picture
from engine.dont_starve.picture import picture as map_picture
from engine.dont_starve.state import (
    DIAL_START,
    ESSENCE_PER_SANITY,
    ESSENCE_START,
    ITEM_LIMIT,
    LIGHT_DAMAGE,
    MAX_STRUCTURES,
    RESOURCE_LIMIT,
    UNLOCK_POINTS,
    Character,
    DSData,
    Fighting,
    change_stats,
    revive_all,
)
from engine.dont_starve.texts import (
    BIOME_NAMES,
    DIFFICULTY_NAMES,
    EVENT_TEXTS,
    OUTCOME_TEXTS,
    RESULTS,
    TIME_NAMES,
    count_of,
    event_line,
    numbers_named,
    scenario_title,
    symbols_line,
    tile_called,
)
from engine.dont_starve.texts import (
    option_texts as setup_texts,
)

RULES = R.RULES
ROUNDS = 6
"""回合结构: at most 6 rounds."""
CHARACTERS = ("wilson", "willow", "wendy", "webber")
Events = tuple[Event, ...]
S = State[DSData]


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


# --- small helpers -------------------------------------------------------------------------


def scenario_of(data: DSData) -> Scenario:
    """The scenario being played."""
    return catalogue().scenarios[data.scenario]


def places(data: DSData) -> dict[str, Place]:
    """Every tile of the layout with its place on the half-tile grid."""
    return {s.name: (s.x, s.y) for s in scenario_of(data).all_slots}


def _data(state: S, data: DSData) -> S:
    return replace(state, data=data)


def _finish_turn(state: S, seat: Seat) -> tuple[S, Events]:
    """The character flips its activation token: done until the dial turns (结束回合)."""
    flow = replace(state.flow, done=state.flow.done | {seat})
    data = replace(state.data, moved=state.data.moved - {seat})
    return replace(state, flow=flow, data=data), (SeatPassed(seat, state.flow.phase),)


def _tokens_on(data: DSData, tile: str) -> list[int]:
    tokens = scenario_of(data).tokens
    return [i for i in data.tokens if tokens[i].slot == tile]


def _hostile_here(data: DSData, tile: str) -> bool:
    """Whether an undefeated hostile monster stands on the tile (敌意)."""
    tokens = scenario_of(data).tokens
    if any(tokens[i].hostile for i in _tokens_on(data, tile)):
        return True
    card = data.location(tile)
    hostile = card is not None and catalogue().location_hostile(card)
    return hostile and tile not in data.defeated_monsters


def _deal(total: int, fighters: int) -> tuple[int, ...]:
    """Monster dice dealt one by one from the initiator."""
    return tuple(total // fighters + (1 if i < total % fighters else 0) for i in range(fighters))


# --- phase hooks ---------------------------------------------------------------------------


def _prepare(state: S) -> tuple[S, Events]:
    """准备阶段: draw weather, (activation is reset by the action phase), refresh focus."""
    data = state.data
    events: list[Event] = []
    deck = data.weather_deck
    if not deck:  # the season's deck ran out: its cards go back in, shuffled
        season_cards = [c.id for c in catalogue().weather if c.season == data.season]
        deck, rng = state.rng.shuffled(season_cards)
        state = replace(state, rng=rng)
    card = catalogue().weather_card(deck[0])
    data = replace(data, weather=card.id, weather_deck=deck[1:])
    events.append(WeatherDrawn(card.id, card.symbols))
    for seat, c in enumerate(data.characters):
        if c.defeated:
            continue
        icons = max((n for at, n in c.card.focus_thresholds if at <= c.hunger), default=0)
        focus = min(c.card.focus, c.focus + icons)
        if focus != c.focus:
            data = data.with_char(seat, replace(c, focus=focus))
            events.append(FocusChanged(seat, focus, "refreshed"))
    return _data(state, data), tuple(events)


def _complete_preparation(state: S) -> tuple[S, Events]:
    """完成准备阶段: remove the leftmost needs tile (the last one loses), then revive."""
    data = state.data
    needs = data.needs[1:]
    data = replace(data, needs=needs, needs_removed=data.needs_removed + 1)
    events: list[Event] = [NeedsTileRemoved(len(needs), data.time if needs else "")]
    if not needs:
        return _data(state, replace(data, result="dont_starve.out_of_time")), tuple(events)
    data, revived = revive_all(data, PORTAL_SLOT)
    return _data(state, data), (*events, *revived)


def _after_preparation(state: S) -> str:
    """The action phase, unless the last needs tile is gone: then the game ends there, with no
    phase announced that will never be played (§胜利与失败)."""
    return END if state.data.result else "action"


def _begin_action(state: S) -> tuple[S, Events]:
    """行动阶段: the dial on the side of the leftmost needs tile, set to 6."""
    data = replace(state.data, dial=DIAL_START, moved=frozenset(), fight=None)
    return _data(state, data), (DialSet(DIAL_START, data.time),)


def _dial_turns(state: S) -> tuple[S, Events]:
    """结束回合 B: everyone inactive: revive the defeated, the dial drops by 1, all active again."""
    data, events = revive_all(state.data, PORTAL_SLOT)
    dial = data.dial - 1
    data = replace(data, dial=dial, moved=frozenset())
    flow = state.flow
    if dial >= 1:
        flow = replace(flow, done=frozenset(), current=None)
    return replace(state, data=data, flow=flow), (*events, DialSet(dial, data.time))


def _end_action(state: S) -> tuple[S, Events]:
    data = replace(state.data, fight=None, rolled=None)
    return _data(state, data), (DicePoolAnnounced(None, (), "clear"),)


def _no_shadows(state: S) -> bool:
    return not any(c.shadows and not c.defeated for c in state.data.characters)


def _begin_shadow(state: S) -> tuple[S, Events]:
    """暗影阶段: each haunted character resolves its shadows; attacks roll monster dice."""
    events: list[Event] = []
    for seat, c in enumerate(state.data.characters):
        dice = catalogue().shadow_dice.get(c.shadows, 0) if not c.defeated else 0
        if dice:
            events.append(DicePoolAnnounced(seat, ("monster",) * dice, "shadow"))
    return state, tuple(events)


def _begin_needs(state: S) -> tuple[S, Events]:
    light, hunger, sanity = state.data.current_needs
    return state, (NeedsAnnounced(light, hunger, sanity),)


def _resolve_needs(state: S) -> tuple[S, Events]:
    """每日需求阶段: light shared per tile (5 health per missing point, unavoidable), then
    hunger and sanity, each offset first by the food eaten this phase."""
    data = state.data
    need_light, need_hunger, need_sanity = data.current_needs
    events: list[Event] = []
    lit: dict[str, int] = {}
    for c in data.characters:
        if c.tile is not None:
            lit[c.tile] = lit.get(c.tile, 0) + c.light
    for seat, c in enumerate(data.characters):
        if c.tile is None:
            continue
        missing = max(0, need_light - lit[c.tile])
        if missing:
            data, own = change_stats(data, seat, health=-LIGHT_DAMAGE * missing)
            events += own
    for seat in range(len(data.characters)):
        oh, ohu, osa = data.char(seat).offsets
        data, own = change_stats(data, seat, oh, ohu - need_hunger, osa - need_sanity)
        events += own
    return _data(state, _clear_phase_marks(data)), tuple(events)


def _begin_weather(state: S) -> tuple[S, Events]:
    data = state.data
    card = catalogue().weather_card(data.weather)
    return state, (WeatherAnnounced(card.id, _active_symbols(data), data.past_storm),)


def _active_symbols(data: DSData) -> tuple[str, ...]:
    """天气需求: left of the storm marker only the symbols left of the storm icon count."""
    symbols = catalogue().weather_card(data.weather).symbols
    storm = symbols.index(STORM)
    return tuple(s for s in (symbols if data.past_storm else symbols[:storm]) if s != STORM)


def _resolve_weather(state: S) -> tuple[S, Events]:
    """天气阶段: the weather event, then each character's weather needs (multiplier per symbol
    type = its unexempted symbols), then the world events."""
    data = state.data
    cat = catalogue()
    card = cat.weather_card(data.weather)
    events: list[Event] = []
    active = _active_symbols(data)
    for seat in range(len(data.characters)):
        c = data.char(seat)
        loss = dict(zip(("health", "hunger", "sanity"), card.event, strict=True))
        for symbol in SYMBOLS:
            multiplier = max(0, active.count(symbol) - c.protected(symbol))
            for stat, n in cat.weather_effects.get(symbol, {}).items():
                loss[stat] += n * multiplier
        oh, ohu, osa = c.offsets
        data, own = change_stats(
            data, seat, oh - loss["health"], ohu - loss["hunger"], osa - loss["sanity"]
        )
        events += own
    for name in card.world:
        events.append(WorldEvent(name))
        if name == "spoil_all":
            for seat, c in enumerate(data.characters):
                if c.raw_food:
                    data = data.with_char(seat, replace(c, raw_food=0))
                    events.append(InventoryChanged(seat, "raw_food", 0))
        elif name == "regrow":  # every mining marker back to the start (再生长)
            data = replace(data, mined=())
        elif name == "monster_refresh":
            data = replace(data, defeated_monsters=frozenset())
    return _data(state, _clear_phase_marks(data)), tuple(events)


def _clear_phase_marks(data: DSData) -> DSData:
    chars = tuple(replace(c, light=0, offsets=(0, 0, 0), protect=()) for c in data.characters)
    return replace(data, characters=chars)


def _first_round(state: S) -> bool:
    """游戏设置: the first round skips the whole preparation phase."""
    return state.flow.round == 1


ACTION_MOVES = frozenset(
    {
        MoveTo.type,
        Explore.type,
        Interact.type,
        Fight.type,
        Roll.type,
        Trade.type,
        Act.type,
        Gain.type,
        Discard.type,
        Eat.type,
        Lose.type,
        SpendFocus.type,
        GainEssence.type,
        ScenarioEnd.type,
    }
)
KEEP_ROLLED = (Gain, Discard, Eat, Lose, SpendFocus, GainEssence)
"""Moves that leave an announced interact or hostility pool open (entering its results)."""
UPKEEP_MOVES = frozenset({Gain.type, Discard.type, Eat.type, Lose.type, SpendFocus.type})

PHASES = (
    Phase(
        "preparation",
        Text("准备阶段", "Preparation"),
        starts_round=True,
        skip_if=_first_round,
        on_begin=_prepare,
        on_end=_complete_preparation,
        next=_after_preparation,
        rule=R.rule("准备阶段"),
    ),
    Phase(
        "action",
        Text("行动阶段", "Action"),
        TurnOrder.FREE,
        moves=ACTION_MOVES,
        on_begin=_begin_action,
        end_if=lambda s: s.data.dial <= 0,
        on_all_done=_dial_turns,
        on_end=_end_action,
        rule=R.rule("行动阶段"),
    ),
    Phase(
        "shadow",
        Text("暗影阶段", "Shadow"),
        TurnOrder.SIMULTANEOUS,
        moves=UPKEEP_MOVES,
        skip_if=_no_shadows,
        on_begin=_begin_shadow,
        rule=R.rule("暗影阶段"),
    ),
    Phase(
        "daily_needs",
        Text("每日需求阶段", "Daily needs"),
        TurnOrder.SIMULTANEOUS,
        moves=UPKEEP_MOVES | {Light.type},
        on_begin=_begin_needs,
        on_end=_resolve_needs,
        rule=R.rule("每日需求阶段"),
    ),
    Phase(
        "weather",
        Text("天气阶段", "Weather"),
        TurnOrder.SIMULTANEOUS,
        moves=UPKEEP_MOVES | {Protect.type},
        on_begin=_begin_weather,
        on_end=_resolve_weather,
        rule=R.rule("天气阶段"),
    ),
    Phase(
        "scenario",
        Text("剧本阶段", "Scenario"),
        next="preparation",
        rule=R.rule("剧本阶段"),
    ),
)


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
        problems = []
        if len(chosen) != options.players:
            problems.append(f"{options.players} players need {options.players} characters")
        problems += [f"unknown character {c!r}" for c in chosen if c not in cat.characters]
        if len(set(chosen)) != len(chosen):
            problems.append("each player needs a different character")
        if options.scenario not in cat.scenarios:
            problems.append(
                f"unknown scenario {options.scenario!r}; known: {', '.join(cat.scenarios)}"
            )
        if len(structures) > MAX_STRUCTURES:
            problems.append(f"at most {MAX_STRUCTURES} structures go in the base camp")
        if options.difficulty not in DIFFICULTIES:
            problems.append(f"unknown difficulty {options.difficulty!r}")
        if problems:
            raise GameConfigError("dont_starve options: " + "; ".join(problems))
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

    # --- legality ---------------------------------------------------------------------------

    def legal(self, state: State[Any], move: Move) -> Verdict:
        """Don't Starve's own checks of a move the core allows now."""
        data: DSData = state.data
        seat = move.seat
        assert seat is not None
        if data.fight is not None and seat not in data.fight.fighters:  # §自由行动
            return R.INTERRUPTS.reject(player=data.fight.initiator + 1)
        if data.fight is not None and not isinstance(move, Roll | SpendFocus | Eat | Lose):
            return R.FIGHT_PENDING.reject()
        c = data.char(seat)
        if c.defeated and not isinstance(move, Roll | ScenarioEnd):
            return R.DEFEATED.reject(player=seat + 1)
        if isinstance(move, Fight):
            return self._legal_fight(data, seat, move, state.flow.done)
        check = getattr(self, f"_legal_{type(move).__name__.lower()}", None)
        return check(data, seat, move) if check is not None else ACCEPTED

    def _legal_moveto(self, data: DSData, seat: Seat, move: MoveTo) -> Verdict:
        where = places(data)
        here = data.char(seat).tile
        if move.to not in where:
            return R.NO_SUCH_TILE.reject(tile=move.to)
        if here is None or not adjacent(where[here], where[move.to]):
            return R.NOT_ADJACENT.reject(
                to=tile_called(move.to), frm=OFF_MAP if here is None else tile_called(here)
            )
        if not move.main and seat in data.moved:
            return R.MOVE_USED.reject()
        hidden = data.biome_of(move.to) is None
        if hidden and move.biome is not None and move.biome not in data.pool:
            return R.WRONG_BIOME.reject(
                biome=BIOME_NAMES.get(move.biome, Text(move.biome, move.biome))
            )
        return ACCEPTED

    def _legal_explore(self, data: DSData, seat: Seat, move: Explore) -> Verdict:
        if data.char(seat).tile == PORTAL_SLOT:
            return R.EXPLORE_PORTAL.reject()
        return ACCEPTED

    def _legal_interact(self, data: DSData, seat: Seat, move: Interact) -> Verdict:
        tile = data.char(seat).tile or ""
        if move.target == "structure":
            if tile != PORTAL_SLOT:
                return R.STRUCTURE_OFF_PORTAL.reject()
            if not data.structures:
                return R.NO_BASE_CAMP.reject()
            if not 0 <= move.essence <= data.essence:
                return R.NO_ESSENCE.reject(cost=move.essence, have=data.essence)
        card = data.location(tile)
        if move.target == "location" and card is None:
            return R.NO_LOCATION.reject(tile=tile)
        if move.target == "location" and dict(data.mined).get(tile, 0) >= catalogue().mining[card]:
            return R.MINED_OUT.reject(tile=tile)
        return ACCEPTED

    def _legal_fight(self, data: DSData, seat: Seat, move: Fight, done: frozenset[Seat]) -> Verdict:
        tile = data.char(seat).tile or ""
        if move.target == "location":
            if data.location(tile) is None:
                return R.NO_LOCATION.reject(tile=tile)
            if tile in data.defeated_monsters:
                return R.MONSTER_DEFEATED.reject(tile=tile)
        elif move.target == "scenario":
            have = len(_tokens_on(data, tile))
            if not 1 <= move.tokens <= have:
                return R.NO_TOKENS.reject(tile=tile, have=have, want=move.tokens)
        elif data.char(seat).shadows < move.tier or move.tier < 1:
            return R.NO_SHADOW.reject(tier=move.tier)
        if move.target == "shadow" and move.helpers:
            return R.SHADOW_ALONE.reject()
        where = places(data)
        for helper in move.helpers:
            h = data.char(helper) if 0 <= helper < len(data.characters) else None
            ok = (
                h is not None
                and helper != seat
                and move.helpers.count(helper) == 1
                and not h.defeated
                and h.tile is not None
                and (h.tile == tile or adjacent(where[h.tile], where[tile]))
            )
            if not ok or helper in done:
                return R.CANNOT_JOIN.reject(player=helper + 1)
        if move.cv < 0 or move.monster_cv < 0 or move.damage < 0:
            return R.BAD_NUMBER.reject(what=numbers_named("cv", "monster_cv", "damage"))
        total = self._monster_dice(data, seat, move)
        if move.split and (
            len(move.split) != 1 + len(move.helpers)
            or sum(move.split) != total
            or min(move.split) < 0
        ):
            return R.BAD_SPLIT.reject(split=_listed(move.split), total=total)
        return ACCEPTED

    def _legal_roll(self, data: DSData, seat: Seat, move: Roll) -> Verdict:
        fight = data.fight
        if fight is None:
            return R.NO_FIGHT.reject()
        done = {s for s, _ in fight.results}
        if move.fighter not in fight.fighters or move.fighter in done:
            return R.NOT_FIGHTING.reject(player=move.fighter + 1)
        dice = fight.dice_of(move.fighter)
        counts = (move.successes, move.dodges, move.hits, move.blocked)
        if min(counts) < 0 or move.dodges + move.hits > dice or move.blocked > move.hits:
            return R.BAD_DICE.reject(dice=dice)
        return ACCEPTED

    def _legal_trade(self, data: DSData, seat: Seat, move: Trade) -> Verdict:
        tile = data.char(seat).tile
        chars = list(data.characters)
        for t in move.transfers:
            seats = (t.giver, t.receiver)
            if any(not 0 <= s < len(chars) or chars[s].tile != tile for s in seats):
                return R.TRADE_APART.reject()
            if t.count < 1:
                return R.BAD_NUMBER.reject(what=numbers_named("count"))
            have = getattr(chars[t.giver], t.kind)
            if have < t.count:
                return R.NOT_IN_INVENTORY.reject(player=t.giver + 1, what=count_of(t.count, t.kind))
            chars[t.giver] = replace(chars[t.giver], **{t.kind: have - t.count})
            receiver = chars[t.receiver]
            chars[t.receiver] = replace(receiver, **{t.kind: getattr(receiver, t.kind) + t.count})
        return _limits(chars)

    def _legal_gain(self, data: DSData, seat: Seat, move: Gain) -> Verdict:
        target = _owner(seat, move.for_seat)
        if move.count < 1:
            return R.BAD_NUMBER.reject(what=numbers_named("count"))
        if not 0 <= target < len(data.characters):
            return R.NO_SUCH_PLAYER.reject(player=target + 1)
        c = data.char(target)
        return _limits([replace(c, **{move.kind: getattr(c, move.kind) + move.count})])

    def _legal_discard(self, data: DSData, seat: Seat, move: Discard) -> Verdict:
        if move.count < 1:
            return R.BAD_NUMBER.reject(what=numbers_named("count"))
        if getattr(data.char(seat), move.kind) < move.count:
            return R.NOT_IN_INVENTORY.reject(player=seat + 1, what=count_of(move.count, move.kind))
        return ACCEPTED

    def _legal_eat(self, data: DSData, seat: Seat, move: Eat) -> Verdict:
        owner = _owner(seat, move.for_seat)
        verdict = self._legal_lose(data, seat, move)
        if verdict.ok and getattr(data.char(owner), move.kind) < 1:
            return R.NOT_IN_INVENTORY.reject(player=owner + 1, what=count_of(1, move.kind))
        return verdict

    def _legal_lose(self, data: DSData, seat: Seat, move: Lose | Eat) -> Verdict:
        owner = _owner(seat, move.for_seat)
        if not 0 <= owner < len(data.characters):
            return R.NO_SUCH_PLAYER.reject(player=owner + 1)
        if data.char(owner).defeated:
            return R.DEFEATED.reject(player=owner + 1)
        if min(move.health, move.hunger, move.sanity) < 0:
            return R.BAD_NUMBER.reject(what=numbers_named("health", "hunger", "sanity"))
        return ACCEPTED

    def _legal_spendfocus(self, data: DSData, seat: Seat, move: SpendFocus) -> Verdict:
        owner = _owner(seat, move.for_seat)
        if not 0 <= owner < len(data.characters):
            return R.NO_SUCH_PLAYER.reject(player=owner + 1)
        fighters = data.fight.fighters if data.fight is not None else ()
        if owner != seat and owner not in fighters:
            return R.NOT_FIGHTING.reject(player=owner + 1)
        return ACCEPTED if data.char(owner).focus > 0 else R.NO_FOCUS.reject()

    def _legal_gainessence(self, data: DSData, seat: Seat, move: GainEssence) -> Verdict:
        if not data.structures:
            return R.NO_BASE_CAMP.reject()
        if data.char(seat).tile != PORTAL_SLOT:
            return R.OFF_PORTAL.reject()
        return ACCEPTED if data.char(seat).sanity >= 1 else R.NO_SANITY.reject()

    def _legal_light(self, data: DSData, seat: Seat, move: Light) -> Verdict:
        return ACCEPTED if move.points >= 1 else R.BAD_NUMBER.reject(what=numbers_named("points"))

    def _legal_protect(self, data: DSData, seat: Seat, move: Protect) -> Verdict:
        return ACCEPTED if move.count >= 1 else R.BAD_NUMBER.reject(what=numbers_named("count"))

    @staticmethod
    def _monster_dice(data: DSData, seat: Seat, move: Fight) -> int:
        """战斗结算: max(1, monster CV − the fighters' CV); scenario tokens not engaged add one
        die each, which CV does not reduce."""
        if move.target == "scenario":
            tokens = scenario_of(data).tokens
            here = _tokens_on(data, data.char(seat).tile or "")
            engaged = here[: move.tokens]
            cv = sum(tokens[i].cv for i in engaged)
            return max(1, cv - move.cv) + (len(here) - len(engaged))
        if move.target == "shadow":
            return max(1, catalogue().shadow_cv.get(move.tier, 0) - move.cv)
        return max(1, move.monster_cv - move.cv)

    # --- effects ----------------------------------------------------------------------------

    def apply(self, state: State[Any], move: Move) -> tuple[State[Any], Events]:
        """The effects of a legal Don't Starve move."""
        handler = getattr(self, f"_apply_{type(move).__name__.lower()}")
        if state.data.rolled is not None and not isinstance(move, KEEP_ROLLED):
            state = _data(state, replace(state.data, rolled=None))
        return handler(state, move.seat, move)  # type: ignore[no-any-return]

    def _apply_moveto(self, state: S, seat: Seat, move: MoveTo) -> tuple[S, Events]:
        data = state.data
        c = data.char(seat)
        events: list[Event] = []
        if data.biome_of(move.to) is None:
            biome = move.biome or data.pool[0]
            pool = list(data.pool)
            pool.remove(biome)
            data = replace(data, pool=tuple(pool), revealed=(*data.revealed, (move.to, biome)))
            events.append(TileRevealed(move.to, biome))
        data = data.with_char(seat, replace(c, tile=move.to))
        events.insert(0, CharacterMoved(seat, c.tile or "", move.to))
        state = _data(state, replace(data, moved=data.moved | {seat}))
        if move.main:
            state, done = _finish_turn(state, seat)
            events += done
        return state, tuple(events)

    def _apply_explore(self, state: S, seat: Seat, move: Explore) -> tuple[S, Events]:
        data = state.data
        tile = data.char(seat).tile or ""
        biome = data.biome_of(tile) or ""
        decks, discards = dict(data.decks), dict(data.discards)
        old = data.location(tile)
        if old is not None:
            discards[biome] = (*discards[biome], old)
        rng = state.rng
        if not decks[biome]:  # 探索: an empty deck is its discards, shuffled
            decks[biome], rng = rng.shuffled(discards[biome])
            discards[biome] = ()
        deck = decks[biome]
        card = deck[-1] if move.bottom else deck[0]
        decks[biome] = deck[:-1] if move.bottom else deck[1:]
        locations = (*((t, c) for t, c in data.locations if t != tile), (tile, card))
        data = replace(
            data,
            decks=tuple(decks.items()),
            discards=tuple(discards.items()),
            locations=locations,
            mined=tuple((t, n) for t, n in data.mined if t != tile),  # marker at the start
            defeated_monsters=data.defeated_monsters - {tile},
        )
        state = replace(state, rng=rng, data=data)
        events: list[Event] = [LocationExplored(seat, tile, card)]
        if _hostile_here(data, tile):
            events.append(DicePoolAnnounced(seat, ("monster",), "hostility"))
            state = _data(state, replace(state.data, rolled=(seat, ("monster",))))
        state, done = _finish_turn(state, seat)
        return state, (*events, *done)

    def _apply_interact(self, state: S, seat: Seat, move: Interact) -> tuple[S, Events]:
        """互动: the mining marker moves one space towards 已开采; dice for the roll and any
        hostile monster."""
        tile = state.data.char(seat).tile or ""
        events: list[Event] = []
        if move.target == "structure" and move.essence:  # 精华: pay the structure's cost
            essence = state.data.essence - move.essence
            state = _data(state, replace(state.data, essence=essence))
            events.append(EssenceChanged(essence))
        if move.target == "location":
            mined = dict(state.data.mined)
            mined[tile] = mined.get(tile, 0) + 1
            state = _data(state, replace(state.data, mined=tuple(sorted(mined.items()))))
        dice = ("character",) if move.roll else ()
        if _hostile_here(state.data, tile):
            dice += ("monster",)
        if dice:
            events.append(DicePoolAnnounced(seat, dice, "interact"))
            state = _data(state, replace(state.data, rolled=(seat, dice)))
        state, done = _finish_turn(state, seat)
        return state, (*events, *done)

    def _apply_fight(self, state: S, seat: Seat, move: Fight) -> tuple[S, Events]:
        data = state.data
        tile = data.char(seat).tile or ""
        fighters = (seat, *move.helpers)
        total = self._monster_dice(data, seat, move)
        split = move.split or _deal(total, len(fighters))
        engaged: tuple[int, ...] = ()
        damage = move.damage
        if move.target == "scenario":
            engaged = tuple(_tokens_on(data, tile)[: move.tokens])
            damage = max(scenario_of(data).tokens[i].damage for i in engaged)
        events: list[Event] = [FightStarted(seat, move.target, tile, fighters, total, split)]
        flow_done = state.flow.done
        for helper in move.helpers:  # 加入战斗: helpers move in and flip to inactive
            h = data.char(helper)
            if h.tile != tile:
                events.append(CharacterMoved(helper, h.tile or "", tile))
            data = data.with_char(helper, replace(h, tile=tile))
            flow_done = flow_done | {helper}
            events.append(SeatPassed(helper, state.flow.phase))
        fight = Fighting(seat, move.target, tile, fighters, split, damage, engaged, move.tier)
        results = tuple((f, True) for f, n in zip(fighters, split, strict=True) if n == 0)
        fight = replace(fight, results=results)
        for fighter, n in zip(fighters, split, strict=True):
            if n:
                events.append(
                    DicePoolAnnounced(fighter, ("character",) + ("monster",) * n, "fight")
                )
        state = replace(
            state, data=replace(data, fight=fight), flow=replace(state.flow, done=flow_done)
        )
        if len(results) == len(fighters):
            return self._end_fight(state, events)
        return state, tuple(events)

    def _apply_roll(self, state: S, seat: Seat, move: Roll) -> tuple[S, Events]:
        data = state.data
        fight = data.fight
        assert fight is not None
        won = move.successes - move.dodges >= 1  # each success cancels one dodge
        damage = (move.hits - move.blocked) * fight.damage
        data, events = change_stats(data, move.fighter, health=-damage)
        events = (FighterResolved(move.fighter, won, damage), *events)
        fight = replace(fight, results=(*fight.results, (move.fighter, won)))
        state = _data(state, replace(data, fight=fight))
        if len(fight.results) < len(fight.fighters):
            return state, events
        return self._end_fight(state, list(events))

    def _end_fight(self, state: S, events: list[Event]) -> tuple[S, Events]:
        data = state.data
        fight = data.fight
        assert fight is not None
        won = all(w for _, w in fight.results)
        if won and fight.target == "location":
            data = replace(data, defeated_monsters=data.defeated_monsters | {fight.tile})
        if won and fight.target == "scenario":
            data = replace(data, tokens=tuple(i for i in data.tokens if i not in fight.engaged))
        events += [FightEnded(won, fight.target, fight.tile), DicePoolAnnounced(None, (), "clear")]
        state = _data(state, replace(data, fight=None))
        state, done = _finish_turn(state, fight.initiator)
        return state, (*events, *done)

    def _apply_trade(self, state: S, seat: Seat, move: Trade) -> tuple[S, Events]:
        data = state.data
        events: list[Event] = []
        for t in move.transfers:
            for s, delta in ((t.giver, -t.count), (t.receiver, t.count)):
                c = data.char(s)
                count = getattr(c, t.kind) + delta
                data = data.with_char(s, replace(c, **{t.kind: count}))
                events.append(InventoryChanged(s, t.kind, count))
        state, done = _finish_turn(_data(state, data), seat)
        return state, (*events, *done)

    def _apply_act(self, state: S, seat: Seat, move: Act) -> tuple[S, Events]:
        return _finish_turn(state, seat)

    def _apply_gain(self, state: S, seat: Seat, move: Gain) -> tuple[S, Events]:
        return _count(state, _owner(seat, move.for_seat), move.kind, move.count)

    def _apply_discard(self, state: S, seat: Seat, move: Discard) -> tuple[S, Events]:
        return _count(state, seat, move.kind, -move.count)

    def _apply_eat(self, state: S, seat: Seat, move: Eat) -> tuple[S, Events]:
        seat = _owner(seat, move.for_seat)
        state, events = _count(state, seat, move.kind, -1)
        data = state.data
        if state.flow.phase in ("daily_needs", "weather"):  # offsets this phase's losses first
            c = data.char(seat)
            oh, ohu, osa = c.offsets
            offsets = (oh + move.health, ohu + move.hunger, osa + move.sanity)
            return _data(state, data.with_char(seat, replace(c, offsets=offsets))), events
        data, own = change_stats(data, seat, move.health, move.hunger, move.sanity)
        return _data(state, data), (*events, *own)

    def _apply_lose(self, state: S, seat: Seat, move: Lose) -> tuple[S, Events]:
        seat = _owner(seat, move.for_seat)
        data, events = change_stats(state.data, seat, -move.health, -move.hunger, -move.sanity)
        return _data(state, data), events

    def _apply_spendfocus(self, state: S, seat: Seat, move: SpendFocus) -> tuple[S, Events]:
        """专注点: one token flips; in a fight the tray shows that fighter's dice again."""
        owner = _owner(seat, move.for_seat)
        c = state.data.char(owner)
        data = state.data.with_char(owner, replace(c, focus=c.focus - 1))
        events: list[Event] = [FocusChanged(owner, c.focus - 1, "reroll")]
        fight = data.fight
        if fight is not None and owner in fight.fighters and fight.dice_of(owner):
            dice = ("character",) + ("monster",) * fight.dice_of(owner)
            events.append(DicePoolAnnounced(owner, dice, "reroll"))
        return _data(state, data), tuple(events)

    def _apply_gainessence(self, state: S, seat: Seat, move: GainEssence) -> tuple[S, Events]:
        data, events = change_stats(state.data, seat, sanity=-1)
        data = replace(data, essence=data.essence + ESSENCE_PER_SANITY)
        return _data(state, data), (*events, EssenceChanged(data.essence))

    def _apply_light(self, state: S, seat: Seat, move: Light) -> tuple[S, Events]:
        c = state.data.char(seat)
        return _data(state, state.data.with_char(seat, replace(c, light=c.light + move.points))), ()

    def _apply_protect(self, state: S, seat: Seat, move: Protect) -> tuple[S, Events]:
        c = state.data.char(seat)
        c = replace(c, protect=(*c.protect, (move.symbol, move.count)))
        return _data(state, state.data.with_char(seat, c)), ()

    def _apply_scenarioend(self, state: S, seat: Seat, move: ScenarioEnd) -> tuple[S, Events]:
        if move.result == "win":
            points = UNLOCK_POINTS[state.data.difficulty]
            return _data(state, replace(state.data, result="won")), (ScenarioWon(points),)
        return _data(state, replace(state.data, result="dont_starve.scenario_lost")), ()

    # --- the console ------------------------------------------------------------------------

    def offers(self, state: State[Any], seat: Seat) -> Iterable[Offer]:
        """What this seat may do now, for the players' console (dont_starve/offers.py)."""
        from engine.dont_starve.offers import seat_offers  # it builds on this module

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
        (essence with a base camp, the result once decided), and a short strip per character."""
        data: DSData = state.data
        zh = lang == "zh"

        def tr(text: Text) -> str:
            return text.zh if zh else text.en

        cat = catalogue()
        light, hunger, sanity = data.current_needs
        if data.past_storm:
            storm = Text("已越过", "passed")
        else:
            n = data.storm_after - data.needs_removed
            storm = Text(f"还有{n}块需求板块", f"in {n} tile(s)")
        season = cat.season_names[data.season]
        summary: list[list[Any]] = [
            [tr(Text("剧本", "Scenario")), tr(scenario_title(data.scenario))],
            [tr(Text("季节", "Season")), season[0] if zh else season[1]],
            [tr(Text("难度", "Difficulty")), tr(DIFFICULTY_NAMES[data.difficulty])],
            [tr(Text("时间", "Time")), tr(TIME_NAMES[data.time])],
            [tr(Text("行动轮盘", "Action dial")), data.dial],
            [tr(Text("剩余需求板块", "Needs tiles left")), len(data.needs)],
            [
                tr(Text("需求", "Needs")),
                tr(
                    Text(
                        f"光照{light} 饥饿{hunger} 理智{sanity}",
                        f"light {light}, hunger {hunger}, sanity {sanity}",
                    )
                ),
            ],
            [tr(Text("风暴", "Storm")), tr(storm)],
            [tr(Text("天气", "Weather")), tr(symbols_line(cat.weather_card(data.weather).symbols))],
            [tr(Text("肉块雕像", "Meat effigies")), data.effigies],
        ]
        if data.structures:
            summary.append([tr(Text("精华", "Essence")), data.essence])
        if data.result in RESULTS:
            summary.append([tr(Text("结果", "Result")), tr(RESULTS[data.result])])
        players = [
            {
                "seat": seat,
                "name": c.card.name_zh if zh else c.card.name_en,
                "fields": _strip(data, c, tr),
            }
            for seat, c in enumerate(data.characters)
        ]
        track = {"accent": data.time, "mark_round": data.storm_after + 1}  # the storm's round
        return {"summary": summary, "players": players, "track": track}


def _strip(data: DSData, c: Character, tr: Any) -> list[list[Any]]:
    """A character's fields for the kiosk's strip, most important first (six at most): the
    three dials (属性; sanity with the shadow creatures showing), the tile, focus, inventory."""
    card = c.card
    sanity = f"{c.sanity}/{card.max_sanity}"
    if c.shadows:
        sanity += tr(Text(f"(影怪{c.shadows}只)", f" ({c.shadows} shadows)"))
    if c.defeated or c.tile is None:
        where = Text("已被击败,等待复活", "defeated, waiting to be revived")
    else:
        where = tile_called(c.tile)
        biome = data.biome_of(c.tile)
        if c.tile != PORTAL_SLOT and biome is not None:
            b = BIOME_NAMES[biome]
            where = Text(f"{where.zh}({b.zh})", f"{where.en} ({b.en})")
    inventory = Text(
        f"资源{c.resources}/{RESOURCE_LIMIT} 物品{c.item}/{ITEM_LIMIT}",
        f"{c.resources}/{RESOURCE_LIMIT} resources, {c.item}/{ITEM_LIMIT} items",
    )
    return [
        [tr(Text("生命", "Health")), f"{c.health}/{card.max_health}"],
        [tr(Text("饱食", "Hunger")), f"{c.hunger}/{card.max_hunger}"],
        [tr(Text("理智", "Sanity")), sanity],
        [tr(Text("位置", "Where")), tr(where)],
        [tr(Text("专注", "Focus")), f"{c.focus}/{card.focus}"],
        [tr(Text("背包", "Backpack")), tr(inventory)],
    ]


def _names(value: tuple[str, ...] | str | None, *, spaces: bool = True) -> tuple[str, ...]:
    """Names from a list or from text typed in a form ("wilson, wendy"); ``spaces=False`` for
    names that have spaces themselves ("science machine, fire pit"): commas only."""
    if isinstance(value, str):
        value = tuple(value.replace(",", " ").split() if spaces else value.split(","))
    value = tuple(v for v in value or () if v.strip())
    return tuple(" ".join(v.split()).lower() for v in value)


OFF_MAP = Text("地图外", "off the map")
"""Where a character stands that is on no tile (in a refusal message)."""


def _listed(numbers: Iterable[int]) -> Text:
    """Numbers as a list in a message: ``1、2`` / ``1, 2``."""
    shown = [str(n) for n in numbers]
    return Text("、".join(shown), ", ".join(shown))


def _owner(seat: Seat, for_seat: Seat | None) -> Seat:
    """Whose character a move is about: ``for_seat`` when given, else the seat making it."""
    return seat if for_seat is None else for_seat


def _limits(chars: list[Character]) -> Verdict:
    """上限 物品栏上限: at most 10 resources in a backpack and 8 item cards in a hand."""
    for c in chars:
        if c.resources > RESOURCE_LIMIT:
            return R.BACKPACK_FULL.reject(have=c.resources)
        if c.item > ITEM_LIMIT:
            return R.HAND_FULL.reject(have=c.item)
    return ACCEPTED


def _count(state: S, seat: Seat, kind: str, delta: int) -> tuple[S, Events]:
    c = state.data.char(seat)
    count = getattr(c, kind) + delta
    data = state.data.with_char(seat, replace(c, **{kind: count}))
    return _data(state, data), (InventoryChanged(seat, kind, count),)
