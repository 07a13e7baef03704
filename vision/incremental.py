"""Detection for a mostly static table: re-detect only where the frame changed.

`IncrementalDetector` wraps a `Detector`. It compares each frame, on a coarse averaged grid (so
sensor noise does not count as change), with the frame each region was last detected in (so a
slow drift adds up until it counts), re-runs the detector only on the regions that changed
(grown to take in every tag they touch), keeps the earlier detections everywhere else, and
re-scans the whole frame every ``rescan_every`` frames and whenever most of
the frame changed. On a static table a frame thus costs one small difference image.

>>> import numpy as np
>>> from vision.detection import Detector
>>> incremental = IncrementalDetector(Detector())
>>> incremental.detect(np.full((120, 160), 90, np.uint8)), incremental.last_mode
([], 'full')
>>> incremental.detect(np.full((120, 160), 90, np.uint8)), incremental.last_mode
([], 'unchanged')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Literal

import cv2
import numpy as np
import numpy.typing as npt

from vision.detection import Detection, Detector, to_grey
from vision.errors import VisionError

Image = npt.NDArray[np.uint8]
Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (exclusive)
Mode = Literal["full", "partial", "unchanged"]


class IncrementalConfigError(VisionError, ValueError):
    """A setting of the incremental detector is out of range."""


@dataclass(frozen=True)
class IncrementalConfig:
    """Settings: ``rescan_every`` frames a full detection runs anyway; the frames are compared
    on cells of ``cell`` pixels, and a cell whose mean grey level moved by more than
    ``threshold`` has changed; a changed region is grown by ``pad`` pixels before it is
    re-detected; above ``full_fraction`` of the frame changed, the whole frame is re-detected."""

    rescan_every: int = 30
    cell: int = 8
    threshold: float = 6.0
    pad: int = 24
    full_fraction: float = 0.4

    def __post_init__(self) -> None:
        if self.rescan_every < 1 or self.cell < 1 or self.pad < 0:
            raise IncrementalConfigError("rescan_every and cell must be positive, pad not negative")
        if self.threshold <= 0 or not 0 < self.full_fraction <= 1:
            raise IncrementalConfigError("threshold must be positive, full_fraction in (0, 1]")


class IncrementalDetector:
    """A `Detector` that re-detects only the changed parts of a mostly static scene."""

    def __init__(self, detector: Detector, config: IncrementalConfig | None = None) -> None:
        self.detector = detector
        self.config = config or IncrementalConfig()
        self._coarse: npt.NDArray[np.float32] | None = None
        self._shape: tuple[int, int] | None = None
        self._detections: list[Detection] = []
        self._since_full = 0
        #: What the last call did: a full detection, a partial one, or nothing at all.
        self.last_mode: Mode = "full"
        #: The regions the last partial call re-detected.
        self.last_regions: list[Box] = []

    def reset(self) -> None:
        """Forget the scene: the next frame is detected in full."""
        self._coarse = None

    def detect(self, image: npt.NDArray[np.uint8]) -> list[Detection]:
        """The tags in ``image``, as `Detector.detect` reports them."""
        grey = to_grey(image)
        coarse = self._average(grey)
        self.last_regions = []
        if (
            self._coarse is None
            or self._shape != grey.shape
            or self._since_full + 1 >= self.config.rescan_every
        ):
            return self._full(grey, coarse)
        changed = np.abs(coarse - self._coarse) > self.config.threshold
        self._since_full += 1
        if not changed.any():
            self.last_mode = "unchanged"
            return list(self._detections)
        if changed.mean() > self.config.full_fraction:
            return self._full(grey, coarse)
        return self._partial(grey, coarse, changed)

    def _full(self, grey: Image, coarse: npt.NDArray[np.float32]) -> list[Detection]:
        self._coarse = coarse
        self._shape = grey.shape
        self._since_full = 0
        self._detections = self.detector.detect(grey)
        self.last_mode = "full"
        return list(self._detections)

    def _partial(
        self, grey: Image, coarse: npt.NDArray[np.float32], changed: npt.NDArray[np.bool_]
    ) -> list[Detection]:
        height, width = grey.shape
        # One coarse cell in pixels (about ``config.cell``; exact when it divides the frame).
        cell_w, cell_h = width / changed.shape[1], height / changed.shape[0]
        boxes = _grow(
            _changed_boxes(changed, (cell_w, cell_h), self.config.pad, width, height),
            self._detections,
            self.config.pad,
            width,
            height,
        )
        kept = [d for d in self._detections if not any(_touches(d, b) for b in boxes)]
        assert self._coarse is not None
        for x0, y0, x1, y1 in boxes:
            # These cells are now up to date: later frames are compared with this one here.
            cells = np.s_[
                int(y0 // cell_h) : math.ceil(y1 / cell_h),
                int(x0 // cell_w) : math.ceil(x1 / cell_w),
            ]
            self._coarse[cells] = coarse[cells]
            region = np.ascontiguousarray(grey[y0:y1, x0:x1])
            # The detector drops tags the region's edge cuts, as it does at the frame's edge;
            # the region was grown so that every tag it touched is whole inside it.
            kept += [_shift(d, x0, y0) for d in self.detector.detect(region)]
        self._detections = sorted(kept, key=lambda d: (d.family, d.id, d.center[1], d.center[0]))
        self.last_mode = "partial"
        self.last_regions = boxes
        return list(self._detections)

    def _average(self, grey: Image) -> npt.NDArray[np.float32]:
        cell = self.config.cell
        height, width = grey.shape
        small = cv2.resize(
            grey, (max(1, width // cell), max(1, height // cell)), interpolation=cv2.INTER_AREA
        )
        return small.astype(np.float32)


def _changed_boxes(
    changed: npt.NDArray[np.bool_], cell: tuple[float, float], pad: int, width: int, height: int
) -> list[Box]:
    """Bounding boxes, in frame pixels and grown by ``pad``, of the changed cells."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(changed.astype(np.uint8), 8)
    cell_w, cell_h = cell
    boxes = []
    for x, y, w, h, _area in stats[1:count].tolist():
        boxes.append(
            (
                max(0, int(x * cell_w) - pad),
                max(0, int(y * cell_h) - pad),
                min(width, math.ceil((x + w) * cell_w) + pad),
                min(height, math.ceil((y + h) * cell_h) + pad),
            )
        )
    return _merge(boxes)


