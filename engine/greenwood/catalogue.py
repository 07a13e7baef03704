"""Greenwood's printed content: the catalogue of a box (``engine.core.box``).

Layouts, shapes, creatures, tracks and threats are data, not code: the demo box ships them in
``engine/greenwood/data`` (each file says its values are invented placeholders); an owner's
box holds the printed values item by item over the demo's (``docs/greenwood.md``, "Your box").
``catalogue(x)`` is the catalogue of the box of a State, set-up options or a Box (the demo box
for None); ``load_catalogue`` makes it from a box's files and names the file and the entry of
whatever is wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.core.box import Box, BoxFiles, box_in, demo_box
from engine.core.text import Text
from engine.greenwood.board import Cell, Cells, normalise
from engine.greenwood.errors import GreenwoodDataError

KNOWLEDGE = ("red", "blue", "yellow")
"""红色知识 揭示陷阱, 蓝色知识 消除幻象, 黄色知识 破除咒语 (§三.8)."""
T = TypeVar("T")

REWARD_KINDS = ("vp", "energy", "spy", "aurora", "strength", "pathfinding", "slot", "wisp")
TRIGGERS = ("spirit", "spy", "rescue", "watchtower", "move_spirit", "knowledge")
"""What sets a threat off (§四.5 常见触发条件): using a primal spirit, a spy token, a rescue, a
watchtower action, moving the primal spirit, gaining knowledge."""
ENTERED = "entered threat"
"""The name of a threat card the table entered at the console (``entered threat 1``…)."""


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


def _named(make: Callable[[Any], T], key: str, raw: Any, whole: bool = False) -> T:
    """``make(raw)``; a problem is said with the entry (``threat threat 3: …``, as the box's
    item ``tracks/threat/threat 3`` is read), or the table's key for a ``whole`` table."""
    try:
        return make(raw)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        what = f"missing field {exc.args[0]!r}" if isinstance(exc, KeyError) else str(exc)
        name = "" if whole or not isinstance(raw, dict) else f" {raw.get('name', '?')}"
        raise ValueError(f"{key}{name}: {what}") from None


def _shape(raw: dict[str, Any]) -> Shape:
    shape = Shape(
        str(raw["name"]),
        _cells(raw["cells"]),
        (int(raw["tag_cell"][0]), int(raw["tag_cell"][1])),
        bool(raw.get("flippable", False)),
        int(raw["copies"]),
    )
    if shape.tag_cell not in shape.cells or normalise(shape.cells) != shape.cells:
        raise ValueError("cells must start at [0, 0] and hold tag_cell")
    return shape


def _creature(raw: dict[str, Any]) -> Creature:
    creature = Creature(
        str(raw["name"]),
        str(raw["deck"]),
        str(raw["shape"]),
        int(raw.get("pieces", 1)),
        tuple(str(k) for k in raw["cost"]),
        int(raw["vp"]),
    )
    if not set(creature.cost) <= set(KNOWLEDGE):
        raise ValueError(
            f"unknown knowledge in {list(creature.cost)}; knowledge is red, blue, yellow"
        )
    return creature


def _threat(raw: dict[str, Any]) -> Threat:
    threat = Threat(str(raw["name"]), str(raw["trigger"]), _rewards(raw["protection"]))
    if threat.trigger not in TRIGGERS:
        raise ValueError(f"unknown trigger {threat.trigger!r}; triggers are {', '.join(TRIGGERS)}")
    return threat


def _strength(raw: dict[str, Any]) -> Track:
    return Track(tuple(_rewards(s) for s in raw["spaces"]), _rewards(raw["end_reward"]))


def _pathfinding(raw: dict[str, Any]) -> Track:
    track = Track(
        tuple(_rewards(s) for s in raw["spaces"]),
        loop_from=int(raw["loop_from"]),
        ranges=tuple(int(r) for r in raw["ranges"]),
    )
    if not 0 < (track.loop_from or 0) < len(track.spaces):
        raise ValueError(f"loop_from must be a space of the track (1 to {len(track.spaces) - 1})")
    return track


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


def box_of(where: Any = None) -> Box:
    """The box of ``where``: a Box itself, a State's or set-up options' box; the demo box for
    None (where no game exists yet) or options that hold none."""
    return box_in(where, demo())


def catalogue(where: Any = None) -> Catalogue:
    """The catalogue of the box of ``where`` (a State, set-up options, a Box; None: the demo
    box's, where no game exists), made once per box."""
    return box_of(where).parsed(load_catalogue)


def layout_item(number: int) -> str:
    """A submarine layout's item id in the box (``submarines/layout/0``)."""
    return f"submarines/layout/{number}"


def threat_item(name: str) -> str:
    """A threat card's item id in the box (``tracks/threat/threat 3``)."""
    return f"tracks/threat/{name}"


def threat_number(name: str) -> tuple[bool, int] | None:
    """Whether a threat card's name is one the table entered, and its number (``threat 3``:
    (False, 3); ``entered threat 2``: (True, 2)); None for any other name."""
    head, _, number = name.rpartition(" ")
    if not number.isdigit() or head not in ("threat", ENTERED):
        return None
    return head == ENTERED, int(number)


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
        shapes = {sh.name: sh for sh in (_named(_shape, "shape", s) for s in pieces["shape"])}
        creatures = {
            c.name: c for c in (_named(_creature, "creature", c) for c in pieces["creature"])
        }
        if sorted(layouts) != [0, 1, 2, 3]:
            raise ValueError(f"layouts 0-3 are needed, found {sorted(layouts)}")
        for c in creatures.values():
            if c.shape not in shapes:
                raise ValueError(f"creature {c.name}: unknown shape {c.shape!r}")
        if "wisp" not in shapes:
            raise ValueError("shape wisp: missing (the will-o'-wisp piece, §三.11)")
        large_extra = tuple(str(k) for k in pieces["display"]["large_extra"])
        if not set(large_extra) <= set(KNOWLEDGE):
            raise ValueError(f"display: large_extra must be knowledge of {', '.join(KNOWLEDGE)}")
        current = "tracks.toml"
        tracks = _load(current)
        threats = tuple(_named(_threat, "threat", t) for t in tracks["threat"])
        return Catalogue(
            layouts=layouts,
            shapes=shapes,
            creatures=creatures,
            large_extra=large_extra,
            threats=threats,
            strength=_named(_strength, "strength", tracks["strength"], whole=True),
            pathfinding=_named(_pathfinding, "pathfinding", tracks["pathfinding"], whole=True),
        )
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        what = f"missing field {exc.args[0]!r}" if isinstance(exc, KeyError) else str(exc)
        raise GreenwoodDataError(f"{current}: {what}") from None
