"""From the table's facts to one snapshot in one language (pure but for the labels' memory
and the log of a game whose picture fails)."""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, MutableMapping, Sequence
from typing import Any

from engine.core import Advance, Game, Move, State, Text, legal, offers
from engine.core.text import Language
from kiosk.presenter.facts import (
    NO_GAME,
    Event,
    Hint,
    NoGameError,
    NoGameFacts,
    TableFacts,
    Taken,
    TimerFacts,
)
from kiosk.presenter.sentences import (
    A_MOVE,
    CONFIRM_CLOSED,
    FINISHED,
    SOMEONE,
    TABLE_NAME,
    TIMER_BUDGET,
    TIMER_IDLE,
    TIMER_PAUSED,
    TIMER_PHASE,
    TIMER_TURN,
    TIMER_UP,
    TODO_CHOOSE,
    TODO_CONFIRM,
    TODO_PLACE,
    TODO_PLAY_ON,
    UNDO_AGAIN,
    UNDO_END,
    UNDONE,
    WE_LOST,
    WE_WON,
    WIN_MANY,
    WIN_ONE,
    clock_text,
    describe,
    joined,
    named,
    named_offer,
    rule_citation,
    seat_name,
    short,
    what_now,
)
from kiosk.presenter.snapshot import (
    Chart,
    ConfirmView,
    Console,
    ConsoleGroup,
    Dice,
    End,
    HintView,
    LinkView,
    LogLine,
    OutcomeView,
    PhaseNow,
    PhaseOfGame,
    Prompt,
    Refusal,
    ScoreRow,
    SeatView,
    Series,
    Snapshot,
    StepNow,
    TimeRow,
    TimerView,
    freeze,
)
from kiosk.seats import COLOURS, PlayerSeat

log = logging.getLogger("tablesight.presenter")

SHOWN_EVENTS = 12
"""How many of the table's recent events the log on the screen shows."""

Labels = MutableMapping[str, Text]
"""Each move type's label as the console last offered it (to name a refused or undone move)."""
Consoles = MutableMapping[Language, tuple[State[Any], tuple[PlayerSeat, ...], Console]]
"""The last console built in each language, kept while the state and the seats are the same
(a change of a link or a prompt does not ask the rules again)."""


def seat_views(
    seats: Sequence[PlayerSeat], names: Sequence[str], lang: Language
) -> tuple[SeatView, ...]:
    """Seats as the screen draws them: number, name (``names``, else the seat's own), colour."""
    return tuple(
        SeatView(
            seat=i,
            name=names[i] if i < len(names) else s.shown(i, lang),
            chosen=s.name,
            colour=s.colour,
            colour_name=COLOURS[s.colour].name.in_(lang),
            hex=COLOURS[s.colour].hex,
        )
        for i, s in enumerate(seats)
    )


def seat_names(
    view: Mapping[str, Any], seats: Sequence[PlayerSeat], lang: Language
) -> tuple[str, ...]:
    """How the screen names each seat: the player's name, with the game's character (the
    ``players`` of the game's ``view``)."""
    characters = {p.get("seat"): p.get("name") for p in view.get("players") or ()}
    return tuple(seat_name(s, characters.get(s), lang, seats) for s in range(len(seats)))


def console(
    game: Game,
    state: State[Any],
    moves: int,
    seats: Sequence[PlayerSeat],
    names: Sequence[str],
    lang: Language,
    labels: Labels,
) -> Console:
    """What each seat may do now, as the console draws it: groups of offers in ``lang``, the
    acting seat first (``engine.core.offers``); notes each offer's label in ``labels``."""
    groups = []
    for group in offers(game, state):
        for offer in group.offers:
            labels[offer.move] = offer.label
        seat = group.seat
        groups.append(
            ConsoleGroup(
                seat=seat,
                name=TABLE_NAME.in_(lang) if seat is None else names[seat],
                hex=None if seat is None else COLOURS[seats[seat].colour].hex,
                acting=group.acting,
                offers=tuple(freeze(named_offer(o.to_dict(lang), names)) for o in group.offers),
            )
        )
    return Console(moves=moves, groups=tuple(groups))


