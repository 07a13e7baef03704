"""The detector on real photographs and on generated tags: recall, ids, corners, filters."""

from __future__ import annotations

import os
import re
import threading
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detect_backends import APRILTAG_PIXEL_OFFSET, RawDetection
from vision.detection import (
    Detection,
    Detector,
    DetectorConfig,
    DetectorConfigError,
    _fuse,
    default_threads,
    duplicates,
    read_image,
)
from vision.errors import ImageReadError, VisionError
from vision.preprocess import stickers_hidden

TAG36H11 = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11)


def tag_image(tag_id: int, cell: int = 10, quiet: int = 2) -> np.ndarray:
    """A printed tag36h11 with a white quiet zone, ``cell`` pixels per cell."""
    marker = cv2.aruco.generateImageMarker(TAG36H11, tag_id, 8 * cell)
    return cv2.copyMakeBorder(marker, *[quiet * cell] * 4, cv2.BORDER_CONSTANT, value=255)


def paste(canvas: np.ndarray, tile: np.ndarray, x: int, y: int) -> None:
    canvas[y : y + tile.shape[0], x : x + tile.shape[1]] = tile


def count(detector: Detector, truth: dict[Path, list[int]]) -> tuple[int, int]:
    """How many labelled tags the detector finds, and how many ids it reports that are not there."""
    found = wrong = 0
    for path, ids in truth.items():
        got = Counter(d.id for d in detector.detect(read_image(path)))
        want = Counter(ids)
        found += sum((got & want).values())
        wrong += sum((got - want).values())
    return found, wrong


def test_fused_detector_reaches_233_of_236_with_no_wrong_id(mapping_truth):
    assert sum(len(ids) for ids in mapping_truth.values()) == 236
    found, wrong = count(Detector(), mapping_truth)
    assert wrong == 0
    assert found >= 233


def test_the_extra_passes_find_what_one_plain_call_misses(apriltag_photos):
    image = read_image(apriltag_photos / "mapping_feb_2014" / "IMG_1451.JPG")
    plain = {d.id for d in Detector(DetectorConfig.plain()).detect(image)}
    fused = {d.id for d in Detector().detect(image)}
    # Tags 7 and 8 are about 16 px wide in this photograph: only the second pass decodes them.
    assert {7, 8}.isdisjoint(plain)
    assert {7, 8} <= fused
    assert plain <= fused


def read_corner_truth(path: Path) -> list[tuple[int, np.ndarray]]:
    """nasa_swarmathon's ``id, (x y), (x y), (x y), (x y)`` lines, moved to OpenCV's pixel
    coordinates: the reference was made with AprilTag, whose points lie half a pixel right of
    and below them (`vision.detect_backends.APRILTAG_PIXEL_OFFSET`)."""
    out = []
    for line in path.read_text().splitlines():
        numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", line)]
        corners = np.array(numbers[1:9]).reshape(4, 2) - APRILTAG_PIXEL_OFFSET
        out.append((int(numbers[0]), corners))
    return out


@pytest.mark.parametrize(
    "config", [DetectorConfig(), DetectorConfig.plain()], ids=["fused", "plain"]
)
def test_corners_match_the_reference_in_order_to_a_pixel(apriltag_photos, config):
    detector = Detector(config)
    errors, sides, missed, total = [], [], [], 0
    for truth_file in sorted((apriltag_photos / "nasa_swarmathon").glob("*.txt")):
        found = detector.detect(read_image(truth_file.with_suffix(".jpg")))
        for tag_id, corners in read_corner_truth(truth_file):
            total += 1
            centre = corners.mean(axis=0)
            near = [
                d for d in found if d.id == tag_id and np.hypot(*(np.array(d.center) - centre)) < 5
            ]
            if near:
                errors.append(np.linalg.norm(np.array(near[0].corners) - corners, axis=1))
                sides.append(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).min())
            else:
                missed.append((truth_file.name, centre.round()))
    # The reference was made with other settings; one 12-pixel tag far away is missed here.
    assert len(missed) <= 1, missed
    per_tag = np.array(errors)  # tags × 4 corners
    errors = np.concatenate(errors)
    assert len(errors) == 4 * (total - len(missed)) >= 4 * 20
    assert np.median(errors) < 0.6
    assert np.percentile(errors, 90) < 1.5
    # a corner list in another order would be off by a whole side (one tag's reference
    # corners are 2-5 px from where this detector and AprilTag put them: a third of its side)
    assert (per_tag < np.array(sides)[:, None] / 3).all()


