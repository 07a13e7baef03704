"""Whole layouts read through a real lens over a second of frames (issue #39's "Done when").

For each game, a legal layout and a layout with one fault its reader must catch, laid by hand
(each piece a few degrees off its square and a few millimetres off its place, differently for
each camera), on a table with the four calibration anchors:

- Greenwood: four submarine boards, each with a domino, a bar, a corner and two wisps in an
  order greenwood.zh.md §三.10 allows; the fault moves board 1's last wisp to a cell that shares
  no edge with any piece (refused ``greenwood.not_adjacent``).
- Don't Starve: the first scenario's map dealt correctly around the portal, both figures on the
  portal tile; the fault pushes tile G 0.42 half-tile (23 mm) off its place, away from the map
  (``dont_starve.layout.off_grid`` on that tile, nothing else).
- Stonesaga: the draw pad with the omen face of one token of each stone, and a terrain tray
  with three tiles turned 0°, 60° and 180° and an outpost overlay in zone 2 of the middle tile;
  the fault lays the clay token plain side up (the reader asks to turn it).

The hand's play is what the pieces allow: Greenwood's pieces butt against each other (under a
millimetre, a sticker's white margin nearly fills its cell; a few degrees), Don't Starve's tiles
up to 8 mm (0.15 half-tile) and 3°, Stonesaga's tokens and tiles 2.5 mm and 3°.

Each layout is filmed through cameras 5-15° off vertical with barrel lenses (k1 -0.1 to -0.3),
turned a few degrees, framed so the four anchors are in view, at 1920 × 1080 and 1280 × 720, in
five lights: clean; a lamp with its glare; defocus; occluders (a hand and arm sweeping across
the table during the second, and a cup and a phone lying still where they cover no sticker: an
object set down on a sticker for the whole second hides it from any camera, which no reader
can mend); and all of these at once. A second is 30 frames: the table drawn once, then each
frame with its hand, its shake, its noise and JPEG 70 (an MJPG video). Each video goes through
`tablesight scan GAME VIDEO --json` (its readers calibrate from the anchors in view, with the
lens fitted to the table's stickers as `tablesight calibrate` does: no truth camera is given).

A layout is *read exactly* when every piece, tile and token is seen, on its true cell or slot,
turned as laid, with the verdict the rules give (the legal ones accepted, the fault refused
with its code) and nothing is invented. Counted apart: correct tiles flagged ``off_grid``,
correct placements refused because a neighbour was not seen, wrong ids.

Run: ``tablesight bench vision_layouts [--quick]`` or ``.venv/bin/python -m bench.vision_layouts
[--quick]`` (this prints every layout not read exactly, with why).
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from bench import Figure
from bench.vision_scan import anchors, turned
from engine.dont_starve.catalogue import catalogue as dont_starve_catalogue
from vision.calibration import Lens
from vision.registry import load_registry
from vision.synthetic import Camera, Component, Effects, Hand, SessionRenderer, SyntheticTable

SUITE = "vision_layouts"
GAMES = ("greenwood", "dont_starve", "stonesaga")
KINDS = ("legal", "fault")
SIZES = ((1920, 1080), (1280, 720))
CONDITIONS = ("clean", "lamp and glare", "defocus", "occluders", "all at once")
FRAMES = 30
JPEG = 70
REGISTRY = load_registry()


# --- cameras --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rig:
    """A camera over the table: degrees off vertical, turn about the vertical, barrel lens."""

    tilt_deg: float
    yaw_deg: float
    k1: float
    hfov_deg: float = 66.0

    @property
    def name(self) -> str:
        """How the sweep names it."""
        return (
            f"tilt {self.tilt_deg:g}° yaw {self.yaw_deg:g}° k1 {self.k1:g} field {self.hfov_deg:g}°"
        )

    def camera(self, width: int, height: int) -> Camera:
        """The camera at ``width`` × ``height``, aimed at the table's middle, as low as it may
        be with the four anchors (and their white margins) 15 px inside the frame at 16:9."""
        return _framed(self, width, height)


RIGS = (Rig(5, -4, -0.1), Rig(10, 3, -0.2), Rig(15, -2, -0.3, 58), Rig(12, 6, -0.25, 62))
"""k1 is OpenCV's (over the focal length). A barrel lens of k1 -0.3 over a 66° field would fold
its picture before the frame's corners (r (1 + k1 r²) turns back): no camera is so, and the
calibration rightly refuses such a lens; the strongest lenses get narrower fields."""


def _camera(rig: Rig, width: int, height: int, height_mm: float) -> Camera:
    back = height_mm * math.tan(math.radians(rig.tilt_deg))
    return Camera.overhead(
        width,
        height,
        height_mm=height_mm,
        over_mm=(450, 300 - back),
        hfov_deg=rig.hfov_deg,
        tilt_deg=rig.tilt_deg,
        yaw_deg=rig.yaw_deg,
        k1=rig.k1,
    )


def _framed(rig: Rig, width: int, height: int) -> Camera:
    corners = np.array(
        [
            (a.x_mm + dx, a.y_mm + dy)
            for a in REGISTRY.anchors().values()
            for dx in (-25, 25)
            for dy in (-25, 25)
        ]
    )
    margin = 15 * width / 1280
    cam = _camera(rig, width, height, 1000)
    lens = Lens.of_frame((width, height), rig.k1 * (math.hypot(width, height) / 2 / cam.fx) ** 2)
    if lens.folds((width, height)):
        raise ValueError(f"{rig.name}: the lens folds the picture before the frame's corners")
    for height_mm in range(700, 1500, 25):
        cam = _camera(rig, width, height, height_mm)
        px = cam.project(corners)
        if px.min() > margin and np.all(px.max(axis=0) < (width - margin, height - margin)):
            return cam
    raise ValueError(f"{rig.name}: the anchors do not fit the frame")


# --- the layouts ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """A laid table and what the game's reader should say of it (``truth``: game-specific)."""

    game: str
    kind: str
    scene: SyntheticTable
    truth: dict[str, Any]


