"""Stonesaga (石纪元), from ``stonesaga.zh.md``: the day's actions and their energy, health and
maladies, tests with heroic effort and boosts, character creation, mining from the bag, the
nine-step night, the behemoth phase and the campaign record. See ``docs/stonesaga.md``.
"""

from engine.core import register_game
from engine.stonesaga.game import Hero, Stonesaga, StonesagaOptions

STONESAGA = register_game(Stonesaga())

__all__ = ["STONESAGA", "Hero", "Stonesaga", "StonesagaOptions"]
