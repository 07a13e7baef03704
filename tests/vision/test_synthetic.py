"""The synthetic table renderer, checked by the real detector on the rendered pixels."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detection import Detector
from vision.synthetic import (
    Camera,
    Component,
    Effects,
    Hand,
    SyntheticError,
    SyntheticTable,
    render,
    scattered_table,
)

# apriltag-python counts pixel coordinates from the pixel's corner, the renderer (like OpenCV)
# from its centre: the two differ by half a pixel in x and y (0.71 px), so corners are compared
# within 1 px (a wrong corner order would be off by a whole tag side, 15 px or more).
CORNER_TOLERANCE_PX = 1.0


def corner_errors(rendering, detections) -> dict[int, float]:
    """Largest corner distance per id between detections and the ground truth."""
    truth = rendering.truth_by_id()
    return {
        d.id: float(np.max(np.hypot(*(np.array(d.corners) - truth[d.id].corners).T)))
        for d in detections
        if d.id in truth
    }


@pytest.mark.parametrize("rotation", [0.0, 33.0, 90.0, 211.0])
def test_found_at_the_ground_truth_corners_in_every_turn(rotation: float) -> None:
    table = SyntheticTable(
        components=(
            Component(tag_id=5, x_mm=450, y_mm=300, rotation_deg=rotation, tag_mm=25),
            Component(tag_id=300, x_mm=150, y_mm=120, rotation_deg=rotation, tag_mm=14),
        )
    )
    shot = render(table, Camera.overhead())
    found = Detector().detect(shot.image)
    assert [d.id for d in found] == [5, 300]
    errors = corner_errors(shot, found)
    assert max(errors.values()) < CORNER_TOLERANCE_PX, errors


def test_sixty_tags_at_1080p_all_found_and_nothing_else() -> None:
    table = scattered_table(60, seed=4, first_id=100)
    shot = render(table, Camera.overhead(1920, 1080))
    assert len(shot.truth) == 60
    found = Detector().detect(shot.image)
    assert sorted(d.id for d in found) == list(range(100, 160))
    assert max(corner_errors(shot, found).values()) < CORNER_TOLERANCE_PX


def test_tilted_and_turned_camera_keeps_the_truth_exact() -> None:
    table = scattered_table(12, seed=2)
    camera = Camera.overhead(tilt_deg=12, yaw_deg=20, height_mm=900)
    shot = render(table, camera)
    found = Detector().detect(shot.image)
    assert {d.id for d in found} == {t.tag_id for t in shot.truth}
    assert max(corner_errors(shot, found).values()) < CORNER_TOLERANCE_PX


def test_imperfections_change_the_pixels_but_tags_stay_readable() -> None:
    table = scattered_table(20, seed=3)
    clean = render(table, Camera.overhead())
    rough = render(
        table,
        Camera.overhead(),
        Effects(blur=0.8, noise=6, uneven_light=0.4, jpeg_quality=70, motion_blur=2.5),
        seed=1,
    )
    assert np.mean(np.abs(clean.image.astype(int) - rough.image.astype(int))) > 5
    found = {d.id for d in Detector().detect(rough.image)}
    assert found <= {t.tag_id for t in rough.truth}
    assert len(found) >= 18


def test_glare_brightens_its_spot() -> None:
    table = SyntheticTable()
    plain = render(table, Camera.overhead())
    glare = render(table, Camera.overhead(), Effects(glare=0.8, glare_at=(0.5, 0.5)))
    centre = (slice(350, 370), slice(630, 650))
    assert glare.image[centre].mean() > plain.image[centre].mean() + 100


def test_same_seed_same_noise_other_seed_other_noise() -> None:
    table = scattered_table(4, seed=0)
    fx = Effects(noise=8)
    a, b = (
        render(table, Camera.overhead(), fx, seed=1),
        render(table, Camera.overhead(), fx, seed=1),
    )
    c = render(table, Camera.overhead(), fx, seed=2)
    assert np.array_equal(a.image, b.image)
    assert not np.array_equal(a.image, c.image)


def test_a_hand_hides_the_tags_under_it_from_truth_and_detector() -> None:
    table = SyntheticTable(
        components=(
            Component(tag_id=1, x_mm=300, y_mm=300),
            Component(tag_id=2, x_mm=600, y_mm=300),
        )
    )
    hand = Hand(x_mm=300, y_mm=300, arm_to_mm=(300, 700))
    shot = render(table, Camera.overhead(), Effects(hands=(hand,)))
    assert [t.tag_id for t in shot.truth] == [2]
    assert shot.hidden == (1,)
    assert [d.id for d in Detector().detect(shot.image)] == [2]


def test_a_tag_cut_by_the_frame_edge_is_not_in_the_truth() -> None:
    camera = Camera.overhead()
    edge_x = 450 - 800 * np.tan(np.radians(33))  # table x of the frame's left edge
    table = SyntheticTable(components=(Component(tag_id=9, x_mm=edge_x, y_mm=300),))
    shot = render(table, camera)
    assert shot.truth == ()
    assert shot.hidden == (9,)


@pytest.mark.parametrize(
    "make",
    [
        lambda: Component(tag_id=587, x_mm=0, y_mm=0),
        lambda: Component(tag_id=1, x_mm=0, y_mm=0, tag_mm=0),
        lambda: Camera.overhead(hfov_deg=0),
        lambda: scattered_table(500),
    ],
    ids=["unknown id", "zero size", "no field of view", "too many tags"],
)
def test_impossible_scenes_are_refused_with_a_message(make) -> None:
    with pytest.raises(SyntheticError):
        make()


def test_look_alike_print_is_drawn_and_is_no_tag() -> None:
    from vision.synthetic import DECOY_KINDS, Decoy

    decoys = tuple(
        Decoy(kind, x_mm=150 + 200 * i, y_mm=300, size_mm=40, rotation_deg=15 * i, seed=i)
        for i, kind in enumerate(DECOY_KINDS)
    )
    shot = render(SyntheticTable(decoys=decoys), Camera.overhead(), Effects(noise=2))
    grey = shot.image.mean(axis=2)
    camera = Camera.overhead()
    for decoy in decoys:
        x, y = np.round(camera.project(np.array([[decoy.x_mm, decoy.y_mm]]))[0]).astype(int)
        patch = grey[y - 15 : y + 16, x - 15 : x + 16]
        assert patch.min() < 60 and patch.max() > 200  # black print on white paper
    assert shot.truth == () and Detector().detect(shot.image) == []
    with pytest.raises(SyntheticError, match="decoy kind"):
        Decoy("qr", 0, 0)


def test_the_session_renderer_gives_renders_truth_and_its_grey(tmp_path) -> None:
    from vision.synthetic import SessionRenderer

    camera = Camera.overhead(640, 360)
    table = scattered_table(12, seed=2)
    hand = Hand(x_mm=450, y_mm=300, arm_to_mm=(450, 700))
    fast = SessionRenderer(camera).render(table, Effects(hands=(hand,)))
    slow = render(table, camera, Effects(hands=(hand,)))
    assert fast.image.shape == (360, 640)
    assert [t.tag_id for t in fast.truth] == [t.tag_id for t in slow.truth]
    assert fast.hidden == slow.hidden and fast.hidden  # the hand covers some tags
    grey = slow.image @ np.array([0.114, 0.587, 0.299])
    assert np.abs(fast.image.astype(float) - grey).mean() < 3
    assert {d.id for d in Detector().detect(fast.image)} == {t.tag_id for t in fast.truth}


def test_exposure_scales_the_light() -> None:
    table = SyntheticTable((Component(tag_id=3, x_mm=450, y_mm=300),))
    bright = render(table, Camera.overhead(), Effects(exposure=1.0)).image.astype(float)
    dim = render(table, Camera.overhead(), Effects(exposure=0.5)).image.astype(float)
    assert dim.mean() == pytest.approx(bright.mean() / 2, rel=0.02)
