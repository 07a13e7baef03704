"""From camera pixels to table millimetres, and from the table to each board's own grid.

The table plane comes from four *anchor* tags stuck at known places on the table: the corners of
every anchor seen give point pairs (millimetres, pixels) and one homography fits them all; the
root-mean-square reprojection error over those corners says how good the fit is. The camera's
lens bends straight lines (a wide cheap lens: barrel distortion), which no homography follows:
:class:`Lens` is its radial distortion, fitted by :func:`fit_lens` from the table's own tags
(every sticker is a printed square, so its four corners must map to a square on the table; the
anchors must land on their places), and the homography maps table millimetres to the
*undistorted* picture. Readers go through :meth:`TableCalibration.to_table`, which undistorts
the detected corner points (never whole images). The result is saved as JSON (in the user's
data folder; the path is passed in) and reloaded at start.

A board (a Greenwood submarine, a Don't Starve map tile) carries its own tags at known places on
the board. Its pose on the table is fitted from those tags every time it is read, so a board that
was nudged during play is still read right: :func:`locate_board` gives the board's
:class:`BoardPose`, which maps table millimetres to the board's grid cells.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TypeAlias

import cv2
import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.core.text import Language, Text
from vision.detection import Detection, Image
from vision.errors import CalibrationError
from vision.synthetic import Component, apply_homography

FloatArray: TypeAlias = npt.NDArray[np.float64]

FORMAT_VERSION = 2
"""Written by :meth:`TableCalibration.save`; format 1 (before the lens) still loads, as a lens
that bends nothing."""
FORMATS = (1, 2)
MIN_LENS_TAGS = 6
"""Fewer stickers than this in view besides the anchors and no lens is fitted (none assumed):
the anchors alone, at the corners of the play area, hardly tell a bent picture from a tilted
one."""
K2_TAGS = 16
"""From this many stickers besides the anchors the lens's second coefficient is fitted too."""
#: Fewer anchors than this and the table cannot be calibrated.
MIN_ANCHORS = 4
RELIABLE_TAG_PX = 24.0
"""The side, in pixels, of a tag's black square from which a sticker reads reliably: the
smallest sticker :func:`table_resolution` recommends. Source: issue #16's measurement of the fused
detector on the project's renderer under hard conditions (defocus, motion blur, uneven light,
glare, JPEG): single-frame recall falls from about 0.65 at 21 px to about 0.33 at 17 px, while
docs/detection.md reads 178 of 180 stickers of about 14 px in good light. Checked on 3 December
2026 (45 tags per frame at 1280×720, one frame each of defocus σ 1 with noise, uneven light, glare
and JPEG 70; motion blur 4 px with JPEG 75; defocus σ 1.4): 0.53 found at 17 px, 0.80 at 20,
0.96 at 22, all 135 at 24, 27 and 30 px, no wrong id (see docs/vision.md)."""


@dataclass(frozen=True)
class TagPlace:
    """Where a tag is stuck, in millimetres of the table (an anchor) or of a board."""

    tag_id: int
    x_mm: float
    y_mm: float
    size_mm: float
    rotation_deg: float = 0.0

    def corners_mm(self) -> FloatArray:
        """The tag's corners in the detector's order, in the same millimetres."""
        return _corners_mm(self).copy()


@lru_cache(maxsize=4096)
def _corners_mm(place: TagPlace) -> FloatArray:
    """`TagPlace.corners_mm`, worked out once per place (a scan takes the anchors' twice)."""
    return Component(
        place.tag_id, place.x_mm, place.y_mm, place.rotation_deg, place.size_mm
    ).tag_corners_mm()


