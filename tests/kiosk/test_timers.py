"""The table's timers (issue 28), in process on the manual clock: a turn timer runs down and
says its zero once, pause and resume, undo gives no time back, a chess-clock budget per seat, a
phase timer for a phase everyone plays at once, the clocks kept in a real SQLite save and gone
on with after the save is opened again; and the LED bar on the emulated controller."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.core import move_from_dict
from firmware_bridge.connect import open_leds
from firmware_bridge.link import LinkStatus
from firmware_bridge.state import Effect
from kiosk.leds import PHASE_COLOUR, seat_colour, track_facts, track_leds, track_legend
from kiosk.store import Store
from kiosk.table import Table
from kiosk.timers import KEEP_S, ManualClock, TableTimers, TimerChoice, Timers, Who

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "greenwood.jsonl"
TURN = TimerChoice(mode="turn", seconds=60)


def example_moves() -> list[dict[str, Any]]:
    """The moves of the Greenwood example game (after its set-up line)."""
    return [json.loads(line) for line in EXAMPLE.read_text().splitlines()[1:]]


def new_table(path: Path, name: str = "t") -> Table:
    store = Store.open(path)
    head = json.loads(EXAMPLE.read_text().splitlines()[0])
    return Table(store.new_game(name, "greenwood", head["setup"], head["seed"]))


def play_until(table: Table, done: Any) -> None:
    """Make the example's moves until ``done(state)`` (from where the table is)."""
    for move in example_moves()[len(table.saved.session.moves) :]:
        if done(table.saved.session.state):
            return
        assert table.submit(move_from_dict(move)).accepted
    raise AssertionError("the example never got there")


def at_night(state: Any) -> bool:
    return state.flow.phase == "night" and state.flow.current is not None


def turn(seat: int, round_: int = 1, phase: str = "night") -> Who:
    return Who(kind="turn", seat=seat, round=round_, phase=phase)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(1000.0)


def test_a_turn_timer_runs_down_and_says_its_zero_once(clock: ManualClock) -> None:
    timers = Timers(clock)
    timers.choose(TURN, 2)
    timers.observe(turn(0))
    clock.advance(15)
    facts = timers.facts()
    assert facts is not None and (facts.kind, facts.seat) == ("turn", 0)
    assert (facts.left_s, facts.limit_s) == (45, 60)
    clock.advance(44.5)
    assert timers.tick() is False  # half a second left
    clock.advance(1)
    assert timers.tick() is True  # the zero: the buzzer's one moment
    clock.advance(30)
    assert [timers.tick() for _ in range(3)] == [False] * 3  # never again for this turn
    facts = timers.facts()
    assert facts is not None and facts.left_s == pytest.approx(-30.5)  # runs on: nothing refused
    timers.observe(turn(1))  # the next turn has its own minute and its own zero
    clock.advance(60)
    assert timers.tick() is True


def test_pause_stops_every_clock_and_resume_goes_on(clock: ManualClock) -> None:
    timers = Timers(clock)
    timers.choose(TURN, 2)
    timers.observe(turn(0))
    clock.advance(10)
    assert timers.pause() is True
    clock.advance(500)
    assert timers.tick() is False
    facts = timers.facts()
    assert facts is not None and facts.paused and facts.left_s == 50
    assert facts.totals == (10, 0)
    assert timers.pause() is False
    clock.advance(5)
    facts = timers.facts()
    assert facts is not None and not facts.paused and facts.left_s == 45


def test_undo_gives_no_time_back(clock: ManualClock) -> None:
    """A's turn 20 s, B's 5 s, undo back to A: A goes on from 40 s left (not a fresh minute),
    B keeps its 5 s; A's move again hands B the rest of its turn."""
    timers = Timers(clock)
    timers.choose(TURN, 2)
    timers.observe(turn(0))
    clock.advance(20)
    timers.observe(turn(1))
    clock.advance(5)
    timers.observe(turn(0), undo=True)
    facts = timers.facts()
    assert facts is not None and (facts.seat, facts.left_s) == (0, 40)
    assert facts.totals == (20, 5)
    clock.advance(3)
    timers.observe(turn(1))
    facts = timers.facts()
    assert facts is not None and (facts.seat, facts.left_s) == (1, 55)
    assert facts.totals == (23, 5)
    timers.observe(turn(0))  # a new turn by a move (not an undo): a fresh minute
    facts = timers.facts()
    assert facts is not None and facts.left_s == 60


