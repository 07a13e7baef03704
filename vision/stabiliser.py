"""The temporal stabiliser: noisy per-frame detections in, steady TUIO-like observations out.

Each tag gets a track with a session id. A track is *added* once the tag has been seen steadily
for a while, *updated* only when it has really moved (the new place must be steady and differ
from the reported one by more than a threshold: hysteresis, so jitter never moves anything), and
*removed* when it has gone. Given the frame (``update(..., image=frame)``), the stabiliser looks
at the place of a tag it misses (`vision.places`): when the place has shown bare table, or another
tag read there, for ``bare_ms`` (a quarter of a second: time enough for a tag that a hand slid
aside to be read at its new place, which is then a move), the tag is removed; when something
covers it (a hand, an arm, a card held above, or the tag is there but unread), it stays up to
``covered_ms``; without a frame to look at, it is removed after ``remove_ms`` of absence. Every
removal says which it was (``why``). A tag id seen twice in one frame is *flagged*, never
guessed: that frame tells nothing about the tag.

Positions are in table millimetres through the calibration's point mapping (``to_table``:
its lens undistorts every corner before the table plane is fitted, see
`vision.calibration.TableCalibration.to_table`), or through a pixel-to-table homography; with
neither they stay in pixels. Time comes in with every frame; nothing here reads a clock.

>>> s = Stabiliser(StabiliserConfig(add_frames=1, add_ms=0))
>>> [o.kind for o in s.update([], timestamp_ms=0)]
[]
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from vision.detection import Detection
from vision.errors import VisionError
from vision.places import Place, inside, look, remember, same_surroundings

FloatArray: TypeAlias = npt.NDArray[np.float64]
ToTable: TypeAlias = Callable[[FloatArray], FloatArray]
"""Pixels (N×2) to table millimetres (N×2): a calibration's ``to_table``."""
Kind = Literal["add", "update", "remove", "duplicate"]
Why = Literal["bare", "replaced", "covered", "unseen"]
PLACE_REFRESH_MS = 1000.0
"""How often the place of a tag that is read is remembered again (its surroundings' light)."""


class StabiliserError(VisionError, ValueError):
    """The stabiliser was given something it cannot use (time going backwards, bad settings)."""


@dataclass(frozen=True)
class StabiliserConfig:
    """Settings of the stabiliser. Each pair of frame and millisecond thresholds must both be
    reached; set one of them to 0 to count only in the other.

    A tag is added after ``add_frames`` consecutive frames and ``add_ms``; it moves when its
    last ``settle_frames`` places lie within ``settle_mm`` of their mean and that mean is more
    than ``move_mm`` (or ``turn_deg``) from the place last reported. A tag missed for
    ``remove_frames`` frames is removed after ``remove_ms`` without being seen when its place
    cannot be looked at; after ``covered_ms`` (or ``remove_ms`` if longer) when its place is
    covered; and once its place has looked bare (or held another tag) for ``bare_ms`` and in
    ``bare_frames`` frames in a row, whatever ``remove_frames`` says.
    """

    add_frames: int = 3
    add_ms: float = 100.0
    remove_frames: int = 10
    remove_ms: float = 1500.0
    bare_frames: int = 2
    bare_ms: float = 250.0
    covered_ms: float = 3000.0
    settle_frames: int = 3
    settle_mm: float = 2.0
    move_mm: float = 5.0
    turn_deg: float = 10.0

    def __post_init__(self) -> None:
        counts = ("add_frames", "remove_frames", "settle_frames", "bare_frames")
        ones = ("settle_frames", "bare_frames")
        bad = [n for n in counts if getattr(self, n) < (1 if n in ones else 0)]
        sizes = ("add_ms", "remove_ms", "settle_mm", "move_mm", "turn_deg", "bare_ms", "covered_ms")
        bad += [n for n in sizes if getattr(self, n) < 0]
        if bad:
            raise StabiliserError(f"stabiliser settings out of range: {', '.join(bad)}")
        if self.move_mm <= self.settle_mm:
            raise StabiliserError("move_mm must be larger than settle_mm (hysteresis)")


@dataclass(frozen=True)
class Observation:
    """One TUIO-like observation: what happened to which tag, where (mm) and when (ms).

    ``kind`` is add, update, remove or duplicate (the same id seen more than once in a frame;
    then ``places`` holds every place it was seen, and ``session_id`` is that of its track or
    0 when it has none). A ``remove`` says ``why``: ``bare`` (its place shows bare table),
    ``replaced`` (another tag is read at its place), ``covered`` (something has covered its
    place for ``covered_ms``) or ``unseen`` (its place could not be looked at: no frame given, or
    it lies at the frame's edge).
    """

    kind: Kind
    session_id: int
    family: str
    tag_id: int
    x_mm: float
    y_mm: float
    angle_deg: float
    timestamp_ms: float
    places: tuple[tuple[float, float], ...] = ()
    why: Why | None = None


