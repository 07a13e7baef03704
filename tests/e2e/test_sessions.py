"""The scripted session of each game, played in this process through the real pipeline:
synthetic frames → incremental detector → stabiliser → reader → engine → save → LEDs.

Each test plays a whole game at speed 0 and checks what the camera (and only the camera) made
of the table, that the game ended, and what the emulated LED controller received over its
pseudo-terminal.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI

from engine.core import Move, Result
from kiosk.app import create_app
from kiosk.leds import TRACK_COLOUR
from kiosk.loop import TableLoop
from kiosk.rig import TableHardware
from kiosk.settings import load_settings
from kiosk.table import Table, open_table

SESSION_S = 120.0  # a bound on the wait for a session to end, not a timing check


@dataclass
class Played:
    """What happened while a session played."""

    table: Table
    hardware: TableHardware
    submits: list[tuple[Move, Result, bool]] = field(default_factory=list)
    """Every move submitted: the move, its result, and whether the camera made it."""
    prompts: list[str] = field(default_factory=list)
    """The code of every prompt shown."""
    marked: list[int] = field(default_factory=list)
    """At each change of what the camera finds wrong with the map: the places the screen's
    board marks missing or wrong."""
    trays: list[tuple[int, int]] = field(default_factory=list)
    """Each dice pool announced during play: dice in it, tray slots the device came to light."""

    def camera(self) -> list[tuple[Move, Result]]:
        """The moves the table loop made from what the camera saw."""
        return [(m, r) for m, r, seen in self.submits if seen]


@pytest.fixture
def play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    opened: list[tuple[TableHardware, Any]] = []
    in_frame = threading.local()
    original = TableLoop.process

    def process(self: TableLoop, frame: Any) -> Any:
        in_frame.on = True
        try:
            return original(self, frame)
        finally:
            in_frame.on = False

    monkeypatch.setattr(TableLoop, "process", process)

    def run(game: str) -> Played:
        settings = load_settings(data_dir=tmp_path, lang="en", game=game, speed=0)
        settings.gpio.pin_factory = "mock"
        table, store = open_table(settings)
        hardware = TableHardware(settings)
        opened.append((hardware, store))
        played = Played(table, hardware)
        submit, show = table.submit, table.show_prompts

        def recording_submit(move: Move) -> Result:
            result = submit(move)
            played.submits.append((move, result, getattr(in_frame, "on", False)))
            return result

        def recording_show(prompts: list[Any]) -> None:
            played.prompts += [code for code, _ in prompts]
            show(prompts)

        table.submit = recording_submit  # type: ignore[method-assign]
        table.show_prompts = recording_show  # type: ignore[method-assign]
        app: FastAPI = create_app(settings, table, hardware=hardware)
        hardware.open(app)
        table.listen(lambda change: follow_trays(played, change.kind))
        table.listen(lambda change: follow_layout(played, change.kind))
        assert hardware.loop is not None, "the simulation did not start"
        assert hardware.loop.ended.wait(SESSION_S), "the session did not reach its end"
        return played

    yield run
    for hardware, store in opened:
        hardware.close()
        store.close()


def lit(hardware: TableHardware) -> int:
    """How many tray slots the emulated device shows lit."""
    assert hardware.emulator is not None
    state = hardware.emulator.state
    return sum(led.colour != (0, 0, 0) for tray in state.trays for led in tray)


def follow_trays(played: Played, kind: str) -> None:
    """After each move that leaves a dice pool, wait (in the loop's thread, so the session
    waits too) until the device lights as many slots as there are dice; record both."""
    if kind != "move":
        return
    dice = len((played.table.status("en")["dice"] or {}).get("dice", []))
    emulator = played.hardware.emulator
    if dice and emulator is not None:
        emulator.wait_for(lambda: lit(played.hardware) == dice, 5)
        played.trays.append((dice, lit(played.hardware)))


def follow_layout(played: Played, kind: str) -> None:
    """Count the places the screen's board marks missing or wrong when the camera's view of the
    map changes."""
    if kind == "layout":
        picture = played.table.status("en")["picture"] or {"boards": []}
        marks = [m for b in picture["boards"] for m in b.get("marks", [])]
        played.marked.append(sum(m["kind"] in ("missing", "wrong") for m in marks))


def assert_ended_with_leds(played: Played) -> None:
    """The game is over and the device shows the final round and dice pool."""
    table, hardware = played.table, played.hardware
    status = table.status("en")
    assert status["outcome"] is not None, status["phase"]
    emulator = hardware.emulator
    assert emulator is not None
    round_led = status["round"] - 1
    assert emulator.wait_for(lambda: emulator.state.track[round_led].colour == TRACK_COLOUR, 5), (
        emulator.state.track
    )
    dice = len((status["dice"] or {}).get("dice", []))
    assert emulator.wait_for(lambda: lit(hardware) == dice, 5), emulator.state.trays
    assert all(want == got for want, got in played.trays), played.trays


def test_greenwood_the_camera_flags_a_piece_off_the_start_cell_then_accepts_it(play) -> None:
    """greenwood.zh.md §三.10: the first piece must cover the start cell."""
    played = play("greenwood")
    camera = [(m.to_dict(), r.verdict.code) for m, r in played.camera()]
    wrong = {"type": "greenwood.place", "seat": 0, "piece": "domino", "cells": [[1, 0], [2, 0]]}
    right = {**wrong, "cells": [[0, 0], [1, 0]]}
    assert [c for c in camera if c[0]["type"] == "greenwood.place"] == [
        (wrong, "greenwood.must_cover_start"),
        (right, "ok"),
    ]
    assert_ended_with_leds(played)


def test_stonesaga_the_camera_reads_the_draws_on_the_pad(play) -> None:
    """stonesaga.zh.md §采矿: a token plain side up is flagged; a stone not in the bag and a
    fourth draw are refused; lifting the drawn tokens finishes the mining."""
    played = play("stonesaga")
    camera = [m.to_dict() for m, r in played.camera() if r.accepted]
    draws = [(m["stone"], m["omen"]) for m in camera if m["type"] == "stonesaga.draw_ore"]
    assert draws == [("sun_stone", "sun"), ("cloud_stone", "moon"), ("river_stone", "comet")]
    assert [m["type"] for m in camera][-1] == "stonesaga.finish_mining"
    for code in ("stonesaga.turn_token", "stonesaga.not_in_bag", "stonesaga.draw_limit"):
        assert code in played.prompts
    assert played.prompts.index("stonesaga.turn_token") < played.prompts.index(
        "stonesaga.not_in_bag"
    )
    assert_ended_with_leds(played)
    assert played.trays, "the dice trays never lit"


def test_dont_starve_a_figure_on_a_face_down_tile_waits_for_it_to_be_turned(play) -> None:
    """dont-starve.zh.md §移动: moving onto a face-down tile reveals it; the camera asks for the
    tile to be turned over, then makes the move with the biome it reads. The table phases
    advance by the advance button on the mock pins."""
    played = play("dont_starve")
    camera = [(m.to_dict(), r.accepted) for m, r in played.camera()]
    move = {"type": "dont_starve.move", "seat": 0, "to": "E", "main": False, "biome": "forest"}
    assert camera == [(move, True)]
    # §移动: a figure put on a tile that does not touch its own is flagged, not moved
    assert played.prompts[:2] == ["dont_starve.not_adjacent", "dont_starve.reveal"]
    # 世界构建: while the map goes down row by row, the screen draws the scenario's layout with
    # what is missing marked (the portal first: without it the layout cannot be placed; then
    # the three places of the bottom row, laid last), nothing once the map is complete
    assert played.marked == [1, 3, 0]
    advances = [r for m, r, _ in played.submits if m.type == "advance"]
    assert len(advances) == 2 and all(r.accepted for r in advances)
    assert_ended_with_leds(played)
    assert played.trays, "the dice trays never lit"
