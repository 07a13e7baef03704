"""Files and paths given on the command line that a hostile or unlucky user could give: each is
one clear line and the documented exit status, never a traceback (the real entry point, as a
user runs it), and random JSON-lines files fuzzed through `tablesight replay`."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import Pass
from kiosk.cli import main
from kiosk.store import Store

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
    (tmp_path / "moves.jsonl").write_text(line + '\n{"type": "pass", "seat": 0}\n')
    proc = tablesight("replay", "greenwood", "moves.jsonl", cwd=tmp_path)
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
        saved = store.new_game("tuesday", "greenwood", {"players": 2, "start_seat": 0})
        saved.submit(Pass(seat=0))
        saved.submit(Pass(seat=1))
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
