"""The interval (§战役): a session set up from the Log, the moves of its ``interval`` phase, and
the Log an ended session hands on (``Stonesaga.campaign_log``); the Log itself and the
campaign's pure rules are in ``campaign.py``.

With the option ``log`` (the JSON of ``campaign.Log``) the roster, the society tracks, the epoch,
the session's number, the valley and the behemoths come from the Log, and the session opens with
the ``interval`` phase: the chosen challenge's interval ages the roster (§间隔与变老), each death
between sessions (of old age, or at an epoch's end) is mourned with the players' d6 + 2
(§角色死亡与传说.1, ``mourn``), the free outpost moves are offered (§废墟与迁移前哨,
``move_outpost``) and the rebuilt valley is checked against the Log's map (§开局设置.7, §山谷扩张,
``rebuild_valley``). Then ``creation`` as in any session.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.core import (
    ACCEPTED,
    DicePoolAnnounced,
    Event,
    GameConfigError,
    Move,
    Rng,
    State,
    Text,
    Verdict,
)
from engine.stonesaga import campaign as camp
from engine.stonesaga import moves as mv
from engine.stonesaga import state as st
from engine.stonesaga.catalogue import (
    ATTRIBUTES,
    OUTPOST_SCALE,
    Catalogue,
    catalogue,
    demo_text,
    noted,
    valley_item,
    with_note,
)
from engine.stonesaga.common import _tile
from engine.stonesaga.reasons import (
    ATTRIBUTE_MAX,
    ATTRIBUTE_NEEDED,
    BAD_DIE,
    MOVED_ALREADY,
    NO_FREE_MOVE,
    NO_MOURNING,
    NO_OUTPOST,
    NO_RUIN_DUE,
    NO_SUCH_CHARACTER,
    NOT_ADJACENT,
    OLD_AGE_DUE,
    OUTPOST_EXISTS,
    REBUILT_ALREADY,
    RUINS_DUE,
    UNKNOWN_NAME,
    VALLEY_FULL,
    VALLEY_MISMATCH,
    VALLEY_UNCHECKED,
)
from engine.stonesaga.rules.creation import seat_the_log
from engine.stonesaga.rules.night import _check_mourn as _check_night_mourn
from engine.stonesaga.rules.night import _mourn as _night_mourn
from engine.stonesaga.texts import character_name, name_in, rebuild_issue_text

Events = tuple[Event, ...]
Data = st.Saga


# --- the options and the session's data -------------------------------------------------------


def check_options(options: Any) -> None:
    """With a ``log``: the Log is valid, the challenge is one its next session may choose
    (§开局设置.5), and no other option contradicts it; GameConfigError says what is wrong.
    Without a Log the session is the first of its epoch (a new campaign's in epoch 1), whose
    challenge §开局设置.5 names: 第一个纪元的第一局必须选「战役起始」挑战."""
    cat = catalogue(options)
    if options.log is None:
        camp.allowed_first(options.challenge, options.epoch or 1, cat)
        return
    log = camp.Log.from_json(options.log, cat)
    _, nxt = camp.allowed_challenge(log, options.challenge, cat)
    if options.epoch is not None and options.epoch != nxt.epoch:
        raise GameConfigError(
            f"the Log's next session is in epoch {nxt.epoch}, not {options.epoch}: leave epoch out"
        )
    for name, given, logged in (
        ("population", options.population, log.population),
        ("unrest", options.unrest, log.unrest),
    ):
        if given is not None and given != logged:
            raise GameConfigError(
                f"the Log has {name} {logged}, not {given}: leave {name} out (§开局设置.9)"
            )
    if options.roster or options.behemoths:
        field = "roster" if options.roster else "behemoths"
        raise GameConfigError(f"the Log gives the {field}: leave {field} out")
    tiles = cat.tiles
    places = [*(o.tile for o in log.outposts), *log.ruins]
    unknown = [t for t in places if t not in tiles]
    if unknown:
        note = demo_text(cat, *(valley_item(t) for t in tiles))
        said = with_note(
            Text(
                f"《日志》里的地块{unknown[0]}不在盒子的山谷里(地块{min(tiles)}–{max(tiles)})",
                f"The Log's tile {unknown[0]} is not in the box's valley"
                f" (tiles {min(tiles)}–{max(tiles)})",
            ),
            note,
        )
        raise GameConfigError(
            f"log: tile {unknown[0]} is not in the box's valley (valley.toml,"
            f" tiles {min(tiles)}–{max(tiles)})",
            said,
        )


def session_data(options: Any, rng: Rng) -> tuple[Data, Rng]:
    """The saga's data at the start of a session: the valley's tiles, the society tracks, the
    challenge's omen, the roster and the behemoths, from the Log when there is one, else from
    the options (a campaign's first session), the valley and the card from the box.

    §巨兽 警觉: one behemoth with an active lair is alert, drawn at random: with ``draws``
    "virtual" the engine draws it here (seeded); with "table" the table draws it and gives it
    (``alert_behemoth``) before the first day's actions: ``alert_due`` until then."""
    cat = catalogue(options)
    log = None if options.log is None else camp.Log.from_json(options.log, cat)
    card = cat.challenge(options.challenge)
    tiles = {t.id: st.TileState(explored=t.explored, ruin=t.ruin) for t in cat.tiles.values()}
    if log is None:
        epoch = 1 if options.epoch is None else options.epoch
        if epoch not in (1, 2, 3):
            raise GameConfigError(f"stonesaga has epochs 1 to 3, not {epoch}")
        roster = tuple(st.LogCharacter(**vars(h), legend=h.age == "dead") for h in options.roster)
        behemoths = tuple(st.Behemoth(b) for b in options.behemoths)
        first = cat.campaign
        population = first.population if options.population is None else options.population
        unrest = first.unrest if options.unrest is None else options.unrest
        data = st.Saga(roster=roster, population=population, unrest=unrest, epoch=epoch)
    else:
        _, nxt = camp.allowed_challenge(log, options.challenge, cat)
        if log.valley is not None:
            for placed in log.valley.tiles:
                if placed.tile in tiles:
                    tiles[placed.tile] = replace(tiles[placed.tile], explored=placed.explored)
        for outpost in log.outposts:
            tiles[outpost.tile] = replace(
                tiles[outpost.tile], outpost=True, buildings=outpost.buildings
            )
        for ruined in log.ruins:
            tiles[ruined] = replace(tiles[ruined], ruin=True)
        behemoths = tuple(st.Behemoth(b.name, b.demeanor, b.lair) for b in log.behemoths)
        data = st.Saga(
            roster=log.roster,
            stored=log.kept,
            population=log.population,
            unrest=log.unrest,
            epoch=nxt.epoch,
            session=nxt.session,
            interval=card.interval,
            valley_record=log.valley,
            rebuilt=log.valley is None,
        )
    lairs = tuple(b.name for b in behemoths if b.lair)
    alert = None
    virtual = options.draws == "virtual"
    if lairs and virtual:
        alert, rng = rng.choice(lairs)
    data = replace(
        data,
        tiles=tuple(tiles.items()),
        omens=(card.omen,),
        challenge=card.id,
        behemoths=behemoths,
        alert=alert,
        alert_due=bool(lairs) and not virtual,
    )
    return data, rng


# --- the interval phase -----------------------------------------------------------------------


def between_sessions(state: State[Data]) -> bool:
    """Whether this session began from a Log (so it has an ``interval`` phase)."""
    return bool(state.data.interval)


def interval_begin(state: State[Data]) -> tuple[State[Data], Events]:
    """§间隔与变老: every living character of the Log ages by the interval (season: nothing;
    generation: young → old, old → dead; epoch: all die); the dead become legends, each to be
    mourned (``mourn``); what they kept may go to a new character. The free outpost moves of
    §废墟与迁移前哨 are counted, and the outposts reviewed (at a new epoch's start those beyond
    the population's limit must become ruins, §建前哨: the mourning's +2 never lowers it).
    The characters who live on take their seats at once (``creation.seat_the_log``)."""
    data = state.data
    events: list[Event] = [
        mv.IntervalApplied(data.challenge, data.interval, data.epoch, data.session)
    ]
    roster, due, relics, dead = list(data.roster), [], [], set()
    for index, hero in enumerate(roster):
        if not hero.alive:
            continue
        age = camp.age_after(hero.age, data.interval)
        if age == hero.age:
            continue
        roster[index] = replace(hero, age=age, legend=age == "dead")
        events.append(mv.CharacterAged(index, hero.name, age))
        if age == "dead":
            due.append(index)
            dead.add(hero.name)
            relics += [r for r in data.stored if r.name == hero.name and (r.items or r.materials)]
    outposts = sum(1 for _, t in data.tiles if t.outpost)
    cat = catalogue(state)
    data = replace(
        data,
        roster=tuple(roster),
        old_age=tuple(due),
        relics=tuple(relics),
        stored=tuple(r for r in data.stored if r.name not in dead),
        free_moves=camp.free_relocations(data.interval, outposts, data.session == 1),
    )
    if outposts:
        tiles = tuple(tile for tile, t in data.tiles if t.outpost)
        ruins = camp.ruins_needed(outposts, data.population, cat) if data.session == 1 else 0
        limit = camp.outpost_limit(data.population, cat)
        events.append(mv.OutpostsReviewed(tiles, limit, ruins, data.free_moves))
    if due:
        why = "mourning_epoch" if data.interval == "epoch" else "mourning_old_age"
        events.append(DicePoolAnnounced(None, ("d6",), why))
    state, seated = seat_the_log(replace(state, data=data))  # those who live on, at once
    return state, (*events, *seated)


def legal_pass(state: State[Data], seat: int) -> Verdict:
    """§角色死亡与传说.1, §开局设置.7: the interval ends when every death is mourned and the
    valley is rebuilt as the Log records it (the free outpost moves are optional)."""
    data, cat = state.data, catalogue(state)
    if data.old_age:
        return OLD_AGE_DUE.reject(name=character_name(data.roster[data.old_age[0]].name, cat))
    due = ruins_due(data, cat)
    if due:
        limit = camp.outpost_limit(data.population, cat)
        verdict = RUINS_DUE.reject(population=data.population, limit=limit, count=due)
        return noted(verdict, cat, OUTPOST_SCALE)
    if not data.rebuilt:
        return VALLEY_UNCHECKED.reject()
    return ACCEPTED


def ruins_due(data: Data, cat: Catalogue) -> int:
    """§建前哨: 若在新纪元开始时前哨数超过上限，必须自选若干个变成废墟 — how many outposts must
    still become ruins (after the mourning, which may lower the population), by the box's
    outpost scale."""
    if data.session != 1 or data.old_age:
        return 0
    outposts = sum(1 for _, t in data.tiles if t.outpost)
    return camp.ruins_needed(outposts, data.population, cat)


def check_ruin(state: State[Data], move: mv.RuinOutpost) -> Verdict:
    """An outpost on the tile, and one must become a ruin now."""
    data = state.data
    if not ruins_due(data, catalogue(state)):
        return NO_RUIN_DUE.reject()
    if move.tile not in dict(data.tiles) or not data.tile(move.tile).outpost:
        return NO_OUTPOST.reject()
    return ACCEPTED


def ruin(state: State[Data], move: mv.RuinOutpost) -> tuple[Data, Events]:
    """§废墟与迁移前哨: 前哨覆盖层翻到废墟面…其上所有建筑失效 (the map shows it flipped)."""
    data = state.data.with_tile(move.tile, outpost=False, buildings=(), ruin=True)
    standing = sum(1 for _, t in data.tiles if t.outpost)
    data = replace(data, free_moves=min(data.free_moves, standing))
    record = data.valley_record
    if record is not None:
        overlays = tuple(
            replace(o, state="ruin")
            if o.tile == move.tile and o.overlay.startswith("outpost")
            else o
            for o in record.overlays
        )
        data = replace(data, valley_record=replace(record, overlays=overlays))
    return data, (mv.OutpostRuined(move.tile, ruins_due(data, catalogue(state))),)


def _old_age(data: Data) -> bool:
    """§角色死亡与传说.1: +2 for a death between sessions — of old age at a generation, and
    (our ruling, ``campaign.between_sessions_death``) everyone an epoch's end kills, young or
    old: every death of the interval comes of the passing of time."""
    return camp.between_sessions_death(data.interval)


def check_mourn(state: State[Data], move: mv.Mourn) -> Verdict:
    """The mourning d6 of a character who died at night, or between sessions (any player
    rolls it: the character has no player yet)."""
    if state.flow.phase != "interval":
        return _check_night_mourn(state, move)
    data = state.data
    if not 0 <= move.legend < len(data.roster):
        return NO_SUCH_CHARACTER.reject(n=move.legend + 1)
    hero = data.roster[move.legend]
    if move.legend not in data.old_age:
        return NO_MOURNING.reject(name=character_name(hero.name, catalogue(state)))
    if not 1 <= move.roll <= 6:
        return BAD_DIE.reject()
    if move.attribute and move.attribute not in ATTRIBUTES:
        return UNKNOWN_NAME.reject(
            what=Text("属性", "attribute"), name=name_in(ATTRIBUTES, move.attribute)
        )
    raisable = [a for a, v in hero.attributes if v < 6]
    if move.attribute and move.attribute not in raisable:
        return ATTRIBUTE_MAX.reject(
            name=character_name(hero.name, catalogue(state)), attribute=ATTRIBUTES[move.attribute]
        )
    raising = camp.mourning(move.roll, _old_age(data)) == "attribute"
    if raising and not move.attribute and raisable:
        return ATTRIBUTE_NEEDED.reject()
    return ACCEPTED


def mourn(state: State[Data], move: mv.Mourn) -> tuple[Data, Events]:
    """§角色死亡与传说.1: the d6 (+2 between sessions): 1 population −1; 2–4 unrest +1; 5+ the
    chosen attribute +1 (at most 6). The character is a legend."""
    if state.flow.phase != "interval":
        return _night_mourn(state, move)
    data = state.data
    hero = data.roster[move.legend]
    old_age = _old_age(data)
    effect = camp.mourning(move.roll, old_age)
    if effect == "population":
        data = replace(data, population=data.population - 1)
    elif effect == "unrest":
        data = replace(data, unrest=data.unrest + 1)
    elif move.attribute:
        hero = replace(hero, **{move.attribute: getattr(hero, move.attribute) + 1})
        effect = f"{move.attribute}+1"
    roster = list(data.roster)
    roster[move.legend] = hero
    left = tuple(i for i in data.old_age if i != move.legend)
    data = replace(data, roster=tuple(roster), old_age=left)
    total = move.roll + (camp.MOURNING_OLD_AGE if old_age else 0)
    events: list[Event] = [mv.LegendMourned(move.legend, hero.name, move.roll, total, effect)]
    if not left:
        events.append(DicePoolAnnounced(None, (), ""))
    return data, tuple(events)


def check_move_outpost(state: State[Data], move: mv.MoveOutpost) -> Verdict:
    """§废墟与迁移前哨: a free move between sessions, to an adjacent tile without an outpost;
    each outpost moves at most once."""
    data, cat = state.data, catalogue(state)
    if data.free_moves <= 0:
        return NO_FREE_MOVE.reject()
    if move.tile not in dict(data.tiles) or not data.tile(move.tile).outpost:
        return NO_OUTPOST.reject()
    if move.tile in data.moved:
        return MOVED_ALREADY.reject()
    if move.to not in cat.tiles[move.tile].neighbours:
        verdict = NOT_ADJACENT.reject(
            to=_tile(cat, data, move.to), tile=_tile(cat, data, move.tile)
        )
        return noted(verdict, cat, valley_item(move.tile))
    if data.tile(move.to).outpost:
        return OUTPOST_EXISTS.reject()
    return ACCEPTED


def move_outpost(state: State[Data], move: mv.MoveOutpost) -> tuple[Data, Events]:
    """The outpost moves with at most one of its buildings (§废墟与迁移前哨: one immovable
    building is kept; which are movable is not modelled, so the first built stays)."""
    data = state.data
    kept = data.tile(move.tile).buildings[:1]
    data = data.with_tile(move.tile, outpost=False, buildings=())
    data = data.with_tile(move.to, outpost=True, buildings=kept)
    data = replace(data, free_moves=data.free_moves - 1, moved=(*data.moved, move.to))
    record = data.valley_record
    if record is not None:  # the map goes with it: its outpost overlay now lies on ``to``
        overlays = tuple(
            replace(o, tile=move.to, zone=0)
            if o.tile == move.tile and o.overlay.startswith("outpost")
            else o
            for o in record.overlays
        )
        data = replace(data, valley_record=replace(record, overlays=overlays))
    return data, (mv.OutpostMoved(move.tile, move.to, data.free_moves),)


def check_rebuild(state: State[Data], move: mv.RebuildValley) -> Verdict:
    """§开局设置.7, §山谷扩张: the rebuilt valley fits the epoch's trays (4 → 6 → 8) and shows
    the Log's map: every recorded tile in its tray and slot, turned and face up as recorded,
    every overlay in place; tiles face down in new trays are an expansion."""
    data = state.data
    capacity = camp.valley_capacity(data.epoch, catalogue(state))
    if move.record.trays > capacity:
        return VALLEY_FULL.reject(epoch=data.epoch, capacity=capacity, trays=move.record.trays)
    if data.rebuilt and move.record == data.valley_record:  # checked already: nothing changes
        return REBUILT_ALREADY.reject()
    if data.valley_record is None:
        return ACCEPTED
    issues = camp.rebuild_issues(data.valley_record, move.record)
    if issues:
        problem = rebuild_issue_text(*issues[0])
        if len(issues) > 1:
            more = len(issues) - 1
            problem = Text(f"{problem.zh};另有{more}处", f"{problem.en}; and {more} more")
        return VALLEY_MISMATCH.reject(problem=problem)
    return ACCEPTED


def rebuild(state: State[Data], move: mv.RebuildValley) -> tuple[Data, Events]:
    """The valley as rebuilt (with any expansion) becomes the session's map."""
    data = state.data
    before = set() if data.valley_record is None else {t.tile for t in data.valley_record.tiles}
    expansion = sum(1 for t in move.record.tiles if t.tile not in before)
    capacity = camp.valley_capacity(data.epoch, catalogue(state))
    data = replace(data, valley_record=move.record, rebuilt=True)
    return data, (mv.ValleyRebuilt(move.record.trays, capacity, expansion),)


INTERVAL_MOVES: dict[type[Move], tuple[Any, Any]] = {
    mv.MoveOutpost: (check_move_outpost, move_outpost),
    mv.RebuildValley: (check_rebuild, rebuild),
    mv.RuinOutpost: (check_ruin, ruin),
}
"""The interval's own moves (``mourn`` is shared with the night)."""


# --- the Log of an ended session --------------------------------------------------------------


def campaign_log(state: State[Data]) -> dict[str, Any] | None:
    """§局间保留与存档: the Log after the session (None while it is being played): the roster
    with this session's characters (their attributes, age, death), what the living kept, the
    valley map recorded, outposts, ruins, behemoths, the challenges played and pending."""
    if state.outcome is None:
        return None
    data, cat = state.data, catalogue(state)
    before = None if state.options.log is None else camp.Log.from_json(state.options.log, cat)
    roster = list(data.roster)
    names = [h.name for h in roster]
    for char in data.characters:
        values = dict(char.attributes)
        age = char.age if char.alive else "dead"
        hero = st.LogCharacter(
            char.name,
            char.trait,
            strength=values["strength"],
            dexterity=values["dexterity"],
            faith=values["faith"],
            perception=values["perception"],
            age=age,
            legend=not char.alive,
        )
        if char.name in names:
            roster[names.index(char.name)] = hero
        else:
            roster.append(hero)
            names.append(char.name)
    played = {c.name for c in data.characters}
    kept = [r for r in data.stored if r.name not in played]
    for index, items, materials in data.kept:
        char = data.characters[index]
        if char.alive:
            kept.append(st.Relics(char.name, items, materials))
    kept.sort(key=lambda r: names.index(r.name))
    card = cat.challenge(data.challenge)
    log = camp.Log(
        epoch=data.epoch,
        session=data.session,
        population=data.population,
        unrest=data.unrest,
        roster=tuple(roster),
        kept=tuple(kept),
        valley=data.valley_record,
        outposts=tuple(camp.LogOutpost(tile, t.buildings) for tile, t in data.tiles if t.outpost),
        ruins=tuple(tile for tile, t in data.tiles if t.ruin),
        behemoths=tuple(camp.LogBehemoth(b.name, b.demeanor, b.lair) for b in data.behemoths),
        challenges=(
            *(() if before is None else before.challenges),
            camp.Played(card.id, data.result or "lost"),
        ),
        pending=camp.pending_after(before, card, cat),
    )
    return log.to_json()
