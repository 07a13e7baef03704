"""The table: the saved game being played and what the screen shows of it.

Every change goes through here, under one lock: moves are committed to the store before their
events are kept for the screen (the store's rule), and a status snapshot is built on demand.
"""

from __future__ import annotations

import threading
from collections import deque
from datetime import UTC, datetime
from typing import Any

from engine.core import Event, Move, Result, Text
from kiosk.settings import Settings
from kiosk.store import SavedGame, SaveNotFoundError, Store, StoreDamagedError

RECENT_EVENTS = 30


class Table:
    """One saved game at the table, safe to use from the web server's threads."""

    def __init__(self, saved: SavedGame, notices: list[Text] | None = None) -> None:
        self.saved = saved
        self.notices = list(notices or [])
        self._lock = threading.Lock()
        self._recent: deque[dict[str, Any]] = deque(maxlen=RECENT_EVENTS)

    def submit(self, move: Move) -> Result:
        """Check and apply a move; accepted moves are saved before this returns."""
        with self._lock:
            result = self.saved.submit(move)
            self._remember(result.events)
            return result

    def undo(self) -> tuple[Event, ...]:
        """Take back the last move (saved first)."""
        with self._lock:
            events = self.saved.undo()
            self._remember(events)
            return events

    def _remember(self, events: tuple[Event, ...]) -> None:
        for event in events:
            self._recent.append(event.to_dict())

    def status(self, lang: str) -> dict[str, Any]:
        """A snapshot of where the game is, in the kiosk's language."""
        with self._lock:
            session = self.saved.session
            state, game = session.state, session.game
            phase = game.phase(state.flow.phase)
            step = phase.steps[state.flow.step] if state.flow.step < len(phase.steps) else None
            return {
                "game": game.name,
                "title": game.title.in_(lang),
                "save": self.saved.name,
                "players": state.players,
                "round": state.flow.round,
                "rounds": game.rounds,
                "phase": {"name": phase.name, "title": phase.title.in_(lang), "rule": phase.rule},
                "step": None
                if step is None
                else {
                    "name": step.name,
                    "title": step.title.in_(lang),
                    "index": state.flow.step + 1,
                    "of": len(phase.steps),
                },
                "order": phase.order.value,
                "current_player": None if state.flow.current is None else state.flow.current + 1,
                "passed_players": sorted(seat + 1 for seat in state.flow.done),
                "moves": len(session.moves),
                "outcome": None if state.outcome is None else state.outcome.__dict__,
                "view": game.view(state, lang),
                "recent": list(self._recent)[-10:],
                "notices": [n.in_(lang) for n in self.notices],
            }


def open_table(settings: Settings, store: Store | None = None) -> tuple[Table, Store]:
    """Resume the saved game (``settings.save`` or the latest) or start a new one.

    A damaged database is set aside and a new one is made; the notice says so.
    """
    notices: list[Text] = []
    if store is None:
        try:
            store = Store.open(settings.database)
        except StoreDamagedError as exc:
            notices.append(
                Text(f"存档数据库已损坏,已原样另存为 {exc.moved_to.name},并新建了数据库", str(exc))
            )
            store = Store.open(settings.database)
    try:
        saved = store.load(settings.save)
        moves = len(saved.session.moves)
        notices.append(
            Text(
                f"继续存档“{saved.name}”({saved.game.title.zh},已有{moves}步)",
                f"resumed saved game {saved.name!r} ({saved.game.name}, {moves} moves)",
            )
        )
    except SaveNotFoundError:
        name = settings.save or f"{settings.game}-{datetime.now(UTC):%Y%m%d-%H%M%S}"
        saved = store.new_game(name, settings.game)
        notices.append(
            Text(
                f"新开一局{saved.game.title.zh},存档名“{name}”",
                f"started a new game of {saved.game.name} saved as {name!r}",
            )
        )
    return Table(saved, notices), store
