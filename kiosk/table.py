"""The table: the saved game being played and the facts around it (links, prompts, the menu,
the last refusal, the log's events, the dice pool, the rounds' scores, notices).

Every change goes through here, under one lock: moves are committed to the store before their
events are kept for the screen (the store's rule). The screen's and the table's buttons go
through ``confirm()`` and ``take_back()``: confirm makes a move only when the presenter says the
table's confirm is open; undo asks once (a second press) before it goes back over a phase.
Each change bumps a sequence number and is told to the listeners (the live page, the buzzer).
``facts()`` is an immutable copy of one moment; the table's presenter (``kiosk.presenter``)
turns it into what the screens show.

A table may have no game yet: a kiosk started with no saved game and none asked for
(``open_table``) waits for the set-up page's new game. Until then ``saved`` and ``facts()``
raise ``NoGameError`` (the routes answer 409), and the snapshot says to set a game up.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any

from engine.core import (
    Advance,
    DicePoolAnnounced,
    EngineError,
    Event,
    GameConfigError,
    Move,
    NothingToUndoError,
    Result,
    Session,
    State,
    Text,
    Verdict,
    find_game,
    match,
    offered,
    offers,
)
from engine.core.box import BoxError
from engine.core.text import Language
from engine.core.vocabulary import BoxItemEntered
from kiosk.boxes import keep_items, with_box
from kiosk.packaway import MissingPieces
from kiosk.presenter import (
    LINK_STATES,
    Link,
    NoGameError,
    NoGameFacts,
    Presenter,
    TableFacts,
    frozen_event,
)
from kiosk.presenter.facts import Event as EventData
from kiosk.presenter.facts import Hint, Taken
from kiosk.seats import PlayerSeat, SetupError
from kiosk.settings import Settings
from kiosk.store import (
    NOT_KEPT_CODE,
    SavedGame,
    SaveNotFoundError,
    SaveNotKeptError,
    SaveUnusableError,
    Store,
    StoreDamagedError,
    StoreError,
    set_aside,
)

log = logging.getLogger("tablesight.table")

NAME_TAKEN = Text(
    "已经有叫「{name}」的存档了,请换个名字", "A saved game called '{name}' exists already"
)


def setup_refusal(exc: EngineError | StoreError | ValueError) -> Text:
    """Why a new game or session could not start, in both languages, for the set-up page: the
    engine's sentence for options, the seats' own, the store's when it has one."""
    if isinstance(exc, GameConfigError | SetupError | SaveNotKeptError | StoreDamagedError):
        return exc.text
    return Text("没能开局,请换一种选择", f"The game could not start: {exc}")


RECENT_EVENTS = 30
"""How many events the table keeps for the log on the screen."""

HINT_SECONDS = 8.0
"""How long a button's short notice stands (and undo's "press again" waits for the second press)."""

__all__ = ["LINK_STATES", "Change", "Link", "NoGameError", "Table", "open_table"]


@dataclass(frozen=True)
class Change:
    """One change of the table, as told to listeners: its sequence number and what happened."""

    seq: int
    kind: str
    """``move``, ``rejected``, ``undo``, ``new_game``, ``link``, ``menu``, ``prompt``, ``layout``,
    ``narration``, ``settings``, ``hint`` (a button's short notice shown or gone) or ``timer``
    (what the screens show of the timers changed: ``kiosk.timers``, about once a second while
    one runs)."""
    events: tuple[Event, ...] = ()
    verdict: Verdict | None = None

    @property
    def phase_changed(self) -> bool:
        """Whether a new phase began (the buzzer's phase-change pattern)."""
        return any(e.type == "phase_started" for e in self.events)


Listener = Callable[[Change], None]

REPLAYED_MOVES = 256
"""At least this many of the last moves are replayed to rebuild the screen's memory (every move of
a game that short; the example games have 30–125)."""


