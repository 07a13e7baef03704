"""Greenwood in live play (issue #39): a piece whose sticker the camera sees but cannot read
never makes the engine refuse its neighbour. The table loop tells the reader the outlines of the
stickers in view it does not read (`IncrementalDetector.unread`, through the calibration); a
placement the engine would refuse only for touching no placed piece or missing the start cell
(greenwood.zh.md §三.10), next to such an outline, is answered "not judged" and not submitted.
Real renders through the real detector; the unread sticker's data cells are washed out."""

from __future__ import annotations

import math

import greenwood_frames as gf
import numpy as np
from worn_stickers import erase

from engine.greenwood.moves import Place, TakeWisp, UseEnergy
from kiosk.loop import TableLoop
from kiosk.settings import load_settings
from kiosk.table import open_table
from vision.detection import Detector
from vision.incremental import IncrementalDetector
from vision.readers.base import Prompt
from vision.readers.greenwood import RULE, SubmarineReader
from vision.registry import load_registry
from vision.sources import Frame
from vision.stabiliser import Stabiliser, StabiliserConfig
from vision.synthetic import Camera, Component, Effects, SyntheticTable, apply_homography, render

REGISTRY = load_registry()
BOARD = next(b for b in REGISTRY.boards["greenwood"] if b.name == "submarine board 1 front")
GRID = BOARD.grid
ORIGIN = (300.0, 200.0)  # the board's top-left corner on the table
TURN = 8.0
CAMERA = Camera.overhead(800, 600, height_mm=320, over_mm=(390, 270), hfov_deg=60)
TO_TABLE = np.linalg.inv(CAMERA.table_homography())
DOMINO, WISP = 148, 198  # pieces.toml: the first domino's and the first wisp's tags
DATA_CELLS = [(c, r) for c in range(1, 7) for r in range(1, 7)]


def on_table(bx: float, by: float) -> tuple[float, float]:
    a = math.radians(TURN)
    return (
        ORIGIN[0] + bx * math.cos(a) - by * math.sin(a),
        ORIGIN[1] + bx * math.sin(a) + by * math.cos(a),
    )


def piece(tag: int, cell: tuple[int, int]) -> Component:
    """A piece whose tag lies on the centre of ``cell``, square with the board."""
    bx = GRID.origin_mm[0] + (cell[0] + 0.5) * GRID.cell_mm[0]
    by = GRID.origin_mm[1] + (cell[1] + 0.5) * GRID.cell_mm[1]
    return Component(tag, *on_table(bx, by), TURN, 14)


def board() -> tuple[Component, ...]:
    return tuple(
        Component(t.tag_id, *on_table(t.x_mm, t.y_mm), TURN, t.size_mm) for t in BOARD.tags
    )


def to_table(points: np.ndarray) -> np.ndarray:
    """Pixels to table mm (this camera bends nothing): what a calibration's ``to_table`` does."""
    return apply_homography(TO_TABLE, points)


def live(state, *components: Component, worn: tuple[int, ...] = (), tell: bool = True) -> list:
    """Three frames of a still table through the loop's detector and stabiliser into a reader
    of seat 0's board; with ``tell``, the reader is told the unread outlines as the loop tells
    it. Returns what the reader said (moves and prompts)."""
    shot = render(SyntheticTable(components), CAMERA, Effects(noise=2, blur=0.6), seed=4)
    image = shot.image
    for tag in worn:
        image = erase(image, shot.truth_by_id()[tag], DATA_CELLS, 1.0)
    detector = IncrementalDetector(Detector())
    stabiliser = Stabiliser(StabiliserConfig(add_frames=2, add_ms=0), to_table=to_table)
    reader = SubmarineReader(seats={0: 1})
    said: list = []
    for i in range(3):
        found = REGISTRY.known(detector.detect(image))
        assert not set(worn) & {d.id for d in found}  # the premise: the camera cannot read it
        observations = stabiliser.update(found, i * 100.0)
        if tell:
            reader.see_unread([to_table(q) for q in detector.unread])
        said += reader.observe(observations, state)
    return said


class Still:
    """A camera source that is never started: the test hands the loop its frames."""

    name = "still"

    def open(self) -> None:
        """Nothing to open."""

    def read(self) -> Frame:
        raise AssertionError("the test feeds the loop's frames itself")

    def close(self) -> None:
        """Nothing to close."""


def awaiting_a_wisp(gw):
    """Seat 0 at night with a wisp to place and nothing placed yet."""
    table = gw.Table(layout=0)
    table.pass_until("night")
    table.ok(UseEnergy(seat=0, companion=0))
    table.ok(TakeWisp(seat=0))
    return table


def test_a_wisp_beside_an_unread_piece_on_the_start_cell_is_not_judged(gw) -> None:
    """§三.10: the first piece must cover the start cell. A domino lies on the start cell with
    its sticker unread; the wisp laid beside it is not refused (must_cover_start) but not
    judged, naming where the unread sticker lies; without the outlines (as before) the same
    frames give the move and the engine refuses it."""
    assert RULE == "greenwood.zh.md §三.10"
    table = awaiting_a_wisp(gw)
    scene = (*board(), piece(DOMINO, (0, 0)), piece(WISP, (2, 0)))
    (said,) = live(table.state, *scene, worn=(DOMINO,))
    assert isinstance(said, Prompt) and said.seat == 0
    assert said.code == "greenwood.neighbour_not_seen"
    assert "Not judged" in said.message.en and "未判定" in said.message.zh
    (before,) = live(table.state, *scene, worn=(DOMINO,), tell=False)
    assert before == Place(seat=0, piece="wisp", cells=((2, 0),))
    assert table.refused(before) == "greenwood.must_cover_start"


