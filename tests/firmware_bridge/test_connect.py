"""open_leds: what the kiosk calls to get LEDs, real or emulated."""

from __future__ import annotations

import pytest

from firmware_bridge.connect import open_leds
from firmware_bridge.emulator import Emulator
from firmware_bridge.errors import NotConnected
from firmware_bridge.link import LinkStatus
from firmware_bridge.state import Effect


def test_without_a_controller_an_emulated_one_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("firmware_bridge.connect.find_controller", lambda: None)
    leds = open_leds(ack_timeout=0.05)
    try:
        assert leds.emulator is not None
        assert leds.link.wait_status(LinkStatus.CONNECTED, 5)
        leds.controller.tray(1).light(2, (255, 160, 0), Effect.BLINK, 400)
        assert leds.controller.wait_synced(5)
        view = leds.view()
        assert view["status"] == "connected" and view["emulated"] is True
        assert len(view["trays"]) == 2 and len(view["track"]) == 24
        assert view["trays"][1][:3] == [
            {"colour": "#ffa000", "effect": "blink", "period_ms": 400},
            {"colour": "#ffa000", "effect": "blink", "period_ms": 400},
            {"colour": "#000000", "effect": "off", "period_ms": 0},
        ]
        assert leds.emulator.state.trays[1][1].colour == (255, 160, 0)
    finally:
        leds.close()
        leds.close()  # idempotent


def test_emulation_can_be_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("firmware_bridge.connect.find_controller", lambda: None)
    with pytest.raises(NotConnected, match="emulation is off"):
        open_leds(emulate=False)


def test_a_given_port_is_used(emulator: Emulator) -> None:
    leds = open_leds(emulator.path, ack_timeout=0.05)
    try:
        assert leds.emulator is None
        assert leds.link.wait_status(LinkStatus.CONNECTED, 5)
        assert leds.view()["emulated"] is False
    finally:
        leds.close()


def test_a_bad_option_closes_the_emulator_it_started(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("firmware_bridge.connect.find_controller", lambda: None)
    started: list[Emulator] = []
    real_start = Emulator.start

    def start(self: Emulator) -> Emulator:
        started.append(self)
        return real_start(self)

    monkeypatch.setattr(Emulator, "start", start)
    with pytest.raises(TypeError):
        open_leds(no_such_option=1)
    assert len(started) == 1 and not started[0].plugged
