"""AprilTag detection: one `Detection` type and one `Detector` that fuses several passes.

A plain call of AprilTag 3 misses tags that are small, blurred or in glare, and costs much on a
whole frame. `Detector` runs, as configured: AprilTag on the whole frame at decimation 2, the
decimated frame blurred a little against noise and the corners then fitted to the tag's edges
(``frame_pass``, on by default, and always for a family ``cv2.aruco`` does not know); ``cv2.aruco``
with the AprilTag dictionaries, on the frame with the stickers AprilTag read exactly painted out
(it decodes the clear tags and reports the quads it could not decode); the soft decoder
(`vision.soft_decoder`) on the quads ``cv2.aruco`` found that the frame pass did not read, against
every code of the family under blur, which confirms ``cv2.aruco``'s reads and reads small blurred
tags no bit-wise decoder can; and AprilTag on enlarged crops of the quads still unread (as they
are, sharpened, thresholded on their own, and more). Optionally AprilTag on a local-contrast
(CLAHE) copy. The results are fused by place: where passes name different ids for one place,
nothing is reported there (never a guess); a tag seen by one pass other than AprilTag's whole frame
must have decoded with no corrected bit (or passed the soft decoder's bar), and ``cv2.aruco`` alone
is never enough.

Corners are in AprilTag's own order (``apriltag-python``'s ``lb-rb-rt-lt``: the tag's bottom-left,
bottom-right, top-right and top-left corner as printed), in pixels of the input image. The input
image is never changed.

>>> import numpy as np
>>> Detector().detect(np.full((120, 160), 128, np.uint8))
[]
"""

from __future__ import annotations

import functools
import os
import platform
import stat
import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeAlias

import cv2
import numpy as np
import numpy.typing as npt

from vision.detect_backends import (
    ARUCO_DICTIONARIES,
    ARUCO_TO_APRILTAG,
    MIN_SIDE,
    AprilTagBackend,
    ArucoBackend,
    RawDetection,
    quad_center,
)
from vision.errors import ImageReadError, VisionError
from vision.preprocess import (
    Crop,
    binarised,
    contrasted,
    deblurred,
    enlarged_crop,
    glare_eroded,
    grey_at,
    local_contrast,
    sharpened,
    stickers_hidden,
)
from vision.soft_decoder import SoftDecoder, SoftRead

Point: TypeAlias = tuple[float, float]
Corners: TypeAlias = tuple[Point, Point, Point, Point]
Image: TypeAlias = npt.NDArray[np.uint8]

#: Families the detector may be asked for (``cv2.aruco`` knows all but tagStandard41h12).
FAMILIES = ("tag36h11", "tag36h10", "tag25h9", "tag16h5", "tagStandard41h12")
BACKENDS = ("apriltag", "aruco")