def test_aruco_corners_are_given_in_apriltag_order(apriltag_photos):
    from vision.detect_backends import AprilTagBackend, ArucoBackend

    image = cv2.imread(str(apriltag_photos / "nasa_swarmathon" / "33369213973_9d9bb4cc96_c.jpg"), 0)
    april = AprilTagBackend("tag36h11", threads=1, decimation=1, quad_sigma=0, max_hamming=1)
    aruco_found, _ = ArucoBackend("tag36h11", max_hamming=1).detect(image)
    april_found = april.detect(image)
    pairs = [
        (a, b) for a in april_found for b in aruco_found if np.linalg.norm(a.center - b.center) < 3
    ]
    assert len(pairs) >= 8
    for a, b in pairs:
        assert a.id == b.id
        # cv2.aruco's corners are rougher; a list in another order would be off by a side.
        assert np.linalg.norm(a.corners - b.corners, axis=1).max() < 5


def test_a_generated_tag_is_found_with_its_id_and_place():
    canvas = np.full((300, 400), 200, np.uint8)
    paste(canvas, tag_image(42), 100, 60)  # black square from (120, 80), 80 px wide
    (d,) = Detector().detect(canvas)
    assert (d.family, d.id, d.hamming) == ("tag36h11", 42, 0)
    assert d.center == pytest.approx((159.5, 119.5), abs=0.5)
    xs, ys = zip(*d.corners, strict=True)
    assert min(xs) == pytest.approx(119.5, abs=1) and max(xs) == pytest.approx(199.5, abs=1)
    assert min(ys) == pytest.approx(79.5, abs=1) and max(ys) == pytest.approx(159.5, abs=1)


def test_grey_and_bgr_give_the_same_detections(apriltag_photos):
    path = apriltag_photos / "mapping_feb_2014" / "IMG_1368.JPG"
    bgr = read_image(path)
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    detector = Detector()
    assert detector.detect(bgr) == detector.detect(grey)
    assert detector.detect(bgr)


def test_a_tag_cut_by_the_frame_edge_is_dropped():
    from vision.detect_backends import AprilTagBackend

    canvas = np.full((200, 300), 200, np.uint8)
    paste(canvas, tag_image(5), 100, 50)  # black square x 120..199, quiet zone to 219
    whole = np.ascontiguousarray(canvas[:, :222])
    cut = np.ascontiguousarray(canvas[:, :201])  # the frame ends at the black square's edge
    assert [d.id for d in Detector().detect(whole)] == [5]
    # AprilTag still decodes the cut tag, but with its right corners a cell inside the tag.
    (raw,) = AprilTagBackend(
        "tag36h11", threads=1, decimation=1, quad_sigma=0, max_hamming=1
    ).detect(cut)
    assert raw.id == 5 and raw.corners[:, 0].max() < 197
    assert Detector().detect(cut) == []


def test_weak_decodes_are_dropped_by_the_margin_setting():
    canvas = np.full((200, 300), 200, np.uint8)
    paste(canvas, tag_image(9), 100, 50)
    (d,) = Detector(DetectorConfig.plain()).detect(canvas)
    stricter = DetectorConfig.plain(min_decision_margin=d.decision_margin + 1)
    assert Detector(stricter).detect(canvas) == []


def test_the_same_id_twice_is_reported_twice_and_flagged():
    canvas = np.full((240, 480), 200, np.uint8)
    paste(canvas, tag_image(17), 40, 60)
    paste(canvas, tag_image(17), 300, 60)
    paste(canvas, tag_image(3), 170, 60)
    found = Detector().detect(canvas)
    assert sorted(d.id for d in found) == [3, 17, 17]
    assert duplicates(found) == [("tag36h11", 17)]


