"""What `tablesight scan` costs against the detector it runs, on the same photos.

For each game, a whole table rendered by the project's renderer (its reader's own layout:
Greenwood's submarine boards with pieces, a Don't Starve scenario's map with figures, Stonesaga's
draw pad with ore tokens and a terrain tray), at 1280 × 720 and 1920 × 1080, in hard light
(defocus, noise, light falling off, a lamp) and saved as JPEG 70, as a phone or a camera gives
it. Measured in one run, taking turns photo by photo: the game's ``scan`` from the file to its
verdicts, and the fused detector on the same photo already decoded (one `Detector`, as the
table loop keeps one); their ratio, the median of each scan over the detection measured just
after it, is what a scan adds to its detector. Also the file's decoding alone (in grey, as the
scans decode it), which the scan pays and the detector does not.
"""

from __future__ import annotations

import math
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from bench import Figure
from engine.dont_starve.catalogue import catalogue as dont_starve_catalogue
from vision.detection import Detector, read_image
from vision.readers import find_reader
from vision.registry import load_registry
from vision.synthetic import Camera, Component, Effects, SyntheticTable, render

SUITE = "vision"
HARD = Effects(blur=1.0, noise=5.0, uneven_light=0.4, glare=0.4, jpeg_quality=80)
SIZES = ((1280, 720), (1920, 1080))
REGISTRY = load_registry()


def anchors() -> list[Component]:
    """The four calibration anchors where the registry puts them."""
    return [
        Component(a.tag_id, a.x_mm, a.y_mm, a.rotation_deg, a.size_mm)
        for a in REGISTRY.anchors().values()
    ]


def turned(origin: tuple[float, float, float], x: float, y: float) -> tuple[float, float]:
    """A point ``x, y`` of a board lying at ``origin`` (its corner on the table, mm, and its
    turn, degrees), on the table."""
    ox, oy, turn = origin
    a = math.radians(turn)
    return ox + x * math.cos(a) - y * math.sin(a), oy + x * math.sin(a) + y * math.cos(a)


def greenwood_table() -> SyntheticTable:
    """Four submarine boards, each with a domino, a bar, a corner and two wisps."""
    boards = {b.name: b for b in REGISTRY.boards["greenwood"]}
    comps = []
    places = ((90, 80, 4), (520, 90, -6), (100, 320, -3), (520, 310, 8))
    for i, origin in enumerate(places):
        board = boards[f"submarine board {i + 1} front"]
        comps += [
            Component(t.tag_id, *turned(origin, t.x_mm, t.y_mm), origin[2], 20) for t in board.tags
        ]
        # (tag, tag cell, quarter turns, sticker mm): greenwood.zh.md §三.10, a legal layout
        pieces: list[tuple[int, tuple[int, int], int, int]] = [
            (148 + i, (0, 0), 0, 14),
            (158 + i, (2, 1), 1, 14),
            (166 + i, (0, 1), 0, 14),
            (198 + 2 * i, (3, 2), 0, 12),
            (199 + 2 * i, (3, 3), 0, 12),
        ]
        for tag, (c, r), quarter, size in pieces:
            at = turned(origin, 30 + (c + 0.5) * 20, 10 + (r + 0.5) * 20)
            comps.append(Component(tag, *at, origin[2] + 90 * quarter, size))
    return SyntheticTable(tuple(comps))


def dont_starve_table() -> SyntheticTable:
    """The first scenario's map dealt correctly around the portal, the anchors, two figures."""
    cat = dont_starve_catalogue()
    scenario = next(iter(cat.scenarios.values()))
    tiles = {
        (e.item, e.face): e.tag_id for e in REGISTRY.for_game("dont_starve") if e.name == "map tile"
    }
    figures = [e.tag_id for e in REGISTRY.for_game("dont_starve") if e.name == "character"]
    numbers: dict[str, list[int]] = {}
    for n, biome in enumerate(cat.tile_biomes, 1):
        numbers.setdefault(biome, []).append(n)
    wanted = [b for b, k in sorted(scenario.biomes.items()) for _ in range(k)]
    half = cat.tile_mm / 2
    comps = anchors()
    portal = numbers["portal"][0]
    dealt = [(scenario.portal, portal, "revealed")]
    used = {b: 0 for b in numbers}
    for slot, biome in zip(scenario.slots, wanted, strict=True):
        dealt.append((slot, numbers[biome][used[biome]], "hidden"))
        used[biome] += 1
    for slot, number, face in dealt:
        x = 450 + (slot.x - scenario.portal.x) * half
        y = 300 + (slot.y - scenario.portal.y) * half
        comps.append(
            Component(tiles[(number, face)], x, y, 0, 25, body_mm=(106, 106), colour=(90, 130, 100))
        )
    # on the portal tile, clear of its sticker
    comps += [Component(figures[0], 488, 338, 0, 20), Component(figures[1], 412, 262, 30, 20)]
    return SyntheticTable(tuple(comps))


