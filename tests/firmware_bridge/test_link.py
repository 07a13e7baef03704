"""The host link against the emulated controller over real pseudo-terminals."""

from __future__ import annotations

import termios
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import serial

from firmware_bridge.emulator import Emulator, Faults
from firmware_bridge.errors import CommandRefused, IncompatibleDevice, NotConnected
from firmware_bridge.firmware import protocol as P
from firmware_bridge.link import DeviceEvent, Link, LinkStatus, stable_name

ONE_SLOT = P.pack_set_slots(0, 0, [(1, 2, 3, P.SOLID, 0)])


def test_handshake_reports_what_the_controller_has(make_link: Callable[..., Link]) -> None:
    with Emulator(trays=3, slots_per_tray=6, track_leds=40, max_brightness=90) as emu:
        seen: list[LinkStatus] = []
        link = Link(emu.path, heartbeat=0.1)
        link.on_status(seen.append)
        with link:
            assert link.wait_status(LinkStatus.CONNECTED, 5), link.problem
            caps = link.capabilities
            assert caps is not None
            assert (caps.trays, caps.slots_per_tray, caps.track_leds) == (3, 6, 40)
            assert (caps.max_brightness, caps.protocol) == (90, P.VERSION)
            assert link.send(P.PING).type == P.PONG
        assert seen == [LinkStatus.CONNECTED, LinkStatus.CLOSED]
        with pytest.raises(NotConnected):
            link.send(P.PING)


def test_a_missing_port_is_reported_and_found_once_plugged(
    tmp_path: Path, make_link: Callable[..., Link]
) -> None:
    stable = tmp_path / "usb-MicroPython_Board_in_FS_mode-if00"
    link = make_link(str(stable))
    for _ in range(500):  # the first attempt to open happens in the link's thread
        if link.problem:
            break
        time.sleep(0.01)
    assert link.status is LinkStatus.CONNECTING
    with pytest.raises(NotConnected, match="cannot open"):
        link.send(P.PING)
    with Emulator(link_path=stable):
        assert link.wait_status(LinkStatus.CONNECTED, 5), link.problem


def test_the_port_is_opened_exclusively(link: Link, make_link: Callable[..., Link]) -> None:
    second = make_link(link.url)
    assert not second.wait_status(LinkStatus.CONNECTED, 0.5)
    assert "exclusive" in second.problem.lower() or "lock" in second.problem.lower()
    assert link.send(P.PING).type == P.PONG


def test_a_refused_command_names_the_reason(link: Link) -> None:
    with pytest.raises(CommandRefused, match="out of range") as info:
        link.send(P.SET_SLOTS, P.pack_set_slots(9, 0, [(1, 2, 3, P.SOLID, 0)]))
    assert info.value.code == P.E_OUT_OF_RANGE
    with pytest.raises(CommandRefused, match="unknown message type"):
        link.send(0x7E)
    assert link.send(P.SET_SLOTS, ONE_SLOT).type == P.ACK


def test_another_protocol_version_is_reported_as_incompatible(
    make_link: Callable[..., Link],
) -> None:
    with Emulator(protocol_version=P.VERSION + 1) as emu:
        link = make_link(emu.path)
        assert link.wait_status(LinkStatus.INCOMPATIBLE, 5), link.status
        assert f"protocol v{P.VERSION + 1}" in link.problem and "flash" in link.problem
        with pytest.raises(IncompatibleDevice):
            link.send(P.SET_SLOTS, ONE_SLOT)
        assert emu.state.trays[0][0].effect == P.OFF  # nothing was sent


def test_a_controller_reset_is_noticed_and_handshaken_again(link: Link, emulator: Emulator) -> None:
    emulator.reboot()
    assert emulator.wait_for(lambda: link.stats.connections == 2, 5)
    assert link.stats.resets >= 1
    assert link.wait_status(LinkStatus.CONNECTED, 5)


def test_unplug_is_noticed_and_replug_reconnects(link: Link, emulator: Emulator) -> None:
    emulator.unplug()
    assert link.wait_status(LinkStatus.RECONNECTING, 5)
    with pytest.raises(NotConnected):
        link.send(P.PING)
    emulator.replug()
    assert link.wait_status(LinkStatus.CONNECTED, 5), link.problem
    assert link.send(P.SET_SLOTS, ONE_SLOT).type == P.ACK