def test_a_grey_frame_has_no_tags_and_bad_arrays_are_refused():
    detector = Detector()
    assert detector.detect(np.full((720, 1280), 128, np.uint8)) == []
    assert detector.detect(np.zeros((720, 1280, 3), np.uint8)) == []
    with pytest.raises(VisionError, match="empty"):
        detector.detect(np.zeros((0, 0), np.uint8))
    with pytest.raises(VisionError, match="uint8"):
        detector.detect(np.zeros((10, 10), np.float32))
    with pytest.raises(VisionError, match="grey or BGR"):
        detector.detect(np.zeros((10, 10, 2), np.uint8))


def test_noise_gives_no_false_tags():
    rng = np.random.default_rng(3)
    noise = rng.integers(0, 256, (720, 1280), dtype=np.uint8)
    blocks = cv2.resize(
        rng.integers(0, 2, (90, 160), dtype=np.uint8) * 255,
        (1280, 720),
        interpolation=cv2.INTER_NEAREST,
    )
    detector = Detector()
    assert detector.detect(noise) == []
    assert detector.detect(blocks) == []


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"families": ("tag99h1",)}, "unknown family"),
        ({"backends": ("aruco",)}, "apriltag backend is needed"),
        ({"decimation": 0.5}, "decimation"),
        ({"threads": 0}, "threads"),
        ({"max_hamming": 4}, "max_hamming"),
    ],
)
def test_bad_settings_are_refused_with_the_setting_named(changes, message):
    with pytest.raises(DetectorConfigError, match=message):
        DetectorConfig(**changes)


def test_unreadable_files_raise_image_read_error(tmp_path):
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    text = tmp_path / "notes.jpg"
    text.write_text("not a picture")
    for path, message in [
        (tmp_path / "missing.png", "no such file"),
        (empty, "empty"),
        (text, "not an image"),
    ]:
        with pytest.raises(ImageReadError, match=message):
            read_image(path)


def raw(tag_id: int, x: float, source: str, hamming: int = 0) -> RawDetection:
    corners = np.array([[x, 40.0], [x + 20, 40.0], [x + 20, 20.0], [x, 20.0]])
    return RawDetection("tag36h11", tag_id, corners, corners.mean(axis=0), 80.0, hamming, source)


def test_fusion_drops_a_place_where_passes_disagree_and_keeps_agreement():
    kept, conflicts = _fuse(
        [
            raw(4, 0, "apriltag"),
            raw(5, 1, "aruco"),  # same place, another id: nobody can tell which is right
            raw(6, 100, "apriltag+crop"),
            raw(6, 101, "aruco"),  # agreement of two passes
            raw(7, 200, "aruco"),  # cv2.aruco alone is not enough
            raw(8, 300, "apriltag+clahe", hamming=1),  # one secondary pass with a corrected bit
            raw(9, 400, "apriltag+clahe", hamming=0),  # one secondary pass, exact code
        ],
        min_margin=20,
    )
    assert conflicts == 1
    assert sorted(d.id for d in kept) == [6, 9]
    assert all(isinstance(d, Detection) for d in kept)


def test_detection_never_changes_the_callers_image(apriltag_photos):
    # AprilTag blurs or sharpens the image it is given in place when decimation is 1.
    grey = cv2.imread(str(apriltag_photos / "mapping_feb_2014" / "IMG_1451.JPG"), 0)
    before = grey.copy()
    for quad_sigma in (1.0, -1.0):
        Detector(DetectorConfig(quad_sigma=quad_sigma, decimation=1)).detect(grey)
        assert np.array_equal(grey, before)


def test_small_tags_are_found_by_the_passes_on_cv2_arucos_quads():
    from vision.synthetic import Camera, Effects, render, scattered_table

    # 10-13 mm stickers seen from 80 cm at 720p: about 14 pixels a side, under 2 per cell.
    shot = render(
        scattered_table(40, seed=2, tag_mm=(10, 13)), Camera.overhead(), Effects(noise=3, blur=0.8)
    )
    truth = Counter(t.tag_id for t in shot.truth)
    assert len(truth) == 40
    plain = Counter(d.id for d in Detector(DetectorConfig.plain()).detect(shot.image))
    fused = Counter(d.id for d in Detector().detect(shot.image))
    assert not plain - truth and not fused - truth  # no wrong id
    assert sum((plain & truth).values()) < 30
    assert sum((fused & truth).values()) >= 36