def stonesaga_table() -> SyntheticTable:
    """The draw pad with four ore tokens and a terrain tray holding three tiles."""
    pad = (90.0, 380.0, 8.0)
    comps = anchors()
    comps += [
        Component(tag, *turned(pad, x, y), pad[2], 20)
        for tag, (x, y) in ((505, (15, 15)), (506, (145, 105)))
    ]
    for slot, tag in enumerate((401, 411, 421, 431)):  # an omen face of each stone
        comps.append(Component(tag, *turned(pad, 45 + 35 * slot, 60), pad[2], 12, body_mm=(22, 22)))
    tray = (330.0, 120.0, -4.0)
    comps.append(Component(507, *turned(tray, 20, 50), tray[2], 20))
    for slot in range(3):
        comps.append(
            Component(
                448 + slot,
                *turned(tray, 40 + 83 * slot + 41.5, 50),
                tray[2],
                25,
                body_mm=(78, 78),
                colour=(160, 190, 150),
            )
        )
    return SyntheticTable(tuple(comps))


TABLES: dict[str, Callable[[], SyntheticTable]] = {
    "greenwood": greenwood_table,
    "dont_starve": dont_starve_table,
    "stonesaga": stonesaga_table,
}


def photos(folder: Path, count: int) -> dict[tuple[str, str], list[Path]]:
    """``count`` JPEG photos of each game's table at each size (each with its own noise)."""
    out: dict[tuple[str, str], list[Path]] = {}
    for game, make in TABLES.items():
        scene = make()
        for width, height in SIZES:
            camera = Camera.overhead(width, height, height_mm=950, tilt_deg=3, yaw_deg=2)
            size = f"{width}x{height}"
            paths = []
            for seed in range(count):
                shot = render(scene, camera, HARD, seed=seed)
                path = folder / f"{game}-{size}-{seed}.jpg"
                cv2.imwrite(str(path), shot.image, [cv2.IMWRITE_JPEG_QUALITY, 70])
                paths.append(path)
            out[(game, size)] = paths
    return out


def scan_figures(quick: bool) -> list[Figure]:
    """Per game and size: the scan's and the detector's median milliseconds, their ratio."""
    rounds = 3 if quick else 9
    figures = []
    with tempfile.TemporaryDirectory() as tmp:
        print("bench vision: rendering the scan photos…", file=sys.stderr)
        shots = photos(Path(tmp), 2 if quick else 3)
        detector = Detector()
        for (game, size), paths in shots.items():
            reader = find_reader(game)
            images = [read_image(p) for p in paths]
            times: dict[str, list[float]] = {"scan": [], "detector": [], "decode": []}
            steps: dict[str, Callable[[int], object]] = {
                "scan": lambda i: reader.scan(paths[i], "en"),  # noqa: B023 - used in this loop
                "detector": lambda i: detector.detect(images[i]),  # noqa: B023
                "decode": lambda i: read_image(paths[i], grey=True),  # noqa: B023 - as scan does
            }
            for r in range(-1, rounds):  # a warm-up round, then the steps take turns
                for i in range(len(paths)):
                    for name, step in steps.items():
                        start = time.perf_counter()
                        step(i)
                        if r >= 0:
                            times[name].append(time.perf_counter() - start)
            ms = {name: float(np.median(t)) * 1000 for name, t in times.items()}
            # each scan against the detection just before it: a burst of another process
            # weighs on both alike, where it may fall on one median and not the other
            paired = float(np.median(np.divide(times["scan"], times["detector"])))
            figures += [
                Figure(SUITE, f"scan {game} {size}", ms["scan"], "ms/photo", "file → verdicts"),
                Figure(
                    SUITE,
                    f"scan {game} {size}: its detector",
                    ms["detector"],
                    "ms/photo",
                    "the fused detector on the decoded photo",
                ),
                Figure(
                    SUITE,
                    f"scan {game} {size} / its detector",
                    paired,
                    "ratio",
                    f"≤ 1.2; the median of each scan over the detection beside it "
                    f"({len(times['scan'])}); decoding the JPEG alone {ms['decode']:.1f} ms",
                ),
            ]
    return figures
