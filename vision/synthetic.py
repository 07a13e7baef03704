"""The synthetic table: tagged components placed in millimetres, seen through a pinhole camera.

Table coordinates are millimetres on the table plane, laid out like the picture the overhead
camera takes: the origin at the table's far-left corner, ``x`` to the right, ``y`` towards the
player at the bottom of the picture, ``z`` down into the table (so the camera sits at a negative
``z``). A component's ``rotation_deg`` turns it clockwise as seen from the camera.

Every tag is a ``tag36h11`` bitmap from ``cv2.aruco.generateImageMarker`` with a white quiet zone,
drawn onto its component; the renderer reports the exact ground truth (id and pixel corners) of
every tag that is wholly in the frame and not covered by a hand. Corners are in the detector's
order (AprilTag's lb, rb, rt, lt), which on the ``cv2.aruco`` bitmap as printed here is its
top-right, top-left, bottom-left, bottom-right corner; the bitmap's top edge is thus corners 0-1.

>>> table = SyntheticTable(components=(Component(tag_id=3, x_mm=450, y_mm=300),))
>>> shot = render(table, Camera.overhead())
>>> shot.image.shape, [t.tag_id for t in shot.truth]
((720, 1280, 3), [3])
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TypeAlias

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import VisionError

FloatArray: TypeAlias = npt.NDArray[np.float64]
Float32Array: TypeAlias = npt.NDArray[np.float32]
Image: TypeAlias = npt.NDArray[np.uint8]

#: Cells across a tag36h11 black square (6 data cells and a one-cell black border).
TAG_CELLS = 8
#: Bitmap pixels per cell when a tag is drawn (the warp then scales it to the frame).
_CELL_PX = 12
#: Largest tag36h11 id.
MAX_TAG36H11_ID = 586


class SyntheticError(VisionError, ValueError):
    """A synthetic scene cannot be rendered as described (bad id, size or camera)."""


@dataclass(frozen=True)
class Component:
    """One tagged component on the table: a tile, piece, token or board anchor.

    ``tag_mm`` is the edge of the tag's black square; the white quiet zone around it is
    ``quiet_cells`` cells wide; ``body_mm`` is the component's own card (width, height),
    by default just the tag with its quiet zone. ``colour`` is the card's BGR colour.
    """

    tag_id: int
    x_mm: float
    y_mm: float
    rotation_deg: float = 0.0
    tag_mm: float = 25.0
    quiet_cells: float = 2.0
    body_mm: tuple[float, float] | None = None
    colour: tuple[int, int, int] = (235, 235, 235)

    def __post_init__(self) -> None:
        if not 0 <= self.tag_id <= MAX_TAG36H11_ID:
            raise SyntheticError(f"tag id {self.tag_id} is not a tag36h11 id (0-586)")
        if self.tag_mm <= 0:
            raise SyntheticError(f"tag {self.tag_id}: size must be positive, not {self.tag_mm}")

    def local_to_table(self, points: FloatArray) -> FloatArray:
        """Points in the component's own millimetres (centre origin) to table millimetres."""
        a = math.radians(self.rotation_deg)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        return np.asarray(points, float) @ rot.T + (self.x_mm, self.y_mm)

    def tag_corners_mm(self) -> FloatArray:
        """The black square's corners on the table, in the detector's order.

        AprilTag's own tag image is the ``cv2.aruco`` bitmap turned half a turn, so AprilTag's
        lb, rb, rt, lt are the bitmap's top-right, top-left, bottom-left, bottom-right.
        """
        h = self.tag_mm / 2
        return self.local_to_table(np.array([[h, -h], [-h, -h], [-h, h], [h, h]]))


#: The kinds of look-alike print a `Decoy` can be.
DECOY_KINDS = ("checker", "framed", "text", "blocks")


