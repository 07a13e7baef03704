"""Choosing gpiozero's pin factory: the Pi's own pins on a Pi, mock pins everywhere else.

Like gpiozero itself, the choice is made by configuration (``gpio.pin_factory`` in the settings,
else ``GPIOZERO_PIN_FACTORY``), never by ``if testing:`` branches: when neither names one and
the machine is not a Raspberry Pi, gpiozero's ``MockFactory`` is used with a warning.
"""

from __future__ import annotations

import os
import warnings
from importlib.metadata import entry_points
from pathlib import Path

from gpiozero import Factory
from gpiozero.pins.mock import MockFactory

from hardware.errors import PinConfigError

MODEL_FILE = Path("/proc/device-tree/model")


class MockPinsWarning(UserWarning):
    """Not on a Raspberry Pi and no pin factory named: the buttons and buzzer are mock pins."""


def on_raspberry_pi(model_file: Path = MODEL_FILE) -> bool:
    """Whether this machine is a Raspberry Pi (by its device-tree model string)."""
    try:
        return "raspberry pi" in model_file.read_text(errors="replace").lower()
    except OSError:
        return False


def choose_pin_factory(name: str | None = None, *, model_file: Path = MODEL_FILE) -> Factory | None:
    """The pin factory to give every device: ``name`` (``mock``, ``lgpio``, ``rpigpio``…), else
    ``GPIOZERO_PIN_FACTORY``, else None (gpiozero's own choice) on a Pi, else mock pins with a
    MockPinsWarning. Raises PinConfigError for an unknown name."""
    name = name or os.environ.get("GPIOZERO_PIN_FACTORY")
    if name is None:
        if on_raspberry_pi(model_file):
            return None
        warnings.warn(
            MockPinsWarning("not on a Raspberry Pi: using gpiozero's mock pins for the buttons"),
            stacklevel=2,
        )
        return MockFactory()
    if name.lower() == "mock":
        return MockFactory()
    for entry in entry_points(group="gpiozero_pin_factories"):
        if entry.name.lower() == name.lower():
            try:
                return entry.load()()
            except Exception as exc:  # a factory's import or its hardware probe failed
                raise PinConfigError(f"pin factory {name!r} cannot start: {exc}") from None
    known = sorted({e.name for e in entry_points(group="gpiozero_pin_factories")})
    raise PinConfigError(f"unknown pin factory {name!r}; gpiozero knows: {', '.join(known)}")
