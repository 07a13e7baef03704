"""Sticker health through the real detector: a worn (partly erased) sticker and a scratched one
among clean ones, on rendered frames with sensor noise."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detection import Detection, Detector
from vision.health import (
    HealthConfig,
    HealthConfigError,
    HealthMonitor,
    describe,
    looked_regions,
    monitor_for,
)
from vision.incremental import IncrementalDetector
from vision.synthetic import Camera, Component, Effects, Table, TagTruth, render

CAMERA = Camera.overhead(1280, 720, height_mm=800)
CLEAN = (100, 101, 103)
WORN = 102  # a band of cells faded most of the way to paper white
SCRATCHED = 104  # one data cell wholly erased: the decoder must correct a bit to read it
TABLE = Table(tuple(Component(100 + i, 200 + 120 * i, 300, 15 * i, 16) for i in range(5)))


def erase(image: np.ndarray, truth: TagTruth, cells: list[tuple[int, int]], fade: float):
    """Fade ``cells`` (column, row of the tag's 8 × 8 black square) towards white by ``fade``."""
    square = np.float32([[0, 8], [8, 8], [8, 0], [0, 0]])  # the detector's corner order
    to_image = cv2.getPerspectiveTransform(square, np.float32(truth.corners))
    mask = np.zeros(image.shape[:2], np.float32)
    for c, r in cells:
        quad = np.float32([[[c, r], [c + 1, r], [c + 1, r + 1], [c, r + 1]]])
        corners = cv2.perspectiveTransform(quad, to_image)[0]
        cv2.fillConvexPoly(mask, np.round(corners * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    mask = cv2.GaussianBlur(mask, (0, 0), 0.7)[..., None] * fade
    return np.clip(image * (1 - mask) + 235 * mask, 0, 255).astype(np.uint8)


def frames(count: int):
    """Rendered frames of the still table (fresh sensor noise each) with the two damaged tags."""
    for seed in range(count):
        shot = render(TABLE, CAMERA, Effects(noise=6, blur=0.8), seed=seed)
        truth = shot.truth_by_id()
        image = erase(shot.image, truth[WORN], [(c, 3) for c in range(1, 7)], 0.68)
        # Every inner cell of a row: at least one of them is black, so a bit is lost.
        image = erase(image, truth[SCRATCHED], [(c, 2) for c in range(2, 3)], 1.0)
        yield seed * 100.0, image


@pytest.fixture(scope="module")
def seen() -> list[tuple[float, list[Detection]]]:
    detector = Detector()
    return [(ms, detector.detect(image)) for ms, image in frames(24)]


def test_the_worn_and_the_scratched_stickers_are_weak_and_the_clean_ones_not(seen) -> None:
    monitor = HealthMonitor()
    for ms, found in seen:
        monitor.observe(found, ms)
    health = {h.tag_id: h for h in monitor.report()}
    assert set(health) == {*CLEAN, WORN, SCRATCHED}
    for tag in CLEAN:
        assert health[tag].looks == 24 and health[tag].found == 24
        assert not health[tag].weak and health[tag].corrected_bits == 0
    worn = health[WORN]
    # The figures, counted here from the detections themselves: a tag is known from the first
    # frame that finds it.
    hits = [any(d.id == WORN for d in f) for _, f in seen]
    assert worn.looks == 24 - hits.index(True) and worn.found == sum(hits)
    assert worn.found < 0.9 * worn.looks
    assert worn.weak and "rarely_found" in worn.reasons
    scratched = health[SCRATCHED]
    assert scratched.found == 24 and scratched.corrected_bits >= 0.5
    assert scratched.reasons == ("bits_corrected",)
    margins = sorted(d.decision_margin for _, f in seen for d in f if d.id == SCRATCHED)
    assert scratched.margin == pytest.approx((margins[11] + margins[12]) / 2)


def test_the_weak_line_names_the_sticker_in_both_languages(seen) -> None:
    monitor = HealthMonitor()
    for ms, found in seen:
        monitor.observe(found, ms)
    worn = next(h for h in monitor.report() if h.tag_id == WORN)
    zh, zh_reasons = describe(worn, "102 wisp 3", "zh")
    en, en_reasons = describe(worn, "102 wisp 3", "en")
    assert zh == "贴纸「102 wisp 3」读得不稳：重新打印或移动灯光"
    assert en == "Sticker “102 wisp 3” reads poorly: re-print it or move the lamp"
    assert en_reasons[0] == f"found in {worn.found} of the last {worn.looks} frames"
    assert zh_reasons[0] == f"最近 {worn.looks} 帧中只认出 {worn.found} 帧"


def test_too_few_looks_give_no_verdict_and_a_tag_that_left_is_forgotten(seen) -> None:
    monitor = HealthMonitor(HealthConfig(min_looks=10, gone_ms=1000))
    for ms, found in seen[:5]:
        monitor.observe(found, ms)
    assert not any(h.weak for h in monitor.report())  # five looks: no verdict yet
    without = [d for d in seen[5][1] if d.id != 100]
    monitor.observe(without, 600)
    assert next(h for h in monitor.report() if h.tag_id == 100).found == 5
    monitor.observe(without, 1500)  # 1000 ms after it was last found (at 500): gone
    assert 100 not in {h.tag_id for h in monitor.report()}


def test_frames_where_the_detector_did_not_look_add_nothing(seen) -> None:
    monitor = HealthMonitor()
    found = seen[0][1]
    monitor.observe(found, 0)
    monitor.observe(found, 100, looked=[])  # unchanged: the same detections, not a new look
    tag_101 = next(d for d in found if d.id == 101)
    x, y = (round(v) for v in tag_101.center)
    box = (x - 30, y - 30, x + 30, y + 30)
    monitor.observe([d for d in found if d.id != 101], 200, looked=[box])  # looked only there
    health = {h.tag_id: h for h in monitor.report()}
    assert health[101].looks == 2 and health[101].found == 1
    assert health[100].looks == 1  # outside the region: not looked at again


def test_an_incremental_detector_says_where_it_looked() -> None:
    incremental = IncrementalDetector(Detector())
    _, image = next(frames(1))
    incremental.detect(image)
    assert looked_regions(incremental) is None  # the first frame is read whole
    incremental.detect(image)
    assert looked_regions(incremental) == []  # nothing changed
    assert looked_regions(Detector()) is None


def test_one_monitor_per_table_and_bad_settings_refused() -> None:
    class Owner:
        pass

    a, b = Owner(), Owner()
    assert monitor_for(a) is monitor_for(a) and monitor_for(a) is not monitor_for(b)
    with pytest.raises(HealthConfigError):
        HealthConfig(window=5, min_looks=10)
