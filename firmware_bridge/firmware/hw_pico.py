"""Hardware layer for the Raspberry Pi Pico: USB CDC serial, WS2812 strips, watchdog."""

import os
import select
import sys
import time

import machine
import neopixel


class Hardware:
    """The real board: ``machine``, ``neopixel`` and USB CDC through sys.stdin/sys.stdout."""

    def __init__(self, config):
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._read = sys.stdin.buffer.read
        self._out = sys.stdout.buffer
        self._trays = [
            neopixel.NeoPixel(machine.Pin(pin), config.SLOTS_PER_TRAY) for pin in config.TRAY_PINS
        ]
        self._track = neopixel.NeoPixel(machine.Pin(config.TRACK_PIN), config.TRACK_LEDS)
        self._wdt = machine.WDT(timeout=config.WATCHDOG_MS)

    def reset_reason(self):
        """The protocol's RESET reason for this boot."""
        cause = machine.reset_cause()
        if cause == machine.WDT_RESET:
            return 2  # RESET_WATCHDOG
        if cause == machine.PWRON_RESET:
            return 1  # RESET_POWER_ON
        return 3  # RESET_SOFT

    def read(self, timeout_ms):
        """Bytes received within ``timeout_ms`` (never None: the board's loop runs forever)."""
        if not self._poll.poll(timeout_ms):
            return b""
        data = bytearray()
        while len(data) < 256 and self._poll.poll(0):
            data.extend(self._read(1))
        return bytes(data)

    def write(self, data):
        """Send bytes to the host over USB CDC."""
        self._out.write(data)

    def ticks_ms(self):
        """Milliseconds from boot (wraps)."""
        return time.ticks_ms()

    def ticks_add(self, ticks, delta):
        """``ticks + delta`` with wrap-around."""
        return time.ticks_add(ticks, delta)

    def ticks_diff(self, a, b):
        """``a - b`` with wrap-around."""
        return time.ticks_diff(a, b)

    def random16(self):
        """A random u16 (the boot id)."""
        raw = os.urandom(2)
        return raw[0] | raw[1] << 8

    def show(self, trays, track):
        """Write the rendered colours to the strips (about 30 µs per LED)."""
        for strip, colours in zip(self._trays, trays, strict=False):
            for i, colour in enumerate(colours):
                strip[i] = colour
            strip.write()
        for i, colour in enumerate(track):
            self._track[i] = colour
        self._track.write()

    def state_changed(self, device):
        """Nothing to do on the board."""

    def feed_watchdog(self):
        """Keep the watchdog from resetting the board."""
        self._wdt.feed()
