"""`tablesight bench vision`: detector speed on rendered tables and recall on real photographs.

Speed, one thread (AprilTag's and OpenCV's), on frames of the synthetic table (60 tags of
20-30 mm, sensor noise and a little blur) at 1280×720 and 1920×1080, in milliseconds per frame
(the median over the frames, but the mean for the steady state, which must pay for its periodic
full re-scans):

- the raw detectors: one call of AprilTag 3 at decimation 1 and 2, and ``cv2.aruco``;
- the fused `Detector` (AprilTag on the frame, ``cv2.aruco``, the soft decoder, second pass on
  unread candidates), on 1, 2 and 4 threads (AprilTag's frame pass and the second pass's
  crops on all of them), and
  without AprilTag's frame pass (``frame_pass``);
- the whole pipeline: BGR frame → fused detector → stabiliser → observations (frames are
  rendered beforehand, so "capture" is a frame already in memory, as a camera driver gives it),
  and the same pipeline over one plain AprilTag call;
- the steady state on a static table: the same pipeline through the incremental detector,
  including its periodic full re-scan; and the ratios the issue sets targets for.

Recall on ``../shared/testdata/apriltag-photos/mapping_feb_2014`` (236 labelled tags), for one
plain AprilTag call and for the fused detector: tags found, wrong ids (ids reported that the
photograph does not hold) and false positives on tag-free frames (noise and textures).

Seeing at the rig's limits, on the project's renderer with the rig's camera (the 900 mm table
fills the frame's width, so a sticker of s mm is s × width / 900 pixels):

- single-frame recall by sticker size at each frame size, under good and hard conditions
  (`GOOD`, `HARD`), for one plain AprilTag call and the fused detector, and their wrong ids;
- over time: the share of still tags of each size that are in the stabilised observations
  within one second of appearing (30 frames a second, hard conditions), through the incremental
  detector with and without its reading over time;
- look-alike print (chessboards, framed random cells, text, random blocks): false tags in one
  frame and over 10 s through the whole pipeline;
- a long session (10 minutes at 5 frames a second; 1 minute with ``--quick``) of a still table
  with small stickers and look-alike print under hard light, hands passing and moving stickers:
  ghost ids, tags added at a wrong place, removes of tags still there;
- the cost: the steady state on the hard table against one fused detection (its first frames,
  and once the print no mean reads is given up), and the whole
  pipeline on a table that changes every frame against the fused detector alone; the fused
  detector against AprilTag 3 at decimation 1 on that table (also with 2 threads); and the
  pipeline on a table where a hand moves through part of the view;
- a shaking camera (about a pixel and 0.1° between frames): the share observed within one
  second and the share of each frame detected again, with and without alignment; and over time,
  beside each share, the share that any one frame's fused detection read in that second;
- `tablesight scan` against the detector it runs, per game and frame size, on the same JPEG
  photos of a whole table in hard light (``bench/vision_scan.py``): both in milliseconds per
  photo, measured in turns in one run, and their ratio.
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from bench import Figure
from bench.vision_removal import removal_figures
from bench.vision_scan import scan_figures
from vision.detect_backends import AprilTagBackend, ArucoBackend
from vision.detection import Detector, DetectorConfig, read_image, to_grey
from vision.incremental import IncrementalConfig, IncrementalDetector
from vision.stabiliser import Observation, Stabiliser
from vision.synthetic import (
    DECOY_KINDS,
    Camera,
    Component,
    Decoy,
    Effects,
    Hand,
    SessionRenderer,
    SyntheticTable,
    render,
    scattered_table,
)

SUITE = "vision"
PHOTOS = Path(__file__).resolve().parents[1] / ".." / "shared" / "testdata" / "apriltag-photos"
MAPPING = PHOTOS / "mapping_feb_2014"
SIZES = ((1280, 720), (1920, 1080))
EFFECTS = Effects(noise=3.0, blur=0.6)
FRAME_MS = 1000 / 30

#: Conditions of the sticker-size figures. Good: a sharp, well-lit frame. Hard: defocus, a
#: little motion, sensor noise of a dim room, light falling off by half across the table, a
#: lamp's glare and strong JPEG compression, all at once.
GOOD = Effects(noise=2.0, blur=0.5, jpeg_quality=90)
HARD = Effects(
    blur=1.0,
    motion_blur=2.0,
    motion_angle_deg=30.0,
    noise=6.0,
    uneven_light=0.5,
    glare=0.6,
    jpeg_quality=60,
)
#: The table width the rig's camera sees across its frame.
TABLE_MM = 900.0
#: Sticker sizes (the tag's black square) of the single-frame figures, and of the over-time ones.
STICKER_MM = (6, 8, 9, 10, 11, 12, 15, 18, 22)
OVER_TIME_MM = (8, 9, 10.5, 12, 15)
#: The long session: seconds (full, quick) at this many frames a second.
SESSION_S = (600, 60)
SESSION_FPS = 5


def run(quick: bool) -> list[Figure]:
    """Measure everything; ``quick`` uses fewer frames. OpenCV works on one thread, as AprilTag
    does, except where a figure says 4 threads."""
    cv2.setNumThreads(1)
    figures: list[Figure] = []
    for width, height in SIZES:
        figures += _speed(width, height, quick)
    figures += _recall()
    figures += sticker_figures(quick)
    figures += scan_figures(quick)
    return figures


# --- seeing at the rig's limits ---------------------------------------------------------------

DetectorFactory = Callable[[], Detector]
PipelineFactory = Callable[[], IncrementalDetector]


def rig_camera(width: int, height: int) -> Camera:
    """The rig's camera: 800 mm above the middle of the table, its frame as wide as the table."""
    hfov = 2 * np.degrees(np.arctan(TABLE_MM / 2 / 800))
    return Camera.overhead(width, height, height_mm=800, over_mm=(450, 300), hfov_deg=hfov)


