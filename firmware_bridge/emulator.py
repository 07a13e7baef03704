"""An emulated LED controller on a real pseudo-terminal, running the firmware's own code.

``python -m firmware_bridge.emulator`` opens a pseudo-terminal, prints the path to open, and serves
the protocol until Ctrl-C. In Python, :class:`Emulator` is easy to drive (``unplug``, ``replug``,
``reboot``, ``press_button``, ``stall``, fault injection) and to inspect (``state``, ``pixels``,
``history``, ``wait_for_state``, ``assert_state``).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import pty
import random
import select
import signal
import sys
import threading
import time
import tty
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from firmware_bridge.errors import BridgeError
from firmware_bridge.firmware import device as firmware
from firmware_bridge.firmware import protocol as P
from firmware_bridge.state import Colour, Effect, Led, LedState


class EmulatorError(BridgeError, RuntimeError):
    """The emulator was asked for something it cannot do in its current state."""


@dataclass(frozen=True)
class Faults:
    """Line faults the emulator injects. Rates are fractions (0.05 is 5 %)."""

    drop: float = 0.0
    """Fraction of received frames thrown away before the firmware sees them."""
    corrupt: float = 0.0
    """Fraction of bytes, in both directions, with one bit flipped."""
    delay_ms: float = 0.0
    """Added before every write to the host."""
    reset_after: int | None = None
    """Reboot in the middle of the frame with this number (counted from 1), once."""
    stall_after: int | None = None
    """Stop reading for ``stall_ms`` after this many frames, once."""
    stall_ms: float = 0.0
    seed: int | None = None


class _Hardware:
    """The firmware's hardware layer inside the emulator: the pty master, faults, recorded LEDs."""

    def __init__(self, emulator: Emulator, master: int) -> None:
        self.emulator = emulator
        self.master = master
        self.pending = b""

    # the interface of firmware/device.py
    def read(self, timeout_ms: int) -> bytes | None:
        """Received bytes (faults applied) within the timeout; None to stop the firmware loop."""
        return self.emulator._read(self, timeout_ms)

    def write(self, data: bytes) -> None:
        """Send to the host, with the configured delay and corruption."""
        self.emulator._write(self.master, data)

    def ticks_ms(self) -> int:
        """Milliseconds from an arbitrary origin."""
        return int(time.monotonic() * 1000)

    def ticks_add(self, ticks: int, delta: int) -> int:
        """``ticks + delta``."""
        return ticks + delta

    def ticks_diff(self, a: int, b: int) -> int:
        """``a - b``."""
        return a - b

    def random16(self) -> int:
        """A random u16 (the boot id)."""
        return random.getrandbits(16)

    def show(self, trays: list[list[Colour]], track: list[Colour]) -> None:
        """Record the rendered colours."""
        self.emulator._pixels = (tuple(tuple(t) for t in trays), tuple(track))

    def state_changed(self, device: firmware.Device) -> None:
        """Record the commanded LED state."""
        self.emulator._record(device)

    def feed_watchdog(self) -> None:
        """No watchdog in the emulator."""