def _grow(
    boxes: list[Box], detections: list[Detection], pad: int, width: int, height: int
) -> list[Box]:
    """Grow the boxes until each tag they touch is inside one with ``pad`` pixels to spare."""
    while True:
        grown = []
        for box in boxes:
            x0, y0, x1, y1 = box
            for d in detections:
                if _touches(d, box):
                    xs, ys = zip(*d.corners, strict=True)
                    x0, y0 = (
                        min(x0, max(0, int(min(xs)) - pad)),
                        min(y0, max(0, int(min(ys)) - pad)),
                    )
                    x1 = max(x1, min(width, int(max(xs)) + 1 + pad))
                    y1 = max(y1, min(height, int(max(ys)) + 1 + pad))
            grown.append((x0, y0, x1, y1))
        grown = _merge(grown)
        if grown == boxes:
            return boxes
        boxes = grown


def _merge(boxes: list[Box]) -> list[Box]:
    """Merge overlapping boxes until none overlap."""
    boxes = sorted(boxes)
    merged = True
    while merged:
        merged = False
        out: list[Box] = []
        for box in boxes:
            for i, other in enumerate(out):
                if (
                    box[0] < other[2]
                    and other[0] < box[2]
                    and box[1] < other[3]
                    and other[1] < box[3]
                ):
                    out[i] = (
                        min(box[0], other[0]),
                        min(box[1], other[1]),
                        max(box[2], other[2]),
                        max(box[3], other[3]),
                    )
                    merged = True
                    break
            else:
                out.append(box)
        boxes = sorted(out)
    return boxes


def _touches(d: Detection, box: Box) -> bool:
    xs, ys = zip(*d.corners, strict=True)
    x0, y0, x1, y1 = box
    return min(xs) < x1 and max(xs) >= x0 and min(ys) < y1 and max(ys) >= y0


def _shift(d: Detection, dx: int, dy: int) -> Detection:
    return replace(
        d,
        corners=tuple((x + dx, y + dy) for x, y in d.corners),  # type: ignore[arg-type]
        center=(d.center[0] + dx, d.center[1] + dy),
    )
