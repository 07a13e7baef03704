"""Cells and shapes on a submarine grid: orientations and matching (pure geometry).

A cell is ``(column, row)`` with rows growing downwards, as the camera sees a board.

>>> sorted(normalise({(3, 4), (4, 4)}))
[(0, 0), (1, 0)]
>>> orientation_of({(2, 1), (2, 2)}, frozenset({(0, 0), (1, 0)}), flippable=False)
(90, False)
"""

from __future__ import annotations

from collections.abc import Iterable

Cell = tuple[int, int]
Cells = frozenset[Cell]


def normalise(cells: Iterable[Cell]) -> Cells:
    """The cells moved so that the smallest column and row are 0."""
    cells = list(cells)
    c0 = min(c for c, _ in cells)
    r0 = min(r for _, r in cells)
    return frozenset((c - c0, r - r0) for c, r in cells)


def turn(cell: Cell, quarter_turns: int, flipped: bool = False) -> Cell:
    """A cell turned clockwise (as seen from above) by quarter turns, mirrored first if flipped."""
    c, r = (-cell[0], cell[1]) if flipped else cell
    for _ in range(quarter_turns % 4):
        c, r = -r, c
    return c, r


def orientation_of(cells: Iterable[Cell], shape: Cells, flippable: bool) -> tuple[int, bool] | None:
    """The (clockwise degrees, flipped) that lay ``shape`` on ``cells``, or None if none does."""
    target = normalise(cells)
    for flipped in (False, True) if flippable else (False,):
        for q in range(4):
            if normalise(turn(c, q, flipped) for c in shape) == target:
                return q * 90, flipped
    return None


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The four cells sharing an edge with ``cell`` (corners do not count, §三.10)."""
    c, r = cell
    return ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1))