class Hands:
    """A hand's small errors: each piece a few degrees off its square, a few mm off its place."""

    def __init__(self, seed: int, shift_mm: float = 2.5, turn_deg: float = 3.0) -> None:
        self.rng = np.random.default_rng(seed)
        self.shift_mm, self.turn_deg = shift_mm, turn_deg

    def __call__(self, x: float, y: float, angle: float) -> tuple[float, float, float]:
        """``x, y, angle`` as a hand lays it."""
        dx, dy = self.rng.uniform(-self.shift_mm, self.shift_mm, 2)
        return x + dx, y + dy, angle + self.rng.uniform(-self.turn_deg, self.turn_deg)


GW_BOARDS = (
    ("submarine board 1 front", (90.0, 90.0, 4.0)),
    ("submarine board 2 front", (520.0, 100.0, -6.0)),
    ("submarine board 3 front", (100.0, 320.0, -3.0)),
    ("submarine board 4 front", (520.0, 310.0, 8.0)),
)
GW_FAULT = (199, (5, 3))
"""The fault: board 1's second wisp on cell (5, 3), which shares no edge with any piece."""


def greenwood(kind: str, seed: int) -> Layout:
    """Four boards of layout 0 with a legal layout each (greenwood.zh.md §三.10: the domino on
    the start cell (0, 0), each next piece sharing an edge with one before); the cells each
    piece covers written by hand. ``fault``: `GW_FAULT`."""
    boards = {b.name: b for b in REGISTRY.boards["greenwood"]}
    # pieces butt against each other: a sticker's white margin (21 mm for 14 mm) nearly fills
    # its 20 mm cell, so a piece has under a millimetre of play, and turns a few degrees
    hand = Hands(seed, shift_mm=0.8, turn_deg=3.0)
    comps = anchors()
    truth: dict[str, Any] = {"boards": {}}
    for i, (name, origin) in enumerate(GW_BOARDS):
        comps += [
            Component(t.tag_id, *turned(origin, t.x_mm, t.y_mm), origin[2], 20)
            for t in boards[name].tags
        ]
        c, w = 148 + i, 198 + 2 * i  # a domino's tag, bar3's +10, corner3's +18; two wisps
        # (tag, tag cell, quarter turns, sticker mm, cells covered)
        pieces: list[tuple[int, tuple[int, int], int, int, list[tuple[int, int]]]] = [
            (c, (0, 0), 0, 14, [(0, 0), (1, 0)]),
            (c + 10, (2, 1), 1, 14, [(2, 0), (2, 1), (2, 2)]),
            (c + 18, (0, 1), 0, 14, [(0, 1), (0, 2), (1, 1)]),
            (w, (3, 2), 0, 12, [(3, 2)]),
            (w + 1, (3, 3), 0, 12, [(3, 3)]),
        ]
        expected = {}
        for tag, (col, row), quarter, size, cells in pieces:
            if kind == "fault" and tag == GW_FAULT[0]:
                (col, row), cells = GW_FAULT[1], [GW_FAULT[1]]
            x, y = turned(origin, 30 + (col + 0.5) * 20, 10 + (row + 0.5) * 20)
            x, y, a = hand(x, y, origin[2] + 90 * quarter)
            comps.append(Component(tag, x, y, a, size))
            fault = kind == "fault" and tag == GW_FAULT[0]
            code = "greenwood.not_adjacent" if fault else "ok"
            expected[tag] = {"cells": sorted(cells), "rotation": 90 * quarter, "code": code}
        truth["boards"][name] = {"tags": sorted(boards[name].tag_ids), "pieces": expected}
    return Layout("greenwood", kind, SyntheticTable(tuple(comps)), truth)


