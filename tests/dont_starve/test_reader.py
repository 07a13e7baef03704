"""The Don't Starve camera reader on synthetic tables, through the real detector."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import pytest

from engine.core import Pass, apply, find_game, start
from engine.core.box import Box, merged
from engine.dont_starve.board import adjacency
from engine.dont_starve.catalogue import catalogue
from engine.dont_starve.moves import DrawWeather, LayNeedsTile, MoveTo
from kiosk.cli import main
from vision.calibration import calibrate_table
from vision.detection import Detector
from vision.errors import ReaderError
from vision.readers.dont_starve import DontStarveReader, Prompt, best_layout, components, scan
from vision.registry import load_registry
from vision.stabiliser import Stabiliser
from vision.synthetic import Camera, Component, Effects, SyntheticTable, render

REGISTRY = load_registry()
SCENARIO = catalogue().scenarios["a_new_beginning"]
HALF = catalogue().tile_mm / 2
CAMERA = Camera.overhead(1280, 720, height_mm=950, over_mm=(450, 300), tilt_deg=3, yaw_deg=2)
TILE_TAGS = {
    (e.item, e.face): e.tag_id for e in REGISTRY.for_game("dont_starve") if e.name == "map tile"
}
FIGURE_TAGS = {e.item: e.tag_id for e in REGISTRY.for_game("dont_starve") if e.name == "character"}
BIOME_TILES: dict[str, list[int]] = {}
for number, biome in enumerate(catalogue().tile_biomes, 1):
    BIOME_TILES.setdefault(biome, []).append(number)
PORTAL_TILE = BIOME_TILES["portal"][0]


def dealt() -> dict[str, int]:
    """A correct setup: each slot of the scenario with a printed tile of a wanted biome."""
    wanted = [b for b, n in sorted(SCENARIO.biomes.items()) for _ in range(n)]
    taken = {b: 0 for b in BIOME_TILES}
    out = {}
    for slot, biome in zip(SCENARIO.slots, wanted, strict=True):
        out[slot.name] = BIOME_TILES[biome][taken[biome]]
        taken[biome] += 1
    return out


@dataclass
class Scene:
    """A Don't Starve table: tiles by slot (or at explicit grid places), faces, figures."""

    tiles: dict[str, int] = field(default_factory=dealt)
    moved: dict[str, tuple[float, float]] = field(default_factory=dict)
    """Slot → shift in mm of the tile dealt there."""
    faces: dict[int, str] = field(default_factory=dict)
    figures: dict[int, tuple[str, float, float]] = field(default_factory=dict)
    """Character item → slot and offset (mm) from that slot's centre."""
    anchors: bool = True
    portal: bool = True
    turn: float = 0.0
    """The whole map turned (clockwise, degrees) about the portal."""

    def centre(self, slot: str) -> tuple[float, float]:
        s = SCENARIO.slot(slot)
        assert s is not None
        dx, dy = (s.x - SCENARIO.portal.x) * HALF, (s.y - SCENARIO.portal.y) * HALF
        a = math.radians(self.turn)
        return 450 + dx * math.cos(a) - dy * math.sin(a), 300 + dx * math.sin(a) + dy * math.cos(a)

    def components(self) -> tuple[Component, ...]:
        comps = []
        if self.anchors:
            comps += [
                Component(a.tag_id, a.x_mm, a.y_mm, a.rotation_deg, a.size_mm)
                for a in REGISTRY.anchors().values()
            ]
        placed = {"P": PORTAL_TILE, **self.tiles} if self.portal else dict(self.tiles)
        for slot, number in placed.items():
            x, y = self.centre(slot)
            dx, dy = self.moved.get(slot, (0.0, 0.0))
            face = self.faces.get(number, "revealed" if number == PORTAL_TILE else "hidden")
            tag = TILE_TAGS[(number, face)]
            comps.append(
                Component(
                    tag, x + dx, y + dy, self.turn, 25, body_mm=(106, 106), colour=(90, 130, 100)
                )
            )
        for item, (slot, ox, oy) in self.figures.items():
            x, y = self.centre(slot)
            comps.append(Component(FIGURE_TAGS[item], x + ox, y + oy, 0, 20))
        return tuple(comps)

    def image(self):
        return render(SyntheticTable(self.components()), CAMERA).image


def read(scene: Scene, tmp_path: Path) -> dict:
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), scene.image())
    return scan(path, "en")


