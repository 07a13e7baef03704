"""Child process of the crash test: plays Greenwood games into a store, reporting each commit.

Prints ``<game name> <number of moves>`` after every accepted move, flushed, so the parent knows
exactly what was shown as accepted when it kills this process.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

from engine.core import Advance, Move, Pass, TurnOrder
from engine.greenwood.moves import PlaceDuskMarker
from kiosk.store import Store


def next_move(saved) -> Move:
    state = saved.session.state
    if saved.game.phase(state.flow.phase).order is TurnOrder.TABLE:
        return Advance()
    seat = state.flow.current
    if seat is None:
        seat = min(set(state.seats) - state.flow.done)
    player = state.data.players[seat]
    if state.flow.phase == "dusk" and player.marker_round != state.flow.round:
        # greenwood.zh.md §三.2: the dusk marker (on another effect than last round's) first
        effect = "aurora" if player.marker == "recruit" else "recruit"
        return PlaceDuskMarker(seat=seat, effect=effect)
    return Pass(seat=seat)


def main(path: Path) -> None:
    with Store.open(path) as store:
        start = len(store.list())
        for k in itertools.count(start):
            saved = store.new_game(
                f"g{k}", "greenwood", {"players": 3, "start_seat": 0, "draws": "virtual"}, seed=k
            )
            print(f"{saved.name} 0", flush=True)
            while saved.session.state.outcome is None:
                if not saved.submit(next_move(saved)).accepted:
                    raise SystemExit("a generated move was refused")
                print(f"{saved.name} {len(saved.session.moves)}", flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
