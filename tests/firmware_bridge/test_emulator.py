"""The emulator: its command line, its inspection helpers, and the firmware's rendering."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge.emulator import Emulator, EmulatorError
from firmware_bridge.firmware import device
from firmware_bridge.firmware import protocol as P
from firmware_bridge.link import Link, LinkStatus
from firmware_bridge.state import Effect, Led


def test_the_command_prints_a_path_that_speaks_the_protocol(tmp_path: Path) -> None:
    stable = tmp_path / "leds"
    proc = subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge.emulator", "--link", str(stable), "--show"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        path = proc.stdout.readline().strip()
        assert path == str(stable) and os.path.realpath(path).startswith("/dev/pts/")
        with Link(path, ack_timeout=0.05) as link:
            assert link.wait_status(LinkStatus.CONNECTED, 10), link.problem
            link.send(P.SET_SLOTS, P.pack_set_slots(1, 2, [(255, 0, 0, P.SOLID, 0)]))
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err
    assert "tray 1: · · #ff0000 ·" in out
    assert not stable.exists()  # the stable link goes away with the emulator


def test_the_command_refuses_bad_options_clearly() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "firmware_bridge.emulator", "--drop", "150"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert proc.returncode == 2
    assert "--drop is a percentage" in proc.stderr and "Traceback" not in proc.stderr


def test_state_history_and_asserts(emulator: Emulator, link: Link) -> None:
    red = Led((255, 0, 0))
    link.send(P.SET_SLOTS, P.pack_set_slots(0, 0, [red.wire()] * 2))
    emulator.assert_tray(0, [red, red] + [Led((0, 0, 0), Effect.OFF)] * 6)
    assert len(emulator.history) == 2  # the dark state at boot, then this one
    with pytest.raises(AssertionError, match="tray 1 shows"):
        emulator.assert_tray(1, [red], timeout=0.1)
    emulator.clear_history()
    assert emulator.history == [emulator.state]


def test_replug_needs_an_unplug_first(emulator: Emulator) -> None:
    with pytest.raises(EmulatorError, match="unplug"):
        emulator.replug()
    emulator.unplug()
    with pytest.raises(EmulatorError, match="unplugged"):
        emulator.inject(b"x")


def test_effects_are_rendered_over_time(emulator: Emulator, link: Link) -> None:
    blink = (0, 255, 0, P.BLINK, 200)
    link.send(P.SET_TRACK, P.pack_set_track(3, [blink]))
    assert emulator.wait_for(lambda: emulator.pixels[1][3] == (0, 255, 0), 5)
    assert emulator.wait_for(lambda: emulator.pixels[1][3] == (0, 0, 0), 5)


@pytest.mark.parametrize(
    ("led", "now", "colour"),
    [
        ((200, 100, 50, P.SOLID, 0), 1234, (200, 100, 50)),
        ((200, 100, 50, P.OFF, 0), 0, (0, 0, 0)),
        ((255, 255, 255, P.BLINK, 1000), 499, (255, 255, 255)),
        ((255, 255, 255, P.BLINK, 1000), 500, (0, 0, 0)),
        ((255, 0, 0, P.PULSE, 1000), 0, (0, 0, 0)),
        ((255, 0, 0, P.PULSE, 1000), 500, (255, 0, 0)),
        ((255, 0, 0, P.PULSE, 1000), 250, (127, 0, 0)),
    ],
)
def test_each_effect_at_a_given_time(led: tuple, now: int, colour: tuple) -> None:
    assert device._render_led(led, 0, 8, now, 255) == colour


def test_spin_lights_a_head_that_travels_round_the_tray() -> None:
    led = (0, 0, 255, P.SPIN, 800)  # one slot per 100 ms on a tray of 8
    heads = []
    for now in range(0, 800, 100):
        row = [device._render_led(led, i, 8, now, 255) for i in range(8)]
        heads.append(row.index(max(row, key=lambda c: c[2])))
    assert heads == list(range(8))


def test_brightness_scales_every_colour() -> None:
    assert device._render_led((200, 100, 50, P.SOLID, 0), 0, 1, 0, 128) == (100, 50, 25)