@dataclass(frozen=True)
class Decoy:
    """Print that looks like a tag to a detector but is none, ``size_mm`` square on the table.

    ``checker`` is a chessboard of 8 × 8 squares; ``framed`` a black frame one cell wide around
    6 × 6 random cells, on a white quiet zone (a tag's layout with a random code: the hardest
    case); ``text`` black letters and digits on white; ``blocks`` random black and white cells.
    ``seed`` draws the random cells and the text.
    """

    kind: str
    x_mm: float
    y_mm: float
    size_mm: float = 25.0
    rotation_deg: float = 0.0
    seed: int = 0

    def __post_init__(self) -> None:
        if self.kind not in DECOY_KINDS:
            raise SyntheticError(f"decoy kind {self.kind!r} is not one of {DECOY_KINDS}")
        if self.size_mm <= 0:
            raise SyntheticError(f"decoy size must be positive, not {self.size_mm}")


@lru_cache(maxsize=256)
def decoy_bitmap(kind: str, seed: int) -> Image:
    """The bitmap of a `Decoy` with a two-cell white margin, ``_CELL_PX`` pixels per cell."""
    rng = np.random.default_rng(seed)
    cells = TAG_CELLS
    if kind == "checker":
        pattern = (np.indices((cells, cells)).sum(axis=0) % 2).astype(np.uint8)
    elif kind == "framed":
        pattern = np.zeros((cells, cells), np.uint8)
        pattern[1:-1, 1:-1] = rng.integers(0, 2, (cells - 2, cells - 2))
    elif kind == "blocks":
        pattern = rng.integers(0, 2, (cells, cells)).astype(np.uint8)
    else:
        pattern = None
    side = cells * _CELL_PX
    if pattern is not None:
        square = cv2.resize(pattern * 255, (side, side), interpolation=cv2.INTER_NEAREST)
    else:
        square = np.full((side, side), 255, np.uint8)
        letters = "ABCDEFGHKMNPRSTXYZ0123456789"
        for row in range(3):
            word = "".join(rng.choice(list(letters), 4))
            y = round((row + 0.8) * side / 3)
            cv2.putText(square, word, (2, y), cv2.FONT_HERSHEY_SIMPLEX, 1.1, 0, 3, cv2.LINE_AA)
    pad = 2 * _CELL_PX
    return cv2.copyMakeBorder(square, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)


@dataclass(frozen=True)
class Hand:
    """An occluding blob (a hand with its arm) over the table, in table millimetres.

    The hand is an ellipse at (``x_mm``, ``y_mm``); the arm runs from it to ``arm_to_mm``
    (usually a point beyond the table's edge), ``arm_mm`` wide. Both are drawn at table height.
    """

    x_mm: float
    y_mm: float
    radius_mm: tuple[float, float] = (60.0, 45.0)
    angle_deg: float = 0.0
    arm_to_mm: tuple[float, float] | None = None
    arm_mm: float = 80.0
    colour: tuple[int, int, int] = (120, 150, 200)


@dataclass(frozen=True)
class Effects:
    """Imperfections added to a rendered frame; all off by default.

    ``blur`` is a Gaussian sigma in pixels; ``motion_blur`` a streak length in pixels at
    ``motion_angle_deg``; ``noise`` the sigma of Gaussian sensor noise in grey levels;
    ``uneven_light`` how much darker the darkest corner is (0-1); ``glare`` the strength
    (0-1) of a bright spot at ``glare_at`` (fractions of width and height); ``jpeg_quality``
    re-encodes the frame as JPEG (None = no); ``exposure`` scales the light (a lamp that
    flickers: 0.8 one frame, 1.1 the next).
    """

    blur: float = 0.0
    motion_blur: float = 0.0
    motion_angle_deg: float = 0.0
    noise: float = 0.0
    uneven_light: float = 0.0
    glare: float = 0.0
    glare_at: tuple[float, float] = (0.6, 0.4)
    glare_radius: float = 0.12
    jpeg_quality: int | None = None
    hands: tuple[Hand, ...] = ()
    exposure: float = 1.0