DS_FAULT = ("G", 0.42)
"""The fault: tile G pushed this many half-tiles off its place, away from the map."""


def dont_starve(kind: str, seed: int) -> Layout:
    """The first scenario's map dealt correctly around the portal (each biome's tiles in
    number order), both figures on the portal tile. ``fault``: `DS_FAULT`."""
    cat = dont_starve_catalogue()
    scenario = next(iter(cat.scenarios.values()))
    tags = {(e.item, e.face): e.tag_id for e in REGISTRY.for_game("dont_starve")}
    figures = [e.tag_id for e in REGISTRY.for_game("dont_starve") if e.name == "character"]
    numbers: dict[str, list[int]] = {}
    for n, biome in enumerate(cat.tile_biomes, 1):
        numbers.setdefault(biome, []).append(n)
    wanted = [b for b, k in sorted(scenario.biomes.items()) for _ in range(k)]
    half = cat.tile_mm / 2
    # tiles laid by hand: up to 8 mm (0.15 half-tile) off their places, 3° off square; the
    # tile pushed off the grid by the fault gets 1.5 mm of play besides its push
    hand = Hands(seed, shift_mm=8.0)
    pushed = Hands(seed + 1, shift_mm=1.5)
    comps = anchors()
    dealt = [(scenario.portal, numbers["portal"][0], "revealed")]
    used = dict.fromkeys(numbers, 0)
    for slot, biome in zip(scenario.slots, wanted, strict=True):
        dealt.append((slot, numbers[biome][used[biome]], "hidden"))
        used[biome] += 1
    tiles = {}
    faulty = None
    for slot, number, face in dealt:
        x = 450 + (slot.x - scenario.portal.x) * half
        y = 300 + (slot.y - scenario.portal.y) * half
        if kind == "fault" and slot.name == DS_FAULT[0]:
            # G is the map's right end: pushed further right
            x, y, a = pushed(x + DS_FAULT[1] * half, y, 0.0)
            faulty = number
        else:
            x, y, a = hand(x, y, 0.0)
        comps.append(
            Component(tags[(number, face)], x, y, a, 25, body_mm=(106, 106), colour=(90, 130, 100))
        )
        tiles[number] = slot.name
    # on the portal tile, clear of its sticker
    x1, y1, a1 = hand(488, 338, 0)
    x2, y2, a2 = hand(412, 262, 30)
    comps += [Component(figures[0], x1, y1, a1, 20), Component(figures[1], x2, y2, a2, 20)]
    verdicts = [] if faulty is None else [("dont_starve.layout.off_grid", faulty)]
    truth = {
        "scenario": scenario.key,
        "tiles": tiles,
        "figures": {"wilson": "P", "willow": "P"},
        "verdicts": verdicts,
    }
    return Layout("dont_starve", kind, SyntheticTable(tuple(comps)), truth)


SS_FAULT = (431, 430)
"""The fault: the clay token laid plain side up (tag 430) where its omen face (431) was."""


