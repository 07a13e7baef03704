"""Map geometry: tiles on a half-tile grid and which of them are adjacent.

A tile is 2 × 2 half-tile units; a place is the (x, y) of its top-left corner in those units.
Two tiles are adjacent when they share at least half an edge; touching at a corner is not enough
(dont-starve.zh.md 移动 / 相邻).

>>> adjacent((0, 0), (2, 1)), adjacent((0, 0), (2, 2)), adjacent((0, 0), (1, 2))
(True, False, True)
"""

from __future__ import annotations

Place = tuple[int, int]
TILE = 2
"""A tile's edge in half-tile units."""


def shared_edge(a: Place, b: Place) -> int:
    """How many half-tile units of edge two non-overlapping tiles share (0 when apart)."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    if dx == TILE and dy < TILE:
        return TILE - dy
    if dy == TILE and dx < TILE:
        return TILE - dx
    return 0


def adjacent(a: Place, b: Place) -> bool:
    """Whether the tiles at ``a`` and ``b`` share at least half an edge."""
    return shared_edge(a, b) >= 1


def overlap(a: Place, b: Place) -> bool:
    """Whether two tiles cover some of the same table."""
    return abs(a[0] - b[0]) < TILE and abs(a[1] - b[1]) < TILE


def adjacency(places: dict[str, Place]) -> dict[str, list[str]]:
    """Each named tile with the names of its neighbours, sorted."""
    return {
        name: sorted(o for o, q in places.items() if o != name and adjacent(p, q))
        for name, p in places.items()
    }
