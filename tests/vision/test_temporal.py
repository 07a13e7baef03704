"""Reading over time: rendered sequences of a still table through the real detector.

The incremental detector with ``memory`` (the default) keeps a tag read exactly while the pixels
under it do not change, and reads the mean of the recent crops of quads it could not read. These
tests count tags, frames and ids; none of them times anything.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from bench.vision import HARD, decoy_table, rig_camera, session_table, sticker_table
from vision.detection import Detector
from vision.incremental import IncrementalConfig, IncrementalDetector
from vision.stabiliser import Stabiliser
from vision.synthetic import Hand, SessionRenderer, SyntheticTable

CAMERA = rig_camera(1280, 720)
FRAME_MS = 1000 / 30


@pytest.fixture(scope="module")
def renderer() -> SessionRenderer:
    return SessionRenderer(CAMERA)


@pytest.fixture(scope="module")
def detector() -> Detector:
    return Detector()


def ids(found) -> set[int]:
    return {d.id for d in found}


def test_small_defocused_noisy_stickers_are_read_within_a_second(renderer, detector):
    # 9.5 mm stickers at 1280×720 over a 90 cm table: 13 px, defocused, noisy, JPEG, glare
    # (at 10 mm, since the soft decoder fits a tag's outline and blur, one frame reads all 16).
    table = sticker_table(9.5, CAMERA, 5, count=16)
    over_time = IncrementalDetector(detector)
    frame_by_frame = IncrementalDetector(detector, IncrementalConfig(memory=False))
    wrong, best_single = set(), 0
    for i in range(31):  # one second at 30 frames a second
        shot = renderer.render(table, HARD, seed=i)
        truth = {t.tag_id for t in shot.truth}
        read, single = ids(over_time.detect(shot.image)), ids(frame_by_frame.detect(shot.image))
        wrong |= (read | single) - truth
        best_single = max(best_single, len(single & truth))
    assert len(truth) == 16
    assert wrong == set()
    assert len(read & truth) >= 13
    assert len(read & truth) > best_single  # more than any frame read on its own


def test_a_tag_read_once_stays_while_its_pixels_do_not_change(renderer, detector):
    table = sticker_table(10.5, CAMERA, 5, count=16)
    # A full detection every frame: without memory a 15 px tag comes and goes with the noise.
    incremental = IncrementalDetector(detector, IncrementalConfig(rescan_every=1))
    seen: set[int] = set()
    lost = held = 0
    for i in range(12):
        shot = renderer.render(table, HARD, seed=100 + i)
        read = ids(incremental.detect(shot.image))
        assert incremental.last_mode == "full"
        assert read <= {t.tag_id for t in shot.truth}
        lost += len(seen - read)
        held += incremental.last_held
        kept = {d.id for d in incremental.last_kept}
        assert len(kept) == incremental.last_held and kept <= seen  # read in an earlier frame
        seen |= read
    assert lost == 0
    assert held > 0  # some frame's detection missed a tag that was kept


def test_a_hand_hides_tags_and_no_tag_under_it_is_kept(renderer, detector):
    # 10 mm stickers (14 px): in hard light one frame reads under half of them, so a sticker
    # the hand uncovers is back at once only because its place looks as it did when read.
    table = sticker_table(10, CAMERA, 6, count=16)
    incremental = IncrementalDetector(detector)
    covered_and_reported, back = [], []
    cut = set(renderer.render(table).hidden)  # by the frame edge
    for i in range(34):
        hands = ()
        if 24 <= i < 30:  # a hand reaches over the middle of the table and leaves
            hands = (Hand(450, 300, radius_mm=(230, 160), arm_to_mm=(450, 800)),)
        shot = renderer.render(table, dataclasses.replace(HARD, hands=hands), seed=i)
        read = ids(incremental.detect(shot.image))
        covered_and_reported += sorted(read & (set(shot.hidden) - cut))
        if i == 27:
            covered = set(shot.hidden) - cut
        back.append(read)
    assert len(covered & back[23]) >= 3  # the hand really covered stickers that had been read
    assert covered_and_reported == []
    assert covered & back[23] <= back[30]  # back in the first frame after the hand left


def test_a_flickering_lamp_loses_nothing_and_adds_nothing(renderer, detector):
    table = sticker_table(12, CAMERA, 7, count=16)
    incremental = IncrementalDetector(detector)
    first = None
    for i, exposure in enumerate((1.0, 0.9, 0.97, 0.85, 0.95, 0.88, 1.0, 0.92) * 2):
        shot = renderer.render(table, dataclasses.replace(HARD, exposure=exposure), seed=i)
        read = ids(incremental.detect(shot.image))
        truth = {t.tag_id for t in shot.truth}
        assert read <= truth
        if first is None:
            first = read
        assert read >= first  # never a tag lost to the light
    assert len(read) >= len(truth) - 1


def test_a_sticker_taken_away_is_not_kept(renderer, detector):
    table = sticker_table(12, CAMERA, 8, count=16)
    gone = table.components[5].tag_id
    without = SyntheticTable(tuple(c for c in table.components if c.tag_id != gone))
    incremental = IncrementalDetector(detector)
    for i in range(10):
        read = ids(incremental.detect(renderer.render(table, HARD, seed=i).image))
    assert gone in read
    for i in range(10, 14):
        read = ids(incremental.detect(renderer.render(without, HARD, seed=i).image))
        assert gone not in read


def test_look_alike_print_gives_no_id_over_two_seconds(renderer, detector):
    incremental = IncrementalDetector(detector)
    reported: set[int] = set()
    for seed in (1, 2):
        table = decoy_table(CAMERA, seed)
        incremental.reset()
        for i in range(60):
            reported |= ids(incremental.detect(renderer.render(table, HARD, seed=i).image))
    assert reported == set()


def test_the_stabiliser_adds_small_stickers_and_removes_none_when_hands_pass(renderer, detector):
    table = sticker_table(11, CAMERA, 9, count=16)
    incremental, stabiliser = IncrementalDetector(detector), Stabiliser()
    added, removed, others = set(), [], []
    for i in range(60):
        hands = ()
        if 20 <= i < 35:  # half a second over one side of the table, then gone
            hands = (Hand(250 + 10 * (i - 20), 320, arm_to_mm=(300, 800)),)
        shot = renderer.render(table, dataclasses.replace(HARD, hands=hands), seed=i)
        for o in stabiliser.update(incremental.detect(shot.image), i * FRAME_MS):
            if o.kind == "add":
                added.add(o.tag_id)
            elif o.kind == "remove":
                removed.append(o.tag_id)
            else:
                others.append(o)
    truth = {c.tag_id for c in table.components}
    assert added <= truth
    assert len(added) >= 14
    assert removed == [] and others == []


def test_a_still_table_in_hard_light_is_not_read_again_and_again(renderer, detector):
    """A still table of stickers and look-alike print under hard light (noise, JPEG 60, a
    lamp's glare): noise alone makes no re-detection after the first frame, and the print that
    no mean of 28 frames reads is neither watched nor tried again by a re-scan while nothing
    there changes."""
    table = session_table(CAMERA)
    incremental = IncrementalDetector(detector, IncrementalConfig(rescan_every=30))
    modes: Counter[str] = Counter()
    means, unread, seen = [], {}, {}
    for i in range(75):
        seen[i] = ids(incremental.detect(renderer.render(table, HARD, seed=i).image))
        modes[incremental.last_mode] += 1
        means.append(incremental.last_means)
        if incremental.last_mode == "full":
            unread[i] = len(detector.candidates)
    assert modes["full"] == 3  # the first frame and the re-scans at 30 and 60
    assert modes["partial"] <= 3, modes
    assert sum(means[:33]) >= 10  # the print's quads were watched, and their means read …
    assert sum(means[45:]) <= 3, means  # … and the re-scan at 60 did not start that again,
    assert unread[60] <= unread[0] // 2, unread  # nor tried its crops again in that frame
    assert seen[74] >= seen[29]  # and it lost no sticker for that