def stonesaga(kind: str, seed: int) -> Layout:
    """The draw pad with the omen face of one token of each stone; terrain tray 1 with tiles
    1-3 (tags 448-450) in slots 1-3 turned 0°, 60° and 180°, and outpost 1 (tag 493) on the
    middle tile in its zone 2 (the sector from 120° to 240° of the tile's up, §覆盖层), clear
    of the tile's sticker. ``fault``: `SS_FAULT`."""
    hand = Hands(seed)
    turn = float(np.random.default_rng(seed).uniform(-8, 8))
    pad = (90.0, 380.0, 8.0 - turn)
    comps = anchors()
    comps += [
        Component(tag, *turned(pad, x, y), pad[2], 20)
        for tag, (x, y) in ((505, (15, 15)), (506, (145, 105)))
    ]
    tokens = {}
    for slot, tag in enumerate((401, 411, 421, 431)):  # an omen face of each stone
        if kind == "fault" and tag == SS_FAULT[0]:
            tag = SS_FAULT[1]
        x, y, a = hand(*turned(pad, 45 + 35 * slot, 60), pad[2] + 20 * slot)
        comps.append(Component(tag, x, y, a, 12, body_mm=(22, 22)))
        stone = ("cloud_stone", "river_stone", "sun_stone", "clay")[slot]
        tokens[tag] = [stone, None if tag == SS_FAULT[1] else "cloud"]
    tray = (330.0, 120.0, turn)
    comps.append(Component(507, *turned(tray, 20, 50), tray[2], 20))
    tiles = []
    overlay = None
    for slot, rotation in enumerate((0, 60, 180)):
        centre = (40 + 83 * slot + 41.5, 50)
        x, y, a = hand(*turned(tray, *centre), tray[2] + rotation)
        comps.append(Component(448 + slot, x, y, a, 25, body_mm=(78, 78), colour=(160, 190, 150)))
        tiles.append([str(101 + slot), 1, slot, rotation])
        if slot == 1:  # 31 mm below the tile's sticker, as the tile is turned: zone 2
            overlay = Component(493, *turned((x, y, a), 0, 31), a, 15)
    assert overlay is not None
    comps.append(overlay)
    problems = ["Lay the ore token omen side up on the draw pad"] if kind == "fault" else []
    truth = {
        "tokens": tokens,
        "tiles": tiles,
        "overlays": [["outpost 1", "102", 1]],
        "problems": problems,
    }
    return Layout("stonesaga", kind, SyntheticTable(tuple(comps)), truth)


def covered_stickers(scene: SyntheticTable) -> list[tuple[int, int]]:
    """Pairs (tag, over it) where a component drawn later (its body or its sticker's white
    margin) lies over a tag's black square: a layout no hand could lay, pieces overlapping."""
    out = []
    for i, low in enumerate(scene.components):
        black = low.tag_corners_mm().astype(np.float32)
        for high in scene.components[i + 1 :]:
            side = high.body_mm or (1.5 * high.tag_mm, 1.5 * high.tag_mm)
            w, h = max(side[0], 1.5 * high.tag_mm) / 2, max(side[1], 1.5 * high.tag_mm) / 2
            box = high.local_to_table(np.array([[-w, -h], [w, -h], [w, h], [-w, h]], float))
            area, _ = cv2.intersectConvexConvex(black, box.astype(np.float32))
            if area > 0.01:
                out.append((low.tag_id, high.tag_id))
    return out


LAYOUTS: dict[str, Callable[[str, int], Layout]] = {
    "greenwood": greenwood,
    "dont_starve": dont_starve,
    "stonesaga": stonesaga,
}


# --- light and occluders ----------------------------------------------------------------------


def effects(condition: str, width: int) -> Effects:
    """One frame's light (without the sensor noise and the JPEG, added after the shake):
    defocus of the same size in the scene at either size (1.5 px at 1920 wide, 1 px at 1280)."""
    lamp = Effects(uneven_light=0.4, glare=0.5, glare_at=(0.55, 0.45), glare_radius=0.1)
    blur = 1.5 * width / 1920
    return {
        "clean": Effects(),
        "lamp and glare": lamp,
        "defocus": Effects(blur=blur),
        "occluders": Effects(),
        "all at once": replace(lamp, blur=blur),
    }[condition]


def occluded(condition: str) -> bool:
    """Whether hands, a cup and a phone are over the table in ``condition``."""
    return condition in ("occluders", "all at once")


