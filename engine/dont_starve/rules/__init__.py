"""Don't Starve's rules: whether a move may be made now (``legality``) and what a move allowed
does (``effects``)."""

from engine.dont_starve.rules.effects import play
from engine.dont_starve.rules.legality import check, check_pass

__all__ = ["check", "check_pass", "play"]