@dataclass(frozen=True)
class Camera:
    """A pinhole camera above the table, with radial lens distortion when ``k1``/``k2`` are set.

    ``fx, fy, cx, cy`` are the intrinsics in pixels; ``position_mm`` is the optical centre in
    table coordinates (``z`` negative: above the table); ``tilt_deg`` pitches the camera about
    its ``x`` axis and ``yaw_deg`` turns it about the vertical. ``k1`` and ``k2`` are OpenCV's
    radial coefficients in normalised coordinates (pixels less the centre, over ``fx``/``fy``):
    a point at normalised radius ``r`` of the pinhole picture is seen at ``r (1 + k1 r² + k2 r⁴)``;
    negative ``k1`` is a barrel lens (a cheap wide camera: about -0.1 to -0.3).
    """

    width: int
    height: int
    fx: float
    fy: float
    cx: float
    cy: float
    position_mm: tuple[float, float, float]
    tilt_deg: float = 0.0
    yaw_deg: float = 0.0
    k1: float = 0.0
    k2: float = 0.0

    @classmethod
    def overhead(
        cls,
        width: int = 1280,
        height: int = 720,
        *,
        height_mm: float = 800.0,
        over_mm: tuple[float, float] = (450.0, 300.0),
        hfov_deg: float = 66.0,
        tilt_deg: float = 0.0,
        yaw_deg: float = 0.0,
        k1: float = 0.0,
        k2: float = 0.0,
    ) -> Camera:
        """A camera ``height_mm`` above the table point ``over_mm``, looking straight down (less
        ``tilt_deg``), through a lens of radial distortion ``k1``, ``k2``."""
        if width < 16 or height < 16 or height_mm <= 0 or not 1 < hfov_deg < 170:
            raise SyntheticError("camera: size, height or field of view is out of range")
        f = (width / 2) / math.tan(math.radians(hfov_deg) / 2)
        return cls(
            width,
            height,
            f,
            f,
            (width - 1) / 2,
            (height - 1) / 2,
            (over_mm[0], over_mm[1], -height_mm),
            tilt_deg,
            yaw_deg,
            k1,
            k2,
        )

    @property
    def distorted(self) -> bool:
        """Whether the lens bends straight lines (``k1`` or ``k2`` set)."""
        return self.k1 != 0 or self.k2 != 0

    @property
    def matrix(self) -> FloatArray:
        """The 3×3 intrinsic matrix K."""
        return np.array([[self.fx, 0, self.cx], [0, self.fy, self.cy], [0, 0, 1.0]])

    @property
    def rotation(self) -> FloatArray:
        """The rotation from table axes to camera axes."""
        t, y = math.radians(self.tilt_deg), math.radians(self.yaw_deg)
        rx = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
        rz = np.array([[math.cos(y), -math.sin(y), 0], [math.sin(y), math.cos(y), 0], [0, 0, 1]])
        return rx @ rz

    def table_homography(self) -> FloatArray:
        """The 3×3 homography from table millimetres (z = 0) to pixels."""
        r = self.rotation
        t = -r @ np.asarray(self.position_mm, float)
        h = self.matrix @ np.column_stack([r[:, 0], r[:, 1], t])
        return h / h[2, 2]

    def project(self, points_mm: FloatArray) -> FloatArray:
        """Table points (N×2, on the plane) to pixels (N×2), through the lens."""
        return self.distort(apply_homography(self.table_homography(), points_mm))

    def distort(self, points_px: FloatArray) -> FloatArray:
        """Pixels of the pinhole picture (N×2) to where the lens shows them."""
        pts = np.asarray(points_px, float).reshape(-1, 2)
        if not self.distorted:
            return pts
        n = (pts - (self.cx, self.cy)) / (self.fx, self.fy)
        r2 = np.sum(n * n, axis=1, keepdims=True)
        return n * (1 + self.k1 * r2 + self.k2 * r2 * r2) * (self.fx, self.fy) + (self.cx, self.cy)

    def undistort(self, points_px: FloatArray) -> FloatArray:
        """Pixels as the lens shows them (N×2) to the pinhole picture's (Newton's method on the
        radius; the inverse of :meth:`distort` within the frame)."""
        pts = np.asarray(points_px, float).reshape(-1, 2)
        if not self.distorted:
            return pts
        n = (pts - (self.cx, self.cy)) / (self.fx, self.fy)
        rd = np.hypot(n[:, 0], n[:, 1])
        r = rd.copy()
        for _ in range(20):
            r2 = r * r
            f = r * (1 + self.k1 * r2 + self.k2 * r2 * r2) - rd
            r = r - f / (1 + 3 * self.k1 * r2 + 5 * self.k2 * r2 * r2)
        ratio = np.divide(r, rd, out=np.ones_like(rd), where=rd > 0)
        return n * ratio[:, None] * (self.fx, self.fy) + (self.cx, self.cy)


