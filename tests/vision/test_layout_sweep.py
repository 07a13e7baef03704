"""Issue #39's layout sweep (`bench/vision_layouts.py`) on a small subset: each game's layout
with a fault, a second of video through a tilted barrel lens (10° off vertical, k1 -0.2), read
by `tablesight scan` with the lens it fits from the table's own stickers. The fault is refused
with its code and every correctly laid piece, tile and token is read where it lies and
accepted: greenwood.zh.md §三.10 (each piece after the first shares an edge with one placed),
Don't Starve's setup (docs/dont_starve.md: a tile more than 0.3 half-tile off the grid is
pushed back), Stonesaga's draw (stonesaga.zh.md 采矿: a token is laid omen side up).

The truths are the sweep's hand-laid layouts (the cells each piece covers written out by hand
there), not the readers' output.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench import vision_layouts as vl
from vision.synthetic import SessionRenderer

RIG = vl.Rig(10, 3, -0.2)
SIZE = (1920, 1080)


def scanned(layout: vl.Layout, tmp_path: Path, condition: str = "clean") -> dict[str, Any]:
    renderer = SessionRenderer(RIG.camera(*SIZE), layouts=1)
    still = vl.still_objects(layout.scene)
    frames = [f for f, _ in vl.frames_of(renderer, layout.scene, condition, 7, still)]
    assert len(frames) == 30
    video = vl.write_video(frames, tmp_path / "second.avi")
    return vl.scan_video(layout.game, video, tmp_path / "data")


@pytest.fixture(scope="module")
def greenwood_fault(tmp_path_factory: pytest.TempPathFactory) -> tuple[vl.Layout, dict]:
    layout = vl.greenwood("fault", 5)
    return layout, scanned(layout, tmp_path_factory.mktemp("gw"))


def test_greenwood_refuses_the_lone_wisp_and_accepts_the_rest(greenwood_fault) -> None:
    """greenwood.zh.md §三.10: board 1's wisp on (5, 3) shares no edge with any piece."""
    layout, result = greenwood_fault
    board = next(b for b in result["boards"] if b["board"] == "submarine board 1 front")
    pieces = {p["tag"]: p for p in board["pieces"]}
    assert pieces[199]["cells"] == [[5, 3]]
    assert pieces[199]["verdict"]["code"] == "greenwood.not_adjacent"
    accepted = [
        p["tag"] for b in result["boards"] for p in b["pieces"] if p.get("verdict", {}).get("ok")
    ]
    assert len(accepted) == 19  # the other 19 pieces of the four boards
    outcome = vl.judge_greenwood(result, layout.truth)
    assert outcome.faults == [] and outcome.caught


def test_the_judge_catches_a_wrong_verdict(greenwood_fault) -> None:
    """The same scan judged against the legal layout's truth is not exact: the sweep's judge
    can fail (the lone wisp's verdict and cells differ)."""
    _, result = greenwood_fault
    outcome = vl.judge_greenwood(result, vl.greenwood("legal", 5).truth)
    assert not outcome.exact and not outcome.caught
    assert any("piece 199" in f for f in outcome.faults)


def test_dont_starve_flags_only_the_tile_pushed_off_the_grid(tmp_path: Path) -> None:
    """Tile G pushed 0.42 half-tile off its place is off_grid; no correct tile is, the map is
    the scenario's, both figures on the portal tile."""
    layout = vl.dont_starve("fault", 5)
    result = scanned(layout, tmp_path)
    (pushed,) = [n for n, slot in layout.truth["tiles"].items() if slot == "G"]
    assert [(v["code"], v["tile"]) for v in result["verdicts"]] == [
        ("dont_starve.layout.off_grid", pushed)
    ]
    assert {t["tile"]: t["slot"] for t in result["tiles"]} == layout.truth["tiles"]
    assert vl.judge_dont_starve(result, layout.truth).faults == []


def test_stonesaga_asks_to_turn_the_plain_token_and_reads_the_valley(tmp_path: Path) -> None:
    """The clay token plain side up on the pad is asked to be turned; the other three are read
    with their stone and omen, the tray's tiles turned as laid, the outpost in zone 2 of the
    middle tile; through the occluders (a hand sweeping across the table, a cup, a phone)."""
    layout = vl.stonesaga("fault", 5)
    result = scanned(layout, tmp_path, "occluders")
    assert result["problems"] == ["Lay the ore token omen side up on the draw pad"]
    tokens = {t["tag"]: (t["stone"], t["omen"]) for t in result["pad"]["tokens"]}
    assert tokens[430] == ("clay", None)
    tiles = [(t["tile"], t["slot"], t["rotation"]) for t in result["valley"]["tiles"]]
    assert tiles == [("101", 0, 0), ("102", 1, 60), ("103", 2, 180)]
    assert vl.judge_stonesaga(result, layout.truth).faults == []


def test_the_cameras_fit_the_anchors_and_no_lens_folds() -> None:
    """Every rig of the sweep frames the four anchors; a lens that would fold its picture
    before the frame's corners (k1 -0.3 over a 66° field) is refused, not filmed."""
    for rig in vl.RIGS:
        rig.camera(1280, 720)
    with pytest.raises(ValueError, match="folds"):
        vl.Rig(15, 0, -0.3, 66).camera(1280, 720)


def test_no_layout_lays_a_piece_over_another_s_sticker() -> None:
    """The hand's play never lays a piece (its body or its sticker's white margin) over
    another's black square: a miss is the camera's, not the layout's; two stickers 17 mm
    apart in 20 mm cells are caught."""
    for game, make in vl.LAYOUTS.items():
        for kind in vl.KINDS:
            for seed in range(8):
                assert vl.covered_stickers(make(kind, seed).scene) == [], (game, kind, seed)
    close = vl.SyntheticTable(
        (vl.Component(148, 100, 100, 0, 14), vl.Component(166, 100, 117, 0, 14))
    )
    assert vl.covered_stickers(close) == [(148, 166)]
