"""The submarine placement rules (greenwood.zh.md §三.10) and the rewards a placement pays.

Pure functions of a layout, the cells already covered and the cells of the new piece: the
rules engine calls them to judge a placement move, the camera reader calls them to explain a
piece it sees.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache

from engine.core import ACCEPTED, Reason, Text, Verdict
from engine.greenwood.board import Cell, Cells, neighbours, orientation_of, turn
from engine.greenwood.catalogue import Layout, Shape
from engine.greenwood.texts import cell_names, piece_name

RULE = "greenwood.zh.md §三.10"

WRONG_SHAPE = Reason(
    "greenwood.wrong_shape",
    Text("这些格子不是{piece}的形状", "Those cells are not the shape of the {piece}"),
    RULE,
)
OUTSIDE_GRID = Reason(
    "greenwood.outside_grid",
    Text(
        "板块必须完整放在潜艇网格内,{cells}超出边界",
        "The piece must lie inside the grid: {cells} is outside",
    ),
    RULE,
)
OVERLAP = Reason(
    "greenwood.overlap",
    Text("板块之间不能重叠:{cells}已被覆盖", "Pieces may not overlap: {cells} is already covered"),
    RULE,
)
UNUSABLE = Reason(
    "greenwood.unusable_cell",
    Text("不能覆盖不可使用的格子{cells}", "The piece covers unusable cell {cells}"),
    RULE,
)
MUST_COVER_START = Reason(
    "greenwood.must_cover_start",
    Text("第一块板块必须覆盖起始格{start}", "The first piece must cover the start cell {start}"),
    RULE,
)
NOT_ADJACENT = Reason(
    "greenwood.not_adjacent",
    Text(
        "新板块至少要有一条边与已放置的板块相接,只有角落接触不算",
        "The piece must share an edge with a placed piece; touching at a corner does not count",
    ),
    RULE,
)


def _show(cells: Iterable[Cell]) -> str:
    """Cells as the rewards' sources name them (``(0,0) (1,0)``): not for players' eyes."""
    return " ".join(f"({c},{r})" for c, r in sorted(cells))


def check_placement(layout: Layout, covered: Cells, cells: Cells, shape: Shape) -> Verdict:
    """Whether ``cells`` may take a piece of ``shape`` on a submarine already covered at
    ``covered`` (§三.10), with the first broken rule as the reason."""
    if orientation_of(cells, shape.cells, shape.flippable) is None:
        return WRONG_SHAPE.reject(piece=piece_name(shape.name))
    outside = {(c, r) for c, r in cells if not (0 <= c < layout.cols and 0 <= r < layout.rows)}
    if outside:
        return OUTSIDE_GRID.reject(cells=cell_names(outside))
    if cells & covered:
        return OVERLAP.reject(cells=cell_names(cells & covered))
    if cells & layout.unusable:
        return UNUSABLE.reject(cells=cell_names(cells & layout.unusable))
    if not covered:
        if layout.start not in cells:
            return MUST_COVER_START.reject(start=cell_names([layout.start]))
    elif not any(n in covered for cell in cells for n in neighbours(cell)):
        return NOT_ADJACENT.reject()
    return ACCEPTED


def rewards_of(layout: Layout, covered: Cells, cells: Cells) -> list[tuple[str, str]]:
    """The rewards a legal placement pays, in order: icons it completes, then areas it completes.

    Returns ``(source, reward)`` pairs; an icon or area already complete before pays nothing.
    Unusable cells count as covered for areas (§三.10).
    """
    after = covered | cells
    out = []
    for icon in layout.icons:
        if icon.cells <= after and not icon.cells <= covered:
            out.append((f"icon {_show(icon.cells)}", icon.reward))
    done_before = covered | layout.unusable
    done_after = after | layout.unusable
    for area in layout.areas:
        if area.cells <= done_after and not area.cells <= done_before:
            out.append((f"area {area.name}", area.reward))
    return out


Placement = tuple[tuple[Cell, ...], tuple[int, bool]]
"""A way to lay a piece: its cells row by row, and (clockwise degrees, flipped)."""


@cache
def placements(cols: int, rows: int, shape: Shape) -> tuple[Placement, ...]:
    """Every way to lay ``shape`` inside a board of ``cols`` × ``rows``, each turn (and flip)
    once."""
    seen: set[frozenset[Cell]] = set()
    out: list[Placement] = []
    for flipped in (False, True) if shape.flippable else (False,):
        for q in range(4):
            turned = [turn(c, q, flipped) for c in shape.cells]
            c0, r0 = min(c for c, _ in turned), min(r for _, r in turned)
            base = frozenset((c - c0, r - r0) for c, r in turned)
            if base in seen:
                continue
            seen.add(base)
            width = max(c for c, _ in base) + 1
            height = max(r for _, r in base) + 1
            for dc in range(cols - width + 1):
                for dr in range(rows - height + 1):
                    cells = sorted(((c + dc, r + dr) for c, r in base), key=lambda x: (x[1], x[0]))
                    out.append((tuple(cells), (q * 90, flipped)))
    return tuple(out)


def _fits(layout: Layout, covered: Cells, cells: tuple[Cell, ...]) -> bool:
    """§三.10 for one placement, without the shape check (the cells are the piece's)."""
    if covered.intersection(cells) or layout.unusable.intersection(cells):
        return False
    if not covered:
        return layout.start in cells
    return any(n in covered for cell in cells for n in neighbours(cell))


def room(
    layout: Layout, covered: Cells, pieces: tuple[str, ...], shapes: Mapping[str, Shape]
) -> bool:
    """Whether these pieces (named in ``shapes``) can go into the submarine one after the
    other (§三.10)."""
    if not pieces:
        return True
    for cells, _ in placements(layout.cols, layout.rows, shapes[pieces[0]]):
        if _fits(layout, covered, cells) and room(layout, covered | set(cells), pieces[1:], shapes):
            return True
    return False
