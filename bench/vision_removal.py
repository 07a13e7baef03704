"""Removal time, bare against covered (issue 27), for `tablesight bench vision`.

On the rig's camera (the first frame size, 1280×720: hard light, 30 frames a second) a table of
16 stickers of 17 px (12 mm at 1280×720) goes through the incremental detector and two
stabilisers fed the same detections: one given each frame, so that it looks at the place of a
sticker it misses (`vision.places`), and one without the frame, as the stabiliser was before it
could look (removal after ``remove_ms``).

- *taken away*: four stickers leave the table at 0.5 s: the time from the first frame without
  them to their removal, and how many are never removed (1.7 s on);
- *covered*: a flat hand comes to rest over three stickers at 0.5 s and stays: removals in its
  first 2 s (goal: none), and the time to their removal.

Wrong ids and ids never on the table are counted over both.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import replace

from bench import Figure
from vision.detection import Detector
from vision.incremental import IncrementalDetector
from vision.stabiliser import Observation, Stabiliser
from vision.synthetic import Camera, Effects, Hand, SessionRenderer, SyntheticTable

SUITE = "vision"
FPS = 30.0
STICKER_PX = 17.0
START = 15
"""The frame (0.5 s) at which stickers are taken away or a hand comes."""

Shot = tuple[SyntheticTable, Effects]
Scene = Callable[[int], Shot]


def removal_figures(
    quick: bool,
    camera: Camera,
    hard: Effects,
    sticker_table: Callable[..., SyntheticTable],
    pixels_per_mm: Callable[[Camera], float],
) -> list[Figure]:
    """Removal time bare against covered, with and without looking at the place (module), on
    the rig's ``camera`` in ``hard`` light; `bench.vision` gives its ``sticker_table`` and
    ``pixels_per_mm``."""
    renderer = SessionRenderer(camera, layouts=2)
    detector = Detector()
    seeds = (1,) if quick else (1, 2, 3)
    print(f"bench vision: removal bare against covered, {len(seeds)} table(s)…", file=sys.stderr)
    taken: dict[str, list[float]] = {"looking": [], "not looking": []}
    rested: dict[str, int] = {"looking": 0, "not looking": 0}
    for_good: dict[str, list[float]] = {"looking": [], "not looking": []}
    why: set[str] = set()
    strays = covered = kept = 0
    for seed in seeds:
        table = sticker_table(STICKER_PX / pixels_per_mm(camera), camera, seed, count=16)
        stickers = table.components
        gone = {c.tag_id for c in stickers[4:8]}
        rest = stickers[9]  # a flat hand rests on it and its neighbours; its arm crosses below
        hand = Hand(rest.x_mm, rest.y_mm, (110, 80), arm_to_mm=(rest.x_mm + 40, 900))

        def without_some(i: int, table: SyntheticTable = table, gone: set[int] = gone) -> Shot:
            left = tuple(c for c in table.components if i < START or c.tag_id not in gone)
            return SyntheticTable(left), hard

        def staying(i: int, table: SyntheticTable = table, hand: Hand = hand) -> Shot:
            return table, replace(hard, hands=(hand,) if i >= START else ())

        truth = {c.tag_id for c in stickers}
        covered += len(set(renderer.render(*staying(START)).hidden) & truth)
        for scene, frames, kind in (
            (without_some, START + 50, "taken"),
            (staying, START + 100, "covered"),
        ):
            played = _play(renderer, detector, scene, frames)
            for label, out in played.items():
                removes = [o for o in out if o.kind == "remove"]
                strays += sum(o.tag_id not in truth for o in out)
                start_ms = START * 1000 / FPS
                if kind == "taken":
                    taken[label] += [(o.timestamp_ms - start_ms) / 1000 for o in removes]
                    strays += sum(o.tag_id not in gone for o in removes)
                    if label == "looking":
                        kept += len(gone - {o.tag_id for o in removes})
                else:
                    after = [(o.timestamp_ms - start_ms) / 1000 for o in removes]
                    rested[label] += sum(s < 2 for s in after)
                    for_good[label] += after
                if label == "looking":
                    why |= {f"{kind}: {o.why}" for o in removes}
    note = "; ".join(sorted(why))
    return [
        _seconds("removal of a sticker taken away, looking at its place", taken["looking"], note),
        _seconds("removal of a sticker taken away, not looking", taken["not looking"]),
        Figure(SUITE, "stickers taken away and never removed, looking", kept, "stickers"),
        Figure(
            SUITE,
            "removals within 2 s under a resting hand, looking",
            rested["looking"],
            "removals",
            f"of {covered} stickers covered",
        ),
        Figure(
            SUITE,
            "removals within 2 s under a resting hand, not looking",
            rested["not looking"],
            "removals",
        ),
        _seconds("removal under a hand that stays, looking", for_good["looking"]),
        _seconds("removal under a hand that stays, not looking", for_good["not looking"]),
        Figure(SUITE, "removal sequences: wrong or stray ids", strays, "observations"),
    ]


def _play(
    renderer: SessionRenderer, detector: Detector, scene: Scene, frames: int
) -> dict[str, list[Observation]]:
    """The observations of both stabilisers over ``frames`` frames of ``scene``."""
    pipeline = IncrementalDetector(detector)
    looking, blind = Stabiliser(), Stabiliser()
    out: dict[str, list[Observation]] = {"looking": [], "not looking": []}
    for i in range(frames):
        table, effects = scene(i)
        image = renderer.render(table, effects, seed=i).image
        found = pipeline.detect(image)
        now = i * 1000 / FPS
        out["looking"] += looking.update(found, now, image)
        out["not looking"] += blind.update(found, now)
    return out


def _seconds(name: str, values: list[float], note: str = "") -> Figure:
    """The mean of ``values`` (seconds), with their count and range in the note."""
    if not values:
        return Figure(SUITE, name, float("nan"), "s", "no removal")
    spread = f"{len(values)} removals, {min(values):.2f}–{max(values):.2f} s"
    return Figure(
        SUITE, name, sum(values) / len(values), "s", f"{spread}; {note}" if note else spread
    )