@dataclass
class Track:
    """What the stabiliser knows of one tag."""

    session_id: int
    family: str
    tag_id: int
    first_seen_ms: float
    last_seen_ms: float
    seen_run: int = 0
    missed: int = 0
    added: bool = False
    reported: tuple[float, float, float] | None = None
    recent: deque[tuple[float, float, float]] = field(default_factory=deque)
    place: Place | None = None
    place_ms: float = -math.inf
    bare_run: int = 0
    bare_since_ms: float = math.inf


Pose: TypeAlias = tuple[float, float, float]


class Stabiliser:
    """Turns per-frame detections into add / update / remove observations (see the module).

    Every tag's corners go to the table through ``to_table`` when given (a calibration's
    ``to_table``, lens and all: what the table loop and ``track`` pass), else through
    ``homography`` (pixels to table mm), else they stay in pixels."""

    def __init__(
        self,
        config: StabiliserConfig | None = None,
        homography: FloatArray | None = None,
        to_table: ToTable | None = None,
    ) -> None:
        self.config = config or StabiliserConfig()
        self.homography = np.eye(3) if homography is None else np.asarray(homography, float)
        self.to_table = to_table
        self._tracks: dict[tuple[str, int], Track] = {}
        self._sessions = itertools.count(1)
        self._duplicates: set[tuple[str, int]] = set()
        self._last_ms: float | None = None
        self._frame = _Frame(None, [])

    def alive(self) -> list[Track]:
        """The tracks that have been added and not removed, by tag id."""
        return sorted(
            (t for t in self._tracks.values() if t.added), key=lambda t: (t.family, t.tag_id)
        )

    def update(
        self,
        detections: Iterable[Detection],
        timestamp_ms: float,
        image: npt.NDArray[np.uint8] | None = None,
    ) -> list[Observation]:
        """Feed one frame's detections taken at ``timestamp_ms``; returns what changed.
        ``image`` is the frame (grey or BGR) they were read from: with it, the place of a tag
        that is missed is looked at (see the module)."""
        if self._last_ms is not None and timestamp_ms < self._last_ms:
            raise StabiliserError(
                f"time went backwards: frame at {timestamp_ms} ms after one at {self._last_ms} ms"
            )
        self._last_ms = timestamp_ms
        detections = list(detections)
        by_key: dict[tuple[str, int], list[Pose]] = {}
        read: dict[tuple[str, int], Detection] = {}
        for d, pose in zip(detections, self._poses(detections), strict=True):
            by_key.setdefault((d.family, d.id), []).append(pose)
            read[(d.family, d.id)] = d
        self._frame = _Frame(image, detections)
        out: list[Observation] = []
        duplicates = {k for k, poses in by_key.items() if len(poses) > 1}
        for key in sorted(duplicates - self._duplicates):
            track = self._tracks.get(key)
            poses = by_key[key]
            out.append(
                Observation(
                    "duplicate",
                    track.session_id if track and track.added else 0,
                    key[0],
                    key[1],
                    *poses[0],
                    timestamp_ms,
                    tuple((p[0], p[1]) for p in poses),
                )
            )
        self._duplicates = duplicates
        for key in sorted(set(by_key) | set(self._tracks)):
            if key in duplicates:
                continue  # flagged: this frame says nothing about where the tag is
            seen = by_key.get(key)
            if seen:
                out.extend(self._seen(key, seen[0], timestamp_ms))
                self._remember(key, read[key], timestamp_ms)
            else:
                out.extend(self._missed(key, timestamp_ms))
        return out

    def _poses(self, detections: list[Detection]) -> list[Pose]:
        """Centre and angle of every detection in table coordinates, in one batch (each corner
        taken to the table before any centre: through a lens a tag's centre in pixels is not
        its centre on the table)."""
        if not detections:
            return []
        corners = np.array([d.corners for d in detections], float).reshape(-1, 2)  # 4N×2
        if self.to_table is not None:
            on_table = np.asarray(self.to_table(corners), float)
        else:
            on_table = _apply(self.homography, corners)
        flat = on_table.reshape(-1, 4, 2)
        centres = flat.mean(axis=1)
        tops = (flat[:, 0] + flat[:, 1]) / 2  # the middle of the printed bitmap's top edge
        d = tops - centres
        angles = np.degrees(np.arctan2(d[:, 0], -d[:, 1])) % 360
        return [(float(x), float(y), float(a)) for (x, y), a in zip(centres, angles, strict=True)]

    def _seen(self, key: tuple[str, int], pose: Pose, now: float) -> list[Observation]:
        c = self.config
        track = self._tracks.get(key)
        if track is None:
            track = Track(next(self._sessions), key[0], key[1], now, now)
            self._tracks[key] = track
        if not track.added and track.missed:
            track.first_seen_ms, track.seen_run = now, 0  # a candidate must be seen in a row
            track.recent.clear()
        track.missed = track.bare_run = 0
        track.bare_since_ms = math.inf
        track.seen_run += 1
        track.last_seen_ms = now
        track.recent.append(pose)
        while len(track.recent) > c.settle_frames:
            track.recent.popleft()
        steady = _steady(track.recent, c.settle_frames, c.settle_mm)
        if not track.added:
            if (
                steady is not None
                and track.seen_run >= c.add_frames
                and now - track.first_seen_ms >= c.add_ms
            ):
                track.added, track.reported = True, steady
                return [self._observe("add", track, steady, now)]
            return []
        if steady is not None and track.reported is not None and _moved(track.reported, steady, c):
            track.reported = steady
            return [self._observe("update", track, steady, now)]
        return []

    def _missed(self, key: tuple[str, int], now: float) -> list[Observation]:
        c = self.config
        track = self._tracks[key]
        track.missed += 1
        track.seen_run = 0
        if not track.added:
            del self._tracks[key]  # a candidate that flickers out is forgotten
            return []
        why = self._look(track)
        bare = why in ("bare", "replaced")
        track.bare_run = track.bare_run + 1 if bare else 0
        track.bare_since_ms = min(track.bare_since_ms, now) if bare else math.inf
        absent = now - track.last_seen_ms
        if bare:
            gone = track.bare_run >= c.bare_frames and now - track.bare_since_ms >= c.bare_ms
        else:
            wait = max(c.covered_ms, c.remove_ms) if why == "covered" else c.remove_ms
            gone = track.missed >= c.remove_frames and absent >= wait
        if gone:
            del self._tracks[key]
            assert track.reported is not None
            return [self._observe("remove", track, track.reported, now, why)]
        return []

    def _look(self, track: Track) -> Why:
        """What the place of a missed tag shows in this frame."""
        frame = self._frame
        if frame.image is None or track.place is None:
            return "unseen"
        place = track.place
        key = (track.family, track.tag_id)
        if any((d.family, d.id) != key and inside(place, d.center) for d in frame.detections):
            return "replaced"
        return look(frame.image, place)

    def _remember(self, key: tuple[str, int], seen: Detection, now: float) -> None:
        """Remember where a tag that is read lies and what surrounds it: when it is added or
        moved, and again every ``PLACE_REFRESH_MS`` (only if its surroundings still look the
        same: a hand beside it must not become the table it is compared with)."""
        track = self._tracks.get(key)
        image = self._frame.image
        if track is None or image is None or not track.added:
            return
        moved = track.place is None or not inside(track.place, seen.center)
        if not moved and now - track.place_ms < PLACE_REFRESH_MS:
            return
        place = remember(image, np.asarray(seen.corners, float))
        track.place_ms = now
        old = track.place
        if moved or old is None or (place is not None and same_surroundings(old, place)):
            track.place = place

    @staticmethod
    def _observe(
        kind: Kind, track: Track, pose: Pose, now: float, why: Why | None = None
    ) -> Observation:
        return Observation(kind, track.session_id, track.family, track.tag_id, *pose, now, (), why)


