"""The command line: every verb has --help, replay, settings, clear errors without tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core import Pass
from kiosk.cli import build_parser, main
from kiosk.store import Store

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = Path(__file__).with_name("data") / "replay_greenwood.jsonl"
VERBS = ["run", "detect", "scan", "replay", "tags", "calibrate", "bench"]


@pytest.mark.parametrize("verb", VERBS)
def test_every_verb_of_the_design_has_help(verb: str, capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main([verb, "--help"])
    assert info.value.code == 0
    assert verb in capsys.readouterr().out


def test_the_parser_knows_exactly_the_design_verbs() -> None:
    sub = next(a for a in build_parser()._actions if a.dest == "verb")
    assert sorted(sub.choices) == sorted(VERBS)


def test_the_console_script_runs_without_a_traceback(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "replay", "no_such_game", str(EXAMPLE)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert proc.returncode == 2
    (line,) = proc.stderr.strip().splitlines()
    assert line.startswith("tablesight replay: no game called 'no_such_game'; the games are: ")
    assert "greenwood" in line


def test_replay_prints_each_verdict_and_goes_on_after_a_refusal(capsys) -> None:
    code = main(["--lang", "en", "replay", "greenwood", str(EXAMPLE)])
    out = capsys.readouterr().out.splitlines()
    assert code == 1  # the example has one malformed line on purpose
    verdicts = [line for line in out if line.startswith("line ")]
    assert verdicts[0] == 'line 2: {"type":"pass","seat":0}  accepted'
    assert "line 5:" in verdicts[3] and "REJECTED core.no_advance" in verdicts[3]
    assert "REJECTED core.not_your_turn: It is player 2's turn" in verdicts[5]
    assert verdicts[8] == "line 10: malformed: unknown move type 'teleport'"
    assert out[-1] == "after 7 accepted moves: round 1, phase upkeep"


def test_replay_json_gives_one_object_per_line_with_both_languages(capsys) -> None:
    main(["replay", "greenwood", str(EXAMPLE), "--json"])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["line"] for r in rows] == list(range(2, 12))
    rejected = next(r for r in rows if r.get("accepted") is False)
    assert rejected["verdict"]["code"] == "core.no_advance"
    assert rejected["verdict"]["message"]["zh"] and rejected["verdict"]["message"]["en"]
    assert [e["type"] for e in rejected["events"]] == ["move_rejected"]
    assert rows[8] == {"line": 10, "error": "unknown move type 'teleport'"}
    phases = [e["phase"] for r in rows for e in r.get("events", []) if e["type"] == "phase_started"]
    assert phases == ["departure", "night", "dawn", "upkeep"]


def test_replay_from_a_save_starts_there_and_leaves_the_save_untouched(
    tmp_path: Path, capsys
) -> None:
    with Store.open(tmp_path / "games.sqlite") as store:
        saved = store.new_game("tuesday", "greenwood", {"players": 2, "start_seat": 0})
        saved.submit(Pass(seat=0))
    moves = tmp_path / "moves.jsonl"
    moves.write_text('{"type": "pass", "seat": 0}\n{"type": "pass", "seat": 1}\n')
    args = ["--data-dir", str(tmp_path), "--lang", "en", "replay", "greenwood", str(moves)]
    assert main([*args, "--from-save", "tuesday"]) == 0
    out = capsys.readouterr().out
    assert "REJECTED core.already_passed" in out  # seat 0 passed in the save already
    assert out.rstrip().endswith("after 2 accepted moves: round 1, phase departure")
    with Store.open(tmp_path / "games.sqlite") as store:
        assert len(store.load("tuesday").session.moves) == 1


def test_replay_with_an_unknown_save_or_bad_options_says_so(tmp_path: Path, capsys) -> None:
    args = ["--data-dir", str(tmp_path), "replay", "greenwood", str(EXAMPLE)]
    assert main([*args, "--from-save", "nope"]) == 2
    assert "no saved game called 'nope'" in capsys.readouterr().err
    moves = tmp_path / "m.jsonl"
    moves.write_text('{"setup": {"players": 9}}\n')
    assert main(["replay", "greenwood", str(moves)]) == 2
    assert "1 to 4 players, not 9" in capsys.readouterr().err


def test_settings_come_from_toml_env_and_flags_with_clear_errors(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    config = tmp_path / "tablesight.toml"
    config.write_text('port = 99999\nlang = "fr"\n')
    assert main(["--config", str(config), "replay", "greenwood", str(EXAMPLE)]) == 2
    err = capsys.readouterr().err
    assert "2 problem(s)" in err and "port:" in err and "lang:" in err
    config.write_text("port = [\n")
    assert main(["--config", str(config), "replay", "greenwood", str(EXAMPLE)]) == 2
    assert f"settings file {config}" in capsys.readouterr().err
    missing = tmp_path / "missing.toml"
    assert main(["--config", str(missing), "replay", "greenwood", str(EXAMPLE)]) == 2
    assert f"settings file {missing} does not exist" in capsys.readouterr().err


def test_settings_precedence_flag_over_env_over_file(tmp_path: Path, monkeypatch) -> None:
    from kiosk.settings import load_settings

    config = tmp_path / "tablesight.toml"
    config.write_text('lang = "en"\nport = 8100\ngame = "greenwood"\n')
    monkeypatch.setenv("TABLESIGHT_PORT", "8200")
    settings = load_settings(config, lang="zh")
    assert (settings.lang, settings.port, settings.game) == ("zh", 8200, "greenwood")
    monkeypatch.delenv("TABLESIGHT_PORT")
    assert load_settings(config).port == 8100


def test_a_game_without_a_reader_says_so_in_one_line(tmp_path: Path, capsys, monkeypatch) -> None:
    import toy_games  # a game that has no camera reader

    from engine.core import game as registry

    monkeypatch.setitem(registry._GAMES, "toy", toy_games.Toy())  # restored after the test
    assert main(["scan", "toy", str(tmp_path / "table.png")]) == 2
    assert capsys.readouterr().err.strip() == "tablesight scan: the toy reader is not available yet"


def test_scan_reports_an_unreadable_image_once_and_goes_on(tmp_path: Path, capsys) -> None:
    missing, broken = tmp_path / "missing.png", tmp_path / "broken.png"
    broken.write_bytes(b"not an image")
    assert main(["scan", "greenwood", str(missing), str(broken), "--json"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2
    assert err[0].startswith("tablesight scan: ") and str(missing) in err[0]
    assert str(missing) not in err[0].split(str(missing), 1)[1]  # the path is named once
    assert str(broken) in err[1]


def test_bench_engine_prints_and_writes_its_figures(tmp_path: Path, capsys) -> None:
    out = tmp_path / "figures.json"
    assert main(["bench", "engine", "--quick", "--json", str(out)]) == 0
    table = capsys.readouterr().out
    figures = {f["name"]: f for f in json.loads(out.read_text())}
    assert set(figures) == {
        "validate+apply",
        "validate+apply+persist",
        "persist cost ratio",
        "resume a 1000-move game",
        "offers p50",
        "offers p95",
        "offers max",
    }
    assert all(f["value"] > 0 for f in figures.values())
    assert figures["offers p50"]["value"] <= figures["offers p95"]["value"]
    assert "example games" in figures["offers p95"]["note"]
    assert "moves/s" in table and "resume a 1000-move game" in table
