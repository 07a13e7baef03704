"""The documented example games replay to their end through `tablesight replay` (kiosk.cli)."""

from __future__ import annotations

import json
from pathlib import Path

from kiosk.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def replay(path: Path, capsys) -> tuple[int, list[dict]]:
    code = main(["--lang", "en", "replay", "greenwood", str(path), "--json"])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return code, [r for r in rows if not r.get("setup")]  # the moves' rows (line 1 sets up)


def test_the_two_player_example_is_a_whole_game_read_to_its_last_line(capsys) -> None:
    """§三.1 three nights to final scoring; §五.5 the most points wins. The file also shows three
    refusals the kiosk would announce (§三.10 start cell, §三.2 marker, §三.10 corner)."""
    path = EXAMPLES / "greenwood.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    code, rows = replay(path, capsys)
    assert code == 0
    assert [r["line"] for r in rows] == list(range(2, len(lines) + 1))
    refused = [r["verdict"]["code"] for r in rows if not r["accepted"]]
    assert refused == [
        "greenwood.must_cover_start",
        "greenwood.marker_must_move",
        "greenwood.not_adjacent",
    ]
    events = [e for r in rows if r["accepted"] for e in r["events"]]
    rounds = [e["round"] for e in events if e["type"] == "round_started"]
    assert rounds == [2, 3]  # round 1 starts with the game, before the first line
    # every point on the score track comes from a reward the kiosk announced (start: 5 points)
    gained = [5, 5]
    for e in events:
        if e["type"] == "greenwood.reward_gained" and e["reward"].startswith("vp:"):
            gained[e["seat"]] += int(e["reward"].removeprefix("vp:"))
    final = next(e for e in events if e["type"] == "greenwood.final_scores")
    assert final["scores"] == gained
    assert final["rescued"] == [2, 2]
    ended = events[-1]
    assert ended["type"] == "game_ended" and ended["result"] == "win"
    assert ended["winners"] == [gained.index(max(gained))]
    placed = [e for e in events if e["type"] == "greenwood.piece_placed"]
    assert {e["piece"] for e in placed} >= {"domino", "wisp", "bar3", "corner3"}


def test_the_solo_example_spies_on_the_virtual_opponent_and_is_rated(capsys) -> None:
    """§四.18: the virtual opponent shows 1, 2, 3 companions a night; §五.6: the rating band."""
    path = EXAMPLES / "greenwood-solo.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    code, rows = replay(path, capsys)
    assert code == 0 and [r["line"] for r in rows] == list(range(2, len(lines) + 1))
    refused = [r["verdict"]["code"] for r in rows if not r["accepted"]]
    assert refused == ["greenwood.spy_needs_energy"]  # companion 1 is not shown in round 1
    events = [e for r in rows if r["accepted"] for e in r["events"]]
    assert [e["count"] for e in events if e["type"] == "greenwood.virtual_companions"] == [1, 2, 3]
    rated = next(e for e in events if e["type"] == "greenwood.solo_rated")
    final = next(e for e in events if e["type"] == "greenwood.final_scores")
    assert rated["score"] == final["scores"][0]
    assert rated["band"] == (1 if rated["score"] <= 45 else 2)
    assert events[-1]["reason"] == f"greenwood.solo_band_{rated['band']}"


def test_the_watchtower_tiles_are_swapped_only_when_preparing_round_3(capsys) -> None:
    """greenwood.zh.md §三.15.2: 更换瞭望塔板块 is done only when preparing the third round, so
    the upkeep after round 1 passes that step over (the table presses Confirm four times, not
    five) and the upkeep after round 2 announces it."""
    code, rows = replay(EXAMPLES / "greenwood.jsonl", capsys)
    assert code == 0
    steps, round_ = [], 1
    for row in rows:
        for e in row["events"] if row["accepted"] else ():
            if e["type"] == "round_started":
                round_ = e["round"]
            if e["type"] == "step_started" and e["phase"] == "upkeep":
                steps.append((round_, e["step"]))
    assert [s for r, s in steps if r == 1] == ["recall_tokens", "threats", "hands", "start_player"]
    assert [s for r, s in steps if r == 2] == [
        "recall_tokens",
        "watchtower",
        "threats",
        "hands",
        "start_player",
    ]
