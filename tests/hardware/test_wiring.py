"""`tablesight run`'s hardware wired to a real table: mock-pin presses advance, undo and open
the menu; the buzzer answers; the emulated LED controller shows the dice pool and the round."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from fastapi import FastAPI

from engine.core import DicePoolAnnounced, Game, Phase, Step, Text, register_game
from firmware_bridge.state import Effect
from kiosk.app import create_app
from kiosk.leds import DIE_COLOURS, DONE_COLOUR, TRACK_COLOUR
from kiosk.rig import TableHardware
from kiosk.settings import load_settings
from kiosk.table import Table, open_table

WAIT_S = 5.0  # a bound on waiting for background threads, not a timing requirement


def roll(state: Any) -> tuple[Any, tuple]:
    return state, (DicePoolAnnounced(None, ("monster", "d6", "d6"), "attack"),)


def put_away(state: Any) -> tuple[Any, tuple]:
    return state, (DicePoolAnnounced(None, ()),)


class Trays(Game):
    """Two table phases: roll (two steps, three dice to roll), then rest (no dice)."""

    name: ClassVar[str] = "hw_trays"
    title: ClassVar[Text] = Text("骰盘", "Trays")
    rounds: ClassVar[int | None] = 5
    phases: ClassVar[tuple[Phase, ...]] = (
        Phase(
            "roll",
            Text("掷骰", "Roll"),
            steps=(Step("aim", Text("瞄准", "Aim")), Step("throw", Text("投掷", "Throw"))),
            on_begin=roll,
            starts_round=True,
        ),
        Phase("rest", Text("休息", "Rest"), on_begin=put_away, next="roll"),
    )


register_game(Trays())


def wait_until(condition, timeout: float = WAIT_S) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[tuple[Table, TableHardware]]:
    settings = load_settings(data_dir=tmp_path, lang="en", game="hw_trays")
    settings.gpio.pin_factory = "mock"
    settings.gpio.long_press_s = 0.05
    table, store = open_table(settings)
    hardware = TableHardware(settings)
    app: FastAPI = create_app(settings, table, hardware=hardware)
    hardware.open(app)
    try:
        yield table, hardware
    finally:
        hardware.close()
        hardware.close()  # idempotent
        store.close()


def pin(hardware: TableHardware, name: str) -> Any:
    assert hardware.panel is not None
    return getattr(hardware.panel, name).pin


def click(hardware: TableHardware, name: str) -> None:
    button = pin(hardware, name)
    button.drive_low()
    button.drive_high()


def beeps(hardware: TableHardware) -> int:
    return sum(1 for s in pin(hardware, "buzzer").states if s.state)


def test_presses_on_mock_pins_advance_undo_and_beep(rig: tuple[Table, TableHardware]) -> None:
    table, hardware = rig
    assert table.status("en")["step"]["name"] == "aim"
    click(hardware, "advance")
    assert table.status("en")["step"]["name"] == "throw"
    assert wait_until(lambda: beeps(hardware) == 1), "no 'accepted' beep"
    click(hardware, "advance")
    assert table.status("en")["phase"]["name"] == "rest"
    assert wait_until(lambda: beeps(hardware) == 1 + 3), "no 'phase change' tune"
    click(hardware, "undo")  # back over a phase: the first press asks (issue 24)
    assert table.status("en")["moves"] == 2 and table.status("en")["hint"] is not None
    click(hardware, "undo")  # the second press takes it back
    status = table.status("en")
    assert (status["phase"]["name"], status["step"]["name"], status["moves"]) == (
        "roll",
        "throw",
        1,
    )


def test_a_refused_press_plays_the_rejected_pattern(rig: tuple[Table, TableHardware]) -> None:
    table, hardware = rig
    for _ in range(3):
        click(hardware, "advance")  # roll: aim → throw → rest → next round's roll
    for moves in (3, 2):  # each of these goes back over a phase: asked, then done
        click(hardware, "undo")
        assert table.status("en")["moves"] == moves
        click(hardware, "undo")
        assert table.status("en")["moves"] == moves - 1
    click(hardware, "undo")  # aim ← throw: within the phase, at once
    assert table.status("en")["moves"] == 0
    pin(hardware, "buzzer").clear_states()
    click(hardware, "undo")  # nothing left to undo
    assert wait_until(lambda: beeps(hardware) == 2), "no 'rejected' pattern"
    assert table.status("en")["moves"] == 0


def test_a_long_press_opens_the_menu_and_the_menu_button_closes_it(
    rig: tuple[Table, TableHardware],
) -> None:
    table, hardware = rig
    advance = pin(hardware, "advance")
    advance.drive_low()
    assert wait_until(lambda: table.menu_open), "the long press did not open the menu"
    advance.drive_high()
    assert table.status("en")["moves"] == 0  # a long press does not advance
    click(hardware, "menu")
    assert not table.menu_open
    click(hardware, "menu")
    click(hardware, "advance")  # with the menu open, a short press closes it, and only that
    assert not table.menu_open and table.status("en")["moves"] == 0


def test_the_led_trays_mirror_the_dice_pool_and_the_track_the_round(
    rig: tuple[Table, TableHardware],
) -> None:
    table, hardware = rig
    emulator, leds = hardware.emulator, hardware.leds
    assert emulator is not None and leds is not None
    assert wait_until(lambda: table.status("en")["links"]["controller"]["state"] == "simulated")

    def showing(colours: list, round_: int) -> bool:
        state = emulator.state
        lit = [led.colour for led in state.trays[0] if led.effect is not Effect.OFF]
        rounds = [led for led in state.track[:round_] if led.effect is not Effect.OFF]
        return lit == colours and len(rounds) == round_ and rounds[-1].colour == TRACK_COLOUR

    dice = [DIE_COLOURS["monster"], DIE_COLOURS["d6"], DIE_COLOURS["d6"]]
    assert emulator.wait_for(lambda: showing(dice, 1), WAIT_S), emulator.state
    for _ in range(2):
        click(hardware, "advance")  # into rest: the trays go dark
    assert emulator.wait_for(lambda: showing([], 1), WAIT_S), emulator.state
    click(hardware, "advance")  # round 2: dice again, the track moves on
    assert emulator.wait_for(lambda: showing(dice, 2), WAIT_S), emulator.state
    assert emulator.state.track[1].colour == TRACK_COLOUR
    assert emulator.state.track[1].effect is Effect.PULSE
    assert emulator.state.track[0].colour == DONE_COLOUR  # round 1 is over


def test_the_status_led_blinks_fast_while_a_link_is_lost(rig: tuple[Table, TableHardware]) -> None:
    table, hardware = rig
    assert hardware.panel is not None and hardware.panel.led_mode == "heartbeat"
    table.set_link("camera", "lost", "camera:0: no frames")
    assert hardware.panel.led_mode == "error"
    table.set_link("camera", "ok", "camera:0: live")
    assert hardware.panel.led_mode == "heartbeat"


def test_a_pin_that_is_taken_leaves_the_kiosk_running_without_buttons(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = load_settings(data_dir=tmp_path, lang="en", game="hw_trays")
    settings.gpio.pin_factory = "mock"
    settings.gpio.undo_pin = settings.gpio.advance_pin  # a wiring mistake in the settings
    table, store = open_table(settings)
    hardware = TableHardware(settings)
    try:
        hardware.open(create_app(settings, table, hardware=hardware))
        assert hardware.panel is None and hardware.leds is not None
        assert "buttons not available: a pin is used twice" in capsys.readouterr().err
    finally:
        hardware.close()
        store.close()
