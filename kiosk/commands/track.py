"""`tablesight track`: stream the stickers the camera sees, as JSON lines or TUIO 1.1.

SOURCE is camera:N, camera:/dev/videoN, picamera2, video:PATH, folder:PATH or synthetic (default:
the settings' camera). The frames go through the pipeline of `tablesight run` (the incremental
detector, then the stabiliser), and each change is printed: a tag added, moved (update) or
removed, with its session id. With --json, one JSON object per change per line (docs/vision.md
gives the fields); with --tuio HOST:PORT, TUIO 1.1 /tuio/2Dobj bundles are sent there over UDP
as well, for software built for reacTIVision. Places are in table millimetres when the saved
calibration fits the camera, else in pixels; x and y are always 0-1 across and down the frame.

Each frame's time is the source's own: a camera's capture time, a video's timestamps, a
folder's --fps (else the settings' [camera] fps, else its files' modification times when they
are usable, else 10 frames a second; stderr says which). A sticker taken off the table is removed
as soon as its place shows bare table; one under a hand stays while covered, up to 3 s (each
removal says why).

A video or a folder ends the verb when it ends, with a summary (frames, tags seen, time per
frame); --frames N stops after N frames; Ctrl-C stops it cleanly.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kiosk.commands import VERBS
from kiosk.errors import CommandError

if TYPE_CHECKING:
    from kiosk.settings import Settings
    from vision.stabiliser import Observation

WHY = {
    "bare": "its place is bare",
    "replaced": "another tag is in its place",
    "covered": "covered too long",
    "unseen": "not seen",
}
"""How a removal is told in the readable output, by the observation's ``why``."""


