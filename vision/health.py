"""Sticker health: how well each tag in view reads, from the detections the pipeline already has.

For each tag the monitor keeps its last ``window`` *looks* (frames in which the detector looked
where the tag is): whether it was found, and when found its decision margin and the number of
bits the decoder corrected. From them, per tag: the share of looks that found it, the median
margin and the mean corrected bits, and a verdict: a sticker is *weak* when, over at least
``min_looks`` looks, it is found in fewer than ``weak_share`` of them, reads with corrected
bits on average at or above ``weak_bits`` (one scratch more and it is lost), or with a median
margin under ``weak_margin``. A tag not found for ``gone_ms`` has left the view and is
forgotten (a token put back in the box is not a weak sticker).

A frame where the detector did not look again (the incremental detector's unchanged frame)
adds no look; one where it looked at some regions only adds looks to the tags there. A detection
that is the very object the previous frame handed in is a cache's copy (the incremental
detector's kept tags, or a tag its memory holds although the new pass missed it), not a new
reading: inside the looked-at area it counts as a miss. So the figures are those of the
detector's own passes, what a sticker gives when it must be read afresh (after a hand, a move).
Time comes in with every frame; nothing here reads a clock.

>>> monitor = HealthMonitor()
>>> monitor.report()
[]
"""

from __future__ import annotations

import statistics
import threading
import weakref
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from vision.detection import Detection, Detector
from vision.errors import VisionError
from vision.incremental import IncrementalDetector

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (exclusive), as the incremental detector's
Reason = Literal["rarely_found", "bits_corrected", "low_margin"]


class HealthConfigError(VisionError, ValueError):
    """A sticker-health setting is out of range."""


@dataclass(frozen=True)
class HealthConfig:
    """Settings of the monitor (see the module)."""

    window: int = 30
    min_looks: int = 10
    weak_share: float = 0.9
    weak_bits: float = 0.5
    weak_margin: float = 40.0
    gone_ms: float = 5000.0

    def __post_init__(self) -> None:
        if self.window < 1 or not 1 <= self.min_looks <= self.window:
            raise HealthConfigError("window must be positive and min_looks within 1..window")
        if not 0 < self.weak_share <= 1 or self.weak_bits < 0 or self.weak_margin < 0:
            raise HealthConfigError("weak_share in (0, 1], weak_bits and weak_margin not negative")
        if self.gone_ms <= 0:
            raise HealthConfigError("gone_ms must be positive")


@dataclass(frozen=True)
class StickerHealth:
    """How one tag reads: looks counted, share found, median margin, mean corrected bits."""

    family: str
    tag_id: int
    looks: int
    found: int
    margin: float | None
    corrected_bits: float | None
    reasons: tuple[Reason, ...]
    judged: bool = False
    """Whether there were enough looks (``min_looks``) for a verdict."""

    @property
    def share(self) -> float:
        """The share of looks that found the tag (0 to 1)."""
        return self.found / self.looks if self.looks else 0.0

    @property
    def weak(self) -> bool:
        """Whether the sticker reads poorly (there is at least one reason)."""
        return bool(self.reasons)

    def as_json(self) -> dict[str, object]:
        """The figures as JSON (share and margin rounded)."""
        return {
            "family": self.family,
            "id": self.tag_id,
            "looks": self.looks,
            "found": self.found,
            "share": round(self.share, 3),
            "margin": None if self.margin is None else round(self.margin, 1),
            "corrected_bits": None
            if self.corrected_bits is None
            else round(self.corrected_bits, 2),
            "weak": self.weak,
            "judged": self.judged,
            "reasons": list(self.reasons),
        }


@dataclass
class _Record:
    looks: deque[tuple[bool, float, int]]
    center: tuple[float, float]
    last_found_ms: float