@dataclass(frozen=True)
class SyntheticTable:
    """The scene: the table's size and colour, the components on it, and print that is no
    tag (`Decoy`)."""

    components: tuple[Component, ...] = ()
    size_mm: tuple[float, float] = (900.0, 600.0)
    decoys: tuple[Decoy, ...] = ()
    colour: tuple[int, int, int] = (70, 100, 140)
    floor_colour: tuple[int, int, int] = (40, 40, 45)


@dataclass(frozen=True)
class TagTruth:
    """The exact place of one visible tag: id, pixel corners (detector order), centre, pose."""

    tag_id: int
    corners: tuple[tuple[float, float], ...]
    center: tuple[float, float]
    x_mm: float
    y_mm: float
    rotation_deg: float


@dataclass(frozen=True)
class Rendering:
    """One rendered frame (BGR) and the ground truth of every visible tag, sorted by id."""

    image: Image
    truth: tuple[TagTruth, ...]
    hidden: tuple[int, ...] = field(default=())

    def truth_by_id(self) -> dict[int, TagTruth]:
        """The visible tags keyed by id."""
        return {t.tag_id: t for t in self.truth}


def apply_homography(h: FloatArray, points: FloatArray) -> FloatArray:
    """Map N×2 points through a 3×3 homography."""
    pts = np.asarray(points, float).reshape(-1, 2)
    out = np.column_stack([pts, np.ones(len(pts))]) @ np.asarray(h, float).T
    return out[:, :2] / out[:, 2:3]


