"""Value types for LED state, shared by the device API, the emulator and the kiosk."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TypeAlias

from firmware_bridge.errors import LedValueError
from firmware_bridge.firmware import protocol as P

Colour: TypeAlias = tuple[int, int, int]
WireLed: TypeAlias = tuple[int, int, int, int, int]


class Effect(IntEnum):
    """How an LED shows its colour; animated effects repeat every ``period_ms``."""

    OFF = P.OFF
    SOLID = P.SOLID
    BLINK = P.BLINK
    PULSE = P.PULSE
    SPIN = P.SPIN


@dataclass(frozen=True)
class Led:
    """The absolute state of one LED.

    >>> Led((255, 0, 0), Effect.BLINK, 500).wire()
    (255, 0, 0, 2, 500)
    """

    colour: Colour
    effect: Effect = Effect.SOLID
    period_ms: int = 0

    def __post_init__(self) -> None:
        try:
            effect = Effect(self.effect)
            colour = tuple(int(c) for c in self.colour)
        except (TypeError, ValueError) as exc:
            raise LedValueError(f"invalid LED {self.colour!r} {self.effect!r}: {exc}") from None
        if len(colour) != 3:
            raise LedValueError(f"a colour has three components, not {self.colour!r}")
        object.__setattr__(self, "effect", effect)
        object.__setattr__(self, "colour", colour)
        try:
            P.check_led(self.wire())
        except P.PayloadError as exc:
            raise LedValueError(f"invalid LED {self}: {exc}") from None

    def wire(self) -> WireLed:
        """The (r, g, b, effect, period_ms) tuple of the protocol."""
        r, g, b = self.colour
        return (r, g, b, int(self.effect), self.period_ms)

    @classmethod
    def from_wire(cls, led: Sequence[int]) -> Led:
        """The Led of a protocol tuple."""
        r, g, b, effect, period = led
        return cls((r, g, b), Effect(effect), period)


DARK = Led((0, 0, 0), Effect.OFF)
"""An LED that is off."""


@dataclass(frozen=True)
class LedState:
    """What a controller shows: every tray's slots, the round track, the global brightness."""

    trays: tuple[tuple[Led, ...], ...] = field(default_factory=tuple)
    track: tuple[Led, ...] = field(default_factory=tuple)
    brightness: int = 255

    @classmethod
    def dark(cls, trays: int, slots: int, track: int, brightness: int = 255) -> LedState:
        """Everything off."""
        return cls(tuple((DARK,) * slots for _ in range(trays)), (DARK,) * track, brightness)
