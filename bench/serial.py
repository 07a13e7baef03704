"""`tablesight bench serial`: the LED link against the emulator over a real pseudo-terminal.

Round-trip latency of a full dice-tray update (SET_SLOTS with every slot, until its ACK), commands
per second one after another, the same on a noisy line (1 % corrupted bytes, 5 % dropped frames),
and the time from plugging the controller back until it shows the desired state again. The link
uses its production settings (100 ms acknowledgement timeout, backoff 50 ms to 0.5 s).
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import firmware_bridge.firmware as firmware_pkg
from bench import Figure
from firmware_bridge.devices import LedController
from firmware_bridge.emulator import Emulator, Faults
from firmware_bridge.errors import CommandTimeout
from firmware_bridge.firmware import protocol as P
from firmware_bridge.link import Link, LinkStatus
from firmware_bridge.state import Effect

SUITE = "serial"


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def _round_trips(faults: Faults, count: int, label: str) -> list[Figure]:
    with Emulator(faults=faults) as emu, Link(emu.path) as link:
        if not link.wait_status(LinkStatus.CONNECTED, 5):
            raise RuntimeError(f"emulator did not connect: {link.problem}")
        times: list[float] = []
        failed = 0
        for i in range(count):
            colour = (i % 256, 255 - i % 256, 40)
            payload = P.pack_set_slots(0, 0, [(*colour, P.BLINK, 400)] * 8)
            start = time.perf_counter()
            try:
                link.send(P.SET_SLOTS, payload)
            except CommandTimeout:
                failed += 1  # counted; the device API would send the state again
            times.append(time.perf_counter() - start)
        retries = link.stats.retransmissions
    ms = [t * 1000 for t in times]
    note = f"{count} full-tray updates, {retries} retransmissions, {failed} gave up"
    return [
        Figure(SUITE, f"tray update round trip p50 ({label})", _percentile(ms, 50), "ms", note),
        Figure(SUITE, f"tray update round trip p95 ({label})", _percentile(ms, 95), "ms", note),
        Figure(SUITE, f"tray update round trip p99 ({label})", _percentile(ms, 99), "ms", note),
        Figure(SUITE, f"commands per second ({label})", count / sum(times), "cmd/s", note),
    ]


def _resync(repeats: int, unplugged_s: float) -> list[Figure]:
    with tempfile.TemporaryDirectory() as tmp:
        stable = Path(tmp) / "usb-tablesight-leds"
        with Emulator(link_path=stable) as emu, Link(str(stable)) as link:
            controller = LedController(link)
            try:
                took: list[float] = []
                for i in range(repeats):
                    controller.tray(0).light(1 + i % 8, (255, 160, 0), Effect.BLINK, 400)
                    controller.tray(1).light(8 - i % 8, (0, 80, 255), Effect.SPIN, 900)
                    controller.track.mark(i % 24, (0, 200, 255))
                    if not controller.wait_synced(5):
                        raise RuntimeError(f"state not delivered: {link.problem}")
                    want = emu.state
                    emu.unplug()
                    time.sleep(unplugged_s)
                    start = time.perf_counter()
                    emu.replug()
                    if not emu.wait_for_state(want, 10):
                        raise RuntimeError("state not restored after replug")
                    took.append(time.perf_counter() - start)
            finally:
                controller.close()
    ms = [t * 1000 for t in took]
    note = f"{repeats} replugs after {unplugged_s:g} s unplugged, 2 trays + track restored"
    return [
        Figure(SUITE, "re-sync after replug (median)", statistics.median(ms), "ms", note),
        Figure(SUITE, "re-sync after replug (worst)", max(ms), "ms", note),
    ]


_FIRMWARE_COST = """
import sys, time
sys.path.insert(0, ".")
import device, protocol as P
class Quiet:  # the hardware layer without hardware: only the firmware's own work is timed
    def write(self, data): pass
    def ticks_ms(self): return time.ticks_ms()
    def ticks_add(self, a, b): return time.ticks_add(a, b)
    def ticks_diff(self, a, b): return time.ticks_diff(a, b)
    def random16(self): return 1
    def show(self, trays, track): pass
    def state_changed(self, dev): pass
    def feed_watchdog(self): pass
d = device.Device(Quiet())
frame = P.encode_frame(P.SET_SLOTS, 1, P.pack_set_slots(0, 0, [(255, 160, 0, P.SPIN, 900)] * 8))
n = int(sys.argv[1])
t = time.ticks_us()
for i in range(n):
    d.feed(frame)
handle = time.ticks_diff(time.ticks_us(), t) / n
d.feed(P.encode_frame(P.SET_SLOTS, 2, P.pack_set_slots(1, 0, [(0, 80, 255, P.PULSE, 900)] * 8)))
d.feed(P.encode_frame(P.SET_TRACK, 3, P.pack_set_track(0, [(0, 200, 255, P.BLINK, 400)] * 24)))
t = time.ticks_us()
for i in range(n):
    d.render(i * 20)
render = time.ticks_diff(time.ticks_us(), t) / n
print(handle, render)
"""


def _firmware_costs(count: int) -> list[Figure]:
    """CPU time of the firmware's own work under the MicroPython unix port (x86-64)."""
    micropython = shutil.which("micropython", path=str(Path(sys.executable).parent))
    if micropython is None:
        print("bench serial: no micropython binary, firmware costs skipped", file=sys.stderr)
        return []
    firmware = Path(firmware_pkg.__file__).resolve().parent
    out = subprocess.run(
        [micropython, "-c", _FIRMWARE_COST, str(count)],
        cwd=firmware,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout.split()
    handle, render = (float(x) / 1000 for x in out)
    note = "MicroPython unix port on x86-64, not a Pico (125 MHz Cortex-M0+, far slower)"
    return [
        Figure(SUITE, "firmware: decode and apply a tray update", handle, "ms", note),
        Figure(SUITE, "firmware: render 40 animated LEDs", render, "ms", note + "; budget 20"),
    ]


def run(quick: bool) -> list[Figure]:
    """Measure the serial link; ``quick`` runs fewer commands and replugs."""
    count = 300 if quick else 3000
    figures: list[Figure] = []
    print("bench serial: clean line…", file=sys.stderr)
    figures += _round_trips(Faults(), count, "clean")
    print("bench serial: 1% corrupt bytes, 5% dropped frames…", file=sys.stderr)
    figures += _round_trips(Faults(corrupt=0.01, drop=0.05, seed=7), count // 3, "noisy")
    print("bench serial: replugs…", file=sys.stderr)
    figures += _resync(3 if quick else 10, 0.3 if quick else 1.5)
    print("bench serial: firmware under MicroPython…", file=sys.stderr)
    figures += _firmware_costs(200 if quick else 2000)
    return figures
