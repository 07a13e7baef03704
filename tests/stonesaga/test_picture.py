"""Stonesaga's picture of the valley (``Game.picture``, engine/stonesaga/picture.py): drawn from the
state alone over every state of the example games, with valid kinds and marks, cells inside the
board, one cell per place, each living character's token on the tile the state says, and the
mining draw in words while a mining is open."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from offer_walk import example_files
from stonesaga_play import Play

from engine.core import Session, State, find_game, move_from_dict
from engine.core.game import PICTURE_KINDS, PICTURE_MARKS
from engine.stonesaga import STONESAGA
from engine.stonesaga import moves as mv
from engine.stonesaga.catalogue import catalogue
from engine.stonesaga.picture import COLS, ROWS, layout, picture

FILES = example_files("stonesaga")


def states(path: Path) -> Iterator[tuple[int, State[Any]]]:
    """The state after set-up and after every line of an example game."""
    lines = path.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    session = Session(find_game("stonesaga"), head.get("setup"), int(head.get("seed", 0)))
    yield 1, session.state
    for number, line in enumerate(lines[1:], 2):
        if line.strip() and not line.lstrip().startswith("#"):
            session.submit(move_from_dict(json.loads(line)))
            yield number, session.state


def tile_of(board: dict[str, Any], col: int, row: int) -> str:
    """The tile (group) of the cell at a place."""
    return next(c["group"] for c in board["cells"] if (c["col"], c["row"]) == (col, row))


def check(state: State[Any], lang: str, where: str) -> dict[str, Any]:
    drawn = STONESAGA.picture(state, lang)
    assert drawn is not None
    json.dumps(drawn)  # plain JSON
    (board,) = drawn["boards"]
    cols, rows = board["cols"], board["rows"]
    places = [(c["col"], c["row"]) for c in board["cells"]]
    assert len(places) == len(set(places)), f"{where}: two cells at one place"
    for cell in board["cells"]:
        assert cell["kind"] in PICTURE_KINDS, (where, cell)
        assert 0 <= cell["col"] < cols and 0 <= cell["row"] < rows, (where, cell)
        # the tile's number (over two cells), else one symbol the legend names
        assert len(cell.get("text", "")) <= 1 or cell.get("span") == 2, (where, cell)
    for mark in board["marks"]:
        assert mark["kind"] in PICTURE_MARKS, (where, mark)
        assert (mark["col"], mark["row"]) in places, (where, mark)
    tokens = [(t["col"], t["row"]) for t in board["tokens"]]
    assert len(tokens) == len(set(tokens)), f"{where}: two tokens at one place"
    for token in board["tokens"]:
        assert (token["col"], token["row"]) in places and len(token["text"]) <= 4, (where, token)
    living = [c for c in state.data.characters if c.alive and c.tile]
    assert len(board["tokens"]) == len(living), where
    for char, token in zip(living, board["tokens"], strict=True):
        assert token["seat"] == char.seat, where
        assert tile_of(board, token["col"], token["row"]) == char.tile, (where, char.name)
    legend = {e["kind"] for e in drawn["legend"] if e["kind"] != "token"}
    used = {c["kind"] for c in board["cells"]} | {m["kind"] for m in board["marks"]}
    assert legend == used, where
    figures = [(e["token"], e["seat"]) for e in drawn["legend"] if e["kind"] == "token"]
    assert figures == [(t["text"], t["seat"]) for t in board["tokens"]], where
    symbols = {c["text"] for c in board["cells"] if c.get("text") and "span" not in c}
    named = {e["icon"] for e in drawn["legend"] if "icon" in e}
    assert symbols == named, f"{where}: every symbol drawn, and only those, named by the legend"
    return drawn


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_state_of_the_example_games_draws_a_valid_valley(path: Path) -> None:
    seen = 0
    for line, state in states(path):
        for lang in ("zh", "en"):
            check(state, lang, f"{path.name}:{line} ({lang})")
        seen += 1
    assert seen >= 20  # the shortest example (its Log seats its characters) has 20 lines


def test_the_valley_is_laid_tray_by_tray_as_the_tiles_neighbour_each_other() -> None:
    """§地图: 地块放进地形托盘(每盘 3 格); 相邻 = 共用一条边. Tray 1 is the top row of tiles,
    tray 2 below it; 101 and 104 share an edge (valley.toml), so 104 lies under 101."""
    at = layout(catalogue())
    assert at["101"] == (0, 0) and at["102"] == (COLS, 0) and at["103"] == (2 * COLS, 0)
    assert at["104"] == (0, ROWS) and at["106"] == (2 * COLS, ROWS)


def test_an_unexplored_tile_shows_fog_and_no_features() -> None:
    """§地图: 未探索(被雾遮住): tile 106 starts on its fog side; its features are not drawn."""
    play = Play(1)
    board = picture(play.state, "zh")["boards"][0]
    fog = [c for c in board["cells"] if c["group"] == "106"]
    assert {c["kind"] for c in fog} == {"hidden"}
    assert [c.get("text") for c in fog if "text" in c] == []  # the legend names the fog side
    cells = {(c["group"], c.get("text")) for c in board["cells"]}
    assert ("102", "∩") in cells and ("102", "♣") in cells and ("105", "⚐") in cells
    legend = {e.get("icon"): e["text"] for e in picture(play.state, "en")["legend"]}
    assert legend["∩"] == "cave" and legend["♣"] == "forest" and legend["⚐"] == "ruin"
    number = next(c for c in board["cells"] if c["group"] == "102" and c.get("text") == "102")
    assert number["span"] == 2 and (number["col"], number["row"]) == (COLS, 0)


def test_characters_stand_on_their_tile_and_a_travel_moves_the_token() -> None:
    play = Play(2)
    play.edit(0, name="Ash")
    play.edit(1, name="Birch")
    board = picture(play.state, "en")["boards"][0]
    assert [t["text"] for t in board["tokens"]] == ["1", "2"]  # each character's number
    figures = picture(play.state, "en")["legend"][:2]
    assert [(e["kind"], e["token"], e["text"]) for e in figures] == [
        ("token", "1", "Ash"),
        ("token", "2", "Birch"),  # the whole name, never "Bir."
    ]
    assert {tile_of(board, t["col"], t["row"]) for t in board["tokens"]} == {"101"}
    play.do(mv.Travel(0, 0, "102"))
    board = picture(play.state, "en")["boards"][0]
    ash = next(t for t in board["tokens"] if t["seat"] == 0)
    assert tile_of(board, ash["col"], ash["row"]) == "102"


def test_outposts_markers_and_a_dead_character() -> None:
    """§建前哨, §地点标记: an outpost is a camp cell; fire, shelter and depletion are drawn on
    the tile, their sides in the notes; a dead character has no token (§角色死亡与传说)."""
    play = Play(2)
    play.tile("101", outpost=True, fire=1, shelter=2, depletion=2)
    play.edit(1, alive=False)
    drawn = picture(play.state, "zh")
    board = drawn["boards"][0]
    on_101 = {c.get("text"): c["kind"] for c in board["cells"] if c["group"] == "101"}
    assert on_101["⚑"] == "camp" and on_101["∅"] == "done" and "♨" in on_101
    words = {e.get("icon"): e["text"] for e in drawn["legend"]}
    assert words["⚑"] == "前哨" and words["∅"] == "枯竭标记" and words["♨"] == "火堆标记"
    assert any("火堆(×面)" in n and "庇护所2级" in n for n in board["notes"])
    assert len(board["tokens"]) == 1
    assert {e["kind"] for e in drawn["legend"]} >= {"camp", "done", "feature", "hidden"}


def test_the_mining_draw_is_told_in_words_while_the_mining_is_open() -> None:
    """§采矿.3–6: the bag for a cave holds 云石×1、河石×2、太阳石×2; what was drawn and what is
    left show until the ore goes back."""
    play = Play(1)
    play.edit(0, name="Ash", tile="102")
    play.do(mv.Mine(0, 0, "cave"))
    play.do(mv.DrawOre(0, "river_stone", "moon"))
    notes = picture(play.state, "zh")["boards"][0]["notes"]
    assert "灰烬在洞穴采矿,已摸出:河石(月)" in notes
    assert "袋中还剩:云石×1、河石×1、太阳石×2;还可再摸2枚" in notes
    en = picture(play.state, "en")["boards"][0]["notes"]
    assert (
        "Left in the bag: cloud stone ×1, river stone ×1, sun stone ×2; 2 more may be drawn" in en
    )
    play.do(mv.FinishMining(0))
    assert not any("采矿" in n for n in picture(play.state, "zh")["boards"][0]["notes"])


def test_a_refused_travel_outlines_the_tile_it_named() -> None:
    """§移动: 103 is not next to 101; the refused travel is outlined on 103's number."""
    play = Play(1)
    refused = mv.Travel(0, 0, "103")
    assert not play.check(refused).ok
    board = picture(play.state, "zh", refused)["boards"][0]
    assert {"col": 2 * COLS, "row": 0, "kind": "refused"} in board["marks"]