# Passes, in the order their corners are preferred when several agree.
_MAIN, _CONTRAST = "apriltag", "apriltag+clahe"
_CROP, _SOFT, _ARUCO = "apriltag+crop", "soft", "aruco"
_PREFERENCE = {_MAIN: 0, _CONTRAST: 1, _CROP: 2, _SOFT: 3, _ARUCO: 4}


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
    """Settings of the detector.

    ``decimation`` is AprilTag's ``quad_decimate`` on the whole frame (1 = full resolution; 2 =
    about four times faster, and the small tags it misses are recovered by the passes on the quads
    ``cv2.aruco`` found, which work at full resolution); ``threads`` are the threads a frame may
    use (`default_threads`: 4 on an arm64 Raspberry Pi, else 1; never more than the machine's
    cores): AprilTag reads the frame on all of them, and the second pass its crops (the results are
    the same as on one); ``quad_sigma`` is AprilTag's own: the sigma of the Gaussian blur it
    applies to the frame before it looks for quads (negative sharpens; 0 = neither; when it blurs,
    the corners AprilTag reads are fitted to the edges again); ``min_decision_margin`` drops weak
    AprilTag decodes; ``edge_margin`` drops tags with a corner closer than that many pixels (or
    half a cell of the tag) to the frame edge (a cut tag gives wrong corners). ``backends`` names
    the detectors to run; ``frame_pass`` runs AprilTag on the whole frame (off, AprilTag reads only
    the regions of ``cv2.aruco``'s quads that nothing else read); ``soft_pass`` reads
    ``cv2.aruco``'s quads with the soft decoder (`vision.soft_decoder`); ``contrast_pass`` and
    ``second_pass`` turn on the CLAHE pass and the AprilTag pass over the candidate regions still
    unread (which needs the ``aruco`` backend); ``max_candidates`` bounds the candidates read by
    the soft decoder and by that pass.
    """

    families: tuple[str, ...] = ("tag36h11",)
    decimation: float = 2.0
    threads: int = field(default_factory=lambda: default_threads())
    quad_sigma: float = 1.0
    min_decision_margin: float = 20.0
    edge_margin: float = 2.0
    max_hamming: int = 1
    backends: tuple[str, ...] = ("apriltag", "aruco")
    frame_pass: bool = True
    soft_pass: bool = True
    contrast_pass: bool = False
    second_pass: bool = True
    max_candidates: int = 100

    def __post_init__(self) -> None:
        problems = []
        if not self.families:
            problems.append("families: at least one family is needed")
        problems += [f"families: unknown family {f!r}" for f in self.families if f not in FAMILIES]
        if "apriltag" not in self.backends:
            problems.append("backends: the apriltag backend is needed")
        problems += [f"backends: unknown backend {b!r}" for b in self.backends if b not in BACKENDS]
        if self.decimation < 1:
            problems.append(f"decimation: must be at least 1, not {self.decimation}")
        if self.threads < 1:
            problems.append(f"threads: must be at least 1, not {self.threads}")
        if not -3 <= self.quad_sigma <= 3:
            problems.append(f"quad_sigma: must be -3 to 3, not {self.quad_sigma}")
        if not 0 <= self.max_hamming <= 3:
            problems.append(f"max_hamming: must be 0 to 3, not {self.max_hamming}")
        if self.edge_margin < 0:
            problems.append(f"edge_margin: must not be negative, not {self.edge_margin}")
        if self.max_candidates < 0:
            problems.append(f"max_candidates: must not be negative, not {self.max_candidates}")
        if problems:
            raise DetectorConfigError("; ".join(problems))

    @classmethod
    def plain(cls, **changes: object) -> DetectorConfig:
        """One call of AprilTag 3 at full resolution and nothing more (the baseline)."""
        return cls(decimation=1.0).as_plain(**changes)

    def as_plain(self, **changes: object) -> DetectorConfig:
        """These settings with the extra passes and AprilTag's blur turned off."""
        return replace(self, **(_PLAIN | changes))  # type: ignore[arg-type]


@functools.cache
def soft_decoder(family: str) -> SoftDecoder:
    """The soft decoder of ``family``, made once and shared by every detector: it holds only
    the family's codes and the pictures it derives from them (about 30 ms to make, as long as
    one whole detection, which a `Detector` made for one photo paid again each time)."""
    return SoftDecoder(ARUCO_DICTIONARIES[family])


_THREAD_BACKENDS = threading.local()


def apriltag_backend(
    family: str, *, threads: int, decimation: float, quad_sigma: float, max_hamming: int
) -> AprilTagBackend:
    """The calling thread's AprilTag with these settings, made on its first use in this thread
    and kept for the thread's life. One AprilTag must never run on two threads at once, so each
    thread has its own; and making one (its decoding tables, its workers) is a cost that a
    `Detector` made for one photo (`tablesight scan`, the camera page) paid again each time: a
    tenth of a whole detection."""
    pool: dict[tuple[object, ...], AprilTagBackend] | None = getattr(_THREAD_BACKENDS, "pool", None)
    if pool is None:
        pool = _THREAD_BACKENDS.pool = {}
    key = (family, threads, decimation, quad_sigma, max_hamming)
    backend = pool.get(key)
    if backend is None:
        backend = pool[key] = AprilTagBackend(
            family,
            threads=threads,
            decimation=decimation,
            quad_sigma=quad_sigma,
            max_hamming=max_hamming,
        )
    return backend


def default_threads(machine: str | None = None, model: Path | None = None) -> int:
    """AprilTag's threads by default: 4 on an arm64 Raspberry Pi (its four cores), else 1 (a
    laptop or a shared machine keeps its other cores). ``machine`` and ``model`` (the device
    tree's model file) are read from the running system when not given."""
    machine = platform.machine() if machine is None else machine
    model = Path("/proc/device-tree/model") if model is None else model
    if machine not in ("aarch64", "arm64"):
        return 1
    try:
        return 4 if "Raspberry Pi" in model.read_text(errors="replace") else 1
    except OSError:
        return 1


