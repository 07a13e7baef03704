"""The example games in docs/examples replay through `tablesight replay` to their outcome."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core import event_from_dict, move_from_dict
from engine.core.records import event_types, move_types
from kiosk.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def replay(capsys, name: str) -> tuple[int, list[dict], int]:
    """Exit code, the JSON results, and how many lines the file has."""
    path = EXAMPLES / name
    code = main(["--lang", "en", "replay", "dont_starve", str(path), "--json"])
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    results = [r for r in results if not r.get("setup")]  # the moves' rows (line 1 sets up)
    return code, results, len(path.read_text(encoding="utf-8").splitlines())


def ended(results: list[dict]) -> dict:
    events = [e for r in results for e in r.get("events", [])]
    return next(e for e in events if e["type"] == "game_ended")


def test_the_won_example_reads_every_line_and_wins_in_round_two(capsys) -> None:
    """Round 1: moves, a refused non-adjacent move (§相邻), exploring, a fight with its dice
    (§战斗结算), the dial to 0, needs, weather; round 2 after preparation: a scenario-monster
    fight, then the scenario card's victory (§胜利与失败) with classic's 4 points (§营地阶段)."""
    code, results, lines = replay(capsys, "dont_starve.jsonl")
    assert code == 0
    assert [r["line"] for r in results] == list(range(2, lines + 1))
    refused = [(r["line"], r["verdict"]["code"]) for r in results if not r["accepted"]]
    assert refused == [(4, "dont_starve.not_adjacent")]
    phases = [e["phase"] for r in results for e in r["events"] if e["type"] == "phase_started"]
    assert phases == ["daily_needs", "weather", "scenario", "preparation", "action"]
    assert ended(results) == {
        "type": "game_ended",
        "result": "shared_win",
        "winners": [0, 1],
        "reason": "dont_starve.scenario_won",
    }
    won = [e for r in results for e in r["events"] if e["type"] == "dont_starve.scenario_won"]
    assert won == [{"type": "dont_starve.scenario_won", "unlock_points": 4}]


def test_the_lost_example_ends_when_wendy_falls_a_second_time(capsys) -> None:
    """Wendy alone lights 1 of the 2 light round 2's night asks for and no fire on round 3's
    hard night (§光照: 5 health per missing point) and falls outside the action phase; the one
    meat effigy revives her in round 4's preparation (§角色复活); round 5's night she falls
    again with no effigy left: the scenario is lost at once (§胜利与失败)."""
    code, results, lines = replay(capsys, "dont_starve-lost.jsonl")
    assert code == 0 and all(r["accepted"] for r in results)
    assert [r["line"] for r in results] == list(range(2, lines + 1))
    events = [e for r in results for e in r["events"]]
    assert ended(results)["result"] == "loss"
    assert ended(results)["reason"] == "dont_starve.no_effigy"
    kinds = [e["type"] for e in events if e["type"].startswith("dont_starve.character_")]
    assert [k for k in kinds if k != "dont_starve.character_moved"] == [
        "dont_starve.character_defeated",
        "dont_starve.character_revived",
        "dont_starve.character_defeated",
    ]


@pytest.mark.parametrize("name", ["dont_starve.jsonl", "dont_starve-lost.jsonl"])
def test_the_examples_start_with_a_setup_line(name: str) -> None:
    first = json.loads((EXAMPLES / name).read_text(encoding="utf-8").splitlines()[0])
    assert set(first) == {"setup", "seed"} and first["setup"]["players"] >= 1


DOC = EXAMPLES.parent / "dont_starve.md"


def doc_examples() -> list[dict]:
    """Every JSON example in a table row of docs/dont_starve.md."""
    found = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        for cell in line.split("|")[2:3]:
            cell = cell.strip()
            if cell.startswith("`{") and cell.endswith("}`"):
                found.append(json.loads(cell[1:-1]))
            elif cell.startswith("`{"):
                found.append(json.loads(cell[1 : cell.index("}`") + 1]))
    return found


def test_the_documented_examples_are_real_moves_and_events_and_cover_every_type() -> None:
    """docs/dont_starve.md: one example per move and per event, each parsing exactly."""
    examples = doc_examples()
    types = {e["type"] for e in examples}
    own = {t for t in (*move_types(), *event_types()) if t.startswith("dont_starve.")}
    assert own <= types
    for example in examples:
        kind = example["type"]
        parse = move_from_dict if kind in move_types() else event_from_dict
        assert parse(example).to_dict() == example
