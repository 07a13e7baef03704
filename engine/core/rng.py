"""Seeded randomness kept in the game state, so that a game replays exactly.

The state holds only the seed and how many draws were made; each draw makes a fresh generator
from both, so no hidden generator state lives outside the game state.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Rng:
    """A seed and a draw counter; every method returns the value and the advanced Rng.

    >>> a, rng = Rng(7).roll(6)
    >>> b, _ = Rng(7).roll(6)
    >>> a == b and rng.draws == 1
    True
    """

    seed: int
    draws: int = 0

    def _next(self) -> tuple[random.Random, Rng]:
        return random.Random(f"{self.seed}:{self.draws}"), replace(self, draws=self.draws + 1)

    def roll(self, sides: int) -> tuple[int, Rng]:
        """A die roll from 1 to ``sides``."""
        gen, rng = self._next()
        return gen.randint(1, sides), rng

    def choice(self, items: Sequence[T]) -> tuple[T, Rng]:
        """One item, chosen uniformly."""
        gen, rng = self._next()
        return gen.choice(items), rng

    def shuffled(self, items: Sequence[T]) -> tuple[tuple[T, ...], Rng]:
        """The items in a random order."""
        gen, rng = self._next()
        out = list(items)
        gen.shuffle(out)
        return tuple(out), rng