_PLAIN: dict[str, object] = {
    "frame_pass": True,
    "soft_pass": False,
    "quad_sigma": 0.0,
    "backends": ("apriltag",),
    "contrast_pass": False,
    "second_pass": False,
}


@dataclass
class Detector:
    """Finds AprilTags in grey or BGR images with the configured passes (see the module doc)."""

    config: DetectorConfig = field(default_factory=DetectorConfig)

    def __post_init__(self) -> None:
        c = self.config
        self._aruco = [
            ArucoBackend(family, max_hamming=c.max_hamming)
            for family in c.families
            if "aruco" in c.backends and family in ARUCO_DICTIONARIES
        ]
        self._soft = {b.family: soft_decoder(b.family) for b in self._aruco if c.soft_pass}
        # No more threads than cores: more only add the cost of switching between them.
        threads = min(c.threads, os.cpu_count() or 1)
        # From 2 threads, AprilTag reads the frame on all of them, and the second pass reads
        # its crops on all of them (AprilTag releases the GIL).
        self._pool = (
            ThreadPoolExecutor(threads, thread_name_prefix="detector") if threads >= 2 else None
        )
        self._threads = threads
        #: How many places the last call dropped because two passes named different ids there.
        self.conflicts = 0
        #: The quads (4 × 2 pixels) the last call found but could not read: places where a tag
        #: may be that a later frame, or the mean of several, may read (`IncrementalDetector`).
        self.candidates: list[npt.NDArray[np.float64]] = []

    def detect(
        self,
        image: npt.NDArray[np.uint8],
        *,
        unreadable: Sequence[npt.NDArray[np.float64]] = (),
    ) -> list[Detection]:
        """The tags in ``image`` (grey or BGR, uint8), sorted by family, id and place.

        ``unreadable`` are quads (4 × 2 pixels) where the caller knows no read will come from,
        the pixels unchanged since many frames failed there (`IncrementalDetector`'s print
        that no mean read): a quad ``cv2.aruco`` could not decode at such a place is left to
        neither the soft decoder nor the second pass, which would fail there again."""
        grey = to_grey(image)
        self.candidates = []
        if min(grey.shape) < MIN_SIDE:
            return []  # no tag fits, and AprilTag would crash on it (see MIN_SIDE)
        c = self.config
        # AprilTag reads the whole frame when asked, and for a family cv2.aruco does not know
        frame_backends = self._frame_backends()
        whole = [b for b in frame_backends if c.frame_pass or b.family not in self._soft]
        raw = [d for b in whole for d in b.detect(grey, _MAIN)]
        if c.quad_sigma > 0:
            raw = _edges_fitted(grey, raw)
        if c.contrast_pass:
            contrasted = local_contrast(grey)
            raw += [d for b in frame_backends for d in b.detect(contrasted, _CONTRAST)]
        # cv2.aruco looks for what the frame pass did not read for sure: the stickers it read
        # exactly are painted out of its view (each tag cv2.aruco sees costs it about 0.1 ms
        # per threshold window, most of its time on a busy table).
        exact = [
            d.corners
            for d in raw
            if d.source == _MAIN and d.hamming == 0 and d.decision_margin >= c.min_decision_margin
        ]
        aruco_view = stickers_hidden(grey, np.asarray(exact)) if self._aruco and exact else grey
        candidates = []
        height, width = grey.shape
        for backend in self._aruco:
            found, rejected = backend.detect(aruco_view)
            if unreadable and rejected:
                known = _at_any(rejected, list(unreadable))
                rejected = [q for q, no in zip(rejected, known, strict=True) if not no]
            raw += found
            if backend.family in self._soft:
                raw += self._soft_reads(grey, backend.family, found, rejected, raw)
            # A tag only cv2.aruco decoded is checked again by the second pass.
            candidates += [d.corners for d in found] + rejected
        # A quad at the frame edge is a cut tag: enlarging it will not make it whole.
        inside = _inside(candidates, width, height, c.edge_margin)
        candidates = [q for q, ok in zip(candidates, inside, strict=True) if ok]
        if c.second_pass:
            raw += self._second_pass(grey, candidates, raw)
        kept, self.conflicts = _fuse(raw, c.min_decision_margin)
        inside = _inside([d.corners for d in kept], width, height, c.edge_margin)
        kept = [d for d, ok in zip(kept, inside, strict=True) if ok]
        read = _at_any(candidates, [np.asarray(d.corners) for d in kept])
        self.candidates = [q for q, done in zip(candidates, read, strict=True) if not done]
        return sorted(kept, key=_sort_key)

    def _soft_reads(
        self,
        grey: Image,
        family: str,
        found: list[RawDetection],
        rejected: list[npt.NDArray[np.float64]],
        so_far: list[RawDetection],
    ) -> list[RawDetection]:
        """The soft decoder on ``cv2.aruco``'s quads not at a place AprilTag's frame pass read:
        each decoded quad read as it is, and the rejected ones searched (the largest first, at
        most ``max_candidates``). A soft read's margin is 100 × its match, and its corrected bits
        the data cells the samples say are the other colour (`SoftRead.cells_against`)."""
        decoder = self._soft[family]
        height, width = grey.shape
        read = [
            d.corners
            for d in so_far
            if d.source == _MAIN and d.decision_margin >= self.config.min_decision_margin
        ]
        rejected = [
            q
            for q, ok, done in zip(
                rejected,
                _inside(rejected, width, height, self.config.edge_margin),
                _at_any(rejected, read),
                strict=True,
            )
            if ok and not done
        ]
        rejected.sort(key=lambda q: -cv2.contourArea(q.astype(np.float32)))
        rejected = rejected[: self.config.max_candidates]
        if read and found:  # AprilTag on the frame read these already: two passes agree
            again = _at_any([d.corners for d in found], read)
            found = [d for d, done in zip(found, again, strict=True) if not done]
        # cv2.aruco's order of corners from AprilTag's: the same swap undoes itself
        quads = [d.corners[ARUCO_TO_APRILTAG] for d in found] + rejected
        searched = decoder.search(grey, rejected)
        every = decoder.read(grey, quads[: len(found)]) + searched
        # In a lamp's glare the white is clipped, and the clipped white eats into the black
        # cells' blurred edges (and shrinks the quad): searched again with the dark grown back
        # (`glare_eroded`), from the quad fitted to the square's edges there and as it was.
        unread = [q for q, r in zip(rejected, searched, strict=True) if r is None]
        glared = [q for q, hot in zip(unread, _in_glare(grey, unread), strict=True) if hot]
        if glared:
            eroded = glare_eroded(grey)
            in_glare = decoder.search(eroded, _refined(eroded, glared) + glared)
            fitted, as_found = in_glare[: len(glared)], in_glare[len(glared) :]
            every += [a or b for a, b in zip(fitted, as_found, strict=True)]
        return self._soft_detections(grey, family, [r for r in every if r is not None])

    def soft_search(self, grey: Image, quad: npt.NDArray[np.float64]) -> list[RawDetection]:
        """The soft decoder's search near ``quad`` (4 × 2 pixels of ``grey``, listed either way
        round), for each family it knows: for a mean of several frames (`IncrementalDetector`)."""
        out = []
        for family, decoder in self._soft.items():
            reads = [r for r in decoder.search(grey, [quad]) if r is not None]
            out += self._soft_detections(grey, family, reads)
        return out

    def _soft_detections(
        self, grey: Image, family: str, reads: list[SoftRead]
    ) -> list[RawDetection]:
        """Soft reads as detections: corners fitted to the square's edges, in AprilTag's order."""
        if not reads:
            return []
        quads = np.asarray(_refined(grey, [r.corners for r in reads]))[:, ARUCO_TO_APRILTAG]
        return [
            RawDetection(family, r.id, corners, center, 100 * r.match, r.cells_against, _SOFT)
            for r, corners, center in zip(reads, quads, quad_center(quads), strict=True)
        ]

    def _second_pass(
        self, grey: Image, candidates: list[npt.NDArray[np.float64]], found: list[RawDetection]
    ) -> list[RawDetection]:
        """AprilTag on enlarged crops of the undecoded candidate quads: each crop as it is, then
        sharpened, then thresholded on its own, until one decodes with no corrected bit."""
        out: list[RawDetection] = []
        decoded = [  # places where a detection will be trusted on its own
            d.corners
            for d in found
            if d.source != _ARUCO
            and d.decision_margin >= self.config.min_decision_margin
            and (d.source in (_MAIN, _SOFT) or d.hamming == 0)
        ]
        covered = _at_any(candidates, decoded)
        fresh = [q for q, done in zip(candidates, covered, strict=True) if not done]
        fresh.sort(key=lambda q: -cv2.contourArea(q.astype(np.float32)))
        fresh = fresh[: self.config.max_candidates]
        if self._pool is not None and len(fresh) > 1:
            reads = self._pool.map(lambda quad: self.decode_region(grey, quad), fresh)
        else:
            reads = map(lambda quad: self.decode_region(grey, quad), fresh)
        for found_there in reads:  # in the order of the quads, however many threads
            out += found_there
        return out

    def _frame_backends(self) -> list[AprilTagBackend]:
        """This thread's AprilTag for whole frames, one a family, with the detector's settings
        (`apriltag_backend`)."""
        c = self.config
        return [
            apriltag_backend(
                family,
                threads=self._threads,
                decimation=c.decimation,
                quad_sigma=c.quad_sigma,
                max_hamming=c.max_hamming,
            )
            for family in c.families
        ]

    def _crop_backends(self) -> list[AprilTagBackend]:
        """This thread's AprilTag for crops, one a family (`apriltag_backend`): full
        resolution, one thread (a crop is small: no thread start-up cost)."""
        hamming = min(1, self.config.max_hamming)
        return [
            apriltag_backend(f, threads=1, decimation=1, quad_sigma=0, max_hamming=hamming)
            for f in self.config.families
        ]

    def decode_region(
        self, grey: Image, quad: npt.NDArray[np.float64] | Corners, *, averaged: bool = False
    ) -> list[RawDetection]:
        """AprilTag on an enlarged crop around ``quad`` (4 × 2 pixels of ``grey``), treated in
        turn (see `crop_treatments`; ``averaged`` for a mean of several frames) until one
        decodes with no corrected bit; the decodes whose centre lies inside the quad, in pixels
        of ``grey``, marked as the crop pass's."""
        quad = np.asarray(quad, dtype=np.float64).reshape(4, 2)
        polygon = quad.astype(np.float32)
        out: list[RawDetection] = []
        for treated in crop_treatments(grey, quad, averaged=averaged):
            found_here = [
                RawDetection(
                    d.family,
                    d.id,
                    np.array([treated.to_original(x, y) for x, y in d.corners]),
                    np.array(treated.to_original(*d.center)),
                    d.decision_margin,
                    d.hamming,
                    _CROP,
                )
                for backend in self._crop_backends()
                for d in backend.detect(treated.image, _CROP)
            ]
            # Keep only what decoded on the candidate itself, not beside it.
            found_here = [
                d
                for d in found_here
                if cv2.pointPolygonTest(polygon, (float(d.center[0]), float(d.center[1])), False)
                >= 0
            ]
            out += found_here
            if any(d.hamming == 0 for d in found_here):
                break  # an exact decode: the other treatments can add nothing
        return out


