"""Every error firmware_bridge raises: one root, ``BridgeError``, defined with the shared codec.

The codec's own errors (``FrameError``, ``PayloadError`` …) live in ``firmware/protocol.py``
because the firmware raises them too; the host-only ones are here.
"""

from __future__ import annotations

from firmware_bridge.firmware.protocol import (
    ERROR_NAMES,
    TYPE_NAMES,
    BridgeError,
    FrameChecksumError,
    FrameError,
    FrameLengthError,
    PayloadError,
)

__all__ = [
    "BridgeError",
    "CommandRefused",
    "CommandTimeout",
    "FrameChecksumError",
    "FrameError",
    "FrameLengthError",
    "IncompatibleDevice",
    "LedValueError",
    "LinkError",
    "NotConnected",
    "PayloadError",
]


class LinkError(BridgeError, ConnectionError):
    """The LED controller cannot be reached."""


class NotConnected(LinkError):
    """No controller is connected and handshaken right now; the link keeps trying."""


class IncompatibleDevice(LinkError):
    """The controller speaks another protocol version; its firmware must be reflashed."""


class CommandTimeout(BridgeError, TimeoutError):
    """A command was not acknowledged after every retry."""


class CommandRefused(BridgeError, ValueError):
    """The controller answered NACK; ``code`` is the protocol's error code."""

    def __init__(self, msg_type: int, code: int, detail: int = 0) -> None:
        name = TYPE_NAMES.get(msg_type, hex(msg_type))
        reason = ERROR_NAMES.get(code, f"error {code}")
        super().__init__(f"controller refused {name}: {reason}")
        self.msg_type = msg_type
        self.code = code
        self.detail = detail


class LedValueError(BridgeError, ValueError):
    """A colour, effect or period given to the device API is out of range."""
