"""The table's timers: a turn timer (seconds per turn, or a chess clock's budget per seat for
the game) and a phase timer (a phase everyone plays at once, such as Greenwood's dusk).

Time lives here, at the table's edge, never in the engine: one injectable ``Clock`` (the
machine's monotonic clock, or ``ManualClock`` in tests). Who is timed comes from the engine's
state (``acting``): the seat whose turn it is in a clockwise or free phase, the whole table in
a simultaneous phase; nobody in a phase the table walks with Confirm, or once the game is over.
In a free phase (any seat may take the next turn: Stonesaga's day) the time before a seat's
first move is the next turn's, whoever takes it: it is counted from the end of the last turn
and given to the seat that moves (``Timers.observe``'s ``mover``), so a turn of one move is
timed too.

Time is counted in periods (one turn of a seat, one phase). A move that hands the turn on
starts a new period; an undo goes back to the period it undid (its time kept) and leaves the
one it left resumable: undo never gives time back. A period's zero is said once (the buzzer);
nothing is refused at zero: the table decides. Pausing stops every clock.

``Timers`` is the pure bookkeeping (no thread, no I/O): tested with ``ManualClock``.
``TableTimers`` wires it to a ``Table``: it follows the table's changes, ticks in a thread of
its own, keeps the clocks in the save's SQLite file (``Store.keep_clocks``, validated JSON,
``Kept``) and tells the table when what is shown changed (``Table.touch("timer")``). A restart
goes on from what was kept (the time the kiosk was off is not counted).
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.core.phases import TurnOrder
from kiosk.presenter.facts import TableFacts, TimerFacts
from kiosk.store import SaveNotKeptError
from kiosk.table import Change, Table

log = logging.getLogger("tablesight.timers")

LAST_SECONDS = 10.0
"""The last seconds of a period: the LED bar blinks."""
HISTORY = 32
"""How many past periods are remembered (an undo goes back to one of them)."""
TICK_S = 0.2
"""How often ``TableTimers`` counts the time (the screen shows whole seconds)."""
KEEP_S = 5.0
"""How often the clocks are written to the save while they run (and at every turn, pause and
stop): a power cut loses at most this much of the clocks, never a move."""


class Clock(Protocol):
    """Where the timers read the time: seconds from any fixed start, never going back."""

    def now(self) -> float:
        """Seconds now."""
        ...


class MonotonicClock:
    """The machine's monotonic clock (``time.monotonic``): not moved by a change of the date."""

    def now(self) -> float:
        """Seconds now."""
        return time.monotonic()


class ManualClock:
    """A clock that moves only when told (tests, the drift figure)."""

    def __init__(self, start: float = 0.0) -> None:
        self.t = start

    def now(self) -> float:
        """Seconds now."""
        return self.t

    def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds`` (never back)."""
        if seconds < 0:
            raise ValueError("a clock never goes back")
        self.t += seconds


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


class TimerChoice(_Data):
    """The timers chosen at set-up (all off by default)."""

    model_config = ConfigDict(frozen=True)
    mode: Literal["off", "turn", "budget"] = "off"
    """``turn``: ``seconds`` for each turn; ``budget``: ``seconds`` for each seat for the game."""
    seconds: int = Field(60, ge=5, le=4 * 3600)
    phase_seconds: int = Field(0, ge=0, le=3600)
    """A phase everyone plays at once has this long (0: no phase timer)."""

    @property
    def on(self) -> bool:
        """Whether any timer runs."""
        return self.mode != "off" or self.phase_seconds > 0


class Who(_Data):
    """What a period times: a seat's turn, or the whole table's phase (``seat`` None). A turn
    with ``seat`` None is the next turn of a free phase, whoever takes it."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["turn", "phase"]
    seat: int | None = Field(None, ge=0, le=64)
    round: int
    phase: str = Field(max_length=100)


class Period(_Data):
    """One turn or phase, and the time spent in it."""

    who: Who
    elapsed: float = Field(0.0, ge=0)
    buzzed: bool = False
    """Its zero was said (the buzzer sounds once)."""
    resumable: bool = False
    """Left by an undo: a move back to it goes on with its time."""


