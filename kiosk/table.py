"""The table: the saved game being played and what the screen shows of it.

Every change goes through here, under one lock: moves are committed to the store before their
events are kept for the screen (the store's rule), and a status snapshot is built on demand.
Each change bumps a sequence number and is told to the listeners (the live page, the buzzer).
"""

from __future__ import annotations

import logging
import re
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from engine.core import (
    DicePoolAnnounced,
    Event,
    Move,
    Result,
    Session,
    Text,
    Verdict,
    find_game,
    offered,
    offers,
)
from kiosk import screen
from kiosk.seats import COLOURS, PlayerSeat, seat_status
from kiosk.settings import Settings
from kiosk.store import (
    NOT_KEPT_CODE,
    SavedGame,
    SaveNotFoundError,
    SaveNotKeptError,
    SaveUnusableError,
    Store,
    StoreDamagedError,
    set_aside,
)

log = logging.getLogger("tablesight.table")

RECENT_EVENTS = 30
"""How many events the table keeps for the log on the screen."""
SHOWN_EVENTS = 12

LINK_STATES = ("ok", "simulated", "lost", "not_connected")
"""What a link (camera, LED controller) can be: working, simulated, lost, never connected."""


@dataclass(frozen=True)
class Change:
    """One change of the table, as told to listeners: its sequence number and what happened."""

    seq: int
    kind: str
    """``move``, ``rejected``, ``undo``, ``new_game``, ``link``, ``menu``, ``prompt``, ``layout``,
    ``narration`` or ``settings``."""
    events: tuple[Event, ...] = ()
    verdict: Verdict | None = None

    @property
    def phase_changed(self) -> bool:
        """Whether a new phase began (the buzzer's phase-change pattern)."""
        return any(e.type == "phase_started" for e in self.events)


@dataclass
class Link:
    """The state of one link the table depends on, with a short detail for the screen."""

    state: str = "not_connected"
    detail: str = ""


Listener = Callable[[Change], None]

EVENT_TEXT: dict[str, Text] = {
    "game_started": Text("新开一局,{players}人", "New game, {players} players"),
    "round_started": Text("第{round}轮开始", "Round {round} begins"),
    "phase_started": Text("{phase}开始", "{phase} begins"),
    "step_started": Text("第{index}步:{step}", "Step {index}: {step}"),
    "turn_started": Text("轮到{who}", "{who} to act"),
    "seat_passed": Text("{who}结束本阶段", "{who} is done"),
    "phase_ended": Text("{phase}结束", "{phase} ends"),
    "game_ended": Text("游戏结束", "Game over"),
    "move_undone": Text("撤销了一步:{what}", "Took back a move: {what}"),
    "move_redone": Text("重做了一步:{what}", "Made a move again: {what}"),
    "move_rejected": Text("✖ {who}:{what} — {why}", "✖ {who}: {what} — {why}"),
    "dice_pool_announced": Text("掷骰:{dice}", "Roll: {dice}"),
}


REPLAYED_MOVES = 256
"""At least this many of the last moves are replayed to rebuild the screen's memory (every move of
a game that short; the example games have 30–125)."""


