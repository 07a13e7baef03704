"""Greenwood's submarines as the kiosk draws them (``Game.picture``, issue 13): one board per
seat, the layout's grid as the engine holds it, each placed piece one group, a refused
placement outlined where it was tried (greenwood.zh.md §三.10)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from offer_walk import example_files

from engine.core import Move, Session, State, find_game, move_from_dict
from engine.core.game import PICTURE_KINDS, PICTURE_MARKS
from engine.greenwood.catalogue import catalogue
from engine.greenwood.moves import Place
from engine.greenwood.state import Placed

FILES = example_files("greenwood")
GAME = find_game("greenwood")


def walk(path: Path) -> Iterator[tuple[int, Move, bool, State[Any]]]:
    """Each move of an example game, whether it was accepted, and the state after it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    session = Session(GAME, head.get("setup"), int(head.get("seed", 0)))
    for number, line in enumerate(lines[1:], 2):
        if line.strip() and not line.lstrip().startswith("#"):
            move = move_from_dict(json.loads(line))
            yield number, move, session.submit(move).accepted, session.state


def cells_at(board: dict[str, Any]) -> dict[tuple[int, int], dict[str, Any]]:
    return {(c["col"], c["row"]): c for c in board["cells"]}


def check_board(board: dict[str, Any], state: State[Any], where: str) -> None:
    """What every board must be: kinds and marks the kiosk knows, every grid cell once."""
    layout = catalogue().layouts[state.options.layout]
    assert (board["cols"], board["rows"]) == (layout.cols, layout.rows), where
    positions = [(c["col"], c["row"]) for c in board["cells"]]
    assert len(positions) == len(set(positions)), f"{where}: a cell drawn twice"
    assert set(positions) == {(c, r) for c in range(layout.cols) for r in range(layout.rows)}
    assert {c["kind"] for c in board["cells"]} <= set(PICTURE_KINDS), where
    assert {m["kind"] for m in board["marks"]} <= set(PICTURE_MARKS), where
    for mark in board["marks"]:
        assert 0 <= mark["col"] < layout.cols and 0 <= mark["row"] < layout.rows, where
    assert all(len(c.get("text", "")) <= 4 for c in board["cells"]), where
    assert isinstance(board["seat"], int) and board["title"], where
    player = state.data.players[board["seat"]]
    drawn = cells_at(board)
    start = drawn[layout.start]["kind"]
    if layout.start in player.covered:
        assert start in ("piece", "done"), where
    else:
        assert start == "start", where
    for cell in layout.unusable:
        assert drawn[cell]["kind"] == "blocked", where
    groups = {c["group"] for c in board["cells"] if "group" in c}
    assert len(groups) == len(player.pieces), f"{where}: one group per placed piece"


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_state_of_the_example_games_is_drawn_as_the_engine_holds_it(path: Path) -> None:
    """§三.10: pieces, the start cell, unusable cells; a placement shows as one piece."""
    placed = refused = 0
    for number, move, accepted, state in walk(path):
        where = f"{path.name}:{number}"
        last = move if not accepted else None
        drawn = GAME.picture(state, "en", last)
        assert drawn is not None
        assert [b["seat"] for b in drawn["boards"]] == list(range(state.players))
        for board in drawn["boards"]:
            check_board(board, state, where)
        used = {c["kind"] for b in drawn["boards"] for c in b["cells"]}
        used |= {m["kind"] for b in drawn["boards"] for m in b["marks"]}
        assert {e["kind"] for e in drawn["legend"]} == used - {"empty"}, where  # all but free
        if not isinstance(move, Place):
            assert not any(b["marks"] for b in drawn["boards"]), where
            continue
        board = cells_at(drawn["boards"][move.seat])
        if accepted:
            placed += 1
            tried = [board[c] for c in move.cells]
            assert {c["kind"] for c in tried} <= {"piece", "done"}, where
            assert len({c["group"] for c in tried}) == 1, where
            group = tried[0]["group"]
            assert sum(1 for c in board.values() if c.get("group") == group) == len(move.cells)
        else:
            refused += 1
            marks = drawn["boards"][move.seat]["marks"]
            assert {(m["col"], m["row"]) for m in marks} == set(move.cells), where
            assert {m["kind"] for m in marks} == {"refused"}, where
            others = [b for b in drawn["boards"] if b["seat"] != move.seat]
            assert not any(b["marks"] for b in others), where
            assert GAME.picture(state, "en")["boards"][move.seat]["marks"] == []
    assert placed >= 3
    assert refused >= (2 if path.name == "greenwood.jsonl" else 0)


