"""Don't Starve's camera reader: the map layout checked during setup, figures moved in play.

Every map tile carries one tag on each face (``vision/tags/dont_starve.toml``: the hidden face
names the tile, whose biome is in ``engine/dont_starve/data/tiles.toml``; the revealed face
too). The grid is fitted to all the tiles (:func:`fit_grid`: started from the portal's centre and
turn, then the rotation and shift that bring the tiles nearest their half-tile places, a tile
far off left out of the fit); every tile is placed on it relative to the portal's place, in
half-tile units (a tile is 2 × 2), snapped to the nearest grid place and compared with the
scenario's layout. What is wrong is listed with a stable code:

``misplaced``   a tile on no place of the layout (the nearest free place is named)
``off_grid``    a tile more than 0.3 half-tile units from the nearest half-tile grid place
``not_square``  a tile turned more than 15° from the portal's square
``doubled``     two tiles on one place
``missing``     a place of the layout with no tile
``wrong_biome`` a tile of a biome the scenario has no room for (too many of that biome)
``face_up``     a tile lying face up during setup (all but the portal go face down)
``no_portal``   the portal tile is not in view: nothing can be placed

The layouts, the tiles' biomes and sizes are those of the game's box (``catalogue``): the
state's during play, the one handed to :func:`scan` (the demo box's when none is); while the
layout checked is the demo box's the report says so (``LayoutReport.note``).

For ``tablesight scan`` (:func:`scan`, :func:`describe`) table millimetres come from the four
calibration anchors when they are in the picture (with the lens fitted to the other stickers in
view, ``vision.calibration.fit_lens``), else from the portal tag's own size.
During play :class:`DontStarveReader` takes the stabiliser's observations and the engine state
and returns moves to submit and prompts for the players (see docs/dont_starve.md).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from engine.core import Move, State, Text, find_game, legal
from engine.core.box import Box
from engine.core.text import Language
from engine.dont_starve.board import adjacency
from engine.dont_starve.catalogue import (
    PORTAL,
    TILE_BIOMES,
    Catalogue,
    Scenario,
    catalogue,
    demo_text,
    scenario_item,
)
from engine.dont_starve.game import CHARACTERS
from engine.dont_starve.moves import MoveTo
from engine.dont_starve.state import DSData
from vision.calibration import TableCalibration, calibrate_table
from vision.detection import Detection
from vision.errors import CalibrationError, ReaderError
from vision.readers.base import LayoutSeen, Pose, Prompt, Reader, tag_poses
from vision.readers.frames import frame_detections, table_poses
from vision.registry import Registry, TagEntry, load_registry
from vision.stabiliser import Observation, SteadyView

GAME = "dont_starve"
OFF_GRID = 0.3
"""How far (in half-tile units) a tile may lie from a grid place and still count as on it."""
NOT_SQUARE_DEG = 15.0


@dataclass(frozen=True)
class TileSeen:
    """One map tile in view: which printed tile, its biome, the face up, where it snaps."""

    tile: int
    biome: str
    face: str
    grid: tuple[int, int]
    error: float
    """How far from the grid place, in half-tile units (at most 0.5)."""
    turn: float
    """Degrees off the portal's square."""
    slot: str | None = None


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the layout: a stable code, the tile and place, a message."""

    code: str
    message: Text
    tile: int | None = None
    slot: str | None = None


@dataclass(frozen=True)
class LayoutReport:
    """The layout as read: tiles, adjacency by place, figures on tiles, and what is wrong."""

    scenario: str
    tiles: tuple[TileSeen, ...]
    adjacency: dict[str, list[str]]
    figures: dict[str, str | None]
    problems: tuple[Problem, ...]
    note: Text | None = None
    """What a check against the demo box's layout or tiles says (None: the owner's)."""
    title: Text | None = None
    """The scenario by the title on its card."""

    @property
    def ok(self) -> bool:
        """Whether the layout matches the scenario with nothing wrong."""
        return not self.problems


# --- the layout check (pure: poses in, report out) ----------------------------------------


def _tile_entries(registry: Registry) -> dict[int, TagEntry]:
    return {e.tag_id: e for e in registry.for_game(GAME) if e.name in ("map tile", "character")}


def read_layout(
    tiles: dict[int, tuple[str, Pose]],
    figures: dict[str, Pose],
    scenario: Scenario,
    *,
    setup: bool = True,
    cat: Catalogue | None = None,
    fitted: MapGrid | None = None,
) -> LayoutReport:
    """Check tiles (printed tile number → face and pose) against ``scenario``'s layout, the
    tiles' biomes and size as the box ``cat`` prints them (the demo box's for None).

    ``figures`` are character figures (key → pose) placed on the tile under them. With
    ``setup`` a tile lying face up (other than the portal) is a problem. ``fitted``: the tiles'
    `fit_grid` when already fitted (it does not depend on the scenario).
    """
    cat = catalogue() if cat is None else cat
    return _checked(tiles, scenario, setup, cat, fitted).report(figures)


@dataclass(frozen=True)
class _Checked:
    """The tiles checked against one scenario (what :func:`best_layout` compares scenarios
    by), before the figures are placed and the adjacency worked out for the report."""

    scenario: Scenario
    seen: tuple[TileSeen, ...]
    problems: tuple[Problem, ...]
    grid: MapGrid | None
    """None: the portal is not in view."""
    note: Text | None
    title: Text

    def report(self, figures: dict[str, Pose]) -> LayoutReport:
        """The layout report, ``figures`` (key → pose) placed on the tile under them."""
        key = self.scenario.key
        if self.grid is None:
            return LayoutReport(
                key, (), {}, dict.fromkeys(figures), self.problems, self.note, self.title
            )
        places = {t.slot or f"tile {t.tile}": t.grid for t in self.seen}
        on_tiles: dict[str, str | None] = {}
        for who, (x, y, _) in figures.items():
            u, v = self.grid.units(x, y)
            u, v = self.scenario.portal.x + u, self.scenario.portal.y + v
            under = next(
                (
                    name
                    for name, (gx, gy) in places.items()
                    if gx - 1 <= u < gx + 1 and gy - 1 <= v < gy + 1
                ),
                None,
            )
            on_tiles[who] = under
        return LayoutReport(
            key, self.seen, adjacency(places), on_tiles, self.problems, self.note, self.title
        )


def _checked(
    tiles: dict[int, tuple[str, Pose]],
    scenario: Scenario,
    setup: bool,
    cat: Catalogue,
    fitted: MapGrid | None,
) -> _Checked:
    """`read_layout`'s check of the tiles against ``scenario``, without the figures."""
    note = demo_text(cat, scenario_item(scenario.key), TILE_BIOMES)
    title = Text(scenario.title_zh, scenario.title_en)
    half = cat.tile_mm / 2
    portal_no = cat.tile_biomes.index(PORTAL) + 1
    if portal_no not in tiles:
        problem = Problem(
            "no_portal",
            Text(
                "看不到传送门板块:把它放在中央,标签朝上",
                "The portal tile is not in view: put it in the centre, its tag showing",
            ),
        )
        return _Checked(scenario, (), (problem,), None, note, title)
    known = _known_tiles(tiles, cat)
    grid_fit = fit_grid(known, portal_no, half) if fitted is None else fitted
    slots = {(s.x, s.y): s.name for s in scenario.all_slots}
    seen: list[TileSeen] = []
    for number, (face, (_, _, turn)) in sorted(tiles.items()):
        if number not in known:
            continue  # a tile the box does not print
        cell = grid_fit.cells[number]
        grid = (scenario.portal.x + cell[0], scenario.portal.y + cell[1])
        error = grid_fit.errors[number]
        off = abs((turn - grid_fit.angle_deg + 45) % 90 - 45)
        biome = cat.tile_biomes[number - 1]
        seen.append(
            TileSeen(number, biome, face, grid, round(error, 3), round(off, 1), slots.get(grid))
        )
    problems = _problems(seen, scenario, slots, setup)
    return _Checked(scenario, tuple(seen), tuple(problems), grid_fit, note, title)


