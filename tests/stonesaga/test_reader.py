"""The Stonesaga camera reader on synthetic tables, through the real detector (no mocks).

Draws from the mining bag (stonesaga.zh.md §采矿) read off the draw pad, and the valley map
recorded and checked when rebuilt (§局间保留与存档, §开局设置.7).
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import cv2
import pytest
import stonesaga_scene as sc
from stonesaga_play import Play

from engine.core import Pass, apply, legal, start
from engine.stonesaga import STONESAGA
from engine.stonesaga import moves as mv
from engine.stonesaga.catalogue import catalogue
from engine.stonesaga.state import OverlayPlacement, TilePlacement, ValleyRecord
from kiosk.cli import main
from vision.calibration import calibrate_table
from vision.detection import Detector
from vision.readers import stonesaga as reader
from vision.stabiliser import Stabiliser, StabiliserConfig
from vision.synthetic import Effects, Hand, SyntheticTable, render

DETECTOR = Detector()
TRAY_1 = (400.0, 300.0, 3.0)
TRAY_2 = (405.0, 420.0, -4.0)


def valley_components(turned: dict[int, float] | None = None) -> list:
    """Two trays with tiles 101–106 (copy k is tile 100 + k) and an outpost overlay on 102."""
    rotations = {1: 0, 2: 60, 3: 0, 4: 120, 5: 0, 6: 300, **(turned or {})}
    comps = [sc.tray(1, TRAY_1), sc.tray(2, TRAY_2)]
    for copy in (1, 2, 3):
        comps.append(sc.tile(copy, TRAY_1, copy - 1, rotations[copy]))
    for copy in (4, 5, 6):
        comps.append(sc.tile(copy, TRAY_2, copy - 4, rotations[copy]))
    # overlay copy 1 (an outpost) in zone 2 of tile 102 (120–240° from the tile's up), 28 mm
    # out at 200° on the tray: 140° from the up of the tile turned 60°, and still in zone 2
    # (at 200°) of that tile turned back to 0°. (It lay at 180° on the tray, 120° from the turned
    # tile's up: on the zone's edge, where a hundredth of a degree decided the zone.)
    bearing = math.radians(200)
    x, y = sc.on_board(TRAY_1, 40 + 83 + 41.5 + 28 * math.sin(bearing), 50 - 28 * math.cos(bearing))
    comps.append(sc.overlay(1, (x, y)))
    return comps


EXPECTED = ValleyRecord(
    "valley",
    (
        TilePlacement("101", 1, 0, 0),
        TilePlacement("102", 1, 1, 60),
        TilePlacement("103", 1, 2, 0),
        TilePlacement("104", 2, 0, 120),
        TilePlacement("105", 2, 1, 0),
        TilePlacement("106", 2, 2, 300),
    ),
    (OverlayPlacement("outpost 1", "102", 1),),
)
"""The layout valley_components() lays out, written from its description (not read back)."""


def photo(tmp_path: Path, components, name: str = "table.png", **effects) -> Path:
    shot = render(sc.table(*components), sc.CAMERA, Effects(noise=2, **effects), seed=5)
    assert not shot.hidden
    path = tmp_path / name
    cv2.imwrite(str(path), shot.image)
    return path


def test_scan_json_reads_the_pad_tokens_and_the_valley(tmp_path: Path, capsys) -> None:
    """§采矿.3: the tokens on the pad and the bags that can hold them; §局间保留与存档: the map."""
    tokens = [
        sc.token("sun_stone", "sun", *sc.on_pad(0)),
        sc.token("river_stone", "comet", *sc.on_pad(1), turn=40),
        sc.token("clay", "moon", 650, 120),  # off the pad: not a draw
    ]
    image = photo(tmp_path, [*sc.pad(), *tokens, *valley_components()])
    assert main(["scan", "stonesaga", str(image), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    drawn = {(t["stone"], t["omen"]) for t in result["pad"]["tokens"]}
    assert drawn == {("sun_stone", "sun"), ("river_stone", "comet")}
    assert result["pad"]["features"] == ["cave", "fissure", "moraine"]  # river stone + sun stone
    valley = result["valley"]
    assert [tuple(t.values()) for t in valley["tiles"]] == [
        (t.tile, t.tray, t.slot, t.rotation, t.explored) for t in EXPECTED.tiles
    ]
    assert valley["overlays"] == [
        {"overlay": "outpost 1", "tile": "102", "zone": 1, "state": "active"}
    ]
    assert valley["region"] == "green_vale"  # valley.toml's region
    assert result["problems"] == []


def test_scan_asks_for_the_omen_face_and_names_no_bag_for_clay_with_cloud_stone(
    tmp_path: Path, capsys
) -> None:
    """§采矿.3: no feature's bag holds clay and cloud stone together; a plain face is turned."""
    tokens = [
        sc.token("clay", "moon", *sc.on_pad(0)),
        sc.token("cloud_stone", "sun", *sc.on_pad(1)),
        sc.token("sun_stone", None, *sc.on_pad(2)),
    ]
    image = photo(tmp_path, [*sc.pad(), *tokens])
    assert main(["--lang", "en", "scan", "stonesaga", str(image)]) == 0
    out = capsys.readouterr().out
    assert "draw pad: cloud stone/sun, sun stone/?, clay/moon" in out  # by tag id
    assert "bags that can hold them: none" in out
    assert "problem: Lay the ore token omen side up on the draw pad" in out


