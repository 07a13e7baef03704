"""The soft decoder on the project's own renders: small stickers in hard light read in one frame,
no look-alike print read as a tag, and each read at the tag's own corners."""

from __future__ import annotations

from itertools import islice

import cv2
import numpy as np

from bench import vision_layouts
from bench.vision import HARD, decoy_table, rig_camera, sticker_table
from bench.vision_scan import anchors
from vision.detection import Detector, DetectorConfig
from vision.soft_decoder import SoftDecoder
from vision.synthetic import Component, SessionRenderer, SyntheticTable, render

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
    # 30 frames of framed random cells, chessboards, text and blocks in hard light: with a
    # lower bar (lead 0.5, no match over the data cells) the decoder read prints in 7 of them
    # as tags 191 and 544 (a dark blob in a frame; a random pattern a few cells from a code).
    renderer = SessionRenderer(CAMERA)
    table = decoy_table(CAMERA, 0)
    detector = Detector()
    looked = 0
    for i in range(30):
        assert detector.detect(renderer.render(table, HARD, seed=i).image) == []
        looked += len(detector.candidates)
    assert looked >= 30 * 10  # the print gave the passes look-alike quads to try


def test_a_read_gives_the_tags_corners_in_order() -> None:
    shot = render(sticker_table(12, CAMERA, 4), CAMERA, HARD, seed=4)
    truth = {t.tag_id: np.asarray(t.corners) for t in shot.truth}
    found = Detector(DetectorConfig(frame_pass=False)).detect(shot.image)
    assert len(found) >= 0.85 * len(truth)
    for d in found:
        error = np.abs(np.asarray(d.corners) - truth[d.id]).max()
        assert error < 1.5, (d.id, error)


def test_a_quad_listed_the_other_way_round_reads_the_same() -> None:
    # The detector's candidates come in cv2.aruco's order (clockwise) and in AprilTag's
    # (the other way round); read mirrored, a quad would give no tag or another one.
    shot = render(sticker_table(22, CAMERA, 2), CAMERA, HARD, seed=2)
    grey = cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY)
    decoder = SoftDecoder(cv2.aruco.DICT_APRILTAG_36h11)
    quads = [np.asarray(t.corners, np.float64) for t in shot.truth]  # AprilTag's order
    ids = [t.tag_id for t in shot.truth]
    for given in (quads, [q[::-1] for q in quads]):
        reads = decoder.read(grey, given)
        assert [r.id if r else None for r in reads] == ids


def test_a_small_token_under_defocus_is_read_once_its_outline_and_blur_are_fitted() -> None:
    # Issue #39's sweep: Stonesaga's 12 mm ore token 421 (about 18 px at 1920×1080, 1.5 px of
    # defocus) was read in 2 of these 30 frames: the searched outlines matched its code only
    # 0.91-0.95, and tag 98 close behind, so the read was refused. Its outline and blur fitted,
    # the code matches 0.999 and leads by far.
    camera = vision_layouts.RIGS[0].camera(1920, 1080)
    detector = Detector()
    reads = 0
    for angle in (30, 45, 60):
        token = Component(421, 330, 440, angle, 12, body_mm=(22, 22))
        scene = SyntheticTable((*anchors(), token))
        truth = {c.tag_id for c in scene.components}
        frames = vision_layouts.frames_of(SessionRenderer(camera), scene, "defocus", 3, ())
        for image, _ in islice(frames, 10):
            ids = {d.id for d in detector.detect(image)}
            assert ids <= truth  # never a wrong id
            reads += 421 in ids
    assert reads >= 20
