"""The soft decoder on the project's own renders: small stickers in hard light read in one frame,
no look-alike print read as a tag, and each read at the tag's own corners."""

from __future__ import annotations

import cv2
import numpy as np

from bench.vision import HARD, decoy_table, rig_camera, sticker_table
from vision.detection import Detector, DetectorConfig
from vision.soft_decoder import SoftDecoder
from vision.synthetic import render

CAMERA = rig_camera(1280, 720)


def test_ten_millimetre_stickers_in_hard_light_are_read_in_one_frame() -> None:
    # 10 mm at 1280×720 over a 90 cm table: 14 px, defocused, moving, noisy, JPEG 60, glare.
    shot = render(sticker_table(10, CAMERA, 3), CAMERA, HARD, seed=3)
    truth = {t.tag_id for t in shot.truth}
    with_soft = {d.id for d in Detector().detect(shot.image)}
    without = {d.id for d in Detector(DetectorConfig(soft_pass=False)).detect(shot.image)}
    assert with_soft <= truth and without <= truth  # no wrong id either way
    assert len(with_soft) >= 0.85 * len(truth)
    assert len(without) < 0.7 * len(truth)  # what the bit-wise passes alone read


def test_look_alike_print_is_never_read() -> None:
    decoder = SoftDecoder(cv2.aruco.DICT_APRILTAG_36h11)
    aruco = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11),
        cv2.aruco.DetectorParameters(),
    )
    quads = 0
    for seed in range(3):
        shot = render(decoy_table(CAMERA, seed), CAMERA, HARD, seed=seed)
        grey = cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY)
        _, _, rejected = aruco.detectMarkers(grey)
        found = [np.asarray(q, np.float64).reshape(4, 2) for q in rejected]
        quads += len(found)
        assert [r for r in decoder.search(grey, found) if r is not None] == []
    assert quads >= 30  # the print did give the decoder look-alike quads to try


def test_a_read_gives_the_tags_corners_in_order() -> None:
    shot = render(sticker_table(12, CAMERA, 4), CAMERA, HARD, seed=4)
    truth = {t.tag_id: np.asarray(t.corners) for t in shot.truth}
    found = Detector(DetectorConfig(frame_pass=False)).detect(shot.image)
    assert len(found) >= 0.85 * len(truth)
    for d in found:
        error = np.abs(np.asarray(d.corners) - truth[d.id]).max()
        assert error < 1.5, (d.id, error)
