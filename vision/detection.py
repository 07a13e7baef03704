"""AprilTag detection: one `Detection` type and one `Detector` over one or two backends.

The main backend is AprilTag 3 through ``apriltag-python`` (imported as ``apriltag``); the second
is OpenCV's ``cv2.aruco`` with its AprilTag dictionaries. Corners are always given in AprilTag's
own order (the order ``apriltag-python`` calls ``lb-rb-rt-lt``: the tag's bottom-left,
bottom-right, top-right, top-left corner as the tag is printed), in pixels of the input image.

>>> import numpy as np
>>> Detector().detect(np.full((120, 160), 128, np.uint8))
[]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeAlias

import apriltag
import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import VisionError

Point: TypeAlias = tuple[float, float]
Corners: TypeAlias = tuple[Point, Point, Point, Point]
Image: TypeAlias = npt.NDArray[np.uint8]

#: Families every backend of the detector may be asked for.
FAMILIES = ("tag36h11", "tag36h10", "tag25h9", "tag16h5", "tagStandard41h12")
BACKENDS = ("apriltag",)


class DetectorConfigError(VisionError, ValueError):
    """A detector setting is out of range or names an unknown family or backend."""


@dataclass(frozen=True)
class Detection:
    """One tag seen in one image: its family, id and where it is, in pixels."""

    family: str
    id: int
    corners: Corners
    center: Point
    decision_margin: float
    hamming: int

    def as_json(self) -> dict[str, object]:
        """The detection as the JSON object of ``tablesight detect --json``."""
        return {
            "family": self.family,
            "id": self.id,
            "center": [round(self.center[0], 3), round(self.center[1], 3)],
            "corners": [[round(x, 3), round(y, 3)] for x, y in self.corners],
        }


@dataclass(frozen=True)
class DetectorConfig:
    """Settings of the detector; the defaults suit a 720p overhead camera on a table.

    ``decimation`` is AprilTag's ``quad_decimate`` (1 = full resolution); ``sharpening`` is the
    sigma of the sharpening AprilTag applies before it looks for quads (0 = none);
    ``min_decision_margin`` drops weak decodes; ``edge_margin`` drops tags whose corners come
    closer than that many pixels to the frame edge (a cut tag gives wrong corners).
    """

    families: tuple[str, ...] = ("tag36h11",)
    decimation: float = 1.0
    threads: int = 1
    sharpening: float = 0.0
    min_decision_margin: float = 20.0
    edge_margin: float = 2.0
    max_hamming: int = 1
    backends: tuple[str, ...] = ("apriltag",)

    def __post_init__(self) -> None:
        problems = []
        if not self.families:
            problems.append("families: at least one family is needed")
        problems += [f"families: unknown family {f!r}" for f in self.families if f not in FAMILIES]
        if not self.backends:
            problems.append("backends: at least one backend is needed")
        problems += [f"backends: unknown backend {b!r}" for b in self.backends if b not in BACKENDS]
        if self.decimation < 1:
            problems.append(f"decimation: must be at least 1, not {self.decimation}")
        if self.threads < 1:
            problems.append(f"threads: must be at least 1, not {self.threads}")
        if self.sharpening < 0:
            problems.append(f"sharpening: must not be negative, not {self.sharpening}")
        if not 0 <= self.max_hamming <= 3:
            problems.append(f"max_hamming: must be 0 to 3, not {self.max_hamming}")
        if self.edge_margin < 0:
            problems.append(f"edge_margin: must not be negative, not {self.edge_margin}")
        if problems:
            raise DetectorConfigError("; ".join(problems))


@dataclass
class Detector:
    """Finds AprilTags in grey or BGR images with the configured backends."""

    config: DetectorConfig = field(default_factory=DetectorConfig)

    def __post_init__(self) -> None:
        c = self.config
        self._apriltag = {
            family: apriltag.apriltag(
                family,
                threads=c.threads,
                maxhamming=c.max_hamming,
                decimate=float(c.decimation),
                blur=-float(c.sharpening),
                refine_edges=True,
            )
            for family in c.families
        }

    def detect(self, image: npt.NDArray[np.uint8]) -> list[Detection]:
        """The tags in ``image`` (grey or BGR, uint8), sorted by family and id."""
        grey = to_grey(image)
        height, width = grey.shape
        found = [
            d
            for family, backend in self._apriltag.items()
            for d in _from_apriltag(family, backend.detect(grey))
        ]
        kept = [
            d
            for d in found
            if d.decision_margin >= self.config.min_decision_margin
            and _inside(d.corners, width, height, self.config.edge_margin)
        ]
        return sorted(kept, key=_sort_key)


def to_grey(image: npt.NDArray[np.uint8]) -> Image:
    """A contiguous single-channel uint8 copy-or-view of a grey, BGR or BGRA image."""
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8:
        raise VisionError("an image must be a numpy array of uint8")
    if image.size == 0:
        raise VisionError("the image is empty")
    if image.ndim == 3 and image.shape[2] == 1:
        image = image[:, :, 0]
    if image.ndim == 3 and image.shape[2] == 3:
        image = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    elif image.ndim == 3 and image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2GRAY)
    if image.ndim != 2:
        raise VisionError(f"an image must be grey or BGR, not of shape {image.shape}")
    return np.ascontiguousarray(image)


def _from_apriltag(family: str, raw: tuple[dict, ...]) -> list[Detection]:
    out = []
    for r in raw:
        corners = tuple((float(x), float(y)) for x, y in r["lb-rb-rt-lt"])
        out.append(
            Detection(
                family=family,
                id=int(r["id"]),
                corners=corners,  # type: ignore[arg-type]
                center=(float(r["center"][0]), float(r["center"][1])),
                decision_margin=float(r["margin"]),
                hamming=int(r["hamming"]),
            )
        )
    return out


def _inside(corners: Corners, width: int, height: int, margin: float) -> bool:
    return all(
        margin <= x <= width - 1 - margin and margin <= y <= height - 1 - margin for x, y in corners
    )


def _sort_key(d: Detection) -> tuple[str, int, float, float]:
    return (d.family, d.id, d.center[1], d.center[0])