class Kept(_Data):
    """The clocks as kept with the saved game (``Store.keep_clocks``)."""

    v: Literal[1] = 1
    choice: TimerChoice = TimerChoice()
    paused: bool = False
    used: list[float] = Field(default_factory=list, max_length=64)
    """Seconds each seat has spent on its own turns."""
    spent: list[bool] = Field(default_factory=list, max_length=64)
    """``budget``: each seat's budget ran out (its zero was said)."""
    periods: list[Period] = Field(default_factory=list, max_length=HISTORY)
    running: bool = False
    """The last period is being timed now."""


def acting(facts: TableFacts, choice: TimerChoice) -> Who | None:
    """What is timed at this moment of the table: the seat whose turn it is (turn timer), the
    whole table in a phase everyone plays at once (phase timer), else nothing."""
    state = facts.state
    if state.outcome is not None:
        return None
    flow = state.flow
    order = facts.game.phase(flow.phase).order
    if order is TurnOrder.SIMULTANEOUS:
        if choice.phase_seconds <= 0:
            return None
        return Who(kind="phase", round=flow.round, phase=flow.phase)
    if order is TurnOrder.TABLE or choice.mode == "off":
        return None
    if flow.current is None and order is TurnOrder.FREE and len(flow.done) < state.players:
        return Who(kind="turn", round=flow.round, phase=flow.phase)  # the next turn, anyone's
    if flow.current is None:
        return None
    return Who(kind="turn", seat=flow.current, round=flow.round, phase=flow.phase)


