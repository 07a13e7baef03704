"""Greenwood's printed content, loaded once from the TOML files in ``engine/greenwood/data``.

Layouts, shapes, creatures, tracks and threats are data, not code: the files say which values
are invented placeholders and how to replace them (see ``docs/greenwood.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core.box import Box, BoxFiles, box_in, demo_box
from engine.core.text import Text
from engine.greenwood.board import Cell, Cells, normalise
from engine.greenwood.errors import GreenwoodDataError

KNOWLEDGE = ("red", "blue", "yellow")
"""红色知识 揭示陷阱, 蓝色知识 消除幻象, 黄色知识 破除咒语 (§三.8)."""
REWARD_KINDS = ("vp", "energy", "spy", "aurora", "strength", "pathfinding", "slot", "wisp")


@dataclass(frozen=True)
class Icon:
    """A reward icon printed in the hold; it pays when all its cells are covered (§三.10)."""

    cells: frozenset[Cell]
    reward: str


@dataclass(frozen=True)
class Area:
    """A column, diagonal or marked area; it pays when complete (§三.10)."""

    name: str
    cells: frozenset[Cell]
    reward: str


@dataclass(frozen=True)
class Layout:
    """One submarine layout (0–3), the same for every player (§一.1)."""

    number: int
    cols: int
    rows: int
    start: Cell
    unusable: frozenset[Cell]
    icons: tuple[Icon, ...]
    areas: tuple[Area, ...]
    placeholder: bool


@dataclass(frozen=True)
class Shape:
    """A piece's shape: its cells, the cell carrying its tag, whether it may lie face down."""

    name: str
    cells: Cells
    tag_cell: Cell
    flippable: bool
    copies: int


@dataclass(frozen=True)
class Creature:
    """A captive creature tile (§三.9): deck, shape, pieces (2 for a pair), cost, points."""

    name: str
    deck: str
    shape: str
    pieces: int
    cost: tuple[str, ...]
    vp: int


@dataclass(frozen=True)
class Threat:
    """A threat card (§四.5): what triggers it and what protecting against it pays."""

    name: str
    trigger: str
    protection: tuple[str, ...]


@dataclass(frozen=True)
class Track:
    """The strength or pathfinding track: rewards per space, the end reward or the loop."""

    spaces: tuple[tuple[str, ...], ...]
    end_reward: tuple[str, ...] = ()
    loop_from: int | None = None
    ranges: tuple[int, ...] = ()


@dataclass(frozen=True)
class Catalogue:
    """Everything printed that the rules engine needs."""

    layouts: dict[int, Layout]
    shapes: dict[str, Shape]
    creatures: dict[str, Creature]
    large_extra: tuple[str, ...]
    threats: tuple[Threat, ...]
    strength: Track
    pathfinding: Track


def parse_reward(text: str) -> tuple[str, int]:
    """``"vp:3"`` → ("vp", 3); ``"energy"`` → ("energy", 1); GreenwoodDataError if unknown."""
    kind, _, amount = text.partition(":")
    if kind not in REWARD_KINDS:
        raise GreenwoodDataError(f"unknown reward {text!r}; rewards are {', '.join(REWARD_KINDS)}")
    try:
        return kind, int(amount) if amount else 1
    except ValueError:
        raise GreenwoodDataError(f"reward {text!r}: the amount must be a whole number") from None


def _cells(raw: Any) -> Cells:
    return frozenset((int(c), int(r)) for c, r in raw)


def _rewards(raw: Any) -> tuple[str, ...]:
    out = tuple(str(r) for r in raw)
    for r in out:
        parse_reward(r)
    return out


def _named_layout(raw: dict[str, Any]) -> Layout:
    """A layout; a problem is said with the layout's number."""
    try:
        return _layout(raw)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        what = f"missing field {exc.args[0]!r}" if isinstance(exc, KeyError) else str(exc)
        raise ValueError(f"layout {raw.get('number', '?')}: {what}") from None


