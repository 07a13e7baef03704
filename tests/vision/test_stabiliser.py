"""The stabiliser on rendered frame sequences, read by the real detector."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from vision.calibration import calibrate_table
from vision.detection import Detector
from vision.registry import load_registry
from vision.sources import SyntheticSource, default_table
from vision.stabiliser import Observation, Stabiliser, StabiliserConfig, StabiliserError
from vision.synthetic import Camera, Component, Effects, Hand, SyntheticTable, render

CAMERA = Camera.overhead(960, 540)
PIXELS_TO_TABLE = np.linalg.inv(CAMERA.table_homography())
FRAME_MS = 100.0
DETECTOR = Detector()


def play(
    scene: Callable[[int], tuple[SyntheticTable, Effects]],
    frames: int,
    stabiliser: Stabiliser | None = None,
) -> tuple[Stabiliser, list[list[Observation]], list]:
    """Render ``frames`` scenes, detect, stabilise; returns the observations of each frame."""
    stabiliser = stabiliser or Stabiliser(homography=PIXELS_TO_TABLE)
    per_frame, shots = [], []
    for i in range(frames):
        table, effects = scene(i)
        shot = render(table, CAMERA, effects, seed=i)
        shots.append(shot)
        per_frame.append(stabiliser.update(DETECTOR.detect(shot.image), timestamp_ms=i * FRAME_MS))
    return stabiliser, per_frame, shots


def kinds(per_frame: list[list[Observation]]) -> list[tuple[int, str, int]]:
    """(frame, kind, tag id) of every observation."""
    return [(i, o.kind, o.tag_id) for i, obs in enumerate(per_frame) for o in obs]


PIECES = (
    Component(tag_id=11, x_mm=300, y_mm=250, rotation_deg=20),
    Component(tag_id=12, x_mm=600, y_mm=350, rotation_deg=135, tag_mm=15),
)


def test_tags_are_added_once_after_being_steady_at_their_true_place() -> None:
    stabiliser, per_frame, _ = play(lambda i: (SyntheticTable(PIECES), Effects(noise=3)), 6)
    assert kinds(per_frame) == [(2, "add", 11), (2, "add", 12)]
    added = {o.tag_id: o for o in per_frame[2]}
    for comp in PIECES:
        o = added[comp.tag_id]
        assert np.hypot(o.x_mm - comp.x_mm, o.y_mm - comp.y_mm) < 1.0
        assert abs((o.angle_deg - comp.rotation_deg + 180) % 360 - 180) < 2.0
    assert [t.tag_id for t in stabiliser.alive()] == [11, 12]


def test_a_jittering_tag_never_produces_an_update() -> None:
    rng = np.random.default_rng(7)
    wobble = rng.uniform(-1.2, 1.2, (20, 3))

    def scene(i: int) -> tuple[SyntheticTable, Effects]:
        dx, dy, turn = wobble[i]
        piece = Component(tag_id=21, x_mm=450 + dx, y_mm=300 + dy, rotation_deg=40 + 2 * turn)
        return SyntheticTable((piece,)), Effects(noise=4, blur=0.6)

    _, per_frame, _ = play(scene, 20)
    assert kinds(per_frame) == [(2, "add", 21)]


def test_a_real_move_gives_exactly_one_update_at_the_new_place() -> None:
    def scene(i: int) -> tuple[SyntheticTable, Effects]:
        x = 300 + min(max(i - 5, 0), 5) * 20  # rests, slides 100 mm over 5 frames, rests
        return SyntheticTable((Component(tag_id=31, x_mm=x, y_mm=300),)), Effects(noise=2)

    _, per_frame, _ = play(scene, 16)
    assert kinds(per_frame) == [(2, "add", 31), (12, "update", 31)]
    update = per_frame[12][0]
    assert update.session_id == per_frame[2][0].session_id
    assert abs(update.x_mm - 400) < 1.0


def test_a_hand_passing_over_the_table_removes_nothing() -> None:
    def scene(i: int) -> tuple[SyntheticTable, Effects]:
        hands = ()
        if 5 <= i < 13:  # the hand sweeps over both pieces for 0.8 s
            hands = (Hand(x_mm=200 + 60 * (i - 5), y_mm=300, arm_to_mm=(450, 800)),)
        return SyntheticTable(PIECES), Effects(hands=hands)

    stabiliser, per_frame, shots = play(scene, 18)
    hidden = {tag for shot in shots for tag in shot.hidden}
    assert hidden == {11, 12}  # the hand really did cover both
    assert kinds(per_frame) == [(2, "add", 11), (2, "add", 12)]
    assert len(stabiliser.alive()) == 2


def test_a_tag_taken_away_is_removed_only_after_the_absence_threshold() -> None:
    config = StabiliserConfig(remove_frames=5, remove_ms=800)

    def scene(i: int) -> tuple[SyntheticTable, Effects]:
        return SyntheticTable(PIECES if i < 4 else PIECES[:1]), Effects()

    stabiliser, per_frame, _ = play(scene, 14, Stabiliser(config, PIXELS_TO_TABLE))
    # last seen at frame 3 (300 ms): 5 missed frames by frame 8, 800 ms by frame 11
    assert kinds(per_frame) == [(2, "add", 11), (2, "add", 12), (11, "remove", 12)]
    assert [t.tag_id for t in stabiliser.alive()] == [11]


def test_the_same_id_twice_is_flagged_once_and_not_guessed() -> None:
    twins = (
        Component(tag_id=41, x_mm=250, y_mm=300),
        Component(tag_id=41, x_mm=650, y_mm=300),
        Component(tag_id=42, x_mm=450, y_mm=150),
    )
    _, per_frame, _ = play(lambda i: (SyntheticTable(twins), Effects()), 5)
    assert kinds(per_frame) == [(0, "duplicate", 41), (2, "add", 42)]
    flagged = per_frame[0][0]
    assert [round(x, -1) for x, _ in sorted(flagged.places)] == [250, 650]


def test_a_brief_flicker_before_adding_restarts_the_count() -> None:
    stabiliser = Stabiliser(StabiliserConfig(add_frames=3, add_ms=0))
    seen = DETECTOR.detect(render(SyntheticTable(PIECES[:1]), CAMERA).image)
    out = [stabiliser.update(d, t) for t, d in enumerate([seen, seen, [], seen, seen, seen])]
    assert [len(o) for o in out] == [0, 0, 0, 0, 0, 1]


def test_time_going_backwards_is_refused() -> None:
    stabiliser = Stabiliser()
    stabiliser.update([], timestamp_ms=100)
    with pytest.raises(StabiliserError, match="backwards"):
        stabiliser.update([], timestamp_ms=50)


@pytest.mark.parametrize(
    "settings",
    [{"add_frames": -1}, {"settle_frames": 0}, {"move_mm": 1.0, "settle_mm": 2.0}],
)
def test_settings_out_of_range_are_refused(settings: dict) -> None:
    with pytest.raises(StabiliserError):
        StabiliserConfig(**settings)


def test_source_to_observations_through_calibration_and_registry() -> None:
    stray = Component(tag_id=580, x_mm=450, y_mm=520, tag_mm=20)  # no game uses 580
    table = default_table(seed=3)
    scene = SyntheticTable((*table.components, stray))
    source = SyntheticSource(lambda i: (scene, Effects(noise=2)), fps=10)
    registry = load_registry()
    frame = source.read()
    calibration = calibrate_table(DETECTOR.detect(frame.image), registry.anchors(), (1280, 720))
    stabiliser = Stabiliser(homography=calibration.image_to_table)
    added: list[Observation] = []
    for _ in range(4):
        found = registry.known(DETECTOR.detect(frame.image))
        added += [o for o in stabiliser.update(found, frame.timestamp_ms) if o.kind == "add"]
        frame = source.read()
    truth = {c.tag_id: c for c in table.components}
    assert sorted(o.tag_id for o in added) == sorted(truth)
    assert registry.unknown_seen == [("tag36h11", 580)]
    for o in added:
        c = truth[o.tag_id]
        assert np.hypot(o.x_mm - c.x_mm, o.y_mm - c.y_mm) < 1.5, o
        assert abs((o.angle_deg - c.rotation_deg + 180) % 360 - 180) < 3.0, o
