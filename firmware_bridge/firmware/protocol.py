"""The tablesight serial protocol: COBS framing, CRC-32, header, and every payload.

This one file is shared, unchanged, by the host (CPython) and the LED controller (MicroPython on a
Raspberry Pi Pico). It therefore uses only ``binascii`` and ``struct``: no dataclasses, no enum, no
typing imports at run time. The wire format is specified in ``docs/protocol.md``.

A frame on the wire is ``COBS(header + payload + crc32) + b"\\x00"`` where the header is
``version u8, type u8, seq u16`` (little-endian) and the CRC-32 covers header and payload.

>>> frame = decode_frame(encode_frame(PING, 7)[:-1])
>>> (frame.version, frame.type, frame.seq, frame.payload)
(1, 32, 7, b'')
"""

import binascii
import struct

VERSION = 1
"""Protocol version, the first byte of every header. HELLO, HELLO_ACK and NACK never change."""

HEADER_SIZE = 4
CRC_SIZE = 4
MAX_PAYLOAD = 240
MAX_FRAME = HEADER_SIZE + MAX_PAYLOAD + CRC_SIZE
MAX_ENCODED = MAX_FRAME + 2
"""Largest COBS-encoded frame without its delimiter: 250 bytes, so a frame fits 256 bytes."""

DELIMITER = b"\x00"
UNKNOWN_SEQ = 0
"""Sequence number of an unsolicited frame, or of a NACK for a frame whose header was unreadable."""

# Message types.
HELLO = 0x01
HELLO_ACK = 0x02
RESET = 0x03
SET_SLOTS = 0x10
SET_TRACK = 0x11
BRIGHTNESS = 0x12
CLEAR = 0x13
PING = 0x20
PONG = 0x21
ACK = 0x30
NACK = 0x31
EVENT = 0x40

TYPE_NAMES = {
    HELLO: "HELLO",
    HELLO_ACK: "HELLO_ACK",
    RESET: "RESET",
    SET_SLOTS: "SET_SLOTS",
    SET_TRACK: "SET_TRACK",
    BRIGHTNESS: "BRIGHTNESS",
    CLEAR: "CLEAR",
    PING: "PING",
    PONG: "PONG",
    ACK: "ACK",
    NACK: "NACK",
    EVENT: "EVENT",
}

# Error codes carried by NACK.
E_BAD_CRC = 1
E_UNKNOWN_TYPE = 2
E_BAD_LENGTH = 3
E_OUT_OF_RANGE = 4
E_BUSY = 5
E_BAD_VERSION = 6
E_BAD_FRAME = 7

ERROR_NAMES = {
    E_BAD_CRC: "bad CRC",
    E_UNKNOWN_TYPE: "unknown message type",
    E_BAD_LENGTH: "bad length",
    E_OUT_OF_RANGE: "value out of range",
    E_BUSY: "busy",
    E_BAD_VERSION: "protocol version not supported",
    E_BAD_FRAME: "bad framing",
}

# LED effects.
OFF = 0
SOLID = 1
BLINK = 2
PULSE = 3
SPIN = 4
EFFECT_NAMES = {OFF: "off", SOLID: "solid", BLINK: "blink", PULSE: "pulse", SPIN: "spin"}
MIN_PERIOD_MS = 40
"""Shortest period of an animated effect: two render ticks at 50 Hz."""

LED_SIZE = 6
"""One LED entry: red, green, blue, effect (u8 each) and period in ms (u16)."""
MAX_SLOT_ENTRIES = (MAX_PAYLOAD - 2) // LED_SIZE
MAX_TRACK_ENTRIES = (MAX_PAYLOAD - 2) // LED_SIZE

# EVENT kinds.
EV_BUTTON = 1

# RESET reasons.
RESET_POWER_ON = 1
RESET_WATCHDOG = 2
RESET_SOFT = 3


class BridgeError(Exception):
    """Root of every error raised by firmware_bridge."""


try:  # CPython: codec errors are also ValueErrors.

    class _BadValue(BridgeError, ValueError):
        """Something received or asked for does not fit the protocol."""

except TypeError:  # MicroPython allows a single native exception base.
    # mypy sees CPython only, where this branch never runs.
    _BadValue = BridgeError  # type: ignore[misc, assignment]