class Timers:
    """The clocks of one game: which period runs, how long each took, pause, zero once.

    Every call first counts the time since the last one to the running period (unless
    paused). Safe to call from several threads.
    """

    def __init__(self, clock: Clock, kept: Kept | None = None) -> None:
        self.clock = clock
        self._kept = kept if kept is not None else Kept()
        self._mark = clock.now()
        self._lock = threading.Lock()

    @property
    def choice(self) -> TimerChoice:
        """The timers chosen for this game."""
        return self._kept.choice

    @property
    def running(self) -> bool:
        """Whether a clock runs now (somebody is timed and the timers are not paused)."""
        with self._lock:
            return self._current() is not None and not self._kept.paused

    def choose(self, choice: TimerChoice, seats: int) -> None:
        """Set the timers of this game; the clocks start again from nothing."""
        with self._lock:
            self._mark = self.clock.now()
            self._kept = Kept(choice=choice, used=[0.0] * seats, spent=[False] * seats)

    def observe(self, who: Who | None, undo: bool = False, mover: int | None = None) -> bool:
        """The table now times ``who`` (``acting``), after a move of seat ``mover`` or an
        ``undo``; True when another period runs now. The time of a free phase's next turn
        (``Who.seat`` None) is given to the seat whose move ends it: to its own time, and to
        its turn when the move opened one."""
        with self._lock:
            self._count()
            kept = self._kept
            now = self._current()
            if (now.who if now else None) == who:
                return False
            if now is not None and undo:
                now.resumable = True
            carried = 0.0
            if now is not None and not undo and mover is not None and _anyones(now.who):
                self._seats(mover + 1)
                kept.used[mover] += now.elapsed
                carried, now.elapsed = now.elapsed, 0.0
            kept.running = False
            if who is None:
                return True
            for index in range(len(kept.periods) - 1, -1, -1):
                past = kept.periods[index]
                if past.who == who and (undo or past.resumable):
                    kept.periods.append(kept.periods.pop(index))
                    past.resumable = False
                    break
            else:
                opened = who.seat == mover and who.kind == "turn"
                kept.periods.append(Period(who=who, elapsed=carried if opened else 0.0))
                del kept.periods[:-HISTORY]
            if who.seat is not None:
                self._seats(who.seat + 1)
            kept.running = True
            return True

    def pause(self, paused: bool | None = None) -> bool:
        """Pause or resume every clock (None: the other way); returns whether paused now."""
        with self._lock:
            self._count()
            self._kept.paused = (not self._kept.paused) if paused is None else paused
            return self._kept.paused

    def tick(self) -> bool:
        """Count the time up to now; True exactly once per period (per seat's budget) when
        its time reaches zero: the buzzer's moment."""
        with self._lock:
            self._count()
            now = self._current()
            if now is None or self._left(now) > 0:
                return False
            kept = self._kept
            if kept.choice.mode == "budget" and now.who.seat is not None:
                if kept.spent[now.who.seat]:
                    return False
                kept.spent[now.who.seat] = True
                return True
            if now.buzzed:
                return False
            now.buzzed = True
            return True

    def facts(self) -> TimerFacts | None:
        """What the screen and the LEDs show now; None when no timer was chosen."""
        with self._lock:
            self._count()
            kept = self._kept
            if not kept.choice.on:
                return None
            totals = tuple(kept.used)
            now = self._current()
            if now is None:
                return TimerFacts(totals=totals, paused=kept.paused)
            kind = "phase" if now.who.kind == "phase" else kept.choice.mode
            if _anyones(now.who) and kind == "budget":  # whose budget is not known yet
                return TimerFacts(totals=totals, paused=kept.paused)
            return TimerFacts(
                totals=totals,
                paused=kept.paused,
                kind=kind,
                seat=now.who.seat,
                left_s=self._left(now),
                limit_s=float(self._limit(now)),
            )

    def to_json(self) -> str:
        """The clocks as kept with the save (``Kept``'s JSON)."""
        with self._lock:
            self._count()
            return self._kept.model_dump_json()

    @staticmethod
    def read(text: str) -> Kept:
        """Kept clocks from their JSON; ValueError saying what is wrong."""
        try:
            return Kept.model_validate_json(text)
        except ValidationError as exc:
            first = exc.errors(include_url=False, include_input=False)[0]
            where = ".".join(str(p) for p in first["loc"]) or "the clocks"
            raise ValueError(f"{where}: {first['msg']}") from None

    # --- under the lock --------------------------------------------------------------------

    def _count(self) -> None:
        """Add the time since the last call to the running period and its seat."""
        now = self.clock.now()
        passed, self._mark = max(0.0, now - self._mark), now
        period = self._current()
        if period is None or self._kept.paused or passed == 0:
            return
        period.elapsed += passed
        if period.who.seat is not None:
            self._seats(period.who.seat + 1)
            self._kept.used[period.who.seat] += passed

    def _current(self) -> Period | None:
        kept = self._kept
        return kept.periods[-1] if kept.running and kept.periods else None

    def _seats(self, count: int) -> None:
        kept = self._kept
        kept.used += [0.0] * (count - len(kept.used))
        kept.spent += [False] * (count - len(kept.spent))

    def _limit(self, period: Period) -> int:
        choice = self._kept.choice
        return choice.phase_seconds if period.who.kind == "phase" else choice.seconds

    def _left(self, period: Period) -> float:
        if period.who.kind == "turn" and self._kept.choice.mode == "budget":
            if period.who.seat is None:  # the next turn's: a budget is counted at the move
                return math.inf
            return self._kept.choice.seconds - self._kept.used[period.who.seat]
        return self._limit(period) - period.elapsed


def _anyones(who: Who) -> bool:
    """Whether ``who`` is the next turn of a free phase, whoever takes it."""
    return who.kind == "turn" and who.seat is None


def shown(facts: TimerFacts | None) -> tuple[object, ...]:
    """What a screen shows of the timers (a change of it is a change of the table): who,
    the whole seconds left, paused, and whether the last seconds or the zero are reached."""
    if facts is None:
        return ()
    left = math.ceil(facts.left_s)
    return (facts.kind, facts.seat, left, facts.paused, left <= LAST_SECONDS, left <= 0)


