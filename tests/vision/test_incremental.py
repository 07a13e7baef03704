"""The incremental detector against full detection, on rendered tables through the real detector."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from vision.detection import Detector
from vision.incremental import IncrementalConfig, IncrementalConfigError, IncrementalDetector
from vision.synthetic import Camera, Component, Effects, Hand, render, scattered_table

CAMERA = Camera.overhead()
NOISY = Effects(noise=3.0, blur=0.6)


@pytest.fixture(scope="module")
def detector() -> Detector:
    return Detector()


@pytest.fixture(scope="module")
def table():
    return scattered_table(30, seed=4)


def ids(detections) -> list[int]:
    return [d.id for d in detections]


def assert_same(got, want, tolerance: float = 0.05) -> None:
    """Same tags in the same order, corners within ``tolerance`` pixels."""
    assert ids(got) == ids(want)
    for a, b in zip(got, want, strict=True):
        assert np.abs(np.array(a.corners) - np.array(b.corners)).max() <= tolerance


def test_a_static_table_gives_exactly_the_full_detection(detector, table):
    frame = render(table, CAMERA, NOISY, seed=0).image
    full = detector.detect(frame)
    assert len(full) == 30
    incremental = IncrementalDetector(detector, IncrementalConfig(rescan_every=4))
    modes = []
    for _ in range(6):
        assert incremental.detect(frame) == full
        modes.append(incremental.last_mode)
    assert modes == ["full", "unchanged", "unchanged", "unchanged", "full", "unchanged"]


def test_sensor_noise_alone_is_not_change(detector, table):
    incremental = IncrementalDetector(detector)
    first = incremental.detect(render(table, CAMERA, NOISY, seed=1).image)
    for seed in (2, 3):
        frame = render(table, CAMERA, NOISY, seed=seed).image
        assert incremental.detect(frame) == first
        assert incremental.last_mode == "unchanged"
        assert ids(detector.detect(frame)) == ids(first)


def test_moved_added_and_removed_tags_match_a_full_detection(detector, table):
    incremental = IncrementalDetector(detector)
    incremental.detect(render(table, CAMERA, NOISY, seed=5).image)
    parts = list(table.components)
    removed = parts.pop(0)
    parts[3] = dataclasses.replace(parts[3], x_mm=parts[3].x_mm + 12, rotation_deg=20)
    parts.append(Component(tag_id=400, x_mm=460, y_mm=310, tag_mm=25))
    changed = dataclasses.replace(table, components=tuple(parts))
    frame = render(changed, CAMERA, NOISY, seed=6).image
    got = incremental.detect(frame)
    assert incremental.last_mode == "partial"
    area = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in incremental.last_regions)
    assert 0 < area < 0.25 * frame.shape[0] * frame.shape[1]
    assert removed.tag_id not in ids(got) and 400 in ids(got)
    assert_same(got, detector.detect(frame))


def test_a_hand_hides_tags_and_they_come_back_when_it_leaves(detector, table):
    incremental = IncrementalDetector(detector)
    clear = render(table, CAMERA, NOISY, seed=7).image
    before = incremental.detect(clear)
    target = table.components[10]
    hand = Hand(x_mm=target.x_mm, y_mm=target.y_mm, radius_mm=(70, 50))
    covered = render(table, CAMERA, dataclasses.replace(NOISY, hands=(hand,)), seed=8)
    during = incremental.detect(covered.image)
    assert incremental.last_mode == "partial"
    assert target.tag_id in covered.hidden and target.tag_id not in ids(during)
    assert_same(during, detector.detect(covered.image))
    after = incremental.detect(render(table, CAMERA, NOISY, seed=9).image)
    assert ids(after) == ids(before)


def test_a_slow_drift_adds_up_until_it_counts(detector):
    frame = np.full((240, 320), 100, np.uint8)
    incremental = IncrementalDetector(detector, IncrementalConfig(threshold=6))
    incremental.detect(frame)
    modes, regions = [], []
    for step in range(1, 6):
        frame = frame.copy()
        frame[:, :80] = 100 + 2 * step  # a quarter of the frame, 2 grey levels a frame
        incremental.detect(frame)
        modes.append(incremental.last_mode)
        regions.append(incremental.last_regions)
    # Each frame differs from the last by 2, but by 8 from the one last detected.
    assert modes[:3] == ["unchanged", "unchanged", "unchanged"]
    assert modes[3] == "partial"
    assert regions[3] == [(0, 0, 80 + 24, 240)]


def test_a_lamp_that_flickers_is_not_change(detector, table):
    # The renderer's paper is pure white (255), which a brighter frame cannot brighten: the
    # lamp dims. A camera that clips its whites sees the same change only darker.
    incremental = IncrementalDetector(detector)
    first = incremental.detect(render(table, CAMERA, NOISY, seed=0).image)
    for i, exposure in enumerate((0.85, 0.95, 0.8, 0.9), start=1):
        lit = dataclasses.replace(NOISY, exposure=exposure)
        assert incremental.detect(render(table, CAMERA, lit, seed=i).image) == first
        assert incremental.last_mode == "unchanged"


def test_a_frame_of_another_size_is_detected_in_full(detector):
    incremental = IncrementalDetector(detector)
    incremental.detect(np.full((240, 320), 100, np.uint8))
    incremental.detect(np.full((480, 640), 100, np.uint8))
    assert incremental.last_mode == "full"


def test_bad_settings_are_refused():
    with pytest.raises(IncrementalConfigError):
        IncrementalConfig(rescan_every=0)
    with pytest.raises(IncrementalConfigError):
        IncrementalConfig(full_fraction=0)


def test_a_frame_size_that_cells_do_not_divide(detector, table):
    camera = Camera.overhead(1277, 717)  # 8-pixel cells do not divide either side
    incremental = IncrementalDetector(detector)
    incremental.detect(render(table, camera, NOISY, seed=10).image)
    parts = list(table.components)
    last = parts[-1]  # at the bottom right, where rounding errors would add up
    parts[-1] = dataclasses.replace(last, x_mm=last.x_mm - 10, rotation_deg=last.rotation_deg + 30)
    frame = render(
        dataclasses.replace(table, components=tuple(parts)), camera, NOISY, seed=11
    ).image
    got = incremental.detect(frame)
    assert incremental.last_mode == "partial"
    assert_same(got, detector.detect(frame))
