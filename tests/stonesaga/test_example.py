"""docs/examples/stonesaga.jsonl replays through `tablesight replay`: a full day, night and save."""

from __future__ import annotations

import json
from pathlib import Path

from kiosk.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "stonesaga.jsonl"


def test_the_example_replays_every_line_to_a_shared_win(capsys) -> None:
    """Every line is read (exit 0); the refusals are the ones the example means to show."""
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    assert "setup" in json.loads(lines[0])
    assert main(["replay", "stonesaga", str(EXAMPLE), "--json"]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert out.pop(0)["setup"] is True  # line 1 sets the game up: its events come first
    assert [o["line"] for o in out] == list(range(2, len(lines) + 1))
    refused = [o["verdict"]["code"] for o in out if not o["accepted"]]
    assert refused == [
        "stonesaga.reroll_needed",  # §创造角色.1
        "stonesaga.not_in_bag",  # §采矿.3: the cave's bag holds one cloud stone
        "stonesaga.draw_limit",  # §采矿: at most 3 draws
        "stonesaga.not_same_tile",  # §交换
        "stonesaga.shelter_full",  # §备庇护所
        "stonesaga.boost_needed",  # §夜晚阶段.7
    ]
    kinds = [e["type"] for o in out for e in o["events"]]
    phases = [e["phase"] for o in out for e in o["events"] if e["type"] == "phase_started"]
    nights = [p for p in phases if p.startswith("night_")]
    assert nights[:9] == [f"night_{n}" for n in range(1, 10)]  # §夜晚阶段 1–9
    assert "stonesaga.ore_drawn" in kinds and "stonesaga.valley_recorded" in kinds
    assert out[-1]["events"][-1] == {
        "type": "game_ended",
        "result": "shared_win",
        "winners": [0, 1],
        "reason": "stonesaga.won",
    }


def test_the_example_reads_as_text_in_chinese(capsys) -> None:
    """The refusals carry their Chinese message and the rule they cite."""
    assert main(["--lang", "zh", "replay", "stonesaga", str(EXAMPLE)]) == 0
    text = capsys.readouterr().out
    assert "袋里已经没有云石了" in text and "[stonesaga.zh.md §采矿.3]" in text
    assert text.rstrip().endswith("game over: 你们赢了! 挑战胜利:氏族一起完成了挑战卡的目标")