def register(sub: Any) -> None:
    """Add the `track` verb."""
    parser = sub.add_parser(
        "track",
        help=VERBS["track"],
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "source",
        nargs="?",
        metavar="SOURCE",
        help="camera:N, camera:/dev/videoN, picamera2, video:PATH, folder:PATH or synthetic",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per change per line")
    parser.add_argument(
        "--tuio", metavar="HOST:PORT", help="also send TUIO 1.1 over UDP (reacTIVision: :3333)"
    )
    parser.add_argument("--frames", type=int, metavar="N", help="stop after N frames")
    parser.add_argument(
        "--fps",
        type=float,
        metavar="N",
        help="a folder's frames a second (default: [camera] fps, else the files' times);"
        " asked of a camera",
    )
    parser.add_argument(
        "--calibration",
        type=Path,
        metavar="FILE",
        help="the calibration to use (default: the one saved by tablesight calibrate, if any)",
    )
    parser.set_defaults(handler=track)


def track(args: argparse.Namespace, settings: Settings) -> int:
    """Run the pipeline on the source and print (and send) each change; returns 0."""
    from vision.errors import CalibrationError, SourceLostError, VisionError
    from vision.sources import SourceConfig, open_source

    if args.frames is not None and args.frames < 1:
        raise CommandError(f"--frames must be a whole number above 0, not {args.frames}")
    if args.fps is not None and not 0 < args.fps <= 1000:
        raise CommandError(f"--fps must be above 0 and at most 1000, not {args.fps:g}")
    sender = None
    if args.tuio is not None:
        from vision.tuio import TuioSender, parse_destination

        try:
            sender = TuioSender(*parse_destination(args.tuio))
        except VisionError as exc:
            raise CommandError(str(exc)) from None
    calibration = None
    if args.calibration is not None:
        from vision.calibration import TableCalibration

        try:
            calibration = TableCalibration.load(args.calibration)
        except CalibrationError as exc:
            raise CommandError(str(exc)) from None
    fps = args.fps or settings.camera.fps
    try:
        if args.source is None:
            config = settings.camera.source_config()
            config = dataclasses.replace(config, fps=fps)
        else:
            config = SourceConfig.from_spec(args.source, fps=fps)
        source = open_source(config)
        source.open()  # a source that cannot open at all is a mistake, not a lost camera
    except SourceLostError as exc:
        raise CommandError(str(exc)) from None
    except VisionError as exc:
        raise CommandError(str(exc)) from None
    clock = getattr(source, "clock", "")
    if clock and not getattr(source, "rate_guessed", False):  # else a warning said it
        print(f"tablesight track: frame times: {clock}", file=sys.stderr, flush=True)
    tracker = _Tracker(args, settings, source, calibration, sender)
    try:
        tracker.run()
    except KeyboardInterrupt:
        tracker.interrupted = True
    except VisionError as exc:  # a calibration given for frames of another size
        raise CommandError(str(exc)) from None
    finally:
        tracker.close()
    tracker.summary()
    return 0


class _Tracker:
    """The frame loop of `track`: source → incremental detector → stabiliser → output."""

    def __init__(
        self,
        args: argparse.Namespace,
        settings: Settings,
        source: Any,
        calibration: Any,
        sender: Any,
    ) -> None:
        from vision.detection import Detector
        from vision.incremental import IncrementalDetector
        from vision.registry import load_registry
        from vision.sources import ResilientSource

        self.args, self.settings, self.sender = args, settings, sender
        self.calibration = calibration
        self.explicit_calibration = calibration is not None
        self.source = ResilientSource(source, on_state=self._state)
        self.detector = IncrementalDetector(Detector(settings.detector))
        self.registry = load_registry()
        self.stabiliser: Any = None
        self.tuio: Any = None
        self.size: tuple[int, int] | None = None
        self.frames = 0
        self.busy_s = 0.0
        self.started = time.monotonic()
        self.seen: set[tuple[str, int]] = set()
        self.interrupted = False
        self.lost = ""

    def run(self) -> None:
        """Read frames until the source ends, ``--frames`` is reached or Ctrl-C."""
        while self.args.frames is None or self.frames < self.args.frames:
            frame = self.source.read(timeout=1.0)
            if frame is None:
                if self.source.state == "ended":
                    return
                continue
            began = time.perf_counter()
            observations = self._process(frame)
            self.busy_s += time.perf_counter() - began
            self.frames += 1
            for o in observations:
                self._print(o, frame.index)
            if self.sender is not None:
                self.sender.send(self.tuio.frame(observations, frame.timestamp_ms))

    def _process(self, frame: Any) -> list[Observation]:
        image = frame.image
        height, width = image.shape[:2]
        if self.size != (width, height):
            self._start(width, height)
        detections = self.detector.detect(image)
        assert self.stabiliser is not None
        return self.stabiliser.update(detections, frame.timestamp_ms, image)

    def _start(self, width: int, height: int) -> None:
        """(Re)build the stabiliser and the TUIO tracker for frames of this size."""
        from vision.errors import CalibrationError
        from vision.stabiliser import Stabiliser
        from vision.tuio import TuioTracker

        self.size = (width, height)
        calibration = self.calibration
        where = "the calibration given"
        if calibration is None and not self.explicit_calibration:
            from kiosk.loop import load_calibration

            calibration = load_calibration(self.settings.calibration_file)
            where = "the saved calibration"
        if calibration is not None and calibration.image_size != (width, height):
            w, h = calibration.image_size
            if self.explicit_calibration:
                raise CalibrationError(
                    f"the calibration is for {w}×{h} frames but these are {width}×{height}"
                )
            print(
                f"tablesight track: the saved calibration is for {w}×{h} frames, these are "
                f"{width}×{height}: places in pixels",
                file=sys.stderr,
            )
            calibration = None
        self.active_calibration = calibration
        if calibration is not None:
            print(f"tablesight track: places in table millimetres ({where})", file=sys.stderr)
            to_table = calibration.to_table  # through the lens, as the table loop places tags
        else:
            print("tablesight track: places in pixels (not calibrated)", file=sys.stderr)
            to_table = None
        self.stabiliser = Stabiliser(self.settings.stabiliser, to_table=to_table)
        self.tuio = TuioTracker(self._normalise)

    def _normalise(self, x: float, y: float) -> tuple[float, float]:
        """A stabiliser place (table mm or pixels) as 0-1 across and down the frame."""
        import numpy as np

        assert self.size is not None
        if self.active_calibration is not None:
            x, y = self.active_calibration.to_image(np.array([[x, y]], float))[0]
        width, height = self.size
        return float(x) / width, float(y) / height

    def _print(self, o: Observation, index: int) -> None:
        """One change on stdout, as JSON or as a readable line."""
        self.seen.add((o.family, o.tag_id))
        x, y = self._normalise(o.x_mm, o.y_mm)
        assert self.size is not None
        px = [round(x * self.size[0], 2), round(y * self.size[1], 2)]
        if self.args.json:
            record: dict[str, Any] = {
                "event": o.kind,
                "session": o.session_id,
                "family": o.family,
                "id": o.tag_id,
                "x": round(x, 5),
                "y": round(y, 5),
                "px": px,
                "angle": round(o.angle_deg, 2),
                "time_ms": round(o.timestamp_ms, 3),
                "frame": index,
            }
            if self.active_calibration is not None:
                record["mm"] = [round(o.x_mm, 2), round(o.y_mm, 2)]
            if o.kind == "remove":
                record["why"] = o.why
            if o.kind == "duplicate":
                record["places"] = [[round(a, 2), round(b, 2)] for a, b in o.places]
            print(json.dumps(record), flush=True)
            return
        entry = self.registry.lookup(o.tag_id, o.family)
        name = f"{o.tag_id} {entry.label}" if entry is not None else f"tag {o.tag_id}"
        if self.active_calibration is not None:
            where = f"({o.x_mm:.0f}, {o.y_mm:.0f}) mm"
        else:
            where = f"({px[0]:.0f}, {px[1]:.0f}) px"
        what = {
            "add": f"added     {name} at {where}, turned {round(o.angle_deg) % 360}°",
            "update": f"moved     {name} to {where}, turned {round(o.angle_deg) % 360}°",
            "remove": f"removed   {name} ({WHY[o.why or 'unseen']})",
            "duplicate": f"twice     {name} is seen {len(o.places)} times: each place ignored",
        }[o.kind]
        print(f"{o.timestamp_ms / 1000:8.2f} s  {what}  (session {o.session_id})", flush=True)

    def _state(self, state: str, message: str) -> None:
        if state == "lost":
            print(f"tablesight track: {message}", file=sys.stderr, flush=True)

    def close(self) -> None:
        """Release the source."""
        self.source.close()

    def summary(self) -> None:
        """Frames, tags seen and time per frame: on stdout, or stderr beside JSON lines."""
        per_frame = f"{1000 * self.busy_s / self.frames:.1f} ms per frame" if self.frames else ""
        tags = len(self.seen)
        ended = "stopped" if self.interrupted else "done"
        line = (
            f"tablesight track: {ended}: {self.frames} frame{'s' * (self.frames != 1)}, "
            f"{tags} tag{'s' * (tags != 1)} seen"
            + (f", {per_frame}" if per_frame else "")
            + (f", {self.sender.sent} TUIO bundles sent" if self.sender is not None else "")
        )
        print(line, file=sys.stderr if self.args.json else sys.stdout, flush=True)
