"""Simulated café tables in one process: a real saved game (SQLite), a real ``Table`` and a real
publisher each, played by random legal moves taken from the players' console (the engine's
offers). For the bench (``tablesight bench cafe``), the tests and the overview's screenshots.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from engine.core import Move, offers
from engine.core.offers import sample
from kiosk.mqtt.publisher import Publisher
from kiosk.seats import PlayerSeat
from kiosk.settings import MqttSettings
from kiosk.store import Store
from kiosk.table import Table

# Simulated tables draw from the engine's seeded decks: no table gives their cards.
GAME_SETUPS: dict[str, dict[str, Any]] = {
    "greenwood": {"players": 2, "start_seat": 0, "draws": "virtual"},
    "dont_starve": {"players": 2, "draws": "virtual"},
    "stonesaga": {"players": 2, "draws": "virtual"},
}


class SimulatedTable:
    """One table of the simulated café: its own data folder, saved game and publisher."""

    def __init__(
        self,
        name: str,
        folder: Path,
        broker_url: str,
        *,
        game: str = "greenwood",
        seed: int = 0,
        seats: list[PlayerSeat] | None = None,
        outbox_limit: int = 10_000,
        link: str | None = None,
        site: str | None = None,
    ) -> None:
        self.name = name
        self.folder = folder
        self.rnd = random.Random(seed)
        self.games = 1
        self.seats = seats
        self.store = Store.open(folder / "games.sqlite")
        saved = self.store.new_game(f"{game}-{name}", game, GAME_SETUPS.get(game), seed, seats)
        self.table = Table(saved)
        settings = MqttSettings(url=broker_url, table=name, site=site, outbox_limit=outbox_limit)
        self.publisher = Publisher(self.table, settings, folder, link=link, quiet=True)

    def start(self) -> SimulatedTable:
        """Start its publisher (connects in the background)."""
        self.publisher.start()
        return self

    def move(self) -> Move | None:
        """Make one random legal move the console offers; None when the game is over."""
        session = self.table.saved.session
        if session.state.outcome is not None:
            return None
        move = sample(offers(session.game, session.state), self.rnd)
        if move is None:
            return None
        self.table.submit(move)
        return move

    def play_to_end(self, limit: int = 5000) -> int:
        """Play random legal moves until the game ends (or ``limit``); returns how many."""
        for count in range(limit):
            if self.move() is None:
                return count
        return limit

    def next_game(self) -> None:
        """Start a new game of the same kind, in a new save (as a café table does after one)."""
        game = self.table.saved.session.game.name
        self.games += 1
        name = f"{game}-{self.name}-{self.games}"
        self.table.new_game(game, GAME_SETUPS.get(game), name, self.games, self.seats)

    def stop(self) -> None:
        """Stop the publisher (it says "offline") and close the saved game."""
        self.publisher.stop()
        self.store.close()