def crop_treatments(
    grey: Image, quad: npt.NDArray[np.float64], *, averaged: bool = False
) -> Iterator[Crop]:
    """The enlarged crops of the region around ``quad`` that the second pass decodes, cheapest
    and most common first: enlarged to a 40-pixel side as it is, with a mild unsharp mask,
    thresholded on its own (Otsu); then enlarged to 60 pixels with a strong unsharp mask (a
    defocused tag of 12-18 px), with local contrast and a strong mask (glare, shade), and
    deblurred (a Wiener filter for a blur of one pixel; stronger when ``averaged``: the mean of
    several frames has less noise)."""
    crop = enlarged_crop(grey, quad)
    if crop is None:
        return
    yield crop
    yield sharpened(crop)
    yield binarised(crop)
    large = enlarged_crop(grey, quad, target_side=60.0)
    if large is None:
        return
    yield sharpened(large, amount=3.0, sigma=0.8)
    yield sharpened(contrasted(large), amount=5.0, sigma=1.0)
    yield deblurred(large, sigma=1.0, noise=0.01 if averaged else 0.03)


def to_grey(image: npt.NDArray[np.uint8]) -> Image:
    """A contiguous single-channel uint8 image from a grey, BGR or BGRA one."""
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8:
        raise VisionError("an image must be a numpy array of uint8")
    if image.size == 0:
        raise VisionError("the image is empty")
    if image.ndim == 3 and image.shape[2] == 1:
        image = image[:, :, 0]
    if image.ndim == 3 and image.shape[2] == 3:
        image = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    elif image.ndim == 3 and image.shape[2] == 4:
        image = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGRA2GRAY), dtype=np.uint8)
    if image.ndim != 2:
        raise VisionError(f"an image must be grey or BGR, not of shape {image.shape}")
    return np.ascontiguousarray(image)