def log_line(
    event: Event, facts: TableFacts, names: Sequence[str], lang: Language, labels: Labels
) -> str:
    """One line of the log for an event (as plain data), players named as at the table."""
    text = event.get("text")
    if isinstance(text, Text):  # a line said as it is (the narration)
        return text.in_(lang)
    taken = event.get("taken")
    if isinstance(taken, Taken):  # an undo of the table: the move named as it was offered
        return undone(taken, names, lang)
    game = facts.game
    own = game.event_text(dict(event), lang, facts.state)
    if own is not None:
        return named(own, names)
    params: dict[str, Any] = dict(event)
    seat = event.get("seat")
    if isinstance(seat, int) and 0 <= seat < len(names):
        params["who"] = names[seat]
        params["player"] = seat + 1
    else:
        params["who"] = TABLE_NAME.in_(lang)
    if "move" in event:
        label = labels.get(str(event["move"]))
        params["what"] = short(label.in_(lang)) if label else A_MOVE.in_(lang)
    why = event.get("why")
    if isinstance(why, Text):
        params["why"] = why.in_(lang)
    return describe(params, game, lang)


def who_of(seat: int | None, names: Sequence[str], lang: Language) -> str:
    """How a move's seat is named: the player, the whole table (None), else "someone"."""
    if seat is None:
        return TABLE_NAME.in_(lang)
    return names[seat] if 0 <= seat < len(names) else SOMEONE.in_(lang)


def undone(taken: Taken, names: Sequence[str], lang: Language) -> str:
    """What an undo took back: the player and the move's label with its choices."""
    what = A_MOVE.in_(lang) if taken.label is None else short(named(taken.label.in_(lang), names))
    if taken.choices:
        sep = "、" if lang == "zh" else ", "
        inner = sep.join(named(c.in_(lang), names) for c in taken.choices)
        what += f"({inner})" if lang == "zh" else f" ({inner})"
    return UNDONE.format(who=who_of(taken.seat, names, lang), what=what).in_(lang)


def confirm_view(game: Game, state: State[Any], offered: Console, lang: Language) -> ConfirmView:
    """The table's confirm: open exactly when the whole table's ``advance`` is offered open;
    else why not, the offer's own reason, or when confirm is not offered at all (a players'
    phase, the end) the engine's verdict for it."""
    for group in offered.groups:
        for offer in group.offers:
            if group.seat is None and offer["move"] == "advance":
                if offer["ok"]:
                    return ConfirmView(True, None, None)
                first = offer["options"][0] if offer["options"] else {}
                return ConfirmView(False, first.get("reason"), first.get("code"))
    verdict = legal(game, state, Advance())  # only for its words: confirm is not offered
    return ConfirmView(False, verdict.message.in_(lang), verdict.code)


def hint_view(
    hint: Hint, game: Game, confirm: ConfirmView, names: Sequence[str], lang: Language
) -> HintView:
    """A button's short notice in words."""
    if hint.kind == "undone" and hint.taken is not None:
        return HintView(hint.kind, undone(hint.taken, names, lang))
    if hint.kind == "undo_end":
        return HintView(hint.kind, UNDO_END.in_(lang))
    if hint.kind == "undo_again" and hint.back_to is not None:
        round_, phase = hint.back_to
        title = game.phase(phase).title.in_(lang)
        return HintView(hint.kind, UNDO_AGAIN.format(round=round_, phase=title).in_(lang))
    return HintView(hint.kind, CONFIRM_CLOSED.format(why=confirm.why or "").in_(lang))


def refusal(
    refused: tuple[Move, Any],
    names: Sequence[str],
    lang: Language,
    labels: Labels,
    offered: Console | None = None,
) -> Refusal:
    """The banner of a refused move: whose, what was tried, why, and what to do about it,
    by its kind (the table's confirm, a placement the camera reads, a choice)."""
    move, verdict = refused
    label = labels.get(move.type)
    who = TABLE_NAME.in_(lang) if move.seat is None else None
    if move.seat is not None and move.seat < len(names):
        who = names[move.seat]
    what = named(label.in_(lang), names) if label else None
    return Refusal(
        who=who or SOMEONE.in_(lang),
        what=short(what) if what else A_MOVE.in_(lang),
        why=named(verdict.message.in_(lang), names),
        rule=rule_citation(verdict.rule, lang),
        todo=_todo(move, verdict.code, offered).in_(lang),
    )


def _todo(move: Move, code: str, offered: Console | None) -> Text:
    if move.type == "advance":
        return TODO_PLAY_ON if code == "core.no_advance" else TODO_CONFIRM
    for group in offered.groups if offered is not None else ():
        for offer in group.offers:
            if offer["move"] == move.type and offer["seat"] == move.seat and offer["camera"]:
                return TODO_PLACE
    return TODO_CHOOSE


