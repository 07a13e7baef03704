"""`tablesight calibrate`: calibrate the camera to the table from the four anchor tags.

Give a photo of the table (IMAGE) or let it take a frame from the camera (``--source``, else the
camera of the settings). It says
which tags it sees and which anchors are missing (and where they belong), saves the calibration
in the data folder when all anchors are in view, and always writes a picture with what it found
drawn on it. Once calibrated it says how many pixels a millimetre of the table covers, the
smallest sticker that reads reliably at this height and resolution, and warns when the game's
stickers are smaller. It also fits the camera's lens (its barrel distortion) to every sticker
in view besides the anchors (at least six: lay some on the table before calibrating) and says
how far a calibration without it would misplace things. Exit status 0 when calibrated, 2 when
not.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kiosk.commands import VERBS
from kiosk.errors import CommandError

if TYPE_CHECKING:
    from kiosk.settings import Settings
    from vision.calibration import TagPlace
    from vision.sources import SourceConfig

PICTURE_FILE = "calibration.png"
MAX_WAIT_S = 600.0
"""The longest --wait for a frame (a camera that gives none in 10 min will not give one)."""


def register(sub: Any) -> None:
    """Add the `calibrate` verb."""
    parser = sub.add_parser(
        "calibrate",
        help=VERBS["calibrate"],
        description=__doc__.split("\n\n", 1)[1],
    )
    parser.add_argument("image", nargs="?", type=Path, metavar="IMAGE", help="a photo of the table")
    parser.add_argument(
        "--source",
        metavar="SPEC",
        help="take a frame from camera:N, camera:/dev/videoN, picamera2, video:PATH, folder:PATH "
        "or synthetic (default: the settings' camera, TABLESIGHT_CAMERA__SOURCE or [camera]"
        " source in the settings file, else camera:0)",
    )
    parser.add_argument(
        "--anchors",
        type=Path,
        metavar="FILE",
        help="anchor places (TOML like vision/tags/anchors.toml; default: that file)",
    )
    parser.add_argument("--out", type=Path, metavar="FILE", help="where to save the calibration")
    parser.add_argument("--picture", type=Path, metavar="FILE", help="where to write the picture")
    parser.add_argument(
        "--wait",
        type=float,
        default=10.0,
        metavar="S",
        help=f"seconds to wait for a camera frame (above 0, at most {MAX_WAIT_S:g})",
    )
    parser.set_defaults(handler=calibrate)


def calibrate(args: argparse.Namespace, settings: Settings) -> int:
    """Run the guided calibration; returns the exit status."""
    import cv2

    from vision.calibration import MIN_ANCHORS, anchor_report, calibrate_table, draw_calibration
    from vision.detection import Detector
    from vision.errors import CalibrationError, VisionError
    from vision.registry import ANCHORS, TAGS_DIR

    if args.image is not None and args.source is not None:
        raise CommandError("give either an IMAGE or --source, not both")
    if not 0 < args.wait <= MAX_WAIT_S:  # NaN too: a wait without end is no wait
        raise CommandError(
            f"--wait must be a number of seconds above 0 and at most {MAX_WAIT_S:g},"
            f" not {args.wait:g}"
        )
    out = args.out or settings.calibration_file
    picture_path = args.picture or out.with_name(PICTURE_FILE)
    _check_writable(out, "--out" if args.out else "the calibration file")
    _check_writable(picture_path, "--picture" if args.picture else "the picture")
    if not cv2.haveImageWriter(str(picture_path)):
        raise CommandError(
            f"--picture {picture_path}: not a picture file name: end it in .png or .jpg"
        )
    try:
        anchors = _anchors(args.anchors or TAGS_DIR / f"{ANCHORS}.toml")
        image, where = _image(args, settings)
        height, width = image.shape[:2]
        found = Detector().detect(image)
    except VisionError as exc:
        raise CommandError(str(exc)) from None
    print(f"{where}: {width}×{height}, {len(found)} tag(s) in view")
    report = anchor_report(found, anchors)
    for line in report.describe(anchors):
        print(f"  {line}")
    calibration, problem = None, ""
    try:
        calibration = calibrate_table(found, anchors, (width, height))
    except CalibrationError as exc:
        problem = str(exc)
    picture = draw_calibration(image, found, anchors, calibration)
    try:
        picture_path.parent.mkdir(parents=True, exist_ok=True)
        written = cv2.imwrite(str(picture_path), picture)
    except (OSError, cv2.error) as exc:
        raise CommandError(f"cannot write the picture {picture_path}: {_reason(exc)}") from None
    if not written:
        raise CommandError(f"cannot write the picture {picture_path} (use .png or .jpg)")
    print(f"picture: {picture_path}")
    if calibration is None and len(report.found) < MIN_ANCHORS:  # the report says which
        problem = f"{len(report.found)} of the {MIN_ANCHORS} anchors in view, see above"
    if calibration is None:
        raise CommandError(f"not calibrated: {problem}")
    try:
        calibration.save(out)
    except OSError as exc:
        raise CommandError(f"cannot save the calibration {out}: {_reason(exc)}") from None
    corners = 4 * len(calibration.anchors)
    print(
        f"calibrated: reprojection error {calibration.reprojection_error_px:.2f} px "
        f"over {corners} anchor corners"
    )
    print(f"saved: {out}")
    print(_lens_line(calibration, anchors))
    for line in _resolution_lines(calibration, anchors, settings.game):
        print(line)
    return 0


def _lens_line(calibration: Any, anchors: dict[int, TagPlace]) -> str:
    """What the lens fit found: its coefficients, the stickers it rests on and how far a flat
    calibration would be off; or why no lens was fitted."""
    from vision.calibration import MIN_LENS_TAGS, anchors_area, lens_shift_mm

    lens = calibration.lens
    if not lens.bends:
        return (
            f"lens: not fitted (it needs {MIN_LENS_TAGS} or more stickers in view besides the "
            "anchors: lay some on the table and calibrate again); assumed straight"
        )
    shift = lens_shift_mm(calibration, anchors_area(anchors))
    return (
        f"lens: k1 {lens.k1:.3f}, k2 {lens.k2:.3f} (radii in half-diagonals) from "
        f"{calibration.lens_tags} stickers besides the anchors; without it the play area "
        f"would be read up to {shift:.1f} mm off"
    )


def _resolution_lines(calibration: Any, anchors: dict[int, TagPlace], game: str) -> list[str]:
    """Pixels per millimetre at the table, the smallest sticker that reads reliably, and a
    warning naming the game's stickers that are smaller."""
    from vision.calibration import anchors_area, table_resolution
    from vision.errors import VisionError
    from vision.registry import load_registry

    try:
        seen = table_resolution(calibration, anchors_area(anchors))
    except VisionError as exc:
        return [f"resolution at the table unknown: {exc}"]
    lines = [
        f"at the table: {seen.px_per_mm_middle:.2f} px per mm in the middle of the play area, "
        f"{seen.px_per_mm_worst:.2f} at its worst place",
        f"stickers of {seen.smallest_tag_mm:g} mm or more read reliably here "
        f"({seen.reliable_px:g} px a side)",
    ]
    try:
        entries = load_registry([game], anchors=False).for_game(game)
    except VisionError:
        return lines
    small: dict[str, float] = {}  # each kind of component (the tag file's group) and its size
    for entry in entries:
        if entry.tag_mm < seen.smallest_tag_mm:
            small[entry.name] = min(entry.tag_mm, small.get(entry.name, entry.tag_mm))
    if small:
        order = sorted(small.items(), key=lambda item: (item[1], item[0]))
        listed = ", ".join(f"{name} {mm:g} mm" for name, mm in order)
        lines.append(
            f"warning: {game}'s stickers are smaller than {seen.smallest_tag_mm:g} mm: {listed}; "
            "they may read poorly: lower the camera, raise its resolution or print them larger"
        )
    return lines


