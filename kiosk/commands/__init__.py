"""The verbs of the ``tablesight`` command, one module each.

The table's own verbs live here (``kiosk.commands.<verb>``). Packages above the kiosk add their
verbs as plugins, in the ``tablesight.verbs`` entry-point group of their distribution
(``pyproject.toml``: the café's ``cafe.verb``, the benchmarks' ``bench.verb``), so that the kiosk
never imports a package that imports it. Each verb's module has ``register(subparsers)``, which
adds its sub-parser and handler, and a plugin's module has ``SUMMARY``, its line in ``--help``.

A verb's module is imported only when its name is on the command line (a plugin's small module
also for ``--help``), so ``tablesight --help`` and ``tablesight VERB --help`` never wait for the
modules of the other verbs; each handler imports the heavy packages it needs (OpenCV, FastAPI,
the engine…) when it runs.
"""

from __future__ import annotations

import importlib
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from types import ModuleType

PLUGIN_GROUP = "tablesight.verbs"

VERBS = {
    "run": "start the kiosk",
    "detect": "print the AprilTags found in images",
    "scan": "read images through a game's reader",
    "replay": "apply a JSON-lines file of moves and print each verdict",
    "tags": "write printable sticker sheets",
    "calibrate": "calibrate the camera to the table",
    "track": "stream the stickers the camera sees (JSON lines, TUIO)",
    "inventory": "pack away: which of a game's pieces the camera sees, which are missing",
    "box": "show, import, export or reset the owner's box of a game (its printed content)",
}
"""The kiosk's own verbs and the one line that ``tablesight --help`` shows for each."""


@cache
def plugins() -> dict[str, EntryPoint]:
    """The verbs that installed packages add (``tablesight.verbs`` entry points), by name."""
    return {ep.name: ep for ep in entry_points(group=PLUGIN_GROUP) if ep.name not in VERBS}


def summaries() -> dict[str, str]:
    """Every verb, the kiosk's and the plugins', with its line in ``--help``."""
    added = {name: str(getattr(load(name), "SUMMARY", "")) for name in sorted(plugins())}
    return {**VERBS, **added}


def load(verb: str) -> ModuleType:
    """The module of one verb (KeyError for a verb nobody provides)."""
    if verb in VERBS:
        return importlib.import_module(f"kiosk.commands.{verb}")
    module = plugins()[verb].load()
    assert isinstance(module, ModuleType), f"{PLUGIN_GROUP} {verb}: not a module"
    return module