def test_threads_are_four_by_default_on_an_arm64_raspberry_pi_only(tmp_path):
    model = tmp_path / "model"
    model.write_text("Raspberry Pi 4 Model B Rev 1.4\0")
    assert default_threads("aarch64", model) == 4
    assert default_threads("x86_64", model) == 1  # a laptop keeps its other cores
    assert default_threads("aarch64", tmp_path / "absent") == 1  # another arm64 board
    other = tmp_path / "other"
    other.write_text("Pine64 RockPro64\0")
    assert default_threads("aarch64", other) == 1


def test_on_two_threads_the_reads_are_the_same_as_on_one(apriltag_photos):
    """``threads`` ≥ 2 runs AprilTag's frame pass and the second pass's crops on both threads:
    the same tags, ids and corners as on one thread (two families: each gets its own answer; a
    hard table: many crops)."""
    from vision.synthetic import Camera, Effects, render, scattered_table

    hard = render(
        scattered_table(40, seed=5, tag_mm=(10, 16)), Camera.overhead(), Effects(noise=4, blur=1)
    ).image
    folder = apriltag_photos / "mapping_feb_2014"
    images = [hard, read_image(folder / "IMG_1451.JPG"), read_image(folder / "IMG_1428.JPG")]
    families = ("tag36h11", "tag25h9")
    one = Detector(DetectorConfig(threads=1, families=families))
    two = Detector(DetectorConfig(threads=2, families=families))
    for image in images:
        alone = one.detect(image)
        assert alone, "nothing to compare"
        assert two.detect(image) == alone
    if (os.cpu_count() or 1) >= 2:  # never more threads than cores
        assert any(t.name.startswith("detector") for t in threading.enumerate())


def test_the_blurred_frame_pass_has_its_corners_fitted_to_the_edges(monkeypatch):
    """AprilTag looks for quads on the blurred frame (``quad_sigma`` 1.0); where a tag's thin
    black border meets white data cells, the blur thins the border at a corner and AprilTag's
    own edge refinement starts from a wrong line. The detector fits those corners to the edges
    again: every corner of 12 and 15 mm stickers (17 and 21 px) within a pixel of the truth,
    where without that fit some are more than a pixel off."""
    import vision.detection as detection
    from bench.vision import rig_camera, sticker_table
    from vision.synthetic import render

    camera = rig_camera(1280, 720)
    shots = [render(sticker_table(mm, camera, seed=1), camera, seed=1) for mm in (12, 15)]

    def worst_corners() -> list[float]:
        detector = Detector(DetectorConfig(threads=1))
        worst = []
        for shot in shots:
            found = {d.id: np.array(d.corners) for d in detector.detect(shot.image)}
            assert len(found) == len(shot.truth) == 32
            worst += [
                float(np.linalg.norm(found[t.tag_id] - np.array(t.corners), axis=1).max())
                for t in shot.truth
            ]
        return worst

    assert DetectorConfig().quad_sigma > 0
    assert max(worst_corners()) < 1.0
    monkeypatch.setattr(detection, "_edges_fitted", lambda grey, found: found)
    assert sum(error > 1.0 for error in worst_corners()) >= 3


def test_cv2_aruco_reports_no_quad_too_thin_to_hold_a_tag(monkeypatch):
    """A quad with a side under 6 px (under 0.75 px a cell) cannot be read; ``cv2.aruco``
    reports such slivers beside tags on a busy table, and each cost the second pass a few ms
    in vain. They are not among its quads, nor the detector's candidates; the tags are all read."""
    import vision.detect_backends as backends
    from bench.vision import EFFECTS, rig_camera
    from vision.synthetic import SessionRenderer, scattered_table

    renderer = SessionRenderer(rig_camera(1280, 720))
    frames = [  # the bench's changing table: 60 stickers, noise and a little blur
        renderer.render(scattered_table(60, seed=seed), EFFECTS, seed=i).image
        for i, seed in enumerate((21, 23))
    ]

    def shortest_sides() -> list[float]:
        aruco = backends.ArucoBackend("tag36h11", max_hamming=1)
        detector = Detector(DetectorConfig(threads=1))
        sides = []
        for frame in frames:
            assert len(detector.detect(frame)) == 60
            quads = aruco.detect(frame)[1] + detector.candidates
            sides += [float(np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1).min()) for q in quads]
        return sides

    assert all(side >= backends.MIN_QUAD_SIDE for side in shortest_sides())
    monkeypatch.setattr(backends, "MIN_QUAD_SIDE", 0.0)
    assert any(side < 6 for side in shortest_sides())


