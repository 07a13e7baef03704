"""Greenwood's camera reader: submarine boards and the pieces laid on them (greenwood.zh.md §三.10).

Each submarine board carries two tags at known places of its own grid (``vision/tags/
greenwood.toml``); each rescued-creature or wisp piece carries one tag at the centre of its
shape's ``tag_cell`` (``engine/greenwood/data/pieces.toml``). From a board's tags the reader
gets the board's frame; from a piece tag's place and angle in that frame, the cell under the tag
and the quarter turn; from the shape, every cell the piece covers. A tag that is not near a cell
centre, or turned between two quarter turns, gets a "place it squarely" prompt instead of a guess.

Two ways in:

- :func:`scan` reads one photo (``tablesight scan greenwood IMAGE``): boards are located from
  their own tags in pixels, so no table calibration is needed; each piece gets a verdict.
- :class:`SubmarineReader` is fed the stabiliser's observations (table millimetres) and the
  current engine state by the table loop, and returns :class:`Proposal` s: a ``greenwood.place``
  move to submit, or a prompt for the players.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

import cv2
import numpy as np
import numpy.typing as npt

from engine.core import ACCEPTED, Move, Reason, State, Text, Verdict
from engine.core.box import noted
from engine.core.text import Language
from engine.greenwood.board import Cell, neighbours, turn
from engine.greenwood.catalogue import Layout, Shape, box_of, catalogue, layout_item
from engine.greenwood.moves import Place
from engine.greenwood.rules.placement import check_placement
from engine.greenwood.state import GreenwoodData
from engine.greenwood.texts import BOARD, cell_names, piece_name
from vision.calibration import BoardLayout, TableCalibration, board_in_picture
from vision.detection import Detection
from vision.readers.base import Prompt, Reader
from vision.readers.frames import frame_detections
from vision.registry import TAGS_DIR, Registry, load_registry
from vision.stabiliser import Observation, SteadyView

FloatArray = npt.NDArray[np.float64]

SQUARE_CELL = 0.25
"""How far (in cells) a piece's tag may sit from its cell's centre and still count as square."""
SQUARE_DEG = 15.0
"""How far (in degrees) a piece may be turned from a quarter turn and still count as square."""

RULE = "greenwood.zh.md §三.10"
PLACE_SQUARELY = Reason(
    "greenwood.place_squarely",
    Text(
        "请把板块摆正:对齐潜艇的格子(标签{tag})",
        "Place it squarely: line the piece up with the submarine's cells (tag {tag})",
    ),
    RULE,
)
NOT_SEEN_NEIGHBOUR = Reason(
    "greenwood.neighbour_not_seen",
    Text(
        "未判定:摄像头没有读到它可能相接的板块(在{cells}附近),看不出它是否与其他板块相接",
        "Not judged: the camera did not read a piece it may touch (near {cells}), so it "
        "cannot tell whether this piece shares an edge with the others",
    ),
    RULE,
)
"""Not a fault: a piece that touches no read piece where a piece the camera did not read may
lie (`judge`)."""
SMALLEST_STICKER_MM = 12.0
"""A wisp's sticker: an outline whose centre lies within half of this (or of its own side) of a
read tag's centre is that tag's own outline."""
UNSEEN_MAY_JOIN = ("greenwood.not_adjacent", "greenwood.must_cover_start")
"""The refusals a piece the camera did not read may be the cause of (§三.10: the first piece on
the start cell, each next one sharing an edge with one placed)."""
PIECE_MOVED = Reason(
    "greenwood.piece_moved",
    Text(
        "已经放入潜艇的板块不能移动:请把它放回{cells}",
        "A placed piece may not move: put it back on {cells}",
    ),
    RULE,
)


@dataclass(frozen=True)
class Submarine:
    """One face of a submarine board: its tags and grid (registry) and the layout it shows."""

    board: BoardLayout
    item: int
    layout: int
    size_mm: tuple[float, float]


@dataclass(frozen=True)
class Reading:
    """What the camera makes of one piece on one board: cells and turn, or a prompt."""

    tag_id: int
    piece: str
    cells: tuple[Cell, ...] = ()
    rotation: int = 0
    prompt: Verdict | None = None


@dataclass(frozen=True)
class Proposal:
    """What the reader asks the table loop to do: submit ``move``, or show ``prompt``."""

    tag_id: int
    seat: int | None
    move: Place | None = None
    prompt: Verdict | None = None


@cache
def _board_data() -> tuple[list[list[int]], tuple[float, float]]:
    data = tomllib.loads((TAGS_DIR / "greenwood.toml").read_text(encoding="utf-8"))
    group = next(g for g in data["group"] if g["name"] == "submarine board")
    return group["layouts"], (float(group["board_mm"][0]), float(group["board_mm"][1]))


def submarines(registry: Registry) -> dict[int, Submarine]:
    """Every submarine board face, keyed by each of its tag ids."""
    layouts, size = _board_data()
    out: dict[int, Submarine] = {}
    for board in registry.boards.get("greenwood", []):
        name = board.name
        if not name.startswith("submarine board "):
            continue
        item_text, _, face = name.removeprefix("submarine board ").partition(" ")
        item = int(item_text)
        sub = Submarine(board, item, layouts[item - 1][0 if face == "front" else 1], size)
        for tag_id in board.tag_ids:
            out[tag_id] = sub
    return out


def piece_shapes(registry: Registry, box: Any = None) -> dict[int, Shape]:
    """The shape of every piece tag: wisps, then rescued creatures in ``pieces.toml`` order,
    as the box gives them (a game's options or state, a Box; None: the demo box)."""
    shapes = catalogue(box).shapes
    creature_shapes = [s for s in shapes.values() if s.name != "wisp" for _ in range(s.copies)]
    out: dict[int, Shape] = {}
    for entry in registry.for_game("greenwood"):
        if entry.name == "wisp":
            out[entry.tag_id] = shapes["wisp"]
        elif entry.name == "rescued creature" and entry.item <= len(creature_shapes):
            out[entry.tag_id] = creature_shapes[entry.item - 1]
    return out


def _show(cells: Iterable[Cell]) -> str:
    return " ".join(f"({c},{r})" for c, r in sorted(cells))


def tag_square(
    sub: Submarine, at: tuple[float, float], angle: float
) -> tuple[Cell, int] | Literal["askew"] | None:
    """The cell under a piece's tag at ``at`` (board mm) turned ``angle`` degrees (clockwise,
    relative to the board) and its quarter turns; None when the tag is not on this board at
    all; "askew" when it is on the board but not square (off its cell's centre or between two
    quarter turns)."""
    w, h = sub.size_mm
    if not (0 <= at[0] <= w and 0 <= at[1] <= h) or sub.board.grid is None:
        return None
    grid = sub.board.grid
    u = (at[0] - grid.origin_mm[0]) / grid.cell_mm[0]
    v = (at[1] - grid.origin_mm[1]) / grid.cell_mm[1]
    col, row = math.floor(u), math.floor(v)
    off = max(abs(u - col - 0.5), abs(v - row - 0.5))
    quarter = round((angle % 360) / 90) % 4
    tilt = abs((angle - quarter * 90 + 180) % 360 - 180)
    if off > SQUARE_CELL or tilt > SQUARE_DEG:
        return "askew"
    return (col, row), quarter


def read_piece(
    sub: Submarine, tag_id: int, shape: Shape, at: tuple[float, float], angle: float
) -> Reading | None:
    """The piece whose tag is at ``at`` (board mm) turned ``angle`` degrees (clockwise, relative
    to the board); None when the tag is not on this board at all."""
    square = tag_square(sub, at, angle)
    if square is None:
        return None
    if square == "askew":
        return Reading(tag_id, shape.name, prompt=PLACE_SQUARELY.reject(tag=tag_id))
    (col, row), quarter = square
    tc, tr = shape.tag_cell
    cells = []
    for c, r in shape.cells:
        dc, dr = turn((c - tc, r - tr), quarter)
        cells.append((col + dc, row + dr))
    return Reading(tag_id, shape.name, tuple(sorted(cells)), quarter * 90)


def judge(
    layout: Layout,
    readings: Sequence[Reading],
    box: Any = None,
    unread: Iterable[tuple[Cell, str | None]] = (),
) -> dict[int, Verdict]:
    """A verdict per squarely placed piece of one submarine seen at once (§三.10), judged by
    ``box`` (a game's state or options, a Box; None: the demo box).

    A photo does not say in which order the pieces came, so the pieces are laid in any order the
    rules allow (the start cell first, then edge neighbours); what can never be laid is refused
    with the reason it fails against all the others, saying so when the layout is the demo
    box's (``noted``).

    ``unread`` are the cells where the tag of a piece the camera did not read may lie (a
    sticker no frame read, a piece not lying squarely), each with the piece's shape when known:
    such a piece may cover any cell as far from its tag cell as its shape (else any shape of the
    box) reaches. A piece refused only because it shares no edge with a
    placed piece, or because no piece covers the start cell (`UNSEEN_MAY_JOIN`), is not judged
    (`NOT_SEEN_NEIGHBOUR`) when a chain of such cells and other unjudged pieces may join it to
    the rest: a piece the camera did not read never makes its neighbour wrong.
    """
    shapes = catalogue(box).shapes
    todo = [r for r in readings if r.prompt is None]
    covered: frozenset[Cell] = frozenset()
    verdicts: dict[int, Verdict] = {}
    progress = True
    while todo and progress:
        progress = False
        for r in list(todo):
            verdict = check_placement(layout, covered, frozenset(r.cells), shapes[r.piece])
            if verdict.ok:
                verdicts[r.tag_id] = ACCEPTED
                covered |= frozenset(r.cells)
                todo.remove(r)
                progress = True
    spots = dict(unread)
    reach = covered | _around(spots, layout, shapes)
    progress = bool(spots)
    while todo and progress:
        progress = False
        for r in list(todo):
            verdict = check_placement(layout, covered, frozenset(r.cells), shapes[r.piece])
            joined = any(n in reach for cell in r.cells for n in neighbours(cell))
            if verdict.code in UNSEEN_MAY_JOIN and joined:
                verdicts[r.tag_id] = NOT_SEEN_NEIGHBOUR.reject(cells=cell_names(spots))
                reach |= frozenset(r.cells)
                todo.remove(r)
                progress = True
    board = BOARD.format(n=layout.number)
    for r in todo:
        verdict = check_placement(layout, covered, frozenset(r.cells), shapes[r.piece])
        verdicts[r.tag_id] = noted(verdict, box_of(box), layout_item(layout.number), board)
    return verdicts


def _around(
    spots: dict[Cell, str | None], layout: Layout, shapes: dict[str, Shape]
) -> frozenset[Cell]:
    """The cells of ``layout`` a piece whose tag cell is one of ``spots`` may cover: as far
    from it (in columns and rows) as its shape, or any of ``shapes`` when it is not known,
    reaches from its tag cell (a quarter turn keeps that distance)."""

    def reach(shape: Shape) -> int:
        return max(
            max(abs(c - shape.tag_cell[0]), abs(r - shape.tag_cell[1])) for c, r in shape.cells
        )

    widest = max(map(reach, shapes.values()), default=0)
    out: set[Cell] = set()
    for (col, row), piece in spots.items():
        n = reach(shapes[piece]) if piece in shapes else widest
        out |= {
            (c, r)
            for c in range(col - n, col + n + 1)
            for r in range(row - n, row + n + 1)
            if 0 <= c < layout.cols and 0 <= r < layout.rows
        }
    return frozenset(out)


def cells_near(sub: Submarine, at: tuple[float, float]) -> list[Cell]:
    """The grid cells of ``sub`` whose centre lies within three quarters of a cell (in columns
    and in rows) of ``at`` (board mm): where the tag of a piece there may belong."""
    grid = sub.board.grid
    if grid is None:
        return []
    u = (at[0] - grid.origin_mm[0]) / grid.cell_mm[0]
    v = (at[1] - grid.origin_mm[1]) / grid.cell_mm[1]
    return [
        (c, r)
        for c in range(math.ceil(u - 1.25), math.floor(u + 0.25) + 1)
        for r in range(math.ceil(v - 1.25), math.floor(v + 0.25) + 1)
        if 0 <= c < grid.cols and 0 <= r < grid.rows
    ]


def pixel_pose(
    to_board: FloatArray, corners: Sequence[Sequence[float]]
) -> tuple[tuple[float, float], float]:
    """A tag's centre (board mm) and angle (degrees clockwise from the board's up)."""
    return pixel_poses(to_board, [corners])[0]


def pixel_poses(
    to_board: FloatArray, quads: Sequence[Sequence[Sequence[float]] | FloatArray]
) -> list[tuple[tuple[float, float], float]]:
    """`pixel_pose` of many tags (their corners in pixels) at once."""
    if len(quads) == 0:
        return []
    flat = np.asarray(quads, np.float64).reshape(1, -1, 2)
    pts = cv2.perspectiveTransform(flat, to_board)[0].reshape(-1, 4, 2)
    centres = pts.mean(axis=1)
    d = (pts[:, 0] + pts[:, 1]) / 2 - centres
    angles = np.degrees(np.arctan2(d[:, 0], -d[:, 1])) % 360
    return [((float(x), float(y)), float(a)) for (x, y), a in zip(centres, angles, strict=True)]


def scan(
    image_path: Path | None,
    lang: Language,
    *,
    registry: Registry | None = None,
    box: Any = None,
    view: SteadyView | None = None,
) -> dict[str, Any]:
    """Read one photo, or with ``view`` what a run of frames showed (`steady_view`; then
    ``image_path`` is not read): per submarine board in view, its pieces, their cells and
    verdicts, judged by ``box`` (None: the demo box); the cells under stickers that looked like
    a piece's and were not read (``unread``) make no neighbour wrong (`judge`)."""
    registry = registry or _registry()
    if view is None:
        detections, _, quads = frame_detections(image_path)
        found = registry.known(detections)
    else:
        found, quads = registry.known(view.detections), view.unread
    subs = submarines(registry)
    shapes = piece_shapes(registry, box)
    boards: dict[str, tuple[Submarine, list[Detection]]] = {}
    for d in found:
        if d.id in subs:
            boards.setdefault(subs[d.id].board.name, (subs[d.id], []))[1].append(d)
    pieces = [d for d in found if d.id in shapes]
    placed: set[int] = set()
    out_boards = []
    for name, (sub, tags) in sorted(boards.items()):
        to_board = board_in_picture(sub.board, tags)
        if to_board is None:
            continue  # its tags do not span the board's plane: nothing can be read on it
        readings = []
        unread: dict[Cell, str | None] = {}
        poses = pixel_poses(to_board, [d.corners for d in pieces])
        for d, (at, angle) in zip(pieces, poses, strict=True):
            reading = read_piece(sub, d.id, shapes[d.id], at, angle)
            if reading is not None:
                readings.append(reading)
                placed.add(d.id)
                if reading.prompt is not None:  # not lying squarely: its cells are not known
                    unread |= dict.fromkeys(cells_near(sub, at), reading.piece)
        not_read = {c for at, _ in pixel_poses(to_board, quads) for c in cells_near(sub, at)}
        unread |= dict.fromkeys(not_read - set(unread), None)  # a sticker no frame read
        layout = catalogue(box).layouts[sub.layout]
        verdicts = judge(layout, readings, box, unread.items())
        out_boards.append(
            {
                "board": name,
                "layout": sub.layout,
                "tags": sorted(d.id for d in tags),
                "pieces": [_piece_json(r, verdicts.get(r.tag_id)) for r in readings],
                "unread": [list(c) for c in sorted(not_read)],
            }
        )
    return {
        "boards": out_boards,
        "loose_pieces": sorted(d.id for d in pieces if d.id not in placed),
        "other_tags": sorted(d.id for d in found if d.id not in shapes and d.id not in subs),
    }


@cache
def _registry() -> Registry:
    """Every game's tags and the anchors, loaded once for the photos this process reads."""
    return load_registry()


def _piece_json(r: Reading, verdict: Verdict | None) -> dict[str, Any]:
    data: dict[str, Any] = {"tag": r.tag_id, "piece": r.piece}
    if r.prompt is not None:
        data["prompt"] = r.prompt.to_dict()
        return data
    data.update(cells=[list(c) for c in r.cells], rotation=r.rotation)
    if verdict is not None and verdict.code == NOT_SEEN_NEIGHBOUR.code:
        data["not_judged"] = verdict.to_dict()  # not a fault: it may touch a piece not read
    elif verdict is not None:
        data["verdict"] = verdict.to_dict()
    return data


BOARD_NAME = re.compile(r"submarine board (\d+) (front|back)")


def board_name(name: str, lang: Language) -> str:
    """A submarine board as players say it: 潜艇版图1正面 / submarine board 1, front."""
    match = BOARD_NAME.fullmatch(name)
    if match is None:
        return name
    side = {"front": ("正面", "front"), "back": ("背面", "back")}[match.group(2)]
    n = match.group(1)
    return f"潜艇版图{n}{side[0]}" if lang == "zh" else f"submarine board {n}, {side[1]}"


def describe(result: dict[str, Any], lang: Language) -> str:
    """The scan result for people, one line per board and per piece (the reason code of a
    refusal after it, in brackets, for whoever debugs a reader: ``with_codes``)."""
    return _describe(result, lang, with_codes=True)


def describe_for_players(result: dict[str, Any], lang: Language) -> str:
    """The scan result as the kiosk's camera page shows it: names only, no reason codes."""
    return _describe(result, lang, with_codes=False)


def _describe(result: dict[str, Any], lang: Language, with_codes: bool) -> str:
    en = lang != "zh"
    lines = []
    for b in result["boards"]:
        tags = ", ".join(map(str, b["tags"]))
        board = board_name(b["board"], lang)
        lines.append(
            f"  {board} (layout {b['layout']}), tags {tags}:"
            if en
            else f"  {board}(潜艇布局{b['layout']}),标签 {tags}:"
        )
        if not b["pieces"]:
            lines.append("    no pieces" if en else "    没有板块")
        for p in b["pieces"]:
            piece = piece_name(p["piece"])
            what = f"tag {p['tag']} {piece.en}" if en else f"标签{p['tag']} {piece.zh}"
            if "prompt" in p:
                lines.append(f"    {what}: {p['prompt']['message'][lang]}")
                continue
            cells = _show(tuple(c) for c in p["cells"])
            verdict = p.get("verdict") or p["not_judged"]
            word = ("accepted" if en else "可以") if verdict["ok"] else verdict["message"][lang]
            code = ""
            if not verdict["ok"] and with_codes:
                code = f" [{verdict['code']}, {verdict['rule']}]"
            where = (
                f"on {cells}, turned {p['rotation']}°" if en else f"在{cells},转{p['rotation']}°"
            )
            lines.append(f"    {what} {where}: {word}{code}")
        if b.get("unread"):
            spots = cell_names(tuple(c) for c in b["unread"])
            lines.append(
                f"    a sticker not read near {spots}: its piece is not seen"
                if en
                else f"    {spots}附近有贴纸没有读到:那里的板块没有看到"
            )
    if not result["boards"]:
        lines.append("  no submarine board in view" if en else "  画面中没有潜艇版图")
    if result["loose_pieces"]:
        loose = ", ".join(map(str, result["loose_pieces"]))
        lines.append(f"  pieces off any board: {loose}" if en else f"  不在潜艇上的板块:{loose}")
    return "\n".join(lines)


# --- the table loop's reader ---------------------------------------------------------------


@dataclass
class SubmarineReader(Reader):
    """Turns steady observations of submarine boards and pieces into placement moves.

    Call :meth:`update` with each batch of stabiliser observations (table millimetres) and the
    engine state the moves will be judged against. ``seats`` maps a seat to the board item
    (1–8) in front of it; by default the boards in view showing the game's layout go to seats
    0, 1, … in item order. A piece lifted and put back on the same cells is not a new placement;
    a placed piece that lands elsewhere gets the ``greenwood.piece_moved`` prompt.

    As :func:`scan` does, a piece the camera did not read (an unread sticker's outline,
    :meth:`see_unread`, or a piece not lying squarely) never makes its neighbour refused: a
    placement the engine would refuse only for touching no placed piece, or for missing the
    start cell (`UNSEEN_MAY_JOIN`), where such a piece may join it, is not submitted but
    answered "not judged" (`NOT_SEEN_NEIGHBOUR`), and proposed again once something changes.
    """

    seats: dict[int, int] | None = None
    registry: Registry = field(default_factory=load_registry)
    _poses: dict[int, tuple[float, float, float]] = field(default_factory=dict)
    _bound: dict[int, tuple[int, frozenset[Cell]]] = field(default_factory=dict)
    _proposed: dict[int, tuple[int, frozenset[Cell]]] = field(default_factory=dict)
    _unread: list[FloatArray] = field(default_factory=list)
    _waiting: dict[int, tuple[int, frozenset[Cell]]] = field(default_factory=dict)
    """Pieces answered "not judged", with where they lay when answered."""

    def __post_init__(self) -> None:
        self._subs = submarines(self.registry)
        self._shapes = piece_shapes(self.registry)

    def _follow_box(self, state: State[GreenwoodData]) -> None:
        """The pieces' shapes of the box the game is played with (read again when it changes)."""
        box = state.options.box
        if box is not self.__dict__.get("_box", False):
            self._shapes = piece_shapes(self.registry, box)
            self.__dict__["_box"] = box

    def update(
        self, observations: Iterable[Observation], state: State[GreenwoodData]
    ) -> list[Proposal]:
        """What the players did, as proposals; only pieces that were added or moved are read."""
        self._follow_box(state)
        changed: set[int] = set()
        board_moved = False
        for obs in observations:
            if obs.tag_id in self._shapes or obs.tag_id in self._subs:
                if obs.kind in ("add", "update"):
                    self._poses[obs.tag_id] = (obs.x_mm, obs.y_mm, obs.angle_deg)
                    changed.add(obs.tag_id)
                    board_moved |= obs.tag_id in self._subs
                elif obs.kind == "remove":
                    self._poses.pop(obs.tag_id, None)  # lifted: it may come back
        self._learn_accepted(state)
        for tag in changed:
            self._proposed.pop(tag, None)  # put down anew: judge it anew
        self._waiting = {t: w for t, w in self._waiting.items() if t in self._poses}
        frames = self._frames(state)
        todo = {t for t in self._poses if t in self._shapes}
        if not board_moved:
            todo = {t for t in todo if t in changed} | set(self._waiting)
        # the pieces not judged last: a neighbour proposed now counts as placed for them
        order = sorted(todo, key=lambda t: (t in self._waiting, t))
        pending: dict[int, frozenset[Cell]] = {}
        out = []
        for tag in order:
            proposal = self._read(tag, frames, state, pending)
            if proposal is not None:
                out.append(proposal)
                if proposal.move is not None and proposal.seat is not None:
                    cells = frozenset(proposal.move.cells)
                    pending[proposal.seat] = pending.get(proposal.seat, frozenset()) | cells
        return out

    def see_unread(self, outlines_mm: Sequence[FloatArray]) -> None:
        """The outlines (4×2, table mm) of the stickers in view the camera does not read."""
        self._unread = [np.asarray(q, np.float64).reshape(4, 2) for q in outlines_mm]

    def observe(
        self, observations: Iterable[Observation], state: State[GreenwoodData]
    ) -> list[Move | Prompt]:
        """The :class:`vision.readers.Reader` interface: :meth:`update`'s proposals as the
        moves to submit and the prompts to show."""
        out: list[Move | Prompt] = []
        for p in self.update(observations, state):
            if p.move is not None:
                out.append(p.move)
            elif p.prompt is not None:
                out.append(Prompt(p.prompt.code, p.prompt.message, p.seat))
        return out

    def _learn_accepted(self, state: State[GreenwoodData]) -> None:
        """Proposed placements the engine accepted bind their piece to its cells; a binding
        whose placement is no longer in the state (undone) is let go."""

        def in_state(seat: int, cells: frozenset[Cell]) -> bool:
            return seat < state.players and any(
                p.cells == cells for p in state.data.players[seat].pieces
            )

        for tag, (seat, cells) in list(self._proposed.items()):
            if in_state(seat, cells):
                self._bound[tag] = (seat, cells)
                del self._proposed[tag]
        for tag, (seat, cells) in list(self._bound.items()):
            if not in_state(seat, cells):
                del self._bound[tag]

    def _frames(self, state: State[GreenwoodData]) -> dict[int, tuple[Submarine, FloatArray]]:
        """Seat → (board face, table-mm → board-mm map) for the boards in view."""
        faces: dict[int, tuple[Submarine, dict[int, tuple[float, float, float]]]] = {}
        for tag, pose in self._poses.items():
            sub = self._subs.get(tag)
            if sub is not None and sub.layout == state.options.layout:
                faces.setdefault(sub.item, (sub, {}))[1][tag] = pose
        seats = self.seats or dict(enumerate(sorted(faces)))
        return {
            seat: (faces[item][0], _board_frame(*faces[item]))
            for seat, item in seats.items()
            if item in faces and seat < state.players
        }

    def _on_board(
        self, tag: int, sub: Submarine, to_board: FloatArray
    ) -> tuple[tuple[float, float], Reading | None]:
        """Where a piece's tag lies on a board (board mm) and what it reads there."""
        x, y, angle = self._poses[tag]
        at = _apply(to_board, (x, y))
        up = _apply(
            to_board, (x + math.sin(math.radians(angle)), y - math.cos(math.radians(angle)))
        )
        rel = math.degrees(math.atan2(up[0] - at[0], -(up[1] - at[1]))) % 360
        return at, read_piece(sub, tag, self._shapes[tag], at, rel)

    def _read(
        self,
        tag: int,
        frames: dict[int, tuple[Submarine, FloatArray]],
        state: State[GreenwoodData],
        pending: dict[int, frozenset[Cell]] | None = None,
    ) -> Proposal | None:
        for seat, (sub, to_board) in frames.items():
            _, reading = self._on_board(tag, sub, to_board)
            if reading is None:
                continue
            was_waiting = self._waiting.pop(tag, None)
            if reading.prompt is not None:
                return Proposal(tag, seat, prompt=reading.prompt)
            cells = frozenset(reading.cells)
            bound = self._bound.get(tag)
            if bound is not None:
                if bound == (seat, cells):
                    return None  # lifted and put back where it was
                return Proposal(tag, bound[0], prompt=PIECE_MOVED.reject(cells=_show(bound[1])))
            if any(p.cells == cells for p in state.data.players[seat].pieces):
                self._bound[tag] = (seat, cells)  # placed before the reader started
                return None
            if self._proposed.get(tag) == (seat, cells):
                return None  # already proposed; the kiosk shows the engine's answer
            covered = state.data.players[seat].covered | (pending or {}).get(seat, frozenset())
            unseen = self._not_judged(tag, reading, seat, sub, to_board, covered, state)
            if unseen is not None:
                self._waiting[tag] = (seat, cells)
                if was_waiting == (seat, cells):
                    return None  # said already; judged again at the next change in view
                return Proposal(tag, seat, prompt=unseen)
            self._proposed[tag] = (seat, cells)
            move = Place(seat=seat, piece=reading.piece, cells=reading.cells)
            return Proposal(tag, seat, move=move)
        return None

    def _not_judged(
        self,
        tag: int,
        reading: Reading,
        seat: int,
        sub: Submarine,
        to_board: FloatArray,
        covered: frozenset[Cell],
        state: State[GreenwoodData],
    ) -> Verdict | None:
        """`NOT_SEEN_NEIGHBOUR` when the engine would refuse ``reading`` on a board covered at
        ``covered`` only for what a piece the camera does not read there may change (`judge`'s
        rule: an unread sticker's outline, a piece not lying squarely, or a piece itself not
        judged may join it); else None (the engine judges it)."""
        layout = catalogue(state).layouts[sub.layout]
        shapes = catalogue(state).shapes
        cells = frozenset(reading.cells)
        verdict = check_placement(layout, covered, cells, shapes[reading.piece])
        if verdict.ok or verdict.code not in UNSEEN_MAY_JOIN:
            return None
        spots: dict[Cell, str | None] = {}
        held = [np.array(p[:2]) for t, p in self._poses.items() if t != tag]
        for quad in self._unread:
            centre, side = quad.mean(axis=0), _side(quad)
            if any(np.hypot(*(centre - h)) < min(side, SMALLEST_STICKER_MM) / 2 for h in held):
                continue  # a read tag's own outline: that piece is read
            at = _apply(to_board, (float(centre[0]), float(centre[1])))
            spots |= dict.fromkeys(cells_near(sub, at), None)
        waiting: set[Cell] = set()
        for other in self._poses:
            if other == tag or other not in self._shapes:
                continue
            at, seen = self._on_board(other, sub, to_board)
            if seen is not None and seen.prompt is not None:  # not lying squarely
                spots |= dict.fromkeys(cells_near(sub, at), seen.piece)
            elif other in self._waiting and self._waiting[other][0] == seat:
                waiting |= self._waiting[other][1]
        if not spots:
            return None
        reach = covered | waiting | _around(spots, layout, shapes)
        if not any(n in reach for cell in cells for n in neighbours(cell)):
            return None
        return NOT_SEEN_NEIGHBOUR.reject(cells=cell_names(spots))


def _side(quad: FloatArray) -> float:
    """A quad's mean side."""
    return float(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1).mean())


