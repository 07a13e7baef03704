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
from kiosk.store import MIGRATIONS, SCHEMA_VERSION, SavedGame, SaveUnusableError, Store
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
    original = store.snapshot_state

    def spy(saved, expected, digest):  # type: ignore[no-untyped-def]
        state = original(saved, expected, digest)
        if state is not None:
            used.append(expected.seq)
        return state

    store.snapshot_state = spy  # type: ignore[method-assign]
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
    session = Session(find_game(game), {"draws": "virtual"}, seed)
    rnd = random.Random(seed)
    while session.state.outcome is None and len(session.moves) < count:
        move = sample(offers(session.game, session.state), rnd)
        if move is None:
            break
        session.submit(move)
    return list(session.moves)


CASES = [pytest.param(*example_moves(p), id=p.stem) for p in sorted(EXAMPLES.glob("*.jsonl"))]
CASES += [
    pytest.param(
        game, {"draws": "virtual"}, seed, walk_moves(game, seed, 200), id=f"walk-{game}-{seed}"
    )
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
        saved = store.new_game("g", "greenwood", {"players": 3, "draws": "virtual"}, seed=7)
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
    "all shifted": lambda p: damage(
        p,
        "UPDATE snapshots SET state = coalesce((SELECT s.state FROM snapshots s"
        " WHERE s.seq < snapshots.seq ORDER BY s.seq DESC LIMIT 1), x'')",
    ),
}


