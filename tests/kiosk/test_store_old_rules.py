"""A save made by an earlier version resumes (issue 38's follow-up): that version answered
"accepted" to moves that change nothing (an exchange of water for water, stonesaga.zh.md §交换),
and today's engine refuses them (``Game.idle_refusals``). Replaying such a save applies them as
played, with a line in the log, instead of setting the whole save aside as "no longer legal";
any other logged move the rules refuse still sets it aside."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from engine.core import Move, Session, find_game, move_from_dict
from kiosk.store import SaveUnusableError, Store

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "stonesaga.jsonl"
LINES = EXAMPLE.read_text(encoding="utf-8").splitlines()
HEAD = json.loads(LINES[0])
GAME = find_game("stonesaga")  # finding the game registers its moves
MOVES = [move_from_dict(json.loads(line)) for line in LINES[1:]]
BEFORE = 21  # the example's moves before the idle one: both on the same tile, in the day


def exchange(give: str, receive: str) -> Move:
    return move_from_dict(
        {
            "type": "stonesaga.exchange",
            "seat": 0,
            "character": 0,
            "partner": 1,
            "give": [[give, 1]],
            "receive": [[receive, 1]],
        }
    )


def saved_by_an_earlier_version(path: Path, logged: Move) -> Session:
    """A save whose log holds ``logged`` after the example's first moves, as an earlier
    version wrote it: accepted, then applied (``SavedGame.submit`` of that version). Returns
    the session that version had at the end."""
    store = Store.open(path)
    saved = store.new_game("old", "stonesaga", HEAD["setup"], HEAD["seed"])
    for move in MOVES[:BEFORE]:
        saved.submit(move)  # one refused on the way, as in the example
    saved._log("move", logged)  # what that version's submit did for an accepted move
    saved.session.push(logged)
    for move in MOVES[BEFORE : BEFORE + 6]:
        assert saved.submit(move).accepted
    saved.undo()
    store.close()
    return saved.session


def test_a_move_accepted_then_that_changes_nothing_is_replayed_as_played(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    idle = exchange("water", "water")
    game = GAME
    fresh = Session(game, HEAD["setup"], HEAD["seed"])
    for move in MOVES[:BEFORE]:
        fresh.submit(move)
    assert fresh.check(idle).code == "stonesaga.exchange_same"  # refused today
    assert "stonesaga.exchange_same" in game.idle_refusals
    then = saved_by_an_earlier_version(tmp_path / "games.sqlite", idle)
    with (
        caplog.at_level(logging.WARNING, logger="kiosk.store"),
        Store.open(tmp_path / "games.sqlite") as store,
    ):
        resumed = store.load("old")
    assert resumed.session.state == then.state
    assert resumed.session.moves == then.moves and idle in resumed.session.moves
    assert resumed.session.undone == then.undone  # the undo after it replayed the same
    [line] = [r.getMessage() for r in caplog.records if "earlier version" in r.getMessage()]
    assert "stonesaga.exchange" in line and "stonesaga.exchange_same" in line


def test_a_logged_move_refused_for_another_reason_still_sets_the_save_aside(
    tmp_path: Path,
) -> None:
    wrong: Any = exchange("water", "stone")  # not what the partner holds: never legal here
    game = GAME
    fresh = Session(game, HEAD["setup"], HEAD["seed"])
    for move in MOVES[:BEFORE]:
        fresh.submit(move)
    code = fresh.check(wrong).code
    assert code and code not in game.idle_refusals
    saved_by_an_earlier_version(tmp_path / "games.sqlite", wrong)
    with (
        Store.open(tmp_path / "games.sqlite") as store,
        pytest.raises(SaveUnusableError) as refused,
    ):
        store.load("old")
    assert "no longer legal" in refused.value.text.en