def test_stickers_the_frame_pass_read_are_hidden_from_cv2_aruco_on_an_even_ground_only():
    """`stickers_hidden` paints a read tag's sticker (black square and white margin) in the
    colour round it, so that cv2.aruco spends nothing on it again; a tag beside another is
    left as it is, or the paint would cover its neighbour."""
    from vision.preprocess import stickers_hidden

    rng = np.random.default_rng(3)
    table = np.clip(rng.normal(110, 3, (240, 480)), 0, 255).astype(np.uint8)
    alone, pair = table.copy(), table.copy()
    tile = tag_image(5, cell=3)  # 24 px black square, a 6 px white margin
    paste(alone, tile, 60, 60)
    paste(pair, tile, 60, 60)
    paste(pair, tag_image(9, cell=3), 60 + tile.shape[1], 60)  # touching on the right
    square = np.array([[66, 90], [90, 90], [90, 66], [66, 66]], np.float64)  # the black square

    hidden = stickers_hidden(alone, square[None])
    sticker = np.s_[58:98, 58:98]
    assert np.ptp(alone[sticker]) > 200  # black and white before
    assert abs(float(np.median(hidden[sticker])) - 110) < 4  # the table's colour after
    assert not cv2.aruco.ArucoDetector(TAG36H11).detectMarkers(hidden)[0]
    assert np.array_equal(stickers_hidden(pair, square[None]), pair)


def test_hiding_read_stickers_from_cv2_aruco_changes_no_read(monkeypatch):
    """On the bench's busy table (60 stickers, noise, a little blur) the detector reads the
    same tags at the same corners with the read stickers hidden from cv2.aruco as without."""
    import vision.detection as detection
    from bench.vision import EFFECTS, rig_camera
    from vision.synthetic import SessionRenderer, scattered_table

    renderer = SessionRenderer(rig_camera(1280, 720))
    frames = [
        renderer.render(scattered_table(60, seed=seed), EFFECTS, seed=i).image
        for i, seed in enumerate((21, 22))
    ]
    seen = []
    monkeypatch.setattr(
        detection,
        "stickers_hidden",
        lambda grey, quads: seen.append(len(quads)) or stickers_hidden(grey, quads),
    )
    hidden = [Detector(DetectorConfig(threads=1)).detect(f) for f in frames]
    assert seen == [60, 60]
    monkeypatch.setattr(detection, "stickers_hidden", lambda grey, quads: grey)
    shown = [Detector(DetectorConfig(threads=1)).detect(f) for f in frames]
    for a, b in zip(hidden, shown, strict=True):
        assert len(a) == 60
        assert [d.id for d in a] == [d.id for d in b]
        assert np.allclose([d.corners for d in a], [d.corners for d in b])


def test_the_edge_fit_and_the_painting_take_any_number_of_tags():
    """``cv2.remap`` takes fewer than 32,767 rows of samples: 400 quads (38,400 rows for the
    edge fit) are sampled in parts, each quad as if alone."""
    from vision.detection import _refined

    grey = np.full((720, 1280), 110, np.uint8)
    paste(grey, tag_image(5, cell=3), 60, 60)
    square = np.array([[65.5, 89.5], [89.5, 89.5], [89.5, 65.5], [65.5, 65.5]])
    others = [square + np.array([200 + 25 * (i % 40), 100 + 25 * (i // 40)]) for i in range(399)]
    alone = _refined(grey, [square])[0]
    assert np.allclose(_refined(grey, [square, *others])[0], alone)
    assert np.array_equal(
        stickers_hidden(grey, np.array([square, *others]))[50:110, 50:110],
        stickers_hidden(grey, square[None])[50:110, 50:110],
    )
