"""Files and paths given on the command line that a hostile or unlucky user could give: each is
one clear line and the documented exit status, never a traceback (the real entry point, as a
user runs it), random JSON-lines files fuzzed through `tablesight replay`, and hostile snapshots
in a saved game (random bytes, flipped bits, code-running pickles, deep or huge JSON): never
code run, never a traceback, always the log's state."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import State, offers
from engine.core.offers import sample
from engine.greenwood.moves import PlaceDuskMarker
from kiosk.cli import main
from kiosk.store import SnapshotError, Store, decode_state, encode_state, snapshot_digest
from kiosk.store.chain import _identity, _link

DEEP = "[" * 100_000 + "]" * 100_000
BIG = "9" * 5000


def tablesight(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The `tablesight` console script, as a user runs it (its module's ``main``)."""
    return subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "--lang", "en", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


def one_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in proc.stderr, proc.stderr
    (line,) = proc.stderr.strip().splitlines()
    return line


SETUP_LINES = {
    "a seed that is not a number": (
        '{"setup": {}, "seed": "x"}',
        'line 1: "seed" must be a whole number, not "x"',
    ),
    "a seed of 1e400": ('{"setup": {}, "seed": 1e400}', 'line 1: "seed" must be a whole number'),
    "a setup that is not options": (
        '{"setup": "nope"}',
        'line 1: "setup" must be a JSON object of options, not a string',
    ),
    "a setup nested too deeply": (
        '{"setup": ' + DEEP + "}",
        "line 1: the set-up line cannot be read: nested too deeply",
    ),
    "options the game does not have": ('{"setup": {"colour": 3}}', "greenwood has no option"),
}


@pytest.mark.parametrize("case", list(SETUP_LINES))
def test_replay_of_a_bad_setup_line_is_one_line_exit_2(tmp_path: Path, case: str) -> None:
    line, said = SETUP_LINES[case]
    (tmp_path / "moves.jsonl").write_text(line + '\n{"type": "pass", "seat": 0}\n')
    proc = tablesight("replay", "greenwood", "moves.jsonl", cwd=tmp_path)
    assert proc.returncode == 2
    assert one_line(proc).startswith(f"tablesight replay: {said}")


MOVE_LINES = {
    "nested too deeply": (DEEP, "nested too deeply"),
    "a 5000-digit number": (
        '{"type": "pass", "seat": ' + BIG + "}",
        "a number has more digits than can be read",
    ),
    "nested just under the limit": (
        '{"type": "pass", "seat": ' + "[" * 900 + "]" * 900 + "}",
        "move 'pass'",
    ),
    "not JSON": ('{"type": ', "not JSON"),
}


@pytest.mark.parametrize("case", list(MOVE_LINES))
def test_replay_reports_a_hostile_move_line_and_goes_on(tmp_path: Path, case: str) -> None:
    line, said = MOVE_LINES[case]
    good = '{"type": "greenwood.dusk_marker", "seat": 0, "effect": "recruit"}'
    (tmp_path / "moves.jsonl").write_text(line + "\n" + good + "\n")
    options = '{"draws": "virtual"}'  # the seeded threats: dusk goes on at once
    proc = tablesight("replay", "greenwood", "moves.jsonl", "--options", options, cwd=tmp_path)
    assert proc.returncode == 1 and proc.stderr == ""
    out = proc.stdout.splitlines()
    assert out[0].startswith(f"line 1: malformed: {said}"), out[0]
    assert out[1].startswith("line 2:") and "accepted" in out[1]


def test_replay_of_a_folder_says_it_is_a_folder(tmp_path: Path) -> None:
    proc = tablesight("replay", "greenwood", str(tmp_path), cwd=tmp_path)
    assert proc.returncode == 2
    assert one_line(proc) == (
        f"tablesight replay: {tmp_path} is a folder; give the JSON-lines file of moves"
    )


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ("[1]", "--options must be a JSON object, not a list"),
        ("[" * 5000 + "]" * 5000, "--options is not JSON: nested too deeply"),
        ("{players: 2}", "--options is not JSON"),
    ],
)
def test_replay_options_that_are_not_options(tmp_path: Path, options: str, said: str) -> None:
    (tmp_path / "moves.jsonl").write_text('{"type": "pass", "seat": 0}\n')
    proc = tablesight("replay", "greenwood", "moves.jsonl", "--options", options, cwd=tmp_path)
    assert proc.returncode == 2
    assert one_line(proc).startswith(f"tablesight replay: {said}")