class FrameError(_BadValue):
    """A received frame is damaged or malformed; ``code`` is the NACK error code."""

    code = E_BAD_FRAME

    def __init__(self, message, code=None):
        super().__init__(message)
        if code is not None:
            self.code = code


class FrameChecksumError(FrameError):
    """A frame's CRC-32 does not match its contents."""

    code = E_BAD_CRC


class FrameLengthError(FrameError):
    """A frame is shorter than a header and CRC, or longer than the maximum frame size."""

    code = E_BAD_LENGTH


class PayloadError(_BadValue):
    """A payload does not fit its message type; ``code`` is the NACK error code."""

    code = E_BAD_LENGTH

    def __init__(self, message, code=None):
        super().__init__(message)
        if code is not None:
            self.code = code


class Frame:
    """One decoded frame: protocol version, message type, sequence number and payload bytes."""

    __slots__ = ("payload", "seq", "type", "version")

    def __init__(self, msg_type, seq, payload=b"", version=VERSION):
        self.version = version
        self.type = msg_type
        self.seq = seq
        self.payload = bytes(payload)

    def __eq__(self, other):
        return isinstance(other, Frame) and (
            self.version == other.version
            and self.type == other.type
            and self.seq == other.seq
            and self.payload == other.payload
        )

    def __repr__(self):
        name = TYPE_NAMES.get(self.type, hex(self.type))
        hexed = binascii.hexlify(self.payload).decode()
        return f"Frame({name} seq={self.seq} v{self.version} {hexed})"


# --- COBS --------------------------------------------------------------------------------------


def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: no zero byte in the result, at most 1 + n/254 extra."""
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    for byte in data:
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(byte)
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data):
    """Undo :func:`cobs_encode`; raises FrameError when ``data`` is not valid COBS."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise FrameError("zero byte inside a COBS frame")
        end = i + code
        if end > n:
            raise FrameError("COBS block runs past the end of the frame")
        block = data[i + 1 : end]
        if 0 in block:
            raise FrameError("zero byte inside a COBS frame")
        out.extend(block)
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


# --- frames ------------------------------------------------------------------------------------