def hand_at(i: int, frames: int = FRAMES) -> Hand:
    """The hand and arm of frame ``i``: reaching in from the players' edge over the second,
    sweeping from the left of the table to its right (about 0.6 m a second)."""
    t = i / max(frames - 1, 1)
    x = 150 + 600 * t
    y = 420 - 120 * math.sin(math.pi * t)
    return Hand(x, y, (60, 45), 20 - 40 * t, arm_to_mm=(x + 60, 760), colour=(150, 120, 110))


def still_objects(scene: SyntheticTable) -> tuple[Hand, Hand]:
    """A cup (80 mm across, seen from above) and a phone lying where they cover no sticker of
    ``scene`` nor its white margin (8 mm clear): the first free places of a coarse search,
    row by row from the table's top, 140 mm apart."""
    stickers = [(c.x_mm, c.y_mm, 1.5 * c.tag_mm / math.sqrt(2)) for c in scene.components]
    places: list[tuple[float, float]] = []
    for reach in (40.0, 75.0):  # the cup's radius, the phone's half length
        places.append(
            next(
                (x, y)
                for y in range(60, 560, 20)
                for x in range(60, 860, 20)
                if all(math.dist((x, y), (tx, ty)) > reach + r + 8 for tx, ty, r in stickers)
                and all(math.dist((x, y), p) > 140 for p in places)
            )
        )
    (cx, cy), (px, py) = places
    cup = Hand(cx, cy, (40, 40), colour=(235, 235, 230))
    phone = Hand(px, py, (75, 36), angle_deg=25, colour=(25, 25, 30))
    return cup, phone


# --- a second of video --------------------------------------------------------------------------