def _check_writable(path: Path, what: str) -> None:
    """Refuse a file path that is a folder or lies under a file, before anything is done."""
    if path.is_dir():
        raise CommandError(f"{what} {path}: is a folder; give a file name inside it")
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise CommandError(f"{what} {path}: {parent} is a file, not a folder")
            break


def _reason(exc: BaseException) -> str:
    """The short reason of an OS or OpenCV error, without paths or source locations."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return str(exc).strip().splitlines()[-1].split(" in function ")[0]


def _anchors(path: Path) -> dict[int, TagPlace]:
    from vision.registry import anchor_places, load_file

    entries, _ = load_file(path)
    anchors = anchor_places(entries)
    if not anchors:
        raise CommandError(f"{path}: holds no anchors with positions_mm")
    return anchors


def _image(args: argparse.Namespace, settings: Settings) -> tuple[Any, str]:
    from vision.sources import ResilientSource, load_image, open_source

    if args.image is not None:
        return load_image(args.image), str(args.image)
    source = ResilientSource(open_source(_source(args, settings)))
    try:
        frame = source.read(timeout=args.wait)
    finally:
        source.close()
    if frame is None:
        raise CommandError(
            f"no frame from {source.source.name} within {args.wait:g} s: {source.message}"
        )
    return frame.image, source.source.name


def _source(args: argparse.Namespace, settings: Settings) -> str | SourceConfig:
    """``--source``, else the settings' camera when one is set, else the first camera."""
    if args.source is not None:
        return str(args.source)
    if "source" in settings.camera.model_fields_set:
        return settings.camera.source_config()
    return "camera:0"