@dataclass
class HealthMonitor:
    """Per-tag reading figures over the recent frames (see the module)."""

    config: HealthConfig = field(default_factory=HealthConfig)

    def __post_init__(self) -> None:
        self._tags: dict[tuple[str, int], _Record] = {}
        self._lock = threading.Lock()  # fed by the camera's thread, read by the web's
        self._previous: list[Detection] = []  # held, so that their ids stay theirs

    def observe(
        self,
        detections: Iterable[Detection],
        timestamp_ms: float,
        looked: Sequence[Box] | None = None,
        kept: Iterable[Detection] = (),
    ) -> None:
        """One frame's detections; ``looked`` says where the detector looked (None: the whole
        frame; a list of boxes: only there; an empty list: nowhere, the frame adds nothing);
        ``kept`` are those the detector kept or brought back without reading them again
        (``IncrementalDetector.last_kept``): not counted as read."""
        detections = list(detections)
        previous = {id(d) for d in self._previous} | {id(d) for d in kept}
        self._previous = detections
        if looked is not None and not looked:
            return
        found: dict[tuple[str, int], Detection] = {}
        for d in detections:
            if id(d) not in previous:  # read by this frame's pass, not handed on from before
                found.setdefault((d.family, d.id), d)
        with self._lock:
            for key, d in found.items():
                if looked is not None and not _in_any(d.center, looked):
                    continue  # kept from an earlier frame, not read again now
                record = self._tags.get(key)
                if record is None:
                    record = _Record(deque(maxlen=self.config.window), d.center, timestamp_ms)
                    self._tags[key] = record
                record.looks.append((True, d.decision_margin, d.hamming))
                record.center, record.last_found_ms = d.center, timestamp_ms
            for key, record in list(self._tags.items()):
                if key in found:
                    continue
                if timestamp_ms - record.last_found_ms >= self.config.gone_ms:
                    del self._tags[key]  # left the view
                elif looked is None or _in_any(record.center, looked):
                    record.looks.append((False, 0.0, 0))

    def report(self) -> list[StickerHealth]:
        """Every tag in view, by family and id."""
        with self._lock:
            records = sorted(self._tags.items())
            return [self._health(key, list(record.looks)) for key, record in records]

    def reset(self) -> None:
        """Forget every tag (the camera changed)."""
        with self._lock:
            self._tags.clear()

    def _health(self, key: tuple[str, int], looks: list[tuple[bool, float, int]]) -> StickerHealth:
        c = self.config
        hits = [(margin, bits) for ok, margin, bits in looks if ok]
        margin = statistics.median(m for m, _ in hits) if hits else None
        bits = sum(b for _, b in hits) / len(hits) if hits else None
        reasons: list[Reason] = []
        if len(looks) >= c.min_looks:
            if len(hits) < c.weak_share * len(looks):
                reasons.append("rarely_found")
            if bits is not None and bits >= c.weak_bits:
                reasons.append("bits_corrected")
            if margin is not None and margin < c.weak_margin:
                reasons.append("low_margin")
        return StickerHealth(
            key[0],
            key[1],
            len(looks),
            len(hits),
            margin,
            bits,
            tuple(reasons),
            judged=len(looks) >= c.min_looks,
        )


def _in_any(point: tuple[float, float], boxes: Sequence[Box]) -> bool:
    x, y = point
    return any(x0 <= x < x1 and y0 <= y < y1 for x0, y0, x1, y1 in boxes)


_MONITORS: weakref.WeakKeyDictionary[object, HealthMonitor] = weakref.WeakKeyDictionary()
_MONITORS_LOCK = threading.Lock()


def monitor_for(owner: object) -> HealthMonitor:
    """The one monitor of ``owner`` (the table being played): the table loop feeds it, the
    camera page reads it, without either knowing the other. Forgotten with its owner."""
    with _MONITORS_LOCK:
        monitor = _MONITORS.get(owner)
        if monitor is None:
            monitor = _MONITORS[owner] = HealthMonitor()
        return monitor


def looked_regions(detector: Detector | IncrementalDetector) -> list[Box] | None:
    """Where an incremental detector looked in its last call: None for the whole frame (also
    for a plain detector), its regions for a partial call, [] when the frame was unchanged."""
    if not isinstance(detector, IncrementalDetector) or detector.last_mode == "full":
        return None
    if detector.last_mode == "unchanged":
        return []
    return list(detector.last_regions)


KINDS_ZH = {
    "anchor": "定位标记",
    "board": "版图",
    "tile": "板块",
    "piece": "棋子",
    "token": "标记物",
}
"""What each kind of component (the tag files' ``kind``) is called in Chinese."""


def sticker_label(tag_id: int, entry: object | None, lang: str) -> str:
    """The name a player finds on the sticker: in English the label printed under it (``148
    domino 1``); in Chinese its number and the kind of component (``148（板块）``), the printed
    labels being English only; a tag no game uses, its number."""
    if entry is None:
        return str(tag_id)
    if lang == "zh":
        kind = KINDS_ZH.get(str(getattr(entry, "kind", "")))
        return f"{tag_id}（{kind}）" if kind else str(tag_id)
    return f"{tag_id} {getattr(entry, 'label', '')}".strip()


WEAK = {
    "zh": "贴纸 {label}读得不稳：重新打印或移动灯光",
    "en": "Sticker “{label}” reads poorly: re-print it or move the lamp",
}
"""The line that marks a weak sticker, by language."""

REASONS: dict[str, dict[Reason, str]] = {
    "zh": {
        "rarely_found": "最近 {looks} 帧中只认出 {found} 帧",
        "bits_corrected": "每次读取平均要纠正 {bits} 位",
        "low_margin": "对比度低（判定余量 {margin}）",
    },
    "en": {
        "rarely_found": "found in {found} of the last {looks} frames",
        "bits_corrected": "{bits} bits corrected per reading on average",
        "low_margin": "low contrast (decision margin {margin})",
    },
}
"""Why a sticker is weak, by language."""


def describe(health: StickerHealth, label: str, lang: str) -> tuple[str, list[str]]:
    """The weak-sticker line and its reasons in ``lang`` (``zh`` or ``en``), for ``label``, the
    name printed under the sticker (``148 domino 1``)."""
    lang = lang if lang in WEAK else "en"
    figures = {
        "looks": health.looks,
        "found": health.found,
        "bits": f"{health.corrected_bits or 0:.1f}",
        "margin": f"{health.margin or 0:.0f}",
    }
    reasons = [REASONS[lang][r].format(**figures) for r in health.reasons]
    return WEAK[lang].format(label=label), reasons
