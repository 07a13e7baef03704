"""`tablesight detect`: print the AprilTags found in images.

With ``--json``, one JSON object per image, one per line, in pixel coordinates::

    {"image": PATH, "width": W, "height": H, "detections": [{"family": "tag36h11", "id": N,
     "center": [x, y], "corners": [[x, y], [x, y], [x, y], [x, y]]}]}

An image that cannot be read is reported on stderr and the others are still read; the exit status
is then 2. An image whose header declares more than 50 megapixels, or a side under 16 pixels, is
refused before it is decoded. An id seen twice in one image is reported twice and flagged on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kiosk.commands import VERBS
from kiosk.errors import CommandError

if TYPE_CHECKING:
    from vision.detection import Detection

EXIT_UNREADABLE = 2


def register(sub: Any) -> None:
    """Add the `detect` verb."""
    parser = sub.add_parser(
        "detect",
        help=VERBS["detect"],
        description=__doc__.split("\n\n")[0],
    )
    parser.add_argument("images", nargs="+", type=Path, metavar="IMAGE", help="image files")
    parser.add_argument("--json", action="store_true", help="one JSON object per image per line")
    parser.add_argument(
        "--family",
        action="append",
        metavar="FAMILY",
        help="tag family to look for, e.g. tag36h11 or tag25h9 (repeatable; default: the"
        " settings' families, tag36h11)",
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help="one call of AprilTag only, without the extra passes (faster, finds fewer)",
    )
    parser.set_defaults(handler=detect)


def detect(args: argparse.Namespace, settings: object) -> int:
    """Detect the tags in each image and print them; returns the exit status."""
    from vision.detection import FAMILIES, Detector, DetectorConfig, duplicates
    from vision.errors import VisionError
    from vision.sources import load_image

    unknown = [f for f in args.family or () if f not in FAMILIES]
    if unknown:
        raise CommandError(
            f"--family: no tag family called {unknown[0]!r}; the families are: "
            + ", ".join(FAMILIES)
        )
    config = getattr(settings, "detector", None) or DetectorConfig()
    if args.family:
        config = replace(config, families=tuple(dict.fromkeys(args.family)))
    if args.plain:
        config = config.as_plain()
    detector = Detector(config)
    status = 0
    for path in args.images:
        try:
            image = load_image(path)
            found = detector.detect(image)
        except VisionError as exc:
            print(f"tablesight detect: {exc}", file=sys.stderr)
            status = EXIT_UNREADABLE
            continue
        height, width = image.shape[:2]
        for family, tag_id in duplicates(found):
            print(
                f"tablesight detect: {path}: {family} id {tag_id} is seen more than once; "
                "each is reported, none is chosen",
                file=sys.stderr,
            )
        if args.json:
            record = {
                "image": str(path),
                "width": width,
                "height": height,
                "detections": [d.as_json() for d in found],
            }
            print(json.dumps(record), flush=True)
        else:
            print(_human(path, width, height, found), flush=True)
    return status


def _human(path: Path, width: int, height: int, found: list[Detection]) -> str:
    """A few readable lines for one image."""
    from vision.detection import duplicates

    count = "no tags" if not found else f"{len(found)} tag{'s' if len(found) > 1 else ''}"
    lines = [f"{path}: {width}×{height}, {count}"]
    lines += [
        f"  {family} id {tag_id} is seen more than once" for family, tag_id in duplicates(found)
    ]
    lines += [
        f"  {d.family} {d.id:>4}  at ({d.center[0]:7.1f}, {d.center[1]:7.1f})"
        f"  margin {d.decision_margin:5.1f}"
        for d in found
    ]
    return "\n".join(lines)
