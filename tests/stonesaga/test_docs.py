"""docs/stonesaga.md documents every Stonesaga move, event and reason code with valid examples."""

from __future__ import annotations

import json
import re
from pathlib import Path

import engine.stonesaga.reasons as game
from engine.core import Reason, event_from_dict, move_from_dict
from engine.core.records import event_types, move_types

DOC = Path(__file__).resolve().parents[2] / "docs" / "stonesaga.md"
EXAMPLES = re.findall(r"^\| `(stonesaga\.\w+)` \| `(\{.*?\})` \|", DOC.read_text(), re.M)


def test_every_move_and_event_has_one_example_that_parses() -> None:
    moves = {n for n in move_types() if n.startswith("stonesaga.")}
    events = {n for n in event_types() if n.startswith("stonesaga.")}
    documented = {}
    for name, text in EXAMPLES:
        data = json.loads(text)
        assert data["type"] == name
        record = move_from_dict(data) if name in moves else event_from_dict(data)
        assert record.to_dict() == {**record.to_dict(), **data}
        documented[name] = data
    assert set(documented) == moves | events


def test_every_reason_code_is_in_the_table() -> None:
    text = DOC.read_text()
    reasons = [v for v in vars(game).values() if isinstance(v, Reason)]
    reasons += [r for v in vars(game).values() if isinstance(v, dict) for r in v.values()
                if isinstance(r, Reason)]  # fmt: skip
    missing = sorted(r.code for r in reasons if f"`{r.code}`" not in text)
    assert missing == []
