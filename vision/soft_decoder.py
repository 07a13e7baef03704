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

A read that matches but does not lead clearly is fitted (`SoftDecoder._refit`): on a sticker of
under 20 px in defocus the searched outlines are a fraction of a pixel off and the blur widths a
step off, and a code's near neighbour then matches almost as well. For its few best ids the
quad's corners and the blur are fitted to the grey levels (Levenberg-Marquardt), and the best is
kept only if it then matches almost exactly (`REFIT_MIN_MATCH`) and leads by far
(`REFIT_MIN_LEAD`) over the others fitted and over every code at its fitted outline.

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
#: A read that matches (`MIN_MATCH`) but leads by too little is fitted again (`_refit`): each of
#: its best few ids with the quad's corners and the blur free. Under a blur of 1.5 px on a
#: sticker of 18 px the searched outlines are a fraction of a pixel off and the blur a step off;
#: fitted, the true code matches 0.998-0.999 and leads 55-100, while outlines of no tag (or not
#: the tag's) lead under 0.3 (the project's renders, `tests/vision/test_soft_decoder.py`).
REFIT_IDS = 3
#: Undecided reads fitted in one call at most, the best matches first (a fit costs a few ms).
REFIT_MOST = 8
#: A fitted read is kept when it matches at least this (a code one cell off a print matches
#: about 0.97) and leads its best rival by this much, ...
REFIT_MIN_MATCH = 0.99
REFIT_MIN_LEAD = 5.0
#: ... and no corner moved more than this share of the quad's side (it fitted this quad, not
#: a sticker beside it).
REFIT_MAX_MOVE = 0.25
#: Rounds of the fit at most (it settles in 4-8), and the blur it may reach, in samples.
FIT_ROUNDS = 12
MAX_FIT_BLUR = 4.0


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
        return self._reads(grey, samples, q, _sides(q) / (self.bits + 2), owner, keep=1)

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
        outlines = tried.reshape(-1, 4, 2)
        return self._reads(grey, samples, outlines, cells.ravel(), owner, keep=SEARCH_KEEP)

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
        grey: Image,
        samples: Samples,
        quads: FloatArray,
        cell_px: FloatArray,
        owner: npt.NDArray[np.intp],
        keep: int,
    ) -> list[SoftRead | None]:
        """For each owner (a quad asked about), read the ``keep`` pairs of one of its rows of
        samples and one blur that best fit a tag's frame; the best read if it passes
        `MIN_MATCH`, `MIN_LEAD`, `MIN_DATA_MATCH` and `MIN_SIDE_PX`, or once fitted
        (`_refit`) when it matches but leads by too little; else None."""
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
        out = [
            SoftRead(int(tag[o]), corners[o], float(best[o]), float(lead[o]), int(against[o]))
            if ok[o]
            else None
            for o in range(owners)
        ]
        undecided = (best >= MIN_MATCH) & (lead < MIN_LEAD) & (_sides(corners) >= MIN_SIDE_PX)
        by_match = np.flatnonzero(undecided)[np.argsort(-best[undecided])]
        for o in by_match[:REFIT_MOST]:
            out[o] = self._refit(grey, samples[source[o]], quads[source[o]], int(blur[o]))
        return out

    def _refit(
        self, grey: Image, samples: npt.NDArray[np.float32], quad: FloatArray, blur_steps: int
    ) -> SoftRead | None:
        """The read of ``quad`` (its ``samples`` under ``blur_steps``) once fitted (`_fit`):
        of the `REFIT_IDS` ids that match it best, in turn, the first whose code fitted matches
        `REFIT_MIN_MATCH`, if it leads by `REFIT_MIN_LEAD` over its best rival (every other
        code at its fitted outline, and that code's own fit) and passes `REFIT_MAX_MOVE`,
        `MIN_DATA_MATCH` and `MIN_SIDE_PX`; else None."""
        pictures = self._pictures(blur_steps)
        match = samples @ pictures.fixed + (samples @ pictures.cells) @ self._codes_t
        by_id = (match / pictures.norms).reshape(-1, 4)
        for tag in np.argsort(-by_id.max(axis=1))[:REFIT_IDS]:
            code = int(4 * tag + by_id[tag].argmax())
            best, fitted, sigma = self._fit(grey, quad, code, blur_steps / 4.0)
            if best >= REFIT_MIN_MATCH:
                break
        else:
            return None
        side = float(_sides(quad[None])[0])
        moved = float(np.linalg.norm(fitted - quad, axis=1).max())
        if moved > REFIT_MAX_MOVE * side or _sides(fitted[None])[0] < MIN_SIDE_PX:
            return None
        y = self._sample(grey, fitted[None], self._points(fitted[None]), *_as_given(1))
        every = np.full(len(self.codes), -1.0)
        for step in {int(np.floor(4 * sigma)), int(np.ceil(4 * sigma))}:  # the blurs about it
            p = self._pictures(step)
            every = np.maximum(every, (y @ p.fixed + (y @ p.cells) @ self._codes_t)[0] / p.norms)
        every[4 * (code // 4) : 4 * (code // 4) + 4] = -1.0
        rival = int(every.argmax())
        second = max(float(every[rival]), self._fit(grey, fitted, rival, sigma)[0], 0.0)
        lead = (best**2 - second**2) / max(1 - best**2, 1e-9)
        if lead < REFIT_MIN_LEAD:
            return None
        nearest = self._pictures(round(4 * sigma))
        one = self.codes[[code]]
        if self._data_match(y, one, nearest)[0] < MIN_DATA_MATCH:
            return None
        against = int(self._cells_against(y, one, nearest)[0])
        return SoftRead(code // 4, np.roll(fitted, code % 4, axis=0), best, lead, against)

    def _fit(
        self, grey: Image, quad: FloatArray, code: int, sigma: float
    ) -> tuple[float, FloatArray, float]:
        """Code row ``code``'s best fit to the grey levels about ``quad``: the quad's corners
        and the blur (``sigma``, in samples) that make the samples most like the code's picture
        (Levenberg-Marquardt on finite differences). Its match, quad and blur."""
        step = np.r_[np.full(8, 0.1), 0.05]  # pixels for the corners, samples for the blur

        def residual(theta: FloatArray) -> FloatArray:
            q = theta[:8].reshape(1, 4, 2)
            y = self._sample(grey, q, self._points(q), *_as_given(1))[0]
            return np.asarray(y - self._picture(code, theta[8]), dtype=np.float64)

        def jacobian(theta: FloatArray, at: FloatArray) -> FloatArray:
            q = np.repeat(theta[None, :8], 8, axis=0) + np.diag(step[:8])
            q = q.reshape(8, 4, 2)
            y = self._sample(grey, q, self._points(q), *_as_given(8))
            here = at + self._picture(code, theta[8])  # the samples at theta
            blurred = theta.copy()
            blurred[8] += step[8]
            columns = np.c_[y.T - here[:, None], residual(blurred) - at]
            return np.asarray(columns / step, dtype=np.float64)

        theta = np.r_[np.asarray(quad, np.float64).ravel(), min(max(sigma, 0.2), MAX_FIT_BLUR)]
        e = residual(theta)
        cost = float(e @ e)
        damping, gained = 1e-2, 0.0
        for done in range(FIT_ROUNDS):
            if done == 3 and 1 - cost / 2 < REFIT_MIN_MATCH - 0.03:
                break  # it will not reach the bar
            j = jacobian(theta, e)
            a, b = j.T @ j, j.T @ e
            while damping < 1e3:
                trial = theta + np.linalg.solve(a + damping * np.diag(np.diag(a) + 1e-9), -b)
                trial[8] = min(max(trial[8], 0.05), MAX_FIT_BLUR)
                e_trial = residual(trial)
                if float(e_trial @ e_trial) < cost:
                    gained = cost - float(e_trial @ e_trial)
                    theta, e, cost = trial, e_trial, float(e_trial @ e_trial)
                    damping /= 3
                    break
                damping *= 4
            else:
                break
            if gained < 1e-4:  # a match better by under 0.00005: settled
                break
        return 1 - cost / 2, theta[:8].reshape(4, 2), float(theta[8])

    def _picture(self, code: int, sigma: float) -> FloatArray:
        """Code row ``code``'s picture under a blur of ``sigma`` samples, between the two
        quarter steps of `_pictures` about it: centred, unit length."""
        low = int(np.floor(4 * sigma))
        share = 4 * sigma - low
        cells = self.codes[code]
        below, above = self._pictures(low), self._pictures(low + 1)
        picture = (1 - share) * (below.fixed + below.cells @ cells)
        picture += share * (above.fixed + above.cells @ cells)
        return np.asarray(picture / (np.linalg.norm(picture) + 1e-9), dtype=np.float64)

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
            + np.sum((self.codes @ gram) * self.codes, axis=1)
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


def _as_given(count: int) -> tuple[FloatArray, FloatArray]:
    """The scales and shifts of `SoftDecoder._sample` that sample ``count`` quads as given."""
    return np.ones((count, 1)), np.zeros((count, 1, 2))


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
