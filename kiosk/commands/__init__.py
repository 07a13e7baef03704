"""The verbs of the ``tablesight`` command, one module each (``kiosk.commands.<verb>``).

Each module has ``register(subparsers)``, which adds its sub-parser and handler. A verb's module
is imported only when its name is on the command line, so ``tablesight --help`` and ``tablesight
VERB --help`` never wait for the modules of the other verbs; each handler imports the heavy
packages it needs (OpenCV, FastAPI, the engine…) when it runs.
"""

from __future__ import annotations

import importlib
from types import ModuleType

VERBS = {
    "run": "start the kiosk",
    "detect": "print the AprilTags found in images",
    "scan": "read images through a game's reader",
    "replay": "apply a JSON-lines file of moves and print each verdict",
    "tags": "write printable sticker sheets",
    "calibrate": "calibrate the camera to the table",
    "bench": "measure speed and memory",
    "track": "stream the stickers the camera sees (JSON lines, TUIO)",
    "cafe": "serve the overview of a café's tables from an MQTT broker",
}
"""Every verb and the one line that ``tablesight --help`` shows for it."""


def load(verb: str) -> ModuleType:
    """The module of one verb."""
    return importlib.import_module(f"kiosk.commands.{verb}")