def the_end(
    game: Game,
    outcome: Any,
    seats: Sequence[SeatView],
    scores: Sequence[int] | None,
    history: Sequence[tuple[int, Sequence[int]]],
    lang: Language,
) -> End:
    """The end screen: a title naming the winners, why, the scores and the per-round chart."""
    winners = [seats[s].name for s in outcome.winners if s < len(seats)]
    everyone = len(outcome.winners) == len(seats) and len(seats) > 1
    if outcome.result == "loss":
        title = WE_LOST
    elif outcome.result in ("win", "shared_win") and winners:
        if everyone and scores is None:
            title = WE_WON
        else:
            title = WIN_ONE if len(winners) == 1 else WIN_MANY
    else:
        title = FINISHED
    why = game.outcome_texts.get(outcome.reason)
    names = joined(winners, lang)
    rows: tuple[ScoreRow, ...] | None = None
    chart: Chart | None = None
    if scores is not None:
        rows = tuple(
            sorted(
                (
                    ScoreRow(**_seat_fields(seats[s]), score=score, winner=s in outcome.winners)
                    for s, score in enumerate(scores)
                    if s < len(seats)
                ),
                key=lambda r: -r.score,
            )
        )
        if history:
            chart = Chart(
                rounds=tuple(r for r, _ in history),
                series=tuple(
                    Series(**_seat_fields(seats[s]), points=tuple(list(p)[s] for _, p in history))
                    for s in range(min(len(seats), len(scores)))
                ),
            )
    return End(
        result=outcome.result,
        title=title.in_(lang).format(names=names),
        why=why.in_(lang).format(seats=names) if why else "",
        scores=rows,
        chart=chart,
    )


def _seat_fields(seat: SeatView) -> dict[str, Any]:
    return {
        "seat": seat.seat,
        "name": seat.name,
        "chosen": seat.chosen,
        "colour": seat.colour,
        "colour_name": seat.colour_name,
        "hex": seat.hex,
    }


LAST_SECONDS = 10
"""The timer's last seconds (the screen marks them, the LED bar blinks)."""


def timer_view(timer: TimerFacts, seats: Sequence[SeatView], lang: Language) -> TimerView:
    """The timers in words: whose time, how much is left, paused, each seat's time so far."""
    seat = seats[timer.seat] if timer.seat is not None and timer.seat < len(seats) else None
    who = seat.name if seat is not None else TABLE_NAME.in_(lang) if timer.kind else ""
    left = math.ceil(timer.left_s)
    if timer.kind is None:
        line = TIMER_IDLE
    elif left <= 0:
        line = TIMER_UP
    else:
        line = {"turn": TIMER_TURN, "budget": TIMER_BUDGET}.get(timer.kind, TIMER_PHASE)
    text = line.format(who=who).in_(lang)
    if timer.paused:
        text = TIMER_PAUSED.format(line=text).in_(lang)
    return TimerView(
        kind=timer.kind,
        seat=timer.seat,
        who=who,
        hex=seat.hex if seat is not None else None,
        left_s=left,
        limit_s=round(timer.limit_s),
        left=clock_text(timer.left_s) if timer.kind else "",
        text=text,
        paused=timer.paused,
        last=timer.kind is not None and left <= LAST_SECONDS,
        over=timer.kind is not None and left <= 0,
        totals=tuple(
            TimeRow(s.seat, s.name, s.hex, round(used), clock_text(used))
            for s, used in zip(seats, timer.totals, strict=False)
        ),
    )


