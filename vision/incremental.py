"""Detection for a mostly static table: re-detect only where the frame changed.

`IncrementalDetector` wraps a `Detector`. It compares each frame, on a coarse averaged grid (so
sensor noise does not count as change), with the frame each region was last detected in (so a
slow drift adds up until it counts), re-runs the detector only on the regions that changed
(grown to take in every tag they touch), keeps the earlier detections everywhere else, and
re-scans the whole frame every ``rescan_every`` frames and whenever most of
the frame changed. On a static table a frame thus costs one small difference image.

It also reads over time (``memory``, on by default). A tag read once (with no corrected bit) is
kept while the pixels under it have not changed, even when a later detection of its region
misses it (sensor noise, a re-scan). And every quad the detector found but could not read is
watched: the crops of that region in the frames that follow are averaged (the table is still
there, so independent sensor noise averages out) and the mean is read again, enlarged, sharpened
and contrast-equalised, after 2, 3, 4, 6, 9, 13, 19 and 28 frames; the region's averaging
restarts when its pixels change (a hand, a move), and a quad that no mean reads is dropped, and
neither watched nor read by a detection again while its pixels do not change (a re-scan finds
the same print there: ``Detector.detect``'s ``unreadable``). A tag read that way must decode
with no corrected bit and a full decision margin: never a guess. A tag read exactly that a
change then hid (a hand passing) comes back, without a new read, as soon as its place looks
again as it did when it was last read (pixel correlation 0.9 or more, within
``lost_frames``): the same sticker, unmoved.

A camera that shakes or drifts is followed (``align``, on by default): the camera's shift and
small turn since the first frame (the anchor) are estimated from corners tracked on half-size
frames, and each frame is warped back onto the anchor before anything is compared, averaged or
detected, so a shaken frame is no change and the averaged crops stay aligned; the detections are
moved back onto the frame as it came. A move of more than ``max_shift`` pixels starts again
from a full detection.

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

from vision.detection import (
    Corners,
    Detection,
    Detector,
    _at_any,
    _inside,
    _same_place,
    _sort_key,
    to_grey,
)
from vision.errors import VisionError

Image = npt.NDArray[np.uint8]
Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (exclusive)
Mode = Literal["full", "partial", "unchanged"]
FloatArray = npt.NDArray[np.float64]

#: How alike (correlation of the pixels) a lost tag's place must look again to bring it back.
_SAME_LOOK = 0.9
#: How many lost tags are looked at in one frame (in turns).
_RESTORE_CHECKS = 16

#: A coarse cell this bright is taken as clipped by the sensor (it cannot follow the light).
_CLIPPED = 235.0


class IncrementalConfigError(VisionError, ValueError):
    """A setting of the incremental detector is out of range."""


@dataclass(frozen=True)
class IncrementalConfig:
    """Settings: ``rescan_every`` frames a full detection runs anyway; the frames are compared
    on cells of ``cell`` pixels, and a cell whose mean grey level moved by more than
    ``threshold`` has changed; a changed region is grown by ``pad`` pixels before it is
    re-detected; above ``full_fraction`` of the frame changed, the whole frame is re-detected.

    ``memory`` turns the reading over time on (see the module): up to ``max_spots`` unread
    quads are watched, their crops averaged over up to ``mean_frames`` frames (a running mean
    after that), and at most ``reads_per_frame`` means are read in one unchanged frame (one in
    a frame that ran a detection); a tag a change
    hid (a hand) comes back, unread, if within ``lost_frames`` frames its place looks again as
    it did when it was last read. ``align`` follows a camera that
    shakes or drifts, up to ``max_shift`` pixels from the anchor frame (see the module).
    """

    rescan_every: int = 30
    cell: int = 8
    threshold: float = 6.0
    pad: int = 24
    full_fraction: float = 0.4
    memory: bool = True
    mean_frames: int = 16
    max_spots: int = 64
    reads_per_frame: int = 8
    lost_frames: int = 300
    align: bool = True
    max_shift: float = 24.0

    def __post_init__(self) -> None:
        if self.rescan_every < 1 or self.cell < 1 or self.pad < 0:
            raise IncrementalConfigError("rescan_every and cell must be positive, pad not negative")
        if self.threshold <= 0 or not 0 < self.full_fraction <= 1:
            raise IncrementalConfigError("threshold must be positive, full_fraction in (0, 1]")
        if self.max_shift <= 0:
            raise IncrementalConfigError("max_shift must be positive")
        if self.mean_frames < 2 or self.max_spots < 0 or self.reads_per_frame < 0:
            raise IncrementalConfigError(
                "mean_frames must be at least 2, max_spots and reads_per_frame not negative"
            )


@dataclass(frozen=True, eq=False)
class _Lost:
    """An exact read dropped because the pixels under it changed, and how it looked before."""

    detection: Detection
    crop: npt.NDArray[np.float32]
    frames_left: int


@dataclass(eq=False)
class _Spot:
    """A quad the detector found and could not read, and the sum of its recent crops."""

    quad: FloatArray  # 4 × 2, frame pixels
    box: Box  # the crop, frame pixels
    total: npt.NDArray[np.float32]
    count: int = 0
    next_read: int = 2


class IncrementalDetector:
    """A `Detector` that re-detects only the changed parts of a mostly static scene."""

    def __init__(self, detector: Detector, config: IncrementalConfig | None = None) -> None:
        self.detector = detector
        self.config = config or IncrementalConfig()
        self._coarse: npt.NDArray[np.float32] | None = None
        self._clipped: npt.NDArray[np.bool_] = np.zeros((0, 0), bool)
        self._now_clipped: npt.NDArray[np.bool_] = self._clipped
        self._shape: tuple[int, int] | None = None
        self._detections: list[Detection] = []
        self._candidates: list[FloatArray] = []
        self._since_full = 0
        #: What the last call did: a full detection, a partial one, or nothing at all.
        self.last_mode: Mode = "full"
        #: The regions the last partial call re-detected.
        self.last_regions: list[Box] = []
        #: How many tags the last call read from the mean of recent frames, and how many it
        #: kept (unchanged pixels) that its detection of their region missed.
        self.last_read = 0
        self.last_held = 0
        #: How many means of watched quads the last call read (or tried to read).
        self.last_means = 0
        #: The detections of the last call that no detection of that call read: kept because
        #: the pixels under them did not change, or back because their place looks as it did
        #: (a sticker-health view should not count them as seen again).
        self.last_kept: list[Detection] = []
        self._spots: list[_Spot] = []
        #: Spots whose means never read, kept while their pixels do not change: a re-scan
        #: finds the same quads there (print on a board) and watching them again would read
        #: the same means again for nothing.
        self._given_up: list[_Spot] = []
        self._lost: list[_Lost] = []
        self._last_grey: Image | None = None
        self._anchor: tuple[Image | None, npt.NDArray[np.float32] | None] = (None, None)
        #: How far (pixels, at the frame's corners) the camera had moved from the anchor frame
        #: in the last call (see `IncrementalConfig`'s ``align``).
        self.last_shift = 0.0
        self._motion: FloatArray | None = None

    @property
    def unread(self) -> list[FloatArray]:
        """The quads (4 × 2, pixels of the last frame as it came) that look like a tag and are
        not read: watched, or given up while their pixels do not change (with ``memory``), else
        the last detection's. A piece whose sticker is there is on the table, unread."""
        quads = [s.quad for s in self._spots + self._given_up]
        if not self.config.memory:
            quads = list(self._candidates)
        motion = self._motion
        if motion is None:
            return [np.array(q, dtype=np.float64) for q in quads]
        return [np.asarray(q, np.float64) @ motion[:, :2].T + motion[:, 2] for q in quads]

    def reset(self) -> None:
        """Forget the scene: the next frame is detected in full."""
        self._coarse = None
        self._spots, self._lost, self._last_grey = [], [], None
        self._given_up = []
        self._anchor = (None, None)

    def detect(self, image: npt.NDArray[np.uint8]) -> list[Detection]:
        """The tags in ``image``, as `Detector.detect` reports them (and, with ``memory``, the
        tags read over time: see the module)."""
        grey = to_grey(image)
        motion = self._align(grey) if self.config.align else None
        self._motion = motion
        if motion is not None:  # undo the camera's shift and turn: the anchor's pixels
            grey = np.asarray(
                cv2.warpAffine(
                    grey,
                    motion,
                    grey.shape[::-1],
                    flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                    borderMode=cv2.BORDER_REPLICATE,
                ),
                np.uint8,
            )
        coarse = self._average(grey)
        # Cells are compared relative to the frame's light, so that a lamp that flickers or an
        # exposure that hunts is no change; a hand over less than half of the frame moves it
        # little (see `_light_level`).
        # A cell that is white in both frames (paper in a lamp's glare) is clipped by the
        # sensor and cannot follow the light: it is not compared.
        level = _light_level(coarse)
        self._now_clipped = coarse >= _CLIPPED
        coarse /= np.float32(level)
        self.last_regions = []
        self.last_read = self.last_held = self.last_means = 0
        self.last_kept = []
        same_size = self._coarse is not None and self._shape == grey.shape
        changed = (
            (np.abs(coarse - self._coarse) * level > self.config.threshold)
            & ~(self._now_clipped & self._clipped)
            if same_size and self._coarse is not None
            else None
        )
        previous = self._detections if same_size else []
        if changed is not None and changed.any():  # before a detection is told which are hopeless
            self._given_up = [s for s in self._given_up if not self._cells_changed(changed, s.box)]
        if changed is None or self._since_full + 1 >= self.config.rescan_every:
            self._full(grey, coarse)
        else:
            self._since_full += 1
            if not changed.any():
                self.last_mode = "unchanged"
            elif changed.mean() > self.config.full_fraction:
                self._full(grey, coarse)
            else:
                self._partial(grey, coarse, changed)
        if self.config.memory:
            if changed is None:
                self._spots, self._lost, self._given_up = [], [], []
            else:
                self._hold(previous, changed)
                self._restore(grey)
            self._remember(grey)
            self._last_grey = grey.copy()
        if motion is None:
            return list(self._detections)
        moved = [_transformed(d, motion) for d in self._detections]
        height, width = grey.shape
        margin = self.detector.config.edge_margin
        inside = _inside([d.corners for d in moved], width, height, margin)
        return [d for d, ok in zip(moved, inside, strict=True) if ok]

    def _align(self, grey: Image) -> FloatArray | None:
        """The camera's motion since the anchor frame (the first after a reset), as a 2 × 3
        map from the anchor's pixels to this frame's (a shift, a small turn), or None when it
        moved by less than 0.3 pixels or no motion is clear (left to change detection).
        Estimated on half-size frames from corners tracked with Lucas-Kanade (RANSAC: a hand's
        corners are outliers). A motion beyond ``max_shift`` pixels makes this frame the anchor
        (the scene is forgotten: a full detection)."""
        height, width = grey.shape
        if min(height, width) < 32:
            return None  # no tag fits (see detection.MIN_SIDE), nor corners to follow
        small = np.asarray(
            cv2.resize(grey, (width // 2, height // 2), interpolation=cv2.INTER_AREA), np.uint8
        )
        # The same contrast in every frame: a lamp that flickers is no motion.
        small = np.asarray(cv2.normalize(small, None, 0, 255, cv2.NORM_MINMAX), np.uint8)
        anchor, points = self._anchor
        if anchor is None or anchor.shape != small.shape or points is None:
            self._set_anchor(small)
            return None
        moved, status, _ = cv2.calcOpticalFlowPyrLK(
            anchor, small, points, None, winSize=(15, 15), maxLevel=2
        )
        ok = status.ravel() == 1
        estimate, inliers = None, np.zeros(0)
        if ok.sum() >= 8:
            estimate, inliers = cv2.estimateAffinePartial2D(
                points[ok], moved[ok], method=cv2.RANSAC, ransacReprojThreshold=0.5
            )
        if estimate is None or int(np.count_nonzero(inliers)) < len(points) // 3:
            self.last_shift = 0.0
            return None  # no motion a third of the corners agree on: left to change detection
        # From half-size pixels (centre of pixel i at 2i + 0.5) to full-size ones.
        a, t = estimate[:, :2], estimate[:, 2]
        full = np.hstack([a, (2 * t + 0.5 - a @ np.array([0.5, 0.5]))[:, None]])
        corners = np.array([[0, 0], [width, 0], [0, height], [width, height]], np.float64)
        shift = float(np.abs(corners @ full[:, :2].T + full[:, 2] - corners).max())
        self.last_shift = shift
        if shift > self.config.max_shift:
            self.reset()
            self._set_anchor(small)
            return None
        return full if shift >= 0.3 else None

    def _set_anchor(self, small: Image) -> None:
        # 50 corners: as good a shift as 100 on the bench's shaking camera, in 1.5 ms not 2.2
        points = cv2.goodFeaturesToTrack(small, 50, 0.01, 8)
        enough = points is not None and len(points) >= 8
        self._anchor = (small, points.astype(np.float32) if enough else None)

    def _full(self, grey: Image, coarse: npt.NDArray[np.float32]) -> None:
        self._coarse = coarse
        self._clipped = self._now_clipped
        self._shape = grey.shape
        self._since_full = 0
        unreadable = [s.quad for s in self._given_up]
        self._detections = self.detector.detect(grey, unreadable=unreadable)
        self._candidates = list(self.detector.candidates)
        self.last_mode = "full"

    def _partial(
        self, grey: Image, coarse: npt.NDArray[np.float32], changed: npt.NDArray[np.bool_]
    ) -> None:
        height, width = grey.shape
        # One coarse cell in pixels (about ``config.cell``; exact when it divides the frame).
        cell_w, cell_h = width / changed.shape[1], height / changed.shape[0]
        boxes = _changed_boxes(changed, (cell_w, cell_h), self.config.pad, width, height)
        # Growing and merging the (disjoint) boxes only adds to their area: when they already
        # cover most of the frame, the same full detection follows, without growing them.
        if _area(boxes) > _MOST * width * height:
            self._full(grey, coarse)
            return
        boxes = _grow(
            boxes,
            self._detections,
            self.config.pad,
            width,
            height,
        )
        # A region starts on the decimation's grid, so AprilTag samples the pixels it samples in
        # the whole frame and finds the same corners.
        step = max(1, int(self.detector.config.decimation))
        boxes = [(x0 - x0 % step, y0 - y0 % step, x1, y1) for x0, y0, x1, y1 in boxes]
        if _area(boxes) > _MOST * width * height:
            self._full(grey, coarse)  # grown regions cover most of it: one call costs less
            return
        kept = [d for d in self._detections if not any(_touches(d, b) for b in boxes)]
        self._candidates = []
        assert self._coarse is not None
        for x0, y0, x1, y1 in boxes:
            # These cells are now up to date: later frames are compared with this one here.
            cells = np.s_[
                int(y0 // cell_h) : math.ceil(y1 / cell_h),
                int(x0 // cell_w) : math.ceil(x1 / cell_w),
            ]
            self._coarse[cells] = coarse[cells]
            self._clipped[cells] = self._now_clipped[cells]
            region = np.ascontiguousarray(grey[y0:y1, x0:x1])
            # The detector drops tags the region's edge cuts, as it does at the frame's edge;
            # the region was grown so that every tag it touched is whole inside it.
            offset = np.array([x0, y0], np.float64)
            unreadable = [s.quad - offset for s in self._given_up]
            found = self.detector.detect(region, unreadable=unreadable)
            kept += [_shift(d, x0, y0) for d in found]
            self._candidates += [q + offset for q in self.detector.candidates]
        self._detections = sorted(kept, key=_sort_key)
        self.last_mode = "partial"
        self.last_regions = boxes

    # --- reading over time -----------------------------------------------------------------

    def _cells_changed(self, changed: npt.NDArray[np.bool_], box: Box) -> bool:
        """Whether any coarse cell under ``box`` (frame pixels) changed in this frame."""
        assert self._shape is not None
        height, width = self._shape
        cell_w, cell_h = width / changed.shape[1], height / changed.shape[0]
        x0, y0, x1, y1 = box
        cells = changed[
            max(0, int(y0 // cell_h)) : math.ceil(y1 / cell_h),
            max(0, int(x0 // cell_w)) : math.ceil(x1 / cell_w),
        ]
        return bool(cells.any())

    def _hold(self, previous: list[Detection], changed: npt.NDArray[np.bool_]) -> None:
        """Keep the exact reads of earlier frames that this frame's detection missed, where the
        pixels under them did not change; forget the spots whose pixels changed."""
        if self.last_mode == "unchanged":
            return
        now = [np.asarray(d.corners) for d in self._detections]
        exact = [d for d in previous if d.hamming == 0]
        again = _at_any([np.asarray(d.corners) for d in exact], now)
        held = []
        for d, found in zip(exact, again, strict=True):
            if found:
                continue
            quad = np.asarray(d.corners)
            if not self._cells_changed(changed, _quad_box(quad)):
                held.append(d)
            elif self._last_grey is not None and len(self._lost) < self.config.max_spots:
                # Covered, moved or taken away: remember how it looked until now.
                x0, y0, x1, y1 = _quad_box(quad, self._last_grey.shape)
                crop = self._last_grey[y0:y1, x0:x1].astype(np.float32)
                self._lost.append(_Lost(d, crop, self.config.lost_frames))
        self._spots = [s for s in self._spots if not self._cells_changed(changed, s.box)]
        if held:
            self._detections = sorted(self._detections + held, key=_sort_key)
            self.last_held = len(held)
            self.last_kept += held

    def _restore(self, grey: Image) -> None:
        """Bring back a tag lost under a change (a hand) when its pixels look again as they did
        when it was last read: the same sticker at the same place, not moved by a pixel."""
        if not self._lost:
            return
        places = [np.asarray(d.corners) for d in self._detections]
        quads = [np.asarray(lost.detection.corners) for lost in self._lost]
        taken = _at_any(quads, places)
        back: list[Detection] = []
        waiting, checked = [], []  # looked at in turns, at most _RESTORE_CHECKS a frame
        checks = 0
        for lost, quad, occupied in zip(self._lost, quads, taken, strict=True):
            if occupied or (
                back and _same_place([quad], [np.asarray(d.corners) for d in back]).any()
            ):
                continue  # read again, or something else is there now
            aged = _Lost(lost.detection, lost.crop, lost.frames_left - 1)
            if checks >= _RESTORE_CHECKS:
                if aged.frames_left > 0:
                    waiting.append(aged)
                continue
            checks += 1
            x0, y0, x1, y1 = _quad_box(quad, grey.shape)
            if _correlation(grey[y0:y1, x0:x1], lost.crop) >= _SAME_LOOK:
                back.append(lost.detection)
            elif aged.frames_left > 0:
                checked.append(aged)
        self._lost = waiting + checked
        if back:
            self._detections = sorted(self._detections + back, key=_sort_key)
            self.last_held += len(back)
            self.last_kept += back

    def _remember(self, grey: Image) -> None:
        """Watch the new unread quads, add this frame to every watched crop, and read the
        means that are due."""
        if self.last_mode != "unchanged":
            self._watch(grey, self._candidates)
            self._candidates = []
        reads = 0
        # A frame that paid for a detection reads one mean; a still frame, the full budget.
        budget = self.config.reads_per_frame
        if self.last_mode != "unchanged":
            budget = min(1, budget)
        read: list[Detection] = []
        for spot in list(self._spots):
            x0, y0, x1, y1 = spot.box
            crop = grey[y0:y1, x0:x1].astype(np.float32)
            n = self.config.mean_frames
            if spot.count < n:
                spot.total += crop
            else:  # a running mean over about the last n frames
                spot.total += crop - spot.total / n
            spot.count += 1
            if spot.count < spot.next_read or reads >= budget:
                continue
            reads += 1
            self.last_means += 1
            spot.next_read = int(spot.next_read * 1.5)  # 2, 3, 4, 6, 9, 13, 19, 28
            mean = spot.total / min(spot.count, n)
            found = self._read_mean(np.clip(mean + 0.5, 0, 255).astype(np.uint8), spot)
            if found is not None:
                read.append(found)
                self._spots.remove(spot)
            elif spot.next_read > 2 * n:  # no mean will read it
                self._spots.remove(spot)
                self._given_up = [*self._given_up, spot][-self.config.max_spots :]
        if read:
            self._detections = sorted(self._detections + read, key=_sort_key)
            self.last_read = len(read)

    def _watch(self, grey: Image, quads: list[FloatArray]) -> None:
        """Start averaging the crops of the quads that are neither read nor watched yet."""
        height, width = grey.shape
        places = [np.asarray(d.corners) for d in self._detections]
        places += [s.quad for s in self._spots + self._given_up]
        quads = [q for q, old in zip(quads, _at_any(quads, places), strict=True) if not old]
        quads.sort(key=lambda q: -cv2.contourArea(q.astype(np.float32)))
        same = _same_place(quads, quads)
        taken = np.zeros(len(quads), dtype=bool)
        for i, quad in enumerate(quads):
            if len(self._spots) >= self.config.max_spots:
                break
            if taken[i]:
                continue
            taken |= same[i]  # the same quad listed again, or one beside it
            side = float(np.mean(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)))
            cx, cy = quad.mean(axis=0)
            half = side * 1.1 + 2  # the second pass's crop: the quad and 0.6 of a side around
            box = (
                max(0, int(cx - half)),
                max(0, int(cy - half)),
                min(width, math.ceil(cx + half) + 1),
                min(height, math.ceil(cy + half) + 1),
            )
            if box[2] - box[0] < 8 or box[3] - box[1] < 8:
                continue
            total = np.zeros((box[3] - box[1], box[2] - box[0]), np.float32)
            self._spots.append(_Spot(quad, box, total))

    def _read_mean(self, mean: Image, spot: _Spot) -> Detection | None:
        """The tag in the mean crop of ``spot``, if AprilTag decodes it exactly with a full margin
        or the soft decoder reads it with no cell against its code, on the quad, inside the
        frame and where no other tag is."""
        x0, y0 = spot.box[0], spot.box[1]
        config = self.detector.config
        quad = spot.quad - (x0, y0)
        reads = self.detector.decode_region(mean, quad, averaged=True)
        reads += self.detector.soft_search(mean, quad)
        exact = [
            d for d in reads if d.hamming == 0 and d.decision_margin >= config.min_decision_margin
        ]
        if len({(d.family, d.id) for d in exact}) != 1:
            return None  # nothing, or two ids for one quad: never a guess
        best = exact[0]
        offset = np.array([x0, y0], np.float64)
        corners = best.corners + offset
        assert self._shape is not None
        height, width = self._shape
        if not _inside([corners], width, height, config.edge_margin)[0]:
            return None
        if _same_place([corners], [np.asarray(d.corners) for d in self._detections]).any():
            return None
        return Detection(
            family=best.family,
            id=best.id,
            corners=tuple(map(tuple, corners.tolist())),  # type: ignore[arg-type]
            center=tuple((best.center + offset).tolist()),
            decision_margin=best.decision_margin,
            hamming=0,
        )

    def _average(self, grey: Image) -> npt.NDArray[np.float32]:
        cell = self.config.cell
        height, width = grey.shape
        small = cv2.resize(
            grey, (max(1, width // cell), max(1, height // cell)), interpolation=cv2.INTER_AREA
        )
        return small.astype(np.float32)


def _light_level(coarse: npt.NDArray[np.float32]) -> float:
    """The frame's light: the mean of its middle half of coarse cells (the quarter darkest and
    the quarter brightest left out). Unlike the median cell, it does not jump from frame to
    frame when the cells near the middle form two groups (a table and a board a few grey levels
    apart): such a jump of 1.5 % moved bright cells by more than the threshold in noise alone."""
    low, high = np.percentile(coarse, (25, 75))
    middle = coarse[(coarse >= low) & (coarse <= high)]
    return max(1.0, float(middle.mean()) if middle.size else float(np.median(coarse)))


#: Regions covering more than this share of the frame are detected as one whole frame.
_MOST = 0.6


def _area(boxes: list[Box]) -> int:
    """The summed area of ``boxes``, in pixels."""
    return sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes)


def _changed_boxes(
    changed: npt.NDArray[np.bool_], cell: tuple[float, float], pad: int, width: int, height: int
) -> list[Box]:
    """Bounding boxes, in frame pixels and grown by ``pad``, of the changed cells."""
    # OpenCV's stubs take dtype[integer | floating], which numpy's invariant dtype makes a
    # uint8 array miss: the call is right.
    count, _, stats, _ = cv2.connectedComponentsWithStats(  # type: ignore[call-overload]
        changed.astype(np.uint8), 8
    )
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


def _quad_box(quad: FloatArray | Corners, shape: tuple[int, ...] | None = None) -> Box:
    """The pixel box around a quad (within an image of ``shape`` when given)."""
    xs = [float(p[0]) for p in quad]
    ys = [float(p[1]) for p in quad]
    x0, y0 = math.floor(min(xs)), math.floor(min(ys))
    x1, y1 = math.ceil(max(xs)) + 1, math.ceil(max(ys)) + 1
    if shape is not None:
        height, width = shape[:2]
        return max(0, x0), max(0, y0), min(width, x1), min(height, y1)
    return x0, y0, x1, y1


def _correlation(a: npt.NDArray[np.generic], b: npt.NDArray[np.float32]) -> float:
    """The correlation of two crops of one size (0 when either is flat or sizes differ)."""
    if a.shape != b.shape or a.size < 16:
        return 0.0
    x = a.astype(np.float32).ravel() - float(a.mean())
    y = b.ravel() - float(b.mean())
    norm = float(np.sqrt((x @ x) * (y @ y)))
    return float(x @ y) / norm if norm > 1e-6 else 0.0


def _touches(d: Detection, box: Box) -> bool:
    xs, ys = zip(*d.corners, strict=True)
    x0, y0, x1, y1 = box
    return min(xs) < x1 and max(xs) >= x0 and min(ys) < y1 and max(ys) >= y0


def _transformed(d: Detection, motion: FloatArray) -> Detection:
    """``d`` moved by the 2 × 3 affine map ``motion``."""
    corners = np.asarray(d.corners) @ motion[:, :2].T + motion[:, 2]
    center = np.asarray(d.center) @ motion[:, :2].T + motion[:, 2]
    return replace(
        d,
        corners=tuple(map(tuple, corners.tolist())),  # type: ignore[arg-type]
        center=tuple(center.tolist()),
    )


def _shift(d: Detection, dx: int, dy: int) -> Detection:
    return replace(
        d,
        corners=tuple((x + dx, y + dy) for x, y in d.corners),  # type: ignore[arg-type]
        center=(d.center[0] + dx, d.center[1] + dy),
    )
