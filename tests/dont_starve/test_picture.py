"""Don't Starve's picture of the map (``Game.picture``, engine/dont_starve/picture.py): drawn from
the state alone over every state of the example games, with valid kinds and marks, cells inside
the board, one cell per place, each character's figure on the tile the state says; and the
set-up picture (``layout_picture``) with the places the camera found empty or wrong."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from string import ascii_uppercase
from typing import Any

import pytest
from offer_walk import example_files

from engine.core import Session, State, find_game, move_from_dict
from engine.core.game import PICTURE_KINDS, PICTURE_MARKS
from engine.dont_starve.catalogue import catalogue
from engine.dont_starve.moves import Explore, MoveTo
from engine.dont_starve.picture import layout, layout_picture, picture
from vision.readers.dont_starve import read_layout

GAME = find_game("dont_starve")
FILES = example_files("dont_starve")
SCENARIO = catalogue().scenarios["a_new_beginning"]


def states(path: Path) -> Iterator[tuple[int, State[Any]]]:
    """The state after set-up and after every line of an example game."""
    lines = path.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    session = Session(GAME, head.get("setup"), int(head.get("seed", 0)))
    yield 1, session.state
    for number, line in enumerate(lines[1:], 2):
        if line.strip() and not line.lstrip().startswith("#"):
            session.submit(move_from_dict(json.loads(line)))
            yield number, session.state


def tile_of(board: dict[str, Any], col: int, row: int) -> str:
    """The tile (group) of the cell at a place."""
    return next(c["group"] for c in board["cells"] if (c["col"], c["row"]) == (col, row))


def check_board(drawn: dict[str, Any], where: str) -> dict[str, Any]:
    """The shape every picture keeps; the one board."""
    json.dumps(drawn)  # plain JSON
    (board,) = drawn["boards"]
    cols, rows = board["cols"], board["rows"]
    places = [(c["col"], c["row"]) for c in board["cells"]]
    assert len(places) == len(set(places)), f"{where}: two cells at one place"
    for cell in board["cells"]:
        assert cell["kind"] in PICTURE_KINDS, (where, cell)
        assert 0 <= cell["col"] < cols and 0 <= cell["row"] < rows, (where, cell)
        assert len(cell.get("text", "")) <= 1, (where, cell)  # a letter or a symbol
    assert {c for c, _ in places} == set(range(cols)), f"{where}: an empty column"
    assert {r for _, r in places} == set(range(rows)), f"{where}: an empty row"
    for mark in board["marks"]:
        assert mark["kind"] in PICTURE_MARKS, (where, mark)
        assert (mark["col"], mark["row"]) in places, (where, mark)
    tokens = [(t["col"], t["row"]) for t in board["tokens"]]
    assert len(tokens) == len(set(tokens)), f"{where}: two figures at one place"
    for token in board["tokens"]:
        assert (token["col"], token["row"]) in places and len(token["text"]) <= 4, (where, token)
    legend = {e["kind"] for e in drawn["legend"] if e["kind"] != "token"}
    used = {c["kind"] for c in board["cells"]} | {m["kind"] for m in board["marks"]}
    assert legend == used, where
    figures = [(e["token"], e["seat"]) for e in drawn["legend"] if e["kind"] == "token"]
    assert figures == [(t["text"], t["seat"]) for t in board["tokens"]], where
    assert 1 <= len(board["notes"]) <= 3, where
    symbols = {c["text"] for c in board["cells"] if c.get("text")} - set(ascii_uppercase)
    named = {e["icon"] for e in drawn["legend"] if "icon" in e}
    assert symbols == named, f"{where}: every symbol drawn, and only those, named by the legend"
    assert all(e["text"] and e["text"] != e.get("icon") for e in drawn["legend"]), where
    return board


def check(state: State[Any], lang: str, where: str) -> dict[str, Any]:
    drawn = GAME.picture(state, lang)
    assert drawn is not None
    board = check_board(drawn, where)
    assert not [m for m in board["marks"] if m["kind"] in ("missing", "wrong")], where
    standing = [(s, c) for s, c in enumerate(state.data.characters) if not c.defeated]
    assert len(board["tokens"]) == len(standing), where
    for (seat, char), token in zip(standing, board["tokens"], strict=True):
        assert token["seat"] == seat, where
        assert tile_of(board, token["col"], token["row"]) == char.tile, (where, char.key)
    for tile, biome in state.data.revealed:
        kinds = {c["kind"] for c in board["cells"] if c["group"] == tile}
        assert "hidden" not in kinds, (where, tile, biome)
    return drawn


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_state_of_the_example_games_draws_a_valid_map(path: Path) -> None:
    seen = 0
    for line, state in states(path):
        for lang in ("zh", "en"):
            check(state, lang, f"{path.name}:{line} ({lang})")
        seen += 1
    assert seen > 20


def test_the_map_is_the_layout_on_the_half_tile_grid_trimmed() -> None:
    """§世界构建 / §相邻: tiles of 2 × 2 half-tile units; A of "A New Beginning" is shifted by
    half a tile (x 1), D starts the row below at x 0: the grid starts at the layout's corner."""
    at = layout(SCENARIO)
    assert at["D"] == (0, 2) and at["A"] == (1, 0) and at["P"] == (4, 2) and at["G"] == (8, 2)
    board = picture(_start(), "zh")["boards"][0]
    assert (board["cols"], board["rows"]) == (10, 6)
    assert len([c for c in board["cells"] if c["group"] == "E"]) == 4


