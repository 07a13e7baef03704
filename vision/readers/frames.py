"""What a game's ``scan`` reads: the tags of one photo, or those a run of frames showed
together (`vision.stabiliser.steady_view`), with the frame's size for the calibration; and
their places on the table, worked out together."""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from vision.detection import Detection, Detector, read_image
from vision.readers.base import Pose, ToTable
from vision.stabiliser import SteadyView


class FrameReading(NamedTuple):
    """What `frame_detections` read: the tags, the frame's (width, height), and the quads that
    looked like a sticker where no tag was read (pixels, 4 × 2 each: a sticker not read), of a
    run of frames those that showed in at least half of them (not a passing hand's edge)."""

    detections: list[Detection]
    size: tuple[int, int]
    unread: list[npt.NDArray[np.float64]]


def frame_detections(
    image_path: Path | None,
    view: SteadyView | None = None,
    frame_size: tuple[int, int] | None = None,
) -> FrameReading:
    """What the frames show: of ``view`` (its tags held over the frames, each at the median of
    its reads, and its unread quads) with ``frame_size``, else of the photo at ``image_path``
    (decoded in grey: the detector reads grey levels only)."""
    if view is not None:
        if frame_size is None:
            raise ValueError("a view of frames needs the frames' size")
        counts = view.unread_frames or [view.frames] * len(view.unread)
        still = [q for q, n in zip(view.unread, counts, strict=True) if 2 * n >= view.frames]
        return FrameReading(list(view.detections), frame_size, still)
    if image_path is None:
        raise ValueError("scan needs an image or a view of frames")
    image = read_image(image_path, grey=True)
    height, width = image.shape[:2]
    detector = _detector()
    found = detector.detect(image)
    unread = [np.asarray(q, np.float64).reshape(4, 2) for q in detector.candidates]
    return FrameReading(found, (width, height), unread)


_KEPT = threading.local()


def _detector() -> Detector:
    """The thread's own detector, kept from one photo to the next (as the table loop keeps
    one: a new one per photo builds its ``cv2.aruco`` detectors, and on a Pi its pool of
    threads, again each time)."""
    detector: Detector | None = getattr(_KEPT, "detector", None)
    if detector is None:
        detector = _KEPT.detector = Detector()
    return detector


def table_poses(detections: Sequence[Detection], to_table: ToTable) -> list[tuple[int, Pose]]:
    """`tag_poses`, every tag's corners taken to the table in one call of ``to_table`` (a
    calibration's lens undistorts many points in the time of a few) and every centre and turn
    worked out together (the same sums as `tag_poses`, tag by tag)."""
    if not detections:
        return []
    quads = np.array([d.corners for d in detections], np.float64).reshape(-1, 4, 2)
    mapped = np.asarray(to_table(quads.reshape(-1, 2)), np.float64).reshape(-1, 4, 2)
    centres = mapped.mean(axis=1)
    ups = ((mapped[:, 0] + mapped[:, 1]) / 2 - centres).tolist()
    return [
        (d.id, (x, y, math.degrees(math.atan2(up_x, -up_y)) % 360))
        for d, (x, y), (up_x, up_y) in zip(detections, centres.tolist(), ups, strict=True)
    ]
