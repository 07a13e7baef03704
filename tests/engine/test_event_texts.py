"""Every event a game announces has a line for the kiosk's log in Chinese and English."""

from __future__ import annotations

import dataclasses
import string

import pytest

from engine.core import find_game
from engine.core.records import event_types

GAMES = ["greenwood", "dont_starve", "stonesaga"]


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("name", GAMES)
def test_each_event_of_a_game_has_a_text_in_both_languages_using_its_fields(name: str) -> None:
    game = find_game(name)
    own = {t: cls for t, cls in event_types().items() if t.startswith(f"{game.name}.")}
    assert own, "the game announces events of its own"
    assert set(game.event_texts) == set(own)
    for kind, cls in own.items():
        fields = {f.name for f in dataclasses.fields(cls)}
        if "seat" in fields:
            fields.add("player")
        text = game.event_texts[kind]
        assert text.zh and text.en and text.zh != text.en, kind
        for template in (text.zh, text.en):
            assert placeholders(template) <= fields, (kind, template)
