"""TUIO 1.1 bundles built from observations: what the messages hold, decoded with python-osc."""

from __future__ import annotations

import math

import pytest
from pythonosc.osc_bundle import OscBundle

from vision.stabiliser import Observation
from vision.tuio import SETS_PER_BUNDLE, TuioError, TuioTracker, parse_destination


def observation(kind: str, session: int, tag: int, x: float, y: float, angle: float, ms: float):
    return Observation(kind, session, "tag36h11", tag, x, y, angle, ms)  # type: ignore[arg-type]


def decoded(bundles) -> list[list[list]]:
    """Each bundle as the parameter lists of its messages, via python-osc's parser."""
    return [[m.params for m in OscBundle(b.dgram)] for b in bundles]


def tracker() -> TuioTracker:
    return TuioTracker(lambda x, y: (x / 1000, y / 500), refresh_ms=1000)


def test_an_added_object_is_alive_and_set_in_frame_units() -> None:
    t = tracker()
    (bundle,) = decoded(t.frame([observation("add", 7, 148, 250, 100, 90, 0)], 0))
    assert bundle[0] == ["source", "tablesight"]
    assert bundle[1] == ["alive", 7]
    s = bundle[2]
    assert s[:3] == ["set", 7, 148]
    assert s[3:6] == pytest.approx([0.25, 0.2, math.pi / 2], abs=1e-6)
    assert s[6:] == [0.0] * 5
    assert bundle[3] == ["fseq", 1]


def test_a_move_carries_its_velocity_and_a_remove_leaves_the_alive_list() -> None:
    t = tracker()
    t.frame([observation("add", 1, 10, 100, 100, 0, 0)], 0)
    (bundle,) = decoded(t.frame([observation("update", 1, 10, 200, 100, 90, 500)], 500))
    s = bundle[2]
    assert s[6] == pytest.approx(0.2)  # 0.1 of the width in 0.5 s
    assert s[7] == pytest.approx(0.0)
    assert s[8] == pytest.approx(0.5)  # a quarter turn in 0.5 s
    (bundle,) = decoded(t.frame([observation("remove", 1, 10, 200, 100, 90, 600)], 600))
    assert bundle == [["source", "tablesight"], ["alive"], ["fseq", 3]]


def test_every_object_is_sent_again_each_second_and_sets_are_split() -> None:
    t = tracker()
    count = SETS_PER_BUNDLE + 4
    adds = [observation("add", i + 1, i, 10 * i, 10, 0, 0) for i in range(count)]
    first = decoded(t.frame(adds, 0))
    assert [len(b) - 3 for b in first] == [SETS_PER_BUNDLE, 4]
    assert {b[-1][1] for b in first} == {1}  # one frame, one fseq
    assert decoded(t.frame([], 400)) == [
        [["source", "tablesight"], ["alive", *range(1, count + 1)], ["fseq", 2]]
    ]
    refresh = decoded(t.frame([], 1000))
    assert sum(len(b) - 3 for b in refresh) == count


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("127.0.0.1:3333", ("127.0.0.1", 3333)),
        ("localhost", ("localhost", 3333)),
        ("[::1]:4444", ("::1", 4444)),
    ],
)
def test_destinations(text: str, expected: tuple[str, int]) -> None:
    assert parse_destination(text) == expected


@pytest.mark.parametrize("text", ["127.0.0.1:0", "127.0.0.1:http", ":3333", "[::1]x"])
def test_bad_destinations(text: str) -> None:
    with pytest.raises(TuioError):
        parse_destination(text)
