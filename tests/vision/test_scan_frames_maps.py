"""`tablesight scan` of a second of video of Don't Starve's map and Stonesaga's draw pad and
terrain tray (issue #39): the readers take what the frames show together, so a layout is read
exactly where single frames miss some of its stickers; through the real detector on the
project's renders (`bench/vision_scan.py`'s tables, `table_frames.video_frames`).

The truths are written by hand from how the tables are laid: Don't Starve's first scenario
dealt correctly around the portal with both figures on the portal tile; Stonesaga's draw pad
with the omen face of one token of each stone, and terrain tiles 1-3 (tags 448-450) in slots
1-3 of tray 1, none turned.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import cv2
import greenwood_frames as gf
import pytest
import table_frames as tf

from bench.vision_scan import dont_starve_table, stonesaga_table
from engine.dont_starve.catalogue import catalogue as dont_starve_catalogue
from kiosk.cli import main
from vision.detection import Detector
from vision.synthetic import Camera, Decoy, SyntheticTable

DS_CAMERA = Camera.overhead(1280, 720, height_mm=1450, over_mm=(450, 300), tilt_deg=3)
"""A camera mounted high: about 0.75 px a millimetre, a figure's 20 mm sticker some 15 px, a
tile's 25 mm some 19 px."""
SS_CAMERA = Camera.overhead(1280, 720, height_mm=800, over_mm=(450, 300))
"""About 1.2 px a millimetre: an ore token's 12 mm sticker some 15 px."""
SS_EFFECTS = dataclasses.replace(tf.DIM, blur=0.9)


def scan(capsys, game: str, source: Path) -> tuple[dict, str]:
    assert main(["scan", game, str(source), "--json"]) == 0
    out = capsys.readouterr()
    (result,) = [json.loads(line) for line in out.out.splitlines()]
    return result, out.err


def worst_frame(frames: list, scene: SyntheticTable, tmp_path: Path) -> tuple[Path, int]:
    """The frame that read the fewest of the scene's stickers, as a photo, and how many it
    missed."""
    wanted = {c.tag_id for c in scene.components}
    detector = Detector()
    missed = [len(wanted - {d.id for d in detector.detect(f)}) for f in frames]
    worst = max(range(len(frames)), key=missed.__getitem__)
    path = tmp_path / "worst.png"
    cv2.imwrite(str(path), frames[worst])
    return path, missed[worst]


def test_dont_starve_map_is_read_exactly_over_a_second_of_frames(tmp_path: Path, capsys):
    scene = dont_starve_table()
    frames = tf.video_frames(scene, DS_CAMERA, 30, seed=1)
    video = gf.write_video(frames, tmp_path / "map.avi")
    result, err = scan(capsys, "dont_starve", video)
    assert "reads one picture" not in err  # the reader took the frames' view
    assert result["frames"] == 30
    scenario = next(iter(dont_starve_catalogue().scenarios.values()))
    assert result["scenario"] == scenario.key
    assert result["ok"], result["verdicts"]
    assert sorted(t["slot"] for t in result["tiles"]) == sorted(s.name for s in scenario.all_slots)
    assert result["figures"] == {"wilson": "P", "willow": "P"}  # both on the portal tile
    reads = {int(t): n for t, n in result["reads"].items()}
    assert min(reads.values()) < 30  # some frames missed some stickers
    # what one frame shows: the frame that read the least, scanned as a photo, is not exact
    photo, missed = worst_frame(frames, scene, tmp_path)
    assert missed > 0
    single, _ = scan(capsys, "dont_starve", photo)
    assert not single["ok"] or None in single["figures"].values()


def test_stonesaga_pad_and_valley_are_read_exactly_over_a_second_of_frames(tmp_path: Path, capsys):
    scene = stonesaga_table()
    frames = tf.video_frames(scene, SS_CAMERA, 30, seed=1, fx=SS_EFFECTS)
    video = gf.write_video(frames, tmp_path / "pad.avi")
    result, err = scan(capsys, "stonesaga", video)
    assert "reads one picture" not in err
    assert result["frames"] == 30
    tokens = {t["tag"]: (t["stone"], t["omen"]) for t in result["pad"]["tokens"]}
    assert tokens == {
        401: ("cloud_stone", "cloud"),
        411: ("river_stone", "cloud"),
        421: ("sun_stone", "cloud"),
        431: ("clay", "cloud"),
    }
    tiles = [(t["tile"], t["tray"], t["slot"], t["rotation"]) for t in result["valley"]["tiles"]]
    assert tiles == [("101", 1, 0, 0), ("102", 1, 1, 0), ("103", 1, 2, 0)]
    assert result["problems"] == []
    reads = {int(t): n for t, n in result["reads"].items()}
    assert min(reads[t] for t in tokens) < 30
    photo, missed = worst_frame(frames, scene, tmp_path)
    assert missed > 0
    single, _ = scan(capsys, "stonesaga", photo)
    assert len(single["pad"]["tokens"]) < 4


@pytest.mark.parametrize("game", ["dont_starve", "stonesaga"])
def test_a_view_needs_the_frames_size(game: str) -> None:
    from vision.readers import find_reader
    from vision.stabiliser import SteadyView

    view = SteadyView([], [], 0, {}, 0)
    with pytest.raises(ValueError, match="size"):
        find_reader(game).scan(None, "en", view=view)


def test_a_token_on_the_pad_whose_sticker_cannot_be_read_is_said_not_read(tmp_path, capsys):
    """An ore token whose sticker no frame reads (here a look-alike print of its size where the
    clay token lies: a tag's frame around cells of no code) is neither a token on the pad nor
    silence: the scan counts it as not read and asks the player to lay it flat in good light."""
    scene = stonesaga_table()
    clay = next(c for c in scene.components if c.tag_id == 431)
    blurred = dataclasses.replace(
        scene,
        components=tuple(c for c in scene.components if c.tag_id != 431),
        decoys=(Decoy("framed", clay.x_mm, clay.y_mm, clay.tag_mm, clay.rotation_deg, seed=3),),
    )
    frames = tf.video_frames(blurred, SS_CAMERA, 30, seed=2, fx=SS_EFFECTS)
    video = gf.write_video(frames, tmp_path / "pad.avi")
    result, _ = scan(capsys, "stonesaga", video)
    assert sorted(t["tag"] for t in result["pad"]["tokens"]) == [401, 411, 421]
    assert result["pad"]["unread"] == 1
    assert result["problems"] == ["抽取垫上有 1 个矿石标记看不清:把它平放在光线好的地方"]
    photo = tmp_path / "pad.png"
    cv2.imwrite(str(photo), frames[0])
    single, _ = scan(capsys, "stonesaga", photo)
    assert single["pad"]["unread"] == 1  # one photo says the same
    whole, _ = scan(
        capsys,
        "stonesaga",
        gf.write_video(
            tf.video_frames(scene, SS_CAMERA, 30, seed=2, fx=SS_EFFECTS), tmp_path / "whole.avi"
        ),
    )
    assert whole["pad"]["unread"] == 0  # every token read: nothing said not read
