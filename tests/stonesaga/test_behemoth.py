"""The behemoth's tread between tiles (stonesaga.zh.md §巨兽 警觉巨兽的激活.2)."""

from __future__ import annotations

from engine.stonesaga.catalogue import catalogue
from engine.stonesaga.rules.behemoth import break_tie, distances, tread_candidates

# A ring of six tiles: a–b–c–d–e–f–a.
RING = {
    "a": ["b", "f"],
    "b": ["a", "c"],
    "c": ["b", "d"],
    "d": ["c", "e"],
    "e": ["d", "f"],
    "f": ["e", "a"],
}


def test_the_behemoth_steps_to_the_adjacent_tile_nearest_its_target() -> None:
    """§巨兽.2: 总是走进离目标最近的相邻格."""
    assert tread_candidates(RING, "a", "c") == ["b"]
    assert tread_candidates(RING, "a", "e") == ["f"]


def test_two_adjacent_tiles_equally_near_are_both_candidates() -> None:
    """§巨兽.2: 若并列 → 掷骰决定."""
    assert tread_candidates(RING, "a", "d") == ["b", "f"]


def test_a_tie_is_broken_by_a_die_plus_one_per_feature_in_its_affinity() -> None:
    """§巨兽.2: 该格每有一种地物命中巨兽的「亲和」就 +1，最高者胜出."""
    tied = {"b": ["forest", "cave"], "f": ["lake"]}
    assert break_tie(tied, ["forest", "cave"], {"b": 3, "f": 4}) == ["b"]  # 3 + 2 beats 4
    assert break_tie(tied, ["lake"], {"b": 3, "f": 4}) == ["f"]


def test_tiles_still_tied_roll_again_alone() -> None:
    """§巨兽.2: 平局只对平局者重掷."""
    tied = {"b": ["forest"], "c": ["lake"], "f": []}
    assert break_tie(tied, ["forest", "lake"], {"b": 4, "c": 4, "f": 4}) == ["b", "c"]


def test_the_starting_valley_is_connected() -> None:
    """§地图: every tile of the valley data can be reached from the start tile."""
    start, tiles = catalogue().start, catalogue().tiles
    reach = distances({t.id: t.neighbours for t in tiles.values()}, start)
    assert set(reach) == set(tiles)
