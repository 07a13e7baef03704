"""`tablesight scan`: read photos of a game's table and print what the camera sees there.

For each IMAGE it prints, board by board, the pieces and cells it recognises and what the rules
say about them (a piece placed where it may not go, a tile missing from the layout…); with
``--json``, one JSON object per image instead. An image that cannot be read is reported on stderr
and the others are still read; the exit status is then 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from kiosk.commands import VERBS
from kiosk.errors import CommandError

if TYPE_CHECKING:
    from kiosk.settings import Settings


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `scan` verb."""
    parser = sub.add_parser(
        "scan",
        help=VERBS["scan"],
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", help="greenwood, dont_starve or stonesaga")
    parser.add_argument("images", nargs="+", type=Path, metavar="IMAGE", help="photos of the table")
    parser.add_argument("--json", action="store_true", help="one JSON object per image")
    parser.set_defaults(handler=scan)


def scan(args: argparse.Namespace, settings: Settings) -> int:
    """Run the game's reader on each image; an unreadable image does not stop the others."""
    import cv2

    from engine.core import EngineError, find_game
    from vision.errors import ReaderNotFoundError, VisionError
    from vision.readers import find_reader
    from vision.sources import check_image_file

    try:
        game = find_game(args.game)
    except EngineError as exc:
        raise CommandError(str(exc)) from None
    try:
        reader = find_reader(game.name)
    except ReaderNotFoundError as exc:
        raise CommandError(str(exc)) from None
    from kiosk.boxes import current_box

    box = current_box(settings.data_dir, game)  # judged as a new game at this table would be
    status = 0
    for path in args.images:
        try:
            check_image_file(path)  # a missing, tiny or huge image: refused before decoding
            result = reader.scan(path, settings.lang, box=box)
        except (VisionError, EngineError, OSError, cv2.error) as exc:
            if isinstance(exc, cv2.error):  # OpenCV's own refusal of a header it read
                exc = VisionError("not an image OpenCV can read")
            where = "" if str(path) in str(exc) else f"{path}: "
            print(f"tablesight scan: {where}{exc}", file=sys.stderr)
            status = 2
            continue
        if args.json:
            print(json.dumps({"image": str(path), **result}, ensure_ascii=False))
        else:
            print(f"{path}:\n{reader.describe(result, settings.lang)}")
    return status