def read_image(path: Path | str, *, grey: bool = False) -> Image:
    """The image file at ``path`` as BGR, or with ``grey`` as grey levels (a JPEG's own
    luminance, decoded without its colour in about half the time: what a reader that only
    detects needs); ImageReadError if it is missing or not an image."""
    path = Path(path)
    try:
        info = os.stat(path)  # one look: there, a folder, empty
    except OSError:
        raise ImageReadError(f"{path}: no such file") from None
    if stat.S_ISDIR(info.st_mode):
        raise ImageReadError(f"{path}: is a folder, not an image file")
    if not stat.S_ISREG(info.st_mode):
        raise ImageReadError(f"{path}: no such file")
    if info.st_size == 0:
        raise ImageReadError(f"{path}: the file is empty")
    try:
        data = np.fromfile(path, dtype=np.uint8)
    except OSError as exc:
        raise ImageReadError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    image = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE if grey else cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise ImageReadError(f"{path}: not an image OpenCV can read")
    return np.asarray(image, dtype=np.uint8)


def duplicates(detections: list[Detection]) -> list[tuple[str, int]]:
    """The (family, id) pairs seen more than once in one image: each sticker should be unique."""
    counts = Counter((d.family, d.id) for d in detections)
    return sorted(key for key, n in counts.items() if n > 1)