def _start(**options: Any) -> State[Any]:
    return Session(GAME, {"players": 2, "draws": "virtual", **options}, 1).state


def test_face_down_tiles_the_portal_and_the_scenario_monsters() -> None:
    """§世界构建: every tile but the portal starts face down; §剧本设置: the scenario's spider
    tokens stand on G (scenarios.toml); both figures start on the portal (§角色设置)."""
    board = picture(_start(), "zh")["boards"][0]
    kinds = {(c["group"], c["kind"]) for c in board["cells"]}
    assert ("E", "hidden") in kinds and ("P", "camp") in kinds and ("E", "tile") not in kinds
    on_g = {c.get("text"): c["kind"] for c in board["cells"] if c["group"] == "G"}
    assert on_g["✺"] == "danger" and on_g["G"] == "hidden"
    legend = {e.get("icon"): e["text"] for e in picture(_start(), "zh")["legend"]}
    assert legend["✺"] == "剧本怪物(蜘蛛)" and legend["◎"] == "传送门"
    assert {tile_of(board, t["col"], t["row"]) for t in board["tokens"]} == {"P"}
    assert [t["text"] for t in board["tokens"]] == ["1", "2"]  # each seat's number on its disc
    figures = [(e["token"], e["seat"], e["text"]) for e in picture(_start(), "en")["legend"][:2]]
    assert figures == [("1", 0, "Wilson"), ("2", 1, "Willow")]  # named whole by the legend


def test_a_revealed_tile_shows_its_biome_its_location_and_the_figure() -> None:
    """§移动: E turned over as forest; §探索: a location card on it."""
    session = Session(GAME, {"players": 1, "draws": "virtual"}, 1)
    session.submit(MoveTo(0, "E", biome="forest"))
    board = picture(session.state, "en")["boards"][0]
    on_e = {c.get("text"): c["kind"] for c in board["cells"] if c["group"] == "E"}
    assert on_e["E"] == "tile" and on_e["♣"] == "tile"
    assert {"kind": "tile", "icon": "♣", "text": "forest"} in picture(session.state, "en")["legend"]
    (token,) = board["tokens"]
    assert tile_of(board, token["col"], token["row"]) == "E"
    session.submit(Explore(0))
    board = picture(session.state, "en")["boards"][0]
    on_e = {c.get("text"): c["kind"] for c in board["cells"] if c["group"] == "E"}
    assert on_e["◆"] == "feature"


def test_the_base_camp_stands_beside_the_portal_and_the_notes_name_its_structures() -> None:
    """§营地: up to three built structures, used on the portal: one symbol beside the portal,
    the structures by their whole names in a note (no cut names in the cells)."""
    state = _start(structures=["science machine", "fire pit"])
    board = picture(state, "zh")["boards"][0]
    on_p = {c.get("text"): c["kind"] for c in board["cells"] if c["group"] == "P"}
    assert on_p == {"◎": "camp", "⌂": "feature", None: "camp"}
    assert board["notes"][-1] == "营地:科学机器、火坑"
    assert picture(state, "en")["boards"][0]["notes"][-1] == "Base camp: Science Machine, Fire Pit"
    assert len(picture(_start(), "en")["boards"][0]["notes"]) == 2  # no camp, no camp note


