"""The tray view's data: the LED state the controller is kept showing, and its link."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from firmware_bridge.errors import BridgeError
from firmware_bridge.state import Led
from kiosk.deps import TableDep

router = APIRouter(prefix="/api", tags=["tray"])


@router.get("/tray")
def tray(request: Request, table: TableDep) -> dict[str, Any]:
    """The trays and the round track as the controller is kept showing them (firmware_bridge's
    ``Leds.view()``: ``status``, ``trays``, ``track``…), with the link as the screen shows it;
    ``connected`` is False when there is no controller at all. With the emulated controller,
    ``device`` is what the emulated device itself last received over its serial port."""
    link = table.status("en")["links"]["controller"]
    leds = getattr(request.app.state, "leds", None)
    if leds is None:
        return {"connected": False, "link": link, "trays": [], "track": []}
    answer = {"connected": True, "link": link, **leds.view()}
    if leds.emulator is not None:
        try:
            state = leds.emulator.state
            answer["device"] = {
                "trays": [[_led(led) for led in tray] for tray in state.trays],
                "track": [_led(led) for led in state.track],
                "brightness": state.brightness,
            }
        except BridgeError:
            answer["device"] = None  # not booted yet
    return answer


def _led(led: Led) -> dict[str, Any]:
    return {
        "colour": "#{:02x}{:02x}{:02x}".format(*led.colour),
        "effect": led.effect.name.lower(),
        "period_ms": led.period_ms,
    }
