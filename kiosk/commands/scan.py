"""`tablesight scan`: read photos of a game's table, or a second of a camera or a video, and
print what the camera sees there.

For each IMAGE it prints, board by board, the pieces and cells it recognises and what the rules
say about them (a piece placed where it may not go, a tile missing from the layout…); with
``--json``, one JSON object per image instead. An IMAGE may also be a video file, video:PATH,
folder:PATH, camera:N, picamera2 or the word camera (the settings' camera): then the frames of
``--seconds`` (1 by default) are read together, so a small sticker that only some frames read
is read (every game's reader reads what the frames show together).
An image that cannot be read is reported on stderr and the others are still read; the exit
status is then 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import json
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kiosk.commands import VERBS
from kiosk.errors import CommandError

if TYPE_CHECKING:
    from kiosk.settings import Settings
    from vision.readers import GameReader
    from vision.sources import SourceConfig

SOURCE_KINDS = ("camera:", "video:", "folder:")
MAX_SECONDS = 10.0
MAX_FRAMES = 300
"""A scan holds its frames in grey: 300 frames of 1920 × 1080 are 620 MB."""


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `scan` verb."""
    parser = sub.add_parser(
        "scan",
        help=VERBS["scan"],
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", help="greenwood, dont_starve or stonesaga")
    parser.add_argument(
        "images",
        nargs="+",
        metavar="IMAGE",
        help="photos of the table, or a video file, video:PATH, folder:PATH, camera:N, "
        "picamera2 or camera (the settings' camera) for a second of frames",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per image")
    parser.add_argument(
        "--seconds",
        type=float,
        default=1.0,
        metavar="S",
        help=f"of a camera or a video: read the frames of S seconds together (default 1; "
        f"at most {MAX_SECONDS:g})",
    )
    parser.add_argument(
        "--frames",
        type=int,
        default=None,
        metavar="N",
        help=f"of a camera or a video: at most N frames (at most {MAX_FRAMES})",
    )
    parser.set_defaults(handler=scan)


def scan(args: argparse.Namespace, settings: Settings) -> int:
    """Run the game's reader on each image or source; an unreadable one does not stop the
    others."""
    import cv2

    from engine.core import EngineError, find_game
    from vision.errors import ReaderNotFoundError, VisionError
    from vision.readers import find_reader
    from vision.sources import check_image_file

    if not 0 < args.seconds <= MAX_SECONDS:
        raise CommandError(f"--seconds must be above 0 and at most {MAX_SECONDS:g}")
    if args.frames is not None and not 1 <= args.frames <= MAX_FRAMES:
        raise CommandError(f"--frames must be 1 to {MAX_FRAMES}")
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
    for name in args.images:
        try:
            config = source_of(name, settings)
            if config is None:
                path = Path(name)
                check_image_file(path)  # a missing, tiny or huge image: refused before decoding
                result = reader.scan(path, settings.lang, box=box)
            else:
                result = _scan_frames(reader, config, args, settings, box)
        except (VisionError, EngineError, OSError, cv2.error) as exc:
            if isinstance(exc, cv2.error):  # OpenCV's own refusal of a header it read
                exc = VisionError("not an image OpenCV can read")
            where = "" if name in str(exc) else f"{name}: "
            print(f"tablesight scan: {where}{exc}", file=sys.stderr)
            status = 2
            continue
        if args.json:
            print(json.dumps({"image": name, **result}, ensure_ascii=False))
        else:
            frames = result.get("frames")
            seen = f" ({frames} frames)" if frames else ""
            print(f"{name}{seen}:\n{reader.describe(result, settings.lang)}")
    return status


def source_of(name: str, settings: Settings) -> SourceConfig | None:
    """The frame source an IMAGE argument names, or None for a still image: a source spec, the
    word camera (the settings' camera), or a file whose name ends as a video's. A camera gets
    the settings' requests (size, rate, exposure, gain)."""
    from vision.sources import VIDEO_SUFFIXES, SourceConfig

    if name == "camera":
        return settings.camera.source_config()
    if name == "picamera2" or name.startswith(SOURCE_KINDS):
        config = SourceConfig.from_spec(name)
        if config.kind in ("camera", "picamera2"):
            asked = settings.camera.source_config()
            config = dataclasses.replace(
                config,
                width=asked.width,
                height=asked.height,
                fps=asked.fps,
                exposure=asked.exposure,
                gain=asked.gain,
            )
        return config
    if Path(name).suffix.lower() in VIDEO_SUFFIXES:
        return SourceConfig("video", path=Path(name))
    return None


def _scan_frames(
    reader: GameReader,
    config: SourceConfig,
    args: argparse.Namespace,
    settings: Settings,
    box: Any,
) -> dict[str, Any]:
    """The reader on what ``--seconds`` of frames of the source show together
    (`vision.stabiliser.steady_view`), with the frames' size when the reader asks for it
    (``frame_size``: its calibration's lens is of the frame); a reader that reads only a
    picture gets the frame that read the most of the tags held (said on stderr)."""
    import cv2

    from vision.detection import Detector
    from vision.sources import open_source, take_frames
    from vision.stabiliser import steady_view

    frames, why = take_frames(open_source(config), args.seconds, args.frames, grey=True)
    if why is not None and len(frames) > 1:
        print(f"tablesight scan: {why} after {len(frames)} frames", file=sys.stderr)
    detector = Detector()

    def detect(image: Any) -> tuple[list[Any], list[Any]]:
        return detector.detect(image), list(detector.candidates)

    view = steady_view(((f.image, f.timestamp_ms) for f in frames), detect)
    takes = inspect.signature(reader.scan).parameters
    if "view" in takes:
        height, width = frames[0].image.shape[:2]
        size = {"frame_size": (width, height)} if "frame_size" in takes else {}
        result = reader.scan(None, settings.lang, box=box, view=view, **size)
    else:
        print(
            f"tablesight scan: {reader.game}: its reader reads one picture: frame "
            f"{view.best + 1} of {view.frames}, the one that read the most tags",
            file=sys.stderr,
        )
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "frame.png"
            cv2.imwrite(str(path), frames[view.best].image)
            result = reader.scan(path, settings.lang, box=box)
    reads = {str(tag): n for tag, n in sorted(view.reads.items())}
    return {**result, "frames": view.frames, "reads": reads}