@lru_cache(maxsize=1024)
def tag_bitmap(tag_id: int, quiet_cells: float = 2.0) -> Image:
    """The tag36h11 bitmap of ``tag_id`` with a white quiet zone, ``_CELL_PX`` pixels per cell."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11)
    marker = cv2.aruco.generateImageMarker(dictionary, tag_id, TAG_CELLS * _CELL_PX)
    pad = round(quiet_cells * _CELL_PX)
    border = cv2.copyMakeBorder(marker, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)
    return np.asarray(border, dtype=np.uint8)


def render(
    table: SyntheticTable,
    camera: Camera,
    effects: Effects | None = None,
    *,
    seed: int = 0,
    supersample: int = 2,
) -> Rendering:
    """Render ``table`` through ``camera`` with ``effects``; noise is drawn from ``seed``.

    The scene is drawn at ``supersample`` times the frame size and shrunk with area averaging,
    so tag edges are anti-aliased like a real sensor's.
    """
    effects = effects or Effects()
    if supersample < 1:
        raise SyntheticError("supersample must be at least 1")
    s = supersample
    # The pinhole picture the lens bends into the frame: the frame itself, or (a lens) the
    # larger area of the pinhole picture that the frame shows, drawn and then bent.
    x0, y0, x1, y1 = _pinhole_area(camera)
    # Pixel centres stay centres when the frame is shrunk by s: x_lo = (x_hi + 0.5) / s - 0.5.
    to_hi = np.array([[s, 0, (s - 1) / 2 - s * x0], [0, s, (s - 1) / 2 - s * y0], [0, 0, 1.0]])
    h_table = to_hi @ camera.table_homography()
    big = ((y1 - y0) * s, (x1 - x0) * s)
    canvas = np.empty((*big, 3), np.uint8)
    canvas[:] = table.floor_colour
    tw, th = table.size_mm
    _fill(canvas, h_table, np.array([[0, 0], [tw, 0], [tw, th], [0, th]]), table.colour)
    for decoy in table.decoys:
        bitmap = decoy_bitmap(decoy.kind, decoy.seed)
        side_mm = decoy.size_mm * (TAG_CELLS + 4) / TAG_CELLS
        _draw_bitmap(canvas, h_table, bitmap, decoy.x_mm, decoy.y_mm, decoy.rotation_deg, side_mm)
    for comp in table.components:
        _draw_component(canvas, h_table, comp)
    small_mask = None
    if effects.hands:
        hand_mask = np.zeros(big, np.uint8)
        for hand in effects.hands:
            _draw_hand(canvas, hand_mask, lambda p: apply_homography(h_table, p), hand)
        if camera.distorted:
            hand_mask = _bend(hand_mask, camera, s, 0)
        size = (camera.width, camera.height)
        small_mask = np.asarray(cv2.resize(hand_mask, size, interpolation=cv2.INTER_AREA), np.uint8)
    if camera.distorted:
        canvas = _bend(canvas, camera, s, table.floor_colour)
    shrunk = cv2.resize(canvas, (camera.width, camera.height), interpolation=cv2.INTER_AREA)
    image = np.asarray(shrunk, dtype=np.uint8)
    truth, hidden = _truth(table, camera, small_mask)
    image = _apply_effects(image, effects, np.random.default_rng(seed))
    return Rendering(image, truth, hidden)


class SessionRenderer:
    """Renders the many frames of a long session through one camera, in grey, quickly.

    The still table is drawn once per layout (`render`, cached for the last few layouts); hands
    are drawn at frame resolution over it; the light maps of the effects are computed once; the
    sensor noise is drawn in grey. Frames are grey (the detector works in grey), with the same
    ground truth as `render` gives. For benchmarks and tests of sequences of hundreds of frames.
    """

    def __init__(self, camera: Camera, *, layouts: int = 4) -> None:
        self.camera = camera
        self._layouts = layouts
        self._tables: dict[SyntheticTable, Image] = {}
        self._light: dict[tuple[object, ...], tuple[Float32Array, Float32Array]] = {}

    def render(
        self, table: SyntheticTable, effects: Effects | None = None, *, seed: int = 0
    ) -> Rendering:
        """One grey frame of ``table`` with ``effects`` (noise drawn from ``seed``)."""
        fx = effects or Effects()
        base = self._tables.get(table)
        if base is None:
            grey = cv2.cvtColor(render(table, self.camera).image, cv2.COLOR_BGR2GRAY)
            base = np.asarray(grey, dtype=np.uint8)
            if len(self._tables) >= self._layouts:
                self._tables.pop(next(iter(self._tables)))
            self._tables[table] = base
        image = base.copy()
        mask = None
        if fx.hands:
            mask = np.zeros_like(image)
            for hand in fx.hands:
                grey_hand = replace(hand, colour=(int(np.mean(hand.colour)),) * 3)
                _draw_hand(image, mask, self.camera.project, grey_hand)
        truth, hidden = _truth(table, self.camera, mask)
        out = image.astype(np.float32)
        if fx.uneven_light > 0 or fx.glare > 0:
            scale, add = self._light_maps(fx)
            out = out * scale + add
        if fx.exposure != 1.0:  # the lamp, glare included
            out *= np.float32(fx.exposure)
        if fx.blur > 0:
            out = np.asarray(cv2.GaussianBlur(out, (0, 0), fx.blur), dtype=np.float32)
        if fx.motion_blur > 1:
            out = np.asarray(
                cv2.filter2D(out, -1, _motion_kernel(fx.motion_blur, fx.motion_angle_deg)),
                np.float32,
            )
        if fx.noise > 0:
            rng = np.random.default_rng(seed)
            out += rng.standard_normal(out.shape, dtype=np.float32) * np.float32(fx.noise)
        result = np.clip(out, 0, 255).astype(np.uint8)
        if fx.jpeg_quality is not None:
            quality = [cv2.IMWRITE_JPEG_QUALITY, int(fx.jpeg_quality)]
            _ok, data = cv2.imencode(".jpg", result, quality)
            decoded = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE)
            assert decoded is not None  # OpenCV's own JPEG, just encoded
            result = np.asarray(decoded, dtype=np.uint8)
        return Rendering(result, truth, hidden)

    def _light_maps(self, fx: Effects) -> tuple[Float32Array, Float32Array]:
        key = (fx.uneven_light, fx.glare, fx.glare_at, fx.glare_radius)
        maps = self._light.get(key)
        if maps is None:
            h, w = self.camera.height, self.camera.width
            yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
            scale = 1 - fx.uneven_light * (xx / w + yy / h) / 2
            gx, gy, r = fx.glare_at[0] * w, fx.glare_at[1] * h, fx.glare_radius * w
            add = 255 * fx.glare * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * r * r))
            maps = (scale.astype(np.float32), add.astype(np.float32))
            self._light[key] = maps
        return maps


def _pinhole_area(camera: Camera) -> tuple[int, int, int, int]:
    """The pixels (x0, y0, x1, y1) of the pinhole picture that the frame shows: the frame
    itself without a lens, else the box around its border undistorted."""
    if not camera.distorted:
        return 0, 0, camera.width, camera.height
    w, h = camera.width, camera.height
    t = np.linspace(0, 1, 65)
    border = np.vstack(
        [
            np.column_stack([t * (w - 1), np.zeros_like(t)]),
            np.column_stack([t * (w - 1), np.full_like(t, h - 1)]),
            np.column_stack([np.zeros_like(t), t * (h - 1)]),
            np.column_stack([np.full_like(t, w - 1), t * (h - 1)]),
        ]
    )
    seen = camera.undistort(border)
    (x0, y0), (x1, y1) = np.floor(seen.min(axis=0)) - 2, np.ceil(seen.max(axis=0)) + 3
    return int(min(x0, 0)), int(min(y0, 0)), int(max(x1, w)), int(max(y1, h))


@lru_cache(maxsize=8)
def _bend_map(camera: Camera, s: int) -> tuple[Float32Array, Float32Array]:
    """For every pixel of the frame drawn ``s`` times larger, where it lies on the canvas of
    the pinhole area (``_pinhole_area``) drawn at the same scale."""
    x0, y0, _, _ = _pinhole_area(camera)
    w, h = camera.width, camera.height
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    seen = camera.undistort(np.column_stack([xx.ravel(), yy.ravel()]))
    map_x = (s * (seen[:, 0] - x0) + (s - 1) / 2).reshape(h, w).astype(np.float32)
    map_y = (s * (seen[:, 1] - y0) + (s - 1) / 2).reshape(h, w).astype(np.float32)
    size = (w * s, h * s)  # centre-aligned, as the frame is later shrunk
    big_x = np.asarray(cv2.resize(map_x, size, interpolation=cv2.INTER_LINEAR), np.float32)
    big_y = np.asarray(cv2.resize(map_y, size, interpolation=cv2.INTER_LINEAR), np.float32)
    return big_x, big_y


def _bend(canvas: Image, camera: Camera, s: int, fill: int | tuple[int, ...]) -> Image:
    """The pinhole area's canvas as the lens shows it in the frame (``s`` times larger)."""
    map_x, map_y = _bend_map(camera, s)
    border = fill if isinstance(fill, int) else tuple(float(c) for c in fill)
    out = cv2.remap(
        canvas, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=border
    )
    return np.asarray(out, dtype=np.uint8)