def test_scan_without_the_anchors_says_which_are_missing(tmp_path: Path, capsys) -> None:
    """A bad input gets a clear message (DESIGN.md): exit 2, no traceback."""
    shot = render(SyntheticTable(sc.pad()), sc.CAMERA, seed=1)
    path = tmp_path / "no_anchors.png"
    cv2.imwrite(str(path), shot.image)
    assert main(["scan", "stonesaga", str(path), "--json"]) == 2
    assert "missing anchor 0" in capsys.readouterr().err


def test_scan_of_a_table_with_neither_pad_nor_trays_says_so(tmp_path: Path, capsys) -> None:
    """A bad input gets a clear message: exit 2, one line naming what is missing."""
    image = photo(tmp_path, [sc.token("clay", "moon", 600, 300)])
    assert main(["scan", "stonesaga", str(image)]) == 2
    err = capsys.readouterr().err
    assert "neither the draw pad nor a terrain tray is in view" in err and "Traceback" not in err


class Loop:
    """The table loop in miniature: frames → real detector → stabiliser → reader → engine."""

    def __init__(self, play: Play) -> None:
        first = render(sc.table(*sc.pad()), sc.CAMERA, seed=0).image
        found = DETECTOR.detect(first)
        self.calibration = calibrate_table(found, sc.REGISTRY.anchors(), (1280, 720))
        config = StabiliserConfig(add_frames=2, add_ms=0, remove_frames=3, remove_ms=0)
        self.stabiliser = Stabiliser(config, self.calibration.image_to_table)
        pad = reader.locate_pad(found, self.calibration, sc.REGISTRY)
        self.reader = reader.DrawPadReader(pad, sc.REGISTRY)
        self.play, self.time, self.log = play, 0.0, []

    def frames(self, components, count: int = 3, **effects) -> list:
        """Show the table ``count`` frames; submit every move the reader returns."""
        out = []
        for _ in range(count):
            self.time += 100
            shot = render(sc.table(*sc.pad(), *components), sc.CAMERA, Effects(**effects))
            found = sc.REGISTRY.known(DETECTOR.detect(shot.image))
            for item in self.reader.observe(
                self.stabiliser.update(found, self.time), self.play.state
            ):
                if isinstance(item, reader.Prompt):
                    out.append(item.code)
                else:
                    self.play.do(item)
                    out.append(item.type)
        return out


def test_tokens_laid_on_the_pad_are_draws_checked_against_the_bag_then_returned() -> None:
    """§采矿.3–6: a cave's bag holds one cloud stone; leaving the pad returns the tokens."""
    play = Play(1)
    play.edit(0, tile="102")
    play.do(mv.Mine(0, 0, "cave"))
    loop = Loop(play)
    sun = sc.token("sun_stone", "sun", *sc.on_pad(0))
    cloud = sc.token("cloud_stone", "moon", *sc.on_pad(1), turn=25)
    cloud_2 = sc.token("cloud_stone", "star", *sc.on_pad(2))
    assert loop.frames([]) == []
    assert loop.frames([sun]) == ["stonesaga.draw_ore"]
    assert loop.frames([sun, cloud]) == ["stonesaga.draw_ore"]
    assert loop.frames([sun, cloud, cloud_2]) == ["stonesaga.not_in_bag"]
    assert [s for s, _ in play.data.mining.drawn] == ["sun_stone", "cloud_stone"]
    hand = Hand(x_mm=sc.on_pad(1)[0], y_mm=sc.on_pad(1)[1], arm_to_mm=(150, 700))
    assert loop.frames([sun, cloud], count=2, hands=(hand,)) == []  # a hand passes: no return
    assert loop.frames([cloud_2], count=4) == ["stonesaga.finish_mining"]
    assert play.data.mining is None
    assert dict(play.char(0).pack) == {"cloud_stone:raw": 1, "sun_stone:raw": 1}


def test_a_token_face_down_is_not_a_draw_and_nobody_mining_is_said() -> None:
    """§采矿.5: 翻预兆 — the omen must show; §采矿: drawing needs a mining action."""
    play = Play(1)
    loop = Loop(play)
    assert loop.frames([sc.token("clay", None, *sc.on_pad(0))]) == ["stonesaga.turn_token"]
    assert loop.frames([sc.token("clay", "sun", *sc.on_pad(1))]) == ["stonesaga.not_mining"]