def _board_frame(sub: Submarine, seen: dict[int, tuple[float, float, float]]) -> FloatArray:
    """The map from table mm to the board's own mm, from the board tags seen (one is enough)."""
    places = {t.tag_id: t for t in sub.board.tags}
    angles = [math.radians(pose[2] - places[tag].rotation_deg) for tag, pose in seen.items()]
    a = math.atan2(sum(map(math.sin, angles)), sum(map(math.cos, angles)))
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    shifts = [
        np.array(pose[:2]) - rot @ (places[tag].x_mm, places[tag].y_mm)
        for tag, pose in seen.items()
    ]
    board_to_table = np.eye(3)
    board_to_table[:2, :2], board_to_table[:2, 2] = rot, np.mean(shifts, axis=0)
    return np.asarray(np.linalg.inv(board_to_table), dtype=np.float64)


def _apply(h: FloatArray, point: tuple[float, float]) -> tuple[float, float]:
    p = h @ np.array([point[0], point[1], 1.0])
    return float(p[0] / p[2]), float(p[1] / p[2])


def table_reader(
    registry: Registry, calibration: TableCalibration, detections: Sequence[Detection] = ()
) -> SubmarineReader:
    """The table loop's reader (``vision.readers.table_reader``): boards are found from their
    own tags in the observations, so nothing is located up front."""
    return SubmarineReader(registry=registry)
