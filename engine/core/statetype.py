"""The type of a game's states, for reading a state back from data (a saved game's snapshot):
pure, from the Game object alone."""

from __future__ import annotations

import functools
from typing import Any

from engine.core.game import Game
from engine.core.rng import Rng
from engine.core.state import State


@functools.cache
def state_type(game: Game) -> Any:
    """``State[D]``, where D is the type of the game's own data (``State.data``) as its
    ``setup`` makes it with the default options; a state read back from data is typed against
    it, and its ``options`` against ``game.options_type``. GameConfigError if the default
    options cannot set a game up."""
    data, _, _ = game.setup(game.parse_options(None), Rng(0))
    return State[type(data)]  # type: ignore[misc]
