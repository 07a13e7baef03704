"""A soft decoder: reads a tag from the grey levels around a candidate quad, against every code.

AprilTag and ``cv2.aruco`` decide each cell black or white, then look the bits up: a tag of
12-14 px in hard light (defocus, motion, noise, JPEG) has cells of under 2 px whose grey levels
the blur has mixed with their neighbours', so too many bits come out wrong. `SoftDecoder` instead
samples the region (3 samples a cell, over the tag, its black border and one cell of the white
quiet zone) and compares it with what each code of the family would look like under that blur:
for every code and turn, the correlation of the samples with the code's picture blurred by a
Gaussian (the blur is tried at a few widths). The best match is the maximum-likelihood read under
noise of one level, with the light's gain and offset fitted; it is kept only when it matches well
(`MIN_MATCH`) and clearly better than any other id (`MIN_LEAD`), so a print that is no tag, or a
tag too blurred to tell, gives nothing (never a guess).

The quads of ``cv2.aruco``'s rejected candidates are not the tag's exact outline: the blur makes
the black square's contour shrink by a few percent, and some are the outline of the white sticker
around it. `SoftDecoder.search` therefore tries the quad at a few scales and shifts of half a
pixel, picks the outlines that best fit a tag's frame (black border inside white), and reads
those. `SoftDecoder.read` reads a quad as given (one ``cv2.aruco`` decoded). Quads and corners
are in OpenCV's pixel coordinates (pixel centres at whole numbers), in ``cv2.aruco``'s order;
the detector moves them onto the tag's edges afterwards (`vision.detection`).

Only the families ``cv2.aruco`` has a dictionary for are known (not tagStandard41h12).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.preprocess import grey_at

Image = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float64]
#: Rows of samples, and the pictures they are compared with (single precision: enough, and
#: half the work).
Samples = npt.NDArray[np.float32]

#: Samples per cell along each side.
SAMPLES = 3
#: A read is kept when its correlation with the code's picture is at least this …
MIN_MATCH = 0.85
#: … and the best other id leaves at least this much more of the picture unexplained, as a share
#: of what the best leaves: (r₁² − r₂²) / (1 − r₁²).
MIN_LEAD = 1.0
#: … and its correlation over the data cells alone (the frame left out) is at least this: a
#: print with a tag's frame and a blob inside matches a code through its frame.
MIN_DATA_MATCH = 0.75
#: The smallest side, in pixels, of a tag the decoder reads: below it the cells are under 1.25 px
#: and a dark blob inside a white square fits the codes with the most black cells.
MIN_SIDE_PX = 10.0
#: Blur widths (Gaussian sigma, in pixels of the image) the codes' pictures are made with.
BLURS_PX = (0.8, 1.2, 1.6)
#: Scales tried by `SoftDecoder.search`, about the quad's centre: the black square's contour
#: shrunk by blur (1.0-1.2), and the outline of a sticker with a two-cell quiet zone (0.56-0.62).
SEARCH_SCALES = (1.0, 1.05, 1.1, 1.15, 1.2, 0.56, 0.59, 0.62)
#: Shifts tried by `SoftDecoder.search`, in pixels, along each axis.
SEARCH_SHIFTS = (-0.5, 0.0, 0.5)
#: Outlines read by `SoftDecoder.search`, each under one blur: the pairs that best fit a tag's
#: frame.
SEARCH_KEEP = 6


@dataclass(frozen=True)
class SoftRead:
    """A tag read by the soft decoder: its id, its corners in ``cv2.aruco``'s order (the tag's
    top-left, top-right, bottom-right, bottom-left as printed), and how well it matched."""

    id: int
    corners: FloatArray
    match: float
    lead: float
    #: Data cells the samples say are the other colour once blur is allowed for: a cell worn
    #: away or scratched, as a bit-wise decoder's corrected bits.
    cells_against: int


class SoftDecoder:
    """The soft decoder of one family (see the module doc)."""

    def __init__(self, aruco_dictionary: int) -> None:
        dictionary = cv2.aruco.getPredefinedDictionary(aruco_dictionary)
        self.bits = int(dictionary.markerSize)
        self.cells = self.bits + 4  # data, the black border and one cell of quiet zone, each side
        self.codes = _codes(aruco_dictionary)
        self._codes_t = np.ascontiguousarray(self.codes.T, dtype=np.float32)
        n = self.cells * SAMPLES
        keep = np.zeros((n, n), dtype=bool)
        keep[1:-1, 1:-1] = True  # the outermost samples may fall beyond the quiet zone
        self._keep = keep.ravel()
        v, u = np.mgrid[0:n, 0:n]
        grid = np.stack([(u + 0.5) / SAMPLES - 1, (v + 0.5) / SAMPLES - 1], axis=-1)
        # in cells of the black square, from its corner
        self._grid = grid.reshape(-1, 2)[self._keep]
        inner = (self._grid > 1) & (self._grid < self.bits + 1)  # the data cells' samples
        self._data = inner.all(axis=1)
        side = self.bits + 2
        self._square = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)

    def read(self, grey: Image, quads: list[FloatArray]) -> list[SoftRead | None]:
        """The tag in each quad (4 × 2 pixels, listed either way round) as given, or None."""
        if not quads:
            return []
        q = _clockwise(np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2))
        ones = np.ones((len(q), 1))
        samples = self._sample(grey, q, self._points(q), ones, np.zeros((len(q), 1, 2)))
        owner = np.arange(len(q))
        return self._reads(samples, q, _sides(q) / (self.bits + 2), owner, keep=1)

    def search(self, grey: Image, quads: list[FloatArray]) -> list[SoftRead | None]:
        """The tag near each quad, or None: the quad is tried at each of `SEARCH_SCALES`, the
        two scales that best fit a tag's frame at each of `SEARCH_SHIFTS`, and the outlines
        that fit best are read."""
        if not quads:
            return []
        q = _clockwise(np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2))
        points = self._points(q)
        scales = np.tile(np.asarray(SEARCH_SCALES), (len(q), 1))
        samples = self._sample(grey, q, points, scales, np.zeros((*scales.shape, 2)))
        cells = _sides(q)[:, None] * scales / (self.bits + 2)
        fit = self._frame_fit(samples, cells.ravel(), BLURS_PX[len(BLURS_PX) // 2])
        picked = np.take_along_axis(scales, np.argsort(-fit.reshape(scales.shape), axis=1), 1)
        grid = np.array([(x, y) for x in SEARCH_SHIFTS for y in SEARCH_SHIFTS])
        scales = np.repeat(picked[:, :2], len(grid), axis=1)  # Q × 18
        shifts = np.tile(grid, (len(q), 2, 1))  # Q × 18 × 2
        samples = self._sample(grey, q, points, scales, shifts)
        centres = q.mean(axis=1)[:, None, None, :]
        tried = centres + scales[..., None, None] * (q[:, None] - centres) + shifts[:, :, None]
        cells = _sides(q)[:, None] * scales / (self.bits + 2)
        owner = np.repeat(np.arange(len(q)), scales.shape[1])
        return self._reads(samples, tried.reshape(-1, 4, 2), cells.ravel(), owner, keep=SEARCH_KEEP)

    def _points(self, quads: FloatArray) -> npt.NDArray[np.float32]:
        """The sample points of each quad, in pixels of the image (Q × M × 2)."""
        homographies = np.array(
            [cv2.getPerspectiveTransform(self._square, q.astype(np.float32)) for q in quads]
        )
        ones = np.c_[self._grid, np.ones(len(self._grid))]
        projected = ones[None] @ homographies.transpose(0, 2, 1)  # Q × M × 3
        return (projected[..., :2] / projected[..., 2:]).astype(np.float32)

    def _sample(
        self,
        grey: Image,
        quads: FloatArray,
        points: npt.NDArray[np.float32],
        scales: FloatArray,
        shifts: FloatArray,
    ) -> npt.NDArray[np.float32]:
        """The grey levels at the sample ``points`` of each quad, scaled about its centre by
        each of its ``scales`` (Q × V) and shifted by its ``shifts`` (Q × V × 2): (Q × V) × M
        rows, centred, of unit length."""
        centres = quads.mean(axis=1)[:, None, None, :].astype(np.float32)
        s = scales.astype(np.float32)[..., None, None]
        at = centres + s * (points[:, None] - centres) + shifts.astype(np.float32)[:, :, None]
        at = at.reshape(-1, len(self._grid), 2)
        samples = grey_at(grey, at[..., 0], at[..., 1])
        samples -= samples.mean(axis=1, keepdims=True)
        samples /= np.linalg.norm(samples, axis=1, keepdims=True) + 1e-9
        return samples

    def _frame_fit(self, samples: Samples, cell_px: FloatArray, blur: float) -> Samples:
        """How well each row of samples fits a tag's frame (any code) under ``blur`` pixels."""
        steps = _blur_steps(blur, cell_px)
        fit = np.empty(len(samples), dtype=np.float32)
        for step in np.unique(steps):
            rows = steps == step
            fit[rows] = samples[rows] @ self._pictures(int(step)).frame
        return fit

    def _reads(
        self,
        samples: Samples,
        quads: FloatArray,
        cell_px: FloatArray,
        owner: npt.NDArray[np.intp],
        keep: int,
    ) -> list[SoftRead | None]:
        """For each owner (a quad asked about), read the ``keep`` pairs of one of its rows of
        samples and one blur that best fit a tag's frame; the best read if it passes
        `MIN_MATCH`, `MIN_LEAD`, `MIN_DATA_MATCH` and `MIN_SIDE_PX`, else None."""
        owners = int(owner.max()) + 1
        best = np.full(owners, -np.inf)
        second = np.full(owners, -1.0)
        tag = np.full(owners, -1)
        code = np.zeros(owners, dtype=int)
        blur = np.zeros(owners, dtype=int)
        source = np.zeros(owners, dtype=int)
        corners = np.zeros((owners, 4, 2))
        rows = np.tile(np.arange(len(samples)), len(BLURS_PX))
        steps = np.concatenate([_blur_steps(b, cell_px) for b in BLURS_PX])
        fit = np.concatenate([self._frame_fit(samples, cell_px, b) for b in BLURS_PX])
        order = np.lexsort((-fit, owner[rows]))
        sorted_owner = owner[rows][order]
        rank = np.arange(len(order)) - np.searchsorted(sorted_owner, sorted_owner, side="left")
        chosen = order[rank < keep]
        for step in np.unique(steps[chosen]):
            picked = rows[chosen[steps[chosen] == step]]
            pictures = self._pictures(int(step))
            y = samples[picked]
            match = (y @ pictures.fixed)[:, None] + (y @ pictures.cells) @ self._codes_t
            match /= pictures.norms
            k = np.argmax(match, axis=1)
            top = match[np.arange(len(picked)), k]
            by_id = match.reshape(len(picked), -1, 4).max(axis=2)
            by_id[np.arange(len(picked)), k // 4] = -1.0
            for row, m, kk, other in zip(picked, top, k, by_id.max(axis=1), strict=True):
                o = owner[row]
                if m > best[o]:
                    best[o], second[o], tag[o], code[o], source[o] = m, other, kk // 4, kk, row
                    blur[o] = step
                    corners[o] = np.roll(quads[row], kk % 4, axis=0)
        lead = (best**2 - np.maximum(second, 0.0) ** 2) / np.maximum(1 - best**2, 1e-9)
        ok = (best >= MIN_MATCH) & (lead >= MIN_LEAD) & (_sides(corners) >= MIN_SIDE_PX)
        against = np.zeros(owners, dtype=int)
        data = np.zeros(owners)
        for step in np.unique(blur[ok]):
            rows = ok & (blur == step)
            pictures = self._pictures(int(step))
            y, codes = samples[source[rows]], self.codes[code[rows]]
            against[rows] = self._cells_against(y, codes, pictures)
            data[rows] = self._data_match(y, codes, pictures)
        ok &= data >= MIN_DATA_MATCH
        return [
            SoftRead(int(tag[o]), corners[o], float(best[o]), float(lead[o]), int(against[o]))
            if ok[o]
            else None
            for o in range(owners)
        ]

    def _data_match(self, samples: Samples, codes: FloatArray, pictures: _Pictures) -> FloatArray:
        """For each row of samples and its code, the correlation over the data cells alone (the
        frame left out) of the samples with the code's picture."""
        picture = pictures.fixed[None, :] + codes @ pictures.cells.T
        y, t = samples[:, self._data], picture[:, self._data]
        y = y - y.mean(axis=1, keepdims=True)
        t = t - t.mean(axis=1, keepdims=True)
        norms = np.linalg.norm(y, axis=1) * np.linalg.norm(t, axis=1)
        return np.asarray(np.sum(y * t, axis=1) / np.maximum(norms, 1e-9), dtype=np.float64)

    def _cells_against(
        self, samples: npt.NDArray[np.float32], codes: FloatArray, pictures: _Pictures
    ) -> npt.NDArray[np.int_]:
        """For each row of samples read as its code (K × cells, 0/1) under ``pictures``' blur,
        the data cells that the samples say are the other colour: what is left once the code's
        picture is fitted, projected on each cell's own picture, is over three quarters of what
        turning that cell over would change (the blur's greys are in the picture, so a blurred
        but whole tag has none; a scratched or worn cell counts)."""
        picture = pictures.fixed[None, :] + codes @ pictures.cells.T  # K × M, centred
        gain = np.sum(samples * picture, axis=1) / np.maximum(np.sum(picture**2, axis=1), 1e-9)
        left = samples - gain[:, None] * picture
        amount = (left @ pictures.cells) / np.maximum(np.sum(pictures.cells**2, axis=0), 1e-9)
        towards_other = amount * (1 - 2 * codes)  # positive: towards the other colour
        return np.asarray((towards_other > 0.75 * gain[:, None]).sum(axis=1), dtype=int)

    @functools.lru_cache(maxsize=128)  # noqa: B019 - a few decoders live as long as the program
    def _pictures(self, blur_steps: int) -> _Pictures:
        """The codes' pictures under a blur of ``blur_steps`` / 4 samples, as the parts that
        give every code's correlation with a sample vector in one product."""
        sigma = blur_steps / 4.0
        n = self.cells
        fixed = np.zeros((n, n))
        fixed[0, :] = fixed[-1, :] = fixed[:, 0] = fixed[:, -1] = 1.0  # the white quiet zone
        one = np.ones((SAMPLES, SAMPLES))

        def blurred(cells: FloatArray) -> FloatArray:
            image = np.asarray(np.kron(cells, one), dtype=np.float64)
            if sigma > 0.05:
                image = np.asarray(
                    cv2.GaussianBlur(image, (0, 0), sigma, borderType=cv2.BORDER_REPLICATE),
                    dtype=np.float64,
                )
            return np.asarray(image.ravel()[self._keep], dtype=np.float64)

        base = blurred(fixed)
        parts = np.empty((len(base), self.bits * self.bits))
        for j in range(self.bits * self.bits):
            cell = np.zeros((n, n))
            cell[2 + j // self.bits, 2 + j % self.bits] = 1.0
            parts[:, j] = blurred(cell)
        base -= base.mean()
        parts -= parts.mean(axis=0)
        gram = parts.T @ parts
        norms = np.sqrt(
            base @ base
            + 2 * self.codes @ (parts.T @ base)
            + np.einsum("ij,jk,ik->i", self.codes, gram, self.codes)
        )
        frame = base + parts.sum(axis=1) / 2  # the frame with every data cell half grey
        frame = frame / (np.linalg.norm(frame) + 1e-9)
        f32 = np.float32
        return _Pictures(base.astype(f32), parts.astype(f32), norms.astype(f32), frame.astype(f32))


@dataclass(frozen=True)
class _Pictures:
    """A blur's pictures: ``fixed`` (the frame, centred), ``cells`` (each data cell's part,
    centred), ``norms`` (of every code's whole picture) and ``frame`` (the frame with half-grey
    data, unit length)."""

    fixed: FloatArray
    cells: FloatArray
    norms: FloatArray
    frame: FloatArray


def _codes(aruco_dictionary: int) -> FloatArray:
    """Every code of the dictionary in its four turns, as rows of 0/1 cells: row 4 × id + k is
    the code turned k times a quarter counter-clockwise."""
    dictionary = cv2.aruco.getPredefinedDictionary(aruco_dictionary)
    bits = int(dictionary.markerSize)
    rows = []
    for tag in range(dictionary.bytesList.shape[0]):
        marker = cv2.aruco.generateImageMarker(dictionary, tag, bits + 2)
        cells = (marker[1:-1, 1:-1] > 127).astype(np.float64)
        rows += [np.rot90(cells, k).ravel() for k in range(4)]
    return np.array(rows)


def _clockwise(quads: FloatArray) -> FloatArray:
    """The quads (Q × 4 × 2) with their corners in clockwise order on the image (y down), as
    ``cv2.aruco`` lists a marker's: a quad listed the other way round would be read mirrored."""
    x, y = quads[..., 0], quads[..., 1]
    area = np.sum(x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y, axis=1)
    return np.where((area < 0)[:, None, None], quads[:, ::-1], quads)


def _blur_steps(blur: float, cell_px: FloatArray) -> npt.NDArray[np.int_]:
    """A blur of ``blur`` image pixels in samples of cells of ``cell_px`` pixels, in quarter
    steps (each step's pictures are made once)."""
    return np.round(4 * blur * SAMPLES / np.maximum(cell_px, 0.5)).astype(int)


def _sides(quads: FloatArray) -> FloatArray:
    """The mean side of each of Q quads (Q × 4 × 2), in pixels."""
    return np.linalg.norm(quads - np.roll(quads, 1, axis=1), axis=2).mean(axis=1)
