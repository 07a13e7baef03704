"""One call for the kiosk: the LED controller if one is plugged in, else the emulated one.

>>> # leds = open_leds()            # /dev/serial/by-id/…MicroPython… or an emulator
>>> # leds.controller.tray(0).light(2, (255, 160, 0))
>>> # leds.view()["status"]          # "connected", "reconnecting", "incompatible", …
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from firmware_bridge.devices import LedController
from firmware_bridge.emulator import Emulator
from firmware_bridge.errors import NotConnected
from firmware_bridge.link import Link, find_controller
from firmware_bridge.state import Led

log = logging.getLogger(__name__)


@dataclass
class Leds:
    """The link, the device API on it, and the emulator behind it when there is no board."""

    link: Link
    controller: LedController
    emulator: Emulator | None = None

    def close(self) -> None:
        """Close the controller API, the link and the emulator; idempotent."""
        self.controller.close()
        self.link.close()
        if self.emulator is not None:
            self.emulator.close()

    def view(self) -> dict[str, Any]:
        """A JSON-ready picture for the kiosk: link status, and what each LED should show."""
        caps = self.link.capabilities
        trays = caps.trays if caps else 0
        slots = caps.slots_per_tray if caps else 0
        track = caps.track_leds if caps else 0
        return {
            "status": self.link.status.value,
            "problem": self.link.problem,
            "emulated": self.emulator is not None,
            "firmware": ".".join(map(str, caps.firmware)) if caps else None,
            "trays": [_leds_json(self.controller.tray(i).desired, slots) for i in range(trays)],
            "track": _leds_json(self.controller.track.desired, track),
        }


def _leds_json(leds: tuple[Led, ...], count: int) -> list[dict[str, Any]]:
    out = [
        {
            "colour": "#{:02x}{:02x}{:02x}".format(*led.colour),
            "effect": led.effect.name.lower(),
            "period_ms": led.period_ms,
        }
        for led in leds[:count]
    ]
    return out + [{"colour": "#000000", "effect": "off", "period_ms": 0}] * (count - len(out))


def open_leds(port: str | None = None, *, emulate: bool = True, **link_options: Any) -> Leds:
    """Connect to the controller at ``port`` (a device path or pyserial URL), or the one found.

    Without a port and without a controller under /dev/serial/by-id, an emulated controller is
    started when ``emulate`` is true (the default, for ``tablesight run`` without hardware);
    otherwise NotConnected is raised. The link keeps connecting in the background: check
    ``view()["status"]``.
    """
    emulator = None
    url = port or find_controller()
    if url is None:
        if not emulate:
            raise NotConnected("no LED controller under /dev/serial/by-id and emulation is off")
        emulator = Emulator().start()
        url = emulator.path
        log.info("no LED controller found: emulating one on %s", url)
    try:
        link = Link(url, **link_options).start()
    except BaseException:
        if emulator is not None:  # close what was built before the failure
            emulator.close()
        raise
    return Leds(link, LedController(link), emulator)
