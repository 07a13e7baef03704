"""The command line: every verb has --help, replay, settings, clear errors without tracebacks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core import Pass
from engine.greenwood.moves import PlaceDuskMarker
from kiosk.cli import build_parser, main
from kiosk.store import Store

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = Path(__file__).with_name("data") / "replay_greenwood.jsonl"
VERBS = [
    "run",
    "detect",
    "scan",
    "replay",
    "tags",
    "calibrate",
    "bench",
    "track",
    "cafe",
    "inventory",
    "box",
]


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


@pytest.mark.parametrize("asked", [None, "2"])
def test_openblas_keeps_to_one_thread_unless_the_user_said_otherwise(
    tmp_path: Path, asked: str | None
) -> None:
    """OpenBLAS's spinning threads would take the detector's cores: one thread, set before
    numpy loads it; a value the user set is kept."""
    code = (
        "import ctypes, sys\nfrom kiosk.cli import main\n"
        "main(['replay', 'greenwood', sys.argv[1]])\n"
        "import numpy\n"  # loaded by replay already; here to be sure
        "maps = open('/proc/self/maps').read().splitlines()\n"
        "lib = ctypes.CDLL(next(m.split()[-1] for m in maps if 'openblas' in m.lower()))\n"
        "names = ('scipy_openblas_get_num_threads64_', 'openblas_get_num_threads64_',"
        " 'openblas_get_num_threads')\n"
        "print(next(getattr(lib, n)() for n in names if hasattr(lib, n)))"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if asked is not None:
        env["OPENBLAS_NUM_THREADS"] = asked
    proc = subprocess.run(
        [sys.executable, "-c", code, str(EXAMPLE)],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == (asked or "1")  # the threads OpenBLAS runs


def test_replay_prints_each_verdict_and_goes_on_after_a_refusal(capsys) -> None:
    code = main(["--lang", "en", "replay", "greenwood", str(EXAMPLE)])
    out = capsys.readouterr().out.splitlines()
    assert code == 1  # the example has one malformed line on purpose
    verdicts = [line for line in out if line.startswith("line ")]
    assert verdicts.pop(0) == "line 1: set up (seed 7)"  # its events follow, as a move's do
    assert verdicts[2] == 'line 4: {"type":"pass","seat":0}  accepted'  # after the markers
    assert "line 7:" in verdicts[5] and "REJECTED core.no_advance" in verdicts[5]
    assert "REJECTED core.not_your_turn: It is player 2's turn" in verdicts[7]
    assert verdicts[10] == "line 12: malformed: unknown move type 'teleport'"
    assert out[-1] == "after 9 accepted moves: round 1, phase upkeep"


def test_replay_json_gives_one_object_per_line_with_both_languages(capsys) -> None:
    main(["replay", "greenwood", str(EXAMPLE), "--json"])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows.pop(0)["setup"] is True
    assert [r["line"] for r in rows] == list(range(2, 14))
    rejected = next(r for r in rows if r.get("accepted") is False)
    assert rejected["verdict"]["code"] == "core.no_advance"
    assert rejected["verdict"]["message"]["zh"] and rejected["verdict"]["message"]["en"]
    assert [e["type"] for e in rejected["events"]] == ["move_rejected"]
    assert rows[10] == {"line": 12, "error": "unknown move type 'teleport'"}
    phases = [e["phase"] for r in rows for e in r.get("events", []) if e["type"] == "phase_started"]
    assert phases == ["departure", "night", "dawn", "upkeep"]


def test_replay_from_a_save_starts_there_and_leaves_the_save_untouched(
    tmp_path: Path, capsys
) -> None:
    with Store.open(tmp_path / "games.sqlite") as store:
        saved = store.new_game(
            "tuesday", "greenwood", {"players": 2, "start_seat": 0, "draws": "virtual"}
        )
        for seat in (0, 1):  # greenwood.zh.md §三.2: the dusk marker before dusk ends
            saved.submit(PlaceDuskMarker(seat=seat, effect="recruit"))
        saved.submit(Pass(seat=0))
    moves = tmp_path / "moves.jsonl"
    moves.write_text('{"type": "pass", "seat": 0}\n{"type": "pass", "seat": 1}\n')
    args = ["--data-dir", str(tmp_path), "--lang", "en", "replay", "greenwood", str(moves)]
    assert main([*args, "--from-save", "tuesday"]) == 0
    out = capsys.readouterr().out
    assert "REJECTED core.already_passed" in out  # seat 0 passed in the save already
    # departure moves on by itself (nobody holds aurora, greenwood.zh.md §三.3): night begins
    assert out.rstrip().endswith("after 4 accepted moves: round 1, phase night, player 1 to act")
    with Store.open(tmp_path / "games.sqlite") as store:
        assert len(store.load("tuesday").session.moves) == 3


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
        "open 1000-move game, no snapshots",
        "open 1000-move game, snapshots",
        "open 10000-move game, no snapshots",
        "open 10000-move game, snapshots",
        "integrity check, 10000-move save",
        "quick check, 10000-move save",
    }
    assert all(f["value"] > 0 for f in figures.values())
    assert figures["offers p50"]["value"] <= figures["offers p95"]["value"]
    assert "example games" in figures["offers p95"]["note"]
    assert "moves/s" in table and "resume a 1000-move game" in table


# --- the first five minutes: cheap --help, one-line errors, help texts for users --------------

LIGHT_VERBS = VERBS  # every verb, run included (its work is in kiosk.rig)


@pytest.mark.parametrize("words", [[], *([v] for v in LIGHT_VERBS)])
def test_help_imports_none_of_the_heavy_packages(words: list[str]) -> None:
    code = (
        "import sys\nfrom kiosk.cli import build_parser\n"
        f"build_parser({[*words, '--help']!r})\n"
        "print(sorted({m.split('.')[0] for m in sys.modules}"
        " & {'cv2', 'numpy', 'fastapi', 'uvicorn', 'pydantic', 'engine', 'vision'}))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_every_verb_summary_is_the_one_its_module_registers() -> None:
    from kiosk.commands import summaries

    summary_of = summaries()

    sub = next(a for a in build_parser()._actions if a.dest == "verb")
    listed = {c.dest: c.help for c in sub._choices_actions}
    assert listed == summary_of


GAMES = "the games are: "  # then the registered games (tests may register more)


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["run", "--game", "chess"], f"tablesight run: game: no game called 'chess'; {GAMES}"),
        (["replay", "chess", str(EXAMPLE)], f"tablesight replay: no game called 'chess'; {GAMES}"),
        (["scan", "chess", "x.png"], f"tablesight scan: no game called 'chess'; {GAMES}"),
        (["tags", "chess", "--out", "x.pdf"], f"tablesight tags: no game called 'chess'; {GAMES}"),
        (["run", "--port", "99999"], "tablesight run: port: "),
        (["run", "--port", "x"], "tablesight run: argument --port: invalid int value: 'x'"),
        (["run", "--speed", "-1"], "tablesight run: speed: "),
        (
            ["replay", "greenwood", str(EXAMPLE), "--seed", "x"],
            "tablesight replay: argument --seed",
        ),
        (["replay", "greenwood", "nope.jsonl"], "tablesight replay: nope.jsonl: no such file"),
        (["detect", "--family", "tag99", "x.png"], "tablesight detect: --family: no tag family"),
        (["calibrate", "--wait", "0", "x.png"], "tablesight calibrate: --wait must be"),
        (["calibrate", "nope.png"], "tablesight calibrate: nope.png"),
        (["tags", "greenwood", "--out", "no/such/x.pdf"], "tablesight tags: --out: there is no"),
        (["bench", "cli", "--json", "no/such/f.json"], "tablesight bench: --json: there is no"),
        (["bench", "nope"], "tablesight bench: argument suite: invalid choice: 'nope'"),
        (["--lang", "fr", "run"], "tablesight: argument --lang: invalid choice: 'fr'"),
    ],
)
def test_a_bad_game_or_flag_is_one_line_and_exit_2(
    argv: list[str], expected: str, tmp_path: Path, monkeypatch, capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    try:
        code = main(["--data-dir", str(tmp_path), *argv])
    except SystemExit as exit_:  # argparse's usage errors
        code = exit_.code
    assert code == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(expected)
    assert "greenwood" in line or "chess" not in argv


def test_the_settings_file_and_the_environment_are_named_in_their_one_line(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    config = tmp_path / "tablesight.toml"
    config.write_text('game = "chess"\n')
    assert main(["--config", str(config), "replay", "greenwood", str(EXAMPLE)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"tablesight replay: settings file {config}: game: no game called")
    assert "\n" not in err and "greenwood" in err
    monkeypatch.setenv("TABLESIGHT_CAMERA__FPS", "-5")
    assert main(["--data-dir", str(tmp_path), "replay", "greenwood", str(EXAMPLE)]) == 2
    assert capsys.readouterr().err.startswith("tablesight replay: TABLESIGHT_CAMERA__FPS: ")


def test_game_names_are_read_as_players_write_them(tmp_path: Path) -> None:
    from kiosk.settings import load_settings

    assert load_settings(data_dir=tmp_path, game="Dont-Starve").game == "dont_starve"


@pytest.mark.parametrize("verb", VERBS)
def test_help_texts_are_for_users_and_name_the_settings_variables(verb: str, capsys) -> None:
    with pytest.raises(SystemExit):
        main([verb, "--help"])
    text = capsys.readouterr().out
    assert "has not landed" not in text and "not available yet" not in text
    assert "TABLESIGHT_SOURCE" not in text and "$TABLESIGHT" not in text
    if verb == "calibrate":
        assert "TABLESIGHT_CAMERA__SOURCE" in " ".join(text.split())


def test_a_failing_calibration_prints_its_report_once(tmp_path: Path, capsys) -> None:
    import cv2
    import numpy as np

    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), np.full((240, 320, 3), 255, np.uint8))  # an empty table
    assert main(["--data-dir", str(tmp_path), "calibrate", str(photo)]) == 2
    captured = capsys.readouterr()
    assert captured.out.count("missing anchor") == 4  # the report, once
    (line,) = captured.err.strip().splitlines()
    assert line == "tablesight calibrate: not calibrated: 0 of the 4 anchors in view, see above"
    assert "missing anchor" not in line


@pytest.mark.parametrize(
    ("argv", "title"),
    [
        (["--lang", "en", "tags", "greenwood"], "Greenwood"),
        (["--lang", "zh", "tags", "greenwood"], "苍林秘境"),
        (["--lang", "zh", "tags", "greenwood", "--lang", "en"], "Greenwood"),
    ],
)
def test_the_sheets_speak_the_language_asked_before_or_after_the_verb(
    tmp_path: Path, argv: list[str], title: str
) -> None:
    """`tablesight --lang en tags …` wrote Chinese sheets: the verb's own --lang default hid
    the one given before the verb."""
    out = tmp_path / "sheet.svg"
    assert main(["--data-dir", str(tmp_path), *argv, "--out", str(out)]) == 0
    text = "".join(p.read_text(encoding="utf-8") for p in tmp_path.glob("sheet*.svg"))
    assert title in text
    other = "苍林秘境" if title == "Greenwood" else "Greenwood"
    assert other not in text
