"""Sticker health through the real detector: a worn (partly erased) sticker and a scratched one
among clean ones, on rendered frames with sensor noise."""

from __future__ import annotations

import pytest
from worn_stickers import worn_frames

from vision.detection import Detection, Detector
from vision.health import (
    HealthConfig,
    HealthConfigError,
    HealthMonitor,
    describe,
    looked_regions,
    monitor_for,
    sticker_label,
)
from vision.incremental import IncrementalDetector
from vision.registry import load_registry

CLEAN = (100, 101, 103)
WORN = 102  # a band of cells faded most of the way to paper white
SCRATCHED = 104  # one data cell wholly erased: the decoder must correct a bit to read it
IDS = (100, 101, 102, 103, 104)


def frames(count: int):
    return worn_frames(IDS, WORN, SCRATCHED, count)


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
    entry = load_registry().lookup(WORN)
    zh, zh_reasons = describe(worn, sticker_label(WORN, entry, "zh"), "zh")
    en, en_reasons = describe(worn, sticker_label(WORN, entry, "en"), "en")
    assert zh == "贴纸 102（版图）读得不稳：重新打印或移动灯光"  # a submarine board's tag
    assert en == "Sticker “102 submarine board 1 back” reads poorly: re-print it or move the lamp"
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


def test_a_tag_handed_on_from_the_previous_frame_is_not_a_new_reading(seen) -> None:
    monitor = HealthMonitor()
    first = seen[0][1]
    monitor.observe(first, 0)
    # A cache (the incremental detector's memory) hands on the same objects though its new pass
    # read nothing: a look at the whole frame that found none of them.
    monitor.observe(list(first), 100)
    health = {h.tag_id: h for h in monitor.report()}
    assert all(h.looks == 2 and h.found == 1 for h in health.values())
    monitor.observe(seen[1][1], 200)  # a fresh pass: new readings
    assert all(h.found == 2 for h in monitor.report() if h.tag_id in CLEAN)


def test_a_sticker_the_detector_kept_without_reading_it_is_not_counted_as_read(seen) -> None:
    """The incremental detector hands back a tag a hand hid, unread, when its place looks as it
    did (``last_kept``): that frame must count as a miss where it looked, not as a new read."""
    monitor = HealthMonitor()
    found = seen[0][1]
    monitor.observe(found, 0)
    monitor.observe([d for d in found if d.id != 101], 100)  # a hand over 101: missed
    back = next(d for d in found if d.id == 101)  # the very detection, brought back unread
    monitor.observe([*(d for d in found if d.id != 101), back], 200, kept=[back])
    health = {h.tag_id: h for h in monitor.report()}
    assert health[101].looks == 3 and health[101].found == 1
