"""The tray view's data: the LED state the controller is kept showing, and its link."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from kiosk.deps import TableDep

router = APIRouter(prefix="/api", tags=["tray"])


@router.get("/tray")
def tray(request: Request, table: TableDep) -> dict[str, Any]:
    """The trays and the round track as the controller is kept showing them (firmware_bridge's
    ``Leds.view()``: ``status``, ``trays``, ``track``…), with the link as the screen shows it;
    ``connected`` is False when there is no controller at all."""
    link = table.status("en")["links"]["controller"]
    leds = getattr(request.app.state, "leds", None)
    if leds is None:
        return {"connected": False, "link": link, "trays": [], "track": []}
    return {"connected": True, "link": link, **leds.view()}
