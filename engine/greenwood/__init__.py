"""Greenwood (苍林秘境), from ``greenwood.zh.md``: three nights of dusk, departure, night and dawn.

Its modules follow the roles every game shares (docs/engine.md, "A game's modules"): the phases
are data (``phases.py``), the rules pure functions (``rules/``), the printed components
editable TOML (``data/``). Moves and events: ``moves.py`` and ``docs/greenwood.md``.
"""

from engine.core import register_game
from engine.greenwood.game import Greenwood, GreenwoodOptions
from engine.greenwood.moves import Place

GREENWOOD = register_game(Greenwood())

__all__ = ["GREENWOOD", "Greenwood", "GreenwoodOptions", "Place"]