def test_the_valley_is_recorded_into_the_save_and_a_wrong_rebuild_is_named(
    tmp_path: Path,
) -> None:
    """§局间保留与存档 记录地图 → RecordValley; §开局设置.7 按《日志》布局摆好 (checked)."""
    image = cv2.imread(str(photo(tmp_path, valley_components())))
    found = DETECTOR.detect(image)
    calibration = calibrate_table(found, sc.REGISTRY.anchors(), (1280, 720))
    record, problems = reader.read_valley(found, calibration, sc.REGISTRY, "valley")
    assert (record, problems) == (EXPECTED, [])
    play = Play(1)
    play.do(mv.EndChallenge(0, "won"))
    play.do(mv.RecordValley(0, record))
    assert play.data.valley_record == EXPECTED
    wrong = valley_components(turned={2: 0})
    wrong = [c for c in wrong if c.tag_id != 453]  # tile 106 (copy 6) left out
    image = cv2.imread(str(photo(tmp_path, wrong, "rebuilt.png")))
    found = DETECTOR.detect(image)
    rebuilt, _ = reader.read_valley(found, calibration, sc.REGISTRY, "valley")
    assert reader.check_rebuild(EXPECTED, rebuilt) == [
        "tile 102 is turned 0°; it goes at 60°",
        "tile 106 is missing (tray 2, slot 2)",
    ]
    assert reader.placement_guide(EXPECTED)[1] == "tray 1 slot 2: tile 102 at 60°"


@pytest.mark.parametrize(
    ("tokens", "features"),
    [
        ([("clay", "moon"), ("clay", "sun"), ("clay", "star")], ["dry_flat"]),
        ([("cloud_stone", "moon"), ("cloud_stone", "sun")], ["moraine", "mountain"]),
        ([("sun_stone", "sun")] * 2, []),
        ([("sun_stone", "sun"), ("sun_stone", "moon"), ("clay", "star"), ("clay", "cloud")], []),
    ],
)
def test_which_bags_can_hold_the_tokens_on_the_pad(tokens, features) -> None:
    """§采矿.3 装袋 and §采矿 最多采 3 枚: the features whose bag fits what was drawn."""
    assert reader.features_for(tokens, catalogue()) == features


def test_the_next_session_checks_the_rebuilt_valley_as_the_camera_reads_it(
    tmp_path: Path,
) -> None:
    """§开局设置.7 按《日志》「山谷地图」页记录的布局摆好地形托盘与地块: the map recorded from
    the camera at the end of a session is the Log's; at the next session the camera's reading of
    a rebuild with tile 102 turned and tile 106 left out is refused, naming what to fix, and the
    reading of the valley laid as recorded lets the interval end."""
    image = cv2.imread(str(photo(tmp_path, valley_components())))
    found = DETECTOR.detect(image)
    calibration = calibrate_table(found, sc.REGISTRY.anchors(), (1280, 720))
    record, _ = reader.read_valley(found, calibration, sc.REGISTRY, "valley")
    play = Play(1)
    play.do(mv.EndChallenge(0, "won"))
    play.do(mv.RecordValley(0, record))
    play.do(Pass(0))
    log = STONESAGA.campaign_log(play.state)
    assert log is not None and log["valley"]["tiles"][1]["rotation"] == 60
    state, _ = start(STONESAGA, {"players": 1, "challenge": "CR01", "log": log}, 0)
    wrong = [c for c in valley_components(turned={2: 0}) if c.tag_id != 453]
    seen, _ = reader.read_valley(
        DETECTOR.detect(cv2.imread(str(photo(tmp_path, wrong, "rebuilt.png")))),
        calibration,
        sc.REGISTRY,
        "valley",
    )
    verdict = legal(STONESAGA, state, mv.RebuildValley(0, seen))
    assert verdict.code == "stonesaga.valley_mismatch"
    assert "tile 102 is turned wrong; it goes at 60°; and 1 more" in verdict.message.en
    assert "地块102的朝向不对,应转60°;另有1处" in verdict.message.zh
    assert legal(STONESAGA, state, Pass(0)).code == "stonesaga.valley_unchecked"
    state, _ = apply(STONESAGA, state, mv.RebuildValley(0, record))
    state, _ = apply(STONESAGA, state, Pass(0))
    assert state.flow.phase == "creation"


def test_a_table_reader_that_cannot_start_tells_the_players_in_both_languages() -> None:
    """Issue 24 ("Language slips"): a Chinese screen showed "the draw pad is not in view…"; the
    reader's refusal carries its words in Chinese and English (vision.errors.ReaderError)."""
    from vision.errors import ReaderError

    first = render(sc.table(), sc.CAMERA, seed=0).image  # the anchors, no draw pad
    found = DETECTOR.detect(first)
    calibration = calibrate_table(found, sc.REGISTRY.anchors(), (1280, 720))
    with pytest.raises(ReaderError) as raised:
        reader.table_reader(sc.REGISTRY, calibration, found)
    text = raised.value.text
    assert "抽取垫" in text.zh and not re.search(r"[A-Za-z]", text.zh)
    assert "draw pad" in text.en and str(raised.value) == text.en