class Table:
    """One saved game at the table, safe to use from the web server's and the buttons' threads.

    ``saved`` None: no game yet (the table waits for ``new_game``); ``store`` is then the save
    file new games go into (default: the saved game's)."""

    def __init__(
        self,
        saved: SavedGame | None,
        notices: list[Text] | None = None,
        store: Store | None = None,
    ) -> None:
        if store is None:
            if saved is None:
                raise ValueError("a table with no game needs the store its games go into")
            assert isinstance(saved.store, Store), "a table's game is kept in a Store"
            store = saved.store
        self._saved = saved
        self._store = store
        self.notices = list(notices or [])
        self.warnings: list[Text] = []
        """The notices that are problems (a save set aside, saves that cannot be written): what
        the start-up report says on stderr."""
        self.links: dict[str, Link] = {"camera": Link(), "controller": Link()}
        self.menu_open = False
        self.prompts: list[tuple[str, Text]] = []
        self.layout_seen: list[tuple[str, str | None]] = []
        """What the camera finds wrong with the map laid on the table (reason code, place)."""
        self.missing_pieces: MissingPieces | None = None
        """What the last pack-away check found missing, until a check finds all (the café's
        alert; ``kiosk.packaway``)."""
        self.seq = 0
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._refused: tuple[Move, Verdict] | None = None
        """The last refused move, while nothing has been accepted or undone since."""
        self._hint: Hint | None = None
        self._hints = 0
        """How many notices were shown (the timer of an old one leaves a newer one alone)."""
        self.hint_seconds = HINT_SECONDS
        self.data_dir: Path | None = None
        """The data folder holding the owner's boxes (``kiosk.boxes``): a new game is played
        with its game's box, and what the table enters that the box lacks is kept there;
        None: the demo boxes, nothing kept."""
        self._reset_memory()
        self.presenter = Presenter(self.moment, lambda: self.seq)
        """What the screens read: the snapshot of each change, per language."""

    @property
    def saved(self) -> SavedGame:
        """The saved game being played (NoGameError while the table has none)."""
        saved = self._saved
        if saved is None:
            raise NoGameError()
        return saved

    @property
    def has_game(self) -> bool:
        """Whether a game is being played (False: waiting for the set-up page's new game)."""
        return self._saved is not None

    @property
    def store(self) -> Store:
        """The save file the games are kept in."""
        return self._store

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
            self._hint = None
            if result.accepted:
                self._refused = None
                self._remember(result.events, self.saved.session.state)
                self._keep_entered(result.events)
            else:
                self._refused = (move, result.verdict)
                self._recent.append(
                    frozen_event(
                        {
                            "type": "move_rejected",
                            "move": move.type,
                            "seat": move.seat,
                            "why": result.verdict.message,
                        }
                    )
                )
            change = self._bump("move" if result.accepted else "rejected", result)
        self._tell(change)
        return result

    def confirm(self) -> Result | None:
        """The confirm button (the screen's and the table's): ``advance`` when the table's
        confirm is open (the presenter's ``confirm``, from the offers); else nothing is made,
        the screen says why (a short notice) and None is returned."""
        if not self.has_game:  # nothing to confirm: the snapshot's confirm says why
            return None
        if not self.presenter.snapshot("en").confirm.open:  # outside the lock: it takes it
            self._show_hint(Hint("confirm_closed"))
            return None
        return self.submit(Advance())

    def take_back(self) -> tuple[Event, ...] | None:
        """The undo button (the screen's and the table's): ``undo()``, but a move that began
        a phase is taken back only at a second press while the screen asks for it (None: it
        asked). NothingToUndoError, SaveNotKeptError as ``undo()``."""
        with self._lock:
            if self._saved is None:
                raise NothingToUndoError("there is no game, so no move to undo")
            session = self._saved.session
            if not session.moves:
                raise NothingToUndoError("there is no move to undo")
            ask = None
            asked = None if self._hint is None else self._hint.kind
            if session.state.outcome is not None and asked != "undo_end":
                ask = Hint("undo_end")  # never out of the game's end at one touch
            elif asked not in ("undo_again", "undo_end"):
                was, now = self._state_before_last().flow, session.state.flow
                if (was.round, was.phase) != (now.round, now.phase):
                    ask = Hint("undo_again", back_to=(was.round, was.phase))
        if ask is not None:  # a move made meanwhile is only asked about again
            self._show_hint(ask)
            return None
        return self.undo()

    def undo(self) -> tuple[Event, ...]:
        """Take back the last move (saved first); NothingToUndoError if there is none,
        SaveNotKeptError (the reason on the screen) if the undo cannot be saved. The log and
        the screen's notice name the move taken back."""
        refused: SaveNotKeptError | None = None
        with self._lock:
            try:
                events = self.saved.undo()
                self._refused = None
                self._reset_memory()
                move = self.saved.session.undone[-1]
                taken = self._taken(move)
                self._recent.append(
                    frozen_event(
                        {
                            "type": "move_undone",
                            "move": move.type,
                            "seat": move.seat,
                            "taken": taken,
                        }
                    )
                )
                self._hint = Hint("undone", taken=taken)
                self._hints += 1
                self._expire_later(self._hints)
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
            if any(info.name == name for info in self.store.list()):
                raise SetupError(NAME_TAKEN.format(name=name))
            if self.data_dir is not None:
                options = with_box(self.data_dir, find_game(game_name), options)
            self._saved = self.store.new_game(name, game_name, options, seed, seats)
            self.notices, self.prompts, self.layout_seen = [], [], []
            self._refused = self._hint = None
            self._reset_memory()
            change = self._bump("new_game")
        self._tell(change)

    def _keep_entered(self, events: tuple[Event, ...]) -> None:
        """Keep in the owner's box the components the table entered that the box lacked
        (``BoxItemEntered``), for the next game; one that cannot be kept is said on the
        screen and costs only itself (the game already uses it)."""
        if self.data_dir is None:
            return
        for event in events:
            if not isinstance(event, BoxItemEntered):
                continue
            try:
                keep_items(self.data_dir, self.saved.game, {event.item: json.loads(event.value)})
            except (BoxError, OSError, ValueError) as exc:
                log.warning("the entered %s was not kept in the box: %s", event.item, exc)
                self._note(
                    Text(
                        "录入的这张牌没能存进你的盒子,下一局还需再录入",
                        "the component entered could not be kept in your box: enter it"
                        " again next game",
                    )
                )

    def _taken(self, move: Move) -> Taken:
        """The move just undone as the console offered it (its offer and choices in the state
        it was made in, which is the state now)."""
        session = self.saved.session
        found = match(offers(session.game, session.state), move)
        if found is None:
            return Taken(move.seat, None)
        offer, option = found
        labels = []
        for f, value in zip(offer.picks, option.values, strict=False):
            labels += [c.label for c in f.choices if c.value == value][:1]
        if move.type == "advance":  # the step (or phase) the table's confirm went past
            flow = session.state.flow
            phase = session.game.phase(flow.phase)
            steps = phase.steps
            labels.append(steps[flow.step].title if flow.step < len(steps) else phase.title)
        return Taken(move.seat, offer.label, tuple(labels))

    def _state_before_last(self) -> State[Any]:
        """The state before the last saved move (from the latest kept state before it)."""
        session = self.saved.session
        last = len(session.moves) - 1
        base, state = self.saved.state_before(last)
        scratch = Session(session.game, session.options, session.seed)
        scratch.state = state
        for move in session.moves[base:last]:
            scratch.push(move)
        return scratch.state

    def _show_hint(self, hint: Hint) -> None:
        """Show a button's short notice for ``hint_seconds`` (or until the next move)."""
        with self._lock:
            self._hint = hint
            self._hints += 1
            self._expire_later(self._hints)
            change = self._bump("hint")
        self._tell(change)

    def _expire_later(self, number: int) -> None:
        timer = threading.Timer(self.hint_seconds, self._expire, (number,))
        timer.daemon = True
        timer.start()

    def _expire(self, number: int) -> None:
        with self._lock:
            if self._hints != number or self._hint is None:
                return  # a newer notice, or a move since
            self._hint = None
            change = self._bump("hint")
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
            self._recent.append(frozen_event({"type": "narration", "text": text}))
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

    def show_missing(self, missing: MissingPieces | None) -> None:
        """Keep what a pack-away check found missing (None: all there) and announce it."""
        with self._lock:
            self.missing_pieces = missing
            change = self._bump("packaway")
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
            yield self.store

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
        them are missing from the end screen (left partial). With no game: all empty.
        """
        self._recent: deque[EventData] = deque(maxlen=RECENT_EVENTS)
        self._dice: EventData | None = None
        self._rounds: list[tuple[int, tuple[int, ...]]] = []
        if self._saved is None:
            return
        session = self._saved.session
        base, state = self.saved.state_before(len(session.moves) - REPLAYED_MOVES)
        if base == 0 and len(session.moves) > REPLAYED_MOVES:  # none that early: the latest one
            base, state = self.saved.state_before(len(session.moves))
        scratch = Session(session.game, session.options, session.seed)
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
                self._dice = frozen_event(event.to_dict()) if event.dice else None
            if event.type != "move_rejected":
                self._recent.append(frozen_event(event.to_dict()))
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

    # --- the facts -------------------------------------------------------------------------

    def moment(self) -> TableFacts | NoGameFacts:
        """The table's facts now (``facts()``), or while it has no game what there is around
        it (links, menu, notices): what the presenter builds the screens from."""
        with self._lock:
            if self._saved is None:
                return NoGameFacts(
                    seq=self.seq,
                    links=MappingProxyType(dict(self.links)),
                    menu_open=self.menu_open,
                    notices=tuple(self.notices),
                )
            return self.facts()

    def facts(self) -> TableFacts:
        """An immutable copy of the table's facts now (taken under the lock): what the
        presenter builds the screens from and the LEDs are driven by (NoGameError while the
        table has no game)."""
        with self._lock:
            session = self.saved.session
            return TableFacts(
                seq=self.seq,
                game=session.game,
                state=session.state,
                save=self.saved.name,
                moves=len(session.moves),
                seats=tuple(self.saved.seats),
                links=MappingProxyType(dict(self.links)),
                menu_open=self.menu_open,
                prompts=tuple(self.prompts),
                layout_seen=tuple(self.layout_seen),
                refused=self._refused,
                recent=tuple(self._recent),
                dice=self._dice,
                rounds=tuple(self._rounds),
                notices=tuple(self.notices),
                hint=self._hint,
            )

    def link(self, name: str) -> Link:
        """The state of one link (``camera``, ``controller``)."""
        with self._lock:
            return self.links.get(name) or Link()

    def status(self, lang: Language) -> dict[str, Any]:
        """The presenter's snapshot in ``lang`` as JSON (built by the presenter, once per
        change; for scripts and tests: the routes read ``presenter`` themselves)."""
        return self.presenter.snapshot(lang).to_json()


WAITING = Text(
    "没有存档可继续:请在开局页面开一局", "no saved game to resume: set up a game on the set-up page"
)
"""The start-up notice of a table that waits for a game."""


def game_asked(settings: Settings) -> bool:
    """Whether a new game was asked for by the settings: ``game`` or ``save`` given by a flag,
    an environment variable or the settings file."""
    return bool({"game", "save"} & settings.model_fields_set)


def open_table(
    settings: Settings, store: Store | None = None, *, wait: bool = False
) -> tuple[Table, Store]:
    """Resume the saved game (``settings.save`` or the latest), or start a new one of
    ``settings.game``. With ``wait`` (``tablesight run``), a new game is started only when one
    is asked for (``game_asked``); else the table opens with no game and waits for the set-up
    page's (the embedded simulation starts its own: ``kiosk.rig``).

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
    saved: SavedGame | None
    asked = not wait or game_asked(settings)
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
        saved, started = _new_game(store, settings) if asked else (None, WAITING)
        notices.append(started)
    except SaveUnusableError as exc:
        if store.cannot_keep is None:
            store.close()
            moved = set_aside(store.path)
            store = Store.open(settings.database)
            zh = f"{exc.text.zh};数据库已原样另存为 {moved.name}"
            en = f"{exc.text.en}; the database was set aside untouched as {moved.name}"
            if asked:
                zh, en = f"{zh},并新开了一局", f"{en} and a new game started"
            warnings.append(Text(zh, en))
            warnings.extend(store.warnings)
        else:
            warnings.append(
                Text(f"{exc.text.zh};存档原样保留", f"{exc.text.en}; the save is left as it is")
            )
        if asked:
            saved, started = _new_game(store, settings, by_time=store.cannot_keep is not None)
        else:
            saved, started = None, WAITING
        notices.append(started)
    table = Table(saved, warnings + notices, store)
    table.warnings = warnings
    table.data_dir = settings.data_dir
    return table, store


def _new_game(store: Store, settings: Settings, by_time: bool = False) -> tuple[SavedGame, Text]:
    """A new game of ``settings.game`` (named ``settings.save``, else or when ``by_time`` by
    the time) and the notice that says so."""
    name = (None if by_time else settings.save) or (
        f"{settings.game}-{datetime.now(UTC):%Y%m%d-%H%M%S}"
    )
    options = with_box(settings.data_dir, find_game(settings.game), None)
    saved = store.new_game(name, settings.game, options)
    return saved, Text(
        f"新开一局{saved.game.title.zh},存档名“{name}”",
        f"started a new game of {saved.game.name} saved as {name!r}",
    )
