"""The kiosk's log speaks each game's own events in the kiosk language (from Game.event_texts)."""

from __future__ import annotations

from engine.core import find_game
from kiosk.presenter import describe


def test_a_game_event_is_a_sentence_in_both_languages() -> None:
    game = find_game("greenwood")
    event = {"type": "greenwood.dusk_marker_placed", "seat": 1, "effect": "protect"}
    assert describe(event, game, "en") == "Player 2 blocks protect with the dusk marker"
    assert describe(event, game, "zh") == "2号玩家的黄昏标记放在protect"


def test_an_event_nobody_has_words_for_is_still_shown_plainly() -> None:
    game = find_game("greenwood")
    event = {"type": "somebody.else", "value": 3}
    assert describe(event, game, "en") == "somebody.else: value=3"
