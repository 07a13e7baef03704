"""A shaking camera: the incremental detector undoes the camera's shift and small turn.

Rendered through the project's generator at 640×360 with the camera moved by up to about two
pixels and turned by up to 0.2° between frames; nothing here times anything.
"""

from __future__ import annotations

import numpy as np
import pytest

from bench.vision import GOOD, TABLE_MM, rig_camera, sticker_table
from vision.detection import Detector
from vision.incremental import IncrementalConfig, IncrementalDetector
from vision.synthetic import Camera, render

WIDTH, HEIGHT = 640, 360
HFOV = 2 * float(np.degrees(np.arctan(TABLE_MM / 2 / 800)))
TABLE = sticker_table(30, rig_camera(WIDTH, HEIGHT), 3, count=16)


def shaken(dx_mm: float, dy_mm: float, turn_deg: float) -> Camera:
    """The rig's camera moved by (dx, dy) mm over the table and turned by ``turn_deg``."""
    return Camera.overhead(
        WIDTH,
        HEIGHT,
        height_mm=800,
        over_mm=(450 + dx_mm, 300 + dy_mm),
        hfov_deg=HFOV,
        yaw_deg=turn_deg,
    )


@pytest.fixture(scope="module")
def shots():
    rng = np.random.default_rng(4)
    moves = [(0.0, 0.0, 0.0)] + [
        (
            float(rng.uniform(-2.5, 2.5)),
            float(rng.uniform(-2.5, 2.5)),
            float(rng.uniform(-0.2, 0.2)),
        )
        for _ in range(7)
    ]
    return [render(TABLE, shaken(*move), GOOD, seed=i) for i, move in enumerate(moves)]


def test_a_shaking_camera_is_no_change_and_the_tags_follow_it(shots):
    incremental = IncrementalDetector(Detector())
    for i, shot in enumerate(shots):
        found = {d.id: np.array(d.center) for d in incremental.detect(shot.image)}
        truth = {t.tag_id: np.array(t.center) for t in shot.truth}
        assert found.keys() == truth.keys()
        # At this frame's place of each tag (the detector itself is 0.8 px from the truth here),
        # not at the first frame's (up to 2.5 px away).
        assert max(np.hypot(*(found[k] - truth[k])) for k in truth) < 1.25
        if i == 0:
            assert incremental.last_mode == "full"
            continue
        assert incremental.last_shift > 0.3  # the camera moved, and the move was measured
        assert incremental.last_mode != "full"
        looked = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in incremental.last_regions)
        assert looked < 0.25 * WIDTH * HEIGHT  # a few tags detected again, not the frame


def test_a_still_camera_is_not_moved(shots):
    incremental = IncrementalDetector(Detector())
    first = incremental.detect(shots[0].image)
    again = render(TABLE, shaken(0, 0, 0), GOOD, seed=20)
    assert incremental.detect(again.image) == first
    assert incremental.last_shift < 0.3


def test_a_jump_beyond_max_shift_starts_again(shots):
    incremental = IncrementalDetector(Detector(), IncrementalConfig(max_shift=1.0))
    incremental.detect(shots[0].image)
    jumped = render(TABLE, shaken(4, 0, 0), GOOD, seed=21)  # about 3 px
    found = incremental.detect(jumped.image)
    assert incremental.last_mode == "full"
    assert {d.id for d in found} == {t.tag_id for t in jumped.truth}