def encode_frame(msg_type, seq, payload=b"", version=VERSION):
    """The bytes to write for one frame, delimiter included."""
    if not 0 <= msg_type <= 0xFF or not 0 <= version <= 0xFF:
        raise PayloadError("message type and version are single bytes", E_OUT_OF_RANGE)
    if not 0 <= seq <= 0xFFFF:
        raise PayloadError(f"sequence number {seq} is not a u16", E_OUT_OF_RANGE)
    if len(payload) > MAX_PAYLOAD:
        raise PayloadError(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
    body = struct.pack("<BBH", version, msg_type, seq) + bytes(payload)
    crc = binascii.crc32(body) & 0xFFFFFFFF
    return cobs_encode(body + struct.pack("<I", crc)) + DELIMITER


def decode_frame(encoded):
    """Decode one COBS-encoded frame (without its delimiter); raises FrameError if it is damaged."""
    if len(encoded) > MAX_ENCODED:
        raise FrameLengthError(f"frame of {len(encoded)} bytes exceeds {MAX_ENCODED}")
    raw = cobs_decode(encoded)
    if len(raw) < HEADER_SIZE + CRC_SIZE:
        raise FrameLengthError(f"frame of {len(raw)} bytes is shorter than a header and CRC")
    body = raw[:-CRC_SIZE]
    (crc,) = struct.unpack("<I", raw[-CRC_SIZE:])
    if binascii.crc32(body) & 0xFFFFFFFF != crc:
        raise FrameChecksumError("CRC-32 mismatch")
    version, msg_type, seq = struct.unpack("<BBH", body[:HEADER_SIZE])
    return Frame(msg_type, seq, body[HEADER_SIZE:], version)


class Deframer:
    """Splits a byte stream at 0x00 delimiters and decodes each frame.

    ``feed`` returns a list whose items are either a :class:`Frame` or the :class:`FrameError`
    that its bytes raised (returned, not raised, so that the caller can NACK it and go on).
    Bytes beyond the maximum frame size are discarded up to the next delimiter. Empty frames
    (two delimiters in a row) are ignored, so a sender may write a delimiter to flush noise.
    """

    def __init__(self, max_encoded=MAX_ENCODED):
        self.max_encoded = max_encoded
        self._buffer = b""
        self._overflow = False

    def reset(self):
        """Forget any partial frame."""
        self._buffer = b""
        self._overflow = False

    def feed(self, data):
        """Add received bytes; return the frames (or frame errors) they completed."""
        results = []  # type: list[Frame | FrameError]
        data = bytes(data)
        start = 0
        while True:
            end = data.find(DELIMITER, start)
            if end < 0:
                break
            chunk = data[start:end]
            start = end + 1
            if self._overflow:
                self._overflow = False
                self._buffer = b""
                results.append(FrameLengthError(f"frame longer than {self.max_encoded} bytes"))
                continue
            chunk = self._buffer + chunk
            self._buffer = b""
            if not chunk:
                continue
            try:
                results.append(decode_frame(chunk))
            except FrameError as exc:
                results.append(exc)
        if not self._overflow:
            self._buffer += data[start:]
            if len(self._buffer) > self.max_encoded:
                self._overflow = True
                self._buffer = b""
        return results


# --- payloads ----------------------------------------------------------------------------------


def _check_length(payload, size, name, exact=True):
    if len(payload) < size or (exact and len(payload) != size):
        raise PayloadError(f"{name} payload needs {size} bytes, got {len(payload)}")


def pack_hello(version=VERSION):
    """HELLO payload: the host's protocol version."""
    return struct.pack("<B", version)


def unpack_hello(payload):
    """The protocol version in a HELLO payload (extra bytes from later versions are ignored)."""
    _check_length(payload, 1, "HELLO", exact=False)
    return payload[0]


class Capabilities:
    """What a controller reports in HELLO_ACK and RESET: versions, LED counts, brightness cap."""

    __slots__ = (
        "boot_id",
        "firmware",
        "max_brightness",
        "protocol",
        "slots_per_tray",
        "track_leds",
        "trays",
    )
    FORMAT = "<BBBBBBHBH"
    SIZE = struct.calcsize(FORMAT)

    def __init__(
        self, protocol, firmware, trays, slots_per_tray, track_leds, max_brightness, boot_id
    ):
        self.protocol = protocol
        self.firmware = tuple(firmware)
        self.trays = trays
        self.slots_per_tray = slots_per_tray
        self.track_leds = track_leds
        self.max_brightness = max_brightness
        self.boot_id = boot_id

    def pack(self):
        """The payload bytes."""
        major, minor, patch = self.firmware
        return struct.pack(
            self.FORMAT,
            self.protocol,
            major,
            minor,
            patch,
            self.trays,
            self.slots_per_tray,
            self.track_leds,
            self.max_brightness,
            self.boot_id,
        )

    @classmethod
    def unpack(cls, payload):
        """Read a HELLO_ACK payload; fields appended by later versions are ignored."""
        _check_length(payload, cls.SIZE, "HELLO_ACK", exact=False)
        v = struct.unpack(cls.FORMAT, payload[: cls.SIZE])
        return cls(v[0], (v[1], v[2], v[3]), v[4], v[5], v[6], v[7], v[8])

    def __eq__(self, other):
        return isinstance(other, Capabilities) and self.pack() == other.pack()

    def __repr__(self):
        return "Capabilities({})".format(
            ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        )


def pack_reset(reason, capabilities):
    """RESET payload: why the controller booted, then its capabilities."""
    return struct.pack("<B", reason) + capabilities.pack()


def unpack_reset(payload):
    """(reason, Capabilities) from a RESET payload."""
    _check_length(payload, 1 + Capabilities.SIZE, "RESET", exact=False)
    return payload[0], Capabilities.unpack(payload[1:])


def check_led(led):
    """Raise PayloadError unless ``led`` is a valid (r, g, b, effect, period_ms) tuple."""
    r, g, b, effect, period = led
    for value in (r, g, b):
        if not 0 <= value <= 255:
            raise PayloadError(f"colour component {value!r} is not 0..255", E_OUT_OF_RANGE)
    if effect not in EFFECT_NAMES:
        raise PayloadError(f"unknown effect {effect!r}", E_OUT_OF_RANGE)
    if not 0 <= period <= 0xFFFF:
        raise PayloadError(f"period {period!r} ms is not a u16", E_OUT_OF_RANGE)
    if effect >= BLINK and period < MIN_PERIOD_MS:
        raise PayloadError(f"period {period} ms is shorter than {MIN_PERIOD_MS} ms", E_OUT_OF_RANGE)


def pack_leds(leds):
    """Entries of (r, g, b, effect, period_ms), 6 bytes each."""
    out = bytearray()
    for led in leds:
        check_led(led)
        out.extend(struct.pack("<BBBBH", led[0], led[1], led[2], led[3], led[4]))
    return bytes(out)


def unpack_leds(data):
    """The (r, g, b, effect, period_ms) tuples in ``data``; every entry is validated."""
    if not data or len(data) % LED_SIZE:
        raise PayloadError(f"LED entries need a positive multiple of {LED_SIZE} bytes")
    leds = []
    for i in range(0, len(data), LED_SIZE):
        led = struct.unpack("<BBBBH", data[i : i + LED_SIZE])
        check_led(led)
        leds.append(led)
    return leds


def pack_set_slots(tray, start, leds):
    """SET_SLOTS payload: tray index, first slot, then one entry per slot."""
    if not 0 <= tray <= 255 or not 0 <= start <= 255:
        raise PayloadError("tray and start slot are single bytes", E_OUT_OF_RANGE)
    if not 0 < len(leds) <= MAX_SLOT_ENTRIES:
        raise PayloadError(f"SET_SLOTS carries 1..{MAX_SLOT_ENTRIES} entries")
    return struct.pack("<BB", tray, start) + pack_leds(leds)


def unpack_set_slots(payload):
    """(tray, start, leds) from a SET_SLOTS payload."""
    _check_length(payload, 2 + LED_SIZE, "SET_SLOTS", exact=False)
    return payload[0], payload[1], unpack_leds(payload[2:])


def pack_set_track(start, leds):
    """SET_TRACK payload: first LED (u16), then one entry per LED."""
    if not 0 <= start <= 0xFFFF:
        raise PayloadError("start LED is a u16", E_OUT_OF_RANGE)
    if not 0 < len(leds) <= MAX_TRACK_ENTRIES:
        raise PayloadError(f"SET_TRACK carries 1..{MAX_TRACK_ENTRIES} entries")
    return struct.pack("<H", start) + pack_leds(leds)


def unpack_set_track(payload):
    """(start, leds) from a SET_TRACK payload."""
    _check_length(payload, 2 + LED_SIZE, "SET_TRACK", exact=False)
    (start,) = struct.unpack("<H", payload[:2])
    return start, unpack_leds(payload[2:])


def pack_brightness(level):
    """BRIGHTNESS payload: the global level 0..255."""
    if not 0 <= level <= 255:
        raise PayloadError(f"brightness {level!r} is not 0..255", E_OUT_OF_RANGE)
    return struct.pack("<B", level)


def unpack_brightness(payload):
    """The level in a BRIGHTNESS payload."""
    _check_length(payload, 1, "BRIGHTNESS")
    return payload[0]


def pack_pong(boot_id, uptime_ms):
    """PONG payload: the boot id (changes at every boot) and the uptime in ms (wraps)."""
    return struct.pack("<HI", boot_id & 0xFFFF, uptime_ms & 0xFFFFFFFF)


def unpack_pong(payload):
    """(boot_id, uptime_ms) from a PONG payload."""
    _check_length(payload, 6, "PONG", exact=False)
    return struct.unpack("<HI", payload[:6])


def pack_nack(code, detail=0):
    """NACK payload: error code and one byte of detail (BAD_VERSION: the receiver's version)."""
    return struct.pack("<BB", code, detail)


def unpack_nack(payload):
    """(code, detail) from a NACK payload."""
    _check_length(payload, 2, "NACK", exact=False)
    return payload[0], payload[1]


def pack_event(kind, index, value):
    """EVENT payload: kind (``EV_BUTTON``), index (which button), value (1: pressed)."""
    for v in (kind, index, value):
        if not 0 <= v <= 255:
            raise PayloadError("EVENT fields are single bytes", E_OUT_OF_RANGE)
    return struct.pack("<BBB", kind, index, value)


def unpack_event(payload):
    """(kind, index, value) from an EVENT payload."""
    _check_length(payload, 3, "EVENT", exact=False)
    return payload[0], payload[1], payload[2]


def check_empty(payload, name):
    """Raise PayloadError unless a payload that must be empty is empty."""
    _check_length(payload, 0, name)
