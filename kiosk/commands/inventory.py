"""`tablesight inventory GAME [SOURCE]`: pack away — which of the game's pieces the camera sees.

Lay the game's components out under the camera (tags up) and give SOURCE: a photo, a folder of
photos (taken together: lay the components out in parts and photograph each part), or a camera
(camera:N, camera:/dev/videoN, picamera2, video:PATH, folder:PATH, synthetic; default: the
settings' camera), of which --frames frames are taken together. It prints, by the names on the
sticker sheet (`tablesight tags GAME`), how many pieces it sees of how many, each missing piece,
and the count of each kind, in the kiosk's language (--lang); with --json, one JSON object with
the names in both languages. Exit status 0 when every piece is seen, 1 when some are missing,
2 when no picture could be read.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kiosk.commands import VERBS
from kiosk.errors import CommandError

if TYPE_CHECKING:
    from kiosk.settings import Settings
    from vision.detection import Detection

EXIT_MISSING = 1
MAX_FRAMES = 100
WAIT_S = 10.0
"""How long to wait for a camera's frame before giving up."""


def register(sub: Any) -> None:
    """Add the `inventory` verb."""
    parser = sub.add_parser(
        "inventory",
        help=VERBS["inventory"],
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", metavar="GAME", help="greenwood, dont_starve or stonesaga")
    parser.add_argument(
        "source",
        nargs="?",
        metavar="SOURCE",
        help="a photo, a folder of photos, or camera:N, picamera2, video:PATH, synthetic",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object, names in zh and en")
    parser.add_argument(  # a dest of its own: `tablesight --lang zh inventory …` still counts
        "--lang", dest="text_lang", choices=("zh", "en"), help="the language (default: the kiosk's)"
    )
    parser.add_argument(
        "--frames",
        type=int,
        default=5,
        metavar="N",
        help=f"frames of a camera or video taken together (1-{MAX_FRAMES}, default 5)",
    )
    parser.set_defaults(handler=inventory)


def inventory(args: argparse.Namespace, settings: Settings) -> int:
    """Check the game's pieces in the pictures and print the outcome; returns the exit status."""
    from engine.core import EngineError, find_game
    from vision.detection import Detector
    from vision.errors import VisionError
    from vision.inventory import check, describe
    from vision.registry import load_registry

    if not 1 <= args.frames <= MAX_FRAMES:
        raise CommandError(f"--frames must be a whole number from 1 to {MAX_FRAMES}")
    try:
        game = find_game(args.game)
    except EngineError as exc:
        raise CommandError(str(exc)) from None
    detector = Detector(settings.detector)
    began = time.perf_counter()
    try:
        entries = load_registry().for_game(game.name)
        found, pictures = _detections(args, settings, detector)
        result = check(game.name, entries, found)
    except VisionError as exc:
        raise CommandError(str(exc)) from None
    seconds = time.perf_counter() - began
    if args.json:
        record = {
            **result.as_json(),
            "title": {"zh": game.title.zh, "en": game.title.en},
            "pictures": pictures,
            "seconds": round(seconds, 3),
        }
        print(json.dumps(record, ensure_ascii=False))
    else:
        print(describe(result, game.title, args.text_lang or settings.lang))
    return 0 if result.complete else EXIT_MISSING


def _detections(
    args: argparse.Namespace, settings: Settings, detector: Any
) -> tuple[list[Detection], int]:
    """Every detection of the pictures SOURCE names, and how many pictures were read."""
    from vision.errors import VisionError
    from vision.sources import IMAGE_SUFFIXES, load_image

    source = args.source
    path = Path(source) if source is not None else None
    if path is not None and path.is_file():
        return detector.detect(load_image(path)), 1
    if path is not None and path.is_dir():
        found: list[Detection] = []
        read = 0
        for photo in sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES):
            try:
                found += detector.detect(load_image(photo))
                read += 1
            except VisionError as exc:  # one bad photo of the folder does not stop the others
                print(f"tablesight inventory: {exc}", file=sys.stderr)
        if not read:
            raise CommandError(f"{path}: holds no photo that can be read")
        return found, read
    if path is not None and ":" not in source and source not in ("picamera2", "synthetic"):
        raise CommandError(f"{source}: no such photo or folder (or give camera:N)")
    return _camera(source, settings, detector, args.frames)


def _camera(
    spec: str | None, settings: Settings, detector: Any, frames: int
) -> tuple[list[Detection], int]:
    """The detections of ``frames`` frames of a camera or video (the settings' camera)."""
    from vision.sources import ResilientSource, open_source

    config: Any = spec if spec is not None else settings.camera.source_config()
    source = ResilientSource(open_source(config))
    found: list[Detection] = []
    read = 0
    try:
        while read < frames:
            frame = source.read(timeout=WAIT_S)
            if frame is None:
                if source.state == "ended" and read:
                    break
                raise CommandError(
                    f"no frame from {source.source.name} within {WAIT_S:g} s: {source.message}"
                )
            found += detector.detect(frame.image)
            read += 1
    finally:
        source.close()
    return found, read
