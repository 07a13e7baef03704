"""Don't Starve's rules: whether a move may be made now (``legality``) and what a move allowed
does (``effects``)."""

from engine.dont_starve.rules.effects import play
from engine.dont_starve.rules.legality import check

__all__ = ["check", "play"]
