"""The kiosk package's exceptions."""


class KioskError(Exception):
    """Root of the errors raised by the kiosk package."""


class CommandError(KioskError):
    """A verb cannot do what was asked; the message is shown to the user as it is (exit 2)."""
