"""The vision package's exceptions: one root, leaves that also subclass a builtin."""

from __future__ import annotations

from engine.core.text import Text


class VisionError(Exception):
    """Root of every error raised by the vision package."""


class ImageReadError(VisionError, ValueError):
    """An image file is missing, unreadable, empty or not an image."""


class SourceLostError(VisionError, OSError):
    """A frame source (camera, file, folder) stopped giving frames."""


class CalibrationError(VisionError, ValueError):
    """The camera cannot be calibrated from what is in view."""


class RegistryError(VisionError, ValueError):
    """A tag registry file is malformed or uses an id twice."""


class ReaderNotFoundError(VisionError, LookupError):
    """No reader turns the table of this game into moves (``vision.readers.find_reader``)."""


class ReaderError(VisionError, ValueError):
    """A game's reader cannot read the table as it lies (no pad, no trays, no tags of the game in
    view); ``text`` says so to the players, in Chinese and English."""

    def __init__(self, text: Text) -> None:
        super().__init__(text.en)
        self.text = text