def _fuse(raw: list[RawDetection], min_margin: float) -> tuple[list[Detection], int]:
    """Group the passes' detections by place and keep the trustworthy ones; returns the kept
    detections and the number of places where passes disagreed on the id."""
    usable = [
        d for d in raw if d.source == _ARUCO or d.decision_margin >= min_margin
    ]  # cv2.aruco reports no margin; a soft read's (100 × its match) passed its own bar
    # Most trusted first: a read with no corrected bit, then the pass (cv2.aruco never leads:
    # it reports no corrected bits), so a place read exactly once is an exact read.
    usable.sort(key=lambda d: (d.source == _ARUCO, d.hamming != 0, _PREFERENCE[d.source]))
    near: list[list[int]] = [[] for _ in usable]  # for each, the detections at its place
    rows, cols = np.nonzero(_same_place([d.corners for d in usable], [d.corners for d in usable]))
    for i, j in zip(rows.tolist(), cols.tolist(), strict=True):
        near[i].append(j)
    # Each detection joins the first earlier leader at its place, or leads a new group.
    grouped = [False] * len(usable)
    groups: list[list[RawDetection]] = []
    for i in range(len(usable)):
        if not grouped[i]:
            members = [j for j in near[i] if not grouped[j]]
            for j in members:
                grouped[j] = True
            groups.append([usable[j] for j in members])
    kept, conflicts = [], 0
    for group in groups:
        if len({(d.family, d.id) for d in group}) > 1:
            conflicts += 1
            continue
        sources = {d.source for d in group}
        best = group[0]
        # an AprilTag read with no corrected bit, or a soft read (which passed its own bar)
        exact = any(d.source == _SOFT or (d.source != _ARUCO and d.hamming == 0) for d in group)
        trusted = _MAIN in sources or len(sources) >= 2 or exact
        if trusted:
            kept.append(
                Detection(
                    family=best.family,
                    id=best.id,
                    corners=tuple(map(tuple, best.corners.tolist())),  # type: ignore[arg-type]
                    center=tuple(best.center.tolist()),
                    decision_margin=best.decision_margin,
                    hamming=best.hamming,
                )
            )
    return kept, conflicts


def _same_place(
    a: list[npt.NDArray[np.float64]], b: list[npt.NDArray[np.float64]]
) -> npt.NDArray[np.bool_]:
    """For two lists of quads, whether each pair is one tag: centres closer than half the
    smaller side. Returns a len(a) × len(b) matrix."""
    if not a or not b:
        return np.zeros((len(a), len(b)), dtype=bool)
    qa, qb = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    side_a, side_b = _sides(qa), _sides(qb)
    distance = np.linalg.norm(qa.mean(axis=1)[:, None] - qb.mean(axis=1)[None], axis=2)
    return distance < np.minimum(side_a[:, None], side_b[None]) / 2


