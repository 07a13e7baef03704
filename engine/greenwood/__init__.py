"""Greenwood (苍林秘境): the flow of its three nights, from ``greenwood.zh.md``.

This package holds the phase structure as data. The placement rules, tokens, tracks and scoring
come with the Greenwood issue; until then the night is played with the core's ``pass`` only.
"""

from engine.core import register_game
from engine.greenwood.game import Greenwood, GreenwoodOptions

GREENWOOD = register_game(Greenwood())

__all__ = ["GREENWOOD", "Greenwood", "GreenwoodOptions"]
