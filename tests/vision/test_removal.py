"""Gone means gone, quickly; covered means covered: rendered sequences through the real detector
and the stabiliser, which looks at the place of each sticker it misses (`vision.places`).

Frames are small (640×360) and grey, rendered by the project's `SessionRenderer`; the stickers
are 30 mm (21 px) under defocus, motion, noise, uneven light, glare and JPEG. Nothing is timed:
the times checked are the frames' own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np
import pytest

from vision.detection import Detector
from vision.incremental import IncrementalDetector
from vision.places import look, remember
from vision.stabiliser import Observation, Stabiliser
from vision.synthetic import Camera, Component, Effects, Hand, SessionRenderer, SyntheticTable

CAMERA = Camera.overhead(640, 360, height_mm=800, over_mm=(450, 300), hfov_deg=58.7)
HARD = Effects(
    blur=0.8, motion_blur=2, motion_angle_deg=30, noise=5, uneven_light=0.4, glare=0.5,
    jpeg_quality=70,
)  # fmt: skip
STICKERS = tuple(
    Component(100 + i, 150 + 200 * (i % 4), 200 + 200 * (i // 4), 37 * i, 30) for i in range(8)
)
Scene = Callable[[int], tuple[SyntheticTable, Effects]]


@pytest.fixture(scope="module")
def renderer() -> SessionRenderer:
    return SessionRenderer(CAMERA, layouts=4)


@pytest.fixture(scope="module")
def detector() -> Detector:
    return Detector()


def play(
    renderer: SessionRenderer, detector: Detector, scene: Scene, frames: int, fps: float = 30
) -> tuple[list[Observation], list[set[int]]]:
    """Every observation of ``frames`` frames of ``scene`` and the ids each frame really shows."""
    pipeline, stabiliser = IncrementalDetector(detector), Stabiliser()
    out, shown = [], []
    for i in range(frames):
        table, effects = scene(i)
        shot = renderer.render(table, effects, seed=i)
        out += stabiliser.update(pipeline.detect(shot.image), i * 1000 / fps, shot.image)
        shown.append({c.tag_id for c in table.components})
    return out, shown


def check_adds(out: list[Observation], within_ms: float = 1000) -> None:
    """Every sticker added once, within ``within_ms``, and nothing else (no ghost, no wrong id)."""
    adds = [(o.tag_id, o.timestamp_ms) for o in out if o.kind == "add"]
    assert sorted(tag for tag, _ in adds) == [c.tag_id for c in STICKERS]
    assert max(ms for _, ms in adds) <= within_ms
    assert [o for o in out if o.kind in ("update", "duplicate")] == []


def test_a_sticker_taken_from_a_bare_place_is_removed_within_half_a_second(renderer, detector):
    gone = {101, 106}
    taken_at = 30  # one second in

    def scene(i: int) -> tuple[SyntheticTable, Effects]:
        left = tuple(c for c in STICKERS if i < taken_at or c.tag_id not in gone)
        return SyntheticTable(left), HARD

    out, _ = play(renderer, detector, scene, 50)
    check_adds(out)
    removes = [o for o in out if o.kind == "remove"]
    assert sorted(o.tag_id for o in removes) == sorted(gone)
    assert {o.why for o in removes} == {"bare"}
    for o in removes:
        assert 0 < o.timestamp_ms - taken_at * 1000 / 30 <= 500


def test_a_sticker_under_a_hand_resting_two_seconds_is_not_removed(renderer, detector):
    # The hand rests over stickers 101 and 105 (the arm over 105 on its way) for 2 s.
    def scene(i: int) -> tuple[SyntheticTable, Effects]:
        hands = (Hand(350, 200, arm_to_mm=(380, 900)),) if 20 <= i < 80 else ()
        return SyntheticTable(STICKERS), dataclasses.replace(HARD, hands=hands)

    covered = set(renderer.render(SyntheticTable(STICKERS), scene(50)[1]).hidden)
    assert covered == {101, 105}
    out, _ = play(renderer, detector, scene, 95)
    check_adds(out)
    assert [o for o in out if o.kind == "remove"] == []


def test_a_sticker_a_hand_takes_away_is_removed_once_the_hand_has_left(renderer, detector):
    def scene(i: int) -> tuple[SyntheticTable, Effects]:
        hands = (Hand(350, 200, arm_to_mm=(380, 900)),) if 20 <= i < 50 else ()
        left = tuple(c for c in STICKERS if i < 35 or c.tag_id != 101)  # taken under the hand
        return SyntheticTable(left), dataclasses.replace(HARD, hands=hands)

    out, _ = play(renderer, detector, scene, 70)
    check_adds(out)
    removes = [(o.tag_id, o.why) for o in out if o.kind == "remove"]
    assert removes == [(101, "bare")]
    (removed,) = [o for o in out if o.kind == "remove"]
    assert 0 < removed.timestamp_ms - 50 * 1000 / 30 <= 500  # after the hand left


def test_a_sticker_a_hand_slides_aside_is_moved_not_removed(renderer, detector):
    # The hand rests on 101 and slides it 70 mm down under its arm, then draws back down the
    # table: the old place shows before the new one does (by about 0.1 s).
    slid = dataclasses.replace(STICKERS[1], y_mm=270)

    def scene(i: int) -> tuple[SyntheticTable, Effects]:
        y = 200 + max(0, i - 40) * 20.0
        hands = (Hand(350, y, arm_to_mm=(380, 900)),) if 20 <= i < 75 else ()
        pieces = STICKERS if i < 30 else (STICKERS[0], slid, *STICKERS[2:])
        return SyntheticTable(pieces), dataclasses.replace(HARD, hands=hands)

    out, _ = play(renderer, detector, scene, 90)
    assert [(o.kind, o.tag_id) for o in out if o.kind != "add"] == [("update", 101)]
    (moved,) = [o for o in out if o.kind == "update"]
    assert (round(moved.x_mm), round(moved.y_mm)) == pytest.approx(
        tuple(CAMERA.project(np.array([[350.0, 270.0]]))[0]), abs=2
    )
    assert len([o for o in out if o.kind == "add"]) == len(STICKERS)


def test_a_sticker_covered_for_good_is_removed_as_covered_after_three_seconds(renderer, detector):
    # 10 frames a second: the hand comes at 1 s and stays.
    def scene(i: int) -> tuple[SyntheticTable, Effects]:
        hands = (Hand(350, 200, arm_to_mm=(380, 900)),) if i >= 10 else ()
        return SyntheticTable(STICKERS), dataclasses.replace(HARD, hands=hands)

    out, _ = play(renderer, detector, scene, 45, fps=10)
    removes = [o for o in out if o.kind == "remove"]
    assert sorted((o.tag_id, o.why) for o in removes) == [(101, "covered"), (105, "covered")]
    for o in removes:
        assert o.timestamp_ms == 900 + 3000  # last read at frame 9; the stabiliser's covered_ms


def test_a_sticker_turned_over_is_replaced_by_its_other_face_at_once(renderer, detector):
    flipped = dataclasses.replace(STICKERS[2], tag_id=150)  # the tile's back, in its place

    def scene(i: int) -> tuple[SyntheticTable, Effects]:
        return SyntheticTable(STICKERS if i < 30 else (*STICKERS[:2], flipped, *STICKERS[3:])), HARD

    out, _ = play(renderer, detector, scene, 50)
    late = [(o.kind, o.tag_id, o.why) for o in out if o.timestamp_ms > 1000]
    assert late == [("add", 150, None), ("remove", 102, "replaced")] or late == [
        ("remove", 102, "replaced"),
        ("add", 150, None),
    ]
    (removed,) = [o for o in out if o.kind == "remove"]
    assert removed.timestamp_ms - 1000 <= 500


def test_without_the_frame_a_removal_waits_and_says_unseen(renderer, detector):
    stabiliser = Stabiliser()
    full = renderer.render(SyntheticTable(STICKERS), HARD)
    empty = renderer.render(SyntheticTable(STICKERS[1:]), HARD)
    out: list[Observation] = []
    for i in range(70):
        shot = full if i < 10 else empty
        out += stabiliser.update(detector.detect(shot.image), i * 1000 / 30)
    (removed,) = [o for o in out if o.kind == "remove"]
    assert (removed.tag_id, removed.why) == (100, "unseen")
    assert removed.timestamp_ms >= 9 * 1000 / 30 + 1500


def test_a_place_looks_bare_covered_or_unseen(renderer):
    table = SyntheticTable(STICKERS)
    shot = renderer.render(table, HARD)
    truth = shot.truth_by_id()
    place = remember(shot.image, np.array(truth[101].corners))
    assert place is not None
    bare = renderer.render(SyntheticTable(STICKERS[2:]), HARD, seed=1).image
    dimmer = renderer.render(table, dataclasses.replace(HARD, exposure=0.95), seed=2).image
    card = renderer.render(table, dataclasses.replace(HARD, hands=(Hand(350, 200),)), seed=3)
    assert look(bare, place) == "bare"
    assert look(dimmer, place) == "covered"  # the sticker is there: not bare
    assert look(card.image, place) == "covered"
    # An arm across the square and most of its ring, brighter than the table where a lamp's
    # glare falls on the square: the ring moves by less than the light may, the square does not.
    rng = np.random.default_rng(0)
    table = np.clip(138 + rng.normal(0, 4, (120, 120)), 0, 255).astype(np.uint8)
    table[48:72, 48:72] = 250
    table[50:70, 50:70] = 20
    side = np.array([[50, 50], [70, 50], [70, 70], [50, 70]], float)
    place = remember(table, side)
    assert place is not None
    arm = table.copy()
    arm[:, 38:90] = np.clip(158 + rng.normal(0, 4, (120, 52)), 0, 255).astype(np.uint8)
    arm[48:72, 48:72] = np.clip(173 + rng.normal(0, 4, (24, 24)), 0, 255).astype(np.uint8)
    assert look(arm, place) == "covered"
    edge = np.array([[-5, 100], [10, 100], [10, 115], [-5, 115]], float)
    assert remember(shot.image, edge) is None  # partly out of the frame: no place to look at