def test_a_chess_clock_budget_per_seat_for_the_game(clock: ManualClock) -> None:
    timers = Timers(clock)
    timers.choose(TimerChoice(mode="budget", seconds=300), 2)
    timers.observe(turn(0))
    clock.advance(100)
    timers.observe(turn(1))
    clock.advance(50)
    timers.observe(turn(0, round_=2))
    clock.advance(20)
    facts = timers.facts()
    assert facts is not None and facts.kind == "budget"
    assert (facts.left_s, facts.limit_s, facts.totals) == (180, 300, (120, 50))
    clock.advance(180)
    assert timers.tick() is True
    timers.observe(turn(1, round_=2))
    timers.observe(turn(0, round_=3))
    clock.advance(10)
    assert timers.tick() is False  # seat 0's budget said its zero once for the game


def test_a_phase_timer_times_the_whole_table_in_a_phase_everyone_plays(
    tmp_path: Path, clock: ManualClock
) -> None:
    """Greenwood's dusk is played by everyone at once (greenwood.zh.md §三.2): the phase
    timer times the table (no seat), and the turn timer takes over at night."""
    table = new_table(tmp_path / "t.db")
    timers = TableTimers(table, clock, tick_s=None)
    timers.start()
    timers.choose(TimerChoice(mode="turn", seconds=60, phase_seconds=120))
    clock.advance(30)
    facts = timers.facts()
    assert facts is not None and (facts.kind, facts.seat, facts.left_s) == ("phase", None, 90)
    assert facts.totals == (0, 0)  # the table's time, no one's
    status = table.status("en")["timer"]
    assert (status["kind"], status["left"], status["who"]) == ("phase", "1:30", "The whole table")
    assert status["text"] == "Everyone: time left in this phase"
    play_until(table, at_night)
    facts = timers.facts()
    assert facts is not None and (facts.kind, facts.seat, facts.left_s) == ("turn", 0, 60)
    timers.close()


def test_zero_buzzes_once_through_the_table_timers(tmp_path: Path, clock: ManualClock) -> None:
    table = new_table(tmp_path / "t.db")
    play_until(table, at_night)
    buzzes: list[str] = []
    timers = TableTimers(table, clock, on_zero=lambda: buzzes.append("timer"), tick_s=None)
    timers.start()
    timers.choose(TimerChoice(mode="turn", seconds=30))
    for _ in range(200):  # 40 s in steps of 0.2 s
        clock.advance(0.2)
        timers.step()
    assert buzzes == ["timer"]
    en, zh = table.status("en")["timer"], table.status("zh")["timer"]
    assert (en["over"], en["left"], en["text"]) == (
        True,
        "−0:10",
        "Player 1: time is up (the table decides)",
    )
    assert zh["text"].endswith("时间到(由大家决定怎么办)")
    timers.close()


def test_the_clocks_are_kept_in_the_save_and_go_on_after_it_is_opened_again(
    tmp_path: Path, clock: ManualClock
) -> None:
    path = tmp_path / "games.sqlite"
    table = new_table(path, "kept")
    play_until(table, at_night)
    following = example_moves()[len(table.saved.session.moves)]
    assert table.submit(move_from_dict(following)).accepted  # seat 0's turn goes on
    timers = TableTimers(table, clock, tick_s=None)
    timers.start()
    timers.choose(TimerChoice(mode="budget", seconds=600))
    clock.advance(KEEP_S * 4 + 0.5)  # 20.5 s of seat 0's time, counted in steps
    for _ in range(4):
        timers.step()
    undo_before = timers.facts()
    assert undo_before is not None and undo_before.totals[0] == pytest.approx(20.5)
    table.undo()  # an undo after the seconds: none of them comes back
    timers.close()
    table.saved.store.close()

    again = Table(Store.open(path).load("kept"))
    later = ManualClock(5.0)  # a restart: another clock, the time off not counted
    resumed = TableTimers(again, later, tick_s=None)
    resumed.start()
    facts = resumed.facts()
    assert facts is not None and facts.kind == "budget" and facts.seat == 0
    assert facts.totals[0] == pytest.approx(20.5)
    assert facts.left_s == pytest.approx(600 - 20.5)
    later.advance(9.5)
    facts = resumed.facts()
    assert facts is not None and facts.totals[0] == pytest.approx(30)
    resumed.close()


