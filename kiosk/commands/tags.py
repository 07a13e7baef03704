"""`tablesight tags GAME --out FILE`: write a game's sticker sheets at true size.

The file type follows the suffix: .pdf (all pages in one file), .svg or .png (one file per page:
FILE, FILE-2, …). GAME is greenwood, dont_starve, stonesaga, or anchors for the four calibration
anchors. The labels are in the kiosk's language (the settings' ``lang``) unless ``--lang``
says otherwise. Print at 100 % ("actual size"), never "fit to page".
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kiosk.commands import VERBS
from kiosk.errors import CommandError

if TYPE_CHECKING:
    from kiosk.settings import Settings


def register(sub: Any) -> None:
    """Add the `tags` verb."""
    parser = sub.add_parser("tags", help=VERBS["tags"], description=__doc__.split("\n\n", 1)[1])
    parser.add_argument(
        "game", metavar="GAME", help="whose tags: greenwood, dont_starve, stonesaga or anchors"
    )
    parser.add_argument("--out", type=Path, required=True, metavar="FILE", help=".pdf/.svg/.png")
    parser.add_argument(
        "--lang",
        dest="labels_lang",  # its own name: a sub-command's default would hide `tablesight --lang`
        choices=("zh", "en"),
        help="the labels' language (default: the kiosk's)",
    )
    parser.set_defaults(handler=tags)


def tags(args: argparse.Namespace, settings: Settings) -> int:
    """Write the sheets and say what was written."""
    from engine.core import EngineError, find_game
    from vision.errors import VisionError
    from vision.registry import ANCHORS, load_registry
    from vision.sheets import sheet_title, write_sheets

    lang = args.labels_lang or settings.lang
    title = sheet_title(None)
    if args.game != ANCHORS:
        try:
            game = find_game(args.game)
        except EngineError as exc:
            raise CommandError(f"{exc}, or {ANCHORS} for the calibration anchors") from None
        args.game, title = game.name, sheet_title(game.title)
    from kiosk.errors import check_output_file

    check_output_file(args.out, "--out")
    try:
        entries = load_registry().for_game(args.game)
        paths = write_sheets(entries, args.out, title=title.in_(lang), lang=lang)
    except VisionError as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:  # a full disk, /dev/full, a folder that cannot be written
        why = exc.strerror or str(exc)
        raise CommandError(f"--out {args.out}: the sheets could not be written: {why}") from None
    placeholders = sum(1 for e in entries if e.placeholder)
    print(f"{args.game}: {len(entries)} tags on {len(paths)} file(s)")
    for path in paths:
        print(f"  {path}")
    if placeholders:
        print(
            f"note: {placeholders} tag size(s) are placeholders until measured "
            f"(see vision/tags/{args.game}.toml)"
        )
    print('print at 100 % ("actual size"), not "fit to page"')
    return 0