class Table:
    """One saved game at the table, safe to use from the web server's and the buttons' threads."""

    def __init__(self, saved: SavedGame, notices: list[Text] | None = None) -> None:
        self.saved = saved
        self.notices = list(notices or [])
        self.warnings: list[Text] = []
        """The notices that are problems (a save set aside, saves that cannot be written): what
        the start-up report says on stderr."""
        self.links: dict[str, Link] = {"camera": Link(), "controller": Link()}
        self.menu_open = False
        self.prompts: list[tuple[str, Text]] = []
        self.layout_seen: list[tuple[str, str | None]] = []
        """What the camera finds wrong with the map laid on the table (reason code, place)."""
        self.seq = 0
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._console: tuple[Any, str, dict[str, Any]] | None = None
        self._names: tuple[Any, str, list[str]] | None = None
        self._labels: dict[str, Text] = {}
        """Each move type's label as the console last offered it (to name a refused or undone
        move on the screen; the status builds the console, so the labels of the moves open now
        are known whenever a screen watches)."""
        self._refused: tuple[Move, Verdict] | None = None
        """The last refused move, while nothing has been accepted or undone since."""
        self._reset_memory()

    # --- changes ---------------------------------------------------------------------------

    def submit(self, move: Move) -> Result:
        """Check and apply a move; accepted moves are saved before this returns. A move that
        cannot be saved is refused (code ``NOT_KEPT_CODE``, the reason on the screen)."""
        with self._lock:
            try:
                result = self.saved.submit(move)
            except SaveNotKeptError as exc:
                result = Result(Verdict(False, NOT_KEPT_CODE, exc.text), ())
                self._note(exc.text)
            if result.accepted:
                self._refused = None
                self._remember(result.events, self.saved.session.state)
            else:
                self._refused = (move, result.verdict)
                self._recent.append(
                    {
                        "type": "move_rejected",
                        "move": move.type,
                        "seat": move.seat,
                        "why": result.verdict.message,
                    }
                )
            change = self._bump("move" if result.accepted else "rejected", result)
        self._tell(change)
        return result

    def undo(self) -> tuple[Event, ...]:
        """Take back the last move (saved first); NothingToUndoError if there is none,
        SaveNotKeptError (the reason on the screen) if the undo cannot be saved."""
        refused: SaveNotKeptError | None = None
        with self._lock:
            try:
                events = self.saved.undo()
                self._refused = None
                self._reset_memory()
                change = self._bump("undo", None, events)
            except SaveNotKeptError as exc:
                self._note(exc.text)
                verdict = Verdict(False, NOT_KEPT_CODE, exc.text)
                change, refused = self._bump("rejected", Result(verdict, ())), exc
        self._tell(change)
        if refused is not None:
            raise refused
        return events

    def new_game(
        self,
        game: str,
        options: dict[str, Any] | None,
        name: str | None = None,
        seed: int = 0,
        seats: list[PlayerSeat] | None = None,
    ) -> None:
        """Start a new saved game (StoreError if the name is taken, EngineError if bad options);
        ``seats`` are the players' names and colours."""
        with self._lock:
            game_name = find_game(game).name
            name = name or f"{game_name}-{datetime.now(UTC):%Y%m%d-%H%M%S-%f}"
            self.saved = self.saved.store.new_game(name, game_name, options, seed, seats)
            self.notices, self.prompts, self.layout_seen = [], [], []
            self._refused = None
            self._reset_memory()
            change = self._bump("new_game")
        self._tell(change)

    def _note(self, text: Text) -> None:
        """Keep a problem among the screen's notices (once)."""
        if text not in self.notices:
            self.notices.append(text)

    def set_link(self, name: str, state: str, detail: str = "") -> None:
        """Record the state of a link (``camera``, ``controller``) for the screen."""
        if state not in LINK_STATES:
            raise ValueError(f"link state must be one of {LINK_STATES}, not {state!r}")
        with self._lock:
            if (link := self.links.get(name)) and (link.state, link.detail) == (state, detail):
                return
            self.links[name] = Link(state, detail)
            change = self._bump("link")
        self._tell(change)

    def show_prompts(self, prompts: list[tuple[str, Text]]) -> None:
        """Show what the camera asks of the players (code, message in both languages),
        replacing what was shown; an empty list clears them."""
        with self._lock:
            if prompts == self.prompts:
                return
            self.prompts = list(prompts)
            change = self._bump("prompt")
        self._tell(change)

    def narrate(self, text: Text) -> None:
        """A line of the scripted session's narration, into the screen's log."""
        with self._lock:
            self._recent.append({"type": "narration", "text": text})
            change = self._bump("narration")
        self._tell(change)

    def show_layout(self, seen: list[tuple[str, str | None]]) -> None:
        """What the camera finds wrong with the layout on the table (reason code, place);
        the board is drawn as the expected layout with those places marked while any remain."""
        with self._lock:
            if seen == self.layout_seen:
                return
            self.layout_seen = list(seen)
            change = self._bump("layout")
        self._tell(change)

    def toggle_menu(self, open_: bool | None = None) -> None:
        """Open or close the menu on the screen (the long press of the confirm button)."""
        with self._lock:
            self.menu_open = (not self.menu_open) if open_ is None else open_
            change = self._bump("menu")
        self._tell(change)

    def touch(self, kind: str = "settings") -> None:
        """Announce a change made elsewhere (the settings) so that every screen redraws."""
        with self._lock:
            change = self._bump(kind)
        self._tell(change)

    @contextmanager
    def store_held(self) -> Iterator[Store]:
        """The saved games, to read other saves while no move is being written (the table's
        lock is held meanwhile: keep it short)."""
        with self._lock:
            yield self.saved.store

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(change)`` after every change (outside the lock); returns the remover."""
        with self._lock:
            self._listeners.append(listener)

        def remove() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return remove

    def _bump(
        self, kind: str, result: Result | None = None, events: tuple[Event, ...] = ()
    ) -> Change:
        self.seq += 1
        if result is not None:
            return Change(self.seq, kind, result.events, result.verdict)
        return Change(self.seq, kind, events)

    def _tell(self, change: Change) -> None:
        for listener in list(self._listeners):
            try:
                listener(change)
            except Exception:  # one broken screen or device must not undo the others' news
                log.exception("a listener of the table failed on change %d", change.seq)

    def _reset_memory(self) -> None:
        """Rebuild the log, the dice pool and the scores of each round by replaying, in a scratch
        session, the last ``REPLAYED_MOVES`` or more saved moves from the latest state the saved
        game keeps before them (a checkpoint or a snapshot; the start in a game that short).

        Called at start, after an undo and for a new game, so the screen shows the same thing
        after a restart as before it. In a longer game the log shows the events of those moves,
        a dice pool rolled before them is not shown, and the scores of rounds that ended before
        them are missing from the end screen (left partial).
        """
        session = self.saved.session
        base, state = self.saved.state_before(len(session.moves) - REPLAYED_MOVES)
        if base == 0 and len(session.moves) > REPLAYED_MOVES:  # none that early: the latest one
            base, state = self.saved.state_before(len(session.moves))
        scratch = Session(session.game, session.options, session.seed)
        self._recent: deque[dict[str, Any]] = deque(maxlen=RECENT_EVENTS)
        self._dice: dict[str, Any] | None = None
        self._rounds: list[tuple[int, tuple[int, ...]]] = []
        if base == 0:
            self._remember(scratch.start_events, scratch.state)
        else:
            scratch.state = state
        for move in session.moves[base:]:
            result = scratch.submit(move)
            self._remember(result.events, scratch.state)

    def _remember(self, events: tuple[Event, ...], state: Any) -> None:
        """Keep the events for the log and the dice box; note the scores when a round ends."""
        for event in events:
            if event.type == "phase_started":
                self._dice = None  # a pool is rolled within its phase; a new phase clears it
            if isinstance(event, DicePoolAnnounced):
                self._dice = event.to_dict() if event.dice else None
            if event.type != "move_rejected":
                self._recent.append(event.to_dict())
            ended = event.type == "round_started" and getattr(event, "round", 1) > 1
            if ended or event.type == "game_ended":
                scores = self.saved.session.game.scores(state)
                if scores is not None:
                    played = state.flow.round - (1 if ended else 0)
                    self._rounds = [r for r in self._rounds if r[0] != played]
                    self._rounds.append((played, tuple(scores)))

    def check(self, move: Move) -> Verdict:
        """Whether the move may be made now, without making it (the console's live answer)."""
        with self._lock:
            return self.saved.session.check(move)

    def is_offered(self, move: Move) -> bool:
        """Whether the console offers this move now as a legal option (a player could tap it)."""
        with self._lock:
            session = self.saved.session
            return offered(offers(session.game, session.state), move) is not None

    # --- what the screen shows ---------------------------------------------------------------

    def seat_names(self, lang: str) -> list[str]:
        """How the screen names each seat: the player's name, with the game's character."""
        state = self.saved.session.state
        if self._names and self._names[0] is state and self._names[1] == lang:
            return self._names[2]
        characters = {p.get("seat"): p.get("name") for p in self._view(lang)}
        names = [
            seat_name(seat, characters.get(seat), lang, self.saved.seats)
            for seat in range(len(self.saved.seats))
        ]
        self._names = (state, lang, names)
        return names

    def console(self, lang: str) -> dict[str, Any]:
        """What each seat may do now, as the console draws it: groups of offers in ``lang``,
        the acting seat first (``engine.core.offers``); kept until the game state changes."""
        with self._lock:
            session = self.saved.session
            state = session.state
            if self._console and self._console[0] is state and self._console[1] == lang:
                return self._console[2]
            names = self.seat_names(lang)
            seats = self.saved.seats
            groups = []
            for group in offers(session.game, state):
                for offer in group.offers:
                    self._labels[offer.move] = offer.label
                seat = group.seat
                groups.append(
                    {
                        "seat": seat,
                        "name": TABLE_NAME.in_(lang) if seat is None else names[seat],  # type: ignore[arg-type]
                        "hex": None if seat is None else COLOURS[seats[seat].colour].hex,
                        "acting": group.acting,
                        "offers": [
                            named_offer(offer.to_dict(lang), names)  # type: ignore[arg-type]
                            for offer in group.offers
                        ],
                    }
                )
            answer = {"moves": len(session.moves), "groups": groups}
            self._console = (state, lang, answer)
            return answer

    def _view(self, lang: str) -> list[dict[str, Any]]:
        session = self.saved.session
        return list(session.game.view(session.state, lang).get("players") or [])

    def status(self, lang: str) -> dict[str, Any]:
        """A snapshot of where the game is, in the kiosk's language."""
        with self._lock:
            session = self.saved.session
            state, game = session.state, session.game
            phase = game.phase(state.flow.phase)
            step = phase.steps[state.flow.step] if state.flow.step < len(phase.steps) else None
            console = self.console(lang)
            names = self.seat_names(lang)
            seats = seat_status(self.saved.seats, lang)
            for entry, name in zip(seats, names, strict=False):
                entry["name"] = name
            banner = None
            if self._refused is not None:
                move, verdict = self._refused
                label = self._labels.get(move.type)
                who = TABLE_NAME.in_(lang) if move.seat is None else None  # type: ignore[arg-type]
                if move.seat is not None and move.seat < len(names):
                    who = names[move.seat]
                banner = screen.refusal(
                    who,
                    named(label.in_(lang), names) if label else None,  # type: ignore[arg-type]
                    named(verdict.message.in_(lang), names),  # type: ignore[arg-type]
                    verdict.rule,
                    lang,
                )
            outcome = state.outcome
            refused_move = self._refused[0] if self._refused else None
            return {
                "seq": self.seq,
                "game": game.name,
                "title": game.title.in_(lang),
                "save": self.saved.name,
                "players": state.players,
                "seats": seats,
                "round": state.flow.round,
                "rounds": game.rounds,
                "phases": [
                    {"name": p.name, "title": p.title.in_(lang), "steps": len(p.steps)}
                    for p in game.phases
                ],
                "phase": {
                    "name": phase.name,
                    "title": phase.title.in_(lang),
                    "rule": phase.rule,
                    "guide": None if phase.guide is None else phase.guide.in_(lang),
                },
                "step": None
                if step is None
                else {
                    "name": step.name,
                    "title": step.title.in_(lang),
                    "index": state.flow.step + 1,
                    "of": len(phase.steps),
                },
                "order": phase.order.value,
                "current_player": None if state.flow.current is None else state.flow.current + 1,
                "start_player": state.flow.start_seat + 1,
                "passed_players": sorted(seat + 1 for seat in state.flow.done),
                "moves": len(session.moves),
                "can_undo": bool(session.moves),
                "outcome": None if outcome is None else outcome.__dict__,
                "end": None
                if outcome is None
                else screen.the_end(game, outcome, seats, game.scores(state), self._rounds, lang),
                "next": screen.what_now(
                    console["groups"],
                    lang,
                    over=outcome is not None,
                    refused=banner is not None,
                    campaign=outcome is not None and game.campaign_log(state) is not None,
                ),
                "refusal": banner,
                "view": game.view(state, lang),
                "picture": self._picture(state, lang, refused_move),
                "dice": None
                if self._dice is None
                else {
                    "seat": self._dice["seat"],
                    "dice": list(self._dice["dice"]),
                    "text": self.describe(self._dice, lang),
                },
                "recent": [
                    {"type": e["type"], "text": self.describe(e, lang)}
                    for e in list(self._recent)[-SHOWN_EVENTS:]
                ][::-1],
                "links": {k: {"state": v.state, "detail": v.detail} for k, v in self.links.items()},
                "menu": self.menu_open,
                "prompts": [
                    {"code": code, "message": text.in_(lang), "zh": text.zh, "en": text.en}
                    for code, text in self.prompts
                ],
                "notices": [n.in_(lang) for n in self.notices],
                "console": console,
            }

    def _picture(self, state: Any, lang: str, refused: Move | None) -> dict[str, Any] | None:
        """The game's picture of the board; a game whose picture fails loses the picture,
        never the screen (the service log has the error)."""
        try:
            return self.saved.session.game.picture(state, lang, refused, self.layout_seen)
        except Exception:
            log.exception("%s: the picture of the board failed", self.saved.session.game.name)
            return None

    def describe(self, event: dict[str, Any], lang: str) -> str:
        """One line of the log for an event (as plain data), players named as at the table."""
        if isinstance(event.get("text"), Text):  # a line said as it is (the narration)
            return event["text"].in_(lang)  # type: ignore[no-any-return]
        game = self.saved.session.game
        names = self.seat_names(lang)
        own = game.event_text(event, lang, self.saved.session.state)
        if own is not None:
            return named(own, names)
        params: dict[str, Any] = dict(event)
        seat = event.get("seat")
        if isinstance(seat, int) and 0 <= seat < len(names):
            params["who"] = names[seat]
            params["player"] = seat + 1
        else:
            params["who"] = TABLE_NAME.in_(lang)  # type: ignore[arg-type]
        if "move" in event:
            label = self._labels.get(str(event["move"]))
            params["what"] = screen.short(label.in_(lang)) if label else screen.A_MOVE.in_(lang)  # type: ignore[arg-type]
        if isinstance(event.get("why"), Text):
            params["why"] = event["why"].in_(lang)
        return describe(params, game, lang)


SEAT_NUMBER = re.compile(r"(\d+)号玩家|\b[Pp]layer (\d+)\b")
"""How a game's own log line names a seat ("2号玩家", "Player 2"): replaced by the screen's name."""


def named(line: str, names: list[str]) -> str:
    """A game's log line with each seat number replaced by how the screen names that seat."""

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1) or match.group(2)) - 1
        return names[seat] if 0 <= seat < len(names) else match.group(0)

    return SEAT_NUMBER.sub(name, line)