def codes(result: dict) -> list[tuple[str, int | None, str | None]]:
    return [(v["code"].rsplit(".", 1)[1], v["tile"], v["slot"]) for v in result["verdicts"]]


def test_a_correct_layout_is_read_with_the_scenarios_adjacency(tmp_path) -> None:
    """dont-starve.zh.md §世界构建: the tiles around the portal as the layout shows;
    §相邻: the adjacency read from the table is the layout's (sharing half an edge);
    figures are placed on the tile under them."""
    result = read(Scene(figures={1: ("P", -30, 30), 3: ("G", 30, -30)}), tmp_path)
    assert result["figures"] == {"wilson": "P", "wendy": "G"}
    assert result["ok"] and result["verdicts"] == [] and result["reference"] == "anchors"
    assert result["scenario"] == "a_new_beginning"
    layout = {s.name: (s.x, s.y) for s in SCENARIO.all_slots}
    assert result["adjacency"] == adjacency(layout)
    assert {t["slot"]: t["tile"] for t in result["tiles"]} == {"P": PORTAL_TILE, **dealt()}


def test_a_map_turned_on_the_table_is_read_from_the_portals_square(tmp_path) -> None:
    """The layout is relative to the portal: the whole map turned 20° reads the same; one tile
    turned on its own is not square."""
    assert read(Scene(turn=20.0), tmp_path)["ok"]
    scene = Scene()
    comps = [
        c if c.tag_id != TILE_TAGS[(dealt()["C"], "hidden")] else replace(c, rotation_deg=30)
        for c in scene.components()
    ]
    path = tmp_path / "turned.png"
    cv2.imwrite(str(path), render(SyntheticTable(tuple(comps)), CAMERA).image)
    assert codes(scan(path, "en")) == [("not_square", dealt()["C"], "C")]


def test_a_tile_off_its_place_is_misplaced_and_its_place_missing(tmp_path) -> None:
    """§世界构建 C: each tile on its place of the layout; the reader names the stray tile, the
    empty place, and suggests the nearest free place."""
    g = dealt()["G"]
    result = read(Scene(moved={"G": (0.0, 2 * HALF)}), tmp_path)  # one tile down: (8, 4)
    assert ("misplaced", g, None) in codes(result)
    assert ("missing", None, "G") in codes(result)
    misplaced = next(v for v in result["verdicts"] if v["code"].endswith("misplaced"))
    assert "nearest free place: G" in misplaced["message"]


def test_a_tile_of_a_biome_the_scenario_has_no_room_for_is_named(tmp_path) -> None:
    """§世界构建 B: the scenario's list says how many tiles of each biome; one marsh too many
    is the wrong biome."""
    tiles = dealt()
    extra = next(n for n in BIOME_TILES["marsh"] if n not in tiles.values())
    grass_slot = next(s for s, n in tiles.items() if n in BIOME_TILES["grassland"])
    tiles[grass_slot] = extra
    result = read(Scene(tiles=tiles), tmp_path)
    assert codes(result) == [("wrong_biome", extra, grass_slot)]


def test_a_tile_between_grid_places_is_off_the_grid(tmp_path) -> None:
    """§相邻 works on half tiles: a tile half-way between half-tile places must be pushed on."""
    result = read(Scene(moved={"D": (HALF / 2, 0.0)}), tmp_path)
    assert codes(result)[0][:2] == ("off_grid", dealt()["D"])


def test_a_tile_face_up_during_setup_is_named_and_the_portal_is_needed(tmp_path) -> None:
    """§世界构建 C: 将洗混后的地图板块面朝下放置; A: the portal in the centre."""
    number = dealt()["B"]
    assert codes(read(Scene(faces={number: "revealed"}), tmp_path)) == [("face_up", number, "B")]
    assert codes(read(Scene(portal=False), tmp_path))[0][0] == "no_portal"


def test_a_noisy_blurred_jpeg_frame_reads_the_same(tmp_path) -> None:
    """A real camera's frame: sensor noise, blur, uneven light and JPEG, one tile misplaced."""
    scene = Scene(moved={"G": (0.0, 2 * HALF)})
    fx = Effects(blur=0.8, noise=4, uneven_light=0.3, glare=0.4, jpeg_quality=80)
    path = tmp_path / "noisy.png"
    cv2.imwrite(str(path), render(SyntheticTable(scene.components()), CAMERA, fx, seed=3).image)
    assert codes(scan(path, "en")) == [("misplaced", dealt()["G"], None), ("missing", None, "G")]


