"""Properties of the shared codec (firmware/protocol.py), checked with hypothesis."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.firmware import protocol as P

payloads = st.binary(max_size=P.MAX_PAYLOAD)
msg_types = st.integers(0, 255)
seqs = st.integers(0, 0xFFFF)
leds = st.tuples(
    st.integers(0, 255),
    st.integers(0, 255),
    st.integers(0, 255),
    st.sampled_from([P.OFF, P.SOLID]),
    st.integers(0, 0xFFFF),
) | st.tuples(
    st.integers(0, 255),
    st.integers(0, 255),
    st.integers(0, 255),
    st.sampled_from([P.BLINK, P.PULSE, P.SPIN]),
    st.integers(P.MIN_PERIOD_MS, 0xFFFF),
)


def frames_in(data: bytes) -> list[P.Frame]:
    return [x for x in P.Deframer().feed(data) if isinstance(x, P.Frame)]


@given(st.binary(max_size=2000))
def test_cobs_round_trips_and_removes_every_zero(data: bytes) -> None:
    encoded = P.cobs_encode(data)
    assert 0 not in encoded
    assert len(encoded) <= len(data) + len(data) // 254 + 1
    assert P.cobs_decode(encoded) == data


@given(msg_types, seqs, payloads)
def test_every_frame_round_trips(msg_type: int, seq: int, payload: bytes) -> None:
    wire = P.encode_frame(msg_type, seq, payload)
    assert wire.endswith(P.DELIMITER) and wire.count(0) == 1
    assert len(wire) - 1 <= P.MAX_ENCODED
    assert frames_in(wire) == [P.Frame(msg_type, seq, payload)]


@given(st.lists(st.tuples(msg_types, seqs, payloads), max_size=8), st.integers(1, 64))
def test_a_stream_in_any_chunks_gives_every_frame_in_order(
    frames: list[tuple[int, int, bytes]], chunk: int
) -> None:
    stream = b"".join(P.encode_frame(*f) for f in frames)
    deframer = P.Deframer()
    out = []
    for i in range(0, len(stream), chunk):
        out += deframer.feed(stream[i : i + chunk])
    assert out == [P.Frame(*f) for f in frames]


@given(msg_types, seqs, payloads, st.data())
def test_every_single_byte_corruption_is_detected(
    msg_type: int, seq: int, payload: bytes, data: st.DataObject
) -> None:
    wire = bytearray(P.encode_frame(msg_type, seq, payload))
    at = data.draw(st.integers(0, len(wire) - 2), label="position")
    value = data.draw(st.integers(0, 255).filter(lambda v: v != wire[at]), label="new byte")
    wire[at] = value
    results = P.Deframer().feed(bytes(wire))
    assert not [x for x in results if isinstance(x, P.Frame)]
    assert all(isinstance(x, P.FrameError) for x in results)
    assert results  # reported, so that the receiver can NACK it


@given(msg_types, seqs, payloads, st.data())
def test_every_truncation_is_detected(
    msg_type: int, seq: int, payload: bytes, data: st.DataObject
) -> None:
    wire = P.encode_frame(msg_type, seq, payload)
    cut = data.draw(st.integers(1, len(wire) - 2), label="kept bytes")
    results = P.Deframer().feed(wire[:cut] + P.DELIMITER)
    assert len(results) == 1 and isinstance(results[0], P.FrameError)


frame_fields = st.tuples(msg_types, seqs, st.binary(max_size=40))
noise = st.one_of(
    st.binary(min_size=1, max_size=80),  # line noise, delimiters included
    st.binary(max_size=60).map(P.cobs_encode),  # well-formed COBS: short, or a CRC by chance
    st.tuples(frame_fields, st.data()).map(lambda t: _damaged(P.encode_frame(*t[0])[:-1], t[1])),
)


def _damaged(wire: bytes, data: st.DataObject) -> bytes:
    """A real frame (without its delimiter) with one byte changed to another non-zero one."""
    at = data.draw(st.integers(0, len(wire) - 1), label="position")
    value = data.draw(st.integers(1, 255).filter(lambda v: v != wire[at]), label="new byte")
    return wire[:at] + bytes([value]) + wire[at + 1 :]


@given(
    st.lists(st.tuples(st.none() | noise, frame_fields), max_size=6),
    st.none() | noise,
    st.integers(1, 64),
)
def test_garbage_never_raises_and_never_yields_a_frame_unless_it_checks(
    parts: list[tuple[bytes | None, tuple[int, int, bytes]]], tail: bytes | None, chunk: int
) -> None:
    """Noise, well-formed COBS with a wrong CRC and damaged frames, between real frames: the
    deframer yields exactly the frames that were encoded, in order (a frame whose checksum or
    length does not check is an error item, never a frame), and raises nothing."""
    sent = [P.Frame(*fields) for _, fields in parts]
    stream = b"".join(
        (junk + P.DELIMITER if junk else b"") + P.encode_frame(*fields) for junk, fields in parts
    )
    stream += (tail + P.DELIMITER) if tail else b""
    deframer = P.Deframer()
    out = []
    for i in range(0, len(stream), chunk):
        out += deframer.feed(stream[i : i + chunk])
    frames = [x for x in out if isinstance(x, P.Frame)]
    assert all(isinstance(x, P.FrameError) for x in out if not isinstance(x, P.Frame))
    assert frames == sent
    junk = [j for j, _ in parts if j] + ([tail] if tail else [])
    pieces = [p for j in junk for p in j.split(P.DELIMITER) if p]  # noise may hold delimiters
    assert len(out) == len(sent) + len(pieces)  # every piece of junk reported once, to be NACKed
    for chunk_bytes in stream.split(P.DELIMITER):
        if not chunk_bytes:
            continue
        try:
            frame = P.decode_frame(chunk_bytes)
        except P.FrameError as exc:
            assert isinstance(exc, P.BridgeError) and isinstance(exc, ValueError)
            assert exc.code in P.ERROR_NAMES
        else:
            assert frame in sent


UNPACKERS = [
    P.unpack_hello,
    P.Capabilities.unpack,
    P.unpack_reset,
    P.unpack_set_slots,
    P.unpack_set_track,
    P.unpack_brightness,
    P.unpack_pong,
    P.unpack_nack,
    P.unpack_event,
    P.unpack_leds,
]


@pytest.mark.parametrize("unpack", UNPACKERS, ids=lambda f: f.__qualname__)
@given(payload=payloads)
def test_payload_readers_raise_only_payload_errors(unpack, payload: bytes) -> None:
    try:
        unpack(payload)
    except P.PayloadError as exc:
        assert exc.code in (P.E_BAD_LENGTH, P.E_OUT_OF_RANGE)


def test_an_overlong_frame_is_dropped_and_the_next_one_still_arrives() -> None:
    deframer = P.Deframer()
    results = deframer.feed(b"\x01" * (P.MAX_ENCODED + 50))
    results += deframer.feed(b"\x01" * 10 + P.DELIMITER + P.encode_frame(P.PING, 9))
    assert isinstance(results[0], P.FrameLengthError)
    assert results[1:] == [P.Frame(P.PING, 9)]


@given(st.integers(0, 255), st.integers(0, 200), st.lists(leds, min_size=1, max_size=39))
def test_set_slots_round_trips(tray: int, start: int, entries: list) -> None:
    assert P.unpack_set_slots(P.pack_set_slots(tray, start, entries)) == (tray, start, entries)


@given(st.integers(0, 0xFFFF), st.lists(leds, min_size=1, max_size=P.MAX_TRACK_ENTRIES))
def test_set_track_round_trips(start: int, entries: list) -> None:
    assert P.unpack_set_track(P.pack_set_track(start, entries)) == (start, entries)


def test_largest_led_commands_fit_one_frame() -> None:
    big = [(255, 255, 255, P.SPIN, 0xFFFF)] * P.MAX_SLOT_ENTRIES
    assert len(P.encode_frame(P.SET_SLOTS, 0xFFFF, P.pack_set_slots(255, 0, big))) <= 256
    with pytest.raises(P.PayloadError):
        P.pack_set_slots(0, 0, [*big, big[0]])


@pytest.mark.parametrize(
    "led",
    [(256, 0, 0, P.SOLID, 0), (0, 0, 0, 9, 0), (0, 0, 0, P.BLINK, 10), (0, 0, 0, P.SOLID, -1)],
)
def test_invalid_leds_are_refused_as_out_of_range(led: tuple) -> None:
    with pytest.raises(P.PayloadError) as info:
        P.pack_leds([led])
    assert info.value.code == P.E_OUT_OF_RANGE


@given(
    st.integers(0, 255),
    st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)),
    st.integers(0, 255),
    st.integers(0, 255),
    st.integers(0, 0xFFFF),
    st.integers(0, 255),
    st.integers(0, 0xFFFF),
)
def test_capabilities_round_trip(proto, firmware, trays, slots, track, top, boot) -> None:
    caps = P.Capabilities(proto, firmware, trays, slots, track, top, boot)
    assert P.Capabilities.unpack(caps.pack()) == caps
    assert P.unpack_reset(P.pack_reset(P.RESET_WATCHDOG, caps)) == (P.RESET_WATCHDOG, caps)


def test_a_reply_from_a_later_version_with_extra_fields_still_reads() -> None:
    caps = P.Capabilities(2, (3, 0, 0), 2, 8, 24, 200, 77)
    assert P.Capabilities.unpack(caps.pack() + b"\x05\x06") == caps
