"""`tablesight scan`: read images through a game's reader and print what it sees and its verdicts.

Each game's reader lives in ``vision.readers.<game>`` and provides::

    scan(image_path: Path, lang: str) -> dict   # JSON-able: per board, pieces, cells, verdicts
    describe(result: dict, lang: str) -> str   # the same for people

A game whose reader has not landed says so in one line and exits 2.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

from engine.core import EngineError, find_game
from kiosk.errors import CommandError
from kiosk.settings import Settings
from vision.errors import VisionError


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `scan` verb."""
    parser = sub.add_parser(
        "scan",
        help="read images through a game's reader",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", help="greenwood, dont_starve or stonesaga")
    parser.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    parser.add_argument("--json", action="store_true", help="one JSON object per image")
    parser.set_defaults(handler=scan)


def scan(args: argparse.Namespace, settings: Settings) -> int:
    """Run the game's reader on each image; an unreadable image does not stop the others."""
    try:
        game = find_game(args.game)
    except EngineError as exc:
        raise CommandError(str(exc)) from None
    try:
        reader = importlib.import_module(f"vision.readers.{game.name}")
    except ModuleNotFoundError as exc:
        if exc.name not in (f"vision.readers.{game.name}", "vision.readers"):
            raise
        raise CommandError(f"the {game.name} reader is not available yet") from None
    status = 0
    for path in args.images:
        try:
            result = reader.scan(path, settings.lang)
        except (VisionError, EngineError, OSError) as exc:
            where = "" if str(path) in str(exc) else f"{path}: "
            print(f"tablesight scan: {where}{exc}", file=sys.stderr)
            status = 2
            continue
        if args.json:
            print(json.dumps({"image": str(path), **result}, ensure_ascii=False))
        else:
            print(f"{path}:\n{reader.describe(result, settings.lang)}")
    return status