def test_without_anchors_the_portal_tag_gives_the_scale(tmp_path) -> None:
    """The same layout read with no anchors in view (measured from the portal tag)."""
    result = read(Scene(anchors=False), tmp_path)
    assert result["ok"] and result["reference"] == "portal tag"


def test_tablesight_scan_prints_grid_adjacency_and_verdicts(tmp_path, capsys) -> None:
    """`tablesight scan dont_starve IMAGE --json`: one JSON object per image."""
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), Scene(moved={"G": (0.0, 2 * HALF)}).image())
    assert main(["--lang", "en", "scan", "dont_starve", str(path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["image"] == str(path)
    assert {"tiles", "adjacency", "verdicts", "figures"} <= set(result)
    assert [v["code"] for v in result["verdicts"]] == [
        "dont_starve.layout.misplaced",
        "dont_starve.layout.missing",
    ]
    assert main(["--lang", "en", "scan", "dont-starve", str(path)]) == 0  # the spelling
    assert "Place G has no tile" in capsys.readouterr().out
    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), render(SyntheticTable(()), CAMERA).image)
    assert main(["scan", "dont_starve", str(empty)]) == 2
    assert "no Don't Starve map tile" in capsys.readouterr().err


class Camera_:
    """Frames through the real detector and the stabiliser into the reader."""

    def __init__(self) -> None:
        image = Scene().image()
        found = Detector().detect(image)
        cal = calibrate_table(found, REGISTRY.anchors(), (1280, 720))
        self.stabiliser = Stabiliser(homography=cal.image_to_table)
        self.reader = DontStarveReader()
        self.clock = 0.0

    def show(self, scene: Scene, state) -> list:
        out = []
        image = scene.image()
        found = Detector().detect(image)
        for _ in range(4):
            self.clock += 60
            out += self.reader.observe(self.stabiliser.update(found, self.clock), state)
        return out


@pytest.fixture(scope="module")
def game_start():
    return start(find_game("dont_starve"), {"players": 2, "draws": "virtual"}, seed=1)[0]


def test_figures_moving_become_moves_and_prompts(game_start) -> None:
    """§移动: a figure put on an adjacent face-down tile prompts to turn it over, then moves
    with the biome read from the tile; a figure put on a tile not adjacent is flagged with the
    engine's verdict (§相邻)."""
    game = find_game("dont_starve")
    state = game_start
    cam = Camera_()
    tiles = dealt()
    at_portal = {1: ("P", -30.0, -30.0), 2: ("P", 30.0, 30.0)}
    assert cam.show(Scene(figures=at_portal), state) == []
    on_b = {1: ("B", -30.0, -30.0), 2: ("P", 30.0, 30.0)}
    out = cam.show(Scene(figures=on_b), state)
    assert out == [Prompt("dont_starve.reveal", out[0].message, 0, "B")]
    flipped = Scene(figures=on_b, faces={tiles["B"]: "revealed"})
    biome = catalogue().tile_biomes[tiles["B"] - 1]
    out = cam.show(flipped, state)
    assert out == [MoveTo(seat=0, to="B", main=False, biome=biome)]
    state, _ = apply(game, state, out[0])
    state, _ = apply(game, state, Pass(seat=0))  # Wilson's turn ends; Willow's may begin
    far = {1: ("B", -30.0, -30.0), 2: ("G", 30.0, 30.0)}
    out = cam.show(Scene(figures=far, faces={tiles["B"]: "revealed"}), state)
    assert len(out) == 1 and isinstance(out[0], Prompt)
    assert (out[0].code, out[0].seat, out[0].tile) == ("dont_starve.not_adjacent", 1, "G")


def test_a_tile_seen_with_both_faces_counts_as_turned_over() -> None:
    """§移动: a revealed tile stays revealed while the stabiliser still holds its hidden tag."""
    number = dealt()["B"]
    hidden, revealed = TILE_TAGS[(number, "hidden")], TILE_TAGS[(number, "revealed")]
    for order in ((hidden, revealed), (revealed, hidden)):
        tiles, _ = components([(tag, (100.0, 100.0, 0.0)) for tag in order], REGISTRY)
        assert tiles[number][0] == "revealed"


def test_with_the_tables_draws_the_camera_gives_a_tiles_biome_from_its_sticker() -> None:
    """§移动 with draws "table": before the round's weather card is given a figure's move is
    flagged with what to enter first; then a figure on a face-down tile prompts to turn it
    over, and the turned tile's sticker gives its biome (the box's biome of that printed tile),
    which the engine takes as the table's draw."""
    game = find_game("dont_starve")
    state, _ = start(game, {"players": 2, "draws": "table"}, seed=1)
    cam = Camera_()
    tiles = dealt()
    on_b = {1: ("B", -30.0, -30.0), 2: ("P", 30.0, 30.0)}
    out = cam.show(Scene(figures=on_b), state)
    assert [(o.code, o.tile) for o in out] == [("dont_starve.weather_due", "B")]
    state, _ = apply(game, state, DrawWeather(0, card="autumn-1"))
    state, _ = apply(game, state, LayNeedsTile(0, tile=1))
    cam.reader.forget(0)
    assert [o.code for o in cam.show(Scene(figures=on_b), state)] == ["dont_starve.reveal"]
    flipped = Scene(figures=on_b, faces={tiles["B"]: "revealed"})
    biome = catalogue(state).tile_biomes[tiles["B"] - 1]
    (move,) = cam.show(flipped, state)
    assert move == MoveTo(seat=0, to="B", main=False, biome=biome)
    state, events = apply(game, state, move)
    assert events[-1].to_dict() == {
        "type": "dont_starve.tile_revealed",
        "tile": "B",
        "biome": biome,
    }


def test_a_scan_judges_the_layout_by_the_box_it_is_given(tmp_path) -> None:
    """§世界构建: ``scan(path, lang, box)`` checks the map against the box's layout card: on
    the owner's, K lies one tile right of the demo's, so the tiles as the demo lays them leave
    the owner's K empty; against the demo box the result says it is the demo's layout."""
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), Scene().image())
    demo = scan(path, "en")
    assert demo["ok"] and demo["note"] and "judged by the demo box's" in demo["note"]
    files = find_game("dont_starve").demo_box().files
    scenario = dict(files["scenarios.toml"]["a_new_beginning"])
    scenario["slots"] = [{**s, "x": 7} if s["name"] == "K" else s for s in scenario["slots"]]
    item = "scenarios/a_new_beginning"
    box = Box.of("dont_starve", merged(files, {item: scenario}), owner=[item])
    owner = scan(path, "en", box)
    assert ("missing", None, "K") in codes(owner) and owner["title"] == "A New Beginning"
    assert "judged by the demo box's layout" not in (owner["note"] or "")