def test_replay_from_a_damaged_save_names_it_and_leaves_it_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    with Store.open(path) as store:
        saved = store.new_game(
            "tuesday", "greenwood", {"players": 2, "start_seat": 0, "draws": "virtual"}
        )
        for seat in (0, 1):  # two accepted moves
            saved.submit(PlaceDuskMarker(seat=seat, effect="recruit"))
    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM log WHERE seq = 1")
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    before = path.read_bytes()
    (tmp_path / "moves.jsonl").write_text("")
    args = ["--data-dir", str(tmp_path), "replay", "greenwood", "moves.jsonl"]
    proc = tablesight(*args, "--from-save", "tuesday", cwd=tmp_path)
    assert proc.returncode == 2
    assert one_line(proc) == (
        "tablesight replay: the saved game 'tuesday' cannot go on from entry 1 of its log"
        " (2 entries): this entry is missing or out of order"
    )
    assert path.read_bytes() == before and not list(tmp_path.glob("*.damaged-*"))


@pytest.mark.parametrize("where", ["folder", "under a file", "no folder"])
def test_output_files_that_cannot_be_files(tmp_path: Path, where: str) -> None:
    (tmp_path / "afile").write_text("x")
    out = {"folder": ".", "under a file": "afile/out.pdf", "no folder": "nope/out.pdf"}[where]
    said = {
        "folder": ". is a folder; give a file name in it",
        "under a file": "afile is a file, not a folder",
        "no folder": "there is no folder nope",
    }[where]
    tags = tablesight("tags", "anchors", "--out", out, cwd=tmp_path)
    assert tags.returncode == 2 and one_line(tags) == f"tablesight tags: --out: {said}"
    json_out = out.replace(".pdf", ".json")
    bench = tablesight("bench", "cli", "--quick", "--json", json_out, cwd=tmp_path)
    assert bench.returncode == 2
    assert one_line(bench) == f"tablesight bench: --json: {said.replace('.pdf', '.json')}"


@pytest.mark.parametrize("data_dir", ["afile", "afile/below"])
def test_run_with_a_data_dir_that_is_a_file_is_one_line(tmp_path: Path, data_dir: str) -> None:
    (tmp_path / "afile").write_text("x")
    proc = tablesight("--data-dir", data_dir, "run", "--port", "1", cwd=tmp_path)
    assert proc.returncode == 2
    assert one_line(proc) == (
        f"tablesight run: the data folder {data_dir} cannot be used: afile is a file"
    )
    assert (tmp_path / "afile").read_text() == "x"


# --- fuzzing --------------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=12,
)
MOVE_LIKE = st.fixed_dictionaries(
    {"type": st.sampled_from(["pass", "advance", "gather", "teleport", ""])},
    optional={"seat": JSON, "setup": JSON, "seed": JSON, "cells": JSON},
)
LINE = st.one_of(
    JSON.map(lambda v: json.dumps(v, allow_nan=True)),
    MOVE_LIKE.map(json.dumps),
    st.fixed_dictionaries({"setup": JSON}, optional={"seed": JSON}).map(json.dumps),
    st.text(max_size=40),
    st.integers(1, 3000).map(lambda n: "[" * n + "]" * n),
    st.integers(4000, 6000).map(lambda n: '{"type": "pass", "seat": ' + "7" * n + "}"),
)


