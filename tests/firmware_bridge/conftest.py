"""Fixtures: an emulated controller on a real pseudo-terminal, a link and a controller to it.

Timeouts and backoffs are short (tens of milliseconds) so that faults settle quickly; every
fixture closes what it opened in ``finally``.
"""

from __future__ import annotations

import os
import select
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from firmware_bridge.devices import LedController
from firmware_bridge.emulator import Emulator
from firmware_bridge.firmware import protocol as P
from firmware_bridge.link import Link, LinkStatus

FAST = {"ack_timeout": 0.1, "retries": 6, "heartbeat": 0.2, "backoff": (0.02, 0.1)}
"""Link settings for tests: a lost frame costs 100 ms, an unplugged cable costs 0.1 s at most
after replug, and a busy 2-core machine does not make the link give up."""


@pytest.fixture
def emulator(tmp_path: Path) -> Iterator[Emulator]:
    """A started emulator behind a stable symlink (as /dev/serial/by-id would be)."""
    emu = Emulator(link_path=tmp_path / "by-id-tablesight-leds")
    try:
        yield emu.start()
    finally:
        emu.close()


@pytest.fixture
def make_link() -> Iterator[Callable[..., Link]]:
    """Factory of started links with the fast test settings; all are closed afterwards."""
    links: list[Link] = []

    def make(url: str, **options: object) -> Link:
        link = Link(url, **{**FAST, **options})  # type: ignore[arg-type]
        links.append(link)
        return link.start()

    try:
        yield make
    finally:
        for link in links:
            link.close()


@pytest.fixture
def link(emulator: Emulator, make_link: Callable[..., Link]) -> Link:
    """A link connected to the emulator."""
    lnk = make_link(emulator.path)
    assert lnk.wait_status(LinkStatus.CONNECTED, 5.0), lnk.problem
    return lnk


@pytest.fixture
def controller(link: Link) -> Iterator[LedController]:
    """The device API over the connected link."""
    ctl = LedController(link, retry_interval=0.02)
    try:
        yield ctl
    finally:
        ctl.close()


def read_frames(fd: int, done: Callable[[list[P.Frame]], bool], timeout: float = 10) -> list:
    """Frames read from the raw ``fd`` until ``done(frames)`` holds or ``timeout`` passes."""
    deframer = P.Deframer()
    frames: list[P.Frame] = []
    deadline = time.monotonic() + timeout
    while not done(frames) and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            frames += [x for x in deframer.feed(os.read(fd, 1024)) if isinstance(x, P.Frame)]
    return frames


@pytest.fixture(name="read_frames", scope="session")
def read_frames_fixture() -> Callable[..., list]:
    """The :func:`read_frames` helper, for tests that talk raw bytes to a controller."""
    return read_frames


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A crash in any background thread (link, reader, controller, emulator) fails the test."""
    here = Path(__file__).parent
    crash = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
    for item in items:
        if here in item.path.parents:
            item.add_marker(crash)
