"""The LED controller's firmware: protocol loop, LED state and effects.

Runs unchanged under MicroPython (on the Pico, and on the unix port in tests) and under CPython
(inside the emulator). Everything physical goes through a hardware layer ``hw`` with:

- ``read(timeout_ms)`` -> bytes received (``b""`` on timeout, ``None`` when the loop must stop),
- ``write(data)``, ``ticks_ms()``, ``ticks_add(t, ms)``, ``ticks_diff(a, b)``, ``random16()``,
- ``show(trays, track)`` -> put rendered colours on the strips,
- ``state_changed(device)`` -> called after every command that changed the LED state,
- ``feed_watchdog()``.

See ``hw_pico.py`` (the real board) and ``hw_unix.py`` (the MicroPython unix port).
"""

try:
    from . import protocol as P
except ImportError:  # on the board, and under the unix port, files sit side by side
    import protocol as P  # type: ignore[no-redef]  # the same module, found as MicroPython does

FIRMWARE_VERSION = (1, 0, 0)
RENDER_MS = 20
"""Effects are rendered every 20 ms (50 Hz)."""
READ_BUDGET = 256
"""At most this many bytes are handled between two renders, so a flood never starves effects."""
EVENT_RETRY_MS = 200
EVENT_TRIES = 5
"""An EVENT is sent up to 5 times, 200 ms apart, until the host acknowledges it."""
DARK = (0, 0, 0)
OFF_LED = (0, 0, 0, P.OFF, 0)