@pytest.mark.parametrize("how", list(DAMAGES))
def test_a_snapshot_that_does_not_match_is_ignored(
    tmp_path: Path, how: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "games.sqlite"
    long_game(path)
    expected = replayed(path, "g")
    DAMAGES[how](path)
    with Store.open(path) as store:
        resumed, used = from_snapshot(store, "g")
    assert_same(resumed, expected)
    assert not used
    ignored = [r for r in caplog.records if "ignored" in r.getMessage()]
    if how == "another version":  # another version's cache: not damage, nothing to say
        assert not ignored
    else:
        assert 0 < len(ignored) <= snapshots_module.SNAPSHOTS_KEPT


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
        saved = store.new_game("g", "greenwood", {"players": 2, "draws": "virtual"}, seed=1)
        play(saved, walk_moves("greenwood", 1, 30), random.Random(1))
    assert snapshots(path)


def test_a_failed_snapshot_costs_only_the_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(state: object, game: object) -> bytes:
        raise snapshots_module.SnapshotError("no room")

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
            saved = store.new_game(f"g{k}", "stonesaga", {"draws": "virtual"}, seed=k)
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


# --- snapshots in the log's hash chain (issue 25) -------------------------------------------


def newest_two(path: Path, name: str = "g") -> tuple[int, int]:
    conn = sqlite3.connect(path)
    rows = conn.execute(
        "SELECT s.seq FROM snapshots s JOIN games g ON g.id = s.game_id WHERE g.name = ?"
        " ORDER BY s.seq DESC LIMIT 2",
        (name,),
    ).fetchall()
    conn.close()
    return rows[0][0], rows[1][0]


def blob(path: Path, name: str, seq: int) -> bytes:
    conn = sqlite3.connect(path)
    (state,) = conn.execute(
        "SELECT s.state FROM snapshots s JOIN games g ON g.id = s.game_id"
        " WHERE g.name = ? AND s.seq = ?",
        (name, seq),
    ).fetchone()
    conn.close()
    return bytes(state)


def put_blob(path: Path, seq: int, state: bytes) -> None:
    damage(path, "UPDATE snapshots SET state = ? WHERE seq = ? AND game_id = 1", state, seq)


def score_edited(state: bytes) -> bytes:
    """The snapshot's JSON with player 1's score raised by 50 (still a valid state)."""
    data = json.loads(state)
    data["data"]["players"][0]["score"] += 50
    return json.dumps(data).encode()


def swap_newest(path: Path, how: str) -> None:
    """Replace the newest snapshot of game 'g' as ``how`` says."""
    new, old = newest_two(path)
    oldest = snapshots(path)[0]
    if how == "by an older one":
        put_blob(path, new, blob(path, "g", oldest))
    elif how == "by the older row whole":
        damage(
            path,
            "UPDATE snapshots SET (prefix, engine, moves, state) = (SELECT prefix, engine, moves,"
            " state FROM snapshots WHERE game_id = 1 AND seq = ?) WHERE game_id = 1 AND seq = ?",
            old,
            new,
        )
    elif how == "by another game's":
        with Store.open(path) as store:
            other = store.new_game("h", "greenwood", {"players": 3, "draws": "virtual"}, seed=8)
            play(other, walk_moves("greenwood", 8, 120), random.Random(8))
        put_blob(path, new, blob(path, "h", newest_two(path, "h")[0]))
    elif how == "by a changed one (score edited)":
        put_blob(path, new, score_edited(blob(path, "g", new)))
    elif how == "by one bit changed":
        state = bytearray(blob(path, "g", new))
        state[len(state) // 2] ^= 0x01
        put_blob(path, new, bytes(state))
    elif how == "deleted":
        damage(path, "DELETE FROM snapshots WHERE game_id = 1 AND seq = ?", new)


SWAPS = [
    "by an older one",
    "by the older row whole",
    "by another game's",
    "by a changed one (score edited)",
    "by one bit changed",
    "deleted",
]


@pytest.mark.parametrize("how", SWAPS)
def test_the_newest_snapshot_swapped_resumes_the_logs_exact_state(
    tmp_path: Path, how: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The newest snapshot replaced (or deleted): it is known, ignored with one warning line,
    and the game resumes from the older good snapshot, exactly as a replay from the start."""
    path = tmp_path / "games.sqlite"
    long_game(path)
    new, old = newest_two(path)
    expected = replayed(path, "g")
    swap_newest(path, how)
    caplog.clear()
    with Store.open(path) as store:
        resumed, used = from_snapshot(store, "g")
    assert_same(resumed, expected)
    assert (
        resumed.session.state.data.players[0].score == expected.session.state.data.players[0].score
    )
    assert used and max(used) == old and new not in used
    ignored = [r.getMessage() for r in caplog.records if "ignored" in r.getMessage()]
    if how == "deleted":
        assert not ignored
    else:
        assert len(ignored) == 1 and f"after entry {new} " in ignored[0], ignored
        assert "differs from what the log's chain recorded" in ignored[0]


def test_a_changed_snapshot_would_have_shown_another_score(tmp_path: Path) -> None:
    """The edited snapshot of the test above is a state that decodes (so the chain, not the
    codec, is what refuses it), with another score."""
    path = tmp_path / "games.sqlite"
    long_game(path)
    new, _ = newest_two(path)
    game = find_game("greenwood")
    edited = snapshots_module.decode_state(score_edited(blob(path, "g", new)), game)
    original = snapshots_module.decode_state(blob(path, "g", new), game)
    assert edited.data.players[0].score == original.data.players[0].score + 50


def counter_save(path: Path, ticks: int) -> None:
    from bench.counter import COUNTER, OPTIONS, Tick

    with Store.open(path) as store:
        store.new_game("c", COUNTER.name, OPTIONS)
        store.append_moves("c", [Tick(seat=i % 4) for i in range(ticks)])


def test_a_snapshot_after_a_long_replay_is_sealed_in_the_head_then_chained(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A resume that replays a long stretch writes a snapshot of the state after the last entry:
    its digest seals the save's head, and the next entry takes it into its chain. Damaged, it is
    ignored and the log replays; its digest changed is damage of the log itself."""
    from bench.counter import Tick

    path = tmp_path / "games.sqlite"
    counter_save(path, 3 * EVERY)
    with Store.open(path) as store:
        assert store.load("c").session.state.data == 3 * EVERY
    assert snapshots(path) == [3 * EVERY]
    conn = sqlite3.connect(path)
    head, pending = conn.execute("SELECT head, snapshot FROM games").fetchone()
    (last,) = conn.execute("SELECT chain FROM log ORDER BY seq DESC LIMIT 1").fetchone()
    conn.close()
    assert len(pending) == 32 and head != last
    with Store.open(path) as store:
        resumed, used = from_snapshot(store, "c")
    assert used == [3 * EVERY] and resumed.session.state.data == 3 * EVERY

    put_blob(path, 3 * EVERY, blob(path, "c", 3 * EVERY).replace(b'"data":15', b'"data":73'))
    caplog.clear()
    with Store.open(path) as store:
        resumed, used = from_snapshot(store, "c")
        assert not used and resumed.session.state.data == 3 * EVERY
        assert len([r for r in caplog.records if "ignored" in r.getMessage()]) == 1
        resumed.submit(Tick(seat=(3 * EVERY) % 4))  # carries the rewritten snapshot's digest
    conn = sqlite3.connect(path)
    carried = conn.execute("SELECT snapshot FROM log WHERE seq = ?", (3 * EVERY + 1,)).fetchone()
    assert len(carried[0]) == 32 and conn.execute("SELECT snapshot FROM games").fetchone() == (
        None,
    )
    conn.close()
    with Store.open(path) as store:
        resumed, used = from_snapshot(store, "c")
    assert used == [3 * EVERY] and resumed.session.state.data == 3 * EVERY + 1

    damage(path, "UPDATE log SET snapshot = zeroblob(32) WHERE seq = ?", 3 * EVERY + 1)
    with Store.open(path) as store, pytest.raises(SaveUnusableError) as info:
        store.load("c")
    assert info.value.entry == 3 * EVERY + 1


def test_a_changed_pending_digest_is_damage_of_the_save_row(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    counter_save(path, 2 * EVERY)
    Store.open(path).load("c").store.close()
    damage(path, "UPDATE games SET snapshot = zeroblob(32)")
    with Store.open(path) as store, pytest.raises(SaveUnusableError) as info:
        store.load("c")
    assert info.value.entry == 2 * EVERY


def test_a_save_whose_snapshot_digest_in_the_log_is_changed_is_set_aside(tmp_path: Path) -> None:
    """The digest is part of the log: changed, the log fails its check and the kiosk sets the
    save aside as for any damaged log (never for a damaged snapshot)."""
    from kiosk.settings import load_settings
    from kiosk.table import open_table

    path = tmp_path / "games.sqlite"
    long_game(path)
    first = (
        sqlite3.connect(path)
        .execute("SELECT min(seq) FROM log WHERE snapshot IS NOT NULL")
        .fetchone()[0]
    )
    damage(path, "UPDATE log SET snapshot = zeroblob(32) WHERE seq = ?", first)
    table, store = open_table(load_settings(data_dir=tmp_path, game="greenwood"))
    try:
        # the database set aside, with its -wal and -shm when it had them open
        damaged = tmp_path.glob("games.sqlite.damaged-*")
        (aside,) = [p for p in damaged if not p.name.endswith(("-wal", "-shm"))]
        (warning,) = table.warnings
        assert f"entry {first} of its log" in warning.en and aside.name in warning.en
    finally:
        store.close()


def test_a_damaged_snapshot_never_sets_a_save_aside(tmp_path: Path) -> None:
    from kiosk.settings import load_settings
    from kiosk.table import open_table

    path = tmp_path / "games.sqlite"
    long_game(path)
    expected = replayed(path, "g")
    flip_bytes(path)
    table, store = open_table(load_settings(data_dir=tmp_path, game="greenwood"))
    try:
        assert not list(tmp_path.glob("*.damaged-*")) and not table.warnings
        assert_same(table.saved, expected)
    finally:
        store.close()


PICKLE_TOUCH = b"cos\nsystem\n(S'touch pickled-marker'\ntR."
"""A protocol-0 pickle that runs ``os.system('touch pickled-marker')`` when unpickled."""


def test_a_schema_4_save_with_pickled_snapshots_migrates_and_resumes_exactly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save of schema 4 (no snapshot digests; pickled snapshots, one of them hostile) opens:
    migrated, its pickles deleted unread, the game resumed as its log replays."""
    path = tmp_path / "games.sqlite"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(snapshots_module, "SNAPSHOT_EVERY", 10**9)
    long_game(path)
    monkeypatch.setattr(snapshots_module, "SNAPSHOT_EVERY", EVERY)
    expected = replayed(path, "g")
    conn = sqlite3.connect(path)
    conn.executescript(
        "ALTER TABLE log DROP COLUMN snapshot; ALTER TABLE games DROP COLUMN snapshot;"
        " PRAGMA user_version = 4;"
    )
    (chain,) = conn.execute("SELECT chain FROM log WHERE seq = 40").fetchone()
    conn.execute(
        "INSERT INTO snapshots VALUES (1, 40, ?, ?, 30, ?, 'then')",
        (chain.hex(), "pickle-5/engine-only-1", PICKLE_TOUCH),
    )
    conn.commit()
    conn.close()
    with Store.open(path) as store:
        assert_same(store.load("g"), expected)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert PICKLE_TOUCH not in [r[0] for r in conn.execute("SELECT state FROM snapshots")]
    conn.close()
    assert not (tmp_path / "pickled-marker").exists()
    with Store.open(path) as store:
        resumed, used = from_snapshot(store, "g")
    assert_same(resumed, expected)
    assert used


def example_states(path: Path) -> tuple[object, list]:
    game, setup, seed, moves = example_moves(path)
    session = Session(find_game(game), setup, int(seed))
    states = [session.state]
    for move in moves:
        if session.submit(move).accepted:
            states.append(session.state)
    return session.game, states


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.jsonl")), ids=lambda p: p.stem)
def test_every_state_of_the_example_games_round_trips_through_the_codec(path: Path) -> None:
    game, states = example_states(path)
    assert len(states) > 10
    for state in states:
        back = snapshots_module.decode_state(snapshots_module.encode_state(state, game), game)
        assert back == state
        assert type(back.data) is type(state.data) and type(back.options) is type(state.options)
