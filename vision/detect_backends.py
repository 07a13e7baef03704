"""The two detector backends, each turning a grey image into `RawDetection`s.

`AprilTagBackend` is AprilTag 3 through ``apriltag-python`` (its points moved half a pixel to
OpenCV's pixel coordinates, which the rest of the project uses); `ArucoBackend` is OpenCV's
``cv2.aruco`` with its AprilTag dictionaries, which also reports the quads it found but could not
decode (the candidates of the detector's second pass). Both give corners in AprilTag's order.
"""

from __future__ import annotations

from dataclasses import dataclass

import apriltag
import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]

#: The smallest side, in pixels, of an image handed to AprilTag. ``apriltag-python`` 3.4.5 dies
#: with a segmentation fault on any image with a side of 4 px or less (1×1, 3×640, 1×1000); no
#: tag fits in an image this small anyway (8 cells and a border of quiet zone).
MIN_SIDE = 8

#: What AprilTag adds to a point in OpenCV's pixel coordinates, whose pixel centres are whole
#: numbers: AprilTag's pixel (0, 0) spans 0-1, so its corners lie half a pixel right of and below
#: the truth (measured: +0.50 ± 0.02 px on rendered tags). `AprilTagBackend` takes it away.
APRILTAG_PIXEL_OFFSET = 0.5

#: The families ``cv2.aruco`` knows, with its dictionary for each.
ARUCO_DICTIONARIES = {
    "tag36h11": cv2.aruco.DICT_APRILTAG_36h11,
    "tag36h10": cv2.aruco.DICT_APRILTAG_36h10,
    "tag25h9": cv2.aruco.DICT_APRILTAG_25h9,
    "tag16h5": cv2.aruco.DICT_APRILTAG_16h5,
}

#: The two windows (pixels) of ``cv2.aruco``'s adaptive thresholds.
THRESHOLD_WINDOWS = (9, 23)

#: A quad with a side shorter than this (pixels) is no tag anything can read: under 0.75 px a
#: cell across it. ``cv2.aruco`` reports such slivers (5 × 15 px beside the bench's busy table's
#: tags) among the quads it could not decode, and each costs the second pass a few ms in vain.
#: No tag read at a rejected quad, rendered or in the photographs, had a side under 7 px; a
#: third of the unread quads had one under 6. (A ratio of sides would not do: tags on cubes
#: seen at a slant in the nasa_swarmathon photographs have one of 0.21-0.34, and are read.)
MIN_QUAD_SIDE = 6.0

# cv2.aruco lists a tag's corners from its top-left, clockwise in the image; AprilTag lists them
# as bottom-left, bottom-right, top-right, top-left of the tag's own (y-up) frame.
ARUCO_TO_APRILTAG = [1, 0, 3, 2]


@dataclass(frozen=True)
class RawDetection:
    """A decoded tag as a backend reports it, before filtering and fusion."""

    family: str
    id: int
    corners: npt.NDArray[np.float64]  # 4 × 2, AprilTag's order
    center: npt.NDArray[np.float64]  # 2
    decision_margin: float
    hamming: int
    source: str


class AprilTagBackend:
    """AprilTag 3 (``apriltag-python``) for one family."""

    def __init__(
        self, family: str, *, threads: int, decimation: float, quad_sigma: float, max_hamming: int
    ) -> None:
        self.family = family
        # With decimation 1, AprilTag blurs or sharpens the caller's own pixels in place.
        self._needs_copy = quad_sigma != 0 and decimation == 1
        self._detector = apriltag.apriltag(
            family,
            threads=threads,
            maxhamming=max_hamming,
            decimate=float(decimation),
            blur=float(quad_sigma),  # AprilTag's quad_sigma: blurs if positive, sharpens if not
            refine_edges=True,
        )

    def detect(self, grey: Image, source: str = "apriltag") -> list[RawDetection]:
        """The tags AprilTag decodes in ``grey`` (contiguous, uint8); none in an image with a
        side under `MIN_SIDE` pixels, which AprilTag is never given (it would crash on it)."""
        if min(grey.shape[:2]) < MIN_SIDE:
            return []
        return [
            RawDetection(
                family=self.family,
                id=int(r["id"]),
                corners=np.asarray(r["lb-rb-rt-lt"], dtype=np.float64) - APRILTAG_PIXEL_OFFSET,
                center=np.asarray(r["center"], dtype=np.float64) - APRILTAG_PIXEL_OFFSET,
                decision_margin=float(r["margin"]),
                hamming=int(r["hamming"]),
                source=source,
            )
            for r in self._detector.detect(grey.copy() if self._needs_copy else grey)
        ]


