"""The hardware package's exceptions."""


class HardwareError(Exception):
    """Root of the errors raised by the hardware package."""


class PinConfigError(HardwareError, ValueError):
    """A pin setting cannot be used (a pin given twice, an unknown pin factory)."""
