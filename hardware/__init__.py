"""The Pi's own inputs and outputs (gpiozero), camera choice and deployment files.

- :class:`ControlPanel`: confirm/advance (long press: menu), undo and menu buttons, buzzer
  patterns and the status LED, as one composite with an injected pin factory;
- :func:`choose_pin_factory`: the Pi's pins on a Pi, gpiozero's mock pins elsewhere (warned);
- ``hardware/deploy/``: systemd unit, Chromium kiosk launcher, udev rule, install script.
"""

from hardware.errors import HardwareError, PinConfigError
from hardware.panel import PATTERNS, ControlPanel
from hardware.pins import MockPinsWarning, choose_pin_factory, on_raspberry_pi

__all__ = [
    "PATTERNS",
    "ControlPanel",
    "HardwareError",
    "MockPinsWarning",
    "PinConfigError",
    "choose_pin_factory",
    "on_raspberry_pi",
]