def test_replay_of_any_file_ends_with_a_status_never_an_exception(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """250 random files: each replay ends with exit 0, 1 or 2 (2 with one line), never an
    exception; and every one of the three statuses was met, counted here, so that the test
    stands alone."""
    codes: dict[int, int] = {}

    @settings(
        max_examples=250,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(
        lines=st.lists(LINE, min_size=0, max_size=5),
        game=st.sampled_from(["greenwood", "stonesaga"]),
    )
    def ends_with_a_status(lines: list[str], game: str) -> None:
        path = tmp_path / "fuzz.jsonl"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
        capsys.readouterr()
        code = main(["--lang", "en", "replay", game, str(path)])
        err = capsys.readouterr().err
        assert code in (0, 1, 2)
        assert code != 2 or len(err.strip().splitlines()) == 1
        codes[code] = codes.get(code, 0) + 1

    ends_with_a_status()
    print(f"\nreplay fuzzing, exit statuses: {dict(sorted(codes.items()))}")
    assert set(codes) == {0, 1, 2}


# --- hostile snapshots (issue 25) -----------------------------------------------------------

SNAPSHOT_EVERY = 5
SAVE_MOVES = 60


def _unicode(text: bytes) -> bytes:
    return b"\x8c" + bytes([len(text)]) + text


EVAL = b"open('evaluated-marker', 'w').close()"
PICKLES = {
    "os.system": b"cos\nsystem\n(S'touch hostile-marker'\ntR.",
    "posix.system": b"cposix\nsystem\n(S'touch hostile-marker'\ntR.",
    "builtins.eval": b"\x80\x02cbuiltins\neval\n" + _unicode(EVAL) + b"\x85R.",
    "through the engine's imports": b"\x80\x04"
    + _unicode(b"engine.greenwood.catalogue")
    + _unicode(b"resources._common.os.system")
    + b"\x93"
    + _unicode(b"touch hostile-marker")
    + b"\x85R.",
}
"""Pickles that run code when unpickled (what a snapshot could be before issue 25)."""

CRAFTED = [
    *PICKLES.values(),
    b"",
    b"null",
    b"{}",
    b"[]",
    b'{"game": "greenwood"}',
    b"[" * 100_000 + b"]" * 100_000,
    b'{"game": "greenwood", "players": ' + b"9" * 5000 + b"}",
    b'{"game": "greenwood", "players": 1e400}',
    b'{"game": "greenwood", "players": 2, "options": ' + b"[" * 50_000 + b"]" * 50_000 + b"}",
    b'{"__reduce__": ["os.system", ["touch hostile-marker"]]}',
    b"\xff\xfe\x00\x00",
    b'"' + b"\\u0000" * 1000 + b'"',
]


def markers(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if "marker" in p.name]


def _game_states() -> dict[str, tuple[object, list]]:
    from engine.core import Session, find_game, move_from_dict

    examples = Path(__file__).resolve().parents[2] / "docs" / "examples"
    found: dict[str, tuple[object, list]] = {}
    for name in ("greenwood", "dont_starve", "stonesaga"):
        lines = (examples / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
        head = json.loads(lines[0])
        session = Session(find_game(name), head.get("setup"), int(head.get("seed", 0)))
        states = [session.state]
        for line in lines[1:]:
            if line.strip() and session.submit(move_from_dict(json.loads(line))).accepted:
                states.append(session.state)
        found[name] = (session.game, states)
    return found


GAME_STATES = _game_states()


def payloads(real: bytes) -> st.SearchStrategy[bytes]:
    """Random bytes, bits flipped in a real snapshot, crafted payloads, random JSON, and real
    snapshots of other games and moments."""
    others = [encode_state(s, g) for g, states in GAME_STATES.values() for s in states[::7]]
    bits = st.lists(st.integers(0, len(real) * 8 - 1), min_size=1, max_size=6)

    def flip(positions: list[int]) -> bytes:
        out = bytearray(real)
        for bit in positions:
            out[bit // 8] ^= 1 << (bit % 8)
        return bytes(out)

    return st.one_of(
        st.binary(max_size=400),
        bits.map(flip),
        st.sampled_from(CRAFTED),
        JSON.map(lambda v: json.dumps(v, allow_nan=True).encode()),
        st.sampled_from(others),
        st.integers(1, len(real) - 1).map(lambda n: real[:n]),
    )


def test_the_snapshot_decoder_refuses_in_one_line_and_runs_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hostile bytes straight into the codec, for each of the three games: a state of that game
    or SnapshotError in one line, never another exception, never code run."""
    monkeypatch.chdir(tmp_path)
    game, states = GAME_STATES["greenwood"]
    real = encode_state(states[-1], game)
    outcomes: dict[str, int] = {}

    @settings(max_examples=400, deadline=None, derandomize=True, database=None)
    @given(payload=payloads(real), name=st.sampled_from(sorted(GAME_STATES)))
    def refused_or_a_state(payload: bytes, name: str) -> None:
        game = GAME_STATES[name][0]
        try:
            state = decode_state(payload, game)
        except SnapshotError as exc:
            assert "\n" not in str(exc)
            outcomes["refused"] = outcomes.get("refused", 0) + 1
        else:
            assert isinstance(state, State) and state.game == game.name
            outcomes["a state"] = outcomes.get("a state", 0) + 1

    refused_or_a_state()
    for payload in PICKLES.values():
        with pytest.raises(SnapshotError, match="not a state of greenwood"):
            decode_state(payload, game)
    print(f"\nsnapshot decoder fuzzing: {outcomes}")
    assert not markers(tmp_path)
    assert outcomes.get("refused") and outcomes.get("a state")


@pytest.fixture(scope="module")
def hostile_template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, State]:
    """A greenwood save with several snapshots (one every 5 entries), the newest snapshot's
    entry, and the state its log replays to."""
    from kiosk.store import snapshots

    folder = tmp_path_factory.mktemp("hostile")
    path = folder / "template.sqlite"
    every, snapshots.SNAPSHOT_EVERY = snapshots.SNAPSHOT_EVERY, SNAPSHOT_EVERY
    try:
        with Store.open(path) as store:
            saved = store.new_game("g", "greenwood", {"players": 2}, seed=3)
            rnd = random.Random(3)
            while len(saved.session.moves) < SAVE_MOVES and saved.session.state.outcome is None:
                move = sample(offers(saved.game, saved.session.state), rnd)
                assert move is not None and saved.submit(move).accepted
            expected = saved.session.state
    finally:
        snapshots.SNAPSHOT_EVERY = every
    conn = sqlite3.connect(path)
    (newest,) = conn.execute("SELECT max(seq) FROM snapshots").fetchone()
    conn.close()
    return path, newest, expected


def forge(path: Path, seq: int, payload: bytes) -> None:
    """What someone with the file and this code can do: put ``payload`` as the snapshot after
    entry ``seq`` and rewrite the log's chain to vouch for it (its digest, every later entry's
    chain, the head), so that the payload reaches the decoder."""
    conn = sqlite3.connect(path)
    engine, moves = conn.execute(
        "SELECT engine, moves FROM snapshots WHERE seq = ?", (seq,)
    ).fetchone()
    conn.execute("UPDATE snapshots SET state = ? WHERE seq = ?", (payload, seq))
    previous = _identity(conn, 1)
    rows = conn.execute("SELECT seq, kind, move, snapshot FROM log ORDER BY seq").fetchall()
    for number, kind, move, snapshot in rows:
        if number == seq + 1:
            snapshot = snapshot_digest(previous, seq, moves, engine, payload)
        previous = _link(previous, number, kind, move and move.encode(), snapshot)
        conn.execute(
            "UPDATE log SET chain = ?, snapshot = ? WHERE seq = ?", (previous, snapshot, number)
        )
    conn.execute("UPDATE games SET head = ?", (previous,))
    conn.commit()
    conn.close()


def test_a_hostile_snapshot_in_a_real_save_resumes_the_logs_state(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    hostile_template: tuple[Path, int, State],
) -> None:
    """Hostile bytes as the newest snapshot of a real save, as left in the file (the chain then
    finds them) or with the chain rewritten to vouch for them (the decoder then meets them):
    opening the save never raises, runs nothing, and resumes the log's exact state, except
    when the forged chain vouches for a valid state of this game at that move (then that state:
    nothing without a secret can tell a forger's log from the real one)."""
    template, newest, expected = hostile_template
    monkeypatch.chdir(tmp_path)
    game, _ = GAME_STATES["greenwood"]
    conn = sqlite3.connect(template)
    real, moves = conn.execute(
        "SELECT state, moves FROM snapshots WHERE seq = ?", (newest,)
    ).fetchone()
    conn.close()
    seen: dict[str, int] = {}

    @settings(
        max_examples=150,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(payload=payloads(real), forged=st.booleans())
    def resumes_the_log(payload: bytes, forged: bool) -> None:
        path = tmp_path / "games.sqlite"
        shutil.copyfile(template, path)
        if forged:
            forge(path, newest, payload)
        else:
            conn = sqlite3.connect(path)
            conn.execute("UPDATE snapshots SET state = ? WHERE seq = ?", (payload, newest))
            conn.commit()
            conn.close()
        with Store.open(path) as store:
            state = store.load("g").session.state
        if state == expected:
            kind = "log's state" if payload != real else "the real snapshot"
        else:
            assert forged, "an unforged snapshot changed the resumed state"
            assert decode_state(payload, game).moves == moves  # a valid state at its place
            kind = "a forged valid state"
        seen[kind] = seen.get(kind, 0) + 1

    resumes_the_log()
    print(f"\nhostile snapshots in a real save: {seen}")
    assert not markers(tmp_path)
    assert seen.get("log's state", 0) > 100


def test_replay_from_a_save_with_a_pickled_snapshot_runs_nothing(
    tmp_path: Path, hostile_template: tuple[Path, int, State]
) -> None:
    """`tablesight replay --from-save`, as a user runs it, on a save whose newest snapshot is a
    code-running pickle vouched for by a rewritten chain: no file made, one warning line, the
    game's exact state, exit 0."""
    template, newest, expected = hostile_template
    path = tmp_path / "games.sqlite"
    shutil.copyfile(template, path)
    forge(path, newest, PICKLES["os.system"])
    (tmp_path / "moves.jsonl").write_text("")
    args = ["--data-dir", str(tmp_path), "replay", "greenwood", "moves.jsonl"]
    proc = tablesight(*args, "--from-save", "g", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert one_line(proc).startswith(
        f"the snapshot after entry {newest} of the saved game 'g' is ignored, its log replays"
        " instead: not a state of greenwood"
    )
    assert not markers(tmp_path)
    with Store.open(path, read_only=True) as store:
        assert store.load("g").session.state == expected


def test_a_forged_snapshot_the_log_does_not_replay_after_falls_back_to_the_log(
    tmp_path: Path, hostile_template: tuple[Path, int, State], caplog: pytest.LogCaptureFixture
) -> None:
    """A valid state vouched for by a rewritten chain, after which the logged moves are not
    legal (another phase): the store replays the log from the start instead of refusing the
    save, and says so in one line."""
    template, newest, expected = hostile_template
    path = tmp_path / "games.sqlite"
    shutil.copyfile(template, path)
    conn = sqlite3.connect(path)
    (real,) = conn.execute("SELECT state FROM snapshots WHERE seq = ?", (newest,)).fetchone()
    conn.close()
    data = json.loads(real)
    game = GAME_STATES["greenwood"][0]
    other = next(p.name for p in game.phases if p.name != data["flow"]["phase"])
    data["flow"] = {**data["flow"], "phase": other, "step": 0}
    forged = json.dumps(data).encode()
    assert decode_state(forged, game).flow.phase == other
    forge(path, newest, forged)
    with Store.open(path) as store:
        assert store.load("g").session.state == expected
    (said,) = [r.getMessage() for r in caplog.records if "does not replay" in r.getMessage()]
    assert f"after its snapshot after entry {newest}" in said and "from the start" in said
