"""Hardware layer for the MicroPython unix port: the serial line is stdin/stdout.

Used by tests (stdin and stdout are a pseudo-terminal) to run the real firmware under real
MicroPython. There are no LEDs: every change of the commanded LED state is written to stderr
as one JSON line ``{"trays": [...], "track": [...], "brightness": N}``.
"""

import json
import os
import select
import sys
import time


class Hardware:
    """stdin/stdout as the serial line, stderr as the LED state log."""

    def __init__(self):
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._read = sys.stdin.buffer.read
        self._out = sys.stdout.buffer

    def read(self, timeout_ms):
        """Bytes available within ``timeout_ms``; None once the other end hung up."""
        events = self._poll.poll(timeout_ms)
        if not events:
            return b""
        if events[0][1] & (select.POLLHUP | select.POLLERR):
            return None
        data = bytearray()
        while len(data) < 256 and self._poll.poll(0):
            byte = self._read(1)
            if not byte:
                return None
            data.extend(byte)
        return bytes(data)

    def write(self, data):
        """Send bytes to the host."""
        self._out.write(data)
        self._out.flush()

    def ticks_ms(self):
        """Milliseconds from an arbitrary origin (wraps)."""
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
        """No LEDs on the unix port."""

    def state_changed(self, device):
        """Log the commanded state as one JSON line on stderr."""
        state = {"trays": device.slots, "track": device.track, "brightness": device.brightness}
        sys.stderr.write(json.dumps(state) + "\n")

    def feed_watchdog(self):
        """No watchdog on the unix port."""