@dataclass(frozen=True)
class _Frame:
    """The frame being fed: its image (None when not given) and its detections."""

    image: npt.NDArray[np.uint8] | None
    detections: list[Detection]


def _apply(h: FloatArray, points: FloatArray) -> FloatArray:
    p = np.column_stack([points, np.ones(len(points))]) @ h.T
    return p[:, :2] / p[:, 2:3]


def _steady(recent: deque[Pose], frames: int, settle_mm: float) -> Pose | None:
    """The mean of the recent places if there are enough and they lie close together."""
    if len(recent) < frames:
        return None
    n = len(recent)
    mx = sum(p[0] for p in recent) / n
    my = sum(p[1] for p in recent) / n
    if any(math.hypot(p[0] - mx, p[1] - my) > settle_mm for p in recent):
        return None
    sin = sum(math.sin(math.radians(p[2])) for p in recent)
    cos = sum(math.cos(math.radians(p[2])) for p in recent)
    return mx, my, math.degrees(math.atan2(sin, cos)) % 360


def _moved(old: Pose, new: Pose, c: StabiliserConfig) -> bool:
    turn = abs((new[2] - old[2] + 180) % 360 - 180)
    return math.hypot(new[0] - old[0], new[1] - old[1]) > c.move_mm or turn > c.turn_deg


