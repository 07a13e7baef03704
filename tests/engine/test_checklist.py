"""Each game's set-up checklist lives on its Game (engine/core/checklist.py)."""

from __future__ import annotations

import pytest

from engine.core import SetupCheck, find_game
from engine.core.checklist import ANCHOR_CHECK, BY_EYE


@pytest.mark.parametrize("name", ["greenwood", "dont_starve", "stonesaga"])
def test_a_checklist_is_the_anchors_the_games_own_lines_and_the_rest_by_eye(name: str) -> None:
    game = find_game(name)
    checks = game.checklist()
    assert checks[0] is ANCHOR_CHECK and checks[-1] is BY_EYE
    assert checks[1:-1] == game.setup_checks and game.setup_checks
    assert all(isinstance(c, SetupCheck) for c in checks)
    assert len({c.key for c in checks}) == len(checks)
    assert all(c.text.zh and c.text.en for c in checks)


def test_the_camera_looks_for_each_greenwood_players_boards() -> None:
    lines = {c.key: c for c in find_game("greenwood").checklist()}
    assert lines["submarines"].group == "submarine board" and lines["submarines"].per_player
    assert lines["anchors"].need == 4 and lines["rest"].group is None