def _layout(raw: dict[str, Any]) -> Layout:
    layout = Layout(
        number=int(raw["number"]),
        cols=int(raw["cols"]),
        rows=int(raw["rows"]),
        start=(int(raw["start"][0]), int(raw["start"][1])),
        unusable=_cells(raw.get("unusable", [])),
        icons=tuple(Icon(_cells(i["cells"]), _rewards([i["reward"]])[0]) for i in raw["rewards"]),
        areas=tuple(
            Area(str(a["name"]), _cells(a["cells"]), _rewards([a["reward"]])[0])
            for a in raw["areas"]
        ),
        placeholder=bool(raw.get("placeholder", False)),
    )
    grid = {(c, r) for c in range(layout.cols) for r in range(layout.rows)}
    every = [layout.start, *layout.unusable]
    every += [c for i in layout.icons for c in i.cells] + [c for a in layout.areas for c in a.cells]
    outside = sorted(set(every) - grid)
    if outside:
        raise ValueError(f"cells {outside} are outside the {layout.cols}×{layout.rows} grid")
    if layout.start in layout.unusable:
        raise ValueError("the start cell is unusable")
    return layout


PACKAGE = "engine.greenwood.data"
FILES = ("submarines.toml", "pieces.toml", "tracks.toml")
"""The demo box's data files (``engine/greenwood/data``) and the box's files."""

BOX_KINDS = {
    "submarines/layout": Text("潜艇板", "submarine boards"),
    "pieces/shape": Text("板块形状", "piece shapes"),
    "pieces/creature": Text("生物板块", "creature tiles"),
    "pieces/display": Text("生物展示区", "the creature display"),
    "tracks/strength": Text("力量轨", "the strength track"),
    "tracks/pathfinding": Text("寻路轨", "the pathfinding track"),
    "tracks/threat": Text("威胁卡牌", "threat cards"),
}
"""What players call each kind of Greenwood's printed items (``tablesight box``)."""


def demo() -> Box:
    """The shipped demo box (invented values, ``docs/greenwood.md``)."""
    return demo_box("greenwood", PACKAGE, FILES)


def catalogue(where: Any = None) -> Catalogue:
    """The catalogue of the box of ``where`` (a State, set-up options or None: the demo
    box's), made once per box."""
    if isinstance(where, Box):
        return where.parsed(load_catalogue)
    return box_in(where, demo()).parsed(load_catalogue)


def load_catalogue(files: BoxFiles) -> Catalogue:
    """The component data of a box's files; GreenwoodDataError names the file, the entry and
    the problem."""

    def _load(name: str) -> Mapping[str, Any]:
        if name not in files:
            raise ValueError("the file is missing")
        return files[name]

    current = "submarines.toml"
    try:
        subs = _load(current)
        layouts = {lay.number: lay for lay in map(_named_layout, subs["layout"])}
        current = "pieces.toml"
        pieces = _load(current)
        shapes = {
            s["name"]: Shape(
                str(s["name"]),
                _cells(s["cells"]),
                (int(s["tag_cell"][0]), int(s["tag_cell"][1])),
                bool(s.get("flippable", False)),
                int(s["copies"]),
            )
            for s in pieces["shape"]
        }
        creatures = {
            c["name"]: Creature(
                str(c["name"]),
                str(c["deck"]),
                str(c["shape"]),
                int(c.get("pieces", 1)),
                tuple(str(k) for k in c["cost"]),
                int(c["vp"]),
            )
            for c in pieces["creature"]
        }
        for sh in shapes.values():
            if sh.tag_cell not in sh.cells or normalise(sh.cells) != sh.cells:
                raise ValueError(f"shape {sh.name!r}: cells must start at [0, 0] and hold tag_cell")
        if sorted(layouts) != [0, 1, 2, 3]:
            raise ValueError(f"layouts 0-3 are needed, found {sorted(layouts)}")
        for c in creatures.values():
            if c.shape not in shapes or not set(c.cost) <= set(KNOWLEDGE):
                raise ValueError(f"creature {c.name!r}: unknown shape or knowledge")
        current = "tracks.toml"
        tracks = _load(current)
        strength, path = tracks["strength"], tracks["pathfinding"]
        return Catalogue(
            layouts=layouts,
            shapes=shapes,
            creatures=creatures,
            large_extra=tuple(pieces["display"]["large_extra"]),
            threats=tuple(
                Threat(str(t["name"]), str(t["trigger"]), _rewards(t["protection"]))
                for t in tracks["threat"]
            ),
            strength=Track(
                tuple(_rewards(s) for s in strength["spaces"]), _rewards(strength["end_reward"])
            ),
            pathfinding=Track(
                tuple(_rewards(s) for s in path["spaces"]),
                loop_from=int(path["loop_from"]),
                ranges=tuple(int(r) for r in path["ranges"]),
            ),
        )
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        what = f"missing field {exc.args[0]!r}" if isinstance(exc, KeyError) else str(exc)
        raise GreenwoodDataError(f"{current}: {what}") from None
