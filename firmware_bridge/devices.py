"""The device API: dice trays and the round track, as the desired state the controller must show.

Setting a tray or the track only records the desired state and returns at once; one worker
thread sends the latest desired state whenever it changed, and all of it again after every
(re)connect, so a burst of updates goes out as one command and a replugged or rebooted controller
comes back showing the right thing.

>>> # controller = LedController(Link(url).start())
>>> # controller.tray(0).light(3, (255, 160, 0))      # roll three dice: slots 0-2 amber
>>> # controller.track.mark(4, (0, 200, 255))         # round 5 of the track
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence

from firmware_bridge.errors import BridgeError, LedValueError
from firmware_bridge.firmware import protocol as P
from firmware_bridge.link import Link, LinkStatus
from firmware_bridge.state import DARK, Colour, Effect, Led

log = logging.getLogger(__name__)

_TRACK = -1
_BRIGHTNESS = -2


class LedController:
    """Holds the desired LED state and keeps the controller behind ``link`` showing it."""

    def __init__(self, link: Link, *, retry_interval: float = 0.05) -> None:
        self.link = link
        self._retry_interval = retry_interval
        self._cond = threading.Condition()
        self._trays: dict[int, tuple[Led, ...]] = {}
        self._track: tuple[Led, ...] = ()
        self._brightness: int | None = None
        self._dirty: set[int] = set()
        self._busy = False
        self._closed = False
        self.commands_sent = 0
        """LED commands acknowledged by the controller (coalescing keeps this low)."""
        self.track = RoundTrack(self)
        """The round-track strip."""
        link.on_connect(self._resync)
        link.on_status(lambda status: self._poke())
        self._thread = threading.Thread(target=self._work, name="led-sync", daemon=True)
        self._thread.start()

    def tray(self, index: int) -> DiceTray:
        """Dice tray number ``index`` (from 0)."""
        if not 0 <= index <= 255:
            raise LedValueError(f"tray index {index} is not 0..255")
        return DiceTray(self, index)

    def set_brightness(self, level: int) -> None:
        """Global brightness 0..255 (the controller's maximum caps it)."""
        if not 0 <= level <= 255:
            raise LedValueError(f"brightness {level} is not 0..255")
        self._desire(_BRIGHTNESS, level=level)

    def clear(self) -> None:
        """Every tray and the track off."""
        with self._cond:
            for index in list(self._trays):
                self._trays[index] = ()
                self._dirty.add(index)
            self._track = ()
            self._dirty.add(_TRACK)
            self._cond.notify_all()

    def wait_synced(self, timeout: float) -> bool:
        """Wait until the controller has acknowledged the whole desired state; whether it has."""
        with self._cond:
            return self._cond.wait_for(
                lambda: (
                    not self._dirty and not self._busy and self.link.status is LinkStatus.CONNECTED
                ),
                timeout,
            )

    def close(self) -> None:
        """Stop the worker (the link is the caller's to close); idempotent."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._thread.join(5.0)

    # --- desired state -------------------------------------------------------------------------

    def desired_tray(self, index: int) -> tuple[Led, ...]:
        """What tray ``index`` should show (slots not listed are off)."""
        with self._cond:
            return self._trays.get(index, ())

    def desired_track(self) -> tuple[Led, ...]:
        """What the round track should show (LEDs not listed are off)."""
        with self._cond:
            return self._track

    def _desire(self, key: int, leds: tuple[Led, ...] = (), level: int = 0) -> None:
        """Record what tray ``key`` (or the track, or brightness) should show; wake the worker."""
        with self._cond:
            if key == _TRACK:
                self._track = leds
            elif key == _BRIGHTNESS:
                self._brightness = level
            else:
                self._trays[key] = leds
            self._dirty.add(key)
            self._cond.notify_all()

    def _resync(self, caps: P.Capabilities) -> None:
        with self._cond:
            self._dirty.update(self._trays)
            self._dirty.add(_TRACK)
            if self._brightness is not None:
                self._dirty.add(_BRIGHTNESS)
            self._cond.notify_all()

    def _poke(self) -> None:
        with self._cond:
            self._cond.notify_all()

    # --- the worker ----------------------------------------------------------------------------

    def _work(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(
                    lambda: (
                        self._closed or (self._dirty and self.link.status is LinkStatus.CONNECTED)
                    )
                )
                if self._closed:
                    return
                key = min(self._dirty)  # brightness, then track, then trays in order
                self._dirty.discard(key)
                leds = self._track if key == _TRACK else self._trays.get(key, ())
                level = self._brightness or 0
                self._busy = True
            try:
                self._send(key, leds, level)
                ok = True
            except BridgeError as exc:
                log.warning("LED update not delivered yet: %s", exc)
                ok = False
            except Exception:  # a bug must not stop the LEDs for the rest of the game
                log.exception("LED update failed; it will be retried")
                ok = False
            with self._cond:
                self._busy = False
                if not ok:
                    self._dirty.add(key)
                    self._cond.wait(self._retry_interval)
                self._cond.notify_all()

    def _send(self, key: int, leds: tuple[Led, ...], level: int) -> None:
        caps = self.link.capabilities
        if caps is None:
            raise BridgeError("no capabilities yet")
        if key == _BRIGHTNESS:
            self._command(P.BRIGHTNESS, P.pack_brightness(min(level, caps.max_brightness)))
        elif key == _TRACK:
            wire = _fit(leds, caps.track_leds, "track")
            for start in range(0, len(wire), P.MAX_TRACK_ENTRIES):
                chunk = wire[start : start + P.MAX_TRACK_ENTRIES]
                self._command(P.SET_TRACK, P.pack_set_track(start, chunk))
        elif key < caps.trays:
            wire = _fit(leds, caps.slots_per_tray, f"tray {key}")
            for start in range(0, len(wire), P.MAX_SLOT_ENTRIES):
                chunk = wire[start : start + P.MAX_SLOT_ENTRIES]
                self._command(P.SET_SLOTS, P.pack_set_slots(key, start, chunk))
        else:
            log.warning("the controller has %d trays; tray %d is not shown", caps.trays, key)

    def _command(self, msg_type: int, payload: bytes) -> None:
        self.link.send(msg_type, payload)
        self.commands_sent += 1


def _fit(leds: Sequence[Led], count: int, what: str) -> list[tuple[int, int, int, int, int]]:
    if len(leds) > count:
        log.warning("%s has %d LEDs; %d more are not shown", what, count, len(leds) - count)
    wire = [led.wire() for led in leds[:count]]
    return wire + [DARK.wire()] * (count - len(wire))


def _leds(leds: Sequence[Led]) -> tuple[Led, ...]:
    out = tuple(leds)
    if not all(isinstance(led, Led) for led in out):
        raise LedValueError("give Led values, e.g. Led((255, 0, 0))")
    return out


class DiceTray:
    """One dice tray: a row of slots, each lit to say which die to roll."""

    def __init__(self, controller: LedController, index: int) -> None:
        self.controller = controller
        self.index = index

    def show(self, leds: Sequence[Led]) -> None:
        """Show exactly these slots, from slot 0; slots beyond them are off."""
        self.controller._desire(self.index, _leds(leds))

    def light(
        self,
        count: int,
        colour: Colour,
        effect: Effect = Effect.SOLID,
        period_ms: int = 0,
    ) -> None:
        """Light the first ``count`` slots in one colour, the others off."""
        if count < 0:
            raise LedValueError(f"cannot light {count} slots")
        self.show([Led(colour, effect, period_ms)] * count)

    def clear(self) -> None:
        """Every slot off."""
        self.show(())

    @property
    def desired(self) -> tuple[Led, ...]:
        """What this tray should show."""
        return self.controller.desired_tray(self.index)


class RoundTrack:
    """The round-track strip: one LED per round (or per phase), in order."""

    def __init__(self, controller: LedController) -> None:
        self.controller = controller

    def show(self, leds: Sequence[Led]) -> None:
        """Show exactly these LEDs, from LED 0; LEDs beyond them are off."""
        self.controller._desire(_TRACK, _leds(leds))

    def mark(
        self,
        current: int,
        colour: Colour,
        *,
        done: Colour | None = (40, 40, 40),
        effect: Effect = Effect.PULSE,
        period_ms: int = 1200,
    ) -> None:
        """Round ``current`` (from 0) animated in ``colour``; earlier rounds dim in ``done``."""
        if current < 0:
            raise LedValueError(f"round {current} is before the first")
        past = Led(done) if done else DARK
        self.show([past] * current + [Led(colour, effect, period_ms)])

    def clear(self) -> None:
        """Every LED off."""
        self.show(())

    @property
    def desired(self) -> tuple[Led, ...]:
        """What the track should show."""
        return self.controller.desired_track()
