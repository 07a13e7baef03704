"""Greenwood (苍林秘境), from ``greenwood.zh.md``: three nights of dusk, departure, night and dawn.

The flow is data (``game.py``), the rules are pure functions (``rules.py``, ``submarine.py``),
the printed components are editable TOML (``data/``). Moves and events: ``records.py`` and
``docs/greenwood.md``.
"""

from engine.core import register_game
from engine.greenwood.game import Greenwood, GreenwoodOptions
from engine.greenwood.records import Place

GREENWOOD = register_game(Greenwood())

__all__ = ["GREENWOOD", "Greenwood", "GreenwoodOptions", "Place"]
