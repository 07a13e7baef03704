"""Garbage on the line never stops the controller: after any bytes, a good frame is answered."""

from __future__ import annotations

import os
import tty
from collections.abc import Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge.emulator import Emulator
from firmware_bridge.firmware import protocol as P


@pytest.fixture(scope="module")
def line() -> Iterator[tuple[Emulator, int]]:
    """One emulator for all examples, and a raw file descriptor on its pty (the host side)."""
    with Emulator() as emu:
        fd = os.open(emu.path, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(fd)
        try:
            yield emu, fd
        finally:
            os.close(fd)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    junk=st.binary(max_size=700)
    | st.lists(st.sampled_from([0, 1, 0xFF, 3]), max_size=600).map(bytes)
)
def test_after_any_garbage_a_good_frame_is_answered(
    line: tuple[Emulator, int], read_frames: Callable[..., list[P.Frame]], junk: bytes
) -> None:
    emu, fd = line
    boots = emu.boots
    os.write(fd, junk + P.DELIMITER + P.encode_frame(P.PING, 4242))
    frames = read_frames(fd, lambda fs: any(f.seq == 4242 for f in fs))
    assert [f.type for f in frames if f.seq == 4242] == [P.PONG]
    assert all(f.type == P.NACK for f in frames if f.seq == P.UNKNOWN_SEQ)
    assert emu.boots == boots  # no crash, no reboot