# --- what a second of frames shows (`tablesight scan` of a camera or a video) ----------------

SCAN_CONFIG = StabiliserConfig(add_frames=1, add_ms=0, settle_frames=1)
"""The stabiliser of a scan over frames: a tag the fused detector read in any frame is there,
not only after frames in a row (a sticker of 12-15 mm at 1280 × 720 is read in some frames
only; `steady_view` still asks for two reads in the second); it is gone only when its place
shows bare table or another tag (given the frames), so a piece lifted during the second is not
read."""


@dataclass(frozen=True)
class SteadyView:
    """What a run of frames shows of a still table: each tag the stabiliser holds at the end,
    as one detection at the median of its reads (pixels); ``unread``, the quads that looked like
    a sticker in some frame and lie where no tag was read (a sticker no frame read); ``frames``,
    how many frames; ``reads``, in how many of them each tag id was read; ``best``, the index of
    the frame that read the most of the tags held."""

    detections: list[Detection]
    unread: list[FloatArray]
    frames: int
    reads: dict[int, int]
    best: int
    #: For each of ``unread``, in how many frames a quad lay there (a still sticker no frame
    #: read shows in most; the edge of a passing hand in one or two).
    unread_frames: list[int] = field(default_factory=list)


def steady_view(
    frames: Iterable[tuple[npt.NDArray[np.uint8], float]],
    detect: Callable[[npt.NDArray[np.uint8]], tuple[list[Detection], list[FloatArray]]],
    config: StabiliserConfig = SCAN_CONFIG,
    min_reads: int = 2,
) -> SteadyView:
    """Read ``frames`` (image, time in ms) of a still table with ``detect`` (one frame's
    detections and its unread quads) through a :class:`Stabiliser` in pixels (each frame given,
    so a place left bare removes its tag), and return what they show together. A tag read in
    fewer than ``min_reads`` frames (all of them, when there are fewer) is left out: print that
    only looks like a tag, read once in many frames, is no tag."""
    stabiliser = Stabiliser(config)
    reads: dict[tuple[str, int], list[Detection]] = {}
    per_frame: list[set[tuple[str, int]]] = []
    frame_quads: list[list[FloatArray]] = []
    for image, timestamp_ms in frames:
        found, unread = detect(image)
        stabiliser.update(found, timestamp_ms, image)
        keys = [(d.family, d.id) for d in found]
        once = {k for k in keys if keys.count(k) == 1}  # an id seen twice tells nothing
        for d in found:
            if (d.family, d.id) in once:
                reads.setdefault((d.family, d.id), []).append(d)
        per_frame.append(once)
        frame_quads.append([np.asarray(q, dtype=np.float64).reshape(4, 2) for q in unread])
    enough = min(min_reads, len(per_frame))
    held = [
        (t.family, t.tag_id)
        for t in stabiliser.alive()
        if len(reads.get((t.family, t.tag_id), [])) >= enough
    ]
    detections = [_median_detection(reads[key]) for key in held]
    unread_quads = _apart(
        [q for seen in frame_quads for q in seen],
        [np.asarray(d.corners, np.float64) for d in detections],
    )
    best = max(range(len(per_frame)), key=lambda i: len(per_frame[i] & set(held)), default=0)
    return SteadyView(
        detections,
        unread_quads,
        len(per_frame),
        {key[1]: len(reads[key]) for key in held},
        best,
        [sum(not _apart([q], seen) for seen in frame_quads) for q in unread_quads],
    )


def _median_detection(reads: list[Detection]) -> Detection:
    """One detection of a tag from its reads in several frames: each corner at the median."""
    corners = np.median(np.array([d.corners for d in reads], dtype=np.float64), axis=0)
    cx, cy = np.median(np.array([d.center for d in reads], dtype=np.float64), axis=0)
    first = reads[0]
    return Detection(
        first.family,
        first.id,
        tuple((float(x), float(y)) for x, y in corners),  # type: ignore[arg-type]
        (float(cx), float(cy)),
        float(np.median([d.decision_margin for d in reads])),
        min(d.hamming for d in reads),
    )


def _apart(quads: list[FloatArray], read: list[FloatArray]) -> list[FloatArray]:
    """The quads that lie at no read tag's place nor at an earlier quad's (one per place)."""
    out: list[FloatArray] = []
    for q in quads:
        centre, side = q.mean(axis=0), _side(q)
        if all(
            np.linalg.norm(o.mean(axis=0) - centre) >= min(side, _side(o)) / 2
            for o in [*read, *out]
        ):
            out.append(q)
    return out


def _side(quad: FloatArray) -> float:
    return float(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1).mean())
