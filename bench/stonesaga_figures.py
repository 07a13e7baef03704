"""Stonesaga figures: engine moves/s on the example session, scan and reader costs.

Run: ``.venv/bin/python -m bench.stonesaga_figures [--quick]``. ``run(quick)`` returns
``bench.Figure`` rows, ready to join ``tablesight bench``; not a test (nothing is
asserted on speed).
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "support"))  # the synthetic Stonesaga scenes

import cv2  # noqa: E402
import stonesaga_scene as sc  # noqa: E402
from stonesaga_play import Play  # noqa: E402

from bench import Figure  # noqa: E402
from engine.core import Session, find_game, move_from_dict  # noqa: E402
from engine.stonesaga import moves as mv  # noqa: E402
from vision.calibration import calibrate_table  # noqa: E402
from vision.detection import Detector  # noqa: E402
from vision.readers import stonesaga as reader  # noqa: E402
from vision.stabiliser import Stabiliser  # noqa: E402
from vision.synthetic import Effects, render  # noqa: E402

EXAMPLE = HERE.parent / "docs" / "examples" / "stonesaga.jsonl"


def _median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def run(quick: bool = False) -> list[Figure]:
    """Measure and return the figures."""
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    setup = json.loads(lines[0])
    moves = [move_from_dict(json.loads(line)) for line in lines[1:]]
    game = find_game("stonesaga")

    def session() -> None:
        s = Session(game, setup["setup"], setup["seed"])
        for move in moves:
            s.submit(move)

    per_session = _median_ms(session, 20 if quick else 100)
    figures = [
        Figure("stonesaga", "example session replay", len(moves) / per_session * 1000, "moves/s"),
    ]
    t1, t2 = (400.0, 300.0, 3.0), (405.0, 420.0, -4.0)
    comps = [*sc.pad(), sc.token("sun_stone", "sun", *sc.on_pad(0))]
    comps += [sc.token("river_stone", "comet", *sc.on_pad(1))]
    comps += [sc.tray(1, t1), *[sc.tile(c, t1, c - 1, 0) for c in (1, 2, 3)]]
    comps += [sc.tray(2, t2), *[sc.tile(c, t2, c - 4, 60) for c in (4, 5, 6)]]
    shot = render(sc.table(*comps), sc.CAMERA, Effects(noise=2), seed=1)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "table.png"
        cv2.imwrite(str(path), shot.image)
        scan_ms = _median_ms(lambda: reader.scan(path, "en"), 3 if quick else 10)
    figures.append(Figure("stonesaga", "scan one 1280×720 photo", scan_ms, "ms", "detect+read"))
    found = Detector().detect(shot.image)
    calibration = calibrate_table(found, sc.REGISTRY.anchors(), (1280, 720))
    valley_ms = _median_ms(
        lambda: reader.read_valley(found, calibration, sc.REGISTRY, "v"), 20 if quick else 100
    )
    figures.append(Figure("stonesaga", "read_valley (6 tiles)", valley_ms, "ms", "after detect"))
    pad = reader.locate_pad(found, calibration, sc.REGISTRY)
    stabiliser = Stabiliser(to_table=calibration.to_table)
    observations = []
    for frame in range(4):
        observations += stabiliser.update(sc.REGISTRY.known(found), frame * 100)
    play = Play(1)
    play.edit(0, tile="102")
    play.do(mv.Mine(0, 0, "cave"))
    observe_ms = _median_ms(
        lambda: reader.DrawPadReader(pad, sc.REGISTRY).observe(observations, play.state),
        50 if quick else 300,
    )
    figures.append(
        Figure("stonesaga", "DrawPadReader.observe", observe_ms, "ms", f"{len(observations)} obs")
    )
    return figures


if __name__ == "__main__":
    for f in run(quick="--quick" in sys.argv):
        print(f"{f.suite:10} {f.name:28} {f.value:10.2f} {f.unit:7} {f.note}")