def test_a_refused_move_outlines_the_tile_it_named() -> None:
    """§相邻: A is not next to the portal; the refused move is outlined on A's corner."""
    state = _start()
    refused = MoveTo(0, "A")
    assert not GAME.legal(state, refused).ok
    board = picture(state, "zh", refused)["boards"][0]
    assert {"col": 1, "row": 0, "kind": "refused"} in board["marks"]
    assert not [m for m in picture(state, "zh")["boards"][0]["marks"] if m["kind"] == "refused"]


def test_a_refused_exploration_outlines_the_figures_own_tile() -> None:
    """§探索: not on the portal."""
    state = _start()
    refused = Explore(0)
    assert not GAME.legal(state, refused).ok
    board = picture(state, "en", refused)["boards"][0]
    assert {"col": 4, "row": 2, "kind": "refused"} in board["marks"]


def test_the_notes_say_day_or_night_and_the_storm() -> None:
    """§需求板块: the top symbol is day or night; §天气阶段: the storm marker."""
    state = _start()
    notes = picture(state, "zh")["boards"][0]["notes"]
    assert notes[0].startswith(("白天", "黑夜")) and "行动轮盘6" in notes[0]
    assert notes[1] == f"风暴还有{state.data.storm_after}块需求板块"


def _poses(slots: list[str]) -> dict[int, tuple[str, tuple[float, float, float]]]:
    """Tiles lying exactly on some places of the layout (printed tile number → face, pose):
    the portal, then tiles of the scenario's biomes, face down."""
    cat = catalogue()
    half = cat.tile_mm / 2
    numbers: dict[str, list[int]] = {}
    for n, biome in enumerate(cat.tile_biomes, 1):
        numbers.setdefault(biome, []).append(n)
    wanted = [b for b, k in sorted(SCENARIO.biomes.items()) for _ in range(k)]
    by_slot = {s.name: s for s in SCENARIO.slots}
    tiles = {numbers["portal"][0]: ("revealed", (500.0, 400.0, 0.0))}
    for name, biome in zip([s.name for s in SCENARIO.slots], wanted, strict=True):
        if name not in slots:
            continue
        s = by_slot[name]
        number = numbers[biome].pop(0)
        x = 500.0 + (s.x - SCENARIO.portal.x) * half
        y = 400.0 + (s.y - SCENARIO.portal.y) * half
        tiles[number] = ("hidden", (x, y, 0.0))
    return tiles


def _marked(drawn: dict[str, Any], kind: str) -> set[str]:
    board = drawn["boards"][0]
    return {tile_of(board, m["col"], m["row"]) for m in board["marks"] if m["kind"] == kind}


def test_while_the_map_is_laid_missing_places_are_marked_and_none_once_complete() -> None:
    """§世界构建: the portal in the middle, the shuffled tiles face down on the layout card's
    places. The camera reader's verdicts (vision/readers/dont_starve.py) drive the set-up
    picture: each empty place is marked missing until every place has its tile."""
    names = [s.name for s in SCENARIO.slots]
    for laid in (0, 4, len(names)):
        report = read_layout(_poses(names[:laid]), {}, SCENARIO)
        verdicts = [(p.code, p.slot) for p in report.problems]
        for lang in ("zh", "en"):
            drawn = layout_picture(catalogue(), SCENARIO.key, lang, verdicts)
            check_board(drawn, f"{laid} laid ({lang})")
            assert _marked(drawn, "missing") == set(names[laid:])
        assert report.ok == (laid == len(names))


def test_a_tile_laid_wrong_is_marked_wrong() -> None:
    """§世界构建 C: face down (a tile face up is wrong during set-up); the verdicts as the
    kiosk gets them from ``report_json`` (``dont_starve.layout.face_up``) work too."""
    tiles = _poses([s.name for s in SCENARIO.slots])
    number = next(n for n, (face, _) in tiles.items() if face == "hidden")
    tiles[number] = ("revealed", tiles[number][1])
    report = read_layout(tiles, {}, SCENARIO)
    verdicts = [(f"dont_starve.layout.{p.code}", p.slot) for p in report.problems]
    drawn = layout_picture(catalogue(), SCENARIO.key, "zh", verdicts)
    assert len(_marked(drawn, "wrong")) == 1 and not _marked(drawn, "missing")
    assert {e["kind"] for e in drawn["legend"]} >= {"wrong", "hidden", "camp"}
