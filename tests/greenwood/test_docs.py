"""docs/greenwood.md documents every Greenwood move, event and reason code, with valid JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path

import engine.greenwood  # noqa: F401  (registers the game)
import vision.readers.greenwood as reader
from engine.core import Reason, event_from_dict, move_from_dict
from engine.core.records import event_types, move_types
from engine.greenwood import reasons
from engine.greenwood.rules import actions as rules
from engine.greenwood.rules import placement as submarine

DOC = (Path(__file__).resolve().parents[2] / "docs" / "greenwood.md").read_text(encoding="utf-8")
EXAMPLES = [json.loads(m) for m in re.findall(r"`(\{\"type\":.*?\})`", DOC)]


def test_every_move_and_event_has_an_example_that_parses_back_exactly() -> None:
    moves = {n for n in move_types() if n.startswith("greenwood.")}
    events = {n for n in event_types() if n.startswith("greenwood.")}
    shown = {e["type"] for e in EXAMPLES}
    assert moves <= shown and events <= shown
    for example in EXAMPLES:
        parse = move_from_dict if example["type"] in moves else event_from_dict
        assert parse(example).to_dict() == example


def test_every_reason_code_is_in_the_table_with_its_rule() -> None:
    for module in (submarine, reasons, rules, reader):
        for value in vars(module).values():
            if isinstance(value, Reason):
                section = value.rule.split()[-1]
                assert f"| `{value.code}` | {section} |" in DOC, value.code