def pixels_per_mm(camera: Camera) -> float:
    """Pixels per millimetre on the table under the camera."""
    return camera.fx / -camera.position_mm[2]


def sticker_table(tag_mm: float, camera: Camera, seed: int, count: int = 32) -> SyntheticTable:
    """``count`` stickers of ``tag_mm`` in a jittered grid over what the camera sees, turned
    at random, ids from 100."""
    rng = np.random.default_rng(seed)
    half_h = camera.height / 2 / pixels_per_mm(camera)
    top, bottom = 300 - half_h + 40, 300 + half_h - 40
    cols = 8
    rows = -(-count // cols)
    components = []
    for i in range(count):
        r, c = divmod(i, cols)
        components.append(
            Component(
                tag_id=100 + i,
                x_mm=60 + (c + 0.5) * (TABLE_MM - 120) / cols + float(rng.uniform(-8, 8)),
                y_mm=top + (r + 0.5) * (bottom - top) / rows + float(rng.uniform(-8, 8)),
                rotation_deg=float(rng.uniform(0, 360)),
                tag_mm=tag_mm,
            )
        )
    return SyntheticTable(tuple(components))


def decoy_table(camera: Camera, seed: int, count: int = 32) -> SyntheticTable:
    """Look-alike print and no tag: every kind of `Decoy`, 8 to 30 mm, turned at random."""
    rng = np.random.default_rng(seed)
    half_h = camera.height / 2 / pixels_per_mm(camera)
    top, bottom = 300 - half_h + 40, 300 + half_h - 40
    cols, rows = 8, -(-count // 8)
    decoys = []
    for i in range(count):
        r, c = divmod(i, cols)
        decoys.append(
            Decoy(
                DECOY_KINDS[i % len(DECOY_KINDS)],
                x_mm=60 + (c + 0.5) * (TABLE_MM - 120) / cols,
                y_mm=top + (r + 0.5) * (bottom - top) / rows,
                size_mm=float(rng.uniform(8, 30)),
                rotation_deg=float(rng.uniform(0, 360)),
                seed=seed * 1000 + i,
            )
        )
    return SyntheticTable(decoys=tuple(decoys))


def default_detectors() -> dict[str, DetectorFactory]:
    """The single-frame detectors compared: one plain AprilTag call, the fused detector without
    its soft decoder (as before issue 27) and the fused detector."""
    return {
        "plain": lambda: Detector(DetectorConfig.plain()),
        "without the soft decoder": lambda: Detector(DetectorConfig(soft_pass=False)),
        "fused": Detector,
    }


def default_pipelines() -> dict[str, PipelineFactory]:
    """The incremental detector with and without its reading over time."""
    return {
        "over time": lambda: IncrementalDetector(Detector()),
        "frame by frame": lambda: IncrementalDetector(Detector(), IncrementalConfig(memory=False)),
    }


def sticker_figures(
    quick: bool,
    detectors: dict[str, DetectorFactory] | None = None,
    pipelines: dict[str, PipelineFactory] | None = None,
) -> list[Figure]:
    """Every figure of the rig's limits (see the module)."""
    detectors = detectors or default_detectors()
    pipelines = pipelines or default_pipelines()
    figures = single_frame_recall(quick, detectors)
    figures += over_time_recall(quick, pipelines)
    figures += shaking_camera(quick)
    figures += look_alike(quick, detectors, pipelines)
    figures += session(quick, pipelines)
    figures += limit_costs(quick, pipelines)
    figures += removal_figures(quick, rig_camera(*SIZES[0]), HARD, sticker_table, pixels_per_mm)
    return figures


def _score(found: list, truth: set[int]) -> tuple[int, int]:
    ids = Counter(d.id for d in found)
    return sum(1 for i in truth if ids[i]), sum(n for i, n in ids.items() if i not in truth)


def single_frame_recall(quick: bool, detectors: dict[str, DetectorFactory]) -> list[Figure]:
    """Share of the stickers of each size read in one frame, per frame size and condition."""
    figures = []
    built = {name: make() for name, make in detectors.items()}
    frames = 1 if quick else 2
    for width, height in SIZES:
        camera = rig_camera(width, height)
        wrong: Counter[str] = Counter()
        for condition, effects in (("good", GOOD), ("hard", HARD)):
            # stickers read by each detector, and seen, over all sizes and from 20 px
            overall: dict[str, Counter[str]] = {"all": Counter(), "20": Counter()}
            print(f"bench vision: {width}x{height} {condition} stickers…", file=sys.stderr)
            for tag_mm in STICKER_MM:
                found: Counter[str] = Counter()
                total = 0
                for seed in range(frames):
                    shot = render(sticker_table(tag_mm, camera, seed), camera, effects, seed=seed)
                    truth = {t.tag_id for t in shot.truth}
                    total += len(truth)
                    for name, detector in built.items():
                        ok, bad = _score(detector.detect(shot.image), truth)
                        found[name] += ok
                        wrong[name] += bad
                shares = {name: found[name] / max(total, 1) for name in built}
                px = tag_mm * pixels_per_mm(camera)
                for key in ("all", "20") if px >= 20 else ("all",):
                    overall[key] += found
                    overall[key]["seen"] += total
                others = "; ".join(f"{n} {v:.2f}" for n, v in shares.items() if n != "fused")
                figures.append(
                    Figure(
                        SUITE,
                        f"{width}x{height} {condition} {tag_mm} mm sticker, one frame",
                        shares.get("fused", 0.0),
                        "share",
                        f"{px:.0f} px, {total} stickers; {others}",
                    )
                )
            for key, label, goal in (("all", "every size", 0.65), ("20", "20 px and more", 0.95)):
                read, seen = overall[key]["fused"], overall[key]["seen"]
                note = f"fused; {seen} stickers"
                if condition == "hard":
                    note += f"; goal ≥ {goal}"
                note += "".join(
                    f"; {n} {overall[key][n] / max(seen, 1):.2f}" for n in built if n != "fused"
                )
                figures.append(
                    Figure(
                        SUITE,
                        f"{width}x{height} {condition}, one frame, {label}",
                        read / max(seen, 1),
                        "share",
                        note,
                    )
                )
        for name in built:
            figures.append(
                Figure(SUITE, f"{width}x{height} stickers, wrong ids, {name}", wrong[name], "ids")
            )
    return figures


def _play(
    pipeline: IncrementalDetector,
    stabiliser: Stabiliser,
    frames: Callable[[int], np.ndarray],
    count: int,
    frame_ms: float,
) -> list[list[Observation]]:
    out = []
    for i in range(count):
        out.append(stabiliser.update(pipeline.detect(frames(i)), i * frame_ms))
    return out


def over_time_recall(quick: bool, pipelines: dict[str, PipelineFactory]) -> list[Figure]:
    """Share of still stickers in the observations within one second of appearing (30 frames
    a second, hard conditions, the first frame size), with and without reading over time."""
    width, height = SIZES[0]
    camera = rig_camera(width, height)
    renderer = SessionRenderer(camera)
    appear, second = 3, round(1000 / FRAME_MS)
    figures = []
    single = Detector()
    from_15 = {"observed": [0, 0], "any frame": [0, 0]}  # stickers of 15 px and more
    for tag_mm in OVER_TIME_MM:
        print(f"bench vision: {tag_mm} mm stickers over time…", file=sys.stderr)
        shares = {}
        any_frame = seen = observed = 0
        for name, make in pipelines.items():
            added = total = 0
            for seed in range(1 if quick else 2):
                table = sticker_table(tag_mm, camera, seed + 10)

                def frame(i: int, table: SyntheticTable = table, seed: int = seed) -> np.ndarray:
                    layout = table if i >= appear else SyntheticTable()
                    return renderer.render(layout, HARD, seed=seed * 1000 + i).image

                pipeline = make()
                per_frame = _play(pipeline, Stabiliser(), frame, appear + second + 1, FRAME_MS)
                truth = {c.tag_id for c in table.components}
                total += len(truth)
                added += len(
                    {o.tag_id for obs in per_frame for o in obs if o.kind == "add"} & truth
                )
                if name == "over time":  # the union of one fused detection per frame
                    window = range(appear, appear + second)
                    read = {d.id for i in window for d in single.detect(frame(i))}
                    any_frame += len(read & truth)
                    seen += len(truth)
            shares[name] = added / max(total, 1)
            if name == "over time":
                observed = added
        px = tag_mm * pixels_per_mm(camera)
        if px >= 14.9:
            for key, value in (("observed", observed), ("any frame", any_frame)):
                from_15[key][0] += value
                from_15[key][1] += seen
        others = "; ".join(f"{n} {v:.2f}" for n, v in shares.items() if n != "over time")
        figures.append(
            Figure(
                SUITE,
                f"{width}x{height} hard {tag_mm} mm sticker, observed within 1 s",
                shares.get("over time", 0.0),
                "share",
                f"{px:.0f} px; read by any one frame {any_frame / max(seen, 1):.2f}; {others}",
            )
        )
    (observed, seen), (any_frame, _) = from_15["observed"], from_15["any frame"]
    figures.append(
        Figure(
            SUITE,
            f"{width}x{height} hard, observed within 1 s, 15 px and more",
            observed / max(seen, 1),
            "share",
            f"read by any one frame {any_frame / max(seen, 1):.2f}; goal ≥ 0.97",
        )
    )
    return figures


def shaking_camera(quick: bool, tag_mm: float = 12.0) -> list[Figure]:
    """A still table of ``tag_mm`` stickers in hard light under a camera that shakes (about a
    pixel and 0.1° between frames): the share observed within one second, and the share of
    the frame detected again, through the incremental detector with and without alignment."""
    width, height = SIZES[0]
    rig = rig_camera(width, height)
    hfov = 2 * np.degrees(np.arctan(TABLE_MM / 2 / 800))
    table = sticker_table(tag_mm, rig, 10)
    truth = {c.tag_id for c in table.components}
    rng = np.random.default_rng(6)
    print(f"bench vision: {tag_mm} mm stickers under a shaking camera…", file=sys.stderr)
    frames = []
    for i in range(round(1000 / FRAME_MS) + 4 if quick else 2 * round(1000 / FRAME_MS)):
        dx, dy = rng.normal(0, 0.7, 2)
        camera = Camera.overhead(
            width,
            height,
            height_mm=800,
            over_mm=(450 + float(dx), 300 + float(dy)),
            hfov_deg=hfov,
            yaw_deg=float(rng.normal(0, 0.1)),
        )
        frames.append(render(table, camera, HARD, seed=i).image)
    second = round(1000 / FRAME_MS) + 4
    results = {}
    for align in (True, False):
        pipeline, stabiliser = (
            IncrementalDetector(Detector(), IncrementalConfig(align=align)),
            Stabiliser(),
        )
        added: set[int] = set()
        looked = 0.0
        for i, frame in enumerate(frames):
            found = pipeline.detect(frame)
            if i < second:
                added |= {
                    o.tag_id for o in stabiliser.update(found, i * FRAME_MS) if o.kind == "add"
                }
            if i:
                boxes = pipeline.last_regions
                looked += (
                    1.0
                    if pipeline.last_mode == "full"
                    else sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes) / (width * height)
                )
        results[align] = (len(added & truth) / len(truth), looked / (len(frames) - 1))
    px = tag_mm * pixels_per_mm(rig)
    return [
        Figure(
            SUITE,
            f"{width}x{height} shaking camera, {tag_mm} mm sticker observed within 1 s",
            results[True][0],
            "share",
            f"{px:.0f} px, hard light; without alignment {results[False][0]:.2f}",
        ),
        Figure(
            SUITE,
            f"{width}x{height} shaking camera, share of the frame detected again",
            results[True][1],
            "share",
            f"a frame; without alignment {results[False][1]:.2f}",
        ),
    ]


def _medians_ms(steps: dict[str, Callable[[int], object]], frames: int) -> dict[str, float]:
    """The median milliseconds of each ``step(i)`` over ``frames`` rounds, after one warm-up
    round. The steps take turns within each round, so that a burst of another process on a
    shared machine weighs on all of them alike and the ratios stay fair."""
    times: dict[str, list[float]] = {name: [] for name in steps}
    for i in range(-1, frames):
        for name, step in steps.items():
            start = time.perf_counter()
            step(max(i, 0))
            if i >= 0:
                times[name].append(time.perf_counter() - start)
    return {name: float(np.median(t)) * 1000 for name, t in times.items()}


def _mean_ms(step: Callable[[int], object], frames: int) -> float:
    """The mean milliseconds of ``step(i)`` over ``frames`` calls, after one warm-up call (the
    mean, so that the steady state pays its share of the periodic full re-scans)."""
    step(0)
    start = time.perf_counter()
    for i in range(frames):
        step(i)
    return (time.perf_counter() - start) * 1000 / frames


def _speed(width: int, height: int, quick: bool) -> list[Figure]:
    size = f"{width}x{height}"
    print(f"bench vision: rendering {size} frames…", file=sys.stderr)
    table = scattered_table(60, seed=11)
    camera = Camera.overhead(width, height)
    shots = [render(table, camera, EFFECTS, seed=s) for s in range(3 if quick else 6)]
    frames = [s.image for s in shots]
    greys = [to_grey(f) for f in frames]
    reps = 3 if quick else 15
    steady_frames = 30 if quick else 90

    def nth(seq: list[np.ndarray], i: int) -> np.ndarray:
        return seq[i % len(seq)]

    april1 = AprilTagBackend("tag36h11", threads=1, decimation=1, quad_sigma=0, max_hamming=1)
    april2 = AprilTagBackend("tag36h11", threads=1, decimation=2, quad_sigma=0, max_hamming=1)
    aruco = ArucoBackend("tag36h11", max_hamming=1)
    fused = Detector(DetectorConfig(threads=1))
    fused2 = Detector(DetectorConfig(threads=2))
    fused4 = Detector(DetectorConfig(threads=4))
    no_frame = Detector(DetectorConfig(threads=1, frame_pass=False))
    no_frame4 = Detector(DetectorConfig(threads=4, frame_pass=False))
    plain = Detector(DetectorConfig.plain(threads=1))
    stabilisers = {"fused": Stabiliser(), "plain": Stabiliser()}

    def pipeline_step(detector: Detector, stabiliser: Stabiliser) -> Callable[[int], object]:
        return lambda i: stabiliser.update(detector.detect(nth(frames, i)), i * FRAME_MS)

    print(f"bench vision: timing detectors at {size}…", file=sys.stderr)
    ms = _medians_ms(
        {
            "raw1": lambda i: april1.detect(nth(greys, i)),
            "raw2": lambda i: april2.detect(nth(greys, i)),
            "aruco": lambda i: aruco.detect(nth(greys, i)),
            "fused": lambda i: fused.detect(nth(frames, i)),
            "fused2": _on_threads(2, lambda i: fused2.detect(nth(frames, i))),
            "fused4": _on_threads(4, lambda i: fused4.detect(nth(frames, i))),
            "no frame": lambda i: no_frame.detect(nth(frames, i)),
            "no frame4": _on_threads(4, lambda i: no_frame4.detect(nth(frames, i))),
            "pipeline": pipeline_step(fused, stabilisers["fused"]),
            "plain pipeline": pipeline_step(plain, stabilisers["plain"]),
        },
        reps,
    )
    raw1, raw2, raw_aruco, fused_ms = ms["raw1"], ms["raw2"], ms["aruco"], ms["fused"]
    pipeline, plain_pipeline = ms["pipeline"], ms["plain pipeline"]
    found_now = fused.detect(frames[0])
    found = len(found_now)
    alone = Stabiliser()
    stabiliser_ms = _mean_ms(lambda i: alone.update(found_now, i * FRAME_MS), 200)

    incremental = IncrementalDetector(fused)
    steady_stabiliser = Stabiliser()
    modes: Counter[str] = Counter()

    def steady_step(i: int) -> None:
        steady_stabiliser.update(incremental.detect(nth(frames, i)), timestamp_ms=i * FRAME_MS)
        modes[incremental.last_mode] += 1

    steady = _mean_ms(steady_step, steady_frames)
    rescan = incremental.config.rescan_every
    return [
        Figure(SUITE, f"{size} tags found by the fused detector", found, "tags", "of 60"),
        Figure(SUITE, f"{size} AprilTag 3 raw, decimation 1", raw1, "ms/frame", "1 thread"),
        Figure(SUITE, f"{size} AprilTag 3 raw, decimation 2", raw2, "ms/frame", "1 thread"),
        Figure(SUITE, f"{size} cv2.aruco raw", raw_aruco, "ms/frame", "DICT_APRILTAG_36h11"),
        Figure(
            SUITE, f"{size} fused detector", fused_ms, "ms/frame", "AprilTag+aruco+soft+2nd pass"
        ),
        Figure(
            SUITE,
            f"{size} fused detector, 2 threads",
            ms["fused2"],
            "ms/frame",
            f"AprilTag and the crops on 2; this machine has {os.cpu_count()} cores",
        ),
        Figure(
            SUITE,
            f"{size} fused detector, 4 threads",
            ms["fused4"],
            "ms/frame",
            f"OpenCV's on 4; the detector's own no more than the {os.cpu_count()} cores here",
        ),
        Figure(
            SUITE,
            f"{size} fused / raw AprilTag d1",
            fused_ms / raw1,
            "ratio",
            f"a new layout every frame, 1 thread; ≤ 0.35; 2 threads {ms['fused2'] / raw1:.2f}, "
            f"4 threads {ms['fused4'] / raw1:.2f}",
        ),
        Figure(
            SUITE,
            f"{size} fused without the frame pass / raw AprilTag d1",
            ms["no frame"] / raw1,
            "ratio",
            f"frame_pass = false, 1 thread; 4 threads {ms['no frame4'] / raw1:.2f}",
        ),
        Figure(SUITE, f"{size} whole pipeline", pipeline, "ms/frame", "frame→detect→stabilise"),
        Figure(SUITE, f"{size} stabiliser alone", stabiliser_ms, "ms/frame", f"{found} tags"),
        Figure(
            SUITE,
            f"{size} steady state, static table",
            steady,
            "ms/frame",
            f"incremental, full re-scan every {rescan} frames; "
            f"{modes['full']} full, {modes['partial']} partial, {modes['unchanged']} unchanged",
        ),
        Figure(SUITE, f"{size} pipeline / fused detector", pipeline / fused_ms, "ratio", "≤ 1.1"),
        Figure(SUITE, f"{size} pipeline / raw AprilTag d1", pipeline / raw1, "ratio"),
        Figure(
            SUITE,
            f"{size} plain pipeline / raw AprilTag d1",
            plain_pipeline / raw1,
            "ratio",
            "one AprilTag call → stabilise; ≤ 1.1",
        ),
        Figure(SUITE, f"{size} steady state / pipeline", steady / pipeline, "ratio", "≤ 0.33"),
        Figure(SUITE, f"{size} steady state / raw AprilTag d1", steady / raw1, "ratio", "≤ 0.33"),
    ]


def _recall() -> list[Figure]:
    truth_file = MAPPING / "groundtruth.txt"
    if not truth_file.is_file():
        print(f"bench vision: no ground truth at {truth_file}; recall skipped", file=sys.stderr)
        return []
    print("bench vision: recall on mapping_feb_2014…", file=sys.stderr)
    truth = {}
    for line in truth_file.read_text().splitlines():
        name, *ids = line.split()
        truth[name] = Counter(int(i) for i in ids)
    images = {name: read_image(MAPPING / name) for name in truth}
    total = sum(sum(c.values()) for c in truth.values())
    tag_free = _tag_free_frames()
    figures = []
    for label, config in (("plain AprilTag", DetectorConfig.plain()), ("fused", DetectorConfig())):
        detector = Detector(config)
        found = wrong = 0
        start = time.perf_counter()
        for name, want in truth.items():
            got = Counter(d.id for d in detector.detect(images[name]))
            found += sum((got & want).values())
            wrong += sum((got - want).values())
        ms = (time.perf_counter() - start) * 1000 / len(truth)
        false = sum(len(detector.detect(f)) for f in tag_free)
        figures += [
            Figure(SUITE, f"mapping_feb_2014 found, {label}", found, "tags", f"of {total}"),
            Figure(SUITE, f"mapping_feb_2014 wrong ids, {label}", wrong, "ids"),
            Figure(SUITE, f"mapping_feb_2014 time, {label}", ms, "ms/image", "816x612"),
            Figure(
                SUITE,
                f"false positives, {label}",
                false,
                "tags",
                f"{len(tag_free)} tag-free frames",
            ),
        ]
    return figures


def _tag_free_frames() -> list[np.ndarray]:
    """Frames with no tag in them: noise, blocky noise (tag-like squares), an empty table."""
    rng = np.random.default_rng(5)
    frames: list[np.ndarray] = [rng.integers(0, 256, (720, 1280), dtype=np.uint8)]
    for cells in ((45, 80), (90, 160), (180, 320)):
        blocks = rng.integers(0, 2, cells, dtype=np.uint8) * 255
        frames.append(cv2.resize(blocks, (1280, 720), interpolation=cv2.INTER_NEAREST))
    frames.append(render(SyntheticTable(), Camera.overhead(), Effects(noise=4.0), seed=1).image)
    return frames


def look_alike(
    quick: bool, detectors: dict[str, DetectorFactory], pipelines: dict[str, PipelineFactory]
) -> list[Figure]:
    """Tags reported on tables of look-alike print and no tag: in one frame (good and hard
    light), and over 10 s at 30 frames a second through each pipeline and the stabiliser."""
    width, height = SIZES[0]
    camera = rig_camera(width, height)
    print("bench vision: look-alike print…", file=sys.stderr)
    tables = [decoy_table(camera, seed) for seed in range(1 if quick else 3)]
    figures = []
    for name, make in detectors.items():
        detector = make()
        false = sum(
            len(detector.detect(render(table, camera, effects, seed=k).image))
            for k, table in enumerate(tables)
            for effects in (GOOD, HARD)
        )
        figures.append(
            Figure(
                SUITE,
                f"look-alike print, false tags in one frame, {name}",
                false,
                "tags",
                f"{len(tables) * 2} frames of {len(tables[0].decoys)} prints",
            )
        )
    renderer = SessionRenderer(camera)
    frames = 90 if quick else 300
    for name, make_pipeline in pipelines.items():
        reported: set[int] = set()
        added = 0
        for table in tables:
            pipeline, stabiliser = make_pipeline(), Stabiliser()
            for i in range(frames):
                found = pipeline.detect(renderer.render(table, HARD, seed=i).image)
                reported |= {d.id for d in found}
                added += sum(o.kind == "add" for o in stabiliser.update(found, i * FRAME_MS))
        figures.append(
            Figure(
                SUITE,
                f"look-alike print over {frames / 30:.0f} s, false ids, {name}",
                len(reported),
                "ids",
                f"{added} added to the observations; {len(tables)} tables",
            )
        )
    return figures


def session_table(camera: Camera) -> SyntheticTable:
    """The long session's table: 24 stickers of 12-22 mm and 8 look-alike prints."""
    rng = np.random.default_rng(3)
    stickers = sticker_table(12, camera, 3, count=32).components
    components = tuple(
        Component(c.tag_id, c.x_mm, c.y_mm, c.rotation_deg, float(rng.uniform(12, 22)))
        for c in stickers[:24]
    )
    decoys = decoy_table(camera, 3, count=32).decoys[24:]
    return SyntheticTable(components, decoys=decoys)


def session(quick: bool, pipelines: dict[str, PipelineFactory]) -> list[Figure]:
    """The long session (see the module) through the first pipeline and the stabiliser."""
    width, height = SIZES[0]
    camera = rig_camera(width, height)
    renderer = SessionRenderer(camera, layouts=2)
    seconds = SESSION_S[1 if quick else 0]
    frames, frame_ms = seconds * SESSION_FPS, 1000 / SESSION_FPS
    table = session_table(camera)
    rng = np.random.default_rng(8)
    # A hand passes every 8 s for 1 s, reaching to a sticker; every third pass moves it.
    passes = []
    place = {c.tag_id: c for c in table.components}
    for k, start in enumerate(range(2000, seconds * 1000 - 1500, 8000)):
        tag = table.components[int(rng.integers(len(table.components)))]
        moved = None
        if k % 3 == 2:
            moved = (float(rng.uniform(-60, 60)), float(rng.uniform(-40, 40)), 35.0)
        passes.append((start, tag.tag_id, moved))
    moves: list[tuple[float, int, tuple[float, float, float]]] = []

    def scene(i: int) -> tuple[SyntheticTable, Effects]:
        now = i * frame_ms
        hands: tuple[Hand, ...] = ()
        for start, tag_id, moved in passes:
            if start <= now < start + 1000:
                c = place[tag_id]
                reach = 1 - abs((now - start) / 500 - 1)  # 0 → 1 → 0 over the pass
                x, y = c.x_mm, 700 - (700 - c.y_mm) * min(1.0, reach * 1.4)
                hands = (Hand(x, y, arm_to_mm=(x + 40, 900)),)
                if moved is not None and now >= start + 500 and (start, tag_id) not in done:
                    done.add((start, tag_id))
                    dx, dy, turn = moved
                    place[tag_id] = Component(
                        tag_id, c.x_mm + dx, c.y_mm + dy, c.rotation_deg + turn, c.tag_mm
                    )
                    moves.append((now, tag_id, (dx, dy, turn)))
        layout = SyntheticTable(
            tuple(place[c.tag_id] for c in table.components), decoys=table.decoys
        )
        flicker = float(rng.uniform(0.9, 1.0))
        return layout, replace(HARD, hands=hands, exposure=flicker)

    done: set[tuple[int, int]] = set()
    name, make = next(iter(pipelines.items()))
    print(f"bench vision: a {seconds} s session with hands ({name})…", file=sys.stderr)
    pipeline, stabiliser = make(), Stabiliser()
    ghosts: set[int] = set()
    wrong_place = removes = adds = updates = 0
    for i in range(frames):
        layout, effects = scene(i)
        found = pipeline.detect(renderer.render(layout, effects, seed=i).image)
        truth = {c.tag_id: c for c in layout.components}
        for o in stabiliser.update(found, i * frame_ms):
            if o.tag_id not in truth:
                ghosts.add(o.tag_id)
                continue
            if o.kind == "remove":
                removes += 1
                continue
            adds += o.kind == "add"
            updates += o.kind == "update"
            c = truth[o.tag_id]
            centre = camera.project(np.array([[c.x_mm, c.y_mm]]))[0]
            side = c.tag_mm * pixels_per_mm(camera)
            if np.hypot(o.x_mm - centre[0], o.y_mm - centre[1]) > side / 2:
                wrong_place += 1
    alive = {t.tag_id for t in stabiliser.alive()}
    note = f"{frames} frames at {SESSION_FPS}/s, {len(passes)} hands, {len(moves)} moves"
    return [
        Figure(SUITE, "session: ghost ids", len(ghosts), "ids", note),
        Figure(SUITE, "session: added or moved to a wrong place", wrong_place, "observations"),
        Figure(SUITE, "session: removes of stickers still there", removes, "observations"),
        Figure(
            SUITE,
            "session: stickers in the observations at the end",
            len(alive & set(place)),
            "stickers",
            f"of {len(place)}; {adds} adds, {updates} updates for {len(moves)} moves",
        ),
    ]


def limit_costs(quick: bool, pipelines: dict[str, PipelineFactory]) -> list[Figure]:
    """The steady state of a still hard table against one fused detection, and the pipeline on
    a table that changes every frame against the fused detector alone (first frame size)."""
    width, height = SIZES[0]
    size = f"{width}x{height}"
    camera = rig_camera(width, height)
    renderer = SessionRenderer(camera, layouts=3)
    print(f"bench vision: costs at the limits, {size}…", file=sys.stderr)
    name, make = next(iter(pipelines.items()))
    still = session_table(camera)
    hard = [renderer.render(still, HARD, seed=i).image for i in range(30 if quick else 90)]
    fused = Detector(DetectorConfig(threads=1))
    fused2 = Detector(DetectorConfig(threads=2))
    full_ms = _medians_ms(
        {
            "fused": lambda i: fused.detect(hard[i % len(hard)]),
            "fused2": _on_threads(2, lambda i: fused2.detect(hard[i % len(hard)])),
        },
        3,
    )
    full = full_ms["fused"]
    pipeline, stabiliser = make(), Stabiliser()

    def steady(i: int) -> None:
        stabiliser.update(pipeline.detect(hard[i % len(hard)]), i * FRAME_MS)

    steady_ms = _mean_ms(steady, len(hard) * 2)
    # Then, the print no mean reads given up: what a table that stays still costs from then on.
    settled_ms = _mean_ms(lambda i: steady(len(hard) * 2 + 1 + i), len(hard) * 2)
    layouts = [scattered_table(60, seed=s) for s in (21, 22, 23)]
    changing = [renderer.render(t, EFFECTS, seed=i).image for i, t in enumerate(layouts)]
    # Hands move through a third of the view: one hand sweeps along the table's near edge.
    hands_frames = []
    for i in range(12 if quick else 30):
        x = 150 + (i * 47) % 600
        hand = Hand(x, 420 + 40 * np.sin(i / 3), arm_to_mm=(x + 60, 900))
        hands_frames.append(renderer.render(still, replace(EFFECTS, hands=(hand,)), seed=i).image)
    april1 = AprilTagBackend("tag36h11", threads=1, decimation=1, quad_sigma=0, max_hamming=1)
    hands_pipeline = _stabilised_step(make(), Stabiliser(), hands_frames)
    hands_pipeline(0)  # the first frame is a full detection; the others are what is timed
    hands = _medians_ms(
        {
            "pipeline": lambda i: hands_pipeline(i + 1),
            "raw1": lambda i: april1.detect(to_grey(hands_frames[(i + 1) % len(hands_frames)])),
            "fused": lambda i: fused.detect(hands_frames[(i + 1) % len(hands_frames)]),
        },
        len(hands_frames) - 2,
    )
    no_frame = Detector(DetectorConfig(threads=1, frame_pass=False))
    steps: dict[str, Callable[[int], object]] = {
        "fused": lambda i: fused.detect(changing[i % 3]),
        "fused2": _on_threads(2, lambda i: fused2.detect(changing[i % 3])),
        "raw1": lambda i: april1.detect(to_grey(changing[i % 3])),
        "no frame": lambda i: no_frame.detect(changing[i % 3]),
    }
    for label, build in pipelines.items():
        steps[label] = _stabilised_step(build(), Stabiliser(), changing)
    ms = _medians_ms(steps, 12 if quick else 30)
    others = "; ".join(
        f"{label} {ms[label] / ms['fused']:.2f}" for label in pipelines if label != name
    )
    return [
        Figure(
            SUITE,
            f"{size} hard still table, fused detector",
            full,
            "ms/frame",
            f"1 thread; 2 threads {full_ms['fused2']:.1f}",
        ),
        Figure(
            SUITE,
            f"{size} hard still table, steady state ({name})",
            steady_ms,
            "ms/frame",
            f"its first {len(hard) * 2} frames, every quad's mean read",
        ),
        Figure(SUITE, f"{size} hard still table, steady / fused", steady_ms / full, "ratio"),
        Figure(
            SUITE,
            f"{size} hard still table, settled ({name})",
            settled_ms,
            "ms/frame",
            f"the {len(hard) * 2} frames after those; / fused {settled_ms / full:.3f}",
        ),
        Figure(
            SUITE,
            f"{size} changing table, pipeline ({name}) / fused detector",
            ms[name] / ms["fused"],
            "ratio",
            f"≤ 1.1; a new layout every frame; {others}; / raw AprilTag d1 "
            f"{ms[name] / ms['raw1']:.2f}",
        ),
        Figure(
            SUITE,
            f"{size} changing table, fused / raw AprilTag d1",
            ms["fused"] / ms["raw1"],
            "ratio",
            "a new layout every frame, 1 thread; ≤ 0.35; 2 threads "
            f"{ms['fused2'] / ms['raw1']:.2f}; without the frame pass "
            f"{ms['no frame'] / ms['raw1']:.2f}",
        ),
        Figure(
            SUITE,
            f"{size} hands moving through the view, pipeline ({name})",
            hands["pipeline"],
            "ms/frame",
            f"fused detector {hands['fused']:.1f}, AprilTag d1 {hands['raw1']:.1f}",
        ),
        Figure(
            SUITE,
            f"{size} hands moving through the view, pipeline / raw AprilTag d1",
            hands["pipeline"] / hands["raw1"],
            "ratio",
            f"≤ 0.35; pipeline / fused {hands['pipeline'] / hands['fused']:.2f}",
        ),
    ]


def _on_threads(threads: int, step: Callable[[int], object]) -> Callable[[int], object]:
    """``step`` with OpenCV on ``threads`` threads (the bench's others run on one)."""

    def on(i: int) -> object:
        cv2.setNumThreads(threads)
        try:
            return step(i)
        finally:
            cv2.setNumThreads(1)

    return on


def _stabilised_step(
    pipeline: IncrementalDetector, stabiliser: Stabiliser, frames: list[np.ndarray]
) -> Callable[[int], object]:
    """One timed step: frame ``i`` of ``frames`` through the pipeline and the stabiliser."""

    def step(i: int) -> object:
        return stabiliser.update(pipeline.detect(frames[i % len(frames)]), i * FRAME_MS)

    return step
