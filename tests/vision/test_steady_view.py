"""`steady_view`: what a run of frames shows together (`tablesight scan` of a camera or a
video), through the real detector on rendered frames."""

from __future__ import annotations

import numpy as np

from vision.detection import Detector
from vision.stabiliser import steady_view
from vision.synthetic import Camera, Component, Effects, SyntheticTable, render

CAMERA = Camera.overhead(640, 480, height_mm=400, over_mm=(300, 200))
STAYS, LIFTED, LATE = 148, 150, 152


def frame(ids: tuple[int, ...], seed: int) -> np.ndarray:
    places = {STAYS: (220, 200), LIFTED: (300, 200), LATE: (380, 200)}
    table = SyntheticTable(tuple(Component(i, *places[i], 10 * i % 90, 20) for i in ids))
    return render(table, CAMERA, Effects(noise=2, blur=0.5), seed=seed).image


def test_a_tag_lifted_or_read_once_is_left_out_and_places_are_medians() -> None:
    """Six frames 200 ms apart: one tag all along, one lifted after the third frame (its place
    then bare), one put down in the last frame only (read once: not enough)."""
    shown = [(STAYS, LIFTED)] * 3 + [(STAYS,)] * 2 + [(STAYS, LATE)]
    frames = [(frame(ids, seed), 200.0 * seed) for seed, ids in enumerate(shown)]
    detector = Detector()

    def detect(image: np.ndarray):
        return detector.detect(image), list(detector.candidates)

    view = steady_view(frames, detect)
    assert [d.id for d in view.detections] == [STAYS]
    assert view.frames == 6 and view.reads == {STAYS: 6}
    truth = render(SyntheticTable((Component(STAYS, 220, 200, 10 * STAYS % 90, 20),)), CAMERA)
    (corners,) = [t.corners for t in truth.truth]
    assert np.abs(np.array(view.detections[0].corners) - np.array(corners)).max() < 1.0
    assert view.best in range(6)


def test_an_unread_quad_says_in_how_many_frames_it_showed() -> None:
    """A quad at one place in every frame (a sticker no frame read) and quads that show once
    each at another place (a hand's edge passing): the first counts every frame, each of the
    others one; a reader of pieces that were not read takes only the first
    (`vision.readers.frames.frame_detections`: in at least half of the frames)."""
    from vision.readers.frames import frame_detections

    still = np.array([[100, 100], [120, 100], [120, 120], [100, 120]], np.float64)
    passing = [still + np.array([40.0 * (i + 1), 0.0]) for i in range(6)]
    blank = np.zeros((240, 320), np.uint8)

    frames = iter(range(6))

    def detect(image: np.ndarray):
        return [], [still, passing[next(frames)]]

    view = steady_view(((blank, 200.0 * i) for i in range(6)), detect)
    assert view.unread_frames == [6, 1, 1, 1, 1, 1, 1]
    (kept,) = frame_detections(None, view, (320, 240)).unread
    assert np.array_equal(kept, still)