def _at_any(
    a: list[npt.NDArray[np.float64]], b: list[npt.NDArray[np.float64]]
) -> npt.NDArray[np.bool_]:
    """For each quad of ``a``, whether one of ``b`` is the same tag (`_same_place`)."""
    return np.any(_same_place(a, b), axis=1)


def _sides(quads: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The mean side of each of N quads (N × 4 × 2)."""
    return np.linalg.norm(quads - np.roll(quads, 1, axis=1), axis=2).mean(axis=1)


def _inside(
    quads: list[npt.NDArray[np.float64]] | list[Corners], width: int, height: int, margin: float
) -> npt.NDArray[np.bool_]:
    """For each quad, whether it lies ``margin`` pixels and half a cell inside the frame.

    A tag whose black border the frame cuts still decodes at times, with its corners on an
    inner edge: such a quad ends less than half a cell (1/16 of its side) from the frame edge.
    """
    if not quads:
        return np.zeros(0, dtype=bool)
    q = np.asarray(quads, dtype=np.float64)
    pad = np.maximum(margin, _sides(q) / 16)
    low, high = q.min(axis=1), q.max(axis=1)  # N × 2: (x, y)
    # the frame spans -0.5 to width - 0.5: pixel centres are whole numbers
    return (
        (low[:, 0] + 0.5 >= pad)
        & (low[:, 1] + 0.5 >= pad)
        & (high[:, 0] <= width - 0.5 - pad)
        & (high[:, 1] <= height - 0.5 - pad)
    )


def _edges_fitted(grey: Image, found: list[RawDetection]) -> list[RawDetection]:
    """AprilTag's reads with their corners fitted to the square's edges (`_refined`).

    AprilTag fits its quads on the blurred frame (``quad_sigma`` > 0), and where a thin black
    border meets white data cells the blur thins the border at a corner; AprilTag's own edge
    refinement then starts from a wrong line. On 1,143 rendered tags (10-30 mm, clean and
    in hard light), 28 had a corner more than a pixel off that way, 10 with AprilTag's
    sharpening instead of the blur, and none after this fit (95th percentile 0.44 px)."""
    if not found:
        return found
    quads = np.asarray(_refined(grey, [d.corners for d in found]))
    return [
        replace(d, corners=corners, center=center)
        for d, corners, center in zip(found, quads, quad_center(quads), strict=True)
    ]


def _refined(
    grey: Image, quads: list[npt.NDArray[np.float64]], rounds: int = 2
) -> list[npt.NDArray[np.float64]]:
    """Quads' corners (in order round the square, either way) moved onto the black square's
    edges, as AprilTag does: along each side, at `_EDGE_POINTS` places, where the grey level
    across the side (a tenth of the side each way, 1-3 px) crosses halfway from the black
    border to the white quiet zone, a line through them weighted by that contrast, and the
    corners where the lines meet. Twice, the second time from the first answer. A corner that
    would move more than an eighth of the side is left where it was."""
    if not quads:
        return []
    q = np.asarray(quads, dtype=np.float64)
    out = q.copy()
    for _ in range(rounds):
        out = _edge_fit(grey, out, q, _EDGE_POINTS)
    return list(out)


#: Places along each side where `_refined` looks for the edge.
_EDGE_POINTS = 24


def _edge_fit(
    grey: Image, quads: npt.NDArray[np.float64], start: npt.NDArray[np.float64], places: int
) -> npt.NDArray[np.float64]:
    """One round of `_refined`, at ``places`` places along each side; ``start`` bounds how far
    a corner may move."""
    count = len(quads)
    sides = np.linalg.norm(quads - np.roll(quads, 1, axis=1), axis=2).mean(axis=1)
    a, b = quads, np.roll(quads, -1, axis=1)  # side k runs from corner k to corner k + 1
    along = (b - a) / np.maximum(np.linalg.norm(b - a, axis=2, keepdims=True), 1e-9)
    normal = np.stack([along[..., 1], -along[..., 0]], axis=-1)
    centre = quads.mean(axis=1, keepdims=True)
    outward = np.sum(((a + b) / 2 - centre) * normal, axis=2)
    normal = normal * np.where(outward < 0, -1.0, 1.0)[..., None]  # away from the centre
    t = np.linspace(0.12, 0.88, places)
    reach = np.clip(sides / 10, 1.0, 3.0)  # Q: how far across the side to look, in pixels
    steps = np.linspace(-1, 1, 17)
    points = a[:, :, None] + (b - a)[:, :, None] * t[None, None, :, None]  # Q × 4 × P × 2
    offsets = (reach[:, None, None, None] * steps).astype(np.float32)  # Q × 1 × 1 × S
    # where to sample, x and y apart: Q × 4 × P × S each
    x, y = (
        points[..., axis, None].astype(np.float32)
        + offsets * normal[..., axis, None, None].astype(np.float32)
        for axis in (0, 1)
    )
    values = grey_at(grey, x, y).reshape(-1, len(steps))
    # where the profile crosses halfway from the dark border to the light quiet zone
    dark, light = (values[:, 0] + values[:, 1]) / 2, (values[:, -2] + values[:, -1]) / 2
    half = ((dark + light) / 2)[:, None]
    above = values >= half
    k = np.clip(np.argmax(above, axis=1), 1, len(steps) - 1)  # first sample at or past it
    rows = np.arange(len(values))
    before, after = values[rows, k - 1], values[rows, k]
    share = np.clip((half[:, 0] - before) / np.maximum(after - before, 1e-9), 0.0, 1.0)
    where = (k - 1 + share) / (len(steps) - 1) * 2 - 1  # -1 inside … 1 outside
    weight = np.clip(light - dark, 0.0, None).reshape(count, 4, places)
    base = points.reshape(-1, 2)
    across = (where * np.repeat(reach, 4 * places))[:, None]
    edge = base + across * np.repeat(normal.reshape(-1, 2), places, axis=0)
    edge = edge.reshape(count, 4, places, 2)
    # a line through each side's edge points, each weighted by its contrast: its centre and
    # direction (the principal axis of their spread)
    w = weight / np.maximum(weight.sum(axis=2, keepdims=True), 1e-9)
    mean = (edge * w[..., None]).sum(axis=2)
    dx, dy = (edge - mean[:, :, None]).transpose(3, 0, 1, 2)
    sxx, syy, sxy = (w * dx * dx).sum(axis=2), (w * dy * dy).sum(axis=2), (w * dx * dy).sum(axis=2)
    angle = 0.5 * np.arctan2(2 * sxy, sxx - syy)
    direction = np.stack([np.cos(angle), np.sin(angle)], axis=-1)
    # corner k is where side k - 1 meets side k
    p1, d1 = np.roll(mean, 1, axis=1), np.roll(direction, 1, axis=1)
    p2, d2 = mean, direction
    cross = d1[..., 0] * d2[..., 1] - d1[..., 1] * d2[..., 0]
    diff = p2 - p1
    u = (diff[..., 0] * d2[..., 1] - diff[..., 1] * d2[..., 0]) / np.where(
        np.abs(cross) > 1e-6, cross, 1.0
    )
    corners = p1 + u[..., None] * d1
    fine = (np.abs(cross) > 0.3) & (np.linalg.norm(corners - start, axis=2) <= sides[:, None] / 8)
    return np.where(fine[..., None], corners, quads)


#: A quad lies in glare when at least this share of the pixels of its bounding box are at
#: `GLARE_LEVEL` or brighter (clipped white).
GLARE_SHARE = 0.25
GLARE_LEVEL = 250


def _in_glare(grey: Image, quads: list[npt.NDArray[np.float64]]) -> list[bool]:
    """For each quad, whether its region is in clipped glare (`GLARE_SHARE`, `GLARE_LEVEL`)."""
    height, width = grey.shape
    out = []
    for q in quads:
        x0, y0 = np.clip(np.floor(q.min(axis=0)).astype(int), 0, None)
        x1, y1 = np.ceil(q.max(axis=0)).astype(int) + 1
        region = grey[y0 : min(y1, height), x0 : min(x1, width)]
        out.append(bool(region.size) and float(np.mean(region >= GLARE_LEVEL)) >= GLARE_SHARE)
    return out


def _sort_key(d: Detection) -> tuple[str, int, float, float]:
    return (d.family, d.id, d.center[1], d.center[0])
