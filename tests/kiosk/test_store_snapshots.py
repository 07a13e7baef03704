"""Snapshots of saved games: a resume from a snapshot equals a replay from the start, and any
snapshot that does not match the log (damaged, another prefix, another version) is ignored."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from engine.core import Session, find_game, move_from_dict, offers
from engine.core.offers import sample
from kiosk.store import MIGRATIONS, SavedGame, SaveUnusableError, Store
from kiosk.store import snapshots as snapshots_module

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
EVERY = 5


@pytest.fixture(autouse=True)
def _often(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshots_module, "SNAPSHOT_EVERY", EVERY)


def play(saved: SavedGame, moves: list, rnd: random.Random) -> None:
    """Submit the moves, with undos and redos thrown in at random."""
    for move in moves:
        saved.submit(move)
        roll = rnd.random()
        if roll < 0.15 and saved.session.moves:
            saved.undo()
            if rnd.random() < 0.5 and saved.session.moves:
                saved.undo()
            if rnd.random() < 0.5:
                saved.redo()


def replayed(path: Path, name: str) -> SavedGame:
    """The game resumed from its log alone (its snapshots deleted in a copy)."""
    copy = path.with_name(f"replay-{name}.sqlite")
    src = sqlite3.connect(path)
    dst = sqlite3.connect(copy)
    src.backup(dst)
    src.close()
    dst.execute("DELETE FROM snapshots")
    dst.commit()
    dst.close()
    return Store.open(copy).load(name)


def assert_same(resumed: SavedGame, expected: SavedGame) -> None:
    assert resumed.session.state == expected.session.state
    assert resumed.session.moves == expected.session.moves
    assert resumed.session.undone == expected.session.undone


def snapshots(path: Path) -> list[int]:
    return [r[0] for r in sqlite3.connect(path).execute("SELECT seq FROM snapshots ORDER BY seq")]


def from_snapshot(store: Store, name: str) -> tuple[SavedGame, list[int]]:
    """Load, noting which snapshots were decoded."""
    used: list[int] = []
    original = store._snapshot_state

    def spy(game_id, seq, game):  # type: ignore[no-untyped-def]
        state = original(game_id, seq, game)
        if state is not None:
            used.append(seq)
        return state

    store._snapshot_state = spy  # type: ignore[method-assign]
    return store.load(name), used


def example_moves(path: Path) -> tuple[str, dict, int, list]:
    lines = [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    head = json.loads(lines[0])
    game = path.name.split("-")[0].removesuffix(".jsonl")
    find_game(game)  # registers its move types
    moves = [move_from_dict(json.loads(x)) for x in lines[1:] if not x.lstrip().startswith("#")]
    return (
        path.name.split("-")[0].removesuffix(".jsonl"),
        head.get("setup"),
        head.get("seed", 0),
        moves,
    )


def walk_moves(game: str, seed: int, count: int) -> list:
    session = Session(find_game(game), None, seed)
    rnd = random.Random(seed)
    while session.state.outcome is None and len(session.moves) < count:
        move = sample(offers(session.game, session.state), rnd)
        if move is None:
            break
        session.submit(move)
    return list(session.moves)


CASES = [pytest.param(*example_moves(p), id=p.stem) for p in sorted(EXAMPLES.glob("*.jsonl"))]
CASES += [
    pytest.param(game, None, seed, walk_moves(game, seed, 200), id=f"walk-{game}-{seed}")
    for game in ("greenwood", "dont_starve", "stonesaga")
    for seed in (1, 2)
]


@pytest.mark.parametrize(("game", "setup", "seed", "moves"), CASES)
def test_a_resume_from_a_snapshot_equals_a_replay_from_the_start(
    tmp_path: Path, game: str, setup: dict, seed: int, moves: list
) -> None:
    path = tmp_path / "games.sqlite"
    with Store.open(path) as store:
        saved = store.new_game("g", game, setup, seed=int(seed))
        play(saved, moves, random.Random(seed))
        expected_state = saved.session.state
    if len(moves) > EVERY:
        assert snapshots(path)
    with Store.open(path) as store:
        resumed, used = from_snapshot(store, "g")
        assert resumed.session.state == expected_state
        assert_same(resumed, replayed(path, "g"))
        assert used or not snapshots(path)
        # the same after undoing and redoing from the resumed game
        for _ in range(min(3, len(resumed.session.moves))):
            resumed.undo()
        if resumed.session.undone:
            resumed.redo()
        again = Store.open(path).load("g")
        assert_same(again, replayed(path, "g"))
        assert again.session.state == resumed.session.state


def long_game(path: Path) -> None:
    with Store.open(path) as store:
        saved = store.new_game("g", "greenwood", {"players": 3}, seed=7)
        play(saved, walk_moves("greenwood", 7, 120), random.Random(7))


def damage(path: Path, sql: str, *args: object) -> None:
    conn = sqlite3.connect(path)
    conn.execute(sql, args)
    conn.commit()
    conn.close()


def flip_bytes(path: Path) -> None:
    conn = sqlite3.connect(path)
    for seq, blob in conn.execute("SELECT seq, state FROM snapshots").fetchall():
        broken = bytearray(blob)
        for i in range(len(broken) // 3, len(broken), 7):
            broken[i] ^= 0x5A
        conn.execute("UPDATE snapshots SET state = ? WHERE seq = ?", (bytes(broken), seq))
    conn.commit()
    conn.close()


DAMAGES = {
    "flipped bytes": flip_bytes,
    "truncated blob": lambda p: damage(p, "UPDATE snapshots SET state = substr(state, 1, 20)"),
    "not a state": lambda p: damage(p, "UPDATE snapshots SET state = ?", b"\x80\x05K\x07."),
    "wrong prefix": lambda p: damage(p, "UPDATE snapshots SET seq = seq - 1"),
    "another version": lambda p: damage(p, "UPDATE snapshots SET engine = 'an older engine'"),
    "wrong move count": lambda p: damage(p, "UPDATE snapshots SET moves = moves + 1"),
    "another save": lambda p: damage(
        p, "UPDATE snapshots SET prefix = (SELECT prefix FROM snapshots ORDER BY seq LIMIT 1)"
    ),
}


@pytest.mark.parametrize("how", list(DAMAGES))
def test_a_snapshot_that_does_not_match_is_ignored(tmp_path: Path, how: str) -> None:
    path = tmp_path / "games.sqlite"
    long_game(path)
    expected = replayed(path, "g")
    DAMAGES[how](path)
    with Store.open(path) as store:
        resumed, used = from_snapshot(store, "g")
    assert_same(resumed, expected)
    if how != "another save":  # the oldest kept snapshot still matches there
        assert not used


def test_a_deleted_log_entry_stops_the_resume_at_that_entry(tmp_path: Path) -> None:
    """A snapshot after a missing entry must not paper over it: the game is not resumed short."""
    path = tmp_path / "games.sqlite"
    long_game(path)
    last = snapshots(path)[-1]
    total = sqlite3.connect(path).execute("SELECT count(*) FROM log").fetchone()[0]
    damage(path, "DELETE FROM log WHERE seq = ?", last - 1)
    before = path.read_bytes()
    with Store.open(path) as store, pytest.raises(SaveUnusableError) as info:
        store.load("g")
    assert (info.value.save, info.value.entry, info.value.total) == ("g", last - 1, total)
    assert f"entry {last - 1} of its log" in info.value.text.en
    assert f"第{last - 1}条记录" in info.value.text.zh
    assert path.read_bytes() == before


def test_an_old_database_opens_and_gets_snapshots(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[1] + "; " + MIGRATIONS[2] + "; PRAGMA user_version=2;")
    db.close()
    with Store.open(path) as store:
        saved = store.new_game("g", "greenwood", {"players": 2}, seed=1)
        play(saved, walk_moves("greenwood", 1, 30), random.Random(1))
    assert snapshots(path)


def test_a_failed_snapshot_costs_only_the_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(state: object) -> bytes:
        raise RuntimeError("no room")

    monkeypatch.setattr(snapshots_module, "encode_state", refuse)
    path = tmp_path / "games.sqlite"
    long_game(path)
    assert not snapshots(path)
    monkeypatch.undo()
    with Store.open(path) as store:
        assert_same(store.load("g"), replayed(path, "g"))


CHILD = textwrap.dedent(
    """
    import random, sys
    from pathlib import Path
    from engine.core import offers
    from engine.core.offers import sample
    from kiosk.store import Store, snapshots
    snapshots.SNAPSHOT_EVERY = 1  # a snapshot with every entry: most kills land in one
    with Store.open(Path(sys.argv[1])) as store:
        for k in range(len(store.list()), 10_000):
            saved = store.new_game(f"g{k}", "stonesaga", None, seed=k)
            rnd = random.Random(k)
            while saved.session.state.outcome is None:
                move = sample(offers(saved.game, saved.session.state), rnd)
                if move is None:
                    break
                if saved.submit(move).accepted:
                    print(saved.name, len(saved.session.moves), flush=True)
    """
)


def test_kill_9_while_writing_snapshots_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    rnd = random.Random(18)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    for _ in range(4):
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(db)], stdout=subprocess.PIPE, text=True, env=env
        )
        reported: dict[str, int] = {}
        first = threading.Event()

        def read(
            child: subprocess.Popen = child,
            reported: dict = reported,
            first: threading.Event = first,
        ) -> None:
            assert child.stdout is not None
            for line in child.stdout:
                if not line.endswith("\n"):
                    break  # the kill cut this line short: it reports nothing
                name, moves = line.split()
                reported[name] = int(moves)
                first.set()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        try:
            assert first.wait(timeout=60), "the child committed nothing"
            time.sleep(rnd.uniform(0.05, 0.4))  # a random moment, not a timing assertion
            child.send_signal(signal.SIGKILL)
            child.wait(timeout=30)
            reader.join(timeout=30)
        finally:
            child.kill()
        assert child.returncode == -signal.SIGKILL
        with Store.open(db) as store:
            for name, moves in reported.items():
                resumed = store.load(name)
                assert len(resumed.session.moves) >= moves, name
                assert_same(resumed, replayed(db, name))
    assert sqlite3.connect(db).execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_the_screen_memory_replays_only_the_last_stretch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bench.engine import COUNTER, OPTIONS, Tick
    from kiosk import table as table_module

    monkeypatch.setattr(snapshots_module, "SNAPSHOT_EVERY", 256)
    path = tmp_path / "games.sqlite"
    with Store.open(path) as store:
        saved = store.new_game("long", COUNTER.name, OPTIONS)
        for i in range(900):
            saved.submit(Tick(seat=i % 4))
    with Store.open(path) as store:
        short = table_module.Table(store.load("long"))
        assert short.saved.state_before(900 - table_module.REPLAYED_MOVES)[0] == 512
        monkeypatch.setattr(table_module, "REPLAYED_MOVES", 10_000)
        whole = table_module.Table(store.load("long"))
    assert list(short._recent) == list(whole._recent)
    assert short._dice == whole._dice