def build(
    facts: TableFacts,
    lang: Language,
    labels: Labels,
    consoles: Consoles | None = None,
    timer: TimerFacts | None = None,
) -> Snapshot:
    """The snapshot of ``facts`` in ``lang``. ``labels`` is the presenter's memory of the
    offers' labels: this console's are noted before a refused move or the log is named;
    ``consoles`` the last console of each language, reused while the state is the same;
    ``timer`` the timers at this moment (``kiosk.timers``), when the game has one."""
    game, state = facts.game, facts.state
    flow = state.flow
    phase = game.phase(flow.phase)
    step = phase.steps[flow.step] if flow.step < len(phase.steps) else None
    view = game.view(state, lang)
    names = seat_names(view, facts.seats, lang)
    seats = seat_views(facts.seats, names, lang)
    kept = consoles.get(lang) if consoles is not None else None
    if kept is not None and kept[0] is state and kept[1] == facts.seats:
        offered = kept[2]
    else:
        offered = console(game, state, facts.moves, facts.seats, names, lang, labels)
        if consoles is not None:
            consoles[lang] = (state, facts.seats, offered)
    banner = None
    if facts.refused is not None:
        banner = refusal(facts.refused, names, lang, labels, offered)
    confirm = confirm_view(game, state, offered, lang)
    outcome = state.outcome
    end = None
    if outcome is not None:
        end = the_end(game, outcome, seats, game.scores(state), facts.rounds, lang)
    dice = None
    if facts.dice is not None:
        dice = Dice(
            seat=facts.dice["seat"],
            dice=tuple(facts.dice["dice"]),
            text=log_line(facts.dice, facts, names, lang, labels),
        )
    return Snapshot(
        seq=facts.seq,
        game=game.name,
        title=game.title.in_(lang),
        save=facts.save,
        players=state.players,
        seats=seats,
        round=flow.round,
        rounds=game.rounds,
        phases=tuple(PhaseOfGame(p.name, p.title.in_(lang), len(p.steps)) for p in game.phases),
        phase=PhaseNow(
            name=phase.name,
            title=phase.title.in_(lang),
            rule=phase.rule,
            guide=None if phase.guide is None else phase.guide.in_(lang),
        ),
        step=None
        if step is None
        else StepNow(step.name, step.title.in_(lang), flow.step + 1, len(phase.steps)),
        order=phase.order.value,
        current_player=None if flow.current is None else flow.current + 1,
        start_player=flow.start_seat + 1,
        passed_players=tuple(sorted(seat + 1 for seat in flow.done)),
        moves=facts.moves,
        can_undo=facts.moves > 0,
        confirm=confirm,
        outcome=None
        if outcome is None
        else OutcomeView(outcome.result, tuple(outcome.winners), outcome.reason),
        end=end,
        next=what_now(
            [(g.name, g.offers) for g in offered.groups],
            lang,
            over=outcome is not None,
            refused=banner is not None,
            campaign=outcome is not None and game.campaign_log(state) is not None,
        ),
        refusal=banner,
        hint=None if facts.hint is None else hint_view(facts.hint, game, confirm, names, lang),
        view=freeze(view),
        picture=freeze(_picture(facts, lang, names)),
        dice=dice,
        recent=tuple(
            LogLine(str(e["type"]), log_line(e, facts, names, lang, labels))
            for e in facts.recent[-SHOWN_EVENTS:]
        )[::-1],
        links={k: LinkView(v.state, v.detail) for k, v in facts.links.items()},
        menu=facts.menu_open,
        prompts=tuple(Prompt(code, t.in_(lang), t.zh, t.en) for code, t in facts.prompts),
        notices=tuple(n.in_(lang) for n in facts.notices),
        console=offered,
        timer=None if timer is None else timer_view(timer, seats, lang),
    )


NO_GAME_TITLE = Text("还没有开局", "No game yet")


def no_game(facts: NoGameFacts, lang: Language) -> Snapshot:
    """The snapshot of a table that has no game yet (a kiosk started without one): ``game``
    None, nothing to play, the way to the set-up page in ``next``; the links, the menu and the
    notices as always."""
    return Snapshot(
        seq=facts.seq,
        game=None,
        title=NO_GAME_TITLE.in_(lang),
        save="",
        players=0,
        seats=(),
        round=0,
        rounds=None,
        phases=(),
        phase=PhaseNow(name="", title="", rule=None, guide=None),
        step=None,
        order="table",
        current_player=None,
        start_player=0,
        passed_players=(),
        moves=0,
        can_undo=False,
        confirm=ConfirmView(open=False, why=NO_GAME.in_(lang), code=NoGameError.code),
        outcome=None,
        end=None,
        next=NO_GAME.in_(lang),
        refusal=None,
        hint=None,
        view=freeze({}),
        picture=None,
        dice=None,
        recent=(),
        links={k: LinkView(v.state, v.detail) for k, v in facts.links.items()},
        menu=facts.menu_open,
        prompts=(),
        notices=tuple(n.in_(lang) for n in facts.notices),
        console=Console(moves=0, groups=()),
    )


def _picture(facts: TableFacts, lang: Language, names: Sequence[str]) -> dict[str, Any] | None:
    """The game's picture of the board, its boards' titles and notes naming the seats as the
    screen does ("Anna's submarine"); a game whose picture fails loses the picture, never the
    screen (the service log has the error)."""
    refused = facts.refused[0] if facts.refused else None
    try:
        picture: dict[str, Any] | None = facts.game.picture(
            facts.state, lang, refused, list(facts.layout_seen)
        )
    except Exception:
        log.exception("%s: the picture of the board failed", facts.game.name)
        return None
    for board in (picture or {}).get("boards") or ():
        board["title"] = named(board["title"], names)
        board["notes"] = [named(n, names) for n in board.get("notes") or ()]
    for entry in (picture or {}).get("legend") or ():
        entry["text"] = named(entry["text"], names)
    return picture
