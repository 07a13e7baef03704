"""The serial protocol to the LED controller, its emulator and the firmware.

- ``firmware_bridge.firmware.protocol``: the codec, shared unchanged with the MicroPython firmware;
- :class:`Link`: the self-healing serial link; :class:`LedController`, :class:`DiceTray`,
  :class:`RoundTrack`: the desired LED state, kept on the controller;
- ``firmware_bridge.emulator``: a controller on a pseudo-terminal, running the firmware's code;
- :func:`open_leds`: the plugged-in controller, or an emulated one when there is none.
"""

from firmware_bridge.connect import Leds, open_leds
from firmware_bridge.devices import DiceTray, LedController, RoundTrack
from firmware_bridge.errors import (
    BridgeError,
    CommandRefused,
    CommandTimeout,
    IncompatibleDevice,
    LedValueError,
    LinkError,
    NotConnected,
)
from firmware_bridge.link import DeviceEvent, Link, LinkStatus, find_controller
from firmware_bridge.state import Effect, Led, LedState

__all__ = [
    "BridgeError",
    "CommandRefused",
    "CommandTimeout",
    "DeviceEvent",
    "DiceTray",
    "Effect",
    "IncompatibleDevice",
    "Led",
    "LedController",
    "LedState",
    "LedValueError",
    "Leds",
    "Link",
    "LinkError",
    "LinkStatus",
    "NotConnected",
    "RoundTrack",
    "find_controller",
    "open_leds",
]