def test_damaged_clocks_are_ignored_with_a_reason(tmp_path: Path, clock: ManualClock) -> None:
    table = new_table(tmp_path / "t.db", "bad")
    table.saved.store.keep_clocks("bad", '{"v": 1, "choice": {"mode": "sundial"}}')
    timers = TableTimers(table, clock, tick_s=None)
    timers.start()
    assert timers.facts() is None  # off, as a game without timers
    assert timers.problem is not None and "choice.mode" in timers.problem
    with pytest.raises(ValueError, match="used"):
        Timers.read('{"v": 1, "used": "lots"}')


def test_the_drift_over_ten_minutes_of_ticks_is_nil(clock: ManualClock) -> None:
    """10 minutes counted in 3,000 ticks of 0.2 s (the table's tick) on the injected clock:
    the time shown is the clock's to within a microsecond (``docs/kiosk.md``, Timers)."""
    timers = Timers(clock)
    timers.choose(TimerChoice(mode="budget", seconds=3600), 1)
    timers.observe(turn(0))
    for _ in range(3000):
        clock.advance(0.2)
        timers.tick()
    facts = timers.facts()
    assert facts is not None
    assert abs(facts.totals[0] - 600) < 1e-6
    assert abs(facts.left_s - 3000) < 1e-6


def test_the_led_bar_runs_down_on_the_emulated_controller(
    tmp_path: Path, clock: ManualClock
) -> None:
    """The round track shows the timer's bar in the acting seat's colour: all 24 LEDs at the
    start, 12 at half time, blinking in the last 10 s, every LED blinking fast at zero."""
    table = new_table(tmp_path / "t.db")
    play_until(table, at_night)
    timers = TableTimers(table, clock, tick_s=None)
    timers.start()
    timers.choose(TimerChoice(mode="turn", seconds=48))
    leds = open_leds()
    assert leds.emulator is not None
    try:
        assert leds.link.wait_status(LinkStatus.CONNECTED, 10)
        colour = seat_colour(track_facts(table.facts()), 0)

        def shown_after(seconds: float) -> tuple[Any, ...]:
            clock.advance(seconds)
            timers.step()
            bar = track_leds(track_facts(table.facts(), timers.facts()), 24)
            leds.controller.track.show(bar)
            expected = tuple(bar)
            assert leds.emulator is not None
            assert leds.emulator.wait_for(lambda: leds.emulator.state.track == expected, 5)
            return tuple((led.colour, led.effect) for led in leds.emulator.state.track)

        full = shown_after(0)
        assert full == ((colour, Effect.SOLID),) * 24
        half = shown_after(24)
        assert half[:12] == ((colour, Effect.SOLID),) * 12
        assert {effect for _, effect in half[12:]} == {Effect.OFF}
        last = shown_after(15)  # 9 s left: 5 LEDs, blinking
        assert last[:5] == ((colour, Effect.BLINK),) * 5
        assert {effect for _, effect in last[5:]} == {Effect.OFF}
        over = shown_after(10)
        assert over == ((colour, Effect.BLINK),) * 24
        legend = track_legend(track_facts(table.facts(), timers.facts()), 24)
        assert legend[0] == {"kind": "timer", "seat": 0, "state": "over"}
        timers.pause(True)
        paused = track_leds(track_facts(table.facts(), timers.facts()), 24)
        assert paused[0].effect is Effect.BLINK  # the time is up: still up while paused
        assert colour != PHASE_COLOUR
    finally:
        leds.close()
        timers.close()