def test_a_stalled_controller_is_dropped_and_reconnected(link: Link, emulator: Emulator) -> None:
    emulator.stall(1500)  # far beyond 7 attempts of 100 ms
    assert link.wait_status(LinkStatus.RECONNECTING, 5)
    assert "stopped answering" in link.problem or "HELLO" in link.problem
    assert link.wait_status(LinkStatus.CONNECTED, 5), link.problem


def test_garbage_from_the_line_never_stops_the_link(link: Link, emulator: Emulator) -> None:
    half = P.encode_frame(P.ACK, 1)[:4]
    emulator.inject(b"\xff\x00\x01\x02" * 50 + half + bytes(range(256)) + b"\x00\x00")
    assert link.send(P.PING).type == P.PONG
    assert link.stats.bad_frames >= 2
    assert link.status is LinkStatus.CONNECTED


def test_button_events_reach_the_host(link: Link, emulator: Emulator) -> None:
    heard: list[DeviceEvent] = []
    link.on_event(heard.append)
    emulator.press_button(2)
    event = link.events.get(timeout=5)
    assert event == DeviceEvent(P.EV_BUTTON, 2, 1)
    assert heard == [event]


def test_the_spy_url_logs_the_traffic(
    emulator: Emulator, tmp_path: Path, make_link: Callable[..., Link]
) -> None:
    log = tmp_path / "spy.txt"
    link = make_link(f"spy://{emulator.path}?file={log}")
    assert link.wait_status(LinkStatus.CONNECTED, 5), link.problem
    link.send(P.SET_SLOTS, ONE_SLOT)
    link.close()
    assert emulator.state.trays[0][0].colour == (1, 2, 3)
    assert "TX" in log.read_text() and "RX" in log.read_text()


def test_button_events_arrive_once_each_on_a_noisy_line(link: Link, emulator: Emulator) -> None:
    heard: list[DeviceEvent] = []
    link.on_event(heard.append)
    emulator.set_faults(Faults(corrupt=0.02, drop=0.3, seed=5))
    for button in range(8):
        emulator.press_button(button)
    assert emulator.wait_for(lambda: len(heard) >= 8, 10), heard
    # every resend is over within 5 tries of 200 ms; none may show up as a second press
    assert not emulator.wait_for(lambda: len(heard) > 8, 1.5), heard
    assert sorted(event.index for event in heard) == list(range(8))


def test_a_device_path_is_swapped_for_its_stable_name(tmp_path: Path, emulator: Emulator) -> None:
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    (by_id / "usb-MicroPython_Board_in_FS_mode_e661-if00").symlink_to(emulator.pty_path)
    (by_id / "usb-Other_Thing-if00").symlink_to(tmp_path)
    named = stable_name(emulator.pty_path, by_id=str(by_id))
    assert named == str(by_id / "usb-MicroPython_Board_in_FS_mode_e661-if00")
    assert stable_name("socket://localhost:7777", by_id=str(by_id)) == "socket://localhost:7777"
    assert stable_name(str(tmp_path / "absent"), by_id=str(by_id)) == str(tmp_path / "absent")


def test_a_failing_listener_does_not_stop_the_link(
    emulator: Emulator, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(value: object) -> None:
        raise RuntimeError("kiosk bug")

    link = Link(emulator.path, ack_timeout=0.1, heartbeat=0.2, backoff=(0.02, 0.1))
    link.on_status(broken)
    link.on_connect(broken)
    link.on_event(broken)
    with link:
        assert link.wait_status(LinkStatus.CONNECTED, 5), link.problem
        emulator.press_button(0)
        assert link.events.get(timeout=5).index == 0
        emulator.reboot()
        assert emulator.wait_for(lambda: link.stats.connections == 2, 5)
        assert link.send(P.PING).type == P.PONG
    assert "kiosk bug" in caplog.text


def test_a_port_that_vanishes_while_opening_is_tried_again(
    emulator: Emulator, make_link: Callable[..., Link]
) -> None:
    """pyserial lets `termios.error` out of `open()` when the device goes between its
    `os.open` and its input flush (seen on CI: an unplug during a reconnect); the link's
    thread must treat it as a port that cannot be opened yet, not die on it."""
    attempts: list[str] = []

    def opens_after_one_vanishing(url: str, **options: object) -> object:
        attempts.append(url)
        port = serial.serial_for_url(url, **options)
        if len(attempts) == 1:
            port.close()
            raise termios.error(5, "Input/output error")
        return port

    link = make_link(emulator.path, serial_for_url=opens_after_one_vanishing)
    assert link.wait_status(LinkStatus.CONNECTED, 5), link.problem
    assert len(attempts) == 2
    assert link.send(P.PING).type == P.PONG