TRIM = 0.2
"""Tiles further than this (half-tile units) from the grid the others give are left out of
the grid's fit (a tile laid a little off should not pull the grid towards it)."""


@dataclass(frozen=True)
class MapGrid:
    """The half-tile grid a map's tiles lie on, fitted to all of them: its turn on the table
    (degrees clockwise), the table point of the portal's grid place, each tile's grid place
    (relative to the portal's) and how far it lies from it, in half-tile units."""

    angle_deg: float
    origin_mm: tuple[float, float]
    half_mm: float
    cells: dict[int, tuple[int, int]]
    errors: dict[int, float]

    def units(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        """A table point in half-tile units from the portal's grid place, along the grid."""
        z = complex(x_mm - self.origin_mm[0], y_mm - self.origin_mm[1]) * self._back
        return z.real / self.half_mm, z.imag / self.half_mm

    @cached_property
    def _back(self) -> complex:
        """The turn that takes a table offset onto the grid's axes (worked out once)."""
        a = math.radians(self.angle_deg)
        return complex(math.cos(a), -math.sin(a))


def fit_grid(tiles: dict[int, Pose], portal: int, half_mm: float) -> MapGrid:
    """The grid of the tiles (number → centre and turn in table mm and degrees) in view with
    the ``portal`` tile among them.

    Started from the portal's centre and turn, each tile is given its nearest grid place and
    the grid's turn and place are fitted to all of them (the rotation and shift that bring
    their centres nearest their places, half a tile a unit); then, up to three times (until a
    round gives every tile the places of the round before), each tile is given its nearest
    place on that grid and the grid fitted again to the tiles lying within ``TRIM`` of theirs
    (all of them when fewer than two do). A tile further than ``TRIM`` from its place is thus
    measured on the grid the others give, never pulling the grid towards itself; one nearer is
    on the grid either way."""
    px, py, turn = tiles[portal]
    grid = MapGrid(turn, (px, py), half_mm, {}, {})
    everyone = list(tiles)
    fitted_to: tuple[dict[int, tuple[int, int]], list[int]] | None = None
    for round_ in range(4):
        units = {n: grid.units(x, y) for n, (x, y, _) in tiles.items()}
        cells = {n: _nearest(at) for n, at in units.items()}
        near = [n for n in tiles if _distance(units[n], cells[n]) <= TRIM]
        using = everyone if round_ == 0 or len(near) < 2 else near
        if (cells, using) == fitted_to:
            break  # the same places and tiles as the last round: the same grid again
        grid = _fitted(tiles, cells, using, half_mm, grid)
        fitted_to = (cells, using)
    units = {n: grid.units(x, y) for n, (x, y, _) in tiles.items()}
    cells = {n: _nearest(at) for n, at in units.items()}
    errors = {n: round(_distance(at, cells[n]), 3) for n, at in units.items()}
    return MapGrid(grid.angle_deg, grid.origin_mm, half_mm, cells, errors)


def _fitted(
    tiles: dict[int, Pose],
    cells: dict[int, tuple[int, int]],
    using: list[int],
    half_mm: float,
    start: MapGrid,
) -> MapGrid:
    """The grid that brings the tiles ``using`` nearest their ``cells``: a rotation and shift
    (Kabsch's fit) from two tiles on, one tile's own centre and turn alone."""
    if len(using) == 1:
        x, y, turn = tiles[using[0]]
        angle = start.angle_deg + ((turn - start.angle_deg + 45) % 90 - 45)
        u, v = cells[using[0]]
        a = math.radians(angle)
        shift = complex(u, v) * half_mm * complex(math.cos(a), math.sin(a))
        return MapGrid(angle, (x - shift.real, y - shift.imag), half_mm, {}, {})
    table = np.array([complex(tiles[n][0], tiles[n][1]) for n in using])
    places = np.array([complex(*cells[n]) * half_mm for n in using])
    tc, pc = table.mean(), places.mean()
    turn_c = np.sum((table - tc) * np.conj(places - pc))  # rotation places → table
    a = math.atan2(turn_c.imag, turn_c.real)
    origin = tc - pc * complex(math.cos(a), math.sin(a))
    return MapGrid(math.degrees(a), (origin.real, origin.imag), half_mm, {}, {})


def _nearest(units: tuple[float, float]) -> tuple[int, int]:
    return round(units[0]), round(units[1])


def _distance(units: tuple[float, float], cell: tuple[int, int]) -> float:
    return max(abs(units[0] - cell[0]), abs(units[1] - cell[1]))


def _problems(
    seen: list[TileSeen], scenario: Scenario, slots: dict[tuple[int, int], str], setup: bool
) -> list[Problem]:
    problems: list[Problem] = []

    def add(code: str, zh: str, en: str, tile: int | None, slot: str | None) -> None:
        problems.append(Problem(code, Text(zh, en), tile, slot))

    by_slot: dict[str, list[TileSeen]] = {}
    for t in seen:
        if t.slot is not None:
            by_slot.setdefault(t.slot, []).append(t)
    free = [s for s in scenario.all_slots if s.name not in by_slot]
    for t in seen:
        n = _tile_name(t)
        if t.error > OFF_GRID:
            zh, en = f"{n.zh}不在网格上:推正", f"{n.en} is off the grid: push it onto the grid"
            add("off_grid", zh, en, t.tile, t.slot)
        elif t.turn > NOT_SQUARE_DEG:
            add(
                "not_square",
                f"{n.zh}放歪了:摆正",
                f"{n.en} is turned: place it squarely",
                t.tile,
                t.slot,
            )
        if t.slot is None:
            near = min(free, key=lambda s: math.dist((s.x, s.y), t.grid), default=None)
            zh = f"{n.zh}不在剧本布局的位置上" + (f"(最近的空位:{near.name})" if near else "")
            en = f"{n.en} is on no place of the layout" + (
                f" (nearest free place: {near.name})" if near else ""
            )
            add("misplaced", zh, en, t.tile, None)
        if setup and t.face == "revealed" and t.biome != PORTAL:
            add("face_up", f"{n.zh}应面朝下放置", f"{n.en} must lie face down", t.tile, t.slot)
    for slot, here in sorted(by_slot.items()):
        if len(here) > 1:
            zh, en = f"位置{slot}上有{len(here)}块板块", f"Place {slot} has {len(here)} tiles"
            add("doubled", zh, en, here[1].tile, slot)
    for s in free:
        add("missing", f"位置{s.name}缺少板块", f"Place {s.name} has no tile", None, s.name)
    placed = [t for t in seen if t.biome != PORTAL]
    for biome in sorted({t.biome for t in placed}):
        mine = [t for t in placed if t.biome == biome]
        room = scenario.biomes.get(biome, 0)
        numbers = ", ".join(str(t.tile) for t in mine)
        for t in mine[room:]:
            n = _tile_name(t)
            zh = f"{n.zh}的生态域不对:本剧本只用{room}块{biome}(已放:{numbers})"
            en = (
                f"{n.en} is the wrong biome: the scenario uses {room} {biome} tile(s),"
                f" {len(mine)} are down (tiles {numbers})"
            )
            add("wrong_biome", zh, en, t.tile, t.slot)
    return problems


def _tile_name(t: TileSeen) -> Text:
    where_zh = f"(位置{t.slot})" if t.slot else ""
    where_en = f" at {t.slot}" if t.slot else ""
    return Text(f"{t.tile}号板块[{t.biome}]{where_zh}", f"Tile {t.tile} ({t.biome}){where_en}")


def best_layout(
    tiles: dict[int, tuple[str, Pose]],
    figures: dict[str, Pose],
    *,
    setup: bool = True,
    cat: Catalogue | None = None,
) -> LayoutReport:
    """The report against the box's scenario the tiles fit best (fewest problems; the first
    of the box's order among equals). ReaderError when the box has no scenario."""
    cat = catalogue() if cat is None else cat
    portal_no = cat.tile_biomes.index(PORTAL) + 1
    known = _known_tiles(tiles, cat)
    grid = fit_grid(known, portal_no, cat.tile_mm / 2) if portal_no in known else None
    best: _Checked | None = None
    for scenario in cat.scenarios.values():
        check = _checked(tiles, scenario, setup, cat, grid)
        if best is None or len(check.problems) < len(best.problems):
            best = check
        if not best.problems:
            break  # none fits better than with nothing wrong (the first such, as before)
    if best is None:
        raise ReaderError(
            Text(
                "盒子里没有剧本卡,无法检查地图布局",
                "the box has no scenario card to check the map against",
            )
        )
    # the figures and the adjacency only for the scenario chosen
    return best.report(figures)


def _known_tiles(tiles: dict[int, tuple[str, Pose]], cat: Catalogue) -> dict[int, Pose]:
    """The poses of the tiles the box prints (by number)."""
    return {n: pose for n, (_, pose) in tiles.items() if 1 <= n <= len(cat.tile_biomes)}


# --- from tags to poses -------------------------------------------------------------------


def components(
    poses: Iterable[tuple[int, Pose]], registry: Registry, cat: Catalogue | None = None
) -> tuple[dict[int, tuple[str, Pose]], dict[str, Pose]]:
    """Map tiles (number → face, pose) and figures (character → pose) among tag poses, each
    tile's centre found from its tag by the box's sticker offset (the demo box's for None)."""
    entries = _tile_entries(registry)
    ox, oy = (catalogue() if cat is None else cat).tag_offset_mm
    tiles: dict[int, tuple[str, Pose]] = {}
    figures: dict[str, Pose] = {}
    for tag_id, (x, y, turn) in poses:
        e = entries.get(tag_id)
        if e is None:
            continue
        if e.name == "map tile":  # the tile's centre: the tag less its offset, turned
            a = math.radians(turn)
            cx = x - (ox * math.cos(a) - oy * math.sin(a))
            cy = y - (ox * math.sin(a) + oy * math.cos(a))
            if tiles.get(e.item, ("",))[0] != "revealed":  # both faces in view: just flipped
                tiles[e.item] = (e.face or "hidden", (cx, cy, turn))
        else:
            figures[CHARACTERS[e.item - 1]] = (x, y, turn)
    return tiles, figures


def scan(
    image_path: Path | None,
    lang: Language,
    box: Box | None = None,
    *,
    view: SteadyView | None = None,
    frame_size: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """Read one picture of the table, or with ``view`` what a run of frames of ``frame_size``
    (width, height) showed together (`vision.stabiliser.steady_view`; ``image_path`` is then
    not read): the grid, the adjacency and the verdicts, as JSON data, against the layouts and
    tiles of ``box`` (the owner's; None: the demo box's)."""
    cat = catalogue(box)
    detections, (width, height), _ = frame_detections(image_path, view, frame_size)
    registry = load_registry()
    try:
        calibration = calibrate_table(detections, registry.anchors(), (width, height))
        to_table, reference = calibration.to_table, "anchors"
    except CalibrationError:
        to_table, reference = _portal_scale(detections, registry, cat), "portal tag"
    tiles, figures = components(table_poses(detections, to_table), registry, cat)
    if not tiles and not figures:
        raise ReaderError(
            Text(
                "画面中没有饥荒的地图板块或角色棋子",
                "no Don't Starve map tile or figure is in this picture",
            )
        )
    report = best_layout(tiles, figures, cat=cat)
    return report_json(report, lang) | {"reference": reference}


SLOT_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
"""The names a scenario card gives its face-down places, in reading order (no I, as the
demo box's cards)."""


def laid_layout(
    detections: list[Detection], image_size: tuple[int, int], cat: Catalogue
) -> dict[str, Any] | None:
    """A scenario's layout as the tiles laid on the table show it (the "Your box" page copies a
    scenario card so): the portal and each face-down place in half-tile units of the tiles'
    top-left corners (the smallest 0), the places named A, B, C… in reading order, the tile
    lying on each, how many tiles of each biome were laid (the box's biomes of their numbers),
    and the tiles off the half-tile steps. None without the portal tile in view."""
    registry = load_registry()
    tiles, _ = components(
        tag_poses(detections, _to_table(detections, registry, cat, image_size)), registry, cat
    )
    portal_no = cat.tile_biomes.index(PORTAL) + 1
    if portal_no not in tiles:
        return None
    poses = {n: pose for n, (_, pose) in tiles.items()}
    grid = fit_grid(poses, portal_no, cat.tile_mm / 2)
    placed = dict(sorted(grid.cells.items()))
    off_grid = [n for n in sorted(placed) if grid.errors[n] > OFF_GRID]
    left = min(c[0] for c in placed.values())
    top = min(c[1] for c in placed.values())
    at = {n: (c[0] - left, c[1] - top) for n, c in placed.items()}
    others = sorted((n for n in at if n != portal_no), key=lambda n: (at[n][1], at[n][0]))
    biomes: dict[str, int] = {}
    for n in others:
        if n <= len(cat.tile_biomes):
            biomes[cat.tile_biomes[n - 1]] = biomes.get(cat.tile_biomes[n - 1], 0) + 1
    return {
        "portal": {"x": at[portal_no][0], "y": at[portal_no][1]},
        "slots": [
            {"name": SLOT_LETTERS[i], "x": at[n][0], "y": at[n][1], "tile": n}
            for i, n in enumerate(others[: len(SLOT_LETTERS)])
        ],
        "biomes": biomes,
        "off_grid": off_grid,
    }


def _to_table(
    detections: list[Detection], registry: Registry, cat: Catalogue, image_size: tuple[int, int]
) -> Any:
    """Pixels to table millimetres: by the anchors in view, else by the portal tag's size."""
    try:
        return calibrate_table(detections, registry.anchors(), image_size).to_table
    except CalibrationError:
        return _portal_scale(detections, registry, cat)


def _portal_scale(detections: list[Detection], registry: Registry, cat: Catalogue) -> Any:
    """Pixels to millimetres from the portal tag's size (a camera looking straight down)."""
    portal_no = cat.tile_biomes.index(PORTAL) + 1
    sizes = {
        e.tag_id: e.tag_mm
        for e in _tile_entries(registry).values()
        if e.name == "map tile" and e.item == portal_no
    }
    portal = next((d for d in detections if d.id in sizes), None)
    if portal is None:
        return lambda pts: np.asarray(pts, float)
    c = np.asarray(portal.corners, float)
    side = float(np.mean(np.linalg.norm(c - np.roll(c, 1, axis=0), axis=1)))
    scale = sizes[portal.id] / side
    return lambda pts: np.asarray(pts, float) * scale


def report_json(report: LayoutReport, lang: Language) -> dict[str, Any]:
    """A layout report as plain JSON data, messages in ``lang`` (``note``: what a check
    against the demo box's layout says, or None)."""
    return {
        "scenario": report.scenario,
        "title": None if report.title is None else report.title.in_(lang),
        "note": None if report.note is None else report.note.in_(lang),
        "ok": report.ok,
        "tiles": [
            {
                "tile": t.tile,
                "biome": t.biome,
                "face": t.face,
                "grid": list(t.grid),
                "slot": t.slot,
                "off_grid": t.error,
                "turn_deg": t.turn,
            }
            for t in report.tiles
        ],
        "adjacency": report.adjacency,
        "figures": report.figures,
        "verdicts": [
            {
                "code": f"dont_starve.layout.{p.code}",
                "tile": p.tile,
                "slot": p.slot,
                "message": p.message.in_(lang),
            }
            for p in report.problems
        ],
    }


def describe(result: dict[str, Any], lang: Language) -> str:
    """The scan result for people: the layout's verdicts (and whether they rest on the demo
    box's layout), then tiles and adjacency."""
    zh = lang == "zh"
    title = result.get("title") or result["scenario"]
    lines = [f"  {'剧本' if zh else 'scenario'}: {title}"]
    if result.get("note"):
        lines.append(f"  ({result['note']})")
    if result["ok"]:
        lines.append("  " + ("布局正确" if zh else "layout OK: every tile in place"))
    lines += [f"  ✗ {v['message']}" for v in result["verdicts"]]
    tile, grid, place = ("板块", "网格", "位置") if zh else ("tile", "grid", "place")
    for t in result["tiles"]:
        lines.append(
            f"  {tile} {t['tile']:>2} {t['biome']:<9} {t['face']:<8} "
            f"{grid} {tuple(t['grid'])} {place} {t['slot'] or '-'}"
        )
    lines.append("  " + ("相邻:" if zh else "adjacent:"))
    lines += [f"    {name}: {', '.join(near) or '-'}" for name, near in result["adjacency"].items()]
    for who, on in result["figures"].items():
        lines.append(f"  {who} → {on or '?'}")
    return "\n".join(lines)


# --- the reader for the table loop --------------------------------------------------------


@dataclass
class DontStarveReader(Reader):
    """Keeps the tags in view from stabiliser observations and turns figure moves into moves.

    ``observe(observations, state)`` returns, in order, the moves to submit and the prompts
    to show. During setup (``layout()``) it checks the map against the scenario.
    """

    registry: Registry = field(default_factory=load_registry)
    poses: dict[int, Pose] = field(default_factory=dict)
    _said: dict[int, tuple[str, str]] = field(default_factory=dict)

    def update(self, observations: Iterable[Observation]) -> None:
        """Keep the latest pose of every tag in view."""
        for o in observations:
            if o.kind in ("add", "update"):
                self.poses[o.tag_id] = (o.x_mm, o.y_mm, o.angle_deg)
            elif o.kind == "remove":
                self.poses.pop(o.tag_id, None)

    def layout(
        self, scenario: str, *, setup: bool = True, cat: Catalogue | None = None
    ) -> LayoutReport:
        """The layout in view checked against a scenario of the box ``cat`` (the demo box's
        for None)."""
        cat = catalogue() if cat is None else cat
        tiles, figures = components(self.poses.items(), self.registry, cat)
        return read_layout(tiles, figures, cat.scenarios[scenario], setup=setup, cat=cat)

    def observe(
        self, observations: Iterable[Observation], state: State[Any]
    ) -> list[Move | Prompt]:
        """New observations in; moves for figures that moved, or prompts, out.

        A figure on another tile than its character's gives ``dont_starve.move`` (the optional
        move if the seat has not made it this turn, else the main action); onto a face-down
        tile it first prompts to turn the tile over, then moves with the biome read from the
        tile; a move the engine refuses (not adjacent, say) becomes a prompt with its verdict.
        """
        self.update(observations)
        data: DSData = state.data
        report = self.layout(data.scenario, setup=False, cat=catalogue(state))
        out: list[Move | Prompt] = []
        biomes = {t.slot: (t.biome, t.face) for t in report.tiles if t.slot}
        game = find_game(GAME)
        for seat, c in enumerate(data.characters):
            there = report.figures.get(c.key)
            if there is None or there == c.tile or c.defeated or there not in biomes:
                continue
            biome, face = biomes[there]
            hidden = data.biome_of(there) is None
            move = MoveTo(seat, there, seat in data.moved, biome if hidden else None)
            verdict = legal(game, state, move)
            said: Move | Prompt = move
            if not verdict.ok:
                said = Prompt(verdict.code, verdict.message, seat, there)
            elif hidden and face != "revealed":
                reveal = Text(f"把板块{there}翻开", f"Turn tile {there} over")
                said = Prompt("dont_starve.reveal", reveal, seat, there)
            key = (there, said.code if isinstance(said, Prompt) else "move")
            if self._said.get(seat) != key:  # each thing is said once, not at every frame
                self._said[seat] = key
                out.append(said)
        return out

    def layout_seen(self, state: State[Any]) -> LayoutSeen:
        """What is wrong with the layout in view, as (reason code, place) pairs: tiles missing
        from their places or laid wrong (a face-up tile is no problem once the game is under
        way, §移动); empty when the map is as the scenario lays it."""
        report = self.layout(state.data.scenario, setup=False, cat=catalogue(state))
        return [(p.code, p.slot) for p in report.problems]

    def forget(self, seat: int) -> None:
        """Let a seat's figure be read again (after an undo, say)."""
        self._said.pop(seat, None)


def table_reader(
    registry: Registry, calibration: TableCalibration, detections: Sequence[Detection] = ()
) -> DontStarveReader:
    """The table loop's reader (``vision.readers.table_reader``): it needs no board located."""
    return DontStarveReader(registry)


__all__ = [
    "DontStarveReader",
    "LayoutReport",
    "Problem",
    "Prompt",
    "ReaderError",
    "TileSeen",
    "best_layout",
    "describe",
    "read_layout",
    "scan",
    "table_reader",
    "tag_poses",
]