def test_the_empty_submarine_shows_start_unusable_cells_and_reward_icons(gw: Any) -> None:
    """§三.10: the first piece covers the start cell; unusable cells; the hold's icons (an icon
    of several cells says its reward once)."""
    t = gw.Table(players=4, layout=3)
    drawn = GAME.picture(t.state, "zh")
    assert [b["title"] for b in drawn["boards"]] == [f"{n}号玩家的潜艇" for n in (1, 2, 3, 4)]
    layout = catalogue().layouts[3]
    board = cells_at(drawn["boards"][2])
    assert board[layout.start]["kind"] == "start"
    assert {p for p, c in board.items() if c["kind"] == "blocked"} == layout.unusable
    vp4 = next(i for i in layout.icons if i.reward == "vp:4")
    assert [board[c].get("text") for c in sorted(vp4.cells, key=lambda c: c[::-1])] == [
        "4分",
        None,
        None,
    ]
    assert all(board[c]["kind"] == "reward" for c in vp4.cells)
    texts = {c["text"] for b in drawn["boards"] for c in b["cells"] if "text" in c}
    assert texts == {"4分", "✶", "⚡", "◉", "✦"}
    english = GAME.picture(t.state, "en")
    en = {c["text"] for c in english["boards"][0]["cells"] if "text" in c}
    assert en == {"4★", "✶", "⚡", "◉", "✦"}  # symbols the legend names, no made-up abbreviation
    assert sum(len(b["cells"]) for b in drawn["boards"]) == 4 * layout.cols * layout.rows
    assert [e["kind"] for e in drawn["legend"]] == ["start", "blocked"] + ["reward"] * 5
    assert [(e["icon"], e["text"]) for e in drawn["legend"] if "icon" in e] == [
        ("分", "胜利点数"),  # the same legend in both languages (each line names one symbol)
        ("⚡", "能量标记"),
        ("◉", "间谍标记"),
        ("✦", "极光"),
        ("✶", "鬼火"),
    ]
    named = {e["icon"]: e["text"] for e in english["legend"] if "icon" in e}
    assert named == {
        "★": "victory points",
        "⚡": "energy token",
        "◉": "spy token",
        "✦": "aurora",
        "✶": "wisp",
    }


def test_a_completed_area_is_drawn_done_and_named_in_the_notes(gw: Any) -> None:
    """§三.10 区域完成奖励: a column whose cells are all covered is complete; its pieces keep
    their outlines."""
    t = gw.Table()
    column = [Placed("bar3", frozenset({(0, 0), (0, 1), (0, 2)}))]
    column.append(Placed("bar3", frozenset({(0, 3), (0, 4), (0, 5)})))
    column.append(Placed("domino", frozenset({(1, 0), (2, 0)})))
    state = gw.with_player(t.state, 1, pieces=tuple(column), pending=(("card", "place:wisp"),))
    drawn = GAME.picture(state, "zh")
    board = cells_at(drawn["boards"][1])
    assert {board[(0, r)]["kind"] for r in range(6)} == {"done"}
    assert board[(0, 0)]["group"] != board[(0, 5)]["group"]
    assert board[(1, 0)]["kind"] == "piece" and board[(2, 0)]["kind"] == "piece"
    assert drawn["boards"][1]["notes"] == ["待放置:鬼火", "已完成:第1列"]
    assert drawn["boards"][0]["notes"] == []
    assert "done" in {e["kind"] for e in drawn["legend"]}
    en = GAME.picture(state, "en")["boards"][1]["notes"]
    assert en == ["To place: wisp", "Completed: column 1"]


def test_a_refused_placement_is_outlined_on_the_cells_inside_the_grid(gw: Any) -> None:
    """§三.10 板块必须完整放在网格范围内: a piece tried half off the board is outlined where it
    lies on it."""
    t = gw.Table()
    tried = Place(seat=0, piece="bar3", cells=((4, 0), (5, 0), (6, 0)))
    drawn = GAME.picture(t.state, "en", tried)
    assert drawn["boards"][0]["marks"] == [
        {"col": 4, "row": 0, "kind": "refused"},
        {"col": 5, "row": 0, "kind": "refused"},
    ]
    assert {"kind": "refused", "text": "placement the rules refused"} in drawn["legend"]
    assert GAME.picture(t.state, "en", None)["boards"][0]["marks"] == []


def test_the_legend_shows_a_placed_piece_in_the_colour_of_each_seat_with_pieces(gw: Any) -> None:
    """The legend's "placed piece" carries the seats whose boards show pieces (the kiosk draws
    one swatch per seat in its colour), never one colour for all."""
    t = gw.Table(players=3)
    state = gw.with_player(t.state, 2, pieces=(Placed("domino", frozenset({(0, 0), (1, 0)})),))
    state = gw.with_player(state, 0, pieces=(Placed("bar3", frozenset({(3, 3), (4, 3), (5, 3)})),))
    piece = next(e for e in GAME.picture(state, "zh")["legend"] if e["kind"] == "piece")
    assert piece == {"kind": "piece", "text": "已放置的板块", "seats": [0, 2]}
    assert all(e["kind"] != "piece" for e in GAME.picture(t.state, "zh")["legend"])