def test_a_wisp_far_from_the_unread_piece_is_still_refused(gw) -> None:
    """§三.10: a wisp that no unread piece can reach (three cells away) is proposed and the
    engine refuses it: an unread sticker excuses only its neighbours."""
    table = awaiting_a_wisp(gw)
    (said,) = live(
        table.state, *board(), piece(DOMINO, (0, 0)), piece(WISP, (4, 4)), worn=(DOMINO,)
    )
    assert said == Place(seat=0, piece="wisp", cells=((4, 4),))
    assert table.refused(said) == "greenwood.must_cover_start"


def test_with_every_sticker_read_the_engine_judges_as_before(gw) -> None:
    """Nothing unread on the board: the wisp beside the (read, unplaced) domino is proposed and
    refused by the engine, as the rules say (§三.10)."""
    table = awaiting_a_wisp(gw)
    said = live(table.state, *board(), piece(DOMINO, (0, 0)), piece(WISP, (2, 0)))
    assert Place(seat=0, piece="wisp", cells=((2, 0),)) in said


class Live:
    """One reader fed over several scenes (frames of each through the loop's detector and
    stabiliser, the unread outlines told as the loop tells them)."""

    def __init__(self) -> None:
        self.detector = IncrementalDetector(Detector())
        self.stabiliser = Stabiliser(StabiliserConfig(add_frames=2, add_ms=0), to_table=to_table)
        self.reader = SubmarineReader(seats={0: 1})
        self.clock = 0.0

    def show(self, state, *components: Component, worn: tuple[int, ...] = ()) -> list:
        shot = render(SyntheticTable(components), CAMERA, Effects(noise=2, blur=0.6), seed=4)
        image = shot.image
        for tag in worn:
            image = erase(image, shot.truth_by_id()[tag], DATA_CELLS, 1.0)
        said: list = []
        for _ in range(3):
            self.clock += 100
            found = REGISTRY.known(self.detector.detect(image))
            observations = self.stabiliser.update(found, self.clock)
            if observations:  # as the loop: told, then observed, only when something changed
                self.reader.see_unread([to_table(q) for q in self.detector.unread])
                said += self.reader.observe(observations, state)
        return said


def test_a_wisp_left_open_is_placed_once_the_wisp_it_touches_is_read(gw) -> None:
    """§三.10 with two wisps to place (a reward of two): the first laid on the start cell with
    its sticker not read yet, the second beside it. The second is not judged (never
    must_cover_start); once the first's sticker reads, both are proposed, the first before the
    second, and the engine accepts both in that order."""
    table = gw.Table(layout=0)
    table.pass_until("night")
    two = (("a reward of two wisps", "place:wisp"),) * 2
    table.session.state = gw.with_player(table.state, 0, pending=two)
    first, second = piece(WISP + 1, (0, 0)), piece(WISP, (1, 0))  # the second's tag is lower
    live = Live()
    (said,) = live.show(table.state, *board(), first, second, worn=(WISP + 1,))
    assert isinstance(said, Prompt) and said.code == "greenwood.neighbour_not_seen"
    moves = live.show(table.state, *board(), first, second)
    assert moves == [
        Place(seat=0, piece="wisp", cells=((0, 0),)),
        Place(seat=0, piece="wisp", cells=((1, 0),)),
    ]
    for move in moves:
        table.ok(move)
    assert table.player(0).covered == {(0, 0), (1, 0)}


def test_the_table_loop_tells_the_reader_where_unread_stickers_lie_through_the_lens(
    tmp_path,
) -> None:
    """The loop's part: through a k1 -0.25 lens 12° off vertical at 1920 × 1080, a piece whose
    sticker's data cells are washed out is told to Greenwood's reader as an outline at its place
    on the table (within 1.5 mm: through the calibration's lens), and no read sticker is."""
    tilt = math.radians(12.0)
    lens = Camera.overhead(
        1920, 1080, height_mm=800, over_mm=(450, 300 - 800 * math.tan(tilt)), tilt_deg=12, k1=-0.25
    )
    anchors = tuple(
        Component(a.tag_id, a.x_mm, a.y_mm, a.rotation_deg, a.size_mm)
        for a in REGISTRY.anchors().values()
    )
    scene = SyntheticTable(anchors + gf.table().components)
    shot = render(scene, lens, Effects(noise=2), seed=4)
    worn = gf.board_pieces()["submarine board 2 front"][1].tag  # a bar of three
    image = erase(shot.image, shot.truth_by_id()[worn], DATA_CELLS, 1.0)

    settings = load_settings(data_dir=tmp_path, lang="en", game="greenwood")
    table, store = open_table(settings)
    try:
        loop = TableLoop(table, Still())
        for i in range(4):
            loop.process(Frame(image, i * 100.0, i))
    finally:
        store.close()
    assert loop.calibration is not None and loop.calibration.lens.bends
    reader = loop._reader
    assert isinstance(reader, SubmarineReader)
    truth = shot.truth_by_id()
    centres = [q.mean(axis=0) for q in reader._unread]  # what the loop told it last
    assert centres, "the loop told the reader of no unread sticker"
    assert worn not in reader._poses  # the premise: the camera cannot read it
    near = [math.hypot(c[0] - truth[worn].x_mm, c[1] - truth[worn].y_mm) for c in centres]
    assert min(near) < 1.5, near
    read = [t for t in truth.values() if t.tag_id != worn]
    for c in centres:  # no read sticker is taken for an unread one
        assert all(math.hypot(c[0] - t.x_mm, c[1] - t.y_mm) > 5 for t in read), c
