"""Simulation scripts: checked before they play, and resumed without making a move twice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core import Session, find_game, offered, offers
from kiosk.simulation import (
    Actions,
    Simulation,
    SimulationError,
    load_script,
    resume_step,
    script_path,
)
from vision.sources import SourceEndedError

HEAD = '[session]\ngame = "greenwood"\nsetup = { players = 2 }\nseed = 1\n'


def write(tmp_path: Path, steps: str) -> Path:
    path = tmp_path / "greenwood.toml"
    path.write_text(HEAD + f"steps = [\n{steps}\n]\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("steps", "problem"),
    [
        ("  { wait = 2 },\n  { jump = 3 },", "step 2 must be one of put, lift"),
        ("  { put = { tag = 586, x = 1, y = 2 } },", "step 1 (put): tag 586 is in no registry"),
        ('  { tap = { type = "greenwood.fly" } },', "step 1 (tap): unknown move type"),
        ('  { press = "reset" },', "step 1 (press): the buttons are advance, undo and menu"),
        ('  { say = "only English" },', "step 1 (say): say what in both languages"),
        ('  { say = { en = "no Chinese" } },', "step 1 (say): say what in both languages"),
    ],
)
def test_a_bad_step_is_named_with_its_number(tmp_path: Path, steps: str, problem: str) -> None:
    with pytest.raises(SimulationError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        load_script(write(tmp_path, steps))


def test_every_shipped_script_loads() -> None:
    for game in ("greenwood", "stonesaga", "dont_starve"):
        script = load_script(script_path(game))
        assert script.game == game and script.steps


def test_a_restart_skips_a_tap_already_saved_and_repeats_one_that_was_not(
    tmp_path: Path,
) -> None:
    script = load_script(
        write(tmp_path, '  { wait = 2 },\n  { tap = { type = "pass", seat = 0 } },')
    )
    progress = tmp_path / "simulation.json"
    assert resume_step(progress, script, 0) == 0  # no progress yet
    progress.write_text(json.dumps({"script": "greenwood.toml", "step": 1, "moves": 4}))
    assert resume_step(progress, script, 4) == 1  # the tap was not saved: make it
    assert resume_step(progress, script, 5) == 2  # it was: go on after it
    progress.write_text(json.dumps({"script": "stonesaga.toml", "step": 1, "moves": 4}))
    assert resume_step(progress, script, 5) == 0  # another script's progress


def test_a_scripted_tap_the_console_does_not_offer_stops_the_session_naming_its_step(
    tmp_path: Path,
) -> None:
    """The simulation taps through the players' console: a move it does not offer as legal now
    (greenwood.zh.md §三.2: recruiting before the dusk marker allows it) is never submitted."""
    script = load_script(
        write(
            tmp_path,
            '  { tap = { type = "greenwood.dusk_marker", seat = 0, effect = "recruit" } },\n'
            '  { tap = { type = "greenwood.recruit", seat = 1, place = 0 } },',
        )
    )
    game = find_game("greenwood")
    session = Session(game, script.setup, script.seed)
    tapped = []

    def tap(move):
        tapped.append(move.type)
        return session.submit(move)

    actions = Actions(
        tap=tap,
        press=lambda button: None,
        offered=lambda move: offered(offers(game, session.state), move) is not None,
    )
    simulation = Simulation(script, actions, speed=0)
    with pytest.raises(SourceEndedError, match=r"greenwood.toml: step 2: the console offers no"):
        for _ in range(10):
            simulation.read()
    assert tapped == ["greenwood.dusk_marker"]  # the second tap never reached the engine
    assert len(session.moves) == 1