def _fill(canvas: Image, h: FloatArray, poly_mm: FloatArray, colour: tuple[int, ...]) -> None:
    _fill_px(canvas, apply_homography(h, poly_mm), colour)


def _fill_px(canvas: Image, pts: FloatArray, colour: tuple[int, ...]) -> None:
    cv2.fillPoly(canvas, [np.round(pts * 16).astype(np.int32)], colour, cv2.LINE_AA, shift=4)


def _draw_component(canvas: Image, h_table: FloatArray, comp: Component) -> None:
    bitmap = tag_bitmap(comp.tag_id, comp.quiet_cells)
    cell_mm = comp.tag_mm / TAG_CELLS
    side_mm = comp.tag_mm + 2 * comp.quiet_cells * cell_mm
    bw, bh = comp.body_mm or (side_mm, side_mm)
    body = np.array([[-bw / 2, -bh / 2], [bw / 2, -bh / 2], [bw / 2, bh / 2], [-bw / 2, bh / 2]])
    _fill(canvas, h_table, comp.local_to_table(body), comp.colour)
    _draw_bitmap(canvas, h_table, bitmap, comp.x_mm, comp.y_mm, comp.rotation_deg, side_mm)


def _draw_bitmap(
    canvas: Image,
    h_table: FloatArray,
    bitmap: Image,
    x_mm: float,
    y_mm: float,
    rotation_deg: float,
    side_mm: float,
) -> None:
    """Draw a square grey ``bitmap`` ``side_mm`` wide, centred at (``x_mm``, ``y_mm``)."""
    # bitmap pixel (u, v), centres at integers -> component millimetres -> table -> canvas
    n = bitmap.shape[0]
    k = side_mm / n
    a = math.radians(rotation_deg)
    c, si = math.cos(a), math.sin(a)
    to_local = np.array([[k, 0, -side_mm / 2 + k / 2], [0, k, -side_mm / 2 + k / 2], [0, 0, 1]])
    to_table = np.array([[c, -si, x_mm], [si, c, y_mm], [0, 0, 1]])
    h = h_table @ to_table @ to_local
    outline = apply_homography(h, np.array([[-0.5, -0.5], [n - 0.5, -0.5], [n - 0.5, n - 0.5]]))
    outline = np.vstack([outline, apply_homography(h, np.array([[-0.5, n - 0.5]]))])
    x0, y0 = np.floor(outline.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(outline.max(axis=0)).astype(int) + 2
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, canvas.shape[1]), min(y1, canvas.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1.0]])
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(bitmap, shift @ h, size, flags=cv2.INTER_AREA)
    coverage = cv2.warpPerspective(
        np.full_like(bitmap, 255), shift @ h, size, flags=cv2.INTER_LINEAR
    )
    roi = canvas[y0:y1, x0:x1]
    alpha = (coverage.astype(np.float32) / 255)[:, :, None]
    roi[:] = (roi * (1 - alpha) + warped[:, :, None].astype(np.float32) * alpha).astype(np.uint8)


