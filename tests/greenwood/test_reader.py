"""The camera reader on synthetic tables, through the real detector (greenwood.zh.md §三.10)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.greenwood.catalogue import catalogue
from engine.greenwood.moves import Hike, Place, Rescue, TakeWisp, UseEnergy
from kiosk.cli import main
from vision.detection import Detector
from vision.readers.greenwood import SubmarineReader, piece_shapes
from vision.registry import load_registry
from vision.stabiliser import Observation, Stabiliser, StabiliserConfig
from vision.synthetic import Camera, Component, Effects, SyntheticTable, render

REGISTRY = load_registry()
BOARDS = {b.name: b for b in REGISTRY.boards["greenwood"]}
BOARD = BOARDS["submarine board 1 front"]  # layout 0 (vision/tags/greenwood.toml)
GRID = BOARD.grid
ORIGIN = (300.0, 200.0)  # the board's top-left corner on the table
TURN = 8.0  # the board lies a little askew
CAMERA = Camera.overhead(800, 600, height_mm=320, over_mm=(390, 270), hfov_deg=60)
DETECTOR = Detector()
# tag ids: wisps from 198; rescued creatures from 148 in pieces.toml order (10 dominoes, 8 bar3…)
DOMINO, BAR3, WISP, WISP2 = 148, 158, 198, 199
CATALOGUE = catalogue()
SHAPE_TAGS = {"wisp": 198, "domino": 148, "bar3": 158, "corner3": 166, "tee4": 174}
SHAPE_TAGS |= {"ell4": 180, "ess4": 186, "square4": 190, "pee5": 194}


def on_table(bx: float, by: float) -> tuple[float, float]:
    a = math.radians(TURN)
    return (
        ORIGIN[0] + bx * math.cos(a) - by * math.sin(a),
        ORIGIN[1] + bx * math.sin(a) + by * math.cos(a),
    )


def board() -> tuple[Component, ...]:
    return tuple(
        Component(t.tag_id, *on_table(t.x_mm, t.y_mm), TURN, t.size_mm) for t in BOARD.tags
    )


def piece(tag: int, cell: tuple[int, int], turn: float = 0, nudge=(0.0, 0.0)) -> Component:
    """A piece whose tag lies on the centre of ``cell`` (plus a nudge in mm), turned ``turn``."""
    bx = GRID.origin_mm[0] + (cell[0] + 0.5) * GRID.cell_mm[0] + nudge[0]
    by = GRID.origin_mm[1] + (cell[1] + 0.5) * GRID.cell_mm[1] + nudge[1]
    return Component(tag, *on_table(bx, by), TURN + turn, 14)


def photo(tmp_path: Path, *components: Component) -> Path:
    shot = render(SyntheticTable(components), CAMERA, Effects(blur=0.6, noise=3), seed=3)
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), shot.image)
    return path


def test_scan_reads_cells_turns_and_verdicts_per_board(tmp_path: Path, capsys) -> None:
    """§三.10 from a photo: the first piece on the start cell, a turned bar touching it, a wisp
    touching nothing (refused), a wisp between cells (place it squarely)."""
    path = photo(
        tmp_path,
        *board(),
        piece(DOMINO, (0, 0)),
        piece(BAR3, (2, 1), turn=90),
        piece(WISP, (4, 4)),
        piece(WISP2, (4, 2), nudge=(9, 0)),
    )
    assert main(["scan", "greenwood", str(path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    (sub,) = result["boards"]
    assert (sub["board"], sub["layout"], sub["tags"]) == ("submarine board 1 front", 0, [100, 101])
    pieces = {p["tag"]: p for p in sub["pieces"]}
    assert pieces[DOMINO]["cells"] == [[0, 0], [1, 0]] and pieces[DOMINO]["rotation"] == 0
    assert pieces[BAR3]["cells"] == [[2, 0], [2, 1], [2, 2]] and pieces[BAR3]["rotation"] == 90
    assert pieces[DOMINO]["verdict"]["ok"] and pieces[BAR3]["verdict"]["ok"]
    assert pieces[WISP]["cells"] == [[4, 4]]
    assert pieces[WISP]["verdict"]["code"] == "greenwood.not_adjacent"
    assert pieces[WISP2]["prompt"]["code"] == "greenwood.place_squarely"
    assert main(["--lang", "en", "scan", "greenwood", str(path)]) == 0
    text = capsys.readouterr().out
    assert "tag 148 domino on (0,0) (1,0), turned 0°: accepted" in text
    assert "Place it squarely" in text and "[greenwood.not_adjacent" in text


def test_scan_of_an_unreadable_file_says_so(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "nothing.png"
    bad.write_bytes(b"not an image")
    assert main(["scan", "greenwood", str(bad)]) == 2
    assert "not an image" in capsys.readouterr().err


class Camcorder:
    """Renders scenes, runs the real detector and the stabiliser, feeds the reader."""

    def __init__(self, reader: SubmarineReader) -> None:
        self.reader = reader
        config = StabiliserConfig(
            add_frames=2, add_ms=0, remove_frames=2, remove_ms=0, settle_frames=2
        )
        self.stabiliser = Stabiliser(config, np.linalg.inv(CAMERA.table_homography()))
        self.clock = 0.0

    def show(self, state, *components: Component, frames: int = 3) -> list:
        shot = render(SyntheticTable(components), CAMERA, Effects(noise=2), seed=int(self.clock))
        found = REGISTRY.known(DETECTOR.detect(shot.image))
        proposals = []
        self.seen: list[tuple[str, int]] = []
        for _ in range(frames):
            self.clock += 100
            observations = self.stabiliser.update(found, self.clock)
            self.seen += [(o.kind, o.tag_id) for o in observations]
            proposals += self.reader.update(observations, state)
        return proposals


def test_a_piece_landing_is_proposed_lifting_it_is_not_and_moving_it_is_refused(gw) -> None:
    """§三.10: the reader proposes the placement the moment the piece lands; the engine judges
    it; a piece lifted and put back on its cells is not a new placement; a placed piece that
    moves is reported (已经放入潜艇的板块不能移动)."""
    table = gw.Table(layout=0)
    table.pass_until("night")
    table.session.state = gw.with_player(table.state, 0, knowledge=("red",))
    table.ok(Hike(seat=0, companion=0))
    table.ok(Rescue(seat=0, creature="moth"))  # a domino to place
    cam = Camcorder(SubmarineReader(seats={0: 1}))
    assert cam.show(table.state, *board()) == []
    (landed,) = cam.show(table.state, *board(), piece(DOMINO, (1, 0), turn=180))
    assert landed.move == Place(seat=0, piece="domino", cells=((0, 0), (1, 0)))
    table.ok(landed.move)
    assert cam.show(table.state, *board()) == []  # lifted
    assert ("remove", DOMINO) in cam.seen
    assert cam.show(table.state, *board(), piece(DOMINO, (1, 0), turn=180, nudge=(1.5, -1))) == []
    assert ("add", DOMINO) in cam.seen  # seen again, on the same cells: nothing new
    (moved,) = cam.show(table.state, *board(), piece(DOMINO, (1, 2), turn=90))
    assert moved.move is None and moved.prompt.code == "greenwood.piece_moved"
    assert "(0,0) (1,0)" in moved.prompt.message.en


def test_an_undone_placement_is_proposed_again_when_the_piece_is_put_down_again(gw) -> None:
    """Undo (the kiosk's button) takes the placement back; the piece is not held to its cells."""
    table = gw.Table(layout=0)
    table.pass_until("night")
    table.ok(UseEnergy(seat=0, companion=0))
    table.ok(TakeWisp(seat=0))
    cam = Camcorder(SubmarineReader(seats={0: 1}))
    (landed,) = cam.show(table.state, *board(), piece(WISP, (0, 0)))
    table.ok(landed.move)
    table.session.undo()
    assert cam.show(table.state, *board()) == []
    (again,) = cam.show(table.state, *board(), piece(WISP, (0, 0)))
    assert again.move == landed.move


def test_a_piece_between_cells_is_asked_to_be_squared_and_an_illegal_one_is_refused(gw) -> None:
    """§三.10: no guess for a piece resting between cells or turned askew; a squared piece that
    breaks a rule is proposed and the engine refuses it with the rule's reason."""
    table = gw.Table(layout=0)
    table.pass_until("night")
    table.ok(UseEnergy(seat=0, companion=0))
    table.ok(TakeWisp(seat=0))
    cam = Camcorder(SubmarineReader())
    cam.show(table.state, *board())
    (askew,) = cam.show(table.state, *board(), piece(WISP, (0, 0), turn=35))
    assert askew.prompt.code == "greenwood.place_squarely" and askew.move is None
    (between,) = cam.show(table.state, *board(), piece(WISP, (0, 0), nudge=(0, 8)))
    assert between.prompt.code == "greenwood.place_squarely"
    (off_start,) = cam.show(table.state, *board(), piece(WISP, (3, 3)))
    assert off_start.move == Place(seat=0, piece="wisp", cells=((3, 3),))
    assert table.refused(off_start.move) == "greenwood.must_cover_start"
    (fixed,) = cam.show(table.state, *board(), piece(WISP, (0, 0)))
    table.ok(fixed.move)


@pytest.mark.parametrize("face", ["back"])
def test_a_board_of_another_layout_is_not_read_for_this_game(gw, face) -> None:
    """§一.1: every player uses the same layout; a board face showing another one is ignored."""
    other = BOARDS[f"submarine board 1 {face}"]  # layout 1
    tags = tuple(
        Component(t.tag_id, *on_table(t.x_mm, t.y_mm), TURN, t.size_mm) for t in other.tags
    )
    table = gw.Table(layout=0)
    cam = Camcorder(SubmarineReader())
    assert cam.show(table.state, *tags, piece(WISP, (0, 0))) == []


def quarter(cell: tuple[int, int], q: int) -> tuple[int, int]:
    """A cell turned clockwise (rows grow downwards) by ``q`` quarter turns, written out."""
    c, r = cell
    return [(c, r), (-r, c), (-c, -r), (r, -c)][q % 4]


@settings(max_examples=150, deadline=None)
@given(
    shape=st.sampled_from(sorted(s for s in CATALOGUE.shapes)),
    q=st.integers(0, 3),
    at=st.tuples(st.integers(1, 4), st.integers(1, 4)),
    board_turn=st.floats(-30, 30),
    board_at=st.tuples(st.floats(100, 600), st.floats(100, 400)),
    jitter=st.tuples(st.floats(-3, 3), st.floats(-3, 3), st.floats(-8, 8)),
)
def test_any_squarely_laid_piece_on_any_board_pose_is_read_on_its_cells(
    gw, shape, q, at, board_turn, board_at, jitter
) -> None:
    """§三.10 geometry: the reader turns a board's pose and a piece tag's place and angle (table
    mm, a few mm and degrees off) into exactly the cells the piece covers."""
    spec = CATALOGUE.shapes[shape]
    tc, tr = spec.tag_cell
    expected = sorted(
        (at[0] + dc, at[1] + dr) for dc, dr in (quarter((c - tc, r - tr), q) for c, r in spec.cells)
    )
    a = math.radians(board_turn)

    def table_point(bx: float, by: float) -> tuple[float, float]:
        x = board_at[0] + bx * math.cos(a) - by * math.sin(a)
        y = board_at[1] + bx * math.sin(a) + by * math.cos(a)
        return x, y

    obs = [
        Observation(
            "add", t.tag_id, "tag36h11", t.tag_id, *table_point(t.x_mm, t.y_mm), board_turn % 360, 0
        )
        for t in BOARD.tags
    ]
    bx = GRID.origin_mm[0] + (at[0] + 0.5) * GRID.cell_mm[0]
    by = GRID.origin_mm[1] + (at[1] + 0.5) * GRID.cell_mm[1]
    x, y = table_point(bx, by)
    angle = (board_turn + q * 90 + jitter[2]) % 360
    obs.append(
        Observation(
            "add", 99, "tag36h11", SHAPE_TAGS[shape], x + jitter[0], y + jitter[1], angle, 0
        )
    )
    table = gw.Table(layout=0)
    (proposal,) = SubmarineReader(seats={0: 1}, registry=REGISTRY).update(obs, table.state)
    assert proposal.move is not None
    assert list(proposal.move.cells) == expected and proposal.move.piece == shape


def test_the_first_tag_of_each_shape_is_where_the_tests_expect_it() -> None:
    """The tag ids above follow pieces.toml's order and copies (a check of the test's own table)."""
    shapes = piece_shapes(REGISTRY)
    assert {name: shapes[tag].name for name, tag in SHAPE_TAGS.items()} == {
        n: n for n in SHAPE_TAGS
    }