def test_a_refused_action_at_a_feature_outlines_that_feature() -> None:
    """§采矿: mining needs the feature on the tile; a refused mine at the cave of tile 102 is
    outlined on the cave."""
    play = Play(1)
    play.edit(0, tile="102", energy=0)
    refused = mv.Mine(0, 0, "cave")
    assert not play.check(refused).ok
    board = picture(play.state, "en", refused)["boards"][0]
    (mark,) = [m for m in board["marks"] if m["kind"] == "refused"]
    cave = next(c for c in board["cells"] if c.get("text") == "∩")
    assert (mark["col"], mark["row"]) == (cave["col"], cave["row"])


def test_the_behemoth_is_named_in_the_notes_with_its_demeanor() -> None:
    """§巨兽: the alert behemoth, demeanor starting at 4. The engine keeps no place for its
    model, so it is not drawn on a tile."""
    play = Play(1, behemoths=["Grumblehorn"], draws="virtual")  # the engine drew it
    board = picture(play.state, "zh")["boards"][0]
    assert "巨兽咕噜角:警觉,性情4" in board["notes"]


def test_stonesaga_keeps_no_score() -> None:
    """§挑战卡与目标卡: a co-operative challenge, won or lost together."""
    assert STONESAGA.scores(Play(2).state) is None
