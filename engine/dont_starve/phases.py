"""Don't Starve's round (§回合结构) as phases: preparation, action, shadow, daily needs,
weather, scenario; the hooks that run as each begins or ends (the action dial, the needs tiles,
light, hunger and sanity, the weather and the storm, the world events).

With draws "table" the preparation phase draws no weather card itself: the table discards the
old one and turns up the next, and says which before the round's first action (the action
phase's action in progress, ``in_progress``), as it says which needs tile lies leftmost."""

from __future__ import annotations

from dataclasses import replace

from engine.core import END, DicePoolAnnounced, Event, Phase, State, Text, TurnOrder
from engine.dont_starve import reasons as R
from engine.dont_starve.catalogue import PORTAL_SLOT, STORM, SYMBOLS, Catalogue, catalogue
from engine.dont_starve.common import with_data
from engine.dont_starve.moves import (
    Act,
    DialSet,
    Discard,
    DrawLocation,
    DrawWeather,
    Eat,
    Explore,
    Fight,
    FocusChanged,
    Gain,
    GainEssence,
    Interact,
    InventoryChanged,
    LayNeedsTile,
    Light,
    Lose,
    MoveTo,
    NeedsAnnounced,
    NeedsTileRemoved,
    Protect,
    Roll,
    ScenarioEnd,
    SpendFocus,
    Trade,
    WeatherAnnounced,
    WeatherDrawn,
    WorldEvent,
)
from engine.dont_starve.state import (
    DIAL_START,
    LIGHT_DAMAGE,
    DSData,
    change_stats,
    revive_all,
)

Events = tuple[Event, ...]
S = State[DSData]


def _prepare(state: S) -> tuple[S, Events]:
    """准备阶段: draw weather, (activation is reset by the action phase), refresh focus.

    With draws "virtual" the engine draws the season's next card (its deck reshuffled when it
    ran out); with "table" the old card is discarded and the table says which card it turned
    up before the round's first action (``weather_due``)."""
    data = state.data
    cat = catalogue(state)
    events: list[Event] = []
    if state.options.draws == "virtual":
        deck = data.weather_deck
        if not deck:  # the season's deck ran out: its cards go back in, shuffled
            season_cards = [c.id for c in cat.weather if c.season == data.season]
            deck, rng = state.rng.shuffled(season_cards)
            state = replace(state, rng=rng)
        card = cat.weather_card(deck[0])
        data = replace(data, weather=card.id, weather_deck=deck[1:])
        events.append(WeatherDrawn(card.id, card.symbols))
    else:
        data = replace(data, weather="", weather_due=True)
    for seat, c in enumerate(data.characters):
        if c.defeated:
            continue
        printed = c.card(cat)
        icons = max((n for at, n in printed.focus_thresholds if at <= c.hunger), default=0)
        focus = min(printed.focus, c.focus + icons)
        if focus != c.focus:
            data = data.with_char(seat, replace(c, focus=focus))
            events.append(FocusChanged(seat, focus, "refreshed"))
    return with_data(state, data), tuple(events)


def _complete_preparation(state: S) -> tuple[S, Events]:
    """完成准备阶段: remove the leftmost needs tile (the last one loses), then revive."""
    data = state.data
    needs = data.needs[1:]
    data = replace(data, needs=needs, needs_removed=data.needs_removed + 1)
    events: list[Event] = [NeedsTileRemoved(len(needs), data.time if needs else "")]
    if not needs:
        return with_data(state, replace(data, result="dont_starve.out_of_time")), tuple(events)
    data, revived = revive_all(catalogue(state), data, PORTAL_SLOT)
    return with_data(state, data), (*events, *revived)


def _after_preparation(state: S) -> str:
    """The action phase, unless the last needs tile is gone: then the game ends there, with no
    phase announced that will never be played (§胜利与失败)."""
    return END if state.data.result else "action"


def _begin_action(state: S) -> tuple[S, Events]:
    """行动阶段: the dial on the side of the leftmost needs tile, set to 6."""
    data = replace(state.data, dial=DIAL_START, moved=frozenset(), fight=None)
    return with_data(state, data), (DialSet(DIAL_START, data.time),)


def _dial_turns(state: S) -> tuple[S, Events]:
    """结束回合 B: everyone inactive: revive the defeated, the dial drops by 1, all active again."""
    data, events = revive_all(catalogue(state), state.data, PORTAL_SLOT)
    dial = data.dial - 1
    data = replace(data, dial=dial, moved=frozenset())
    flow = state.flow
    if dial >= 1:
        flow = replace(flow, done=frozenset(), current=None)
    return replace(state, data=data, flow=flow), (*events, DialSet(dial, data.time))