class TableTimers:
    """The timers of the table's game: they follow its moves and undos, tick in a thread of
    their own, are kept in its save, and tell it when what is shown changed.

    ``on_zero`` is called once at each zero (the buzzer). ``tick_s`` None: no thread (tests
    call ``step()`` themselves).
    """

    def __init__(
        self,
        table: Table,
        clock: Clock,
        on_zero: Callable[[], None] = lambda: None,
        tick_s: float | None = TICK_S,
    ) -> None:
        self.table = table
        self.clock = clock
        self.on_zero = on_zero
        self.tick_s = tick_s
        self.timers = Timers(clock)
        self.save = ""
        self._shown: tuple[object, ...] = ()
        self._kept_at = clock.now()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._unlisten: Callable[[], None] | None = None
        self.problem: str | None = None
        """Why the kept clocks of this save were not used (a damaged record), or None."""

    def start(self) -> None:
        """Load the clocks of the table's save, follow the table, start ticking."""
        self._load()
        self.table.presenter.timer = self.facts
        self._unlisten = self.table.listen(self._on_change)
        if self.tick_s is not None:
            self._thread = threading.Thread(target=self._run, name="timers", daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop ticking and keep the clocks (idempotent)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        if self._unlisten is not None:
            self._unlisten()
            self._unlisten = None
            self.keep()

    def facts(self) -> TimerFacts | None:
        """What the screen and the LEDs show now (None: no timer in this game)."""
        return self.timers.facts()

    def choose(self, choice: TimerChoice) -> None:
        """Set the timers of the game being played (the set-up page, a script)."""
        self.timers.choose(choice, self.table.saved.session.state.players)
        self._follow(undo=False)
        self.keep()
        self._show(force=True)

    def pause(self, paused: bool | None = None) -> bool:
        """Pause or resume the clocks (None: the other way): the menu and the buttons."""
        now = self.timers.pause(paused)
        self.keep()
        self._show(force=True)
        return now

    def step(self) -> None:
        """Count the time: the buzzer at a zero, the screens when what they show changed, the
        save every ``KEEP_S`` seconds while a clock runs."""
        if self.timers.tick():
            self.on_zero()
        self._show()
        if self.timers.running and self.clock.now() - self._kept_at >= KEEP_S:
            self.keep()

    def keep(self) -> None:
        """Write the clocks into the save (nothing when the saves cannot be written)."""
        if not self.save:
            return
        text = self.timers.to_json()
        self._kept_at = self.clock.now()
        try:
            with self.table.store_held() as store:
                store.keep_clocks(self.save, text)
        except SaveNotKeptError:
            pass  # read-only saves: the screen says so already; the clocks run in memory

    # --- inside ----------------------------------------------------------------------------

    def _run(self) -> None:
        assert self.tick_s is not None
        while not self._stop.wait(self.tick_s):
            try:
                self.step()
            except Exception:  # the clocks must never stop the table
                log.exception("the timers failed to tick")

    def _load(self) -> None:
        """The clocks kept with the table's save (none: the timers are off)."""
        if not self.table.has_game:  # no game yet (kiosk.table): no clocks until one starts
            self.save, self.timers = "", Timers(self.clock)
            return
        with self.table.store_held() as store:
            self.save = self.table.saved.name
            text = store.clocks(self.save)
        kept = None
        self.problem = None
        if text is not None:
            try:
                kept = Timers.read(text)
            except ValueError as exc:
                self.problem = f"the clocks kept with {self.save!r} are ignored: {exc}"
                log.warning("%s", self.problem)
        self.timers = Timers(self.clock, kept)
        self._follow(undo=False)

    def _follow(self, undo: bool, mover: int | None = None) -> None:
        """Time what the table's state says acts now (after a move of seat ``mover``)."""
        who = acting(self.table.facts(), self.timers.choice)
        if self.timers.observe(who, undo=undo, mover=mover):
            self.keep()

    def _on_change(self, change: Change) -> None:
        if change.kind == "new_game":
            self._load()
            self._show(force=True)
        elif change.kind == "move":
            moves = self.table.saved.session.moves
            self._follow(undo=False, mover=moves[-1].seat if moves else None)
        elif change.kind == "undo":
            self._follow(undo=True)
            self._show()

    def _show(self, force: bool = False) -> None:
        """Tell the table when what the screens show of the timers changed."""
        now = shown(self.facts())
        if force or now != self._shown:
            self._shown = now
            self.table.touch("timer")
