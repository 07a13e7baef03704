"""The tray view's data: the LED state the controller is kept showing, and its link."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from kiosk.deps import TableDep

router = APIRouter(prefix="/api", tags=["tray"])


def _led(led: Any) -> dict[str, Any]:
    r, g, b = led.colour
    return {"colour": f"#{r:02x}{g:02x}{b:02x}", "effect": led.effect.name.lower()}


@router.get("/tray")
def tray(request: Request, table: TableDep) -> dict[str, Any]:
    """The trays and the round track as the controller has them (``connected`` False: none)."""
    link = table.status("en")["links"]["controller"]
    leds = getattr(request.app.state, "leds", None)
    if leds is None:
        return {"connected": False, "link": link, "trays": [], "track": []}
    caps = leds.link.capabilities
    trays = caps.trays if caps else 0
    return {
        "connected": caps is not None,
        "link": link,
        "slots": caps.slots_per_tray if caps else 0,
        "track_leds": caps.track_leds if caps else 0,
        "synced": leds.wait_synced(0),
        "trays": [[_led(x) for x in leds.desired_tray(i)] for i in range(trays)],
        "track": [_led(x) for x in leds.desired_track()],
    }