def _draw_hand(
    canvas: Image, mask: Image, project: Callable[[FloatArray], FloatArray], hand: Hand
) -> None:
    """Draw ``hand`` (and its arm) and mark it in ``mask``; ``project`` takes table mm to the
    canvas's pixels (the arm's sides are cut in short pieces, so a lens may bend them)."""
    t = np.linspace(0, 2 * math.pi, 48, endpoint=False)
    a = math.radians(hand.angle_deg)
    ex, ey = hand.radius_mm[0] * np.cos(t), hand.radius_mm[1] * np.sin(t)
    ellipse = np.column_stack(
        [
            hand.x_mm + ex * math.cos(a) - ey * math.sin(a),
            hand.y_mm + ex * math.sin(a) + ey * math.cos(a),
        ]
    )
    shapes = [ellipse]
    if hand.arm_to_mm is not None:
        d = np.subtract(hand.arm_to_mm, (hand.x_mm, hand.y_mm))
        length = float(np.hypot(*d)) or 1.0
        nx, ny = -d[1] / length * hand.arm_mm / 2, d[0] / length * hand.arm_mm / 2
        hx, hy = hand.x_mm, hand.y_mm
        ax, ay = hand.arm_to_mm
        corners = np.array(
            [[hx + nx, hy + ny], [ax + nx, ay + ny], [ax - nx, ay - ny], [hx - nx, hy - ny]]
        )
        t = np.linspace(0, 1, 16, endpoint=False)[:, None]
        shapes.append(
            np.vstack(
                [
                    a + (b - a) * t
                    for a, b in zip(corners, np.roll(corners, -1, axis=0), strict=True)
                ]
            )
        )
    for shape in shapes:
        pts = project(shape)
        _fill_px(canvas, pts, hand.colour)
        _fill_px(mask, pts, (255,))


def _truth(
    table: SyntheticTable, camera: Camera, hand_mask: Image | None
) -> tuple[tuple[TagTruth, ...], tuple[int, ...]]:
    visible, hidden = [], []
    for comp in table.components:
        corners = camera.project(comp.tag_corners_mm())
        inside = np.all((corners >= 0) & (corners <= (camera.width - 1, camera.height - 1)))
        covered = False
        if inside and hand_mask is not None:
            quad = np.round(corners).astype(np.int32)
            x0, y0 = quad.min(axis=0)
            x1, y1 = quad.max(axis=0) + 1
            poly = np.zeros((y1 - y0, x1 - x0), np.uint8)
            cv2.fillConvexPoly(poly, quad - (x0, y0), 255)
            covered = bool(np.any((poly > 0) & (hand_mask[y0:y1, x0:x1] > 0)))
        if not inside or covered:
            hidden.append(comp.tag_id)
            continue
        center = camera.project(np.array([[comp.x_mm, comp.y_mm]]))[0]
        visible.append(
            TagTruth(
                comp.tag_id,
                tuple((float(x), float(y)) for x, y in corners),
                (float(center[0]), float(center[1])),
                comp.x_mm,
                comp.y_mm,
                comp.rotation_deg,
            )
        )
    visible.sort(key=lambda t: t.tag_id)
    return tuple(visible), tuple(sorted(hidden))


