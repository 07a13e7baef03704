"""The emulator: its command line, its inspection helpers, and the firmware's rendering."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tty
from collections.abc import Callable
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


LED = (1, 2, 3, P.SOLID, 0)
BAD_CRC = P.cobs_encode(b"\x01\x20\x19\x00\xde\xad\xbe\xef") + P.DELIMITER
ANSWERS = {  # frame sent: (answer type, NACK code, answer's sequence number)
    "hello from another version": (
        P.encode_frame(P.HELLO, 10, P.pack_hello(9)),
        P.HELLO_ACK,
        0,
        10,
    ),
    "ping": (P.encode_frame(P.PING, 11), P.PONG, 0, 11),
    "last slot": (P.encode_frame(P.SET_SLOTS, 12, P.pack_set_slots(1, 7, [LED])), P.ACK, 0, 12),
    "past the last slot": (
        P.encode_frame(P.SET_SLOTS, 13, P.pack_set_slots(1, 7, [LED, LED])),
        P.NACK,
        P.E_OUT_OF_RANGE,
        13,
    ),
    "no such tray": (
        P.encode_frame(P.SET_SLOTS, 14, P.pack_set_slots(2, 0, [LED])),
        P.NACK,
        P.E_OUT_OF_RANGE,
        14,
    ),
    "short entry": (P.encode_frame(P.SET_SLOTS, 15, b"\0\0\1\2"), P.NACK, P.E_BAD_LENGTH, 15),
    "last track LED": (P.encode_frame(P.SET_TRACK, 16, P.pack_set_track(23, [LED])), P.ACK, 0, 16),
    "past the track": (
        P.encode_frame(P.SET_TRACK, 17, P.pack_set_track(24, [LED])),
        P.NACK,
        P.E_OUT_OF_RANGE,
        17,
    ),
    "unknown effect": (
        P.encode_frame(P.SET_TRACK, 18, b"\0\0" + bytes([1, 2, 3, 9, 0, 0])),
        P.NACK,
        P.E_OUT_OF_RANGE,
        18,
    ),
    "brightness": (P.encode_frame(P.BRIGHTNESS, 19, b"\x80"), P.ACK, 0, 19),
    "brightness without level": (P.encode_frame(P.BRIGHTNESS, 20), P.NACK, P.E_BAD_LENGTH, 20),
    "clear": (P.encode_frame(P.CLEAR, 21), P.ACK, 0, 21),
    "clear with payload": (P.encode_frame(P.CLEAR, 22, b"\1"), P.NACK, P.E_BAD_LENGTH, 22),
    "unknown type": (P.encode_frame(0x55, 23), P.NACK, P.E_UNKNOWN_TYPE, 23),
    "other version": (P.encode_frame(P.PING, 24, version=2), P.NACK, P.E_BAD_VERSION, 24),
    "bad CRC": (BAD_CRC, P.NACK, P.E_BAD_CRC, P.UNKNOWN_SEQ),
    "bad COBS": (b"\x05\x01\x00", P.NACK, P.E_BAD_FRAME, P.UNKNOWN_SEQ),
    "too short": (b"\x02\x01\x00", P.NACK, P.E_BAD_LENGTH, P.UNKNOWN_SEQ),
}


@pytest.mark.parametrize(("frame", "reply", "code", "seq"), ANSWERS.values(), ids=ANSWERS)
def test_the_firmware_answers_every_frame(
    emulator: Emulator,
    read_frames: Callable[..., list[P.Frame]],
    frame: bytes,
    reply: int,
    code: int,
    seq: int,
) -> None:
    fd = os.open(emulator.path, os.O_RDWR | os.O_NOCTTY)
    try:
        tty.setraw(fd)
        os.write(fd, frame + P.encode_frame(P.PING, 999))  # the PONG to 999 ends the answers
        frames = read_frames(fd, lambda fs: any(f.seq == 999 for f in fs))
    finally:
        os.close(fd)
    answers = [f for f in frames if f.type != P.RESET and f.seq != 999]
    assert [(f.type, f.seq) for f in answers] == [(reply, seq)]
    if reply == P.NACK:
        assert P.unpack_nack(answers[0].payload)[0] == code
    if code == P.E_BAD_VERSION:
        assert P.unpack_nack(answers[0].payload)[1] == P.VERSION