def frames_of(
    renderer: SessionRenderer,
    scene: SyntheticTable,
    condition: str,
    seed: int,
    still: tuple[Hand, ...],
) -> Iterator[tuple[np.ndarray, tuple[int, ...]]]:
    """The 30 grey frames of ``scene`` in ``condition``: the table (drawn once by
    ``renderer``) with the frame's hand and the still objects, its light, then its own shake
    (up to 0.7 px and 0.05°) and sensor noise; and the tags the hands hid in it."""
    camera = renderer.camera
    w, h = camera.width, camera.height
    fx = effects(condition, w)
    rng = np.random.default_rng(seed)
    for i in range(FRAMES):
        hands = (hand_at(i), *still) if occluded(condition) else ()
        shot = renderer.render(scene, replace(fx, hands=hands), seed=seed * 100 + i)
        dx, dy = rng.uniform(-0.7, 0.7, 2)
        m = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(-0.05, 0.05), 1.0)
        m[:, 2] += (dx, dy)
        frame = cv2.warpAffine(
            shot.image, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        noise = np.asarray(rng.normal(0.0, 2.5, size=frame.shape), np.float32)
        frame = np.clip(frame.astype(np.float32) + noise, 0, 255).astype(np.uint8)
        yield frame, shot.hidden


def write_video(frames: list[np.ndarray], path: Path) -> Path:
    """The grey frames as a 30 fps Motion-JPEG video, each frame JPEG quality `JPEG`."""
    h, w = frames[0].shape[:2]
    writer = cv2.VideoWriter(
        str(path), cv2.CAP_OPENCV_MJPEG, cv2.VideoWriter.fourcc(*"MJPG"), 30.0, (w, h)
    )
    if not writer.isOpened():
        raise RuntimeError("OpenCV cannot write a Motion-JPEG video here")
    writer.set(cv2.VIDEOWRITER_PROP_QUALITY, JPEG)
    for f in frames:
        writer.write(cv2.cvtColor(f, cv2.COLOR_GRAY2BGR))
    writer.release()
    return path


def scan_video(game: str, video: Path, data_dir: Path) -> dict[str, Any]:
    """`tablesight scan GAME VIDEO --json` in this process (a fresh data folder: the demo
    box), its one JSON line; RuntimeError with its stderr when it fails."""
    from kiosk.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        words = ["--data-dir", str(data_dir), "--lang", "en", "scan", game, str(video), "--json"]
        status = main(words)
    if status != 0:
        raise RuntimeError(f"tablesight scan {game}: {err.getvalue().strip()}")
    (line,) = out.getvalue().splitlines()
    result: dict[str, Any] = json.loads(line)
    return result


# --- judging a scan against the truth -------------------------------------------------------


@dataclass
class Outcome:
    """What one scan got right and wrong."""

    faults: list[str] = field(default_factory=list)
    """Why the layout was not read exactly (empty: it was)."""
    missed: int = 0
    off_grid_correct: int = 0
    unseen_refusals: int = 0
    wrong_ids: int = 0
    not_judged: int = 0
    caught: bool = False
    """Whether the fault's verdict was given (a layout with a fault)."""

    @property
    def exact(self) -> bool:
        """Whether the layout was read exactly."""
        return not self.faults


def judge_greenwood(result: dict[str, Any], truth: dict[str, Any]) -> Outcome:
    """Every board and piece of ``truth`` on its cells with its verdict, nothing else."""
    out = Outcome()
    boards = {b["board"]: b for b in result["boards"]}
    anchors_ = set(REGISTRY.anchors())
    known_tags = {t for b in truth["boards"].values() for t in (*b["tags"], *b["pieces"])}
    read = {p["tag"] for b in result["boards"] for p in b["pieces"]}
    extra = (read | set(result["loose_pieces"]) | set(result["other_tags"])) - known_tags - anchors_
    out.wrong_ids += len(extra)
    out.faults += [f"tag {t} read where there is none" for t in sorted(extra)]
    if result["loose_pieces"]:
        out.faults.append(f"pieces on no board: {result['loose_pieces']}")
    for name, want in truth["boards"].items():
        board = boards.get(name)
        if board is None:
            out.missed += len(want["pieces"])
            out.faults.append(f"{name} not read")
            continue
        pieces = {p["tag"]: p for p in board["pieces"]}
        unseen = [t for t in want["pieces"] if t not in pieces]
        for tag, piece in want["pieces"].items():
            got = pieces.get(tag)
            if got is None:
                out.missed += 1
                out.faults.append(f"{name}: piece {tag} not seen")
                continue
            if "prompt" in got:
                out.faults.append(f"{name}: piece {tag} asked to be placed squarely")
                continue
            cells = sorted(tuple(c) for c in got["cells"])
            if cells != [tuple(c) for c in piece["cells"]] or got["rotation"] != piece["rotation"]:
                out.faults.append(
                    f"{name}: piece {tag} on {cells} at {got['rotation']}° "
                    f"(laid on {piece['cells']} at {piece['rotation']}°)"
                )
            if "not_judged" in got:
                out.not_judged += 1
                out.faults.append(f"{name}: piece {tag} not judged (a neighbour unseen)")
                continue
            code = got["verdict"]["code"]
            out.caught |= code == piece["code"] != "ok"
            if code != piece["code"]:
                out.faults.append(f"{name}: piece {tag} {code} (the rules: {piece['code']})")
                if piece["code"] == "ok" and unseen:
                    out.unseen_refusals += 1
    return out


def judge_dont_starve(result: dict[str, Any], truth: dict[str, Any]) -> Outcome:
    """The scenario, every tile on its slot, the figures on their tiles, exactly the verdicts
    of ``truth``."""
    out = Outcome()
    if result["scenario"] != truth["scenario"]:
        out.faults.append(f"read as scenario {result['scenario']}")
    tiles = {t["tile"]: t for t in result["tiles"]}
    for number, slot in truth["tiles"].items():
        got = tiles.get(number)
        if got is None:
            out.missed += 1
            out.faults.append(f"tile {number} ({slot}) not seen")
        elif got["slot"] != slot:
            out.faults.append(f"tile {number} read on {got['slot']} (laid on {slot})")
    extra = sorted(set(tiles) - set(truth["tiles"]))
    out.wrong_ids += len(extra)
    out.faults += [f"tile {n} read where there is none" for n in extra]
    for figure, on in truth["figures"].items():
        if result["figures"].get(figure) != on:
            out.faults.append(f"{figure} read on {result['figures'].get(figure)} (on {on})")
    extra_figures = set(result["figures"]) - set(truth["figures"])
    out.wrong_ids += len(extra_figures)
    got_verdicts = sorted((v["code"], v["tile"]) for v in result["verdicts"])
    want = sorted((code, tile) for code, tile in truth["verdicts"])
    out.caught = bool(want) and set(want) <= set(got_verdicts)
    if got_verdicts != want:
        out.faults.append(f"verdicts {got_verdicts} (the rules: {want})")
        fault_tiles = {tile for _, tile in want}
        for code, tile in got_verdicts:
            if code == "dont_starve.layout.off_grid" and tile not in fault_tiles:
                out.off_grid_correct += 1
                error = tiles[tile]["off_grid"] if tile in tiles else None
                out.faults.append(f"correct tile {tile} off_grid ({error} half-tile)")
    return out


def judge_stonesaga(result: dict[str, Any], truth: dict[str, Any]) -> Outcome:
    """The tokens on the pad, the tiles in their slots turned as laid, the overlay on its tile
    and zone, exactly the problems of ``truth``."""
    out = Outcome()
    pad = result.get("pad") or {"tokens": []}
    tokens = {t["tag"]: [t["stone"], t["omen"]] for t in pad["tokens"]}
    want = {int(k): v for k, v in truth["tokens"].items()}
    for tag, ore in want.items():
        if tag not in tokens:
            out.missed += 1
            out.faults.append(f"token {tag} not seen on the pad")
        elif tokens[tag] != ore:
            out.faults.append(f"token {tag} read as {tokens[tag]} ({ore})")
    extra = sorted(set(tokens) - set(want))
    out.wrong_ids += len(extra)
    out.faults += [f"token {t} read where there is none" for t in extra]
    valley = result.get("valley") or {"tiles": [], "overlays": []}
    tiles = [[t["tile"], t["tray"], t["slot"], t["rotation"]] for t in valley["tiles"]]
    if tiles != truth["tiles"]:
        out.missed += len({t[0] for t in truth["tiles"]} - {t[0] for t in tiles})
        out.faults.append(f"tiles {tiles} (laid {truth['tiles']})")
    overlays = [[o["overlay"], o["tile"], o["zone"]] for o in valley["overlays"]]
    if overlays != truth["overlays"]:
        out.faults.append(f"overlays {overlays} (laid {truth['overlays']})")
        if not overlays:
            out.missed += 1
    problems = result["problems"]
    out.caught = bool(truth["problems"]) and set(truth["problems"]) <= set(problems)
    if problems != truth["problems"]:
        out.faults.append(f"problems {problems} (the rules: {truth['problems']})")
        out.unseen_refusals += sum("covers the sticker" in p for p in problems)
    return out


JUDGES: dict[str, Callable[[dict[str, Any], dict[str, Any]], Outcome]] = {
    "greenwood": judge_greenwood,
    "dont_starve": judge_dont_starve,
    "stonesaga": judge_stonesaga,
}


# --- the sweep ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One layout in one light through one camera at one size, and how it was read."""

    game: str
    kind: str
    size: tuple[int, int]
    condition: str
    rig: Rig
    outcome: Outcome
    hidden_always: tuple[int, ...]
    """Tags the hands hid in every frame (none by design)."""

    def line(self) -> str:
        """The case and why it was not read exactly, on one line."""
        w, h = self.size
        what = f"{self.game} {self.kind} {w}x{h} {self.condition}, {self.rig.name}"
        hidden = ""
        if self.hidden_always:
            hidden = f" (hidden in every frame: {list(self.hidden_always)})"
        return f"{what}: {'; '.join(self.outcome.faults) or 'exact'}{hidden}"


def sweep(
    games: tuple[str, ...] = GAMES,
    kinds: tuple[str, ...] = KINDS,
    sizes: tuple[tuple[int, int], ...] = SIZES,
    conditions: tuple[str, ...] = CONDITIONS,
    rigs: tuple[Rig, ...] = RIGS,
    *,
    rigs_each: int = 2,
    log: Callable[[str], None] = lambda _: None,
) -> list[Case]:
    """Scan every layout of ``games`` × ``kinds`` at every size in every condition through
    ``rigs_each`` of the ``rigs``, the rigs taking turns from condition to condition (so each
    layout is seen through all of them)."""
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for game in games:
            for kind in kinds:
                for r, rig in enumerate(rigs):
                    turn = GAMES.index(game) + KINDS.index(kind)
                    todo = [
                        c
                        for j, c in enumerate(conditions)
                        if (r - j - turn) % len(rigs) < rigs_each
                    ]
                    if not todo:
                        continue
                    layout = LAYOUTS[game](kind, 100 * r + KINDS.index(kind))
                    if covered_stickers(layout.scene):
                        raise ValueError(f"{game} {kind}: pieces overlap")
                    still = still_objects(layout.scene)
                    for size in sizes:
                        renderer = SessionRenderer(rig.camera(*size), layouts=1)
                        for condition in todo:
                            seed = 1000 * r + 10 * CONDITIONS.index(condition) + sizes.index(size)
                            shots = list(frames_of(renderer, layout.scene, condition, seed, still))
                            frames = [f for f, _ in shots]
                            always = set(shots[0][1]).intersection(*(set(h) for _, h in shots))
                            video = write_video(frames, folder / "second.avi")
                            try:
                                result = scan_video(game, video, folder / "data")
                                outcome = JUDGES[game](result, layout.truth)
                            except RuntimeError as exc:
                                outcome = Outcome(faults=[str(exc)])
                            case = Case(
                                game, kind, size, condition, rig, outcome, tuple(sorted(always))
                            )
                            log(case.line())
                            cases.append(case)
    return cases


def figures_of(cases: list[Case], seconds: float) -> list[Figure]:
    """The sweep's figures: exact layouts per size, the counts the issue names, the time."""
    out = []
    for w, h in SIZES:
        at = [c for c in cases if c.size == (w, h)]
        if not at:
            continue
        exact = sum(c.outcome.exact for c in at)
        goal = "goal: all" if w == 1920 else "goal ≥ 0.95"
        out += [
            Figure(SUITE, f"{w}x{h} layouts read exactly", exact, "layouts", f"of {len(at)}"),
            Figure(SUITE, f"{w}x{h} rate read exactly", exact / len(at), "ratio", goal),
        ]
        for game in GAMES:
            mine = [c for c in at if c.game == game]
            if mine:
                n = sum(c.outcome.exact for c in mine)
                out.append(
                    Figure(SUITE, f"{w}x{h} {game} read exactly", n, "layouts", f"of {len(mine)}")
                )
    for condition in CONDITIONS:
        mine = [c for c in cases if c.condition == condition]
        if mine:
            n = sum(c.outcome.exact for c in mine)
            out.append(
                Figure(
                    SUITE, f"{condition}: read exactly", n, "layouts", f"of {len(mine)}, both sizes"
                )
            )
    out += [
        Figure(
            SUITE,
            "correct tiles flagged off_grid",
            sum(c.outcome.off_grid_correct for c in cases),
            "tiles",
            "goal 0",
        ),
        Figure(
            SUITE,
            "correct placements refused: a neighbour unseen",
            sum(c.outcome.unseen_refusals for c in cases),
            "placements",
            "goal 0",
        ),
        Figure(
            SUITE,
            "correct pieces not judged: a neighbour unseen",
            sum(c.outcome.not_judged for c in cases),
            "pieces",
            "Greenwood: not a refusal, not exact either",
        ),
        Figure(
            SUITE,
            "pieces, tiles and tokens not seen",
            sum(c.outcome.missed for c in cases),
            "pieces",
        ),
        Figure(SUITE, "wrong ids", sum(c.outcome.wrong_ids for c in cases), "ids", "goal 0"),
        Figure(
            SUITE,
            "faults caught",
            sum(c.outcome.caught for c in cases if c.kind == "fault"),
            "layouts",
            f"of {sum(c.kind == 'fault' for c in cases)} with a fault: its verdict given",
        ),
        Figure(
            SUITE,
            "sweep time",
            seconds,
            "s",
            f"{len(cases)} seconds of video of {FRAMES} frames: render, write, scan",
        ),
    ]
    return out


def run(quick: bool) -> list[Figure]:
    """The sweep (``quick``: the clean light and all at once, through one camera each; else
    every light through two cameras each; the cameras taking turns) and its figures; every
    layout not read exactly is printed on stderr with why."""
    start = time.perf_counter()
    conditions = ("clean", "all at once") if quick else CONDITIONS

    def log(line: str) -> None:
        if not line.endswith(": exact"):
            print(f"bench vision_layouts: {line}", file=sys.stderr)

    print(f"bench vision_layouts: {'quick' if quick else 'full'} sweep…", file=sys.stderr)
    cases = sweep(conditions=conditions, rigs_each=1 if quick else 2, log=log)
    return figures_of(cases, time.perf_counter() - start)


if __name__ == "__main__":
    from bench.verb import format_table

    print(format_table(run(quick="--quick" in sys.argv)))