def _end_action(state: S) -> tuple[S, Events]:
    data = replace(state.data, fight=None, rolled=None)
    return with_data(state, data), (DicePoolAnnounced(None, (), "clear"),)


def _no_shadows(state: S) -> bool:
    cat = catalogue(state)
    return not any(c.shadows(cat) and not c.defeated for c in state.data.characters)


def _begin_shadow(state: S) -> tuple[S, Events]:
    """暗影阶段: each haunted character resolves its shadows; attacks roll monster dice."""
    cat = catalogue(state)
    events: list[Event] = []
    for seat, c in enumerate(state.data.characters):
        dice = cat.shadow_dice.get(c.shadows(cat), 0) if not c.defeated else 0
        if dice:
            events.append(DicePoolAnnounced(seat, ("monster",) * dice, "shadow"))
    return state, tuple(events)


def _begin_needs(state: S) -> tuple[S, Events]:
    cat, data = catalogue(state), state.data
    light, hunger, sanity = data.current_needs(cat)
    tile = data.current_tile(cat)
    return state, (NeedsAnnounced(light, hunger, sanity, 0 if tile is None else tile.number),)


def _resolve_needs(state: S) -> tuple[S, Events]:
    """每日需求阶段: light shared per tile (5 health per missing point, unavoidable), then
    hunger and sanity, each offset first by the food eaten this phase."""
    data = state.data
    cat = catalogue(state)
    need_light, need_hunger, need_sanity = data.current_needs(cat)
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
            data, own = change_stats(cat, data, seat, health=-LIGHT_DAMAGE * missing)
            events += own
    for seat in range(len(data.characters)):
        oh, ohu, osa = data.char(seat).offsets
        data, own = change_stats(cat, data, seat, oh, ohu - need_hunger, osa - need_sanity)
        events += own
    return with_data(state, _clear_phase_marks(data)), tuple(events)


def _begin_weather(state: S) -> tuple[S, Events]:
    """天气阶段: the symbols in force and what they and the card's event cost each character
    before items and food exempt any (the card face up: the table's, or the virtual deck's)."""
    data, cat = state.data, catalogue(state)
    symbols = active_symbols(cat, data)
    return state, (
        WeatherAnnounced(data.weather, symbols, data.past_storm, weather_losses(cat, data)),
    )


def weather_losses(cat: Catalogue, data: DSData) -> tuple[int, int, int]:
    """天气阶段: health, hunger and sanity the weather event and the symbols in force cost one
    character that exempts nothing (each symbol the losses of 天气与需求, its multiplier its
    count)."""
    if not data.weather:
        return (0, 0, 0)
    loss = dict(
        zip(("health", "hunger", "sanity"), cat.weather_card(data.weather).event, strict=True)
    )
    for symbol in active_symbols(cat, data):
        for stat, n in cat.weather_effects.get(symbol, {}).items():
            loss[stat] += n
    return loss["health"], loss["hunger"], loss["sanity"]


def active_symbols(cat: Catalogue, data: DSData) -> tuple[str, ...]:
    """天气需求: left of the storm marker only the symbols left of the storm icon count (none
    while no weather card is face up)."""
    if not data.weather:
        return ()
    symbols = cat.weather_card(data.weather).symbols
    storm = symbols.index(STORM)
    return tuple(s for s in (symbols if data.past_storm else symbols[:storm]) if s != STORM)


def _resolve_weather(state: S) -> tuple[S, Events]:
    """天气阶段: the weather event, then each character's weather needs (multiplier per symbol
    type = its unexempted symbols), then the world events."""
    data = state.data
    cat = catalogue(state)
    if not data.weather:  # no card face up (a save from before the table's draws): no weather
        return with_data(state, _clear_phase_marks(data)), ()
    card = cat.weather_card(data.weather)
    events: list[Event] = []
    active = active_symbols(cat, data)
    for seat in range(len(data.characters)):
        c = data.char(seat)
        loss = dict(zip(("health", "hunger", "sanity"), card.event, strict=True))
        for symbol in SYMBOLS:
            multiplier = max(0, active.count(symbol) - c.protected(symbol))
            for stat, n in cat.weather_effects.get(symbol, {}).items():
                loss[stat] += n * multiplier
        oh, ohu, osa = c.offsets
        data, own = change_stats(
            cat, data, seat, oh - loss["health"], ohu - loss["hunger"], osa - loss["sanity"]
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
    return with_data(state, _clear_phase_marks(data)), tuple(events)


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
        DrawWeather.type,
        LayNeedsTile.type,
        DrawLocation.type,
    }
)
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