class LensData(BaseModel):
    """The lens as the calibration file keeps it (checked when loaded)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, frozen=True)

    k1: float = Field(ge=-1.0, le=1.0)
    k2: float = Field(default=0.0, ge=-1.0, le=1.0)
    centre_px: tuple[float, float]
    scale_px: float = Field(gt=0)


_FOLD_STEPS = np.linspace(0, 1, 200)
"""Where `Lens.folds` looks, over the radii it looks at."""


@dataclass(frozen=True)
class Lens:
    """Radial lens distortion (OpenCV's model, radii over ``scale_px``, about ``centre_px``):
    a point of the undistorted picture at radius ``r`` is seen at ``r (1 + k1 r² + k2 r⁴)``.
    :meth:`of_frame` takes the frame's centre and half its diagonal, so ``k1`` is about
    ``(half diagonal ÷ focal length)²`` times OpenCV's normalised ``k1`` (0.55 for a 66°
    field of view). The default bends nothing."""

    k1: float = 0.0
    k2: float = 0.0
    centre_px: tuple[float, float] = (0.0, 0.0)
    scale_px: float = 1.0

    @classmethod
    def of_frame(cls, image_size: tuple[int, int], k1: float = 0.0, k2: float = 0.0) -> Lens:
        """A lens of a frame of ``image_size`` (width, height): its centre, half its diagonal."""
        w, h = image_size
        return cls(k1, k2, ((w - 1) / 2, (h - 1) / 2), math.hypot(w, h) / 2)

    @property
    def bends(self) -> bool:
        """Whether the lens bends straight lines at all."""
        return self.k1 != 0 or self.k2 != 0

    def distort(self, points_px: FloatArray) -> FloatArray:
        """Undistorted pixels (N×2) to where the camera shows them."""
        pts = np.asarray(points_px, float).reshape(-1, 2)
        if not self.bends:
            return pts
        n = (pts - self.centre_px) / self.scale_px
        r2 = np.sum(n * n, axis=1, keepdims=True)
        return n * (1 + self.k1 * r2 + self.k2 * r2 * r2) * self.scale_px + self.centre_px

    def undistort(self, points_px: FloatArray) -> FloatArray:
        """Pixels as the camera shows them (N×2) to the undistorted picture (Newton's method
        on each radius; exact to well under a thousandth of a pixel within the frame)."""
        pts = np.asarray(points_px, float).reshape(-1, 2)
        if not self.bends:
            return pts
        n = (pts - self.centre_px) / self.scale_px
        rd = np.hypot(n[:, 0], n[:, 1])
        r = rd.copy()
        k1, k2 = self.k1, self.k2
        for _ in range(8):
            r2 = r * r
            if k2:
                slope = 1 + 3 * k1 * r2 + 5 * k2 * r2 * r2
                step = (r * (1 + k1 * r2 + k2 * r2 * r2) - rd) / slope
            else:  # the same sums without their zero terms
                step = (r * (1 + k1 * r2) - rd) / (1 + 3 * k1 * r2)
            r -= step
            if not np.abs(step).max(initial=0.0) > 1e-13:  # converged (Newton: quadratically)
                break
        ratio = np.divide(r, rd, out=np.ones_like(rd), where=rd > 0)
        return n * ratio[:, None] * self.scale_px + self.centre_px

    def folds(self, image_size: tuple[int, int]) -> bool:
        """Whether the lens would fold the picture over itself before the frame's corners
        (no such lens: the fit went wrong)."""
        if not self.bends:
            return False
        w, h = image_size
        corner = math.hypot(
            max(self.centre_px[0], w - 1 - self.centre_px[0]),
            max(self.centre_px[1], h - 1 - self.centre_px[1]),
        )
        r = _FOLD_STEPS * (1.5 * corner / self.scale_px)
        seen = r * (1 + self.k1 * r**2 + self.k2 * r**4)
        inside = seen <= corner / self.scale_px
        slope = 1 + 3 * self.k1 * r**2 + 5 * self.k2 * r**4
        return bool(np.any(slope[inside] <= 0.05)) or not bool(seen.max() > corner / self.scale_px)

    def data(self) -> LensData:
        """The lens as the calibration file keeps it."""
        return LensData(k1=self.k1, k2=self.k2, centre_px=self.centre_px, scale_px=self.scale_px)


@dataclass(frozen=True)
class TableCalibration:
    """The camera-to-table mapping for one frame size: the lens (:class:`Lens`; none by
    default) and a homography from table mm to the undistorted picture."""

    table_to_image: FloatArray
    image_size: tuple[int, int]
    anchors: tuple[int, ...]
    reprojection_error_px: float
    lens: Lens = Lens()
    lens_tags: int = 0
    """How many stickers besides the anchors the lens was fitted to (0: no lens fitted)."""
    flat_to_image: FloatArray | None = None
    """The homography from table mm straight to the pixels seen, fitted to the anchors with no
    lens (the calibration as it was before the lens), for what only takes a matrix."""

    @property
    def image_to_table(self) -> FloatArray:
        """A homography from pixels to table millimetres, for users that take only a matrix
        (the stabiliser): without a lens the exact one; with a lens the flat plane that best
        fits the anchors as seen (as calibrations were before the lens). Use
        :meth:`to_table` wherever a function will do: it undistorts first."""
        if not self.lens.bends:
            return _inverse(self.table_to_image)
        if self.flat_to_image is not None:
            return _inverse(self.flat_to_image)
        return _flat_fit(self)

    def to_table(self, points_px: FloatArray) -> FloatArray:
        """Pixels (N×2) to table millimetres, through the lens."""
        undistorted = self.lens.undistort(points_px)
        return apply_homography(self._image_to_table, undistorted)

    @cached_property
    def _image_to_table(self) -> FloatArray:
        """The inverse of ``table_to_image``, worked out once (readers take many points)."""
        return _inverse(self.table_to_image)

    def to_image(self, points_mm: FloatArray) -> FloatArray:
        """Table millimetres (N×2) to pixels, through the lens."""
        return self.lens.distort(apply_homography(self.table_to_image, points_mm))

    def check_frame(self, image: npt.NDArray[np.uint8]) -> None:
        """Raise CalibrationError when a frame's size differs from the calibrated one."""
        height, width = image.shape[:2]
        if (width, height) != self.image_size:
            w, h = self.image_size
            raise CalibrationError(
                f"the camera was calibrated at {w}×{h} but this frame is {width}×{height}: "
                "calibrate again (tablesight calibrate)"
            )

    def save(self, path: Path) -> None:
        """Write the calibration as JSON (creating the folder)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "format": FORMAT_VERSION,
            "table_to_image": np.asarray(self.table_to_image).tolist(),
            "image_size": list(self.image_size),
            "anchors": list(self.anchors),
            "reprojection_error_px": self.reprojection_error_px,
            "lens": self.lens.data().model_dump(mode="json"),
            "lens_tags": self.lens_tags,
            "flat_to_image": None if self.flat_to_image is None else self.flat_to_image.tolist(),
        }
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(json.dumps(data, indent=2) + "\n")
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path) -> TableCalibration:
        """Read a calibration written by :meth:`save`; CalibrationError if absent or damaged."""
        try:
            data = json.loads(path.read_text())
            if data.get("format") not in FORMATS:
                raise ValueError(f"format {data.get('format')!r} is not {FORMAT_VERSION}")
            matrix = np.array(data["table_to_image"], float)
            if matrix.shape != (3, 3) or not np.all(np.isfinite(matrix)):
                raise ValueError("table_to_image is not a 3×3 matrix of numbers")
            width, height = (int(v) for v in data["image_size"])
            flat = None
            if data.get("flat_to_image") is not None:
                flat = np.array(data["flat_to_image"], float)
                if flat.shape != (3, 3) or not np.all(np.isfinite(flat)):
                    raise ValueError("flat_to_image is not a 3×3 matrix of numbers")
            lens = Lens()  # format 1: no lens
            if data.get("lens") is not None:
                kept = LensData.model_validate(data["lens"])
                lens = Lens(kept.k1, kept.k2, kept.centre_px, kept.scale_px)
                if lens.folds((width, height)):
                    raise ValueError("the lens folds the picture over itself")
            return cls(
                matrix,
                (width, height),
                tuple(int(a) for a in data["anchors"]),
                float(data["reprojection_error_px"]),
                lens,
                int(data.get("lens_tags", 0)),
                flat,
            )
        except FileNotFoundError:
            raise CalibrationError(
                f"{path}: no calibration yet; run `tablesight calibrate`"
            ) from None
        except ValidationError as exc:
            where = ".".join(str(p) for p in exc.errors()[0]["loc"])
            reason = exc.errors()[0]["msg"]
            raise CalibrationError(
                f"{path}: not a usable calibration (lens {where}: {reason})"
            ) from None
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise CalibrationError(f"{path}: not a usable calibration ({exc})") from None


@dataclass(frozen=True)
class TableResolution:
    """How finely the camera sees the table: pixels per millimetre at the middle of the play
    area and at its worst place (the shorter side of a tag's image, so tilt counts), and the
    smallest sticker that reads reliably there (``RELIABLE_TAG_PX`` at the worst place)."""

    px_per_mm_middle: float
    px_per_mm_worst: float
    reliable_px: float
    smallest_tag_mm: float


def table_resolution(
    calibration: TableCalibration,
    area_mm: tuple[float, float, float, float],
    *,
    reliable_px: float = RELIABLE_TAG_PX,
    samples: int = 9,
) -> TableResolution:
    """Pixels per millimetre over the play area ``(x0, y0, x1, y1)`` in table mm: at each of
    ``samples`` × ``samples`` points, the smaller singular value of the homography's Jacobian
    (a 1 mm segment's shortest image there); the middle value, the smallest, and the smallest
    sticker (whole mm, rounded up) whose side is ``reliable_px`` pixels at the smallest."""
    x0, y0, x1, y1 = area_mm
    xs, ys = np.meshgrid(np.linspace(x0, x1, samples), np.linspace(y0, y1, samples))
    points = np.column_stack([xs.ravel(), ys.ravel()])
    scales = _shortest_scales(calibration, points)
    middle = float(_shortest_scales(calibration, np.array([[(x0 + x1) / 2, (y0 + y1) / 2]]))[0])
    worst = float(scales.min())
    if not worst > 0:
        raise CalibrationError("the calibration maps part of the table to no pixels at all")
    return TableResolution(middle, worst, reliable_px, math.ceil(reliable_px / worst - 1e-9))


def _shortest_scales(calibration: TableCalibration, points: FloatArray) -> FloatArray:
    """The smaller singular value of the Jacobian of table mm → pixels (lens included) at each
    of ``points`` (N×2), by central differences of a tenth of a millimetre."""
    step = 0.1
    ex, ey = np.array([step, 0.0]), np.array([0.0, step])
    dx = calibration.to_image(points + ex) - calibration.to_image(points - ex)
    dy = calibration.to_image(points + ey) - calibration.to_image(points - ey)
    jacobians = np.stack([dx, dy], axis=2) / (2 * step)  # N×2×2
    return np.asarray(np.linalg.svd(jacobians, compute_uv=False).min(axis=1), dtype=np.float64)


def lens_shift_mm(
    calibration: TableCalibration, area_mm: tuple[float, float, float, float], samples: int = 9
) -> float:
    """How far (table mm) the flat plane of the anchors, with no lens (``image_to_table``),
    would misplace a point of the play area ``(x0, y0, x1, y1)`` that the calibration's lens
    places right: the largest of ``samples`` × ``samples`` points (0 without a lens)."""
    if not calibration.lens.bends:
        return 0.0
    x0, y0, x1, y1 = area_mm
    xs, ys = np.meshgrid(np.linspace(x0, x1, samples), np.linspace(y0, y1, samples))
    points = np.column_stack([xs.ravel(), ys.ravel()])
    flat = apply_homography(calibration.image_to_table, calibration.to_image(points))
    return float(np.max(np.linalg.norm(flat - points, axis=1)))


def anchors_area(anchors: Mapping[int, TagPlace]) -> tuple[float, float, float, float]:
    """The play area the anchors span, ``(x0, y0, x1, y1)`` in table mm (their centres)."""
    xs = [a.x_mm for a in anchors.values()]
    ys = [a.y_mm for a in anchors.values()]
    return min(xs), min(ys), max(xs), max(ys)


@dataclass(frozen=True)
class AnchorReport:
    """What a calibration attempt saw: anchors found, anchors missing, other tags in view."""

    found: tuple[int, ...]
    missing: tuple[int, ...]
    others: tuple[int, ...]
    duplicated: tuple[int, ...]

    def texts(self, anchors: Mapping[int, TagPlace]) -> list[Text]:
        """Plain sentences for the user, in Chinese and English."""
        n, of = len(self.found), len(anchors)
        lines = [
            Text(
                f"看到的定位标签:{_ids(self.found, '无')}(共{of}个,看到{n}个)",
                f"anchors in view: {_ids(self.found)} ({n} of {of})",
            ),
            Text(
                f"画面里的其他标签:{len(self.others)}个", f"other tags in view: {len(self.others)}"
            ),
        ]
        for tag in self.missing:
            a = anchors[tag]
            lines.append(
                Text(
                    f"缺定位标签{tag}:它应贴在 x={a.x_mm:g} 毫米、y={a.y_mm:g} 毫米处;"
                    "看看它是否贴好、在摄像头画面里、没有被挡住",
                    f"missing anchor {tag}: it belongs at x={a.x_mm:g} mm, y={a.y_mm:g} mm; "
                    "check it is stuck there, in the camera's view and not covered",
                )
            )
        for tag in self.duplicated:
            lines.append(
                Text(
                    f"定位标签{tag}出现了不止一次:撕掉多贴的那张",
                    f"anchor {tag} is seen more than once: remove the extra sticker",
                )
            )
        return lines

    def describe(self, anchors: Mapping[int, TagPlace], lang: Language = "en") -> list[str]:
        """Plain sentences for the user, in ``lang``."""
        return [text.in_(lang) for text in self.texts(anchors)]

    def problem(
        self, anchors: Mapping[int, TagPlace], min_anchors: int = MIN_ANCHORS
    ) -> Text | None:
        """Why no calibration can be made from what was seen (too few anchors), or None."""
        if len(self.found) >= min_anchors:
            return None
        lines = self.texts(anchors)
        said = lines[:1] + lines[2:]  # the other tags do not matter here
        return Text(
            f"需要{min_anchors}个定位标签,只看到{len(self.found)}个:"
            + ";".join(t.zh for t in said),
            f"need {min_anchors} anchors, found {len(self.found)}: "
            + "; ".join(t.en for t in said),
        )


NOT_A_PLANE = Text(
    "定位标签不构成一个平面:它们是不是都在一条直线上?",
    "the anchors do not span a plane: are they all on one line?",
)


class AnchorsError(CalibrationError):
    """The anchors in view give no calibration; ``text`` says why in Chinese and English."""

    def __init__(self, text: Text) -> None:
        super().__init__(text.en)
        self.text = text


def anchor_report(detections: Iterable[Detection], anchors: Mapping[int, TagPlace]) -> AnchorReport:
    """Which anchors are in view (exactly once), which are missing or doubled."""
    seen: dict[int, int] = {}
    for d in detections:
        seen[d.id] = seen.get(d.id, 0) + 1
    duplicated = tuple(sorted(t for t in anchors if seen.get(t, 0) > 1))
    found = tuple(sorted(t for t in anchors if seen.get(t) == 1))
    missing = tuple(sorted(t for t in anchors if t not in seen))
    others = tuple(sorted(t for t in seen if t not in anchors))
    return AnchorReport(found, missing, others, duplicated)


NO_LENS: tuple[Lens, int, None] = (Lens(), 0, None)


def calibrate_table(
    detections: Sequence[Detection],
    anchors: Mapping[int, TagPlace],
    image_size: tuple[int, int],
    *,
    min_anchors: int = MIN_ANCHORS,
    lens: bool = True,
) -> TableCalibration:
    """Fit the table plane to the anchors in ``detections`` and, with ``lens`` and at least
    ``MIN_LENS_TAGS`` other stickers in view, the camera's lens to every sticker in view
    (:func:`fit_lens`).

    Raises CalibrationError naming the missing (or doubled) anchors when fewer than
    ``min_anchors`` are seen exactly once.
    """
    report = anchor_report(detections, anchors)
    problem = report.problem(anchors, min_anchors)
    if problem is not None:
        raise AnchorsError(problem)
    by_id = {d.id: d for d in detections if d.id in report.found}
    mm = np.vstack([anchors[t].corners_mm() for t in report.found])
    px = np.array([by_id[t].corners for t in report.found], float).reshape(-1, 2)
    fitted_lens, used, fitted = _fit_lens(detections, anchors, image_size) if lens else NO_LENS
    flat: FloatArray | None
    if fitted is not None and np.all(np.isfinite(fitted)):
        h, flat = fitted  # the fit's own, by the direct linear transform (see _lens_misfits)
    else:
        plain = _homography(mm, fitted_lens.undistort(px))
        if plain is None:
            raise AnchorsError(NOT_A_PLANE)
        h, flat = plain, _homography(mm, px) if fitted_lens.bends else None
    back = fitted_lens.distort(apply_homography(h, mm))
    error = float(np.sqrt(np.mean(np.sum((back - px) ** 2, axis=1))))
    return TableCalibration(h, image_size, report.found, error, fitted_lens, used, flat)


def _homography(src: FloatArray, dst: FloatArray) -> FloatArray | None:
    """The homography (normalised) that maps ``src`` onto ``dst`` best, or None (no plane)."""
    fitted, _ = cv2.findHomography(src, dst, 0)
    if fitted is None:
        return None
    (a, b, c), (d, e, f), (g, h_, i) = fitted.tolist()  # a 3×3 determinant by hand: 10× faster
    det = a * (e * i - f * h_) - b * (d * i - f * g) + c * (d * h_ - e * g)
    if not math.isfinite(det) or not all(map(math.isfinite, (a, b, c, d, e, f, g, h_, i))):
        return None
    if abs(det) < 1e-12:
        return None
    h = np.asarray(fitted, dtype=np.float64)
    return h / h[2, 2]


_SQUARE = np.array([0.5 - 0.5j, -0.5 - 0.5j, -0.5 + 0.5j, 0.5 + 0.5j])
"""A tag's corners in the detector's order, as complex numbers (``TagPlace.corners_mm``)."""
_SQUARE_BACK = np.conj(_SQUARE)
_SQUARE_NORM = float(np.sum(np.abs(_SQUARE) ** 2))


def fit_lens(
    detections: Sequence[Detection],
    anchors: Mapping[int, TagPlace],
    image_size: tuple[int, int],
) -> tuple[Lens, int]:
    """The camera's radial distortion fitted to the table's own tags, and how many stickers
    besides the anchors it rests on (0 and no lens when fewer than ``MIN_LENS_TAGS``).

    For a trial lens the anchors' corners are undistorted and a homography fitted to them;
    then every anchor's corners must land on its place, and every other sticker's four corners
    (seen once) on a square: the best square of any size and turn (a sticker's printed size
    is not trusted: printers scale, and a sticker on a figure's base lies higher than the
    table, which only changes its size). ``k1`` (and ``k2`` from ``K2_TAGS`` stickers) minimise
    the squares' misfit in table millimetres (Gauss-Newton on the one or two coefficients;
    everything else is solved exactly for each trial, see :func:`_lens_misfits`), stickers that
    fit far worse than the rest (a sticker tilted or misread) are left out once and the lens
    fitted again. A lens that would fold the picture, or that fits no better than none, is not
    kept.
    """
    lens, used, _ = _fit_lens(detections, anchors, image_size)
    return lens, used


def _fit_lens(
    detections: Sequence[Detection],
    anchors: Mapping[int, TagPlace],
    image_size: tuple[int, int],
) -> tuple[Lens, int, tuple[FloatArray, FloatArray] | None]:
    """`fit_lens`, with the homographies from table mm to the picture its fit worked out for
    the anchors in view: to the undistorted picture through the lens fitted, and to the
    picture seen (None with no lens)."""
    counts: dict[int, int] = {}
    for d in detections:
        counts[d.id] = counts.get(d.id, 0) + 1
    once = [d for d in detections if counts[d.id] == 1]
    seen_anchors = [d for d in once if d.id in anchors]
    others = [d for d in once if d.id not in anchors]
    if len(seen_anchors) < MIN_ANCHORS or len(others) < MIN_LENS_TAGS:
        return Lens(), 0, None
    anchor_mm = np.vstack([anchors[d.id].corners_mm() for d in seen_anchors])
    anchor_px = np.array([d.corners for d in seen_anchors], float).reshape(-1, 2)
    tags_px = np.array([d.corners for d in others], float).reshape(-1, 4, 2)
    frame = Lens.of_frame(image_size)
    step = 1e-4  # the Jacobian's difference (a coefficient's)

    def solve(n: int, keep: npt.NDArray[np.bool_]) -> tuple[FloatArray, ...]:
        """The coefficients, the misfit they leave, the misfit of no lens, and the anchors'
        homographies (table mm to the undistorted picture) of the coefficients and of none."""
        misfits = _lens_misfits(frame, anchor_mm, anchor_px, tags_px[keep])
        nudges = step * np.eye(n)
        ks = np.zeros(n)
        # no lens and a nudge either way of each coefficient: the misfit's slope and bend there
        trials, homographies = misfits(np.vstack([ks, nudges, -nudges]))
        r = none = trials[0]
        h = flat = homographies[0]
        ahead, behind = trials[1 : n + 1], trials[n + 1 :]
        jac = ((ahead - behind) / (2 * step)).T
        first = _quadratic_least(r, jac, ((ahead + behind - 2 * r) / step**2).T)
        damping = 1e-3
        for _ in range(30):
            a = jac.T @ jac
            g = jac.T @ r
            while True:
                if first is not None:  # the first step: to the least of the bent misfit
                    delta, first = first, None
                else:
                    delta = -_solve_small(a + damping * np.diag(np.diag(a) + 1e-12), g)
                if np.max(np.abs(delta)) < 1e-5:  # a hundredth of a pixel at the frame's corner
                    return ks, r, none, h, flat
                # each trial is worked out with the trials of its Jacobian, which the next
                # step needs
                trials, homographies = misfits(np.vstack([ks + delta, ks + delta + nudges]))
                if trials[0] @ trials[0] < r @ r:
                    ks, r, h, damping = ks + delta, trials[0], homographies[0], damping / 3
                    jac = ((trials[1:] - r) / step).T
                    break
                damping *= 10
                if damping > 1e6:
                    return ks, r, none, h, flat
        return ks, r, none, h, flat

    n = 2 if len(others) >= K2_TAGS else 1
    keep = np.ones(len(others), bool)
    ks, left, none, h, flat = solve(n, keep)
    per_tag = np.sqrt(np.mean(left[8 * len(seen_anchors) :].reshape(-1, 8) ** 2, axis=1))
    worst = per_tag > max(4 * float(np.median(per_tag)), 0.3)
    if worst.any() and (~worst).sum() >= MIN_LENS_TAGS:
        keep = ~worst
        ks, left, none, h, flat = solve(n, keep)
    fitted = Lens.of_frame(image_size, *(float(k) for k in ks))
    if fitted.folds(image_size) or left @ left >= none @ none:
        return Lens(), 0, None
    return fitted, int(keep.sum()), (h, flat)


def _quadratic_least(misfit: FloatArray, slope: FloatArray, bend: FloatArray) -> FloatArray | None:
    """The coefficients where the misfit, taken as ``misfit + slope k + bend k² / 2`` (each
    coefficient's own bend: the lens's pull grows faster than in proportion), is least: a few
    Gauss-Newton steps on that model from its linear least, which lands within a few
    millionths of the fitted lens where the line alone stops a percent or more short. None
    when the model gives no finite answer."""
    ks = np.zeros(slope.shape[1])
    for _ in range(4):
        at = slope + bend * ks  # the model's slope at ks
        left = misfit + slope @ ks + bend @ (ks * ks) / 2
        try:
            change = _solve_small(at.T @ at, at.T @ left)
        except np.linalg.LinAlgError:
            return None
        ks = ks - change
        if not np.abs(change).max() > 1e-9:  # a millionth of a pixel: as least as it gets
            break
    return ks if bool(np.all(np.isfinite(ks))) else None


def _solve_small(a: FloatArray, b: FloatArray) -> FloatArray:
    """``np.linalg.solve`` for the one or two coefficients of a lens, by hand (a call of
    LAPACK costs more than the sums); LinAlgError for a singular ``a``, as it."""
    if a.shape == (1, 1):
        if a[0, 0] == 0:
            raise np.linalg.LinAlgError("Singular matrix")
        return b / a[0, 0]
    if a.shape != (2, 2):
        return np.asarray(np.linalg.solve(a, b), dtype=np.float64)
    (p, q), (r, s) = a.tolist()
    det = p * s - q * r
    if det == 0 or not math.isfinite(det):
        raise np.linalg.LinAlgError("Singular matrix")
    x, y = b.tolist()
    return np.array([(s * x - q * y) / det, (p * y - r * x) / det])


def _lens_misfits(
    frame: Lens, anchor_mm: FloatArray, anchor_px: FloatArray, tags_px: FloatArray
) -> Callable[[FloatArray], tuple[FloatArray, FloatArray]]:
    """The misfits (table mm) of trial lenses about ``frame``'s centre and scale: for each row
    of coefficients (``k1`` or ``k1, k2``) the anchors' corners' offsets from their places
    (``anchor_mm``, 4 per anchor) and each sticker's corners' (``tags_px``, N×4×2) from their
    best square, in one row; a row of 1000s where the anchors span no plane; and each trial's
    homography from table mm to the undistorted picture.

    The trials are worked out together (a step's trial and those of its Jacobian): every point
    undistorted by Newton's method on its radius, and the anchors' homography of each trial
    fitted by the normalised direct linear transform (its algebraic least squares on 16
    corners: within a thousandth of a pixel of OpenCV's refined fit on these anchors)."""
    points = np.vstack([anchor_px, tags_px.reshape(-1, 2)])
    centre = np.asarray(frame.centre_px, float)
    offsets = points - centre
    rd = np.hypot(offsets[:, 0], offsets[:, 1]) / frame.scale_px
    count = len(anchor_px)
    src_mean = anchor_mm.sum(axis=0) / count
    src_scale = math.sqrt(2) * count / float(np.hypot(*(anchor_mm - src_mean).T).sum())
    src = np.column_stack([(anchor_mm - src_mean) * src_scale, np.ones(count)])
    to_normal = np.array(  # table mm → normalised table
        [
            [src_scale, 0, -src_scale * src_mean[0]],
            [0, src_scale, -src_scale * src_mean[1]],
            [0, 0, 1],
        ]
    )
    rows = np.zeros((2 * count, 9))  # the linear transform's rows, less the picture's part
    rows[0::2, 0:3] = src
    rows[1::2, 3:6] = src

    def misfits(ks: FloatArray) -> tuple[FloatArray, FloatArray]:
        trials = len(ks)
        k1 = ks[:, :1]
        k2 = ks[:, 1:] if ks.shape[1] > 1 else None
        r = rd * np.ones((trials, 1))
        for _ in range(8):  # Newton's method on each radius, as Lens.undistort
            r2 = r * r
            if k2 is not None:
                slope = 1 + 3 * k1 * r2 + 5 * k2 * r2 * r2
                change = (r * (1 + k1 * r2 + k2 * r2 * r2) - rd) / slope
            else:
                change = (r * (1 + k1 * r2) - rd) / (1 + 3 * k1 * r2)
            r -= change
            if not np.abs(change).max(initial=0.0) > 1e-13:
                break
        ratio = np.divide(r, rd, out=np.ones_like(r), where=rd > 0)
        seen = centre + offsets * ratio[:, :, None]  # trials × points × 2, undistorted
        finite = np.isfinite(seen).all(axis=(1, 2))
        if not finite.all():
            seen[~finite] = points  # a lens that throws points to infinity: no plane, below
        dst_mean = seen[:, :count].sum(axis=1, keepdims=True) / count
        normal = seen - dst_mean
        spread = np.sqrt((normal[:, :count] ** 2).sum(axis=2)).sum(axis=1) / count
        normal *= (math.sqrt(2) / spread)[:, None, None]
        system = np.repeat(rows[None], trials, axis=0)
        system[:, 0::2, 6:] = -normal[:, :count, 0:1] * src
        system[:, 1::2, 6:] = -normal[:, :count, 1:2] * src
        # the system's least singular vector: normalised table → picture
        h = np.linalg.eigh(system.transpose(0, 2, 1) @ system)[1][:, :, 0].reshape(trials, 3, 3)
        det = np.linalg.det(h)
        plane = finite & np.isfinite(det) & (np.abs(det) > 1e-12)
        back = np.linalg.inv(np.where(plane[:, None, None], h, np.eye(3)))
        mapped = normal @ back[:, :, :2].transpose(0, 2, 1) + back[:, None, :, 2]
        mm = mapped[:, :, :2] / mapped[:, :, 2:] / src_scale + src_mean
        on_anchors = (mm[:, :count] - anchor_mm).reshape(trials, -1)
        squares = _square_misfit(mm[:, count:].reshape(-1, 4, 2)).reshape(trials, -1)
        out = np.concatenate([on_anchors, squares], axis=1)
        out[~plane] = 1e3
        unscale = np.zeros((trials, 3, 3))  # normalised picture → undistorted pixels
        unscale[:, 0, 0] = unscale[:, 1, 1] = spread / math.sqrt(2)
        unscale[:, :2, 2] = dst_mean[:, 0]
        unscale[:, 2, 2] = 1
        homographies = unscale @ h @ to_normal
        return out, homographies / homographies[:, 2:, 2:]

    return misfits


def _square_misfit(quads: FloatArray) -> FloatArray:
    """How far each quad's corners (N×4×2, table mm, detector order) lie from the best square
    of any size, place and turn (N×4×2)."""
    z = quads[:, :, 0] + 1j * quads[:, :, 1]
    centre = z.sum(axis=1, keepdims=True) / 4
    scale = (_SQUARE_BACK * (z - centre)).sum(axis=1, keepdims=True) / _SQUARE_NORM
    rest = z - centre - scale * _SQUARE
    return np.stack([rest.real, rest.imag], axis=2)


def _flat_fit(calibration: TableCalibration) -> FloatArray:
    """The homography from pixels to table mm that best follows ``calibration`` (lens and
    all) over the anchors' area and a margin around it."""
    w, h = calibration.image_size
    xs, ys = np.meshgrid(np.linspace(0, w - 1, 17), np.linspace(0, h - 1, 11))
    px = np.column_stack([xs.ravel(), ys.ravel()])
    fitted = _homography(px, calibration.to_table(px))
    return _inverse(calibration.table_to_image) if fitted is None else fitted


def _inverse(h: FloatArray) -> FloatArray:
    """The inverse of a homography, as float64."""
    return np.asarray(np.linalg.inv(h), dtype=np.float64)


@dataclass(frozen=True)
class Grid:
    """A board's grid: the top-left corner of cell (0, 0) and the cell size, in board mm."""

    origin_mm: tuple[float, float]
    cell_mm: tuple[float, float]
    cols: int
    rows: int


@dataclass(frozen=True)
class BoardLayout:
    """One face of a board: its tags at known places in the board's own mm, and its grid."""

    name: str
    tags: tuple[TagPlace, ...]
    grid: Grid | None = None

    @property
    def tag_ids(self) -> tuple[int, ...]:
        """The ids of the board's tags."""
        return tuple(t.tag_id for t in self.tags)


@dataclass(frozen=True)
class BoardPose:
    """Where a board lies on the table: a rigid map from board mm to table mm, with its fit."""

    layout: BoardLayout
    board_to_table: FloatArray  # 2×3, rotation and translation
    tags_used: tuple[int, ...]
    residual_mm: float

    @property
    def angle_deg(self) -> float:
        """How far the board is turned on the table (clockwise as seen from the camera)."""
        return math.degrees(math.atan2(self.board_to_table[1, 0], self.board_to_table[0, 0]))

    def to_board(self, points_mm: FloatArray) -> FloatArray:
        """Table millimetres (N×2) to board millimetres."""
        m = np.vstack([self.board_to_table, [0, 0, 1]])
        return apply_homography(np.linalg.inv(m), points_mm)

    def to_table(self, points_mm: FloatArray) -> FloatArray:
        """Board millimetres (N×2) to table millimetres."""
        pts = np.asarray(points_mm, float).reshape(-1, 2)
        return np.asarray(pts @ self.board_to_table[:, :2].T + self.board_to_table[:, 2])

    def cell_centre(self, col: int, row: int) -> tuple[float, float]:
        """The table point at the middle of grid cell (``col``, ``row``); ValueError for a
        board without a grid."""
        grid = self.layout.grid
        if grid is None:
            raise ValueError(f"board {self.layout.name} has no grid")
        bx = grid.origin_mm[0] + (col + 0.5) * grid.cell_mm[0]
        by = grid.origin_mm[1] + (row + 0.5) * grid.cell_mm[1]
        x, y = self.to_table(np.array([[bx, by]]))[0]
        return float(x), float(y)

    def cell_at(self, x_mm: float, y_mm: float) -> tuple[int, int] | None:
        """The grid cell (column, row) under a table point, or None when off the grid."""
        grid = self.layout.grid
        if grid is None:
            return None
        bx, by = self.to_board(np.array([[x_mm, y_mm]]))[0]
        col = math.floor((bx - grid.origin_mm[0]) / grid.cell_mm[0])
        row = math.floor((by - grid.origin_mm[1]) / grid.cell_mm[1])
        return (col, row) if 0 <= col < grid.cols and 0 <= row < grid.rows else None


def locate_board(
    layout: BoardLayout, detections: Sequence[Detection], table: TableCalibration
) -> BoardPose:
    """Fit ``layout``'s pose on the table from whichever of its tags are in ``detections``.

    One tag is enough (its four corners fix position and turn); more make the fit steadier.
    Raises CalibrationError when none of the board's tags is seen, or one is seen twice.
    """
    wanted = {t.tag_id: t for t in layout.tags}
    seen = [d for d in detections if d.id in wanted]
    counts: dict[int, int] = {}
    for d in seen:
        counts[d.id] = counts.get(d.id, 0) + 1
    doubled = sorted(t for t, n in counts.items() if n > 1)
    if doubled:
        raise CalibrationError(f"board {layout.name}: tag(s) {_ids(doubled)} seen more than once")
    if not seen:
        raise CalibrationError(
            f"board {layout.name}: none of its tags ({_ids(sorted(wanted))}) is in view"
        )
    board_mm = np.vstack([wanted[d.id].corners_mm() for d in seen])
    table_mm = np.vstack([table.to_table(np.asarray(d.corners, float)) for d in seen])
    m = _rigid_fit(board_mm, table_mm)
    fitted = board_mm @ m[:, :2].T + m[:, 2]
    residual = float(np.sqrt(np.mean(np.sum((fitted - table_mm) ** 2, axis=1))))
    return BoardPose(layout, m, tuple(sorted(d.id for d in seen)), residual)


def board_in_picture(layout: BoardLayout, detections: Sequence[Detection]) -> FloatArray | None:
    """The homography from picture pixels to ``layout``'s own mm, fitted to the corners of its
    tags in ``detections`` (one tag is enough); None when none is seen or they span no plane.
    No table calibration is needed: the board's own tags fix it."""
    places = {t.tag_id: t for t in layout.tags}
    seen = [d for d in detections if d.id in places]
    if not seen:
        return None
    mm = np.vstack([places[d.id].corners_mm() for d in seen])
    px = np.vstack([np.asarray(d.corners, float) for d in seen])
    return _homography(px, mm)


def straighten(
    image: Image, to_board: FloatArray, size_mm: tuple[float, float], px_per_mm: float
) -> Image:
    """The board as seen from straight above: ``image`` warped by ``to_board`` (picture pixels
    to board mm, ``board_in_picture``) onto ``size_mm`` at ``px_per_mm``."""
    scale = np.diag([px_per_mm, px_per_mm, 1.0])
    size = (round(size_mm[0] * px_per_mm), round(size_mm[1] * px_per_mm))
    warped = cv2.warpPerspective(image, scale @ to_board, size, flags=cv2.INTER_AREA)
    return np.asarray(warped, dtype=np.uint8)


def _rigid_fit(src: FloatArray, dst: FloatArray) -> FloatArray:
    """The rotation and translation (2×3) that best map ``src`` onto ``dst`` (Kabsch)."""
    cs, cd = src.mean(axis=0), dst.mean(axis=0)
    u, _, vt = np.linalg.svd((src - cs).T @ (dst - cd))
    d = np.sign(np.linalg.det(vt.T @ u.T)) or 1.0
    r = vt.T @ np.diag([1.0, d]) @ u.T
    return np.column_stack([r, cd - r @ cs])


def _ids(ids: Iterable[int], none: str = "none") -> str:
    ids = list(ids)
    return ", ".join(str(i) for i in ids) if ids else none


def draw_calibration(
    image: npt.NDArray[np.uint8],
    detections: Sequence[Detection],
    anchors: Mapping[int, TagPlace],
    calibration: TableCalibration | None,
    *,
    grid_mm: float = 100.0,
    caption: bool = True,
) -> npt.NDArray[np.uint8]:
    """A copy of ``image`` with the tags outlined (anchors in green, others in blue, with ids),
    the table's millimetre grid when calibrated, and (``caption``, :func:`caption`) whether it
    is calibrated and how many tags are in view, in English (the picture's font has no Chinese:
    the kiosk's page draws none and writes the caption under it in its language)."""
    if image.ndim == 3:
        out = image.copy()
    else:
        out = np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    scale = max(out.shape[1] / 1280, 0.5)
    font, thick = cv2.FONT_HERSHEY_SIMPLEX, max(1, round(2 * scale))
    if calibration is not None:
        xs = np.array([a.x_mm for a in anchors.values()])
        ys = np.array([a.y_mm for a in anchors.values()])
        x0, x1 = math.floor(xs.min() / grid_mm) * grid_mm, math.ceil(xs.max() / grid_mm) * grid_mm
        y0, y1 = math.floor(ys.min() / grid_mm) * grid_mm, math.ceil(ys.max() / grid_mm) * grid_mm
        lines = [((x, y0), (x, y1)) for x in np.arange(x0, x1 + 1, grid_mm)]
        lines += [((x0, y), (x1, y)) for y in np.arange(y0, y1 + 1, grid_mm)]
        steps = np.linspace(0.0, 1.0, 25)[:, None]
        for a, b in lines:  # in short pieces, so the lens bends them as it bends the table
            along = np.asarray(a, float) + (np.asarray(b, float) - np.asarray(a, float)) * steps
            curve = np.round(calibration.to_image(along) * 16).astype(np.int32)
            cv2.polylines(out, [curve], False, (0, 200, 255), 1, cv2.LINE_AA, shift=4)
    for d in detections:
        colour = (0, 220, 0) if d.id in anchors else (255, 140, 0)
        quad = np.round(np.asarray(d.corners)).astype(np.int32)
        cv2.polylines(out, [quad], True, colour, thick, cv2.LINE_AA)
        cv2.putText(out, str(d.id), _pt(d.center), font, 0.5 * scale, colour, thick, cv2.LINE_AA)
    if not caption:
        return out
    for i, text in enumerate(line.en for line in caption_lines(detections, anchors, calibration)):
        y = round((30 + 30 * i) * scale)
        cv2.putText(out, text, (10, y), font, 0.8 * scale, (0, 0, 0), thick + 3, cv2.LINE_AA)
        cv2.putText(out, text, (10, y), font, 0.8 * scale, (255, 255, 255), thick, cv2.LINE_AA)
    return out


def _pt(p: Iterable[float]) -> tuple[int, int]:
    x, y = p
    return round(float(x)), round(float(y))


def caption_lines(
    detections: Sequence[Detection],
    anchors: Mapping[int, TagPlace],
    calibration: TableCalibration | None,
) -> list[Text]:
    """The calibration picture's caption: calibrated with its error, or the missing anchors;
    how many tags are in view."""
    if calibration is not None:
        error = f"{calibration.reprojection_error_px:.2f}"
        status = Text(f"已校准:误差 {error} 像素", f"calibrated: error {error} px")
    else:
        missing = anchor_report(detections, anchors).missing
        status = Text(
            f"未校准:缺定位标签 {_ids(missing, '无')}",
            f"not calibrated: missing anchors {_ids(missing)}",
        )
    n = len(detections)
    return [status, Text(f"画面里的标签:{n}个", f"tags in view: {n}")]