def named_offer(offer: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """An offer as the console draws it, seats named as on the screen (labels and reasons)."""
    offer["label"] = named(offer["label"], names)
    for f in offer["fields"]:
        f["label"] = named(f["label"], names)
        for choice in f.get("choices") or ():
            choice["label"] = named(choice["label"], names)
    for option in offer["options"]:
        if option.get("reason"):
            option["reason"] = named(option["reason"], names)
    return offer


SEAT_NAMED = Text("{player}({character})", "{player} ({character})")
TABLE_NAME = Text("全桌", "The whole table")


def seat_name(seat: int, character: str | None, lang: str, seats: list[PlayerSeat]) -> str:
    """How the screen names a seat: the player's chosen name (else "1号玩家" / "Player 1"),
    with the game's own name for the seat (a character) when it has one."""
    sitting = seats[seat] if seat < len(seats) else PlayerSeat(None, "red")
    player = sitting.shown(seat, lang)
    if character and not any(ch.isdigit() for ch in character):
        return SEAT_NAMED.format(player=player, character=character).in_(lang)  # type: ignore[arg-type]
    return player


def describe(event: dict[str, Any], game: Any, lang: str) -> str:
    """One line of the log for an event (as plain data); unknown events are shown generically."""
    kind = event["type"]
    params: dict[str, Any] = dict(event)
    if (phase := _phase_or_none(game, event.get("phase"))) is not None:
        params["phase"] = phase.title.in_(lang)
    if params.get("seat") is not None and "player" not in params:
        params["player"] = params["seat"] + 1
    if kind == "step_started":
        index = int(event.get("index", 0)) - 1
        if phase is not None and 0 <= index < len(phase.steps):
            params["step"] = phase.steps[index].title.in_(lang)
    if kind == "dice_pool_announced":
        params["dice"] = " ".join(event.get("dice") or ()) or "—"
    template = EVENT_TEXT.get(kind) or getattr(game, "event_texts", {}).get(kind)
    if template is None:
        rest = ", ".join(f"{k}={v}" for k, v in event.items() if k != "type")
        return f"{kind}: {rest}" if rest else kind
    try:
        return template.in_(lang).format(**params)  # type: ignore[arg-type]
    except (KeyError, IndexError):
        return kind


def _phase_or_none(game: Any, name: object) -> Any:
    try:
        return game.phase(str(name))
    except KeyError:
        return None


def open_table(settings: Settings, store: Store | None = None) -> tuple[Table, Store]:
    """Resume the saved game (``settings.save`` or the latest) or start a new one.

    A damaged or foreign database is set aside and a new one is made; so is one whose game
    cannot be resumed exactly as it was saved (``SaveUnusableError``: never resumed short).
    Saves that cannot be written open read-only. The table's ``warnings`` say each of these.
    """
    warnings: list[Text] = []
    if store is None:
        try:
            store = Store.open(settings.database)
        except StoreDamagedError as exc:
            warnings.append(exc.text)
            store = Store.open(settings.database)
    warnings.extend(store.warnings)
    notices: list[Text] = []
    try:
        saved = store.load(settings.save)
        moves = len(saved.session.moves)
        notices.append(
            Text(
                f"继续存档“{saved.name}”({saved.game.title.zh},已有{moves}步)",
                f"resumed saved game {saved.name!r} ({saved.game.name}, {moves} moves)",
            )
        )
    except SaveNotFoundError:
        saved, started = _new_game(store, settings)
        notices.append(started)
    except SaveUnusableError as exc:
        if store.cannot_keep is None:
            store.close()
            moved = set_aside(store.path)
            store = Store.open(settings.database)
            warnings.append(
                Text(
                    f"{exc.text.zh};数据库已原样另存为 {moved.name},并新开了一局",
                    f"{exc.text.en}; the database was set aside untouched as {moved.name} and a"
                    " new game started",
                )
            )
            warnings.extend(store.warnings)
        else:
            warnings.append(
                Text(f"{exc.text.zh};存档原样保留", f"{exc.text.en}; the save is left as it is")
            )
        saved, started = _new_game(store, settings, by_time=store.cannot_keep is not None)
        notices.append(started)
    table = Table(saved, warnings + notices)
    table.warnings = warnings
    return table, store


def _new_game(store: Store, settings: Settings, by_time: bool = False) -> tuple[SavedGame, Text]:
    """A new game of ``settings.game`` (named ``settings.save``, else or when ``by_time`` by
    the time) and the notice that says so."""
    name = (None if by_time else settings.save) or (
        f"{settings.game}-{datetime.now(UTC):%Y%m%d-%H%M%S}"
    )
    saved = store.new_game(name, settings.game)
    return saved, Text(
        f"新开一局{saved.game.title.zh},存档名“{name}”",
        f"started a new game of {saved.game.name} saved as {name!r}",
    )