class Device:
    """One LED controller: decodes frames, applies commands, answers, renders effects."""

    def __init__(
        self,
        hw,
        trays=2,
        slots_per_tray=8,
        track_leds=24,
        max_brightness=255,
        protocol_version=P.VERSION,
    ):
        self.hw = hw
        self.trays = trays
        self.slots_per_tray = slots_per_tray
        self.track_leds = track_leds
        self.max_brightness = max_brightness
        self.protocol_version = protocol_version
        self.boot_id = hw.random16()
        self.started = hw.ticks_ms()
        self.deframer = P.Deframer()
        self.seq = 0
        self.slots = [[OFF_LED] * slots_per_tray for _ in range(trays)]
        self.track = [OFF_LED] * track_leds
        self.brightness = max_brightness
        self.frames = 0
        self.errors = 0
        self.unacked = {}  # EVENT seq -> [frame bytes, when to resend, tries so far]
        self._last_render = None

    def capabilities(self):
        """What this controller reports at HELLO_ACK and RESET."""
        return P.Capabilities(
            self.protocol_version,
            FIRMWARE_VERSION,
            self.trays,
            self.slots_per_tray,
            self.track_leds,
            self.max_brightness,
            self.boot_id,
        )

    # --- sending -------------------------------------------------------------------------------

    def send(self, msg_type, payload=b"", seq=None):
        """Write one frame; unsolicited frames take the device's own sequence numbers."""
        if seq is None:
            self.seq = self.seq % 0xFFFF + 1
            seq = self.seq
        self.hw.write(P.encode_frame(msg_type, seq, payload, self.protocol_version))

    def announce_boot(self, reason=P.RESET_POWER_ON):
        """Tell the host that this controller has just started, with empty LED state."""
        self.hw.write(P.DELIMITER)
        self.send(P.RESET, P.pack_reset(reason, self.capabilities()))

    def emit_event(self, kind, index, value):
        """Send an EVENT (a button press); resent until acknowledged."""
        self.seq = self.seq % 0xFFFF + 1
        data = P.encode_frame(P.EVENT, self.seq, P.pack_event(kind, index, value))
        self.hw.write(data)
        due = self.hw.ticks_add(self.hw.ticks_ms(), EVENT_RETRY_MS)
        self.unacked[self.seq] = [data, due, 1]

    def resend_events(self, now):
        """Resend every EVENT whose acknowledgement is overdue; drop it after EVENT_TRIES."""
        for seq in list(self.unacked):
            entry = self.unacked[seq]
            if self.hw.ticks_diff(now, entry[1]) < 0:
                continue
            if entry[2] >= EVENT_TRIES:
                del self.unacked[seq]
                continue
            self.hw.write(entry[0])
            entry[1] = self.hw.ticks_add(now, EVENT_RETRY_MS)
            entry[2] += 1

    # --- receiving -----------------------------------------------------------------------------

    def feed(self, data):
        """Handle received bytes: every complete frame is answered with ACK, NACK or a reply."""
        for item in self.deframer.feed(data):
            if isinstance(item, P.Frame):
                self.frames += 1
                self.handle(item)
            else:
                self.errors += 1
                self.send(P.NACK, P.pack_nack(item.code), P.UNKNOWN_SEQ)

    def handle(self, frame):
        """Apply one decoded frame and answer it."""
        t = frame.type
        if frame.version != self.protocol_version and t != P.HELLO:
            self.errors += 1
            self.send(P.NACK, P.pack_nack(P.E_BAD_VERSION, self.protocol_version), frame.seq)
            return
        try:
            if t == P.HELLO:
                P.unpack_hello(frame.payload)
                self.send(P.HELLO_ACK, self.capabilities().pack(), frame.seq)
                return
            if t == P.PING:
                uptime = self.hw.ticks_diff(self.hw.ticks_ms(), self.started)
                self.send(P.PONG, P.pack_pong(self.boot_id, uptime), frame.seq)
                return
            if t == P.SET_SLOTS:
                self._set_slots(*P.unpack_set_slots(frame.payload))
            elif t == P.SET_TRACK:
                self._set_track(*P.unpack_set_track(frame.payload))
            elif t == P.BRIGHTNESS:
                level = P.unpack_brightness(frame.payload)
                if level > self.max_brightness:
                    raise P.PayloadError("brightness above the maximum", P.E_OUT_OF_RANGE)
                self.brightness = level
            elif t == P.CLEAR:
                P.check_empty(frame.payload, "CLEAR")
                self.slots = [[OFF_LED] * self.slots_per_tray for _ in range(self.trays)]
                self.track = [OFF_LED] * self.track_leds
            elif t == P.ACK:
                self.unacked.pop(frame.seq, None)  # the host has the EVENT
                return
            elif t == P.NACK:
                return
            else:
                raise P.PayloadError("unknown message type", P.E_UNKNOWN_TYPE)
        except P.PayloadError as exc:
            self.errors += 1
            self.send(P.NACK, P.pack_nack(exc.code), frame.seq)
            return
        self.hw.state_changed(self)  # before the ACK: once acknowledged, the state is visible
        self.send(P.ACK, b"", frame.seq)

    def _set_slots(self, tray, start, leds):
        if tray >= self.trays or start + len(leds) > self.slots_per_tray:
            raise P.PayloadError("no such tray or slot", P.E_OUT_OF_RANGE)
        row = self.slots[tray]
        for i, led in enumerate(leds):
            row[start + i] = tuple(led)

    def _set_track(self, start, leds):
        if start + len(leds) > self.track_leds:
            raise P.PayloadError("no such track LED", P.E_OUT_OF_RANGE)
        for i, led in enumerate(leds):
            self.track[start + i] = tuple(led)

    # --- rendering -----------------------------------------------------------------------------

    def render(self, now):
        """Compute every LED's colour at ``now`` (ms) and show it if anything changed."""
        scale = self.brightness
        trays = [_render_row(row, now, scale) for row in self.slots]
        track = _render_row(self.track, now, scale)
        frame = (trays, track)
        if frame != self._last_render:
            self._last_render = frame
            self.hw.show(trays, track)

    def run(self, reason=P.RESET_POWER_ON):
        """The firmware's main loop: announce the boot, then read, answer and render forever.

        Returns when ``hw.read`` returns None (the unix port's host went away, or the emulator
        unplugs or reboots this device).
        """
        hw = self.hw
        self.announce_boot(reason)
        next_render = hw.ticks_ms()
        while True:
            now = hw.ticks_ms()
            wait = hw.ticks_diff(next_render, now)
            if wait > 0:
                data = hw.read(wait)
                if data is None:
                    return
                if data:
                    self.feed(data)
                continue
            self.render(now)
            if self.unacked:
                self.resend_events(now)
            hw.feed_watchdog()
            next_render = hw.ticks_add(next_render, RENDER_MS)
            if hw.ticks_diff(now, next_render) > RENDER_MS:
                next_render = hw.ticks_add(now, RENDER_MS)  # fell behind: skip, do not burst


def _render_row(row, now, scale):
    return [_render_led(led, i, len(row), now, scale) for i, led in enumerate(row)]


def _render_led(led, index, count, now, scale):
    """The colour of one LED at time ``now``: effect applied, then global brightness."""
    r, g, b, effect, period = led
    if effect == P.OFF:
        return DARK
    level = 255
    if effect == P.BLINK:
        level = 255 if now % period < period // 2 else 0
    elif effect == P.PULSE:
        phase = (now % period) * 510 // period
        level = phase if phase <= 255 else 510 - phase
    elif effect == P.SPIN:
        # a bright head travels once round the row per period, with a fading tail
        head = (now % period) * count // period
        distance = (head - index) % count
        level = 255 >> min(distance * 2, 8) if distance < 4 else 0
    level = level * scale // 255
    return (r * level // 255, g * level // 255, b * level // 255)
