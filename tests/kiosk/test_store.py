"""Saved games in real SQLite files: durability settings, resume, undo/redo, names, damage."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from engine.core import Advance, NothingToUndoError, Pass, Session, find_game, flow
from engine.greenwood.moves import PlaceDuskMarker
from kiosk.seats import PlayerSeat
from kiosk.store import (
    MIGRATIONS,
    SCHEMA_VERSION,
    SaveNotFoundError,
    Store,
    StoreDamagedError,
    StoreError,
    StoreVersionError,
)

OPTIONS = {"players": 2, "start_seat": 0, "draws": "virtual"}


def dusk_moves() -> list:
    """Dusk (each dusk marker laid first, greenwood.zh.md §三.2) and night passed by both
    (departure moves on by itself: nobody holds aurora)."""
    markers = [PlaceDuskMarker(seat=0, effect="recruit"), PlaceDuskMarker(seat=1, effect="aurora")]
    return [*markers, Pass(seat=0), Pass(seat=1), Pass(seat=0), Pass(seat=1)]


def test_the_database_is_in_wal_mode_with_full_sync_and_current_schema(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    Store.open(path).close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_game_resumes_exactly_by_replaying_its_log(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    with Store.open(path) as store:
        saved = store.new_game("friday", "greenwood", OPTIONS, seed=3)
        for move in dusk_moves():
            assert saved.submit(move).accepted
        assert not saved.submit(Pass(seat=1)).accepted  # refused moves are not logged
        expected = saved.session.state
    with Store.open(path) as store:
        resumed = store.load()
        assert resumed.name == "friday"
        assert resumed.session.state == expected
        assert resumed.session.moves == dusk_moves()


def log_rows(path: Path) -> int:
    """How many log entries another connection sees committed in the file."""
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("SELECT count(*) FROM log").fetchone()[0])
    finally:
        conn.close()


def test_a_move_is_checked_once_then_written_then_applied_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "games.sqlite"
    checks: list[object] = []
    legal = flow.legal

    def counted(game: object, state: object, move: object) -> object:
        checks.append(move)
        return legal(game, state, move)  # type: ignore[arg-type]

    written_when_applied: list[int] = []
    push = Session.push

    def watched(session: Session, move: object) -> object:
        written_when_applied.append(log_rows(path))
        return push(session, move)  # type: ignore[arg-type]

    monkeypatch.setattr(flow, "legal", counted)
    monkeypatch.setattr(Session, "push", watched)
    with Store.open(path) as store:
        saved = store.new_game("g", "greenwood", OPTIONS, seed=3)
        for number, move in enumerate(dusk_moves(), start=1):
            checks.clear()
            assert saved.submit(move).accepted
            assert checks == [move]  # one legality check, not one per layer
            assert written_when_applied[-1] == number  # committed before it was applied
        checks.clear()
        assert not saved.submit(Pass(seat=1)).accepted
        assert checks == [Pass(seat=1)]
    assert log_rows(path) == len(dusk_moves())  # the refused move was never written


def test_the_saved_game_gives_the_results_and_events_of_the_engine(tmp_path: Path) -> None:
    moves = [Pass(seat=1), *dusk_moves()[:2], Advance(), *dusk_moves()[2:], Pass(seat=0)]
    session = Session(find_game("greenwood"), OPTIONS, seed=3)
    with Store.open(tmp_path / "games.sqlite") as store:
        saved = store.new_game("g", "greenwood", OPTIONS, seed=3)
        for move in moves:
            assert saved.submit(move) == session.submit(move)
        assert saved.session.state == session.state
        assert saved.undo() == session.undo() and saved.redo() == session.redo()
        assert saved.session.state == session.state


def test_undo_and_redo_are_saved_too(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    with Store.open(path) as store:
        saved = store.new_game("g", "greenwood", OPTIONS)
        for move in dusk_moves():
            saved.submit(move)
        saved.undo()
        saved.undo()
        saved.redo()
        assert saved.session.moves == dusk_moves()[:-1]
    with Store.open(path) as store:
        resumed = store.load("g")
        assert resumed.session.moves == dusk_moves()[:-1]
        assert resumed.session.undone == [dusk_moves()[-1]]  # redo survives a restart
        resumed.redo()
        with pytest.raises(NothingToUndoError):
            resumed.redo()
    with Store.open(path) as store:
        assert store.load("g").session.moves == dusk_moves()


def test_several_named_games_latest_first(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.sqlite") as store:
        store.new_game("one", "greenwood", OPTIONS)
        two = store.new_game("two", "greenwood", OPTIONS)
        one = store.load("one")
        one.submit(PlaceDuskMarker(seat=0, effect="recruit"))
        assert [s.name for s in store.list()] == ["one", "two"]
        assert store.load().name == "one"
        assert two.session.moves == []
        with pytest.raises(StoreError, match="exists already"):
            store.new_game("one", "greenwood", OPTIONS)
        with pytest.raises(SaveNotFoundError, match="'three'"):
            store.load("three")


def test_no_saved_game_is_a_clear_error(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.sqlite") as store, pytest.raises(SaveNotFoundError):
        store.load()


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_a_damaged_database_is_set_aside_never_overwritten(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "games.sqlite"
    with Store.open(path) as store:
        saved = store.new_game("g", "greenwood", OPTIONS)
        for _ in range(200):
            saved.submit(Advance())  # refused, not logged
        for move in dusk_moves():
            saved.submit(move)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    original = path.read_bytes()
    if damage == "garbage":
        broken = b"this is not a database" * 100
    else:
        broken = original[: len(original) // 2 + 100]
        broken = broken[:100] + b"\xff" * 64 + broken[164:]
    path.write_bytes(broken)
    with pytest.raises(StoreDamagedError) as info:
        Store.open(path)
    assert info.value.moved_to.read_bytes() == broken
    assert not path.exists()
    assert "set aside" in str(info.value)
    with Store.open(path) as fresh:  # a new, empty database can be made in its place
        assert fresh.list() == []


def test_a_database_from_a_newer_version_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(StoreVersionError, match="newer tablesight"):
        Store.open(path)
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1


def test_an_empty_file_is_set_aside_with_a_word_not_taken_silently(tmp_path: Path) -> None:
    """A database cut to nothing looks like a new one to SQLite; the kiosk says so instead."""
    path = tmp_path / "games.sqlite"
    sqlite3.connect(path).close()
    assert path.stat().st_size == 0
    with pytest.raises(StoreDamagedError, match=r"empty \(0 bytes\)") as info:
        Store.open(path)
    assert info.value.moved_to.stat().st_size == 0
    with Store.open(path) as store:
        store.new_game("g", "greenwood", OPTIONS)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_version_1_save_opens_with_numbered_players_and_keeps_its_moves(
    tmp_path: Path,
) -> None:
    """A database from before players had names and colours (schema 1) is migrated in place:
    its game resumes with every move, its seats numbered and coloured in order."""
    path = tmp_path / "games.sqlite"
    with sqlite3.connect(path) as db:
        db.executescript(MIGRATIONS[1] + "; PRAGMA user_version=1;")
        db.execute(
            "INSERT INTO games (name, game, options, seed, created_at, updated_at)"
            " VALUES ('old', 'greenwood', '{\"players\": 2}', 0, 'then', 'then')"
        )
        db.execute(
            "INSERT INTO log VALUES (1, 1, 'move',"
            ' \'{"type": "greenwood.dusk_marker", "seat": 0, "effect": "recruit"}\','
            " 'then')"
        )
    with Store.open(path) as store:
        saved = store.load("old")
        assert len(saved.session.moves) == 1
        assert [(s.name, s.colour) for s in saved.seats] == [(None, "red"), (None, "blue")]
        again = store.new_game(
            "new",
            "greenwood",
            {"players": 2},
            seats=[PlayerSeat("Ann", "green"), PlayerSeat(None, "red")],
        )
        assert again.seats[0].name == "Ann"
    with Store.open(path) as store:
        assert [(s.name, s.colour) for s in store.load("new").seats] == [
            ("Ann", "green"),
            (None, "red"),
        ]
