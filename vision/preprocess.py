"""Image preparation for the detector: local contrast, and crops of candidate regions.

Each function takes and returns a contiguous grey uint8 image; none of them changes its input.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]


def local_contrast(grey: Image, clip_limit: float = 2.0, tile: int = 8) -> Image:
    """CLAHE: contrast equalised in ``tile`` × ``tile`` cells, for glare and uneven light."""
    clahe = cv2.createCLAHE(clipLimit=clip_limit, tileGridSize=(tile, tile))
    return np.asarray(clahe.apply(grey), dtype=np.uint8)


#: Rows of samples handed to one call of ``cv2.remap`` (it takes fewer than 32,767).
_REMAP_ROWS = 4096


def grey_at(
    grey: Image, x: npt.NDArray[np.floating], y: npt.NDArray[np.floating]
) -> npt.NDArray[np.float32]:
    """The grey levels of ``grey`` at the points (``x``, ``y``): arrays of one shape, any
    number of points; bilinear, the frame's edge pixels repeated beyond it. Same shape out."""
    shape = x.shape
    columns = shape[-1] if len(shape) else 1
    xs = np.ascontiguousarray(x, np.float32).reshape(-1, columns)
    ys = np.ascontiguousarray(y, np.float32).reshape(-1, columns)
    rows = [
        cv2.remap(
            grey,
            xs[start : start + _REMAP_ROWS],
            ys[start : start + _REMAP_ROWS],
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
        for start in range(0, len(xs), _REMAP_ROWS)  # remap takes under 32,767 rows
    ]
    return np.concatenate(rows).astype(np.float32).reshape(shape)


#: Where `stickers_hidden` samples along each ray from a tag's centre, in units of the
#: distance from the centre to the black square's edge: from just outside it to twice as far.
_RAY_SCALES = np.linspace(1.04, 2.0, 25)
#: Rays a tag: through its 4 corners and 3 points along each side.
_RAY_STEPS = np.array([0.0, 0.25, 0.5, 0.75])


def stickers_hidden(grey: Image, quads: npt.NDArray[np.float64]) -> Image:
    """A copy of ``grey`` with the stickers of tags already read painted out: each tag's black
    square (``quads``: N × 4 × 2 corners) and the light margin round it filled with the
    even colour round that margin, so that nothing there looks like a tag any more.

    Along 16 rays from the tag's centre (through its corners and 3 points on each side), from
    1.5 px past the square's edge, the margin ends where the grey level leaves the margin's own
    by more than half the contrast between the margin and the black border. Only a sticker on
    an even ground is painted: every ray leaves the margin within twice the square's size, all
    at about the same distance (within a fifth of the square's half-size), and just past the
    farthest end the 16 rays see one colour (within a quarter of that contrast), which fills
    the sticker up to there. A tag beside other tags or print (a cube's faces, a tile's art)
    is left as it is."""
    if len(quads) == 0:
        return grey
    q = np.asarray(quads, dtype=np.float64)
    count, scales = len(q), len(_RAY_SCALES)
    centre = q.mean(axis=1, keepdims=True)  # N × 1 × 2
    side = np.roll(q, -1, axis=1) - q
    edge_points = (q[:, :, None] + side[:, :, None] * _RAY_STEPS[:, None]).reshape(count, 16, 2)
    rays = edge_points - centre  # N × 16 × 2: from the centre to the black square's edge
    reach = np.concatenate([[0.94], _RAY_SCALES])  # 0.94: on the black border itself
    x, y = (centre[..., axis, None] + rays[..., axis, None] * reach for axis in (0, 1))
    values = grey_at(grey, x, y)  # N × 16 × (1 + S)
    black, outside = np.median(values[:, :, 0], axis=1), values[:, :, 1:]
    # The margin is looked at from 1.5 px past the square's edge (a blurred edge is grey).
    clear = (_RAY_SCALES - 1) * np.linalg.norm(rays, axis=2)[..., None] >= 1.5  # N × 16 × S
    first = np.argmax(clear, axis=2)[..., None]
    margin = np.median(np.take_along_axis(outside, first, axis=2)[..., 0], axis=1)
    contrast = np.abs(margin - black)
    left = clear & (np.abs(outside - margin[:, None, None]) > (contrast / 2)[:, None, None])
    end = np.argmax(left, axis=2)  # N × 16: the first sample past the margin
    last = end.max(axis=1)
    past = np.minimum(last + 1, scales - 1)  # one sample past the farthest end
    ground = np.take_along_axis(outside, np.broadcast_to(past[:, None, None], (count, 16, 1)), 2)
    ground = ground[..., 0]  # N × 16
    step = _RAY_SCALES[1] - _RAY_SCALES[0]
    even = (
        left.any(axis=2).all(axis=1)
        & (last < scales - 1)
        & ((_RAY_SCALES[last] - _RAY_SCALES[end.min(axis=1)]) <= 0.2 + step / 2)
        & (np.ptp(ground, axis=1) <= contrast / 4)
    )
    painted = grey.copy()
    fills = np.median(ground, axis=1)
    for corners, middle, grow, fill in zip(
        q[even], centre[even, 0], _RAY_SCALES[last[even]], fills[even], strict=True
    ):
        polygon = np.round((middle + (corners - middle) * grow) * 16).astype(np.int32)
        cv2.fillConvexPoly(painted, polygon, round(float(fill)), shift=4)
    return painted


@dataclass(frozen=True)
class Crop:
    """A region of an image, enlarged ``scale`` times: ``image`` pixel (u, v) is original
    pixel (x0 + (u + 0.5) / scale - 0.5, y0 + (v + 0.5) / scale - 0.5)."""

    image: Image
    x0: int
    y0: int
    scale: float

    def to_original(self, x: float, y: float) -> tuple[float, float]:
        """A point of the crop in pixels of the original image."""
        return (
            self.x0 + (x + 0.5) / self.scale - 0.5,
            self.y0 + (y + 0.5) / self.scale - 0.5,
        )


def enlarged_crop(
    grey: Image, quad: npt.NDArray[np.floating], target_side: float = 40.0, pad: float = 0.6
) -> Crop | None:
    """The region around a candidate ``quad`` (4 × 2 pixels) with ``pad`` sides of margin,
    enlarged (bicubic) so that the quad's side is about ``target_side`` pixels; None for a
    degenerate quad."""
    quad = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    side = float(np.mean(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)))
    if not np.isfinite(side) or side < 4:
        return None
    height, width = grey.shape
    half = side * (0.5 + pad)
    cx, cy = quad.mean(axis=0)
    x0, x1 = max(0, int(cx - half)), min(width, int(np.ceil(cx + half)))
    y0, y1 = max(0, int(cy - half)), min(height, int(np.ceil(cy + half)))
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    scale = max(1.0, target_side / side)
    region = cv2.resize(grey[y0:y1, x0:x1], None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    return Crop(np.ascontiguousarray(region), x0, y0, scale)


def sharpened(crop: Crop, amount: float = 1.5, sigma: float = 1.0) -> Crop:
    """The crop with an unsharp mask ``sigma`` original pixels wide: restores the edges of a
    small tag that the lens and the enlargement blurred (``amount`` 3 and ``sigma`` 0.8 for a
    strong defocus)."""
    blurred = cv2.GaussianBlur(crop.image, (0, 0), sigma * crop.scale)
    image = cv2.addWeighted(crop.image, 1 + amount, blurred, -amount, 0)
    return Crop(np.asarray(image, dtype=np.uint8), crop.x0, crop.y0, crop.scale)


def deblurred(crop: Crop, sigma: float = 1.0, noise: float = 0.03) -> Crop:
    """The crop with a Gaussian blur of ``sigma`` original pixels undone by a Wiener filter;
    ``noise`` is the noise-to-signal power it assumes (0.01 for a mean of several frames, whose
    noise is lower: the filter then restores more). For a defocused small tag."""
    image = crop.image.astype(np.float32)
    height, width = image.shape
    s = sigma * crop.scale
    fy = np.fft.rfftfreq(width)[None, :] ** 2 + np.fft.fftfreq(height)[:, None] ** 2
    transfer = np.exp(-2 * np.pi**2 * s**2 * fy)
    level = float(image.mean())
    spectrum = np.fft.rfft2(image - level) * (transfer / (transfer * transfer + noise))
    restored = np.fft.irfft2(spectrum, s=(height, width)) + level
    return Crop(np.clip(restored, 0, 255).astype(np.uint8), crop.x0, crop.y0, crop.scale)


def contrasted(crop: Crop) -> Crop:
    """The crop with local contrast equalised (CLAHE on 4 × 4 tiles): a tag half in glare."""
    image = cv2.createCLAHE(clipLimit=2.0, tileGridSize=(4, 4)).apply(crop.image)
    return Crop(np.asarray(image, dtype=np.uint8), crop.x0, crop.y0, crop.scale)


def binarised(crop: Crop) -> Crop:
    """The crop thresholded by Otsu's method (a threshold for this region only) and softened:
    decodes a tag whose contrast the frame-wide threshold got wrong (glare, shade)."""
    _, binary = cv2.threshold(crop.image, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    soft = cv2.GaussianBlur(binary, (0, 0), crop.scale / 2)
    return Crop(np.asarray(soft, dtype=np.uint8), crop.x0, crop.y0, crop.scale)


def glare_eroded(grey: Image) -> Image:
    """The frame with each pixel the darkest of it and its left, upper and upper-left
    neighbours (a 2 × 2 minimum, half a pixel's shift): in a lamp's glare the white clips at
    255 and the clipped white eats half a pixel or more into each blurred black cell, so that
    thin and single black cells fade; the minimum grows them back, and the soft decoder reads
    such a tag (`detection.Detector`, on the quads it could not read in glare)."""
    return np.asarray(cv2.erode(grey, np.ones((2, 2), np.uint8)), dtype=np.uint8)
