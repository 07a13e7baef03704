"""Don't Starve: The Board Game (饥荒桌游版), from ``dont-starve.zh.md``.

Setup from data (characters, scenario layouts, season setup cards, weather decks), the six
phases of a round, the action dial, moves, exploring, fights, daily needs, weather and the
storm marker, revival and losing. See docs/dont_starve.md.
"""

from engine.core import register_game
from engine.dont_starve.game import DontStarve, DontStarveOptions

DONT_STARVE = register_game(DontStarve())

__all__ = ["DONT_STARVE", "DontStarve", "DontStarveOptions"]
