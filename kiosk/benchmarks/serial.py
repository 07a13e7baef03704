"""`tablesight bench serial`: the LED link against the emulator over a real pseudo-terminal.

Round-trip latency of a full dice-tray update (SET_SLOTS with every slot, until its ACK), commands
per second one after another, the same on a noisy line (1 % corrupted bytes, 5 % dropped frames),
and the time from plugging the controller back until it shows the desired state again. The link
uses its production settings (100 ms acknowledgement timeout, backoff 50 ms to 0.5 s).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from firmware_bridge.devices import LedController
from firmware_bridge.emulator import Emulator, Faults
from firmware_bridge.errors import CommandTimeout
from firmware_bridge.firmware import protocol as P
from firmware_bridge.link import Link, LinkStatus
from firmware_bridge.state import Effect
from kiosk.benchmarks import Figure

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
    return figures