def test_the_undo_button_pauses_and_resumes_the_timer_while_the_menu_is_open(
    tmp_path: Path,
) -> None:
    """The table's own buttons (mock pins, ``kiosk.rig.TableHardware``): with the menu open,
    Undo pauses the timers and again resumes them; with the menu closed it is Undo."""
    import time

    from kiosk.app import create_app
    from kiosk.rig import TableHardware
    from kiosk.settings import load_settings
    from kiosk.table import open_table

    settings = load_settings(data_dir=tmp_path, lang="en", game="greenwood")
    settings.gpio.pin_factory = "mock"
    settings.simulation = False
    table, store = open_table(settings)
    head = json.loads(EXAMPLE.read_text().splitlines()[0])  # the example's game, its draws
    table.new_game("greenwood", head["setup"], "example", head["seed"])
    hardware = TableHardware(settings)
    hardware.open(create_app(settings, table, hardware=hardware))

    def paused_after_undo() -> bool | None:
        assert hardware.panel is not None and hardware.panel.undo is not None
        seq = table.seq
        hardware.panel.undo.pin.drive_low()
        hardware.panel.undo.pin.drive_high()
        deadline = time.monotonic() + 5  # gpiozero's thread acts on the press
        while table.seq == seq and time.monotonic() < deadline:
            time.sleep(0.01)
        facts = hardware.timers.facts() if hardware.timers else None
        return None if facts is None else facts.paused

    try:
        assert hardware.timers is not None
        hardware.timers.choose(TimerChoice(mode="turn", seconds=60, phase_seconds=60))
        assert table.submit(move_from_dict(example_moves()[0])).accepted
        assert paused_after_undo() is False  # menu closed: the move is taken back
        assert table.saved.session.moves == []
        table.toggle_menu(True)
        assert paused_after_undo() is True
        assert paused_after_undo() is False
        assert table.status("en")["timer"]["kind"] == "phase"
    finally:
        hardware.close()
        store.close()


STONESAGA = Path(__file__).parents[2] / "docs" / "examples" / "stonesaga.jsonl"


def stonesaga_table(path: Path) -> tuple[Table, list[dict[str, Any]]]:
    """A table of the Stonesaga example game (in a real SQLite save) and its moves."""
    lines = STONESAGA.read_text().splitlines()
    head = json.loads(lines[0])
    saved = Store.open(path).new_game("s", "stonesaga", head["setup"], head["seed"])
    return Table(saved), [json.loads(line) for line in lines[1:]]


@pytest.mark.parametrize("mode", ["turn", "budget"])
def test_a_free_phases_turn_is_timed_from_the_end_of_the_last_one(
    tmp_path: Path, clock: ManualClock, mode: str
) -> None:
    """Stonesaga's day is a free phase: any player may take the next turn
    (stonesaga.zh.md §白天阶段), and travel is taken outside the turns. The time before a
    seat's first move of its turn is that turn's: with no current player the clocks ran for
    nobody and the end box showed "0:00 · 0:00" (issue 38)."""
    table, moves = stonesaga_table(tmp_path / "s.db")
    timers = TableTimers(table, clock, tick_s=None)
    timers.start()
    timers.choose(TimerChoice(mode=mode, seconds=60))  # type: ignore[arg-type]
    for move in moves[:9]:  # the characters are made (one refused, rolled again): day opens
        table.submit(move_from_dict(move))
    assert table.saved.session.state.flow.phase == "day"
    clock.advance(12)
    facts = timers.facts()
    assert facts is not None
    if mode == "turn":  # the next turn's time runs, whoever takes it
        assert (facts.kind, facts.seat, facts.left_s) == ("turn", None, 48)
        assert table.status("en")["timer"]["text"] == "The whole table: time left this turn"
    else:  # whose budget it is, is not known before a move
        assert facts.kind is None
    assert moves[9]["type"] == "stonesaga.travel"  # outside the turns: the next turn's still
    assert table.submit(move_from_dict(moves[9])).accepted
    clock.advance(8)
    assert moves[10]["type"] == "stonesaga.mine"  # player 1 takes the turn
    assert table.submit(move_from_dict(moves[10])).accepted
    clock.advance(5)
    facts = timers.facts()
    assert facts is not None and (facts.kind, facts.seat) == (mode, 0)
    assert facts.totals == (25, 0)
    assert facts.left_s == 35  # a turn's minute, or a game's minute of budget, less 25 s
    timers.close()