class ArucoBackend:
    """OpenCV's ``cv2.aruco`` with the AprilTag dictionary of one family."""

    def __init__(self, family: str, *, max_hamming: int) -> None:
        self.family = family
        dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARIES[family])
        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        # cv2.aruco corrects a share of the family's correctable bits; keep it within max_hamming.
        correctable = max(1, (dictionary.maxCorrectionBits))
        params.errorCorrectionRate = min(1.0, max_hamming / correctable)
        # A tag near the frame's edge is judged by the detector's own edge margin.
        params.minDistanceToBorder = 0
        params.adaptiveThreshWinSizeMin = THRESHOLD_WINDOWS[0]
        params.adaptiveThreshWinSizeMax = THRESHOLD_WINDOWS[-1]
        steps = np.diff(THRESHOLD_WINDOWS)
        params.adaptiveThreshWinSizeStep = int(steps[0]) if len(steps) else 1
        self._detector = cv2.aruco.ArucoDetector(dictionary, params)

    def detect(self, grey: Image) -> tuple[list[RawDetection], list[npt.NDArray[np.float64]]]:
        """The tags decoded in ``grey``, and the quads that looked like tags but did not decode
        (none with a side under `MIN_QUAD_SIDE`)."""
        corners, ids, rejected = self._detector.detectMarkers(grey)
        found = []
        if ids is not None and len(ids):
            tags = np.asarray(corners, dtype=np.float64).reshape(-1, 4, 2)[:, ARUCO_TO_APRILTAG]
            for points, center, tag_id in zip(tags, quad_center(tags), ids.ravel(), strict=True):
                found.append(
                    RawDetection(
                        family=self.family,
                        id=int(tag_id),
                        corners=points,
                        center=center,
                        decision_margin=float("nan"),  # cv2.aruco does not report one
                        hamming=-1,  # nor the number of corrected bits
                        source="aruco",
                    )
                )
        quads = [np.asarray(q, dtype=np.float64).reshape(4, 2) for q in rejected]
        return found, [q for q in quads if _shortest_side(q) >= MIN_QUAD_SIDE]


def _shortest_side(quad: npt.NDArray[np.float64]) -> float:
    """The shortest side of ``quad`` (4 × 2 pixels)."""
    return float(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1).min())


def quad_center(corners: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Where the diagonals of a quad cross (the centre of the tag under perspective): corners
    4 × 2 give a point (2), N × 4 × 2 the N points (N × 2) at once."""
    c = np.asarray(corners, dtype=np.float64)
    (x1, y1), (x2, y2) = c[..., 0, :].T, c[..., 2, :].T
    (x3, y3), (x4, y4) = c[..., 1, :].T, c[..., 3, :].T
    denom = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4)
    crossing = np.abs(denom) >= 1e-9
    denom = np.where(crossing, denom, 1.0)
    a, b = x1 * y2 - y1 * x2, x3 * y4 - y3 * x4
    centre = np.stack(
        [(a * (x3 - x4) - (x1 - x2) * b) / denom, (a * (y3 - y4) - (y1 - y2) * b) / denom], axis=-1
    )
    return np.where(crossing[..., None], centre, c.mean(axis=-2))