class Emulator:
    """One emulated controller. ``start()`` it (or use ``with``), then open :attr:`path`."""

    def __init__(
        self,
        *,
        trays: int = 2,
        slots_per_tray: int = 8,
        track_leds: int = 24,
        max_brightness: int = 255,
        protocol_version: int = P.VERSION,
        faults: Faults | None = None,
        link_path: str | os.PathLike[str] | None = None,
    ) -> None:
        self.counts = (trays, slots_per_tray, track_leds, max_brightness)
        self.protocol_version = protocol_version
        self.link_path = Path(link_path) if link_path else None
        self._cond = threading.Condition()
        self._faults = faults or Faults()
        self._rng = random.Random(self._faults.seed)
        self._fault_frames = 0
        self._action: str | None = None
        self._calls: list[Callable[[firmware.Device], None]] = []
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._fds: tuple[int, int] | None = None
        self._pty_path = ""
        self._device: firmware.Device | None = None
        self._stalled_until = 0.0
        self._pixels: tuple[tuple[tuple[Colour, ...], ...], tuple[Colour, ...]] = ((), ())
        self._thread: threading.Thread | None = None
        self._closed = False
        self.history: list[LedState] = []
        """Every commanded LED state in order, starting with the dark state of each boot."""
        self.frames_received = 0
        self.frames_dropped = 0
        self.boots = 0

    # --- life cycle ----------------------------------------------------------------------------

    def start(self) -> Emulator:
        """Open the pseudo-terminal and boot the controller; returns self."""
        if self._thread is not None:
            raise EmulatorError("emulator already started")
        self._plug()
        self._thread = threading.Thread(target=self._serve, name="led-emulator", daemon=True)
        self._thread.start()
        self.wait_for(lambda: self.boots > 0, 5.0)
        return self

    def close(self) -> None:
        """Stop the controller and close the pseudo-terminal; idempotent."""
        if self._closed:
            return
        self._closed = True
        self._request("close")
        if self._thread is not None:
            self._thread.join(5.0)
        self._unplug_fds()
        os.close(self._wake_r)
        os.close(self._wake_w)

    def __enter__(self) -> Emulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def path(self) -> str:
        """What the host opens: the stable link if one was asked for, else the current pty."""
        return str(self.link_path) if self.link_path else self._pty_path

    @property
    def pty_path(self) -> str:
        """The current pseudo-terminal (it changes at every replug)."""
        return self._pty_path

    @property
    def plugged(self) -> bool:
        """Whether the pseudo-terminal is open."""
        return self._fds is not None

    # --- stimulus ------------------------------------------------------------------------------

    def unplug(self) -> None:
        """Pull the cable: the firmware stops, the pty closes (the host sees an I/O error) and the
        stable link disappears, so that nobody opens a recycled pty number through it."""
        self._request("unplug")
        self.wait_for(lambda: not self.plugged, 5.0)

    def replug(self) -> None:
        """Plug the cable back: a new pty (the stable link follows it), the controller powers on."""
        if self.plugged:
            raise EmulatorError("replug() needs unplug() first")
        boots = self.boots
        self._request("replug")
        self.wait_for(lambda: self.boots > boots, 5.0)

    def reboot(self) -> None:
        """Reset the controller on the same line: its LED state is lost and it sends RESET."""
        boots = self.boots
        self._request("reboot")
        self.wait_for(lambda: self.boots > boots, 5.0)

    def press_button(self, index: int = 0) -> None:
        """The controller sends an EVENT for button ``index``."""
        self._call(lambda d: d.emit_event(P.EV_BUTTON, index, 1))

    def inject(self, data: bytes) -> None:
        """Write raw bytes to the host, as line noise would (corruption faults not applied)."""
        fds = self._fds
        if fds is None:
            raise EmulatorError("unplugged: nothing to inject into")
        with contextlib.suppress(OSError):
            os.write(fds[0], data)

    def stall(self, ms: float) -> None:
        """The controller stops reading for ``ms`` milliseconds (as if busy or hung)."""
        self._stalled_until = time.monotonic() + ms / 1000
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"s")

    def set_faults(self, faults: Faults) -> None:
        """Change the injected faults from now on."""
        with self._cond:
            self._faults = faults
            self._rng = random.Random(faults.seed)
            self._fault_frames = 0

    # --- inspection ----------------------------------------------------------------------------

    @property
    def state(self) -> LedState:
        """The LED state the controller was last commanded to show."""
        with self._cond:
            if not self.history:
                raise EmulatorError("the controller has not booted yet")
            return self.history[-1]

    @property
    def pixels(self) -> tuple[tuple[tuple[Colour, ...], ...], tuple[Colour, ...]]:
        """The last rendered colours: (trays, track), effects and brightness applied."""
        return self._pixels

    def clear_history(self) -> None:
        """Forget all but the current state."""
        with self._cond:
            del self.history[:-1]

    def wait_for(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Wait until ``predicate()`` is true (re-checked at every state change); its last value."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not predicate():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 0.05))
            return True

    def wait_for_state(self, expected: LedState, timeout: float = 5.0) -> bool:
        """Wait until the commanded state equals ``expected``."""
        return self.wait_for(lambda: bool(self.history) and self.history[-1] == expected, timeout)

    def assert_state(self, expected: LedState, timeout: float = 5.0) -> None:
        """Fail with a readable difference unless the state becomes ``expected`` in time."""
        if not self.wait_for_state(expected, timeout):
            raise AssertionError(
                f"LED state differs:\n  expected {expected}\n  actual   {self.state}"
            )

    def assert_tray(self, index: int, leds: list[Led], timeout: float = 5.0) -> None:
        """Fail unless tray ``index`` comes to show ``leds``."""
        expected = tuple(leds)
        if not self.wait_for(lambda: self.state.trays[index] == expected, timeout):
            raise AssertionError(f"tray {index} shows {self.state.trays[index]}, not {expected}")

    # --- the serving thread ----------------------------------------------------------------------

    def _plug(self) -> None:
        master, slave = pty.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._fds = (master, slave)
        self._pty_path = os.ttyname(slave)
        if self.link_path:
            tmp = self.link_path.with_name(self.link_path.name + ".new")
            tmp.unlink(missing_ok=True)
            tmp.symlink_to(self._pty_path)
            tmp.replace(self.link_path)

    def _unplug_fds(self) -> None:
        fds, self._fds = self._fds, None
        if fds:
            for fd in fds:
                with contextlib.suppress(OSError):
                    os.close(fd)
        if self.link_path:  # as udev removes /dev/serial/by-id/… when the cable is pulled
            self.link_path.unlink(missing_ok=True)
        with self._cond:
            self._cond.notify_all()

    def _request(self, action: str) -> None:
        with self._cond:
            self._action = action
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"a")

    def _call(self, fn: Callable[[firmware.Device], None]) -> None:
        with self._cond:
            self._calls.append(fn)
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"c")

    def _serve(self) -> None:
        reason = P.RESET_POWER_ON
        while True:
            if self._fds is not None:
                hw = _Hardware(self, self._fds[0])
                trays, slots, track, top = self.counts
                device = firmware.Device(hw, trays, slots, track, top, self.protocol_version)
                self._device = device
                with self._cond:
                    self._record(device)
                    self.boots += 1
                device.run(reason)
            with self._cond:
                action, self._action = self._action, None
                if action is None:
                    self._cond.wait(0.05)
                    continue
            with contextlib.suppress(BlockingIOError):
                os.read(self._wake_r, 64)
            if action == "close":
                return
            if action == "unplug":
                self._unplug_fds()
            elif action == "replug" and self._fds is None:
                self._plug()
            reason = P.RESET_SOFT if action == "reboot" else P.RESET_POWER_ON

    def _record(self, device: firmware.Device) -> None:
        state = LedState(
            tuple(tuple(Led.from_wire(led) for led in row) for row in device.slots),
            tuple(Led.from_wire(led) for led in device.track),
            device.brightness,
        )
        with self._cond:
            if not self.history or self.history[-1] != state:
                self.history.append(state)
            self._cond.notify_all()

    def _read(self, hw: _Hardware, timeout_ms: int) -> bytes | None:
        with self._cond:
            calls, self._calls = self._calls, []
            if self._action is not None:
                return None
        device = self._device
        assert device is not None  # only the running device's own loop reads its line
        for fn in calls:
            fn(device)
        stalled = self._stalled_until - time.monotonic()
        if stalled > 0:
            ready, _, _ = select.select([self._wake_r], [], [], min(stalled, timeout_ms / 1000))
            if ready:
                os.read(self._wake_r, 64)
            return b""
        ready, _, _ = select.select([hw.master, self._wake_r], [], [], timeout_ms / 1000)
        if self._wake_r in ready:
            with contextlib.suppress(BlockingIOError):
                os.read(self._wake_r, 64)
        if hw.master not in ready:
            return b""
        try:
            data = os.read(hw.master, 256)
        except BlockingIOError:
            return b""
        except OSError:
            return None
        return self._receive(hw, data)

    def _receive(self, hw: _Hardware, data: bytes) -> bytes | None:
        """Apply the faults to received bytes; deliver only whole frames (dropping some)."""
        faults = self._faults
        if faults.corrupt:
            data = self._corrupt(data)
        buffer = hw.pending + data
        *frames, hw.pending = buffer.split(P.DELIMITER)
        out = bytearray()
        for frame in frames:
            if not frame:
                out += P.DELIMITER
                continue
            self.frames_received += 1
            self._fault_frames += 1
            n = self._fault_frames
            if faults.reset_after == n:  # the count goes on across the reboot: this fires once
                out += frame[: len(frame) // 2]  # the reset cuts this frame in half
                self.frames_dropped += 1
                hw.pending = b""
                if out:
                    self._device.feed(bytes(out))  # type: ignore[union-attr]
                self._request("reboot")
                return None
            if faults.stall_after == n:
                self._stalled_until = time.monotonic() + faults.stall_ms / 1000
            if faults.drop and self._rng.random() < faults.drop:
                self.frames_dropped += 1
                continue
            out += frame + P.DELIMITER
        return bytes(out)

    def _corrupt(self, data: bytes) -> bytes:
        rate = self._faults.corrupt
        out = bytearray(data)
        for i in range(len(out)):
            if self._rng.random() < rate:
                out[i] ^= 1 << self._rng.randrange(8)
        return bytes(out)

    def _write(self, master: int, data: bytes) -> None:
        faults = self._faults
        if faults.delay_ms:
            time.sleep(faults.delay_ms / 1000)
        if faults.corrupt:
            data = self._corrupt(data)
        with contextlib.suppress(OSError):  # full buffer (nobody reading) or closed: lost bytes
            os.write(master, data)


def main(argv: list[str] | None = None) -> int:
    """Serve an emulated controller on a pseudo-terminal until Ctrl-C."""
    parser = argparse.ArgumentParser(
        prog="python -m firmware_bridge.emulator", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--link", help="also keep this symlink pointing at the pty")
    parser.add_argument("--trays", type=int, default=2)
    parser.add_argument("--slots", type=int, default=8, help="slots per tray")
    parser.add_argument("--track", type=int, default=24, help="round-track LEDs")
    parser.add_argument("--drop", type=float, default=0.0, metavar="PERCENT")
    parser.add_argument("--corrupt", type=float, default=0.0, metavar="PERCENT")
    parser.add_argument("--delay", type=float, default=0.0, metavar="MS")
    parser.add_argument("--reset-after", type=int, metavar="FRAMES")
    parser.add_argument("--stall-after", type=int, metavar="FRAMES")
    parser.add_argument("--stall", type=float, default=0.0, metavar="MS")
    parser.add_argument("--show", action="store_true", help="print every LED state change")
    args = parser.parse_args(argv)
    for name in ("drop", "corrupt"):
        if not 0 <= getattr(args, name) <= 100:
            parser.error(f"--{name} is a percentage, 0 to 100")
    if min(args.trays, args.slots, args.track) < 0 or max(args.trays, args.slots) > 255:
        parser.error("LED counts must be between 0 and 255")
    faults = Faults(
        drop=args.drop / 100,
        corrupt=args.corrupt / 100,
        delay_ms=args.delay,
        reset_after=args.reset_after,
        stall_after=args.stall_after,
        stall_ms=args.stall,
    )
    emulator = Emulator(
        trays=args.trays,
        slots_per_tray=args.slots,
        track_leds=args.track,
        faults=faults,
        link_path=args.link,
    )
    signal.signal(signal.SIGTERM, _stop)
    with emulator:
        print(emulator.path, flush=True)
        seen = 0
        try:
            while True:
                emulator.wait_for(functools.partial(_grown, emulator, seen), 1.0)
                if args.show and len(emulator.history) > seen:
                    seen = len(emulator.history)
                    print(describe(emulator.state), flush=True)
        except KeyboardInterrupt:
            pass
    return 0


def _grown(emulator: Emulator, seen: int) -> bool:
    """Whether the emulator's LED history has grown past ``seen`` states."""
    return len(emulator.history) > seen


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def describe(state: LedState) -> str:
    """One line per tray and one for the track, for people watching the emulator."""

    def _led(x: Led) -> str:
        if x.effect == Effect.OFF:
            return "·"
        return "#{:02x}{:02x}{:02x}".format(*x.colour) + (
            "" if x.effect == Effect.SOLID else f"/{x.effect.name.lower()}{x.period_ms}"
        )

    lines = [f"tray {i}: " + " ".join(_led(x) for x in row) for i, row in enumerate(state.trays)]
    lines.append("track: " + " ".join(_led(x) for x in state.track))
    lines.append(f"brightness: {state.brightness}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