def laid_exactly(scenario_key: str) -> dict[int, tuple[str, tuple[float, float, float]]]:
    """The tiles of a scenario's card laid exactly on its places (number → face, pose)."""
    scenario = catalogue().scenarios[scenario_key]
    wanted = [b for b, n in sorted(scenario.biomes.items()) for _ in range(n)]
    taken = {b: 0 for b in BIOME_TILES}
    tiles = {PORTAL_TILE: ("revealed", (450.0, 300.0, 0.0))}
    for slot, biome in zip(scenario.slots, wanted, strict=True):
        number = BIOME_TILES[biome][taken[biome]]
        taken[biome] += 1
        x = 450 + (slot.x - scenario.portal.x) * HALF
        y = 300 + (slot.y - scenario.portal.y) * HALF
        tiles[number] = ("hidden", (x, y, 0.0))
    return tiles


@pytest.mark.parametrize("key", list(catalogue().scenarios))
def test_a_map_laid_as_any_scenario_card_is_judged_by_that_card(key: str) -> None:
    """§世界构建: the map is laid as the scenario's card shows; the reader checks it against the
    box's card it fits best, the second card of the box as well as the first."""
    report = best_layout(laid_exactly(key), {})
    assert report.scenario == key
    assert report.ok, [p.message.en for p in report.problems]


def test_a_box_without_a_scenario_card_says_so() -> None:
    """A box whose scenarios file lists no card has no layout to judge a map by: the reader
    says so in both languages, where it failed with no message a player could read."""
    empty = replace(catalogue(), scenarios={})
    with pytest.raises(ReaderError) as refused:
        best_layout(laid_exactly("a_new_beginning"), {}, cat=empty)
    assert refused.value.text.zh == "盒子里没有剧本卡,无法检查地图布局"
    assert refused.value.text.en == "the box has no scenario card to check the map against"