def _apply_effects(image: Image, fx: Effects, rng: np.random.Generator) -> Image:
    if Effects(hands=fx.hands) == fx:
        return image  # nothing to add
    out = image.astype(np.float32)
    h, w = image.shape[:2]
    if fx.uneven_light > 0:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ramp = (xx / w + yy / h) / 2  # 0 at the top-left, 1 at the bottom-right
        out *= (1 - fx.uneven_light * ramp)[:, :, None]
    if fx.glare > 0:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        gx, gy = fx.glare_at[0] * w, fx.glare_at[1] * h
        r = fx.glare_radius * w
        spot = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * r * r))
        out += (255 * fx.glare * spot)[:, :, None]
    if fx.exposure != 1.0:  # the lamp, glare included
        out *= np.float32(fx.exposure)
    if fx.blur > 0:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), fx.blur), dtype=np.float32)
    if fx.motion_blur > 1:
        out = np.asarray(
            cv2.filter2D(out, -1, _motion_kernel(fx.motion_blur, fx.motion_angle_deg)), np.float32
        )
    if fx.noise > 0:
        out += rng.standard_normal(out.shape, dtype=np.float32) * np.float32(fx.noise)
    result = np.clip(out, 0, 255).astype(np.uint8)
    if fx.jpeg_quality is not None:
        _ok, data = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY, int(fx.jpeg_quality)])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
        assert decoded is not None  # OpenCV's own JPEG, just encoded
        result = np.asarray(decoded, dtype=np.uint8)
    return result


def _motion_kernel(length: float, angle_deg: float) -> Float32Array:
    size = math.ceil(length) | 1
    kernel = np.zeros((size, size), np.float32)
    c = (size - 1) / 2
    a = math.radians(angle_deg)
    dx, dy = math.cos(a) * (length - 1) / 2, math.sin(a) * (length - 1) / 2
    cv2.line(kernel, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1)
    return kernel / kernel.sum()


def scattered_table(
    count: int,
    *,
    seed: int = 0,
    size_mm: tuple[float, float] = (900.0, 600.0),
    tag_mm: tuple[float, float] = (20.0, 30.0),
    first_id: int = 0,
    margin_mm: float = 40.0,
) -> SyntheticTable:
    """A table with ``count`` tags (ids from ``first_id``) on a jittered grid, randomly turned."""
    rng = np.random.default_rng(seed)
    w, h = size_mm[0] - 2 * margin_mm, size_mm[1] - 2 * margin_mm
    cols = max(1, math.ceil(math.sqrt(count * w / h)))
    rows = math.ceil(count / cols)
    cell_w, cell_h = w / cols, h / rows
    largest = tag_mm[1] * 1.5 * math.sqrt(2)
    if min(cell_w, cell_h) < largest:
        raise SyntheticError(f"{count} tags of up to {tag_mm[1]} mm do not fit on the table")
    components = []
    for i in range(count):
        r, c = divmod(i, cols)
        size = float(rng.uniform(*tag_mm))
        slack_x, slack_y = (cell_w - largest) / 2, (cell_h - largest) / 2
        components.append(
            Component(
                tag_id=first_id + i,
                x_mm=margin_mm + (c + 0.5) * cell_w + float(rng.uniform(-slack_x, slack_x)),
                y_mm=margin_mm + (r + 0.5) * cell_h + float(rng.uniform(-slack_y, slack_y)),
                rotation_deg=float(rng.uniform(0, 360)),
                tag_mm=size,
            )
        )
    return SyntheticTable(components=tuple(components), size_mm=size_mm)
