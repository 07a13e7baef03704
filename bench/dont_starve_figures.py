"""Don't Starve figures (not a test): engine speed and the layout scan's time per frame.

Run: ``.venv/bin/python -m bench.dont_starve_figures``. ``run(quick)`` returns
``bench.Figure`` rows, so `tablesight bench` can include it as it is.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2

from bench import Figure
from engine.core import Advance, Pass, Session, find_game
from engine.dont_starve.catalogue import catalogue
from vision.readers.dont_starve import scan
from vision.registry import load_registry
from vision.synthetic import Camera, Component, SyntheticTable, render

SUITE = "dont_starve"


def _play_to_the_end(players: int, seed: int) -> tuple[int, float]:
    """Moves and seconds of a game played with passes and advances until it ends (the engine's
    seeded decks: no table to draw the cards)."""
    game = find_game("dont_starve")
    session = Session(game, {"players": players, "draws": "virtual"}, seed=seed)
    moves, began = 0, time.perf_counter()
    while session.state.outcome is None:
        flow = session.state.flow
        if game.phase(flow.phase).order.value == "table":
            move: Advance | Pass = Advance()
        else:
            move = Pass(seat=min(set(session.state.seats) - flow.done))
        session.submit(move)
        moves += 1
    return moves, time.perf_counter() - began


def _layout_image(folder: Path) -> Path:
    """A 1280×720 frame of the first scenario's layout with the four anchors (the demo box's)."""
    registry, cat = load_registry(), catalogue()
    scenario = next(iter(cat.scenarios.values()))
    half = cat.tile_mm / 2
    tags = {(e.item, e.face): e.tag_id for e in registry.for_game("dont_starve")}
    comps = [Component(a.tag_id, a.x_mm, a.y_mm, 0, a.size_mm) for a in registry.anchors().values()]
    numbers = iter(range(2, len(cat.tile_biomes) + 1))
    for slot in scenario.all_slots:
        number = 1 if slot.name == scenario.portal.name else next(numbers)
        face = "revealed" if number == 1 else "hidden"
        x = 450 + (slot.x - scenario.portal.x) * half
        y = 300 + (slot.y - scenario.portal.y) * half
        comps.append(Component(tags[(number, face)], x, y, 0, 25, body_mm=(106, 106)))
    camera = Camera.overhead(1280, 720, height_mm=950, over_mm=(450, 300), tilt_deg=3)
    path = folder / "layout.png"
    cv2.imwrite(str(path), render(SyntheticTable(tuple(comps)), camera).image)
    return path


def run(quick: bool = False) -> list[Figure]:
    """Engine moves per second over whole games, setup time, and scan time per frame."""
    game = find_game("dont_starve")
    Session(game, {"players": 4, "draws": "virtual"})  # the demo box loads once
    began = time.perf_counter()
    Session(game, {"players": 4, "draws": "virtual"}, seed=1)
    setup_ms = (time.perf_counter() - began) * 1000
    games = 3 if quick else 10
    moves = seconds = 0.0
    for seed in range(games):
        n, s = _play_to_the_end(4, seed)
        moves, seconds = moves + n, seconds + s
    with tempfile.TemporaryDirectory() as tmp:
        path = _layout_image(Path(tmp))
        times = []
        for _ in range(5 if quick else 20):
            began = time.perf_counter()
            scan(path, "en")
            times.append((time.perf_counter() - began) * 1000)
    return [
        Figure(SUITE, "setup of a 4-player game", setup_ms, "ms"),
        Figure(SUITE, "moves applied", moves / seconds, "moves/s", f"{games} whole games"),
        Figure(SUITE, "scan a 1280x720 layout frame", statistics.median(times), "ms", "median"),
        Figure(SUITE, "scan a 1280x720 layout frame, worst", max(times), "ms"),
    ]


if __name__ == "__main__":
    for f in run(quick="--quick" in sys.argv):
        note = f" ({f.note})" if f.note else ""
        print(f"{f.name}: {f.value:.1f} {f.unit}{note}")
